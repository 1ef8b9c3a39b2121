// Walks the elements of one or more tensors that share a logical shape, in
// row-major order, handing the element offsets (in elements, relative to each
// tensor's first element) to a callback. The innermost dimension runs as a
// plain loop so contiguous data is walked without per-element bookkeeping.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tensor/tensor.h"

namespace pt2web {

template <size_t N, typename F>
void for_each_offsets(const Shape& sizes, const std::array<const Shape*, N>& strides, F&& f) {
  const size_t rank = sizes.size();
  for (int64_t s : sizes)
    if (s == 0) return;
  if (rank == 0) {
    std::array<int64_t, N> zero{};
    f(zero);
    return;
  }
  std::vector<int64_t> index(rank, 0);
  std::array<int64_t, N> base{};
  const int64_t inner = sizes[rank - 1];
  std::array<int64_t, N> inner_stride;
  for (size_t k = 0; k < N; ++k) inner_stride[k] = (*strides[k])[rank - 1];
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
      for (size_t k = 0; k < N; ++k) base[k] += (*strides[k])[d];
      if (index[d] < sizes[d]) break;
      for (size_t k = 0; k < N; ++k) base[k] -= (*strides[k])[d] * sizes[d];
      index[d] = 0;
    }
  }
}

// Strides of `t` broadcast to `sizes` (size-1 and missing leading dims get stride 0).
Shape broadcast_strides(const Tensor& t, const Shape& sizes);

// The broadcast shape of two shapes, or Error(BadInput) naming both.
Shape broadcast_shapes(const Shape& a, const Shape& b);

}  // namespace pt2web
