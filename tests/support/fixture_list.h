// The fixture folders under a fixtures directory, sorted (README.md and
// dot-files excluded). Throws std::runtime_error when the folder is missing.
#pragma once

#include <string>
#include <vector>

namespace pt2web::testing {

std::vector<std::string> fixture_names(const std::string& fixtures_dir);

// Whether a regular file exists at `path` (fixtures may leave a dialect out).
bool file_exists(const std::string& path);

}  // namespace pt2web::testing
