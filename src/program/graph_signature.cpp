#include "program/graph_signature.h"

#include "util/python_format.h"

namespace pt2web {

const char* input_kind_name(InputKind kind) {
  switch (kind) {
    case InputKind::UserInput: return "USER_INPUT";
    case InputKind::Parameter: return "PARAMETER";
    case InputKind::Buffer: return "BUFFER";
    case InputKind::ConstantTensor: return "CONSTANT_TENSOR";
    case InputKind::CustomObj: return "CUSTOM_OBJ";
    case InputKind::Token: return "TOKEN";
  }
  return "?";
}

const char* output_kind_name(OutputKind kind) {
  switch (kind) {
    case OutputKind::UserOutput: return "USER_OUTPUT";
    case OutputKind::LossOutput: return "LOSS_OUTPUT";
    case OutputKind::BufferMutation: return "BUFFER_MUTATION";
    case OutputKind::GradientToParameter: return "GRADIENT_TO_PARAMETER";
    case OutputKind::GradientToUserInput: return "GRADIENT_TO_USER_INPUT";
    case OutputKind::UserInputMutation: return "USER_INPUT_MUTATION";
    case OutputKind::Token: return "TOKEN";
    case OutputKind::ParameterMutation: return "PARAMETER_MUTATION";
  }
  return "?";
}

namespace {

template <typename Spec, typename Kind>
std::vector<std::string> targets_of(const std::vector<Spec>& specs, Kind kind) {
  std::vector<std::string> out;
  for (const auto& s : specs)
    if (s.kind == kind) out.push_back(s.target);
  return out;
}

template <typename Spec, typename Kind>
std::map<std::string, std::string> name_to_target(const std::vector<Spec>& specs, Kind kind) {
  std::map<std::string, std::string> out;
  for (const auto& s : specs)
    if (s.kind == kind) out[s.arg.name] = s.target;
  return out;
}

}  // namespace

std::string constant_repr(const Argument& a) {
  switch (a.kind) {
    case Argument::Kind::Int: return std::to_string(a.ints[0]);
    case Argument::Kind::Bool: return a.bools[0] ? "True" : "False";
    case Argument::Kind::String: return a.str;
    case Argument::Kind::Float: return python_float_repr(a.floats[0]);
    default: return "None";
  }
}

std::vector<std::string> GraphSignature::parameters() const {
  return targets_of(input_specs, InputKind::Parameter);
}
std::vector<std::string> GraphSignature::buffers() const {
  return targets_of(input_specs, InputKind::Buffer);
}
std::vector<std::string> GraphSignature::non_persistent_buffers() const {
  std::vector<std::string> out;
  for (const auto& s : input_specs)
    if (s.kind == InputKind::Buffer && s.persistent == false) out.push_back(s.target);
  return out;
}
std::vector<std::string> GraphSignature::lifted_tensor_constants() const {
  return targets_of(input_specs, InputKind::ConstantTensor);
}
std::vector<std::string> GraphSignature::lifted_custom_objs() const {
  return targets_of(input_specs, InputKind::CustomObj);
}
std::vector<std::string> GraphSignature::user_inputs() const {
  std::vector<std::string> out;
  for (const auto& s : input_specs)
    if (s.kind == InputKind::UserInput) out.push_back(s.is_constant_input ? constant_repr(s.arg) : s.arg.name);
  return out;
}
std::vector<std::string> GraphSignature::user_outputs() const {
  std::vector<std::string> out;
  for (const auto& s : output_specs)
    if (s.kind == OutputKind::UserOutput) out.push_back(s.arg.name);
  return out;
}
std::map<std::string, std::string> GraphSignature::inputs_to_parameters() const {
  return name_to_target(input_specs, InputKind::Parameter);
}
std::map<std::string, std::string> GraphSignature::inputs_to_buffers() const {
  return name_to_target(input_specs, InputKind::Buffer);
}
std::map<std::string, std::string> GraphSignature::inputs_to_lifted_tensor_constants() const {
  return name_to_target(input_specs, InputKind::ConstantTensor);
}
std::map<std::string, std::string> GraphSignature::buffers_to_mutate() const {
  return name_to_target(output_specs, OutputKind::BufferMutation);
}
std::map<std::string, std::string> GraphSignature::user_inputs_to_mutate() const {
  return name_to_target(output_specs, OutputKind::UserInputMutation);
}

std::optional<GraphSignature::BackwardSignature> GraphSignature::backward_signature() const {
  BackwardSignature b;
  bool has_loss = false;
  for (const auto& s : output_specs) {
    if (s.kind == OutputKind::LossOutput) {
      has_loss = true;
      b.loss_output = s.arg.name;
    }
  }
  if (!has_loss) return std::nullopt;
  b.gradients_to_parameters = name_to_target(output_specs, OutputKind::GradientToParameter);
  b.gradients_to_user_inputs = name_to_target(output_specs, OutputKind::GradientToUserInput);
  return b;
}

std::vector<std::string> GraphSignature::input_tokens() const {
  std::vector<std::string> out;
  for (const auto& s : input_specs)
    if (s.kind == InputKind::Token) out.push_back(s.arg.name);
  return out;
}

std::vector<std::string> GraphSignature::output_tokens() const {
  std::vector<std::string> out;
  for (const auto& s : output_specs)
    if (s.kind == OutputKind::Token) out.push_back(s.arg.name);
  return out;
}

std::optional<std::string> GraphSignature::assertion_dep_token() const {
  // torch keeps one output token for the effects of runtime assertions; in a
  // serialized program it is the last output token, when there is one.
  auto tokens = output_tokens();
  if (tokens.empty()) return std::nullopt;
  return tokens.back();
}

}  // namespace pt2web
