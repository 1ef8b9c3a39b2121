// TreeSpec: the serialized specs of the fixtures (copied verbatim from their
// model.pt2 and meta.json, torch 2.6), repr, flatten/unflatten and the
// messages for inputs whose structure does not match.
#include <catch2/catch.hpp>

#include <string>

#include "program/py_value.h"
#include "program/tree_spec.h"
#include "util/error.h"

using namespace pt2web;

namespace {

const char* const kLeaf = R"({"type": null, "context": null, "children_spec": []})";

// mlp: forward(x) -> tensor
const std::string kMlpIn =
    std::string(R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [)") +
    R"({"type": "builtins.tuple", "context": "null", "children_spec": [)" + kLeaf + "]}, " +
    R"({"type": "builtins.dict", "context": "[]", "children_spec": []}]}])";
const std::string kMlpInRepr =
    "TreeSpec(tuple, None, [TreeSpec(tuple, None, [*]),\n  TreeSpec(dict, [], [])])";
const std::string kMlpOut = std::string("[1, ") + kLeaf + "]";

// pytree_io: forward(inputs: dict(a, b), pair: tuple, *, scale, mask)
const std::string kPytreeIn =
    R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.dict", "context": "[\"a\", \"b\"]", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}]}, {"type": "builtins.dict", "context": "[\"scale\", \"mask\"]", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}]}])";
const std::string kPytreeInRepr =
    "TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(dict, ['a', 'b'], [*,\n      *]),\n"
    "    TreeSpec(tuple, None, [*,\n      *])]),\n  TreeSpec(dict, ['scale', 'mask'], [*,\n    *])])";
const std::string kPytreeOut =
    R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.dict", "context": "[\"a\", \"rest\"]", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": "builtins.list", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}]}]}, {"type": null, "context": null, "children_spec": []}]}])";
const std::string kPytreeOutRepr =
    "TreeSpec(tuple, None, [TreeSpec(dict, ['a', 'rest'], [*,\n    TreeSpec(list, None, [*,\n"
    "      TreeSpec(tuple, None, [*,\n        *])])]),\n  *])";

// counter_buffer's out_spec and elementwise_zoo's in_spec.
const std::string kCounterOut =
    R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}])";
const std::string kCounterOutRepr = "TreeSpec(tuple, None, [*,\n  *])";
const std::string kElementwiseIn =
    R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}])";
const std::string kElementwiseInRepr =
    "TreeSpec(tuple, None, [TreeSpec(tuple, None, [*,\n    *]),\n  TreeSpec(dict, [], [])])";

PyValue num(int64_t v) { return PyValue::from_int(v); }

PyValue dict_of(std::vector<std::pair<std::string, PyValue>> entries) {
  PyValue d = PyValue::dict();
  for (auto& [k, v] : entries) d.set(PyValue::from_str(k), v);
  return d;
}

// (args, kwargs) as the caller of pytree_io passes them, leaves numbered 1..6.
PyValue pytree_call(PyValue pair) {
  PyValue inputs = dict_of({{"a", num(1)}, {"b", num(2)}});
  PyValue args = PyValue::tuple({inputs, std::move(pair)});
  PyValue kwargs = dict_of({{"scale", num(5)}, {"mask", num(6)}});
  return PyValue::tuple({args, kwargs});
}

std::vector<int64_t> ints(const std::vector<PyValue>& values) {
  std::vector<int64_t> out;
  for (const auto& v : values) out.push_back(v.kind == PyValue::Kind::Int ? v.i : -999);
  return out;
}

