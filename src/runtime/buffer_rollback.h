// Keeps a failed run from changing a program's state. Programs in the
// training IR (torch.export's default, before run_decompositions) mutate
// buffers in place (aten.add_ on a buffer placeholder), so an operator that
// fails later in the same run would leave the buffers half updated.
// BufferRollback snapshots the buffers before such a run and copies the
// snapshot back unless the run commits. Functional programs write buffers only
// after the whole graph ran, and skip the snapshot.
//
// Ownership: borrows the buffer map, which must outlive the rollback.
// Errors: none; restoring copies same-shape tensors and cannot fail.
#pragma once

#include <map>
#include <string>

#include "program/graph.h"
#include "tensor/tensor.h"

namespace pt2web {

// True when some node (subgraphs included) calls an in-place operator
// (aten.add_, aten.copy_, ...: an op name ending in one underscore).
bool graph_mutates_in_place(const Graph& graph);

class BufferRollback {
 public:
  BufferRollback(std::map<std::string, Tensor>& buffers, bool needed);
  ~BufferRollback();
  BufferRollback(const BufferRollback&) = delete;
  BufferRollback& operator=(const BufferRollback&) = delete;

  void commit() { committed_ = true; }

 private:
  std::map<std::string, Tensor>& buffers_;
  std::map<std::string, Tensor> snapshot_;
  bool committed_ = false;
};

}  // namespace pt2web
