// random_inputs: inputs a program accepts, made up from its signature, for
// trying a program out (npm's sampleInputs({random: true}), the CLI's run
// and bench, the demo):
//   - every size symbol of the user inputs gets one value inside its range
//     (the same value wherever it appears), preferring small sizes: a uniform
//     pick in [min, min(max, max(min, 8))], min defaulting to 2;
//   - tensors get the recorded dtype and their shape evaluated with those
//     values; floats are uniform in [-1, 1), integers in [0, 3] (small enough
//     to be valid indices for embeddings and gathers), bools either;
//   - symbolic int inputs get their expression's value, other symbolic
//     scalars a value like a tensor element; specialized constants their value.
// The result is (args, kwargs), built with the program's in_spec, so the
// values sit where run() expects them. The generator is seeded: the same seed
// gives the same inputs on every platform.
//
// Ownership: returns new tensors; borrows nothing.
// Errors: Error(BadProgram) when a tensor input has no recorded dtype and
// shape; Error(BadInput) when a size cannot be evaluated.
#pragma once

#include <cstdint>

#include "program/exported_program.h"

namespace pt2web {

PyValue random_inputs(const ExportedProgram& program, uint32_t seed);

}  // namespace pt2web
