// Calling one table operator from another: an operator that ATen defines as
// a composition (ldexp = self * 2^other, isclose, aliases such as divide)
// runs the table's kernels by their overload names, so it shares their
// type promotion and edge cases instead of repeating them.
//
// Errors: whatever the called kernel throws (its messages name the called
// operator); Error(Internal) if the name is missing from the table.
#pragma once

#include <string>
#include <vector>

#include "ops/op_call.h"

namespace pt2web {

// A tensor as an argument of run_op.
inline Value op_arg(const Tensor& t) { return Value::from_tensor(t); }

// Runs `name` (the full overload name: "aten::mul.Tensor", "aten::abs.default") on the leading `args`; the schema's
// defaults fill the rest. Returns every output.
std::vector<Value> run_op(const std::string& name, std::vector<Value> args);

// The first output of run_op, a tensor.
Tensor run_op_tensor(const std::string& name, std::vector<Value> args);

// Runs `name` on the calling operator's own arguments and pushes its
// outputs: the kernel of an ATen alias (divide -> div).
void forward_to(OpCall& c, const std::string& name);

}  // namespace pt2web
