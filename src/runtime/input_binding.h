// The first half of the calling convention: turns a call's (args, kwargs)
// into the flat user inputs of the graph, checking everything torch checks
// before any computing starts: the pytree structure against in_spec (kwargs
// reordered to the spec), tensor vs non-tensor, dtype, rank, static sizes,
// symbolic sizes (ranges, the same symbol equal everywhere, derived sizes
// such as 2*s0), specialized constants and the guards torch 2.14 records
// (program/guard.h; "Guard failed: x.size()[0] % 2 == 0").
//
// Errors: Error(BadInput) with torch-style messages naming the input path,
// e.g. "Expected input at *args[0].shape[1] to be equal to 16, but got 15".
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "program/exported_program.h"
#include "ops/value.h"

namespace pt2web {

struct BoundInputs {
  std::vector<PyValue> leaves;            // flattened user inputs, in signature order
  std::map<std::string, int64_t> symbols; // values bound to the program's size symbols
};

// `sequences` says whether a list may stand for a tuple and vice versa
// (Lenient, for callers such as JavaScript that have only arrays) or not (Exact, as torch).
BoundInputs bind_user_inputs(const ExportedProgram& program, const PyValue& args, const PyValue& kwargs,
                             TreeSpec::SequenceMatch sequences = TreeSpec::SequenceMatch::Exact);

// A leaf as a graph value (tensor, int, float, bool, str, None).
Value value_from_leaf(const PyValue& leaf);
// A graph output as a pytree leaf.
PyValue leaf_from_value(const Value& value);

}  // namespace pt2web
