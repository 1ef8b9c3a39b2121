// pt2web_native: a native development driver.
//   pt2web_native check DIR [--core]   runs a fixture folder's cases like the npm CLI's check
//   pt2web_native print MODEL.pt2      prints the program
#include <cstdio>
#include <iostream>
#include <memory>

#include "cases.h"
#include "io/pt2_loader.h"
#include "runtime/session.h"
#include "util/error.h"

using namespace pt2web;

namespace {

int check(const std::string& dir, bool core) {
  std::string model = dir + (core ? "/model.core.pt2" : "/model.pt2");
  std::string cases_path = dir + (core ? "/cases.core.json" : "/cases.json");
  std::unique_ptr<Session> session;
  try {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(model));
    session = load_session(bytes, model);
  } catch (const std::exception& e) {
    std::cout << "load failed: " << e.what() << "\n0 passed, 1 failed\n";
    return 1;
  }
  int passed = 0, failed = 0;
  for (auto& c : testing::read_cases(cases_path)) {
    std::string verdict;
    double max_error = 0;
    try {
      PyValue out = session->run(c.args, c.kwargs);
      if (c.expects_error) {
        verdict = "FAIL expected an error: " + c.error_message;
      } else {
        std::string r = testing::compare(out, c.expected, c.rtol, c.atol, &max_error);
        if (r.empty() && c.has_state_after) {
          PyValue state = PyValue::dict();
          for (auto& [name, t] : session->state_dict()) state.set(PyValue::from_str(name), PyValue::from_tensor(t));
          for (size_t k = 0; k < c.state_after.keys.size() && r.empty(); ++k) {
            const PyValue* got = state.get(c.state_after.keys[k].s);
            r = got ? testing::compare(*got, c.state_after.items[k], c.rtol, c.atol, nullptr, "state['" + c.state_after.keys[k].s + "']")
                    : "missing state " + c.state_after.keys[k].s;
          }
        }
        if (r.empty() && c.has_args_after) r = testing::compare(c.args, c.args_after, c.rtol, c.atol, nullptr, "args_after");
        verdict = r.empty() ? "PASS max error " + std::to_string(max_error) : "FAIL " + r;
      }
    } catch (const Error& e) {
      verdict = c.expects_error ? std::string("PASS rejected: ") + e.what() : std::string("FAIL ") + e.what();
    }
    (verdict.rfind("PASS", 0) == 0 ? passed : failed)++;
    std::cout << c.name << "  " << verdict << "\n";
  }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "check") return check(argv[2], argc > 3 && std::string(argv[3]) == "--core");
  if (argc >= 3 && std::string(argv[1]) == "print") {
    auto bytes = std::make_shared<const std::vector<uint8_t>>(testing::read_file(argv[2]));
    std::cout << print_program(load_pt2(bytes, argv[2]));
    return 0;
  }
  std::cerr << "usage: pt2web_native check DIR [--core] | print MODEL.pt2\n";
  return 2;
}
