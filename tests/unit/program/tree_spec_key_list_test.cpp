// Registered classes whose serialized context is the list of their keys:
// transformers' ModelOutput subclasses, as torch 2.14 writes BERT's out spec
// (tools/torch/gen_transformers_corpus.py), rebuilt as a Dict key -> value
// named after the class, and accepted back as such. A registered class whose
// context is anything else cannot be rebuilt and is refused as UNSUPPORTED.
#include <catch2/catch.hpp>

#include "program/tree_spec.h"
#include "util/error.h"

using namespace pt2web;

namespace {

const char* const kBertOut =
    R"([1, {"type": "transformers.modeling_outputs.BaseModelOutputWithPoolingAndCrossAttentions", "context": "[\"last_hidden_state\", \"pooler_output\"]", "children_spec": [{"type": null, "context": null, "children_spec": []}, {"type": null, "context": null, "children_spec": []}]}])";

const char* const kLeaf = R"({"type": null, "context": null, "children_spec": []})";

PyValue num(int64_t v) { return PyValue::from_int(v); }

std::string spec_of(const std::string& type, const std::string& context, int children) {
  std::string out = R"([1, {"type": ")" + type + R"(", "context": )" + context + R"(, "children_spec": [)";
  for (int i = 0; i < children; ++i) out += std::string(i ? ", " : "") + kLeaf;
  return out + "]}]";
}

}  // namespace

TEST_CASE("a ModelOutput spec reads its keys and prints as torch does", "[program][pytree]") {
  TreeSpec out = TreeSpec::parse(kBertOut);
  CHECK(out.key_list);
  CHECK(out.is_record());
  CHECK_FALSE(out.dataclass);
  REQUIRE(out.keys.size() == 2);
  CHECK(out.keys[0].s == "last_hidden_state");
  CHECK(out.to_string() ==
        "TreeSpec(BaseModelOutputWithPoolingAndCrossAttentions, ['last_hidden_state', 'pooler_output'], [*,\n  *])");
  CHECK(out.leaf_paths(false) == std::vector<std::string>{"['last_hidden_state']", "['pooler_output']"});
}

TEST_CASE("a ModelOutput output is a Dict of its keys named after the class", "[program][pytree]") {
  TreeSpec out = TreeSpec::parse(kBertOut);
  PyValue v = out.unflatten({num(1), num(2)});
  REQUIRE(v.kind == PyValue::Kind::Dict);
  CHECK(v.s == "transformers.modeling_outputs.BaseModelOutputWithPoolingAndCrossAttentions");
  CHECK(v.get("last_hidden_state")->i == 1);
  CHECK(v.get("pooler_output")->i == 2);
}

TEST_CASE("a ModelOutput input flattens from an object of its keys, in any order", "[program][pytree]") {
  TreeSpec spec = TreeSpec::parse(kBertOut);
  PyValue given = PyValue::dict();
  given.set(PyValue::from_str("pooler_output"), num(2));
  given.set(PyValue::from_str("last_hidden_state"), num(1));
  auto leaves = spec.flatten(given, TreeSpec::SequenceMatch::Exact);
  REQUIRE(leaves.size() == 2);
  CHECK(leaves[0].i == 1);
  CHECK(leaves[1].i == 2);
  // By class name alone, as JavaScript knows no module.
  given.s = "BaseModelOutputWithPoolingAndCrossAttentions";
  CHECK(spec.flatten(given).size() == 2);

  PyValue partial = PyValue::dict();
  partial.set(PyValue::from_str("last_hidden_state"), num(1));
  try {
    spec.flatten(partial);
    FAIL("a missing key was accepted");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::BadInput);
    CHECK_THAT(e.what(), Catch::Contains("a transformers.modeling_outputs.BaseModelOutputWithPoolingAndCrossAttentions "
                                         "with keys ['last_hidden_state', 'pooler_output']"));
    CHECK_THAT(e.what(), Catch::Contains("missing key(s) ['pooler_output']"));
  }
}

TEST_CASE("integer keys and an empty key list are key lists too", "[program][pytree]") {
  TreeSpec ints = TreeSpec::parse(spec_of("pkg.ByIndex", R"("[3, 1]")", 2));
  CHECK(ints.key_list);
  CHECK(ints.leaf_paths(false) == std::vector<std::string>{"[3]", "[1]"});
  TreeSpec empty = TreeSpec::parse(spec_of("pkg.Nothing", R"("[]")", 0));
  CHECK(empty.key_list);
  CHECK(empty.unflatten({}).s == "pkg.Nothing");
}

TEST_CASE("torch's immutable_list reads as a list", "[program][pytree]") {
  TreeSpec s = TreeSpec::parse(spec_of("torch.fx.immutable_collections.immutable_list", R"("null")", 2));
  CHECK(s.unflatten({num(1), num(2)}).kind == PyValue::Kind::List);
}

TEST_CASE("a registered class whose context is not its keys is UNSUPPORTED, named", "[program][pytree]") {
  for (const std::string& context :
       {std::string(R"("null")"), std::string(R"("{\"a\": 1}")"), std::string(R"("[\"a\"]")"),
        std::string(R"("not json at all")"), std::string(R"("[1.5, 2.5]")")}) {
    INFO(context);
    try {
      TreeSpec::parse(spec_of("mylib.Opaque", context, 2));
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::Unsupported);
      CHECK_THAT(e.what(), Catch::Contains("mylib.Opaque"));
      CHECK_THAT(e.what(), Catch::Contains("is not the list of its keys"));
    }
  }
}
