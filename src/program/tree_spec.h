// Pytree TreeSpec: how a nested Python value flattens into leaves and how a
// list of leaves rebuilds the nested value (torch/utils/_pytree.py).
//
// The export schema stores specs as JSON strings: "[1, {"type": ..., "context":
// ..., "children_spec": [...]}]" (treespec_dumps, protocol 1). parse() reads
// that form; to_string() prints the spec the way torch's TreeSpec repr does
// ("TreeSpec(tuple, None, [*, *])").
//
// Errors: parse() throws Error(BadFile) for a malformed spec and
// Error(Unsupported), naming the type, for a registered class whose context
// is neither a key list nor a dataclass's; flatten() throws Error(BadInput)
// with a message that shows the expected and the received structure.
#pragma once

#include <string>
#include <vector>

#include "program/py_value.h"

namespace pt2web {

struct TreeSpec {
  // "" for a leaf; otherwise the serialized type name: "builtins.tuple",
  // "builtins.list", "builtins.dict", "collections.OrderedDict",
  // "collections.defaultdict", "collections.namedtuple", "builtins.NoneType", ...
  std::string type;
  // dict-like: the keys in order (Str or Int PyValues); dataclass: the names
  // of the fields with values (Str PyValues), one per child.
  std::vector<PyValue> keys;
  // namedtuple: the serialized type name; other custom types: raw context JSON.
  std::string context;
  // A dataclass (torch.export.register_dataclass, or pytree's dataclass
  // support): `type` is its serialized type name, `keys` its fields with
  // values and `none_fields` the fields that were None (no children). Its
  // values are Dicts (field -> value) whose `s` is the type name; flatten()
  // also takes a tuple of the field values in order.
  bool dataclass = false;
  std::vector<std::string> none_fields;
  // A registered class whose serialized context is the list of its keys, one
  // per child, in order (transformers' ModelOutput subclasses, torch's
  // immutable_dict): like a dataclass without None fields, its values are
  // Dicts (key -> value) whose `s` is the type name.
  bool key_list = false;
  // Either kind of named record: a Dict of fields that remembers its class.
  bool is_record() const { return dataclass || key_list; }
  std::vector<TreeSpec> children;
  size_t num_leaves = 1;

  bool is_leaf() const { return type.empty(); }

  static TreeSpec parse(const std::string& json_text);
  static TreeSpec leaf();

  std::string to_string() const;

  // Flattens `value` following this spec. Leaves are everything the spec
  // marks as a leaf (tensors, ints, floats, bools, strings, None where the spec
  // has a leaf). `path` is the Python-style root path ("" for the root
  // (args, kwargs) tuple is printed as in torch's key paths: "*args[0]",
  // "**kwargs['mask']"). Throws Error(BadInput) on a structure mismatch.
  std::vector<PyValue> flatten(const PyValue& value) const;

  // torch requires a tuple where the spec has a tuple and a list where it has
  // a list. JS has only arrays, so flatten(value) accepts either (Lenient);
  // Exact reproduces torch's rule (tests against torch's own rejections).
  enum class SequenceMatch { Lenient, Exact };
  std::vector<PyValue> flatten(const PyValue& value, SequenceMatch match) const;

  // Key paths of the leaves, in flatten order, for error messages:
  // for the root (args, kwargs) spec, "*args[0]", "*args[1]['a']", "**kwargs['mask']".
  // With as_call false (an output spec) a (tuple, dict) pair is a value like
  // any other: "[0][1]", "[1]['a']".
  std::vector<std::string> leaf_paths(bool as_call = true) const;

  // Rebuilds a value from leaves (leaves.size() must equal num_leaves).
  PyValue unflatten(const std::vector<PyValue>& leaves) const;
};

// Describes a value's structure in TreeSpec terms, for mismatch messages.
TreeSpec tree_structure(const PyValue& value);

}  // namespace pt2web
