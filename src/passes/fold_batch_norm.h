// fold_batch_norm: folds inference-mode batch norms into the convolution
// that feeds them. A convolution (not transposed; aten.convolution or the
// TRAINING dialect's conv1d/2d/3d) whose weight, bias and the batch norm's
// weight, bias, running mean and running variance are all program state
// (parameters, buffers or lifted constants) that the program never writes
// and that is not in `changing`, read by nothing but one inference batch
// norm (_native_batch_norm_legit_no_training whose statistics outputs are
// unread, or batch_norm with training=False), becomes one convolution with
// weight * gamma / sqrt(var + eps) and bias
// (bias - mean) * gamma / sqrt(var + eps) + beta, held as new lifted
// constants (placeholders c_folded_<conv>_weight / _bias). The original
// state stays in the program (its signature is unchanged) but nothing reads
// it any more. Float32 and float64 only; other batch norms are left alone.
//
// Ownership: fold_batch_norm returns a new program and leaves its input
// alone; fold_batch_norm_in_place rewrites its argument (the folded
// constants are new tensors either way; the loaded state is never written).
// Errors: none of its own (programs it cannot fold pass through unchanged).
#pragma once

#include <set>
#include <string>

#include "program/exported_program.h"

namespace pt2web {

// `changing`: placeholders whose values may change without the program
// writing them (the runtime's mutable buffers); they are never folded.
ExportedProgram fold_batch_norm(const ExportedProgram& program, const std::set<std::string>& changing = {});
// The same on `program` itself; returns whether it folded anything.
bool fold_batch_norm_in_place(ExportedProgram& program, const std::set<std::string>& changing = {});

}  // namespace pt2web
