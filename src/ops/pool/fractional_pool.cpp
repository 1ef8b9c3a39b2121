// fractional_max_pool2d / fractional_max_pool3d(self, kernel_size,
// output_size, random_samples) -> (output, indices): max pooling over
// windows of kernel_size whose starts follow ATen's pseudo-random interval
// sequence: for a sample u in [0, 1) of a dim with alpha = (in - k) /
// (out - 1), start[i] = int((i + u) alpha) - int(u alpha), the last start
// in - k. Each plane (batch x channel) reads its own samples
// (random_samples [N, C, 2 or 3]: width then height in 2-d, depth, height,
// width in 3-d). The maximum is taken as ATen's CPU kernel does (NaN wins,
// the last NaN of the window); indices are flat within the plane.
//
// The samples are an input, as in ATen: a program that makes them with
// aten::rand draws them from pt2web's own stream (ops/random_source.h),
// not torch's, so its pools differ from torch's unless the samples are given.
//
// Errors: BadInput with ATen's messages for wrong ranks, empty dims, pools
// too large for the input, samples of the wrong shape or dtype.
#include <array>
#include <cmath>
#include <limits>

#include "ops/op_utils.h"
#include "ops/pool/pool.h"
#include "util/error.h"

namespace pt2web {

namespace {

// ATen's generate_intervals, in the element type: each sum and product is
// rounded to T (for float16/bfloat16 that moves starts, as in torch).
template <typename T>
std::vector<int64_t> interval_starts(T sample_t, int64_t in, int64_t out, int64_t pool) {
  using M = opmath_t<T>;
  auto rounded = [](M v) { return static_cast<M>(convert_element<T>(v)); };
  const M sample = static_cast<M>(sample_t);
  std::vector<int64_t> starts(static_cast<size_t>(out));
  if (out > 1) {
    const M alpha = rounded(static_cast<M>(in - pool) / static_cast<M>(out - 1));
    for (int64_t i = 0; i + 1 < out; ++i)
      starts[i] = static_cast<int>(rounded(rounded(static_cast<M>(i) + sample) * alpha)) -
                  static_cast<int>(rounded(sample * alpha));
  }
  if (out > 0) starts[out - 1] = in - pool;
  return starts;
}

const char* const kDimNames[3] = {"time", "height", "width"};

// Both operators: `rank` spatial dims (2 or 3), run as depth x height x width.
void fractional_max_pool(OpCall& c, int64_t rank) {
  const Tensor& self = c.tensor(0);
  const std::vector<int64_t> kernel = c.int_list(1);
  const std::vector<int64_t> out_size = c.int_list(2);
  const Tensor& samples = c.tensor(3);
  const std::string op = "fractional_max_pool" + std::to_string(rank) + "d(): ";
  if (static_cast<int64_t>(kernel.size()) != rank || static_cast<int64_t>(out_size.size()) != rank)
    fail(ErrorCode::BadInput, c.where(), op, "kernel_size and output_size must have ", rank, " elements");
  if (self.dim() != rank + 1 && self.dim() != rank + 2)
    fail(ErrorCode::BadInput, c.where(), op, "Expected ", rank + 1, "D or ", rank + 2, "D tensor, but got: ",
         shape_to_string(self.sizes()));
  for (int64_t d = 1; d < self.dim(); ++d)
    if (self.size(d) <= 0)
      fail(ErrorCode::BadInput, c.where(), op, "Expected input to have non-zero size for non-batch dimensions, but got ",
           shape_to_string(self.sizes()), " with dimension ", d, " being empty.");
  if (!is_floating(self.dtype()))
    fail(ErrorCode::BadInput, c.where(), op, "not implemented for '", dtype_name(self.dtype()), "'");
  const int64_t batch = self.dim() == rank + 2 ? self.size(0) : 1;
  const int64_t planes = self.size(self.dim() - rank - 1);
  // Depth x height x width, with a unit depth in 2-d.
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1}, pool{1, 1, 1};
  for (int64_t i = 0; i < rank; ++i) {
    const int64_t d = 3 - rank + i;
    in[d] = self.size(self.dim() - rank + i);
    out[d] = out_size[i];
    pool[d] = kernel[i];
    // ATen allows the pool to reach the last input row in 2-d, not in 3-d.
    const int64_t reach = out[d] + pool[d] - 1;
    if (rank == 2 ? reach > in[d] : reach >= in[d])
      fail(ErrorCode::BadInput, c.where(), op, "pool ", kDimNames[d], " ", pool[d], " too large relative to input ",
           kDimNames[d], " ", in[d]);
  }
  if (samples.dtype() != self.dtype())
    fail(ErrorCode::BadInput, c.where(), op, "Expect _random_samples to have the same dtype as input");
  if (samples.dim() != 3 || samples.size(0) != batch || samples.size(1) != planes || samples.size(2) != rank)
    fail(ErrorCode::BadInput, c.where(), op, "Expect _random_samples of shape [", batch, ", ", planes, ", ", rank,
         "], got ", shape_to_string(samples.sizes()));
  // The sample each of depth, height, width reads: 2-d stores width first.
  const std::array<int64_t, 3> sample_of = rank == 2 ? std::array<int64_t, 3>{-1, 1, 0} : std::array<int64_t, 3>{0, 1, 2};
  Shape shape(self.sizes().begin(), self.sizes().end() - rank);
  shape.insert(shape.end(), out_size.begin(), out_size.end());
  Tensor output = Tensor::empty(self.dtype(), shape);
  Tensor indices = Tensor::empty(DType::Int64, shape);
  const Tensor x = self.contiguous();
  const Tensor u = samples.contiguous();
  const int64_t in_plane = in[0] * in[1] * in[2], out_plane = out[0] * out[1] * out[2];
  visit_floating_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* px = x.data<T>();
    const T* pu = u.data<T>();
    T* po = output.data<T>();
    int64_t* pi = indices.data<int64_t>();
    for (int64_t p = 0; p < batch * planes; ++p) {
      std::array<std::vector<int64_t>, 3> starts;
      for (int d = 0; d < 3; ++d)
        starts[d] = sample_of[d] < 0 ? std::vector<int64_t>{0}
                                     : interval_starts<T>(pu[p * rank + sample_of[d]], in[d], out[d],
                                                          pool[d]);
      const T* plane = px + p * in_plane;
      int64_t o = p * out_plane;
      for (int64_t t = 0; t < out[0]; ++t)
        for (int64_t h = 0; h < out[1]; ++h)
          for (int64_t w = 0; w < out[2]; ++w, ++o) {
            const int64_t t0 = starts[0][t], h0 = starts[1][h], w0 = starts[2][w];
            M best = -std::numeric_limits<M>::infinity();
            int64_t best_at = (t0 * in[1] + h0) * in[2] + w0;
            for (int64_t tt = t0; tt < t0 + pool[0]; ++tt)
              for (int64_t hh = h0; hh < h0 + pool[1]; ++hh)
                for (int64_t ww = w0; ww < w0 + pool[2]; ++ww) {
                  const int64_t at = (tt * in[1] + hh) * in[2] + ww;
                  const M v = static_cast<M>(plane[at]);
                  if (v > best || std::isnan(v)) {
                    best = v;
                    best_at = at;
                  }
                }
            po[o] = convert_element<T>(best);
            pi[o] = best_at;
          }
    }
  });
  c.push(output);
  c.push(indices);
}

void fractional_max_pool2d_op(OpCall& c) { fractional_max_pool(c, 2); }
void fractional_max_pool3d_op(OpCall& c) { fractional_max_pool(c, 3); }

}  // namespace

void register_fractional_pool_ops(OpTable& t) {
  t.add("aten::fractional_max_pool2d(Tensor self, int[2] kernel_size, int[2] output_size, Tensor random_samples) -> "
        "(Tensor, Tensor)",
        fractional_max_pool2d_op);
  t.add("aten::fractional_max_pool3d(Tensor self, int[3] kernel_size, int[3] output_size, Tensor random_samples) -> "
        "(Tensor, Tensor)",
        fractional_max_pool3d_op);
}

}  // namespace pt2web
