// ATen operator schemas ("aten::add.Tensor(Tensor self, Tensor other, *,
// Scalar alpha=1) -> Tensor"), parsed once when the operator table is built.
//
// The export JSON leaves out arguments that were left at their defaults and
// names the others, so the executor binds a node's inputs to positions by
// name and fills the gaps from these defaults.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/value.h"

namespace pt2web {

struct SchemaArgument {
  std::string name;
  std::string type;            // as written, without alias annotations: "Tensor?", "int[2]", "Scalar"
  std::string base_type;       // "Tensor", "int", "float", "bool", "str", "Scalar", "ScalarType", ...
  bool is_list = false;        // "int[]", "int[2]", "Tensor[]", "Tensor?[]"
  int fixed_length = 0;        // N of "int[N]" (0 otherwise)
  bool is_optional = false;    // "T?"
  bool kwarg_only = false;     // after "*"
  bool is_mutable = false;     // "Tensor(a!)": the op writes into this argument
  bool is_variadic = false;    // "Tensor... args" (last argument only): every further
                               // positional input, gathered into one tensor list
  std::optional<Value> default_value;
};

struct OpSchema {
  std::string name;      // "aten::add"
  std::string overload;  // "Tensor" ("default" when the schema has none)
  std::vector<SchemaArgument> arguments;
  std::vector<std::string> returns;  // return types, e.g. {"Tensor", "Tensor"}
  std::string text;

  std::string qualified_name() const { return name + "." + overload; }  // "aten::add.Tensor"
  // Index of the argument named `arg`, or -1.
  int argument_index(const std::string& arg) const;
};

// Throws Error(Internal) on a malformed schema (schemas are written by us).
OpSchema parse_op_schema(const std::string& text);

}  // namespace pt2web
