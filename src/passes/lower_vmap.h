// vmap regions as loops. torch 2.14's TRAINING IR keeps torch.vmap as
// functorch's pre-dispatch markers around per-example code:
//   _vmap_increment_nesting(batch_size, randomness)
//   b = _add_batch_dim(x, in_dim, level)     # b is x without dim in_dim
//   ... operators on b, written for one example ...
//   y = _remove_batch_dim(t, level, batch_size, out_dim)
//   _vmap_decrement_nesting()
// (and lazy_load_decompositions() calls, which do nothing). Core ATen has
// none of these: run_decompositions batches the operators instead.
//
// This pass gives each region vmap's meaning without a batching rule per
// operator: the region becomes a map_impl over the batch (the region's
// operators, once per example, results stacked), with the batched inputs
// moved so in_dim leads and the results moved from dim 0 to out_dim.
// Nested regions become nested maps. Values the region reads from outside
// are passed to every iteration unchanged.
//
// Ownership: edits the program in place. Errors: Error(Unsupported) for a
// region that reads a non-tensor value from outside (a size, for instance),
// or whose markers do not pair up; Error(BadProgram) for a marker with
// arguments of the wrong kind.
#pragma once

#include "program/exported_program.h"

namespace pt2web {

// Lowers every region; true when the program had any (and so changed).
bool lower_vmap_regions(ExportedProgram& program);

}  // namespace pt2web
