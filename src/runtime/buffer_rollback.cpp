#include "runtime/buffer_rollback.h"

namespace pt2web {

namespace {

// "torch.ops.aten.add_.Tensor" -> "add_"; "" when the target has no overload part.
std::string op_name(const std::string& target) {
  size_t overload = target.rfind('.');
  if (overload == std::string::npos || overload == 0) return "";
  size_t start = target.rfind('.', overload - 1);
  return target.substr(start == std::string::npos ? 0 : start + 1,
                       overload - (start == std::string::npos ? 0 : start + 1));
}

bool is_in_place(const std::string& target) {
  std::string name = op_name(target);
  // "add_" yes; dunder names such as "__and__" are not in-place.
  return name.size() > 1 && name.back() == '_' && name.compare(0, 2, "__") != 0;
}

}  // namespace

bool graph_mutates_in_place(const Graph& graph) {
  for (const Node& node : graph.nodes) {
    if (is_in_place(node.target)) return true;
    for (const NamedArgument& in : node.inputs)
      if (in.arg.kind == Argument::Kind::Graph && in.arg.graph && graph_mutates_in_place(*in.arg.graph))
        return true;
  }
  return false;
}

BufferRollback::BufferRollback(std::map<std::string, Tensor>& buffers, bool needed) : buffers_(buffers) {
  if (!needed) return;
  for (const auto& [name, tensor] : buffers_) snapshot_[name] = tensor.clone();
}

BufferRollback::~BufferRollback() {
  if (committed_) return;
  for (const auto& [name, saved] : snapshot_) {
    try {
      buffers_.at(name).copy_from(saved);
    } catch (...) {
      // Same shapes and dtypes: cannot happen; a destructor must not throw.
    }
  }
}

}  // namespace pt2web
