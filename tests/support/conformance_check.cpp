#include "conformance_check.h"

#include <algorithm>
#include <fstream>

#include "fixture_list.h"
#include "fixture_runner.h"
#include "half_precision_reference.h"
#include "tie_order_compare.h"
#include "vector_sign_alignment.h"

namespace pt2web::testing {

const char* dialect_name(Dialect dialect) { return dialect == Dialect::Core ? "core" : "training"; }

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string without_prefix(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : text;
}

const std::string kHalfPrecision = "HALF_PRECISION";

bool has_half_tensor(const PyValue& value) {
  if (value.kind == PyValue::Kind::Tensor)
    return value.tensor.dtype() == DType::Float16 || value.tensor.dtype() == DType::BFloat16;
  for (const auto& item : value.items)
    if (has_half_tensor(item)) return true;
  return false;
}

// The corpus comparison: eigen- and singular vectors signed as torch's,
// ties of unstable sorts forgiven, and a half-precision
// mismatch measured against the float64 twin; one where pt2web is at least as
// close to it as torch is reported as HALF_PRECISION instead of MISMATCH.
OutputComparer corpus_comparer(const std::string& dir, bool core) {
  return [dir, core](const LoadedProgram& session, const Case& c, const PyValue& got, double* max_error) {
    const PyValue signed_got = align_vector_signs(session, c.expected, got);
    std::string r = compare_allowing_tie_order(session, c, signed_got, max_error);
    if (r.empty() || !has_half_tensor(c.expected)) return r;
    HalfPrecisionErrors half = half_precision_errors(dir, core, c, got);
    if (!half.available) return r;
    std::string errors = "; float64 reference (" + half.twin + "): pt2web error " + std::to_string(half.pt2web_error) +
                         ", torch error " + std::to_string(half.torch_error);
    return (half.pt2web_error <= half.torch_error ? kHalfPrecision + ": " : std::string()) + r + errors;
  };
}

}  // namespace

ConformanceResult check_conformance_folder(const std::string& dir, Dialect dialect) {
  ConformanceResult result;
  result.folder = folder_name(dir);
  result.dialect = dialect;
  FixtureResult run;
  try {
    run = run_fixture(dir, dialect == Dialect::Core, 1, corpus_comparer(dir, dialect == Dialect::Core));
  } catch (const std::exception& e) {  // the cases file is missing or malformed
    result.code = "BAD_CASES";
    result.message = first_line(e.what());
    return result;
  }
  if (!run.loaded) {
    result.code = run.load_error_code;
    result.message = first_line(run.load_error);
    return result;
  }
  for (const CaseResult& c : run.cases) {
    result.case_lines.push_back(c.name + ": " + (c.passed ? "PASS " : "FAIL ") + first_line(c.detail));
    if (!c.passed && result.code.empty()) {
      result.code = c.detail.rfind(kHalfPrecision + ": ", 0) == 0 ? kHalfPrecision : c.code;
      result.message = first_line(without_prefix(c.detail, result.code + ": "));
    }
  }
  if (run.cases.empty()) {
    result.code = "NO_CASES";
    result.message = "the cases file has no case";
  }
  result.passed = result.code.empty();
  if (result.passed && run.cases.size() == 1) result.message = run.cases[0].detail;
  return result;
}

std::string format_result_line(const ConformanceResult& result) {
  std::string message = result.message;
  std::replace(message.begin(), message.end(), '\t', ' ');
  return std::string(result.passed ? "PASS" : "FAIL") + "\t" + result.folder + "\t" + dialect_name(result.dialect) +
         "\t" + (result.code.empty() ? "-" : result.code) + "\t" + message;
}

std::string folder_name(const std::string& dir) {
  std::string trimmed = dir.substr(0, dir.find_last_not_of('/') + 1);
  return trimmed.substr(trimmed.rfind('/') + 1);
}

std::vector<std::string> conformance_folders(const std::string& path) {
  auto has_program = [](const std::string& dir) { return std::ifstream(dir + "/model.pt2").good(); };
  if (has_program(path)) return {path};
  std::vector<std::string> folders;
  for (const std::string& name : fixture_names(path))
    if (has_program(path + "/" + name)) folders.push_back(path + "/" + name);
  return folders;
}

}  // namespace pt2web::testing
