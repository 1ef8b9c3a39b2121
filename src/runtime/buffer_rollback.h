// Keeps a failed run from changing a program's state. Programs in the
// TRAINING dialect (torch.export's default, before run_decompositions) write
// buffers in place while the graph runs (aten.add_ on a buffer placeholder),
// so an operator failing later in the same run would leave them half
// updated. BufferRollback copies the buffers that can be written in place
// (runtime/buffer_writes.h: buffers_written_in_place) before the run and
// copies them back unless the run commits. Functional programs write buffers
// only after the whole graph ran and have nothing to copy.
//
// Ownership: borrows the buffer map and the name set, which must outlive the
// rollback. Errors: none; restoring copies same-shape tensors.
#pragma once

#include <map>
#include <set>
#include <string>

#include "tensor/tensor.h"

namespace pt2web {

class BufferRollback {
 public:
  BufferRollback(std::map<std::string, Tensor>& buffers, const std::set<std::string>& written_in_place);
  ~BufferRollback();
  BufferRollback(const BufferRollback&) = delete;
  BufferRollback& operator=(const BufferRollback&) = delete;

  void commit() { committed_ = true; }

 private:
  std::map<std::string, Tensor>& buffers_;
  std::map<std::string, Tensor> saved_;
  bool committed_ = false;
};

}  // namespace pt2web
