// may_mutate_inputs: whether running a program may change the caller's input
// tensors, so that a caller holding copies of them (the JavaScript binding)
// knows to write the new values back. Functional graphs say so with
// USER_INPUT_MUTATION outputs; TRAINING-dialect graphs call in-place ATen
// overloads ("aten::add_.Tensor") directly, here or in a subgraph.
//
// Ownership: borrows the program for the call. Errors: none.
#pragma once

#include "program/exported_program.h"

namespace pt2web {

bool may_mutate_inputs(const ExportedProgram& program);

}  // namespace pt2web
