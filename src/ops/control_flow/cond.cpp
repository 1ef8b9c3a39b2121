// Higher-order operators whose bodies are subgraphs: cond (and the identity
// wrappers export leaves around code regions).
#include "ops/control_flow/control_flow.h"
#include "ops/op_utils.h"

namespace pt2web {

namespace {

bool predicate_value(const OpCall& c) {
  const Value& p = c.arg(0);
  if (p.is_tensor()) {
    if (p.tensor.numel() != 1)
      fail(ErrorCode::BadInput, c.where(), "the predicate must have exactly one element, got shape ",
           shape_to_string(p.tensor.sizes()));
    return p.tensor.item_as_double() != 0.0;
  }
  if (p.is_number()) return p.to_int() != 0;
  fail(ErrorCode::BadInput, c.where(), "the predicate must be a tensor or a bool");
}

std::vector<Value> operand_values(const OpCall& c, size_t index) {
  std::vector<Value> values;
  for (const Tensor& t : c.tensor_list(index)) values.push_back(Value::from_tensor(t));
  return values;
}

void cond_op(OpCall& c) {
  const Graph& branch = predicate_value(c) ? c.graph_arg(1) : c.graph_arg(2);
  c.outputs = c.runner().run_subgraph(branch, operand_values(c, 3));
}

}  // namespace

void register_cond_ops(OpTable& t) {
  t.add("higher_order::cond(Any pred, Any true_fn, Any false_fn, Any[] operands) -> Any[]", cond_op);
}

}  // namespace pt2web
