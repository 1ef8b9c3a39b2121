#include "ops/registry.h"

#include <mutex>

#include "ops/families.h"
#include "ops/schema_name.h"
#include "util/error.h"

namespace pt2web {

// Schemas are parsed on first lookup, not when registered: a program uses
// tens of the thousand operators, and building the table is part of the
// first load in a process. Until then an entry holds only its schema's text
// (schema.text, with an empty schema.name). Lookups may come from several
// threads (two programs run at once), so parsing is serialized.
namespace {
std::mutex parsing;
}  // namespace

void OpTable::add(const std::string& schema_text, KernelFn kernel) {
  auto entry = std::make_unique<OpEntry>();
  entry->schema.text = schema_text;
  entry->kernel = kernel;
  std::string key = schema_qualified_name(schema_text);
  PT2WEB_CHECK(entries_.count(key) == 0, "operator ", key, " registered twice");
  entries_[key] = std::move(entry);
}

const OpEntry* OpTable::find(const std::string& qualified_name) const {
  auto it = entries_.find(qualified_name);
  if (it == entries_.end()) return nullptr;
  OpEntry& entry = *it->second;
  std::lock_guard<std::mutex> lock(parsing);
  if (entry.schema.name.empty()) entry.schema = parse_op_schema(entry.schema.text);
  return &entry;
}

std::vector<std::string> OpTable::names() const {
  std::vector<std::string> out;
  for (const auto& kv : entries_) out.push_back(kv.first);
  return out;
}

const OpTable& op_table() {
  static const OpTable table = [] {
    OpTable t;
    register_all_op_folders(t);
    return t;
  }();
  return table;
}

std::string qualified_op_name(const std::string& target) {
  const std::string prefix = "torch.ops.";
  if (target.rfind(prefix, 0) == 0) {
    std::string rest = target.substr(prefix.size());  // "aten.add.Tensor"
    size_t dot = rest.find('.');
    if (dot == std::string::npos) return rest;
    std::string ns = rest.substr(0, dot);
    std::string name = rest.substr(dot + 1);
    if (ns == "higher_order") return "higher_order::" + name + ".default";
    if (name.find('.') == std::string::npos) name += ".default";
    return ns + "::" + name;
  }
  // Python callables: "_operator.mul", "math.trunc", "torch.sym_max".
  size_t dot = target.rfind('.');
  if (dot != std::string::npos && target.find(' ') == std::string::npos)
    return target.substr(0, dot) + "::" + target.substr(dot + 1) + ".default";
  return target;
}

}  // namespace pt2web
