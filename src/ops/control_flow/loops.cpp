// Higher-order operators that run a subgraph repeatedly: while_loop (until
// its condition subgraph says stop) and map_impl (once per slice of the
// mapped tensors along dim 0, the results stacked).
//
// Errors: a condition that is not a one-element bool tensor or bool, and a
// map over tensors whose leading sizes differ or are zero, are BadInput. A
// while_loop whose condition never turns false runs forever, as in torch.
#include "ops/control_flow/control_flow.h"
#include "ops/op_utils.h"
#include "ops/views.h"

namespace pt2web {

namespace {

bool condition_value(const OpCall& c, const std::vector<Value>& result) {
  if (result.size() != 1)
    fail(ErrorCode::BadInput, c.where(), "the condition subgraph must return one value, got ", result.size());
  const Value& v = result[0];
  if (v.is_tensor()) {
    if (v.tensor.numel() != 1 || v.tensor.dtype() != DType::Bool)
      fail(ErrorCode::BadInput, c.where(), "the condition must be a one-element bool tensor, got ",
           dtype_name(v.tensor.dtype()), shape_to_string(v.tensor.sizes()));
    return v.tensor.item_as_int() != 0;
  }
  if (v.kind == Value::Kind::Bool) return v.b;
  fail(ErrorCode::BadInput, c.where(), "the condition must be a bool tensor or a bool");
}

std::vector<Value> as_values(const std::vector<Tensor>& tensors) {
  std::vector<Value> values;
  for (const Tensor& t : tensors) values.push_back(Value::from_tensor(t));
  return values;
}

// while_loop(cond_fn, body_fn, carried_inputs, additional_inputs): both
// subgraphs take the carried values followed by the additional ones; the
// body returns the next carried values.
void while_loop_op(OpCall& c) {
  const Graph& cond_fn = c.graph_arg(0);
  const Graph& body_fn = c.graph_arg(1);
  std::vector<Value> carried = as_values(c.tensor_list(2));
  const std::vector<Value> additional = as_values(c.tensor_list(3));
  auto with_additional = [&](std::vector<Value> values) {
    values.insert(values.end(), additional.begin(), additional.end());
    return values;
  };
  while (condition_value(c, c.runner().run_subgraph(cond_fn, with_additional(carried)))) {
    std::vector<Value> next = c.runner().run_subgraph(body_fn, with_additional(carried));
    if (next.size() != carried.size())
      fail(ErrorCode::BadInput, c.where(), "the body returned ", next.size(), " values for ", carried.size(),
           " carried inputs");
    carried = std::move(next);
  }
  c.outputs = std::move(carried);
}

// map_impl(f, xs, pos_args): f(xs[0][i], xs[1][i], ..., *pos_args) for every
// i along dim 0, each output stacked into a new leading dim.
void map_impl_op(OpCall& c) {
  const Graph& body = c.graph_arg(0);
  const std::vector<Tensor> xs = c.tensor_list(1);
  const std::vector<Value> pos_args = as_values(c.tensor_list(2));
  if (xs.empty()) fail(ErrorCode::BadInput, c.where(), "map needs at least one tensor to map over");
  for (const Tensor& x : xs)
    if (x.dim() == 0 || x.size(0) != xs[0].size(0))
      fail(ErrorCode::BadInput, c.where(), "the mapped tensors must share a leading size, got shapes ",
           shape_to_string(xs[0].sizes()), " and ", shape_to_string(x.sizes()));
  const int64_t n = xs[0].size(0);
  if (n == 0) fail(ErrorCode::BadInput, c.where(), "cannot map over a leading dimension of size 0");
  std::vector<Tensor> stacked;
  for (int64_t i = 0; i < n; ++i) {
    std::vector<Value> inputs;
    for (const Tensor& x : xs) inputs.push_back(Value::from_tensor(select_view(x, 0, i)));
    inputs.insert(inputs.end(), pos_args.begin(), pos_args.end());
    std::vector<Value> out = c.runner().run_subgraph(body, inputs);
    if (i == 0) {
      for (const Value& v : out) {
        if (!v.is_tensor()) fail(ErrorCode::Unsupported, c.where(), "map bodies that return non-tensors");
        Shape shape = v.tensor.sizes();
        shape.insert(shape.begin(), n);
        stacked.push_back(Tensor::empty(v.tensor.dtype(), shape));
      }
    }
    if (out.size() != stacked.size())
      fail(ErrorCode::BadInput, c.where(), "the body returned ", out.size(), " values, earlier ", stacked.size());
    for (size_t k = 0; k < out.size(); ++k) {
      Tensor slot = select_view(stacked[k], 0, i);
      if (!out[k].is_tensor() || out[k].tensor.sizes() != slot.sizes() || out[k].tensor.dtype() != slot.dtype())
        fail(ErrorCode::BadInput, c.where(), "the body's outputs change shape or dtype between slices");
      slot.copy_from(out[k].tensor);
    }
  }
  for (Tensor& t : stacked) c.push(t);
}

}  // namespace

void register_loop_ops(OpTable& t) {
  t.add("higher_order::while_loop(Any cond_fn, Any body_fn, Tensor[] carried_inputs, Tensor[] additional_inputs) "
        "-> Any[]", while_loop_op);
  t.add("higher_order::map_impl(Any f, Tensor[] xs, Tensor[] pos_args) -> Any[]", map_impl_op);
}

}  // namespace pt2web
