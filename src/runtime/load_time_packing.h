// Load-time packing of constant float32 weights into the panels the
// products read (kernels/gemm/gemm.h, pack_weight_f32), for two kinds of
// node (static shapes only):
//   - 1x1 convolutions (unit stride, no padding, one group) whose products
//     gemm_f32 would compute transposed (narrow output planes, e.g. 7x7:
//     N = 49) become pt2web::packed_pointwise_conv
//     (ops/conv/packed_pointwise_conv.cpp);
//   - linear layers (aten.linear) of at most eight rows, which read their
//     whole weight on every call, become pt2web::packed_linear
//     (ops/linalg/packed_linear.cpp).
// The packed weights are new lifted constants; lifted constants added by
// load-time folding that no node reads any more (folded weights) are
// dropped, so a folded weight is held once, packed. Parameters stay in the
// program for stateDict() and save() (they borrow the archive bytes), so a
// packed linear weight is held twice: the archive's and the packed copy.
//
// Runs on the program a session executes, never on the loaded one (the
// packed operators cannot be saved for torch).
// Ownership: rewrites `program` in place; `original_constants` names the
// loaded program's constants (never dropped).
// Errors: none (nodes it cannot pack stay as they are).
#pragma once

#include <map>
#include <set>
#include <string>

#include "program/exported_program.h"

namespace pt2web {

// `changing`: placeholders whose values may change (never packed). Returns
// whether it packed any weight.
bool pack_weights(ExportedProgram& program, const std::map<std::string, PyValue>& original_constants,
                  const std::set<std::string>& changing);

}  // namespace pt2web
