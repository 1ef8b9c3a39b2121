// TreeSpec: reading torch's serialized pytree specs, printing them as torch's
// repr does, and flattening / unflattening PyValues along them.
#include "program/tree_spec.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "util/error.h"

namespace pt2web {
namespace {

using json = nlohmann::json;

const char* const kTuple = "builtins.tuple";
const char* const kList = "builtins.list";
const char* const kDict = "builtins.dict";
const char* const kOrderedDict = "collections.OrderedDict";
const char* const kDefaultDict = "collections.defaultdict";
const char* const kDeque = "collections.deque";
const char* const kNamedTuple = "collections.namedtuple";
const char* const kNoneType = "builtins.NoneType";
// torch.fx's immutable list (context None) holds its items as a list does.
const char* const kImmutableList = "torch.fx.immutable_collections.immutable_list";

bool is_dict_like(const TreeSpec& s) {
  return s.type == kDict || s.type == kOrderedDict || s.type == kDefaultDict;
}

// The exported module's in_spec: tuple(args tuple, kwargs dict).
bool is_args_kwargs(const TreeSpec& s) {
  return s.type == kTuple && s.children.size() == 2 && s.children[0].type == kTuple &&
         is_dict_like(s.children[1]);
}

size_t count_leaves(const TreeSpec& s) {
  if (s.is_leaf()) return 1;
  size_t n = 0;
  for (const auto& c : s.children) n += c.num_leaves;
  return n;
}

// ---------------------------------------------------------------------------
// Python-style text: repr() of keys, plural item counts.

std::string py_repr_str(const std::string& s) {
  bool has_single = s.find('\'') != std::string::npos;
  bool has_double = s.find('"') != std::string::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : s) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == quote) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return out;
}

std::string key_repr(const PyValue& key) {
  switch (key.kind) {
    case PyValue::Kind::Str: return py_repr_str(key.s);
    case PyValue::Kind::Int: return std::to_string(key.i);
    case PyValue::Kind::Bool: return key.b ? "True" : "False";
    case PyValue::Kind::None: return "None";
    default: return std::string("<") + py_kind_name(key.kind) + ">";
  }
}

std::string keys_repr(const std::vector<PyValue>& keys) {
  std::string out = "[";
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", " : "") + key_repr(keys[i]);
  return out + "]";
}

bool same_key(const PyValue& a, const PyValue& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case PyValue::Kind::Str: return a.s == b.s;
    case PyValue::Kind::Int: return a.i == b.i;
    case PyValue::Kind::Bool: return a.b == b.b;
    case PyValue::Kind::None: return true;
    default: return false;
  }
}

bool contains_key(const std::vector<PyValue>& keys, const PyValue& key) {
  for (const auto& k : keys)
    if (same_key(k, key)) return true;
  return false;
}

std::string items(size_t n) { return std::to_string(n) + (n == 1 ? " item" : " items"); }

// ---------------------------------------------------------------------------
// Parsing the JSON schema (protocol 1).

class SpecReader {
 public:
  // Real specs are a few levels deep; the bound keeps recursion safe.
  static constexpr int kMaxDepth = 500;

  TreeSpec read(const std::string& text) {
    json doc;
    try {
      doc = json::parse(text);
    } catch (const json::exception& e) {
      fail(ErrorCode::BadFile, "TreeSpec is not valid JSON (", e.what(), "): ", text);
    }
    if (!doc.is_array() || doc.size() != 2 || !doc[0].is_number_integer())
      fail(ErrorCode::BadFile, "TreeSpec must be [protocol, spec], got: ", text);
    if (doc[0].get<int64_t>() != 1)
      fail(ErrorCode::BadFile, "TreeSpec protocol ", doc[0].get<int64_t>(),
           " is not supported (only protocol 1)");
    return node(doc[1], "spec");
  }

 private:
  [[noreturn]] static void bad(const std::string& where, const std::string& what) {
    fail(ErrorCode::BadFile, "bad TreeSpec at ", where, ": ", what);
  }

