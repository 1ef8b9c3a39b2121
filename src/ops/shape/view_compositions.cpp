// Shape operators that ATen defines through other shape operators: the
// *_copy variants of the view ops (the view, then a fresh contiguous copy),
// the matrix transposes mT/mH/matrix_H/numpy_T, fliplr/flipud/rot90,
// sum_to_size and the list forms of atleast_Nd. Each calls the operator it
// is made of through the op table (ops/op_compose.h), so argument checks
// and messages are that operator's.
#include <cstdlib>

#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/shape/shape.h"
#include "ops/shape_indexing.h"
#include "ops/views.h"

namespace pt2web {

namespace {

// view_copy, permute_copy, split_with_sizes_copy, ...: the operator named
// without "_copy" (same overload, same arguments), each result copied.
void copy_of_view_op(OpCall& c) {
  const std::string& name = c.schema().name;
  const std::string suffix = "_copy";
  PT2WEB_CHECK(name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0,
               c.where(), "not a _copy operator");
  std::vector<Value> args;
  for (size_t i = 0; i < c.num_args(); ++i) args.push_back(c.arg(i));
  const std::string view = name.substr(0, name.size() - suffix.size()) + "." + c.schema().overload;
  for (Value& v : run_op(view, std::move(args))) {
    if (v.is_tensor()) v.tensor = v.tensor.clone();
    for (Tensor& t : v.tensors) t = t.clone();
    c.outputs.push_back(std::move(v));
  }
}

void reject_complex(const OpCall& c, const Tensor& x) {
  if (is_complex(x.dtype()))
    fail(ErrorCode::Unsupported, c.where(), "complex inputs (conjugation) are not supported");
}

// mT and mH: the last two dims swapped (mH also conjugates, a no-op for real dtypes).
void matrix_transpose_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const std::string attr = c.schema().name == "aten::mH" ? "mH" : "mT";
  if (x.dim() < 2)
    fail(ErrorCode::BadInput, c.where(), "tensor.", attr,
         " is only supported on matrices or batches of matrices. Got ", x.dim(), "-D tensor.");
  if (attr == "mH") reject_complex(c, x);
  c.push(transpose_view(x, -2, -1));
}

void matrix_h_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() != 2)
    fail(ErrorCode::BadInput, c.where(), "tensor.H is only supported on matrices (2-D tensors). Got ", x.dim(),
         "-D tensor.");
  reject_complex(c, x);
  c.push(transpose_view(x, 0, 1));
}

// numpy_T: every dim reversed.
void numpy_t_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  std::vector<int64_t> dims;
  for (int64_t d = x.dim() - 1; d >= 0; --d) dims.push_back(d);
  c.push(permute_view(x, dims));
}

void fliplr_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() < 2) fail(ErrorCode::BadInput, c.where(), "Input must be >= 2-d.");
  c.push(run_op1("aten::flip.default", {arg(x), arg(std::vector<int64_t>{1})}));
}

void flipud_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dim() < 1) fail(ErrorCode::BadInput, c.where(), "Input must be >= 1-d.");
  c.push(run_op1("aten::flip.default", {arg(x), arg(std::vector<int64_t>{0})}));
}

Tensor flip(const Tensor& x, std::vector<int64_t> dims) { return run_op1("aten::flip.default", {arg(x), arg(dims)}); }

// rot90(k, dims): k quarter turns from dims[0] towards dims[1].
void rot90_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const std::vector<int64_t> dims = c.int_list(2);
  if (dims.size() != 2)
    fail(ErrorCode::BadInput, c.where(), "expected total rotation dims == 2, but got dims = ", dims.size());
  if (x.dim() < 2) fail(ErrorCode::BadInput, c.where(), "expected total dims >= 2, but got total dims = ", x.dim());
  if (dims[0] == dims[1] || std::abs(dims[0] - dims[1]) == x.dim())
    fail(ErrorCode::BadInput, c.where(), "expected rotation dims to be different, but got dim0 = ", dims[0],
         " and dim1 = ", dims[1]);
  const int64_t d0 = wrap_dim(dims[0], x.dim()), d1 = wrap_dim(dims[1], x.dim());
  switch (((c.int_arg(1) % 4) + 4) % 4) {
    case 1: c.push(transpose_view(flip(x, {d1}), d0, d1)); break;
    case 2: c.push(flip(x, {d0, d1})); break;
    case 3: c.push(transpose_view(flip(x, {d0}), d0, d1)); break;
    default: c.push(x.clone()); break;
  }
}

