// Calling table operators from other operators. An operator that ATen defines
// as a composition of others (fliplr is flip, max.other is maximum, view_copy
// is view then a copy) runs them through run_op, so each rule and each check
// lives in exactly one kernel.
//
// Errors: whatever the called operator throws (its message names the called
// operator); Error(Internal) when the name is missing from the table.
#pragma once

#include <string>
#include <vector>

#include "ops/op_call.h"

namespace pt2web {

// Runs operator `qualified_name` ("aten::flip.default") with the leading
// arguments given (schema defaults fill the rest) and returns its outputs.
std::vector<Value> run_op(const std::string& qualified_name, std::vector<Value> args,
                          SubgraphRunner* runner = nullptr);

// The first output of run_op, which must be a tensor.
Tensor run_op1(const std::string& qualified_name, std::vector<Value> args, SubgraphRunner* runner = nullptr);

// Runs `qualified_name` on the calling operator's own arguments and pushes
// its outputs: the kernel of an ATen alias (divide -> div).
void forward_to(OpCall& c, const std::string& qualified_name);

// Argument shorthands for run_op calls.
inline Value arg(const Tensor& t) { return Value::from_tensor(t); }
inline Value arg(int64_t i) { return Value::from_int(i); }
inline Value arg(std::vector<int64_t> v) { return Value::from_ints(std::move(v)); }
inline Value arg(double d) { return Value::from_double(d); }
inline Value arg(const Scalar& s) {
  if (s.kind == Scalar::Kind::Double) return Value::from_double(s.d);
  if (s.kind == Scalar::Kind::Bool) return Value::from_bool(s.i != 0);
  return Value::from_int(s.i);
}

}  // namespace pt2web