  TreeSpec node(const json& j, const std::string& where, int depth = 0) {
    if (depth > kMaxDepth) bad(where, "the spec is nested too deeply");
    if (!j.is_object() || !j.contains("type") || !j.contains("context") ||
        !j.contains("children_spec") || !j["children_spec"].is_array())
      bad(where, "expected an object with type, context and children_spec");
    const json& type = j["type"];
    const json& children = j["children_spec"];
    if (type.is_null()) {
      if (!children.empty()) bad(where, "a leaf cannot have children");
      return TreeSpec::leaf();
    }
    if (!type.is_string()) bad(where, "type must be a string or null");
    TreeSpec s;
    s.type = type.get<std::string>();
    if (s.type == kImmutableList) s.type = kList;
    for (size_t i = 0; i < children.size(); ++i)
      s.children.push_back(
          node(children[i], where + ".children_spec[" + std::to_string(i) + "]", depth + 1));
    read_context(s, j["context"], where);
    s.num_leaves = count_leaves(s);
    return s;
  }

  // Contexts of the built-in node types are JSON text inside a JSON string;
  // namedtuple and defaultdict have their own encodings.
  void read_context(TreeSpec& s, const json& context, const std::string& where) {
    if (s.type == kNamedTuple) {
      if (!context.is_string()) bad(where, "a namedtuple context must be its type name");
      s.context = context.get<std::string>();
      return;
    }
    if (s.type == kDefaultDict) {
      if (!context.is_object() || !context.contains("dict_context"))
        bad(where, "a defaultdict context must be an object with dict_context");
      s.context = context.dump();
      s.keys = read_keys(context["dict_context"], s, where);
      return;
    }
    json inner = context;
    if (context.is_string()) {
      try {
        inner = json::parse(context.get<std::string>());
      } catch (const json::exception&) {
        if (s.type == kDict || s.type == kOrderedDict || s.type == kTuple || s.type == kList ||
            s.type == kDeque || s.type == kNoneType)
          bad(where, "context is not valid JSON: " + context.get<std::string>());
        unsupported_class(s, context.get<std::string>());
      }
    }
    if (s.type == kDict || s.type == kOrderedDict) {
      s.keys = read_keys(inner, s, where);
    } else if (is_dataclass_context(s, inner)) {
      s.dataclass = true;
      for (const auto& name : inner[0]) s.keys.push_back(PyValue::from_str(name.get<std::string>()));
      for (const auto& name : inner[1]) s.none_fields.push_back(name.get<std::string>());
      s.context = inner.dump();
    } else if (s.type == kNoneType) {
      if (!s.children.empty()) bad(where, "None cannot have children");
    } else if (s.type == kDeque) {
      s.context = inner.dump();  // its maxlen
    } else if (is_key_list_context(s, inner)) {
      s.key_list = true;
      s.keys = read_keys(inner, s, where);
      s.context = inner.dump();
    } else if (s.type != kTuple && s.type != kList) {
      unsupported_class(s, inner.dump());
    }
  }

  // A registered class pt2web cannot rebuild: its context is its own
  // encoding, so neither its fields nor its order can be known.
  [[noreturn]] static void unsupported_class(const TreeSpec& s, const std::string& context) {
    fail(ErrorCode::Unsupported, "the program's inputs or outputs hold a ", s.type,
         " (a class registered as a pytree node) whose serialized context, ", context,
         ", is not the list of its keys; pt2web passes Python's containers, namedtuples, dataclasses "
         "and classes whose context lists their keys (transformers' ModelOutput)");
  }

  // A registered class whose context is its keys, one per child: strings or
  // integers, as json.dumps wrote the list its flatten function returned.
  static bool is_key_list_context(const TreeSpec& s, const json& context) {
    if (s.type == kTuple || s.type == kList || s.type == kNoneType) return false;
    if (!context.is_array() || context.size() != s.children.size()) return false;
    for (const auto& key : context)
      if (!key.is_string() && !key.is_number_integer()) return false;
    return true;
  }

  // A registered dataclass's context: [[fields with values], [fields that
  // were None]], one child per field with a value.
  static bool is_dataclass_context(const TreeSpec& s, const json& context) {
    if (s.type == kTuple || s.type == kList || s.type == kDeque || s.type == kNoneType) return false;
    if (!context.is_array() || context.size() != 2 || !context[0].is_array() || !context[1].is_array()) return false;
    if (context[0].size() != s.children.size()) return false;
    for (const auto& part : context)
      for (const auto& name : part)
        if (!name.is_string()) return false;
    return true;
  }

