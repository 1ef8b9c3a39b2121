// The decomposition table: ATen overload name ("aten::linear.default") ->
// a function that rewrites one node into Core ATen nodes through a
// GraphBuilder. The functions read the node's arguments by schema name
// (absent ones take ATen's defaults) and bind the node's outputs to the
// values they emit; they follow torch's own decompositions (ATen's
// CompositeImplicitAutograd kernels and torch/_decomp), so the emitted
// operators and their order are the ones torch's run_decompositions gives.
//
// Ownership: tables are plain maps of function pointers.
// Errors: a function throws Error(Unsupported) for argument combinations it
// does not handle, naming the node.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "passes/graph_builder.h"

namespace pt2web {

// Returns false to decline (the node is then kept as it is): argument
// combinations torch decomposes differently and pt2web does not handle yet.
using DecompositionFn = bool (*)(GraphBuilder& b, const Node& node);
using DecompositionTable = std::map<std::string, DecompositionFn>;

// Every decomposition pt2web has: torch's default table for run_decompositions().
DecompositionTable core_aten_decompositions();

// Family tables (passes/decompositions/*.cpp), merged by core_aten_decompositions.
void add_linear_decompositions(DecompositionTable& t);
void add_matmul_decompositions(DecompositionTable& t);
void add_einsum_decompositions(DecompositionTable& t);
void add_attention_decompositions(DecompositionTable& t);
void add_triangular_decompositions(DecompositionTable& t);
void add_padding_decompositions(DecompositionTable& t);
void add_upsample_decompositions(DecompositionTable& t);
void add_convolution_decompositions(DecompositionTable& t);
void add_normalization_decompositions(DecompositionTable& t);
void add_shape_decompositions(DecompositionTable& t);
void add_activation_decompositions(DecompositionTable& t);
void add_reduction_decompositions(DecompositionTable& t);
void add_pointwise_decompositions(DecompositionTable& t);
void add_creation_decompositions(DecompositionTable& t);

// Helpers for decomposition functions.
const Argument* node_input(const Node& node, const std::string& name);  // nullptr when left at its default
std::string input_tensor(GraphBuilder& b, const Node& node, const std::string& name);  // "" when None/absent
int64_t input_int(const Node& node, const std::string& name, int64_t fallback);
std::vector<int64_t> input_ints(const Node& node, const std::string& name, std::vector<int64_t> fallback);
double input_float(const Node& node, const std::string& name, double fallback);
bool input_bool(const Node& node, const std::string& name, bool fallback);
// The source metadata of the node's i-th tensor output.
const TensorMeta& output_meta(const GraphBuilder& b, const Node& node, size_t i = 0);
// Binds the node's tensor outputs, in order, to `values`.
void bind_outputs(GraphBuilder& b, const Node& node, const std::vector<std::string>& values);
// "where" for errors: the node's target and first output name.
std::string node_label(const Node& node);

}  // namespace pt2web
