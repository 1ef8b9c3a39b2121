// Checks one program folder of a conformance corpus (the OpInfo corpus:
// tests/conformance/opinfo, or the full one in ../shared) in one dialect and
// condenses the outcome into one verdict: passed, or the first failure's code
// and message. Shared by the native driver (tools/pt2web_native conform) and
// the Catch2 conformance test.
//
// Results are compared as the fixture tests compare them, with three corpus
// rules: eigen- and singular vectors take the signs of torch's
// (vector_sign_alignment.h), the order of tied elements of unstable sorts is
// forgiven (tie_order_compare.h), and a float16/bfloat16 mismatch is measured against
// the float64 twin of the same sample (half_precision_reference.h); when
// pt2web is at least as close to it as torch, the code is HALF_PRECISION and
// the message has both errors. It remains a failure.
//
// Errors: never throws; a bad program, a failing case or an unreadable cases
// file (code BAD_CASES) becomes the verdict.
#pragma once

#include <string>
#include <vector>

namespace pt2web::testing {

enum class Dialect { Training, Core };

const char* dialect_name(Dialect dialect);  // "training" / "core"

struct ConformanceResult {
  std::string folder;  // the folder's name (last path component)
  Dialect dialect = Dialect::Training;
  bool passed = false;
  std::string code;     // "" when passed; an ErrorCode name, MISMATCH, HALF_PRECISION,
                        // NO_ERROR, EXCEPTION, BAD_CASES or NO_CASES
  std::string message;  // first line of the first failure, or the largest error when passed
  std::vector<std::string> case_lines;  // "name: PASS|FAIL detail" per case
};

ConformanceResult check_conformance_folder(const std::string& dir, Dialect dialect);

// One tab-separated line: PASS|FAIL, folder, dialect, code ("-" when passed), message.
std::string format_result_line(const ConformanceResult& result);

// The program folders named by `path`: the folder itself when it holds a
// model.pt2, else its sub-folders that do, sorted by name. Throws
// std::runtime_error when `path` is neither.
std::vector<std::string> conformance_folders(const std::string& path);

// The last component of a folder path ("a/b/" -> "b").
std::string folder_name(const std::string& dir);

}  // namespace pt2web::testing
