// The fixture folders under PT2WEB_FIXTURES_DIR, sorted (README.md and
// dot-files excluded). Throws std::runtime_error when the folder is missing.
#pragma once

#include <string>
#include <vector>

namespace pt2web::testing {

std::vector<std::string> fixture_names(const std::string& fixtures_dir);

// Whether `path` names a file that can be opened for reading.
bool file_exists(const std::string& path);

}  // namespace pt2web::testing
