// OpCall: what a kernel sees. Arguments arrive bound to schema positions
// (defaults filled in), kernels read them through typed accessors and push
// their results onto `outputs`, one Value per schema return.
//
// Errors: accessors throw Error(BadInput) naming the operator and argument
// when a value has the wrong kind; kernels throw Error(BadInput) for shapes
// or values the operator rejects, and Error(Unsupported) for dtypes or
// argument combinations pt2web does not implement.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ops/op_schema.h"
#include "ops/random_source.h"
#include "ops/value.h"
#include "util/saturating_cast.h"

namespace pt2web {

// A number argument (ATen's Scalar): keeps whether it was integral or bool,
// which matters for type promotion.
struct Scalar {
  enum class Kind { Bool, Int, Double } kind = Kind::Int;
  int64_t i = 0;
  double d = 0.0;
  double to_double() const { return kind == Kind::Double ? d : static_cast<double>(i); }
  int64_t to_int() const { return kind == Kind::Double ? saturating_cast<int64_t>(d) : i; }
};

// Runs a subgraph (bodies of higher-order ops such as cond). Implemented by the executor.
// What a kernel may ask of the run it belongs to: running a subgraph (the
// higher-order operators) and the program's random source (random operators).
class SubgraphRunner {
 public:
  virtual ~SubgraphRunner() = default;
  virtual std::vector<Value> run_subgraph(const Graph& graph, const std::vector<Value>& inputs) = 0;
  virtual RandomSource& random_source() = 0;
};

class OpCall {
 public:
  // Owns its arguments (composite operators calling their parts, tests).
  OpCall(const OpSchema& schema, std::vector<Value> args, SubgraphRunner* runner)
      : schema_(schema), owned_(std::move(args)), num_args_(owned_.size()), runner_(runner) {}
  // Borrows them: `args[i]` points at argument i, which the caller keeps alive
  // and unchanged until the call returns (the executor's slots and its plan's
  // constants), so running a node copies no argument.
  OpCall(const OpSchema& schema, const Value* const* args, size_t num_args, SubgraphRunner* runner)
      : schema_(schema), borrowed_(args), num_args_(num_args), runner_(runner) {}

  const OpSchema& schema() const { return schema_; }
  size_t num_args() const { return num_args_; }
  const Value& arg(size_t index) const;

  const Tensor& tensor(size_t index) const;          // required Tensor
  Tensor optional_tensor(size_t index) const;        // undefined Tensor for None
  std::vector<Tensor> tensor_list(size_t index) const;  // Tensor[] / Tensor?[] (None -> undefined)
  int64_t int_arg(size_t index) const;
  std::optional<int64_t> optional_int(size_t index) const;
  double double_arg(size_t index) const;             // also accepts ints
  std::optional<double> optional_double(size_t index) const;
  bool bool_arg(size_t index) const;
  Scalar scalar(size_t index) const;
  std::optional<Scalar> optional_scalar(size_t index) const;
  std::vector<int64_t> int_list(size_t index) const;  // also accepts a single int
  std::optional<std::vector<int64_t>> optional_int_list(size_t index) const;
  std::vector<double> double_list(size_t index) const;
  std::string string_arg(size_t index) const;
  std::optional<std::string> optional_string(size_t index) const;
  std::optional<DType> optional_dtype(size_t index) const;
  const Graph& graph_arg(size_t index) const;

  SubgraphRunner& runner() const;
  // The program's random source. Throws Error(Unsupported) when the call
  // runs outside a program (no run context to draw from).
  RandomSource& random() const;

  // Results, in schema return order.
  std::vector<Value> outputs;
  void push(Tensor t) { outputs.push_back(Value::from_tensor(std::move(t))); }

  // "aten::add.Tensor: " prefix for messages.
  std::string where() const { return schema_.qualified_name() + ": "; }
  std::string arg_name(size_t index) const;

 private:
  const OpSchema& schema_;
  std::vector<Value> owned_;               // the arguments, when the call owns them
  const Value* const* borrowed_ = nullptr;  // or pointers to them, when it borrows
  size_t num_args_ = 0;
  SubgraphRunner* runner_;
};

using KernelFn = void (*)(OpCall&);

}  // namespace pt2web
