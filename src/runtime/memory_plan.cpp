#include "runtime/memory_plan.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "tensor/storage_size.h"
#include "util/error.h"

namespace pt2web {

namespace {

// Every buffer starts on a cache line; its block (bytes, spare tail, rounding)
// is the heap's, from tensor/storage_size.h.
constexpr size_t kAlignment = kMaxStorageAlignment;

size_t padded(size_t bytes) { return storage_block_bytes(bytes, kAlignment); }

}  // namespace

MemoryPlan plan_memory(const std::vector<BufferLifetime>& lifetimes) {
  MemoryPlan plan;
  plan.offsets.assign(lifetimes.size(), -1);
  for (const auto& l : lifetimes) {
    plan.sizes.push_back(l.bytes);
    plan.tags.push_back(l.tag);
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < lifetimes.size(); ++i)
    if (lifetimes[i].last >= 0) order.push_back(i);
  // Largest first; ties by allocation time so the plan is deterministic.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (lifetimes[a].bytes != lifetimes[b].bytes) return lifetimes[a].bytes > lifetimes[b].bytes;
    return lifetimes[a].first < lifetimes[b].first;
  });
  std::vector<size_t> placed;
  for (size_t i : order) {
    const BufferLifetime& l = lifetimes[i];
    size_t size = padded(l.bytes);
    plan.naive_bytes = checked_byte_sum(plan.naive_bytes, size, "the activation arena");
    // Buffers alive at the same time, sorted by offset: take the first gap that fits.
    std::vector<std::pair<size_t, size_t>> busy;
    for (size_t j : placed) {
      const BufferLifetime& o = lifetimes[j];
      if (o.first < l.last && l.first < o.last)
        busy.emplace_back(static_cast<size_t>(plan.offsets[j]), padded(o.bytes));
    }
    std::sort(busy.begin(), busy.end());
    size_t offset = 0;
    for (const auto& [start, length] : busy) {
      if (start >= offset + size) break;
      offset = std::max(offset, checked_byte_sum(start, length, "the activation arena"));
    }
    plan.offsets[i] = static_cast<int64_t>(offset);
    plan.arena_bytes = std::max(plan.arena_bytes, checked_byte_sum(offset, size, "the activation arena"));
    placed.push_back(i);
  }
  return plan;
}

struct RecordingAllocator::Log {
  std::vector<BufferLifetime> lifetimes;
  int64_t clock = 0;
};

RecordingAllocator::RecordingAllocator() : log_(std::make_shared<Log>()) {}

std::shared_ptr<Storage> RecordingAllocator::allocate(size_t nbytes, bool zeroed) {
  std::shared_ptr<Storage> heap = Storage::allocate_heap(nbytes, zeroed);
  size_t index = log_->lifetimes.size();
  log_->lifetimes.push_back({nbytes, log_->clock++, -1, allocation_tag()});
  // The returned storage borrows the heap block; when its last reference
  // goes, the release time is logged (the log outlives the allocator if needed).
  std::weak_ptr<Log> log = log_;
  std::shared_ptr<const void> owner(heap.get(), [heap, log, index](const void*) mutable {
    if (auto l = log.lock()) l->lifetimes[index].last = l->clock++;
    heap.reset();
  });
  return Storage::borrow(heap->data(), nbytes, std::move(owner));
}

std::vector<BufferLifetime> RecordingAllocator::lifetimes() const { return log_->lifetimes; }

PlannedAllocator::PlannedAllocator(const MemoryPlan& plan, std::shared_ptr<uint8_t> arena)
    : plan_(plan), arena_(std::move(arena)) {}

std::shared_ptr<Storage> PlannedAllocator::allocate(size_t nbytes, bool zeroed) {
  size_t index = next_++;
  if (diverged_ || index >= plan_.sizes.size() || plan_.sizes[index] != nbytes ||
      plan_.tags[index] != allocation_tag()) {
    diverged_ = true;
    return Storage::allocate_heap(nbytes, zeroed);
  }
  int64_t offset = plan_.offsets[index];
  if (offset < 0) return Storage::allocate_heap(nbytes, zeroed);
  uint8_t* data = arena_.get() + offset;
  if (zeroed) std::memset(data, 0, padded(nbytes));
  return Storage::borrow(data, nbytes, arena_);
}

std::shared_ptr<uint8_t> allocate_arena(size_t bytes) {
  // Rounded up to whole cache lines (a plan is a sum of whole blocks already).
  const size_t size = std::max<size_t>(checked_byte_sum(bytes, kAlignment - 1, "the activation arena") / kAlignment *
                                           kAlignment,
                                       kAlignment);
  auto* data = static_cast<uint8_t*>(std::aligned_alloc(kAlignment, size));
  if (data == nullptr)
    fail(ErrorCode::OutOfMemory, "out of memory: allocating a ", bytes, "-byte activation arena failed");
  // Not zero-filled: PlannedAllocator zeroes what asks to be zeroed, and
  // filling the whole arena would touch (and, in a fresh wasm memory, fault
  // in) every page during the first run, which does not use it.
  return std::shared_ptr<uint8_t>(data, [](uint8_t* p) { std::free(p); });
}

}  // namespace pt2web
