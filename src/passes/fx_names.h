// Node names as torch.fx gives them (torch/fx/graph.py, _Namespace.create_name):
// a candidate's trailing "_<n>" is its counter; a name already taken, a Python
// keyword or a builtin ("sum", "any", "slice") gets the next free "_<n>".
// run_decompositions names every node it emits this way, so the decomposed
// program's value names (and the signature views built from them) are the
// ones torch's retrace gives.
//
// Ownership: plain value type. Errors: none.
#pragma once

#include <map>
#include <set>
#include <string>

namespace pt2web {

class FxNames {
 public:
  // Marks `name` as used (placeholders keep their names).
  void reserve(const std::string& name);
  // A fresh name for `candidate`, per the rules above.
  std::string create(const std::string& candidate);
  bool used(const std::string& name) const { return used_.count(name) != 0; }

 private:
  std::set<std::string> used_;
  std::map<std::string, int64_t> base_count_;
};

// The fx base name of an operator target: "torch.ops.aten.add_.Tensor" ->
// "add_", "aten::sym_size.int" -> "sym_size_int" for symbolic ops (torch names
// those after the overload too), "_operator.getitem" -> "getitem".
std::string fx_base_name(const std::string& target);

}  // namespace pt2web
