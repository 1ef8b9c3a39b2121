// Ops that write one tensor into (part of) another: copy_/copy, the
// functional *_scatter ops that functionalized graphs use in place of
// in-place writes through views, and tril/triu (which zero a part).
#include "ops/shape/shape.h"
#include "ops/op_utils.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

// ---- copy --------------------------------------------------------------------

// Writes src (broadcast, converted) into dst, reading a private copy of src
// when the two share storage so no element is read after it was written.
void copy_into(const OpCall& c, const Tensor& dst, const Tensor& src) {
  if (!is_expandable_to(src.sizes(), dst.sizes()))
    fail(ErrorCode::BadInput, c.where(), "the source of shape ", shape_to_string(src.sizes()),
         " cannot be broadcast to the destination of shape ", shape_to_string(dst.sizes()));
  dst.copy_from(src.storage() == dst.storage() ? src.clone() : src);
}

void copy_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  copy_into(c, self, c.tensor(1));
  c.push(self);
}

void copy_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  Tensor out = empty_like_preserving(self, self.dtype());
  copy_into(c, out, c.tensor(1));
  c.push(out);
}

// ---- *_scatter: a copy of self with one view of it replaced by src -----------

template <typename MakeView>
void scatter_into_view(OpCall& c, MakeView make_view) {
  const Tensor& self = c.tensor(0);
  const Tensor& src = c.tensor(1);
  Tensor out = empty_like_preserving(self, self.dtype());
  out.copy_from(self);
  Tensor view = make_view(out);
  if (view.sizes() != src.sizes())
    fail(ErrorCode::BadInput, c.where(), "expected src to have a size equal to the slice of self. src size = ",
         shape_to_string(src.sizes()), ", slice size = ", shape_to_string(view.sizes()));
  view.copy_from(src);
  c.push(out);
}

void select_scatter_op(OpCall& c) {
  scatter_into_view(c, [&](const Tensor& out) { return select_view(out, c.int_arg(2), c.int_arg(3)); });
}

void slice_scatter_op(OpCall& c) {
  scatter_into_view(c, [&](const Tensor& out) {
    return slice_view(out, c.int_arg(2), c.optional_int(3), c.optional_int(4), c.int_arg(5));
  });
}

void diagonal_scatter_op(OpCall& c) {
  scatter_into_view(c, [&](const Tensor& out) {
    return diagonal_view(out, c.int_arg(2), c.int_arg(3), c.int_arg(4), c.where());
  });
}

void as_strided_scatter_op(OpCall& c) {
  scatter_into_view(c, [&](const Tensor& out) {
    return checked_as_strided(out, c.int_list(2), c.int_list(3), c.optional_int(4).value_or(out.storage_offset()),
                              c.where());
  });
}

// ---- tril / triu ---------------------------------------------------------------

// Zeroes, in place, the elements of the last two dims outside the kept
// triangle: tril keeps col - row <= diagonal, triu keeps col - row >= diagonal.
void zero_outside_triangle(const Tensor& t, int64_t diagonal, bool lower) {
  const int64_t rank = t.dim();
  Shape batch(t.sizes().begin(), t.sizes().end() - 2);
  Shape batch_strides(t.strides().begin(), t.strides().end() - 2);
  const int64_t rows = t.sizes()[rank - 2], cols = t.sizes()[rank - 1];
  const int64_t row_stride = t.strides()[rank - 2], col_stride = t.strides()[rank - 1];
  visit_element_size(t.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    U* data = t.data<U>();
    for_each_offsets<1>(batch, {&batch_strides}, [&](const std::array<int64_t, 1>& o) {
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t col = 0; col < cols; ++col) {
          bool keep = lower ? col - r <= diagonal : col - r >= diagonal;
          if (!keep) data[o[0] + r * row_stride + col * col_stride] = U{};  // all-zero bytes are 0 in every dtype
        }
    });
  });
}

template <bool Lower, bool InPlace>
void triangle_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  if (self.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), Lower ? "tril" : "triu", ": input tensor must have at least 2 dimensions");
  Tensor out = InPlace ? self : self.clone();
  zero_outside_triangle(out, c.int_arg(1), Lower);
  c.push(out);
}

}  // namespace

void register_joining_copy_ops(OpTable& t) {
  t.add("aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", copy_inplace_op);
  t.add("aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", copy_op);
  t.add("aten::select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor", select_scatter_op);
  t.add("aten::slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) "
        "-> Tensor", slice_scatter_op);
  t.add("aten::diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor",
        diagonal_scatter_op);
  t.add("aten::as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
        "-> Tensor", as_strided_scatter_op);
  t.add("aten::tril(Tensor self, int diagonal=0) -> Tensor", triangle_op<true, false>);
  t.add("aten::triu(Tensor self, int diagonal=0) -> Tensor", triangle_op<false, false>);
  t.add("aten::tril_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", triangle_op<true, true>);
  t.add("aten::triu_(Tensor(a!) self, int diagonal=0) -> Tensor(a!)", triangle_op<false, true>);
}

}  // namespace pt2web
