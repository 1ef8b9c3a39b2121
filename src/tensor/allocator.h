// Where new tensor storage comes from. By default Storage::allocate uses the
// heap; the runtime installs a StorageAllocator for the duration of a program
// run so intermediate values can be recorded and then served from a planned
// arena (runtime/memory_plan.h).
//
// The installed allocator is per thread; kernels allocate on the thread that
// runs the program.
#pragma once

#include <cstddef>
#include <memory>

namespace pt2web {

class Storage;

class StorageAllocator {
 public:
  virtual ~StorageAllocator() = default;
  // Returns storage of nbytes in a block as tensor/storage_size.h defines it
  // (aligned, with kStorageTailBytes spare bytes after the end for SIMD tail
  // loads), zero-filled unless `zeroed` is false (for outputs a kernel
  // writes completely). Errors: Error(OutOfMemory).
  virtual std::shared_ptr<Storage> allocate(size_t nbytes, bool zeroed) = 0;
};

// Installs `allocator` for this thread until destroyed (restoring the previous one).
class ScopedStorageAllocator {
 public:
  explicit ScopedStorageAllocator(StorageAllocator* allocator);
  ~ScopedStorageAllocator();
  ScopedStorageAllocator(const ScopedStorageAllocator&) = delete;
  ScopedStorageAllocator& operator=(const ScopedStorageAllocator&) = delete;

 private:
  StorageAllocator* previous_;
};

// A tag naming what is allocating right now (the executor sets the node being
// run), so an allocator can tell whether a run allocates as its plan expects.
void set_allocation_tag(const void* tag);
const void* allocation_tag();

}  // namespace pt2web
