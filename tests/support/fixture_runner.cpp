#include "fixture_runner.h"

#include <memory>

#include "cases.h"
#include "runtime/loaded_program.h"
#include "util/error.h"

namespace pt2web::testing {

int FixtureResult::passed() const {
  int n = 0;
  for (const auto& c : cases) n += c.passed ? 1 : 0;
  return n;
}

int FixtureResult::failed() const { return static_cast<int>(cases.size()) - passed() + (loaded ? 0 : 1); }

namespace {

std::string check_state(const LoadedProgram& program, const Case& c) {
  PyValue state = PyValue::dict();
  for (auto& [name, t] : program.state_dict()) state.set(PyValue::from_str(name), PyValue::from_tensor(t));
  // torch records named_buffers(), non-persistent ones (a static KV cache) included.
  for (auto& [name, t] : program.buffers())
    if (!state.get(name)) state.set(PyValue::from_str(name), PyValue::from_tensor(t));
  for (size_t k = 0; k < c.state_after.keys.size(); ++k) {
    const std::string& name = c.state_after.keys[k].s;
    const PyValue* got = state.get(name);
    if (!got) return "state has no '" + name + "'";
    std::string r = compare(*got, c.state_after.items[k], c.rtol, c.atol, nullptr, "state['" + name + "']");
    if (!r.empty()) return r;
  }
  return "";
}

CaseResult run_case(LoadedProgram& program, const Case& c, const OutputComparer& comparer) {
  CaseResult result;
  result.name = c.name;
  double max_error = 0;
  try {
    PyValue out = program.run(c.args, c.kwargs);
    result.output = out;
    if (c.expects_error) {
      result.code = "NO_ERROR";
      result.detail = "ran, but torch rejected this input: " + c.error_message;
      return result;
    }
    std::string r = comparer ? comparer(program, c, out, &max_error)
                             : compare(out, c.expected, c.rtol, c.atol, &max_error);
    if (r.empty() && c.has_state_after) r = check_state(program, c);
    if (r.empty() && c.has_args_after) r = compare(c.args, c.args_after, c.rtol, c.atol, nullptr, "args_after");
    if (r.empty() && c.has_args_after) r = compare(c.kwargs, c.kwargs_after, c.rtol, c.atol, nullptr, "kwargs_after");
    result.passed = r.empty();
    result.code = r.empty() ? "" : "MISMATCH";
    result.detail = r.empty() ? "max error " + std::to_string(max_error) : r;
  } catch (const Error& e) {
    result.passed = c.expects_error && e.code() == ErrorCode::BadInput;
    // A guard the program records (guards_code) is refused with torch's own
    // sentence. (torch 2.14 words its shape checks as guards too, "Guard
    // failed: x.size()[1] == 1"; pt2web's messages for those name the
    // expected and actual sizes instead.)
    for (const Guard& g : program.program().guards)
      if (result.passed && c.error_message == "Guard failed: " + guard_text(g))
        result.passed = std::string(e.what()).find(c.error_message) != std::string::npos;
    result.code = result.passed ? "" : error_code_name(e.code());
    result.detail = std::string(error_code_name(e.code())) + ": " + e.what();
  } catch (const std::exception& e) {
    result.code = "EXCEPTION";
    result.detail = std::string("EXCEPTION: ") + e.what();
  }
  return result;
}

}  // namespace

FixtureResult run_fixture(const std::string& dir, bool core, int threads, const OutputComparer& comparer) {
  FixtureResult result;
  std::string model = dir + (core ? "/model.core.pt2" : "/model.pt2");
  std::unique_ptr<LoadedProgram> program;
  try {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(read_file(model));
    program = std::make_unique<LoadedProgram>(bytes, model);
    program->set_threads(threads);
    result.loaded = true;
  } catch (const Error& e) {
    result.load_error_code = error_code_name(e.code());
    result.load_error = e.what();
    return result;
  } catch (const std::exception& e) {
    result.load_error_code = "EXCEPTION";
    result.load_error = e.what();
    return result;
  }
  result.cases = run_cases(*program, dir + (core ? "/cases.core.json" : "/cases.json"), comparer);
  return result;
}

std::vector<CaseResult> run_cases(LoadedProgram& program, const std::string& cases_path,
                                  const OutputComparer& comparer) {
  std::vector<CaseResult> results;
  for (const Case& c : read_cases(cases_path)) results.push_back(run_case(program, c, comparer));
  return results;
}

}  // namespace pt2web::testing
