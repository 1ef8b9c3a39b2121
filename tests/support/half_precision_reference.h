// Judges a float16/bfloat16 corpus result that differs from torch's: runs
// the program's float64 twin (the same OpInfo sample exported in float64, as
// the corpus's INDEX.tsv shows: same OpInfo and variant, same call with the
// dtype renamed) on the inputs widened to float64 and measures how far
// pt2web's and torch's half-precision results are from that reference (the
// largest absolute difference over the floating outputs). torch's CPU
// kernels round some intermediates to half precision, so pt2web can be
// closer to the exact result and still miss torch's value.
//
// Errors: never throws; `available` is false when the corpus has no twin
// (no INDEX.tsv next to the folder, no matching float64 sample), or the twin
// fails to run or returns another structure.
#pragma once

#include <string>

#include "cases.h"

namespace pt2web::testing {

struct HalfPrecisionErrors {
  bool available = false;
  std::string twin;          // the float64 folder's name
  double pt2web_error = 0;   // max |pt2web - float64 reference|
  double torch_error = 0;    // max |torch - float64 reference|
};

HalfPrecisionErrors half_precision_errors(const std::string& dir, bool core, const Case& c, const PyValue& got);

}  // namespace pt2web::testing
