#include "ops/op_compose.h"

#include "ops/registry.h"
#include "util/error.h"

namespace pt2web {

std::vector<Value> run_op(const std::string& qualified_name, std::vector<Value> args, SubgraphRunner* runner) {
  const OpEntry* entry = op_table().find(qualified_name);
  PT2WEB_CHECK(entry != nullptr, "operator ", qualified_name, " missing from the table");
  const auto& params = entry->schema.arguments;
  PT2WEB_CHECK(args.size() <= params.size(), "too many arguments for ", qualified_name);
  for (size_t i = args.size(); i < params.size(); ++i) {
    PT2WEB_CHECK(params[i].default_value || params[i].is_optional, qualified_name, " needs argument ", params[i].name);
    args.push_back(params[i].default_value ? *params[i].default_value : Value::none());
  }
  OpCall call(entry->schema, std::move(args), runner);
  entry->kernel(call);
  return std::move(call.outputs);
}

Tensor run_op1(const std::string& qualified_name, std::vector<Value> args, SubgraphRunner* runner) {
  std::vector<Value> out = run_op(qualified_name, std::move(args), runner);
  PT2WEB_CHECK(!out.empty() && out[0].is_tensor(), qualified_name, " returned no tensor");
  return out[0].tensor;
}

void forward_to(OpCall& c, const std::string& qualified_name) {
  std::vector<Value> args;
  for (size_t i = 0; i < c.num_args(); ++i) args.push_back(c.arg(i));
  for (Value& v : run_op(qualified_name, std::move(args))) c.outputs.push_back(std::move(v));
}

}  // namespace pt2web