// sum_to_size: sums the leading dims self has beyond `size` and the dims where
// `size` is 1, so the result has exactly `size` (which must expand to self);
// an empty size is a full sum, and a size equal to self's returns self.
void sum_to_size_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  const std::vector<int64_t> size = c.int_list(1);
  if (!is_expandable_to(size, x.sizes()))
    fail(ErrorCode::BadInput, c.where(), "size {", shape_to_string(size), "} is not expandable to size {",
         shape_to_string(x.sizes()), "}.");
  if (size.empty()) {  // ATen sums everything here, so the dtype follows sum's (int64 for bool)
    c.push(run_op1("aten::sum.default", {arg(x)}));
    return;
  }
  if (Shape(size) == x.sizes()) {
    c.push(x);
    return;
  }
  const int64_t lead = x.dim() - static_cast<int64_t>(size.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d < lead || (size[d - lead] == 1 && x.sizes()[d] != 1)) dims.push_back(d);
  Tensor summed = run_op1("aten::sum.dim_IntList", {arg(x), arg(dims), Value::from_bool(true)});
  c.push(reshape(summed, size));
}

// atleast_Nd.Sequence: the single-tensor operator applied to each element.
template <int N>
void atleast_sequence_op(OpCall& c) {
  const std::string single = "aten::atleast_" + std::to_string(N) + "d.default";
  std::vector<Tensor> out;
  for (const Tensor& t : c.tensor_list(0)) out.push_back(run_op1(single, {arg(t)}));
  c.outputs.push_back(Value::from_tensors(std::move(out)));
}

}  // namespace

void register_view_composition_ops(OpTable& t) {
  t.add("aten::as_strided_copy(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor",
        copy_of_view_op);
  t.add("aten::view_copy(Tensor self, SymInt[] size) -> Tensor", copy_of_view_op);
  t.add("aten::permute_copy(Tensor self, int[] dims) -> Tensor", copy_of_view_op);
  t.add("aten::expand_copy(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor", copy_of_view_op);
  t.add("aten::diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor", copy_of_view_op);
  t.add("aten::alias_copy(Tensor self) -> Tensor", copy_of_view_op);
  t.add("aten::unsqueeze_copy(Tensor self, int dim) -> Tensor", copy_of_view_op);
  t.add("aten::t_copy(Tensor self) -> Tensor", copy_of_view_op);
  t.add("aten::squeeze_copy(Tensor self) -> Tensor", copy_of_view_op);
  t.add("aten::squeeze_copy.dim(Tensor self, int dim) -> Tensor", copy_of_view_op);
  t.add("aten::squeeze_copy.dims(Tensor self, int[] dim) -> Tensor", copy_of_view_op);
  t.add("aten::transpose_copy.int(Tensor self, int dim0, int dim1) -> Tensor", copy_of_view_op);
  t.add("aten::unfold_copy(Tensor self, int dimension, int size, int step) -> Tensor", copy_of_view_op);
  t.add("aten::split_with_sizes_copy(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]", copy_of_view_op);
  t.add("aten::split_copy.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]", copy_of_view_op);
  t.add("aten::slice_copy.Tensor(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor",
        copy_of_view_op);
  t.add("aten::select_copy.int(Tensor self, int dim, SymInt index) -> Tensor", copy_of_view_op);
  t.add("aten::unbind_copy.int(Tensor self, int dim=0) -> Tensor[]", copy_of_view_op);
  t.add("aten::detach_copy(Tensor self) -> Tensor", copy_of_view_op);
  t.add("aten::mT(Tensor(a) self) -> Tensor(a)", matrix_transpose_op);
  t.add("aten::mH(Tensor(a) self) -> Tensor(a)", matrix_transpose_op);
  t.add("aten::matrix_H(Tensor(a) self) -> Tensor(a)", matrix_h_op);
  t.add("aten::numpy_T(Tensor(a) self) -> Tensor(a)", numpy_t_op);
  t.add("aten::fliplr(Tensor self) -> Tensor", fliplr_op);
  t.add("aten::flipud(Tensor self) -> Tensor", flipud_op);
  t.add("aten::rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", rot90_op);
  t.add("aten::sum_to_size(Tensor self, SymInt[] size) -> Tensor", sum_to_size_op);
  t.add("aten::atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", atleast_sequence_op<1>);
  t.add("aten::atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", atleast_sequence_op<2>);
  t.add("aten::atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", atleast_sequence_op<3>);
}

}  // namespace pt2web
