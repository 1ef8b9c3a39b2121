// The program state a pass reads or adds: the tensors behind the
// parameter, buffer and lifted-constant placeholders, and new lifted
// constants (what folding passes produce).
//
// Ownership: tensors are shared handles into the program's state.
// Errors: none (missing state is simply absent from the map).
#pragma once

#include <map>
#include <set>
#include <string>

#include "program/exported_program.h"

namespace pt2web {

// Placeholder name -> the state tensor it stands for (parameters, buffers
// and tensor constants).
std::map<std::string, Tensor> state_by_placeholder(const ExportedProgram& p);

// Placeholders of buffers or inputs the program writes (BUFFER_MUTATION /
// USER_INPUT_MUTATION outputs, and arguments of mutating operators).
std::set<std::string> written_placeholders(const ExportedProgram& p);

// Adds `tensor` as a lifted constant named `target`, read through a new
// placeholder "c_<target>" placed after the other state inputs and before
// the user inputs (torch's order); returns the placeholder's argument.
Argument add_constant_input(ExportedProgram& p, const std::string& target, const Tensor& tensor);

}  // namespace pt2web
