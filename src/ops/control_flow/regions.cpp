// Higher-order operators that wrap a region of the TRAINING graph in a mode:
// wrap_with_set_grad_enabled (torch.no_grad / enable_grad blocks) and
// wrap_with_autocast (torch.autocast blocks). pt2web only runs inference, so
// the grad mode changes nothing. Autocast regions run at the precision the
// graph was traced in (see docs/DECISIONS.md: torch would compute the
// autocast-listed ops of the region in the lower dtype; the results differ by
// that dtype's rounding). run_decompositions inlines both regions.
#include "ops/control_flow/control_flow.h"
#include "ops/op_utils.h"

namespace pt2web {

namespace {

std::vector<Value> region_inputs(const OpCall& c, size_t index) {
  std::vector<Value> values;
  for (const Tensor& t : c.tensor_list(index)) values.push_back(Value::from_tensor(t));
  return values;
}

void set_grad_region_op(OpCall& c) { c.outputs = c.runner().run_subgraph(c.graph_arg(1), region_inputs(c, 2)); }

void autocast_region_op(OpCall& c) { c.outputs = c.runner().run_subgraph(c.graph_arg(4), region_inputs(c, 5)); }

}  // namespace

void register_region_ops(OpTable& t) {
  t.add("higher_order::wrap_with_set_grad_enabled(bool enable, Any body, Tensor... args) -> Any[]",
        set_grad_region_op);
  t.add("higher_order::wrap_with_autocast(str? device_type, ScalarType? dtype, bool enabled, bool? cache_enabled, "
        "Any body, Tensor... args) -> Any[]", autocast_region_op);
}

}  // namespace pt2web
