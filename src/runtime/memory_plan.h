// Activation memory planning from recorded lifetimes.
//
// The first run of a program for a given input-shape signature records every
// storage the kernels allocate: its size, when it was allocated and when its
// last reference went away (views keep their base alive, so aliasing is
// accounted for). plan_memory() then places the buffers that did not outlive
// the run in one arena, reusing space between buffers whose lifetimes do not
// overlap (greedy by size, as TFLite Micro's planner does). Later runs with the
// same signature allocate in the same order; PlannedAllocator serves the k-th
// allocation from its planned offset. Buffers that escape the run (outputs,
// anything still referenced after it) always come from the heap, so the arena
// can be reused by the next run.
//
// Errors: none; a run that allocates differently from its plan (a
// data-dependent shape) quietly falls back to the heap for the rest of that run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace pt2web {

struct BufferLifetime {
  size_t bytes = 0;
  int64_t first = 0;  // event time of the allocation
  int64_t last = -1;  // event time of the release; -1 if it outlived the run
  const void* tag = nullptr;  // allocation_tag() when it was allocated
};

struct MemoryPlan {
  std::vector<size_t> sizes;     // per allocation, in order
  std::vector<const void*> tags; // per allocation: who allocated it
  std::vector<int64_t> offsets;  // arena offset, or -1 for heap (escaping buffers)
  size_t arena_bytes = 0;        // the arena's size
  size_t naive_bytes = 0;        // what all planned buffers would take without reuse
};

MemoryPlan plan_memory(const std::vector<BufferLifetime>& lifetimes);

// Serves allocations from the heap and records their lifetimes.
class RecordingAllocator : public StorageAllocator {
 public:
  RecordingAllocator();
  std::shared_ptr<Storage> allocate(size_t nbytes, bool zeroed) override;
  // Lifetimes so far; buffers still referenced have last == -1.
  std::vector<BufferLifetime> lifetimes() const;

 private:
  struct Log;
  std::shared_ptr<Log> log_;
};

// Serves allocations from an arena following a plan.
class PlannedAllocator : public StorageAllocator {
 public:
  PlannedAllocator(const MemoryPlan& plan, std::shared_ptr<uint8_t> arena);
  std::shared_ptr<Storage> allocate(size_t nbytes, bool zeroed) override;
  bool diverged() const { return diverged_; }

 private:
  const MemoryPlan& plan_;
  std::shared_ptr<uint8_t> arena_;
  size_t next_ = 0;
  bool diverged_ = false;
};

// A 64-byte aligned arena of `bytes` bytes (not zero-filled).
std::shared_ptr<uint8_t> allocate_arena(size_t bytes);

}  // namespace pt2web
