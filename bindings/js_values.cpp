#include "js_values.h"

#include <cmath>
#include <limits>

#include "js_tensor.h"
#include "js_util.h"
#include "util/error.h"

namespace pt2web::js {

using emscripten::val;

namespace {

constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1

bool is_plain_object(const val& v) { return type_of(v) == "object" && !v.isNull() && !v.isArray(); }

std::string quoted_key(const std::string& key) { return "['" + key + "']"; }

int64_t int_from_text(const std::string& text, const std::string& path) {
  try {
    size_t used = 0;
    long long x = std::stoll(text, &used);
    if (used == text.size()) return x;
  } catch (const std::exception&) {
  }
  fail(ErrorCode::BadInput, "input at ", path, ": ", text, " is not an integer that fits in int64");
}

int64_t int_from_js(const val& v, const std::string& path) {
  std::string type = type_of(v);
  if (type == "bigint" || type == "string") return int_from_text(v.call<std::string>("toString"), path);
  if (type == "number") {
    double x = v.as<double>();
    if (std::floor(x) == x && std::fabs(x) <= kMaxSafeInteger) return static_cast<int64_t>(x);
  }
  fail(ErrorCode::BadInput, "input at ", path, ": {int: ...} needs an integer, a BigInt or a decimal string");
}

double float_from_js(const val& v, const std::string& path) {
  std::string type = type_of(v);
  if (type == "number") return v.as<double>();
  if (type == "string") {
    std::string s = v.as<std::string>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  fail(ErrorCode::BadInput, "input at ", path, ": {float: ...} needs a number or \"inf\", \"-inf\", \"nan\"");
}

// The tag of a single-key tagged object ("tuple", "list", "dict", "float",
// "int"), or "" when v is an ordinary object.
std::string tag_of(const val& v) {
  val keys = val::global("Object").call<val>("keys", v);
  if (keys["length"].as<int>() != 1) return "";
  std::string key = keys[0].as<std::string>();
  val inner = v[key];
  std::string type = type_of(inner);
  if (key == "tuple" || key == "list" || key == "dict") return inner.isArray() ? key : "";
  if (key == "float") return type == "number" || type == "string" ? key : "";
  if (key == "int") return type == "number" || type == "bigint" || type == "string" ? key : "";
  return "";
}

PyValue number_from_js(double x) {
  if (std::floor(x) == x && std::fabs(x) <= kMaxSafeInteger) return PyValue::from_int(static_cast<int64_t>(x));
  return PyValue::from_float(x);
}

const char* sequence_name(const TreeSpec& spec) {
  if (spec.type == "builtins.tuple") return "tuple";
  if (spec.type == "builtins.list") return "list";
  if (spec.type == "collections.namedtuple") return "namedtuple";
  return nullptr;
}

// The child spec of a dict-like spec for `key`, or nullptr.
const TreeSpec* dict_child(const TreeSpec* spec, const PyValue& key) {
  if (!spec) return nullptr;
  for (size_t k = 0; k < spec->keys.size() && k < spec->children.size(); ++k) {
    const PyValue& want = spec->keys[k];
    if (want.kind == key.kind && want.s == key.s && want.i == key.i) return &spec->children[k];
  }
  return nullptr;
}

std::string key_text(const PyValue& key) {
  return key.kind == PyValue::Kind::Str ? quoted_key(key.s) : "[" + std::to_string(key.i) + "]";
}

}  // namespace

const TreeSpec* InputConverter::root_child(size_t index) const {
  if (in_spec_.children.size() != 2) return nullptr;
  return &in_spec_.children[index];
}

PyValue InputConverter::args(const val& js_args) {
  if (js_args.isUndefined() || js_args.isNull()) return PyValue::tuple({});
  if (!js_args.isArray()) fail(ErrorCode::BadInput, "positional arguments must be an array");
  return sequence(js_args, PyValue::Kind::Tuple, root_child(0), "*args");
}

PyValue InputConverter::kwargs(const val& js_kwargs) {
  if (js_kwargs.isUndefined() || js_kwargs.isNull()) return PyValue::dict();
  if (!is_plain_object(js_kwargs) || is_js_tensor(js_kwargs))
    fail(ErrorCode::BadInput, "keyword arguments must be a plain object");
  return dict_from_object(js_kwargs, root_child(1), "**kwargs");
}

PyValue InputConverter::convert(const val& v, const TreeSpec* spec, const std::string& path) {
  Tensor tensor;
  if (try_tensor_from_js(v, path, tensor)) {
    sources_.push_back({tensor, v["data"]});
    return PyValue::from_tensor(tensor);
  }
  const std::string type = type_of(v);
  if (v.isNull() || v.isUndefined()) return PyValue::none();
  if (type == "boolean") return PyValue::from_bool(v.as<bool>());
  if (type == "number") return number_from_js(v.as<double>());
  if (type == "bigint") return PyValue::from_int(int_from_js(v, path));
  if (type == "string") return PyValue::from_str(v.as<std::string>());
  if (type != "object")
    fail(ErrorCode::BadInput, "input at ", path, ": a JS ", type, " cannot be passed to a program");

  if (v.isArray()) {
    bool list = spec && spec->type == "builtins.list";
    return sequence(v, list ? PyValue::Kind::List : PyValue::Kind::Tuple, spec, path);
  }
  if (val::global("ArrayBuffer").call<bool>("isView", v))
    fail(ErrorCode::BadInput, "input at ", path,
         ": a bare typed array has no shape; pass a tensor as {dtype, shape, data}");

  const std::string tag = tag_of(v);
  if (tag == "float") return PyValue::from_float(float_from_js(v["float"], path));
  if (tag == "int") return PyValue::from_int(int_from_js(v["int"], path));
  if (tag == "dict") return dict_from_pairs(v["dict"], spec, path);
  if (tag == "tuple" || tag == "list") {
    const char* expected = spec ? sequence_name(*spec) : nullptr;
    bool matches = !expected || tag == expected || (tag == "tuple" && std::string(expected) == "namedtuple");
    if (!matches)
      fail(ErrorCode::BadInput, "Expected input at ", path, " to be a ", expected, ", but got a ", tag);
    return sequence(v[tag], tag == "list" ? PyValue::Kind::List : PyValue::Kind::Tuple, spec, path);
  }
  return dict_from_object(v, spec, path);
}

PyValue InputConverter::sequence(const val& items, PyValue::Kind kind, const TreeSpec* spec,
                                 const std::string& path) {
  std::vector<PyValue> out;
  const size_t n = js_length(items);
  const bool has_children = spec && sequence_name(*spec);
  for (size_t i = 0; i < n; ++i) {
    const TreeSpec* child = has_children && i < spec->children.size() ? &spec->children[i] : nullptr;
    out.push_back(convert(items[i], child, path + "[" + std::to_string(i) + "]"));
  }
  return kind == PyValue::Kind::List ? PyValue::list(std::move(out)) : PyValue::tuple(std::move(out));
}

PyValue InputConverter::dict_from_object(const val& object, const TreeSpec* spec, const std::string& path) {
  PyValue out = PyValue::dict();
  val keys = val::global("Object").call<val>("keys", object);
  const size_t n = js_length(keys);
  for (size_t k = 0; k < n; ++k) {
    std::string name = keys[k].as<std::string>();
    PyValue key = PyValue::from_str(name);
    out.set(key, convert(object[name], dict_child(spec, key), path + quoted_key(name)));
  }
  return out;
}

PyValue InputConverter::dict_from_pairs(const val& pairs, const TreeSpec* spec, const std::string& path) {
  PyValue out = PyValue::dict();
  const size_t n = js_length(pairs);
  for (size_t k = 0; k < n; ++k) {
    val pair = pairs[k];
    if (!pair.isArray() || pair["length"].as<int>() != 2)
      fail(ErrorCode::BadInput, "input at ", path, ": {dict: ...} needs [key, value] pairs");
    val js_key = pair[0];
    std::string key_type = type_of(js_key);
    PyValue key;
    if (key_type == "string") key = PyValue::from_str(js_key.as<std::string>());
    else if (key_type == "number" || key_type == "bigint") key = PyValue::from_int(int_from_js(js_key, path));
    else fail(ErrorCode::BadInput, "input at ", path, ": dict keys must be strings or integers");
    out.set(key, convert(pair[1], dict_child(spec, key), path + key_text(key)));
  }
  return out;
}

void InputConverter::write_back() const {
  for (const auto& source : sources_) copy_tensor_into(source.tensor, source.data);
}

val to_js(const PyValue& value) {
  switch (value.kind) {
    case PyValue::Kind::None: return val::null();
    case PyValue::Kind::Bool: return val(value.b);
    case PyValue::Kind::Int:
      if (std::fabs(static_cast<double>(value.i)) <= kMaxSafeInteger) return val(static_cast<double>(value.i));
      return val::global("BigInt")(std::to_string(value.i));
    case PyValue::Kind::Float: return val(value.f);
    case PyValue::Kind::Str: return val(value.s);
    case PyValue::Kind::Tensor: return tensor_to_js(value.tensor);
    case PyValue::Kind::Tuple:
    case PyValue::Kind::List: {
      val out = val::array();
      for (size_t i = 0; i < value.items.size(); ++i) out.set(i, to_js(value.items[i]));
      return out;
    }
    case PyValue::Kind::Dict: {
      val out = val::object();
      for (size_t k = 0; k < value.keys.size(); ++k) {
        const PyValue& key = value.keys[k];
        std::string name = key.kind == PyValue::Kind::Str ? key.s : std::to_string(key.i);
        out.set(name, to_js(value.items[k]));
      }
      return out;
    }
  }
  return val::undefined();
}

}  // namespace pt2web::js