  std::vector<PyValue> read_keys(const json& keys, const TreeSpec& s, const std::string& where) {
    if (!keys.is_array()) bad(where, "dict keys must be a list");
    if (keys.size() != s.children.size())
      bad(where, "the dict has " + std::to_string(keys.size()) + " keys but " +
                     std::to_string(s.children.size()) + " children");
    std::vector<PyValue> out;
    for (const auto& k : keys) {
      if (k.is_string())
        out.push_back(PyValue::from_str(k.get<std::string>()));
      else if (k.is_number_integer())
        out.push_back(PyValue::from_int(k.get<int64_t>()));
      else if (k.is_boolean())
        out.push_back(PyValue::from_bool(k.get<bool>()));
      else
        bad(where, "unsupported dict key " + k.dump());
    }
    return out;
  }
};

// ---------------------------------------------------------------------------
// repr, following TreeSpec.__repr__: children after the first go on new
// lines, indented two more spaces per nesting level.

std::string short_type_name(const std::string& type) {
  size_t dot = type.rfind('.');
  return dot == std::string::npos ? type : type.substr(dot + 1);
}

std::string class_repr(const std::string& qualified) {
  const std::string builtins = "builtins.";
  if (qualified.compare(0, builtins.size(), builtins) == 0)
    return "<class '" + qualified.substr(builtins.size()) + "'>";
  return "<class '" + qualified + "'>";
}

std::string context_repr(const TreeSpec& s) {
  if (s.type == kTuple || s.type == kList || s.type == kNoneType) return "None";
  if (s.type == kDict || s.type == kOrderedDict) return keys_repr(s.keys);
  if (s.type == kNamedTuple) return class_repr(s.context);
  if (s.type == kDefaultDict) {
    json j = json::parse(s.context);
    std::string module = j.value("default_factory_module", "builtins");
    std::string name = j.value("default_factory_name", "None");
    return "[" + class_repr(module + "." + name) + ", " + keys_repr(s.keys) + "]";
  }
  if (s.type == kDeque) return s.context == "null" ? "None" : s.context;
  if (s.key_list) return keys_repr(s.keys);
  if (s.dataclass) {
    std::vector<PyValue> none;
    for (const auto& n : s.none_fields) none.push_back(PyValue::from_str(n));
    return "[" + keys_repr(s.keys) + ", " + keys_repr(none) + "]";
  }
  return s.context;
}

std::string repr(const TreeSpec& s, size_t indent) {
  if (s.is_leaf()) return "*";
  std::string out = "TreeSpec(" + short_type_name(s.type) + ", " + context_repr(s) + ", [";
  indent += 2;
  for (size_t i = 0; i < s.children.size(); ++i) {
    if (i > 0) out += ",\n" + std::string(indent, ' ');
    out += repr(s.children[i], indent);
  }
  return out + "])";
}

// ---------------------------------------------------------------------------
// Key paths, written as torch writes them in its input errors.

std::string child_path(const TreeSpec& parent, bool parent_is_root_call, const std::string& path,
                       size_t index) {
  if (parent_is_root_call) return index == 0 ? "*args" : "**kwargs";
  if (is_dict_like(parent) || parent.key_list) return path + "[" + key_repr(parent.keys[index]) + "]";
  if (parent.dataclass) return path + "." + parent.keys[index].s;
  return path + "[" + std::to_string(index) + "]";
}

std::string where(const std::string& path) { return path.empty() ? "the top level" : path; }

std::string describe_spec(const TreeSpec& s) {
  if (s.is_leaf()) return "a tensor or scalar";
  if (s.type == kNoneType) return "None";
  if (is_dict_like(s)) return "a dict with keys " + keys_repr(s.keys);
  if (s.type == kTuple) return "a tuple of " + items(s.children.size());
  if (s.type == kList) return "a list of " + items(s.children.size());
  if (s.type == kNamedTuple) return "a namedtuple " + s.context + " of " + items(s.children.size());
  if (s.dataclass) return "a dataclass " + s.type + " with fields " + keys_repr(s.keys);
  if (s.key_list) return "a " + s.type + " with keys " + keys_repr(s.keys);
  return "a " + short_type_name(s.type) + " of " + items(s.children.size());
}

std::string describe_value(const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::None: return "None";
    case PyValue::Kind::Int: return "an int";
    case PyValue::Kind::Tuple:
      if (!v.s.empty()) return "a namedtuple " + v.s + " of " + items(v.items.size());
      return "a tuple of " + items(v.items.size());
    case PyValue::Kind::List: return "a list of " + items(v.items.size());
    case PyValue::Kind::Dict:
      if (!v.s.empty()) return "a dataclass " + v.s + " with fields " + keys_repr(v.keys);
      return "a dict with keys " + keys_repr(v.keys);
    default: return std::string("a ") + py_kind_name(v.kind);
  }
}

