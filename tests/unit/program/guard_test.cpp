// program/guard.h: torch 2.14's guards_code read, printed as torch's failure
// message prints it, and evaluated with Python's arithmetic. Expected texts
// are what torch 2.14 printed (tests/fixtures-export/guarded_sizes) or what
// Python's ast.unparse gives for the same expression.
#include <catch2/catch.hpp>

#include <map>

#include "program/guard.h"
#include "tensor/tensor.h"
#include "util/error.h"

using namespace pt2web;

namespace {

ErrorCode code_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.code();
  }
  return ErrorCode::Internal;  // no error
}

struct Inputs {
  std::map<std::string, PyValue> by_source;
  GuardSourceLookup lookup() const {
    return [this](const std::string& s) -> const PyValue* {
      auto it = by_source.find(s);
      return it == by_source.end() ? nullptr : &it->second;
    };
  }
};

bool holds(const std::string& code, const Inputs& in) {
  try {
    check_guard(parse_guard(code), in.lookup());
    return true;
  } catch (const Error& e) {
    if (e.code() != ErrorCode::BadInput || std::string(e.what()).find("Guard failed: ") == std::string::npos) throw;
    return false;
  }
}

}  // namespace

TEST_CASE("guards print as torch's failure message prints them", "[guard]") {
  CHECK(guard_text(parse_guard("(L['x'].size()[0] % 2) == 0")) == "x.size()[0] % 2 == 0");
  CHECK(guard_text(parse_guard("2*L['x'].size()[0] <= L['z'].size()[0]")) == "2 * x.size()[0] <= z.size()[0]");
  CHECK(guard_text(parse_guard("L['batch']['ids'].size()[1] - (3 - L['n']) >= -1")) ==
        "batch['ids'].size()[1] - (3 - n) >= -1");
  CHECK(guard_text(parse_guard("not (L['a'] == 1 or L['b'] == 2) and max(L['a'], 4) ** 2 > 1.5")) ==
        "not (a == 1 or b == 2) and max(a, 4) ** 2 > 1.5");
}

TEST_CASE("guards evaluate sizes, strides and numbers with Python's rules", "[guard]") {
  Inputs in;
  in.by_source["L['x']"] = PyValue::from_tensor(Tensor::empty(DType::Float32, {5, 3}));
  in.by_source["L['n']"] = PyValue::from_int(-7);
  in.by_source["L['p'].scale"] = PyValue::from_float(0.5);
  CHECK(holds("L['x'].size()[0] % 2 == 1", in));
  CHECK_FALSE(holds("(L['x'].size()[0] % 2) == 0", in));
  CHECK(holds("L['x'].stride()[0] == 3 and L['x'].dim() == 2", in));
  CHECK(holds("L['n'] // 2 == -4 and L['n'] % 3 == 2", in));  // floor division, divisor's sign
  CHECK(holds("1 < L['x'].size()[1] < 4", in));                // chained comparison
  CHECK_FALSE(holds("1 < L['x'].size()[1] < 3", in));
  CHECK(holds("math.floor(L['p'].scale * 5) == 2 and torch.sym_float(L['n']) / 2 == -3.5", in));
  CHECK(holds("round(2.5) == 2 and abs(L['n']) == 7 and min(L['n'], 3) == -7", in));
  CHECK(holds("L['x'].size()[-1] == 3", in));
}

TEST_CASE("guards say what they cannot read or evaluate", "[guard]") {
  CHECK(code_of([] { parse_guard("L['x'].size()[0] === 3"); }) == ErrorCode::Unsupported);
  CHECK(code_of([] { parse_guard("L['x'].size()[0] & 1"); }) == ErrorCode::Unsupported);
  CHECK(code_of([] { parse_guard("(L['x'].size()[0]"); }) == ErrorCode::Unsupported);
  Inputs in;
  in.by_source["L['x']"] = PyValue::from_int(3);
  CHECK(code_of([&] { check_guard(parse_guard("L['y'] == 3"), in.lookup()); }) == ErrorCode::BadInput);
  CHECK(code_of([&] { check_guard(parse_guard("L['x'].size()[0] == 3"), in.lookup()); }) == ErrorCode::BadInput);
  CHECK(code_of([&] { check_guard(parse_guard("L['x'] // 0 == 1"), in.lookup()); }) == ErrorCode::BadInput);
  CHECK(code_of([&] { check_guard(parse_guard("unknown(L['x'])"), in.lookup()); }) == ErrorCode::BadInput);
}
