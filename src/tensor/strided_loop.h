// Walks the elements of one or more tensors that share a logical shape, in
// row-major order, handing the element offsets (in elements, relative to each
// tensor's first element) to a callback. The innermost dimension runs as a
// plain loop so contiguous data is walked without per-element bookkeeping;
// adjacent dimensions that every tensor lays out contiguously are merged
// first, so a contiguous tensor is one loop over all its elements.
#pragma once

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

template <size_t N, typename F>
void for_each_offsets(const Shape& logical_sizes, const std::array<const Shape*, N>& logical_strides, F&& f) {
  for (int64_t s : logical_sizes)
    if (s == 0) return;
  Shape sizes = logical_sizes;
  std::array<Shape, N> strides;
  for (size_t k = 0; k < N; ++k) strides[k] = *logical_strides[k];
  strided_loop_detail::coalesce(sizes, strides);
  const size_t rank = sizes.size();
  if (rank == 0) {
    std::array<int64_t, N> zero{};
    f(zero);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  std::array<int64_t, N> base{};
  const int64_t inner = sizes[rank - 1];
  std::array<int64_t, N> inner_stride;
  for (size_t k = 0; k < N; ++k) inner_stride[k] = strides[k][rank - 1];
  while (true) {
    std::array<int64_t, N> off = base;
    for (int64_t i = 0; i < inner; ++i) {
      f(off);
      for (size_t k = 0; k < N; ++k) off[k] += inner_stride[k];
    }
    // Advance the outer index (odometer over dims rank-2 .. 0).
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

// Strides of `t` broadcast to `sizes` (size-1 and missing leading dims get stride 0).
Shape broadcast_strides(const Tensor& t, const Shape& sizes);

// The broadcast shape of two shapes, or Error(BadInput) naming both.
Shape broadcast_shapes(const Shape& a, const Shape& b);

}  // namespace pt2web
