#include "runtime/buffer_writes.h"

#include <map>

#include "ops/registry.h"

namespace pt2web {

namespace {

using Taint = std::set<std::string>;  // buffer targets a value may alias

void names_of(const Argument& a, std::vector<std::string>& out) {
  if (a.kind == Argument::Kind::Tensor && !a.name.empty()) out.push_back(a.name);
  if (a.kind == Argument::Kind::Tensors || a.kind == Argument::Kind::OptionalTensors)
    for (const auto& n : a.names)
      if (!n.empty()) out.push_back(n);
}

// True when the schema says a return aliases an input ("-> Tensor(a)").
bool returns_alias(const OpSchema& schema) {
  const size_t arrow = schema.text.rfind("->");
  return arrow == std::string::npos || schema.text.find("Tensor(", arrow) != std::string::npos;
}

}  // namespace

std::set<std::string> buffers_written_in_place(const ExportedProgram& program) {
  std::set<std::string> written;
  std::map<std::string, Taint> taint;
  for (const auto& spec : program.signature.input_specs)
    if (spec.kind == InputKind::Buffer) taint[spec.arg.name].insert(spec.target);

  for (const Node& node : program.graph.nodes) {
    const OpEntry* entry = op_table().find(qualified_op_name(node.target));
    const bool opaque = entry == nullptr;  // built-ins, higher-order ops: assume the worst
    Taint reaching;
    for (const auto& input : node.inputs) {
      std::vector<std::string> names;
      names_of(input.arg, names);
      for (const auto& n : names) {
        auto it = taint.find(n);
        if (it == taint.end()) continue;
        reaching.insert(it->second.begin(), it->second.end());
        int index = opaque ? -1 : entry->schema.argument_index(input.name);
        if (opaque || (index >= 0 && entry->schema.arguments[index].is_mutable))
          written.insert(it->second.begin(), it->second.end());
      }
    }
    if (reaching.empty() || (!opaque && !returns_alias(entry->schema))) continue;
    for (const auto& out : node.outputs) {
      std::vector<std::string> names;
      names_of(out, names);
      for (const auto& n : names) taint[n].insert(reaching.begin(), reaching.end());
    }
  }
  return written;
}

std::set<std::string> with_buffer_mutations(const ExportedProgram& program, std::set<std::string> written_in_place) {
  for (const auto& spec : program.signature.output_specs)
    if (spec.kind == OutputKind::BufferMutation) written_in_place.insert(spec.target);
  return written_in_place;
}

std::set<std::string> buffers_the_program_may_write(const ExportedProgram& program) {
  return with_buffer_mutations(program, buffers_written_in_place(program));
}

}  // namespace pt2web
