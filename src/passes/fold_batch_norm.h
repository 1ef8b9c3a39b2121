// fold_batch_norm: folds inference-mode batch norms into the convolution
// that feeds them. A convolution (not transposed) whose weight, bias and the
// batch norm's weight, bias, running mean and running variance are all
// program state (parameters, buffers or lifted constants), read by nothing
// but one _native_batch_norm_legit_no_training whose statistics outputs are
// unread, becomes one convolution with weight * gamma / sqrt(var + eps) and
// bias (bias - mean) * gamma / sqrt(var + eps) + beta, held as new lifted
// constants (placeholders c_folded_<conv>_weight / _bias). The original
// state stays in the program (its signature is unchanged) but nothing reads
// it any more. Float32 and float64 only; other batch norms are left alone.
//
// Ownership: returns a new program; the input is not modified.
// Errors: none of its own (programs it cannot fold pass through unchanged).
#pragma once

#include "program/exported_program.h"

namespace pt2web {

ExportedProgram fold_batch_norm(const ExportedProgram& program);

}  // namespace pt2web