template <typename F>
Error thrown_by(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no pt2web::Error was thrown");
  return Error(ErrorCode::Internal, "unreachable");
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("fixture specs parse and print exactly as torch's repr") {
  const std::pair<std::string, std::string> cases[] = {
      {kMlpIn, kMlpInRepr},           {kMlpOut, "*"},
      {kPytreeIn, kPytreeInRepr},     {kPytreeOut, kPytreeOutRepr},
      {kCounterOut, kCounterOutRepr}, {kElementwiseIn, kElementwiseInRepr},
  };
  for (const auto& [json_text, repr] : cases) {
    INFO(repr);
    CHECK(TreeSpec::parse(json_text).to_string() == repr);
  }
  CHECK(TreeSpec::parse(kMlpIn).num_leaves == 1);
  CHECK(TreeSpec::parse(kMlpOut).is_leaf());
  CHECK(TreeSpec::parse(kPytreeIn).num_leaves == 6);
  CHECK(TreeSpec::parse(kPytreeOut).num_leaves == 5);
}

TEST_CASE("the parsed tree holds types and dict keys") {
  TreeSpec in = TreeSpec::parse(kPytreeIn);
  CHECK(in.type == "builtins.tuple");
  REQUIRE(in.children.size() == 2);
  const TreeSpec& kwargs = in.children[1];
  CHECK(kwargs.type == "builtins.dict");
  REQUIRE(kwargs.keys.size() == 2);
  CHECK(kwargs.keys[0].s == "scale");
  CHECK(kwargs.keys[1].s == "mask");
  CHECK(in.children[0].children[0].keys[1].s == "b");
}

TEST_CASE("leaf paths use torch's key-path spelling") {
  CHECK(TreeSpec::parse(kPytreeIn).leaf_paths() ==
        std::vector<std::string>{"*args[0]['a']", "*args[0]['b']", "*args[1][0]", "*args[1][1]",
                                 "**kwargs['scale']", "**kwargs['mask']"});
  CHECK(TreeSpec::parse(kMlpIn).leaf_paths() == std::vector<std::string>{"*args[0]"});
  CHECK(TreeSpec::parse(kPytreeOut).leaf_paths() ==
        std::vector<std::string>{"[0]['a']", "[0]['rest'][0]", "[0]['rest'][1][0]",
                                 "[0]['rest'][1][1]", "[1]"});
  CHECK(TreeSpec::parse(kMlpOut).leaf_paths() == std::vector<std::string>{""});
  // An output that is a (tuple, dict) pair is not a call's (args, kwargs).
  CHECK(TreeSpec::parse(kPytreeIn).leaf_paths(false) ==
        std::vector<std::string>{"[0][0]['a']", "[0][0]['b']", "[0][1][0]", "[0][1][1]", "[1]['scale']",
                                 "[1]['mask']"});
}

TEST_CASE("flatten takes dict values in the spec's key order") {
  TreeSpec in = TreeSpec::parse(kPytreeIn);
  CHECK(ints(in.flatten(pytree_call(PyValue::tuple({num(3), num(4)})))) ==
        std::vector<int64_t>{1, 2, 3, 4, 5, 6});
  // The same call with every dict written in the other order.
  PyValue inputs = dict_of({{"b", num(2)}, {"a", num(1)}});
  PyValue args = PyValue::tuple({inputs, PyValue::tuple({num(3), num(4)})});
  PyValue kwargs = dict_of({{"mask", num(6)}, {"scale", num(5)}});
  CHECK(ints(in.flatten(PyValue::tuple({args, kwargs}))) == std::vector<int64_t>{1, 2, 3, 4, 5, 6});
}

TEST_CASE("unflatten rebuilds the output structure and flatten inverts it") {
  TreeSpec out = TreeSpec::parse(kPytreeOut);
  PyValue v = out.unflatten({num(10), num(11), num(12), num(13), num(14)});
  REQUIRE(v.kind == PyValue::Kind::Tuple);
  REQUIRE(v.items.size() == 2);
  const PyValue& d = v.items[0];
  REQUIRE(d.kind == PyValue::Kind::Dict);
  CHECK(d.get("a")->i == 10);
  const PyValue* rest = d.get("rest");
  REQUIRE(rest != nullptr);
  REQUIRE(rest->kind == PyValue::Kind::List);
  CHECK(rest->items[0].i == 11);
  REQUIRE(rest->items[1].kind == PyValue::Kind::Tuple);
  CHECK(rest->items[1].items[1].i == 13);
  CHECK(v.items[1].i == 14);
  CHECK(ints(out.flatten(v, TreeSpec::SequenceMatch::Exact)) ==
        std::vector<int64_t>{10, 11, 12, 13, 14});
  CHECK(tree_structure(v).to_string() == kPytreeOutRepr);

  PyValue single = TreeSpec::parse(kMlpOut).unflatten({num(7)});
  CHECK(single.kind == PyValue::Kind::Int);
  CHECK(single.i == 7);

  Error wrong_count = thrown_by([&] { out.unflatten({num(1)}); });
  CHECK(wrong_count.code() == ErrorCode::BadProgram);
}

TEST_CASE("a mismatching input names the path and shows both structures") {
  TreeSpec in = TreeSpec::parse(kPytreeIn);

  // pytree_io's extra_dict_key case
  PyValue extra = pytree_call(PyValue::tuple({num(3), num(4)}));
  extra.items[0].items[0].set(PyValue::from_str("c"), num(9));
  Error e = thrown_by([&] { in.flatten(extra); });
  CHECK(e.code() == ErrorCode::BadInput);
  CHECK(contains(e.what(), "input structure does not match the program: at *args[0] expected a dict "
                           "with keys ['a', 'b'] but got a dict with keys ['a', 'b', 'c']; extra "
                           "key(s) ['c']"));
  CHECK(contains(e.what(), "Expected: " + kPytreeInRepr));
  CHECK(contains(e.what(), "Got: TreeSpec(tuple, None, [TreeSpec(tuple, None, [TreeSpec(dict, "
                           "['a', 'b', 'c'], [*,"));

  // pytree_io's missing_kwarg case
  PyValue missing = pytree_call(PyValue::tuple({num(3), num(4)}));
  missing.items[1] = dict_of({{"scale", num(5)}});
  Error m = thrown_by([&] { in.flatten(missing); });
  CHECK(contains(m.what(), "at **kwargs expected a dict with keys ['scale', 'mask'] but got a dict "
                           "with keys ['scale']; missing key(s) ['mask']"));

  // a tuple where the program has a tensor
  PyValue nested = pytree_call(PyValue::tuple({num(3), PyValue::tuple({num(4), num(5)})}));
  Error n = thrown_by([&] { in.flatten(nested); });
  CHECK(contains(n.what(), "at *args[1][1] expected a tensor or scalar but got a tuple of 2 items"));

  // mlp's too_many_args case
  TreeSpec mlp = TreeSpec::parse(kMlpIn);
  Tensor t = Tensor::empty(DType::Float32, {4, 16});
  PyValue two_args = PyValue::tuple({PyValue::tuple({PyValue::from_tensor(t), PyValue::from_tensor(t)}),
                                     PyValue::dict()});
  Error a = thrown_by([&] { mlp.flatten(two_args); });
  CHECK(contains(a.what(), "at *args expected a tuple of 1 item but got a tuple of 2 items"));

  Error top = thrown_by([&] { mlp.flatten(PyValue::from_tensor(t)); });
  CHECK(contains(top.what(), "at the top level expected a tuple of 2 items but got a Tensor"));
}

TEST_CASE("lists and tuples: lenient for JS arrays, exact like torch on request") {
  TreeSpec in = TreeSpec::parse(kPytreeIn);
  // pytree_io's list_instead_of_tuple case: torch rejects it.
  PyValue with_list = pytree_call(PyValue::list({num(3), num(4)}));
  CHECK(ints(in.flatten(with_list)) == std::vector<int64_t>{1, 2, 3, 4, 5, 6});
  Error e = thrown_by([&] { in.flatten(with_list, TreeSpec::SequenceMatch::Exact); });
  CHECK(e.code() == ErrorCode::BadInput);
  CHECK(contains(e.what(), "at *args[1] expected a tuple of 2 items but got a list of 2 items"));

  TreeSpec out = TreeSpec::parse(kPytreeOut);
  PyValue v = out.unflatten({num(1), num(2), num(3), num(4), num(5)});
  v.items[0].items[1].kind = PyValue::Kind::Tuple;  // the list given as a tuple
  CHECK(out.flatten(v).size() == 5);
  CHECK_THROWS_AS(out.flatten(v, TreeSpec::SequenceMatch::Exact), Error);
}

TEST_CASE("None nodes, namedtuples, int keys and other dict types") {
  const std::string none_json = std::string(R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [)") +
                                R"({"type": "builtins.NoneType", "context": "null", "children_spec": []}, )" +
                                kLeaf + "]}]";
  TreeSpec with_none = TreeSpec::parse(none_json);
  CHECK(with_none.to_string() == "TreeSpec(tuple, None, [TreeSpec(NoneType, None, []),\n  *])");
  CHECK(with_none.num_leaves == 1);
  CHECK(ints(with_none.flatten(PyValue::tuple({PyValue::none(), num(5)}))) == std::vector<int64_t>{5});
  Error not_none = thrown_by([&] { with_none.flatten(PyValue::tuple({num(1), num(5)})); });
  CHECK(contains(not_none.what(), "at [0] expected None but got an int"));
  PyValue rebuilt = with_none.unflatten({num(7)});
  CHECK(rebuilt.items[0].is_none());
  CHECK(rebuilt.items[1].i == 7);
  CHECK(tree_structure(rebuilt).to_string() == with_none.to_string());

  const std::string point_json = std::string(R"([1, {"type": "collections.namedtuple", "context": "__main__.Point", "children_spec": [)") +
                                 kLeaf + ", " + kLeaf + "]}]";
  TreeSpec point = TreeSpec::parse(point_json);
  CHECK(point.to_string() == "TreeSpec(namedtuple, <class '__main__.Point'>, [*,\n  *])");
  PyValue p = point.unflatten({num(1), num(2)});
  CHECK(p.kind == PyValue::Kind::Tuple);
  CHECK(p.s == "__main__.Point");
  CHECK(ints(point.flatten(p)) == std::vector<int64_t>{1, 2});
  PyValue other = p;
  other.s = "__main__.Other";
  CHECK_THROWS_AS(point.flatten(other), Error);

  const std::string int_keys = std::string(R"([1, {"type": "builtins.dict", "context": "[2, 1]", "children_spec": [)") +
                               kLeaf + ", " + kLeaf + "]}]";
  TreeSpec by_int = TreeSpec::parse(int_keys);
  CHECK(by_int.to_string() == "TreeSpec(dict, [2, 1], [*,\n  *])");
  PyValue d = PyValue::dict();
  d.set(num(1), num(10));
  d.set(num(2), num(20));
  CHECK(ints(by_int.flatten(d)) == std::vector<int64_t>{20, 10});
  PyValue string_keys = dict_of({{"1", num(10)}, {"2", num(20)}});
  Error keys = thrown_by([&] { by_int.flatten(string_keys); });
  CHECK(contains(keys.what(), "missing key(s) [2, 1]; extra key(s) ['1', '2']"));

  const std::string ordered = std::string(R"([1, {"type": "collections.OrderedDict", "context": "[\"x\"]", "children_spec": [)") +
                              kLeaf + "]}]";
  CHECK(TreeSpec::parse(ordered).to_string() == "TreeSpec(OrderedDict, ['x'], [*])");

  const std::string defaultdict =
      std::string(R"([1, {"type": "collections.defaultdict", "context": {"default_factory_module": "builtins", "default_factory_name": "list", "dict_context": ["a"]}, "children_spec": [)") +
      kLeaf + "]}]";
  TreeSpec dd = TreeSpec::parse(defaultdict);
  CHECK(dd.to_string() == "TreeSpec(defaultdict, [<class 'list'>, ['a']], [*])");
  CHECK(ints(dd.flatten(dict_of({{"a", num(3)}}))) == std::vector<int64_t>{3});

  const std::string quoted = std::string(R"([1, {"type": "builtins.dict", "context": "[\"it's\", \"a\\\\b\"]", "children_spec": [)") +
                             kLeaf + ", " + kLeaf + "]}]";
  CHECK(TreeSpec::parse(quoted).to_string() == "TreeSpec(dict, [\"it's\", 'a\\\\b'], [*,\n  *])");
}

TEST_CASE("tree_structure describes a value") {
  Tensor t = Tensor::empty(DType::Float32, {2});
  PyValue v = PyValue::tuple({PyValue::list({PyValue::from_tensor(t), PyValue::from_float(0.5)}),
                              dict_of({{"k", PyValue::none()}})});
  TreeSpec s = tree_structure(v);
  CHECK(s.to_string() ==
        "TreeSpec(tuple, None, [TreeSpec(list, None, [*,\n    *]),\n  TreeSpec(dict, ['k'], "
        "[TreeSpec(NoneType, None, [])])])");
  CHECK(s.num_leaves == 2);
  CHECK(tree_structure(PyValue::from_str("x")).is_leaf());
}

TEST_CASE("malformed specs are BadFile errors") {
  for (const std::string& text :
       {std::string("not json"), std::string("[2, ") + kLeaf + "]", std::string("{}"),
        std::string(R"([1, {"type": 5, "context": null, "children_spec": []}])"),
        std::string(R"([1, {"type": "builtins.dict", "context": "[\"a\"]", "children_spec": []}])"),
        std::string(R"([1, {"type": "builtins.dict", "context": "[1.5]", "children_spec": [)") +
            kLeaf + "]}]",
        std::string(R"([1, {"type": "collections.namedtuple", "context": 3, "children_spec": []}])"),
        std::string(R"([1, {"type": null, "context": null}])")}) {
    INFO(text);
    Error e = thrown_by([&] { TreeSpec::parse(text); });
    CHECK(e.code() == ErrorCode::BadFile);
  }
}

TEST_CASE("deeply nested specs are rejected, not a stack overflow") {
  std::string text = "[1, ";
  const int depth = 5000;
  for (int i = 0; i < depth; ++i)
    text += R"({"type": "builtins.list", "context": "null", "children_spec": [)";
  text += kLeaf;
  for (int i = 0; i < depth; ++i) text += "]}";
  text += "]";
  Error e = thrown_by([&] { TreeSpec::parse(text); });
  CHECK(e.code() == ErrorCode::BadFile);
  CHECK(contains(e.what(), "nested too deeply"));
}

TEST_CASE("py_kind_name spells Python's type names") {
  CHECK(std::string(py_kind_name(PyValue::Kind::Tensor)) == "Tensor");
  CHECK(std::string(py_kind_name(PyValue::Kind::Int)) == "int");
  CHECK(std::string(py_kind_name(PyValue::Kind::Float)) == "float");
  CHECK(std::string(py_kind_name(PyValue::Kind::Bool)) == "bool");
  CHECK(std::string(py_kind_name(PyValue::Kind::Str)) == "str");
  CHECK(std::string(py_kind_name(PyValue::Kind::None)) == "None");
  CHECK(std::string(py_kind_name(PyValue::Kind::Tuple)) == "tuple");
  CHECK(std::string(py_kind_name(PyValue::Kind::List)) == "list");
  CHECK(std::string(py_kind_name(PyValue::Kind::Dict)) == "dict");
}