bool is_container(const PyValue& v) {
  return v.kind == PyValue::Kind::Tuple || v.kind == PyValue::Kind::List ||
         v.kind == PyValue::Kind::Dict;
}

class Flattener {
 public:
  Flattener(const TreeSpec& root, const PyValue& root_value, TreeSpec::SequenceMatch match)
      : root_(root), root_value_(root_value), exact_(match == TreeSpec::SequenceMatch::Exact) {}

  std::vector<PyValue> run() {
    visit(root_, root_value_, "", is_args_kwargs(root_));
    return std::move(leaves_);
  }

 private:
  const TreeSpec& root_;
  const PyValue& root_value_;
  bool exact_;
  std::vector<PyValue> leaves_;

  [[noreturn]] void mismatch(const TreeSpec& spec, const PyValue& value, const std::string& path,
                             const std::string& detail = "") const {
    fail(ErrorCode::BadInput, "input structure does not match the program: at ", where(path),
         " expected ", describe_spec(spec), " but got ", describe_value(value), detail,
         ". Expected: ", root_.to_string(), " Got: ", tree_structure(root_value_).to_string());
  }

  // A namedtuple's class as the program records it ("pkg.Point", its
  // serialized type name) and as a caller names it: the full name, or the
  // class name alone (a JavaScript caller or a cases file knows no module).
  static bool same_class(const std::string& recorded, const std::string& given) {
    if (recorded == given) return true;
    size_t dot = recorded.rfind('.');
    return dot != std::string::npos && given.find('.') == std::string::npos && recorded.compare(dot + 1, std::string::npos, given) == 0;
  }

  // Whether `value` has the container type `spec` asks for.
  bool sequence_matches(const TreeSpec& spec, const PyValue& value) const {
    bool is_tuple = value.kind == PyValue::Kind::Tuple;
    bool is_list = value.kind == PyValue::Kind::List;
    bool plain_tuple = is_tuple && value.s.empty();
    if (spec.type == kTuple) return plain_tuple || (!exact_ && is_list);
    if (spec.type == kList) return is_list || (!exact_ && plain_tuple);
    if (spec.type == kNamedTuple)
      return (is_tuple && (value.s.empty() || same_class(spec.context, value.s))) || (!exact_ && is_list);
    return is_tuple || is_list;  // deque, and records given as their values in order
  }

  void visit(const TreeSpec& spec, const PyValue& value, const std::string& path, bool root_call) {
    if (spec.is_leaf()) {
      if (is_container(value)) mismatch(spec, value, path);
      leaves_.push_back(value);
      return;
    }
    if (spec.type == kNoneType) {
      if (!value.is_none()) mismatch(spec, value, path);
      return;
    }
    if (is_dict_like(spec) || (spec.is_record() && value.kind == PyValue::Kind::Dict)) {
      visit_keyed(spec, value, path, root_call);
      return;
    }
    if (!sequence_matches(spec, value) || value.items.size() != spec.children.size())
      mismatch(spec, value, path);
    for (size_t i = 0; i < spec.children.size(); ++i)
      visit(spec.children[i], value.items[i], child_path(spec, root_call, path, i), false);
  }

  // Dicts, and records (dataclasses, key-list classes) given as their
  // fields: matched by key in any order (a dataclass's None fields may be
  // given as None or left out).
  void visit_keyed(const TreeSpec& spec, const PyValue& value, const std::string& path, bool root_call) {
    if (value.kind != PyValue::Kind::Dict) mismatch(spec, value, path);
    if (spec.is_record() && !value.s.empty() && !same_class(spec.type, value.s))
      mismatch(spec, value, path, "; the class differs");
    auto none_field = [&](const PyValue& key, const PyValue& item) {
      return spec.dataclass && key.kind == PyValue::Kind::Str && item.is_none() &&
             std::find(spec.none_fields.begin(), spec.none_fields.end(), key.s) != spec.none_fields.end();
    };
    std::vector<PyValue> missing, extra;
    for (const auto& k : spec.keys)
      if (!contains_key(value.keys, k)) missing.push_back(k);
    for (size_t k = 0; k < value.keys.size(); ++k)
      if (!contains_key(spec.keys, value.keys[k]) && !none_field(value.keys[k], value.items[k]))
        extra.push_back(value.keys[k]);
    if (!missing.empty() || !extra.empty()) {
      const std::string noun = spec.dataclass ? " field(s) " : " key(s) ";
      std::string detail;
      if (!missing.empty()) detail += "; missing" + noun + keys_repr(missing);
      if (!extra.empty()) detail += "; extra" + noun + keys_repr(extra);
      mismatch(spec, value, path, detail);
    }
    for (size_t i = 0; i < spec.keys.size(); ++i) {
      size_t k = 0;
      while (!same_key(value.keys[k], spec.keys[i])) ++k;
      visit(spec.children[i], value.items[k], child_path(spec, root_call, path, i), false);
    }
  }
};

