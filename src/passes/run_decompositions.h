// run_decompositions: ExportedProgram.run_decompositions() of
// torch/export/exported_program.py. Turns a TRAINING-dialect program into a
// functional ATen program:
//  - operators with an entry in the decomposition table are rewritten into
//    Core ATen (passes/decomposition_table.h), except those the caller
//    preserves;
//  - in-place operators (add_, relu_, hardtanh_, ...) become their
//    functional forms; writes into buffers and user inputs become
//    BUFFER_MUTATION / USER_INPUT_MUTATION outputs, placed before the user
//    outputs in input order as torch places them;
//  - every node gets a fresh fx name (passes/fx_names.h), placeholders keep
//    theirs, subgraphs of higher-order operators are decomposed too;
//  - nodes nothing reads are removed; the dialect becomes "ATEN".
// The state dict, constants, range constraints and module call graph carry over.
//
// Ownership: returns a new program; tensors are shared with the input.
// Errors: Error(BadInput) for a preserve list naming an operator that cannot
// be preserved (mutating, aliasing or metadata operators, as torch's
// _override_composite_implicit_decomp refuses them) or that pt2web does not
// know; Error(Unsupported) for in-place writes into views or parameters and
// for argument combinations a decomposition lacks, naming the node.
#pragma once

#include <string>
#include <vector>

#include "passes/decomposition_table.h"
#include "program/exported_program.h"

namespace pt2web {

struct DecompositionOptions {
  // nullptr: core_aten_decompositions().
  const DecompositionTable* table = nullptr;
  // Overloads kept as they are ("aten::linear.default" or "aten.linear.default").
  std::vector<std::string> preserve;
};

ExportedProgram run_decompositions(const ExportedProgram& program, const DecompositionOptions& options = {});

// Checks that `op` may be preserved; throws Error(BadInput) saying why not.
void check_preservable(const std::string& op);

}  // namespace pt2web
