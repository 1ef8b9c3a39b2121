// Compares a conformance program's result with torch's, forgiving the order
// of tied elements where torch does not define it: in programs that sort
// without asking for a stable order (aten.sort.default, aten.argsort.default,
// sort.stable / argsort.stable with stable False or None, aten.topk.default),
// an integer tensor output that differs from torch's still matches when, at
// every position, its indices select the same value of the sorted input
// along the sort dim as torch's indices do (NaN matching NaN). Everything
// else is compared as compare() in cases.h does. Used by the corpus checker
// only (conformance_check.h), never by the fixture tests.
//
// Errors: never throws; returns "" on a match, else the first mismatch.
#pragma once

#include "cases.h"

namespace pt2web {
class LoadedProgram;
}

namespace pt2web::testing {

std::string compare_allowing_tie_order(const LoadedProgram& session, const Case& c, const PyValue& got, double* max_error);

}  // namespace pt2web::testing
