// Dataclass pytrees (torch.export.register_dataclass): the spec torch 2.6
// writes for `Pair(a, b, note=None)` in tests/fixtures-export/pytree_dataclass,
// flattened from an object of the fields or an array of their values, and
// rebuilt as a Dict field -> value named after the class.
#include <catch2/catch.hpp>

#include "program/tree_spec.h"
#include "util/error.h"

using namespace pt2web;

namespace {

// in_spec of pytree_dataclass: ((Pair(a, b; None: note), scale), {}).
const char* const kIn =
    R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "pt2web_tests.Pair", "context": "[[\"a\", \"b\"], [\"note\"]]", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}, {"type": null, "context": null, "children_spec": []}]}, {"type": "builtins.dict", "context": "[]", "children_spec": []}]}])";

PyValue num(int64_t v) { return PyValue::from_int(v); }

PyValue fields(std::vector<std::pair<std::string, PyValue>> kv, const std::string& cls = "") {
  PyValue d = PyValue::dict();
  d.s = cls;
  for (auto& [k, v] : kv) d.set(PyValue::from_str(k), v);
  return d;
}

PyValue call(const PyValue& pair) { return PyValue::tuple({PyValue::tuple({pair, num(9)}), PyValue::dict()}); }

std::vector<int64_t> ints(const std::vector<PyValue>& leaves) {
  std::vector<int64_t> out;
  for (const auto& v : leaves) out.push_back(v.i);
  return out;
}

std::string error_of(const TreeSpec& spec, const PyValue& value) {
  try {
    spec.flatten(value, TreeSpec::SequenceMatch::Exact);
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::BadInput);
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("dataclass specs read their fields and None fields", "[program][pytree]") {
  TreeSpec in = TreeSpec::parse(kIn);
  const TreeSpec& pair = in.children[0].children[0];
  CHECK(pair.dataclass);
  REQUIRE(pair.keys.size() == 2);
  CHECK(pair.keys[1].s == "b");
  CHECK(pair.none_fields == std::vector<std::string>{"note"});
  CHECK(in.num_leaves == 3);
  CHECK(pair.to_string() == "TreeSpec(Pair, [['a', 'b'], ['note']], [*,\n  *])");
  CHECK(in.leaf_paths() == std::vector<std::string>{"*args[0].a", "*args[0].b", "*args[1]"});
}

TEST_CASE("a dataclass flattens from its fields in any order, or from their values", "[program][pytree]") {
  TreeSpec in = TreeSpec::parse(kIn);
  auto exact = TreeSpec::SequenceMatch::Exact;
  CHECK(ints(in.flatten(call(fields({{"a", num(1)}, {"b", num(2)}})), exact)) == std::vector<int64_t>{1, 2, 9});
  CHECK(ints(in.flatten(call(fields({{"b", num(2)}, {"note", PyValue::none()}, {"a", num(1)}}, "Pair")), exact)) ==
        std::vector<int64_t>{1, 2, 9});
  CHECK(ints(in.flatten(call(PyValue::tuple({num(1), num(2)})), exact)) == std::vector<int64_t>{1, 2, 9});
}

TEST_CASE("dataclass mismatches name the fields", "[program][pytree]") {
  TreeSpec in = TreeSpec::parse(kIn);
  std::string missing = error_of(in, call(fields({{"a", num(1)}})));
  CHECK_THAT(missing, Catch::Contains("at *args[0] expected a dataclass pt2web_tests.Pair with fields ['a', 'b']"));
  CHECK_THAT(missing, Catch::Contains("missing field(s) ['b']"));
  // A None field with a value is not the program's structure.
  std::string extra = error_of(in, call(fields({{"a", num(1)}, {"b", num(2)}, {"note", num(3)}})));
  CHECK_THAT(extra, Catch::Contains("extra field(s) ['note']"));
  CHECK_THAT(error_of(in, call(fields({{"a", num(1)}, {"b", num(2)}}, "Other"))), Catch::Contains("the class differs"));
  CHECK_THAT(error_of(in, call(PyValue::tuple({num(1)}))), Catch::Contains("but got a tuple of 1 item"));
}

TEST_CASE("a dataclass output is a Dict of its fields named after the class", "[program][pytree]") {
  TreeSpec in = TreeSpec::parse(kIn);
  const TreeSpec& pair = in.children[0].children[0];
  PyValue v = pair.unflatten({num(4), num(5)});
  REQUIRE(v.kind == PyValue::Kind::Dict);
  CHECK(v.s == "pt2web_tests.Pair");
  REQUIRE(v.keys.size() == 3);
  CHECK(v.get("a")->i == 4);
  CHECK(v.get("b")->i == 5);
  CHECK(v.get("note")->is_none());
  CHECK(ints(pair.flatten(v, TreeSpec::SequenceMatch::Exact)) == std::vector<int64_t>{4, 5});
}