void collect_paths(const TreeSpec& s, const std::string& path, bool root_call,
                   std::vector<std::string>& out) {
  if (s.is_leaf()) {
    out.push_back(path);
    return;
  }
  for (size_t i = 0; i < s.children.size(); ++i)
    collect_paths(s.children[i], child_path(s, root_call, path, i), false, out);
}

PyValue rebuild(const TreeSpec& s, const std::vector<PyValue>& leaves, size_t& next) {
  if (s.is_leaf()) return leaves[next++];
  if (s.type == kNoneType) return PyValue::none();
  std::vector<PyValue> children;
  for (const auto& c : s.children) children.push_back(rebuild(c, leaves, next));
  if (is_dict_like(s)) {
    PyValue d = PyValue::dict();
    d.keys = s.keys;
    d.items = std::move(children);
    return d;
  }
  if (s.is_record()) {
    PyValue d = PyValue::dict();
    d.s = s.type;
    d.keys = s.keys;
    d.items = std::move(children);
    for (const auto& name : s.none_fields) d.set(PyValue::from_str(name), PyValue::none());
    return d;
  }
  if (s.type == kList || s.type == kDeque) return PyValue::list(std::move(children));
  PyValue t = PyValue::tuple(std::move(children));
  if (s.type == kNamedTuple) t.s = s.context;
  return t;
}

TreeSpec container_spec(const char* type, std::vector<TreeSpec> children) {
  TreeSpec s;
  s.type = type;
  s.children = std::move(children);
  s.num_leaves = count_leaves(s);
  return s;
}

}  // namespace

TreeSpec TreeSpec::parse(const std::string& json_text) { return SpecReader().read(json_text); }

TreeSpec TreeSpec::leaf() { return TreeSpec(); }

std::string TreeSpec::to_string() const { return repr(*this, 0); }

std::vector<PyValue> TreeSpec::flatten(const PyValue& value) const {
  return flatten(value, SequenceMatch::Lenient);
}

std::vector<PyValue> TreeSpec::flatten(const PyValue& value, SequenceMatch match) const {
  return Flattener(*this, value, match).run();
}

std::vector<std::string> TreeSpec::leaf_paths(bool as_call) const {
  std::vector<std::string> out;
  collect_paths(*this, "", as_call && is_args_kwargs(*this), out);
  return out;
}

PyValue TreeSpec::unflatten(const std::vector<PyValue>& leaves) const {
  if (leaves.size() != num_leaves)
    fail(ErrorCode::BadProgram, "the output structure ", to_string(), " holds ", num_leaves,
         " values but the program produced ", leaves.size());
  size_t next = 0;
  return rebuild(*this, leaves, next);
}

TreeSpec tree_structure(const PyValue& value) {
  std::vector<TreeSpec> children;
  for (const auto& item : value.items) children.push_back(tree_structure(item));
  switch (value.kind) {
    case PyValue::Kind::None: return container_spec(kNoneType, {});
    case PyValue::Kind::List: return container_spec(kList, std::move(children));
    case PyValue::Kind::Tuple: {
      if (value.s.empty()) return container_spec(kTuple, std::move(children));
      TreeSpec s = container_spec(kNamedTuple, std::move(children));
      s.context = value.s;
      return s;
    }
    case PyValue::Kind::Dict: {
      TreeSpec s = container_spec(kDict, std::move(children));
      s.keys = value.keys;
      return s;
    }
    default: return TreeSpec::leaf();
  }
}

}  // namespace pt2web
