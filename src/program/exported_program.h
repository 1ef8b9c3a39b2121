// ExportedProgram: everything a .pt2 holds for one program, mirroring
// torch.export.ExportedProgram: graph, graph signature, state dict,
// constants, range constraints, guards (torch 2.14's guards_code), module call
// graph (with in/out pytree specs), example inputs, dialect and schema version.
//
// Ownership: tensors in state_dict/constants may borrow the archive bytes;
// their storages keep those bytes alive.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "program/graph.h"
#include "program/guard.h"
#include "program/graph_signature.h"
#include "program/py_value.h"
#include "program/tree_spec.h"

namespace pt2web {

struct RangeConstraint {
  std::optional<int64_t> min_val;  // nullopt = unbounded
  std::optional<int64_t> max_val;
};

struct ModuleCallSignature {
  std::vector<Argument> inputs;
  std::vector<Argument> outputs;
  std::string in_spec_text;
  std::string out_spec_text;
  TreeSpec in_spec;
  TreeSpec out_spec;
  std::vector<std::string> forward_arg_names;
};

struct ModuleCallEntry {
  std::string fqn;
  std::optional<ModuleCallSignature> signature;
};

struct SchemaVersion {
  int64_t major = 0;
  int64_t minor = 0;
};

struct ExportedProgram {
  Graph graph;
  GraphSignature signature;
  std::map<std::string, Tensor> state_dict;  // parameters and persistent buffers
  std::vector<std::string> state_dict_order; // names in the archive's order
  std::map<std::string, PyValue> constants;  // lifted constants, non-persistent buffers
  std::vector<std::string> constants_order;
  std::map<std::string, RangeConstraint> range_constraints;
  std::vector<Guard> guards;                 // input conditions beyond the ranges, checked on every call
  std::vector<ModuleCallEntry> module_call_graph;
  std::optional<PyValue> example_inputs;     // (args tuple, kwargs dict)
  // Why example_inputs is absent although the archive has them (for example,
  // they pickle a user class, which the restricted unpickler never builds);
  // empty when they loaded or the archive has none. The program runs either way.
  std::string example_inputs_unavailable;
  std::string dialect;                       // "TRAINING", "ATEN", "EDGE"
  SchemaVersion schema_version;
  std::string torch_version;
  std::map<std::string, int64_t> opset_version;

  // The root entry's call signature (fqn ""); throws Error(BadProgram) if missing.
  const ModuleCallSignature& call_signature() const;
};

// Throws Error(BadProgram) with what is inconsistent and where: placeholder
// count vs input specs, output count vs output specs, values used before they
// are defined, missing state or constants, specs pointing at unknown names.
void verify_program(const ExportedProgram& program);

// A text rendering in the spirit of Python's print(ep).
std::string print_program(const ExportedProgram& program);

}  // namespace pt2web
