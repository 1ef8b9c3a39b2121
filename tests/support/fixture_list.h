// The fixture folders under PT2WEB_FIXTURES_DIR, sorted (README.md and
// dot-files excluded). Throws std::runtime_error when the folder is missing.
#pragma once

#include <string>
#include <vector>

namespace pt2web::testing {

std::vector<std::string> fixture_names(const std::string& fixtures_dir);

// tests/fixtures-int8, the PT2E int8 programs beside tests/fixtures.
#ifdef PT2WEB_FIXTURES_DIR
inline std::string int8_fixtures_dir() { return std::string(PT2WEB_FIXTURES_DIR) + "-int8"; }
#endif

// Whether a regular file exists at `path` (fixtures may leave a dialect out).
bool file_exists(const std::string& path);

}  // namespace pt2web::testing
