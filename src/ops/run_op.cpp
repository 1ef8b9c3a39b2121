#include "ops/run_op.h"

#include "ops/registry.h"
#include "util/error.h"

namespace pt2web {

std::vector<Value> run_op(const std::string& name, std::vector<Value> args) {
  const OpEntry* entry = op_table().find(name);
  PT2WEB_CHECK(entry != nullptr, "operator ", name, " missing from the table");
  for (size_t i = args.size(); i < entry->schema.arguments.size(); ++i) {
    const auto& a = entry->schema.arguments[i];
    args.push_back(a.default_value ? *a.default_value : Value::none());
  }
  OpCall call(entry->schema, std::move(args), nullptr);
  entry->kernel(call);
  return std::move(call.outputs);
}

Tensor run_op_tensor(const std::string& name, std::vector<Value> args) {
  std::vector<Value> outputs = run_op(name, std::move(args));
  PT2WEB_CHECK(!outputs.empty() && outputs[0].is_tensor(), "operator ", name, " returned no tensor");
  return outputs[0].tensor;
}

void forward_to(OpCall& c, const std::string& name) {
  std::vector<Value> args;
  for (size_t i = 0; i < c.num_args(); ++i) args.push_back(c.arg(i));
  for (Value& v : run_op(name, std::move(args))) c.outputs.push_back(std::move(v));
}

}  // namespace pt2web
