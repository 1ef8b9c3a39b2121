// The graph of an ExportedProgram, as the export schema describes it
// (torch/_export/serde/schema.py): arguments, nodes, tensor metadata with
// symbolic sizes. Parsed from JSON by io/program_json; immutable afterwards.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "program/sym_expr.h"
#include "tensor/dtype.h"

namespace pt2web {

struct Graph;

// A size, stride or SymInt value: a concrete integer or a symbolic expression.
struct SymInt {
  bool is_symbolic = false;
  int64_t value = 0;            // when concrete
  std::shared_ptr<const SymExpr> expr;  // when symbolic
  std::optional<int64_t> hint;  // the example value torch recorded
  std::string to_string() const;
};

struct TensorMeta {
  DType dtype = DType::Float32;
  std::vector<SymInt> sizes;
  std::vector<SymInt> strides;
  bool requires_grad = false;
  std::string device = "cpu";
};

// One operator argument or graph input/output (the export schema's Argument union).
struct Argument {
  enum class Kind {
    None,
    Tensor,          // name
    Tensors,         // names
    OptionalTensors, // names, "" for None
    Int,
    Ints,
    Float,
    Floats,
    Bool,
    Bools,
    String,
    Strings,
    SymInt,          // name (a sym value) or ints[0] if concrete
    SymInts,         // names[i] == "" means ints[i] is the value
    SymBool,         // name, or bools[0]
    SymBools,
    SymFloat,        // name, or floats[0]
    SymFloats,
    ScalarType,      // dtype
    MemoryFormat,    // ints[0]
    Layout,          // ints[0]
    Device,          // str
    Graph,           // name + graph
    CustomObj,       // name, str = class fqn
    Operator,        // str = target
  };
  Kind kind = Kind::None;
  std::string name;
  std::string str;
  std::vector<std::string> names;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<bool> bools;
  std::vector<std::string> strings;
  DType dtype = DType::Float32;
  std::shared_ptr<Graph> graph;
};

struct NamedArgument {
  std::string name;  // formal argument name from the operator schema ("" for HOP positionals)
  Argument arg;
  int kind = 0;      // 0 unknown, 1 positional, 2 keyword
};

struct Node {
  std::string target;  // "torch.ops.aten.addmm.default", "_operator.mul", "torch.ops.higher_order.cond"
  std::vector<NamedArgument> inputs;
  std::vector<Argument> outputs;
  std::map<std::string, std::string> metadata;
  std::optional<bool> is_hop_single_tensor_return;
};

struct Graph {
  std::vector<Argument> inputs;
  std::vector<Argument> outputs;
  std::vector<Node> nodes;
  std::map<std::string, TensorMeta> tensor_values;
  std::map<std::string, SymInt> sym_int_values;
  std::map<std::string, SymInt> sym_bool_values;  // value 0/1 or an expression
  std::map<std::string, SymInt> sym_float_values;
  bool is_single_tensor_return = false;
};

}  // namespace pt2web
