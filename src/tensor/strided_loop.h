// Walks the elements of one or more tensors that share a logical shape, in
// row-major order, handing the element offsets (in elements, relative to each
// tensor's first element) to a callback. The innermost dimension runs as a
// plain loop so contiguous data is walked without per-element bookkeeping;
// adjacent dimensions that every tensor lays out contiguously are merged
// first, so a contiguous tensor is one loop over all its elements.
// for_each_run walks a part of that order as runs along the innermost dim,
// for callers that split the walk across threads or specialize the runs.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "tensor/tensor.h"

namespace pt2web {

namespace strided_loop_detail {

// Merges dims d and d+1 wherever stride[d] == stride[d+1] * size[d+1] for
// every tensor (the pair then walks like one dim); drops size-1 dims.
template <size_t N>
void coalesce(Shape& sizes, std::array<Shape, N>& strides) {
  Shape merged_sizes;
  std::array<Shape, N> merged_strides;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) continue;
    bool joins = !merged_sizes.empty();
    for (size_t k = 0; joins && k < N; ++k)
      joins = merged_strides[k].back() == strides[k][d] * sizes[d];
    if (joins) {
      merged_sizes.back() *= sizes[d];
      for (size_t k = 0; k < N; ++k) merged_strides[k].back() = strides[k][d];
    } else {
      merged_sizes.push_back(sizes[d]);
      for (size_t k = 0; k < N; ++k) merged_strides[k].push_back(strides[k][d]);
    }
  }
  sizes = std::move(merged_sizes);
  strides = std::move(merged_strides);
}

}  // namespace strided_loop_detail

// The coalesced walk of for_each_offsets, over the elements [begin, end)
// of the row-major order only, handed out as runs along the innermost dim:
// run(base, count, inner_stride) stands for the `count` elements at
// base[k] + i * inner_stride[k], i in [0, count). Disjoint ranges can be
// walked by different threads.
template <size_t N, typename Run>
void for_each_run(const Shape& logical_sizes, const std::array<const Shape*, N>& logical_strides, int64_t begin,
                  int64_t end, Run&& run) {
  for (int64_t s : logical_sizes)
    if (s == 0) return;
  if (begin >= end) return;
  Shape sizes = logical_sizes;
  std::array<Shape, N> strides;
  for (size_t k = 0; k < N; ++k) strides[k] = *logical_strides[k];
  strided_loop_detail::coalesce(sizes, strides);
  const size_t rank = sizes.size();
  if (rank == 0) {
    run(std::array<int64_t, N>{}, int64_t{1}, std::array<int64_t, N>{});
    return;
  }
  // The odometer at element `begin`.
  std::vector<int64_t> index(rank, 0);
  std::array<int64_t, N> base{};
  int64_t rest = begin;
  for (size_t d = rank; d-- > 0;) {
    index[d] = rest % sizes[d];
    rest /= sizes[d];
    for (size_t k = 0; k < N; ++k) base[k] += index[d] * strides[k][d];
  }
  const int64_t inner = sizes[rank - 1];
  std::array<int64_t, N> inner_stride;
  for (size_t k = 0; k < N; ++k) inner_stride[k] = strides[k][rank - 1];
  int64_t position = begin;
  while (true) {
    // The run from the current index to the end of its row, or of the range.
    const int64_t count = std::min(inner - index[rank - 1], end - position);
    run(base, count, inner_stride);
    position += count;
    if (position >= end) return;
    // Back to the start of the row, then advance the outer dims (rank-2 .. 0).
    for (size_t k = 0; k < N; ++k) base[k] -= index[rank - 1] * inner_stride[k];
    index[rank - 1] = 0;
    size_t d = rank - 1;
    while (true) {
      if (d == 0) return;
      --d;
      ++index[d];
      for (size_t k = 0; k < N; ++k) base[k] += strides[k][d];
      if (index[d] < sizes[d]) break;
      for (size_t k = 0; k < N; ++k) base[k] -= strides[k][d] * sizes[d];
      index[d] = 0;
    }
  }
}

template <size_t N, typename F>
void for_each_offsets(const Shape& logical_sizes, const std::array<const Shape*, N>& logical_strides, F&& f) {
  int64_t total = 1;
  for (int64_t s : logical_sizes) total *= s;
  for_each_run<N>(logical_sizes, logical_strides, 0, total,
                  [&](const std::array<int64_t, N>& base, int64_t count, const std::array<int64_t, N>& step) {
                    std::array<int64_t, N> off = base;
                    for (int64_t i = 0; i < count; ++i) {
                      f(off);
                      for (size_t k = 0; k < N; ++k) off[k] += step[k];
                    }
                  });
}

// Strides of `t` broadcast to `sizes` (size-1 and missing leading dims get stride 0).
Shape broadcast_strides(const Tensor& t, const Shape& sizes);

// The broadcast shape of two shapes, or Error(BadInput) naming both.
Shape broadcast_shapes(const Shape& a, const Shape& b);

}  // namespace pt2web
