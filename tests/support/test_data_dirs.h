// Where the tests' data folders are (tests/fixtures and its siblings, and
// the conformance corpus), as absolute paths.
//
// Only test_data_dirs.cpp is compiled with the checkout's location, so no
// other test object depends on where the repository sits and a compiler
// cache is shared between clones and worktrees. Nothing here throws.
#pragma once

#include <string>

namespace pt2web::testing {

std::string fixtures_dir();         // tests/fixtures
std::string int8_fixtures_dir();    // tests/fixtures-int8: PT2E int8 programs
std::string export_fixtures_dir();  // tests/fixtures-export
std::string decomp_fixtures_dir();  // tests/fixtures-decomp
std::string torch214_fixtures_dir();      // tests/fixtures-2.14: the model fixtures as torch 2.14 writes them
std::string transformers_fixtures_dir();  // tests/fixtures-transformers: Hugging Face models as users export them
std::string conformance_dir();      // tests/conformance

}  // namespace pt2web::testing
