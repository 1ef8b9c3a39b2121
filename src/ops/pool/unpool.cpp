// Operators that scatter values back to the positions max pooling took them
// from: max_unpool2d / max_unpool3d (each input value written at its flat
// index within its plane of a zero output; max_unpool1d is max_unpool2d on
// an unsqueezed input) and max_pool2d_with_indices_backward (the output
// gradient summed into the input positions the indices name).
//
// Errors: BadInput with ATen's messages for non-floating inputs, non-int64
// indices, shapes that disagree, empty non-batch dims and indices outside
// the plane.
#include <cstring>

#include "ops/op_utils.h"
#include "ops/pool/pool.h"
#include "util/error.h"

namespace pt2web {

namespace {

// The planes (leading dims) and the elements per plane of t's last `spatial` dims.
struct Planes {
  int64_t count, size;
};

Planes planes_of(const Shape& sizes, size_t spatial) {
  const Shape lead(sizes.begin(), sizes.end() - static_cast<std::ptrdiff_t>(spatial));
  const Shape inner(sizes.end() - static_cast<std::ptrdiff_t>(spatial), sizes.end());
  return {shape_numel(lead), shape_numel(inner)};
}

std::string sizes_text(const std::vector<int64_t>& out) {
  std::string s;
  for (size_t k = 0; k < out.size(); ++k) s += (k ? "x" : "") + std::to_string(out[k]);
  return s;
}

// The shared unpooling: self [.., C, d...] with indices of the same shape
// into zeros [.., C, out...].
Tensor unpool(const OpCall& c, const Tensor& self, const Tensor& indices, const std::vector<int64_t>& out_size) {
  const size_t spatial = out_size.size();
  const int64_t rank = static_cast<int64_t>(spatial);
  if (indices.dtype() != DType::Int64)
    fail(ErrorCode::BadInput, c.where(), "elements in indices should be type int64 but got: ",
         dtype_name(indices.dtype()));
  if (!is_floating(self.dtype()))
    fail(ErrorCode::BadInput, c.where(), "\"max_unpool", spatial, "d\" not implemented for '",
         dtype_name(self.dtype()), "'");
  if (self.dim() != rank + 1 && self.dim() != rank + 2)
    fail(ErrorCode::BadInput, c.where(), "Input to max_unpooling", spatial, "d should be a ", rank + 1, "d or ",
         rank + 2, "d Tensor, but got a tensor with ", self.dim(), " dimensions.");
  if (self.sizes() != indices.sizes())
    fail(ErrorCode::BadInput, c.where(), "Expected shape of indices to be same as that of the input tensor (",
         shape_to_string(self.sizes()), ") but got indices tensor with shape: ", shape_to_string(indices.sizes()));
  for (int64_t d = 1; d < self.dim(); ++d)
    if (self.size(d) <= 0)
      fail(ErrorCode::BadInput, c.where(), "Expected input to have non-zero size for non-batch dimensions, but got ",
           shape_to_string(self.sizes()), " with dimension ", d, " being empty.");
  Shape shape(self.sizes().begin(), self.sizes().end() - rank);
  shape.insert(shape.end(), out_size.begin(), out_size.end());
  Tensor out = Tensor::empty(self.dtype(), shape);
  const Planes in = planes_of(self.sizes(), spatial);
  const int64_t out_plane = shape_numel(out_size);
  const Tensor x = self.contiguous();
  const Tensor idx = indices.contiguous();
  const size_t width = element_size(self.dtype());
  const auto* src = static_cast<const uint8_t*>(x.raw_data());
  auto* dst = static_cast<uint8_t*>(out.raw_data());
  const int64_t* pi = idx.data<int64_t>();
  for (int64_t p = 0; p < in.count; ++p)
    for (int64_t k = 0; k < in.size; ++k) {
      const int64_t at = pi[p * in.size + k];
      if (at < 0 || at >= out_plane)
        fail(ErrorCode::BadInput, c.where(), "Found an invalid max index: ", at, " (output volumes are of size ",
             sizes_text(out_size), ")");
      std::memcpy(dst + (p * out_plane + at) * width, src + (p * in.size + k) * width, width);
    }
  return out;
}

void max_unpool2d_op(OpCall& c) {
  const std::vector<int64_t> out_size = c.int_list(2);
  if (out_size.size() != 2)
    fail(ErrorCode::BadInput, c.where(), "There should be exactly two elements (height, width) in output_size, but got ",
         out_size.size(), " elements.");
  c.push(unpool(c, c.tensor(0), c.tensor(1), out_size));
}

void max_unpool3d_op(OpCall& c) {
  const std::vector<int64_t> out_size = c.int_list(2);
  const std::vector<int64_t> stride = c.int_list(3);
  const std::vector<int64_t> padding = c.int_list(4);
  if (out_size.size() != 3)
    fail(ErrorCode::BadInput, c.where(), "There should be exactly three elements (depth, height, width) in "
         "output_size, but got: ", out_size.size(), " elements.");
  if (stride.size() != 3)
    fail(ErrorCode::BadInput, c.where(), "There should be exactly three elements (depth, height, width) in stride, "
         "but got: ", stride.size(), " elements.");
  if (padding.size() != 3)
    fail(ErrorCode::BadInput, c.where(), "There should be exactly three elements (depth, height, width) in padding, "
         "but got: ", padding.size(), " elements.");
  for (int64_t s : stride)
    if (s <= 0)
      fail(ErrorCode::BadInput, c.where(), "strides should be greater than zero, but got stride: ",
           shape_to_string(stride));
  c.push(unpool(c, c.tensor(0), c.tensor(1), out_size));
}

// max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride,
// padding, dilation, ceil_mode, indices): zeros shaped as self, each
// output gradient added (in the element type, as ATen) at its index.
void max_pool2d_backward_op(OpCall& c) {
  const Tensor& grad = c.tensor(0);
  const Tensor& self = c.tensor(1);
  const Tensor& indices = c.tensor(7);
  if (self.dim() != 3 && self.dim() != 4)
    fail(ErrorCode::BadInput, c.where(), "non-empty 3D or 4D (batch mode) tensor expected for input");
  if (grad.sizes() != indices.sizes() || grad.dim() != self.dim())
    fail(ErrorCode::BadInput, c.where(), "Expected grad_output and indices of the same shape, got ",
         shape_to_string(grad.sizes()), " and ", shape_to_string(indices.sizes()));
  if (indices.dtype() != DType::Int64)
    fail(ErrorCode::BadInput, c.where(), "indices must be int64, got ", dtype_name(indices.dtype()));
  const Planes in = planes_of(self.sizes(), 2);
  const Planes out = planes_of(grad.sizes(), 2);
  if (in.count != out.count)
    fail(ErrorCode::BadInput, c.where(), "grad_output ", shape_to_string(grad.sizes()), " does not match input ",
         shape_to_string(self.sizes()), " outside the last two dims");
  Tensor result = Tensor::empty(self.dtype(), self.sizes());
  const Tensor g = grad.to(self.dtype()).contiguous();
  const Tensor idx = indices.contiguous();
  const int64_t* pi = idx.data<int64_t>();
  visit_floating_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using M = opmath_t<T>;
    const T* pg = g.data<T>();
    T* pr = result.data<T>();
    for (int64_t p = 0; p < in.count; ++p)
      for (int64_t k = 0; k < out.size; ++k) {
        const int64_t at = pi[p * out.size + k];
        if (at < 0 || at >= in.size)
          fail(ErrorCode::BadInput, c.where(), "index ", at, " is out of bounds for a plane of ", in.size,
               " elements");
        T& slot = pr[p * in.size + at];
        slot = convert_element<T>(static_cast<M>(slot) + static_cast<M>(pg[p * out.size + k]));
      }
  });
  c.push(result);
}

}  // namespace

void register_unpool_ops(OpTable& t) {
  t.add("aten::max_unpool2d(Tensor self, Tensor indices, SymInt[2] output_size) -> Tensor", max_unpool2d_op);
  t.add("aten::max_unpool3d(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, int[3] padding) -> "
        "Tensor",
        max_unpool3d_op);
  t.add("aten::max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, "
        "int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor",
        max_pool2d_backward_op);
}

}  // namespace pt2web
