#include "test_data_dirs.h"

namespace pt2web::testing {

namespace {
// Defined for this file alone (tests/CMakeLists.txt). A constant, not a
// std::string, so other files' static initializers may call the functions.
constexpr const char* kTestsDir = PT2WEB_TESTS_DIR;
}  // namespace

std::string fixtures_dir() { return std::string(kTestsDir) + "/fixtures"; }
std::string int8_fixtures_dir() { return std::string(kTestsDir) + "/fixtures-int8"; }
std::string export_fixtures_dir() { return std::string(kTestsDir) + "/fixtures-export"; }
std::string decomp_fixtures_dir() { return std::string(kTestsDir) + "/fixtures-decomp"; }
std::string torch214_fixtures_dir() { return std::string(kTestsDir) + "/fixtures-2.14"; }
std::string transformers_fixtures_dir() { return std::string(kTestsDir) + "/fixtures-transformers"; }
std::string conformance_dir() { return std::string(kTestsDir) + "/conformance"; }

}  // namespace pt2web::testing
