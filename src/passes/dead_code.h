// Dead-code elimination: removes nodes none of whose outputs is read by a
// later node or by the graph outputs, unless the node has a side effect
// (an operator that writes into an argument, assertions, range constraints,
// or any target pt2web has no schema for, such as higher-order operators).
// Metadata of removed values is dropped too.
//
// Ownership: edits the graph in place. Errors: none.
#pragma once

#include <vector>

#include "program/exported_program.h"

namespace pt2web {

// Returns, for each node of the graph as given, whether it was kept.
std::vector<bool> eliminate_dead_code(Graph& graph);

// The pass over a whole program (top-level graph and subgraphs).
void eliminate_dead_code(ExportedProgram& program);

// True when removing an unread node with this target would change behaviour.
bool has_side_effect(const std::string& target);

}  // namespace pt2web
