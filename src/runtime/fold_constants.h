// fold_constants: computes once what a program would compute on every call
// from its state alone. A node is folded when its operator is a pure ATen
// kernel pt2web has (no mutated argument, no random numbers, no subgraph),
// every tensor it reads is unwritten state or another folded value, every
// other argument is a literal (no symbolic size), and its result is no
// larger than max(its tensor inputs, 64 KiB) (an expand, a dequantized int8
// weight or a big arange would trade memory for nothing). The folded values
// that unfolded nodes or the graph outputs read become lifted constants
// ("c_folded_<value>", target "folded_<value>"), computed by running the
// folded nodes once through the executor; a view at that frontier is not
// folded (its input becomes the constant instead), so state is never copied
// just to be viewed. The original state stays in the program (the signature
// keeps it) even when nothing reads it any more.
//
// Lives in runtime because it runs kernels through the executor; the
// program it returns is an ordinary ExportedProgram (save it, decompose it).
//
// Ownership: returns a new program; the input is not modified.
// Errors: whatever a folded kernel throws on the program's own state (the
// program would have thrown the same on its first call).
#pragma once

#include "program/exported_program.h"

namespace pt2web {

struct FoldConstantsResult {
  ExportedProgram program;
  size_t folded_nodes = 0;    // nodes removed from the graph
  size_t new_constants = 0;   // lifted constants added
};

FoldConstantsResult fold_constants(const ExportedProgram& program);

}  // namespace pt2web
