// Reads a known-failures list (tests/conformance/known_failures.tsv): one
// program a line, tab-separated folder, dialect (training or core) and the
// reason it fails; lines starting with '#' and blank lines are comments.
//
// Errors: throws std::runtime_error naming the file and line when the file
// cannot be read, a line has fewer than three fields, the dialect is neither
// training nor core, the reason is empty or an entry repeats.
#pragma once

#include <map>
#include <string>
#include <utility>

namespace pt2web::testing {

// (folder, dialect) -> reason.
using KnownFailures = std::map<std::pair<std::string, std::string>, std::string>;

KnownFailures read_known_failures(const std::string& path);

}  // namespace pt2web::testing
