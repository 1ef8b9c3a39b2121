// Run-time inputs of the wrong dtype, rank, size, structure or count, and
// operator errors in the middle of a run. Each is refused with a pt2web::Error
// and leaves the program exactly as it was: the next good run gives the same
// result, and buffers hold the values they had before the failed call.
#include <cstring>

#include "runtime/bad_input_util.h"
#include "test_data_dirs.h"

using namespace pt2web;
using namespace pt2web::bad_input;

namespace {

std::vector<testing::Case> fixture_cases(const std::string& fixture) {
  return testing::read_cases(testing::fixtures_dir() + "/" + fixture + "/cases.json");
}

PyValue args_of(std::vector<PyValue> items) { return PyValue::tuple(std::move(items)); }

PyValue float_tensor(const Shape& shape) { return PyValue::from_tensor(Tensor::empty(DType::Float32, shape)); }

// Bitwise equality of two state snapshots.
bool same_state(const std::map<std::string, Tensor>& a, const std::map<std::string, Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (const auto& [name, t] : a) {
    auto it = b.find(name);
    if (it == b.end() || it->second.sizes() != t.sizes() || it->second.dtype() != t.dtype()) return false;
    Tensor x = t.contiguous(), y = it->second.contiguous();
    if (std::memcmp(x.raw_data(), y.raw_data(), x.nbytes()) != 0) return false;
  }
  return true;
}

// Copies of the program's parameters and buffers, by name.
std::map<std::string, Tensor> snapshot(const LoadedProgram& program) {
  std::map<std::string, Tensor> copy;
  for (const auto& [name, t] : program.state_dict()) copy[name] = t.clone();
  return copy;
}

}  // namespace

TEST_CASE("wrong run-time inputs are refused and the next run is unaffected", "[bad_input]") {
  std::unique_ptr<LoadedProgram> program = load_bytes(fixture_bytes("mlp"));
  testing::Case good = fixture_cases("mlp").front();
  PyValue first = program->run(good.args, good.kwargs);
  PyValue empty_kwargs = PyValue::dict();

  struct Bad {
    const char* what;
    PyValue args;
    PyValue kwargs;
  };
  PyValue int_input = PyValue::from_tensor(Tensor::empty(DType::Int64, {4, 16}));
  PyValue mask = PyValue::dict();
  mask.set(PyValue::from_str("mask"), float_tensor({4}));
  std::vector<Bad> bad{
      {"dtype", args_of({int_input}), empty_kwargs},
      {"rank", args_of({float_tensor({64})}), empty_kwargs},
      {"size", args_of({float_tensor({4, 15})}), empty_kwargs},
      {"structure", args_of({args_of({float_tensor({4, 16})})}), empty_kwargs},
      {"not a tensor", args_of({PyValue::from_int(3)}), empty_kwargs},
      {"too many", args_of({float_tensor({4, 16}), float_tensor({4, 16})}), empty_kwargs},
      {"too few", args_of({}), empty_kwargs},
      {"unexpected keyword", args_of({float_tensor({4, 16})}), mask},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.what);
    CHECK_REFUSED(refusal_of([&] { program->run(b.args, b.kwargs); }), ErrorCode::BadInput, "");
    double max_error = 0;
    CHECK(testing::compare(program->run(good.args, good.kwargs), first, 0, 0, &max_error).empty());
  }
}

TEST_CASE("a refused input leaves the buffers of a stateful program untouched", "[bad_input]") {
  std::unique_ptr<LoadedProgram> program = load_bytes(fixture_bytes("counter_buffer"));
  std::vector<testing::Case> cases = fixture_cases("counter_buffer");
  program->run(cases[0].args, cases[0].kwargs);
  std::map<std::string, Tensor> before = snapshot(*program);
  CHECK_REFUSED(refusal_of([&] { program->run(args_of({float_tensor({3, 5})}), PyValue::dict()); }),
                ErrorCode::BadInput, "");
  CHECK(same_state(before, snapshot(*program)));
  // The program continues where it was: call 2 of the cases gives torch's answer.
  double max_error = 0;
  CHECK(testing::compare(program->run(cases[1].args, cases[1].kwargs), cases[1].expected, cases[1].rtol,
                         cases[1].atol, &max_error) == "");
}

TEST_CASE("an operator error after a buffer mutation leaves the buffers as before the call", "[bad_input]") {
  // counter_buffer's first node adds 1 to the buffer `count` in place; the
  // sum that follows is made to reduce over dimension 5 of a 2-d input,
  // which only fails when the kernel runs.
  std::vector<uint8_t> bytes = with_program_json("counter_buffer", [](nlohmann::json& p) {
    for (auto& node : p["graph_module"]["graph"]["nodes"])
      if (node["target"] == "torch.ops.aten.sum.dim_IntList") node["inputs"][1]["arg"]["as_ints"][0] = 5;
  });
  std::unique_ptr<LoadedProgram> program = load_bytes(bytes);
  std::vector<testing::Case> cases = fixture_cases("counter_buffer");
  std::map<std::string, Tensor> before = snapshot(*program);
  Refusal r = refusal_of([&] { program->run(cases[0].args, cases[0].kwargs); });
  INFO(r.message);
  CHECK(r.refused);
  CHECK(r.code != ErrorCode::Internal);
  CHECK_THAT(r.message, Catch::Contains("sum"));
  CHECK(same_state(before, snapshot(*program)));
}
