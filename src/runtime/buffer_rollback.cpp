#include "runtime/buffer_rollback.h"

namespace pt2web {

BufferRollback::BufferRollback(std::map<std::string, Tensor>& buffers,
                               const std::set<std::string>& written_in_place)
    : buffers_(buffers) {
  for (const std::string& name : written_in_place) {
    auto it = buffers_.find(name);
    if (it != buffers_.end()) saved_[name] = it->second.clone();
  }
}

BufferRollback::~BufferRollback() {
  if (committed_) return;
  for (const auto& [name, saved] : saved_) {
    try {
      buffers_.at(name).copy_from(saved);
    } catch (...) {
      // Same names, shapes and dtypes as when saved; a destructor must not throw.
    }
  }
}

}  // namespace pt2web
