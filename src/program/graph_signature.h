// GraphSignature: how the graph's placeholders and outputs relate to the
// program's state and to the user (torch/export/graph_signature.py), with
// the derived views torch offers (parameters, buffers, inputs_to_parameters...).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "program/graph.h"

namespace pt2web {

enum class InputKind { UserInput, Parameter, Buffer, ConstantTensor, CustomObj, Token };
enum class OutputKind {
  UserOutput, LossOutput, BufferMutation, GradientToParameter, GradientToUserInput,
  UserInputMutation, Token, ParameterMutation,
};

const char* input_kind_name(InputKind kind);    // "USER_INPUT", "PARAMETER", ...
const char* output_kind_name(OutputKind kind);  // "USER_OUTPUT", "BUFFER_MUTATION", ...

struct InputSpec {
  InputKind kind = InputKind::UserInput;
  Argument arg;                     // a Tensor argument, a SymInt, or a constant
  std::string target;               // parameter/buffer/constant/custom object name
  std::optional<bool> persistent;   // buffers only
  bool is_constant_input = false;   // a specialized non-tensor user input (constant_input)
};

struct OutputSpec {
  OutputKind kind = OutputKind::UserOutput;
  Argument arg;
  std::string target;  // buffer or user input name for mutations and gradients
};

// A constant input's value as Python prints it ("3", "0.5", "True", "None").
std::string constant_repr(const Argument& constant);

struct GraphSignature {
  std::vector<InputSpec> input_specs;
  std::vector<OutputSpec> output_specs;

  // Derived views, named and ordered as torch's ExportGraphSignature has them.
  std::vector<std::string> parameters() const;
  std::vector<std::string> buffers() const;
  std::vector<std::string> non_persistent_buffers() const;
  std::vector<std::string> lifted_tensor_constants() const;
  std::vector<std::string> lifted_custom_objs() const;
  std::vector<std::string> user_inputs() const;   // placeholder names; constants as their values (constant_repr)
  std::vector<std::string> user_outputs() const;  // output value names ("" for None/constants)
  std::map<std::string, std::string> inputs_to_parameters() const;
  std::map<std::string, std::string> inputs_to_buffers() const;
  std::map<std::string, std::string> inputs_to_lifted_tensor_constants() const;
  std::map<std::string, std::string> buffers_to_mutate() const;
  std::map<std::string, std::string> user_inputs_to_mutate() const;
  // Joint (training) graphs only: nullopt when there is no LOSS_OUTPUT.
  struct BackwardSignature {
    std::map<std::string, std::string> gradients_to_parameters;
    std::map<std::string, std::string> gradients_to_user_inputs;
    std::string loss_output;
  };
  std::optional<BackwardSignature> backward_signature() const;
  // The output token of assertion effects; nullopt when the graph has none.
  std::optional<std::string> assertion_dep_token() const;
  std::vector<std::string> input_tokens() const;
  std::vector<std::string> output_tokens() const;
};

}  // namespace pt2web
