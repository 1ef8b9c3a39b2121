#include "runtime/plan/rewrite_plan.h"

#include "runtime/plan/fusion.h"
#include "runtime/plan/grouped_attention_plan.h"
#include "runtime/plan/quantized_fusion.h"
#include "runtime/plan/torch_layout_plan.h"

namespace pt2web {

void rewrite_plan(GraphPlan& plan, const std::set<std::string>& fixed_inputs, StepLog* log) {
  std::set<int> fixed_slots;
  for (size_t s = 0; s < plan.slot_names.size(); ++s)
    if (fixed_inputs.count(plan.slot_names[s])) fixed_slots.insert(static_cast<int>(s));
  {
    LoggedStepTimer step(log, "fuse int8 chains");
    fuse_quantized_products(plan.nodes, plan.outputs, plan.num_slots(), *plan.graph, fixed_slots);
  }
  {
    LoggedStepTimer step(log, "fuse convolution epilogues");
    fuse_convolution_epilogues(plan.nodes, plan.outputs, plan.num_slots());
  }
  {
    LoggedStepTimer step(log, "read grouped key/value heads in place");
    read_grouped_kv_in_place(plan);
  }
  {
    LoggedStepTimer step(log, "plan torch layouts");
    plan_torch_layouts(plan.nodes, plan.slot_names, *plan.graph);
  }
}

}  // namespace pt2web
