// Load-time packing: 1x1 convolutions (unit stride, no padding, one group)
// over a constant float32 weight whose products gemm_f32 would compute
// transposed (narrow output planes, e.g. 7x7: N = 49; static shapes only)
// get their weight packed once into the panels the product reads
// (kernels/gemm/gemm.h, pack_weight_f32) and become
// pt2web::packed_pointwise_conv nodes (ops/conv/packed_pointwise_conv.cpp).
// The packed weights are new lifted constants; lifted constants added by
// load-time folding that no node reads any more (folded weights) are
// dropped, so a folded weight is held once, packed. Parameters stay in the
// program for stateDict() and save() (they borrow the archive bytes).
//
// Runs on the program a session executes, never on the loaded one (the
// packed operator cannot be saved for torch).
// Ownership: rewrites `program` in place; `original_constants` names the
// loaded program's constants (never dropped).
// Errors: none (convolutions it cannot pack stay as they are).
#pragma once

#include <map>
#include <set>
#include <string>

#include "program/exported_program.h"

namespace pt2web {

// `changing`: placeholders whose values may change (never packed). Returns
// whether it packed any weight.
bool pack_pointwise_weights(ExportedProgram& program, const std::map<std::string, PyValue>& original_constants,
                            const std::set<std::string>& changing);

}  // namespace pt2web
