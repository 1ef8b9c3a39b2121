// The operator table: every kernel pt2web has, keyed by the exact overload
// name ("aten::addmm.default"). Built explicitly (no static initializers):
// each op family file has a register_<family>_ops(OpTable&) function and
// ops/registry.cpp calls them all.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ops/op_call.h"
#include "ops/op_schema.h"

namespace pt2web {

struct OpEntry {
  OpSchema schema;
  KernelFn kernel = nullptr;
};

class OpTable {
 public:
  // Adds a kernel under its schema's qualified name. Duplicate names are a
  // bug and throw Error(Internal).
  void add(const std::string& schema_text, KernelFn kernel);
  const OpEntry* find(const std::string& qualified_name) const;  // nullptr when absent
  std::vector<std::string> names() const;
  size_t size() const { return entries_.size(); }

 private:
  std::map<std::string, std::unique_ptr<OpEntry>> entries_;
};

// The process-wide table, built on first use (thread-safe).
const OpTable& op_table();

// "torch.ops.aten.add.Tensor" -> "aten::add.Tensor"; python callables such as
// "_operator.mul" map to "_operator::mul.default". Other targets pass through.
std::string qualified_op_name(const std::string& target);

}  // namespace pt2web
