// Finite differences and trapezoid integration along a dim, written (as
// ATen writes them) with slices and elementwise operators from the op table:
// diff (n-th forward difference, logical xor for bool), gradient (central
// differences inside, one-sided at the edges, with uniform spacing or
// sample coordinates), trapezoid / trapz and cumulative_trapezoid.
#include "ops/existing_dim.h"
#include "ops/op_compose.h"
#include "ops/op_utils.h"
#include "ops/reduction/reduction.h"
#include "ops/views.h"

namespace pt2web {

namespace {

Tensor slice(const Tensor& t, int64_t dim, int64_t start, std::optional<int64_t> end = std::nullopt) {
  return slice_view(t, dim, start, end, 1);
}
Tensor sub(const Tensor& a, const Tensor& b) { return run_op1("aten::sub.Tensor", {arg(a), arg(b)}); }
Tensor add(const Tensor& a, const Tensor& b) { return run_op1("aten::add.Tensor", {arg(a), arg(b)}); }
Tensor mul(const Tensor& a, const Tensor& b) { return run_op1("aten::mul.Tensor", {arg(a), arg(b)}); }
Tensor mul(const Tensor& a, const Value& s) { return run_op1("aten::mul.Tensor", {arg(a), s}); }
Tensor div(const Tensor& a, const Tensor& b) { return run_op1("aten::div.Tensor", {arg(a), arg(b)}); }
Tensor div(const Tensor& a, const Value& s) { return run_op1("aten::div.Tensor", {arg(a), s}); }
Tensor cat(std::vector<Tensor> parts, int64_t dim) {
  return run_op1("aten::cat.default", {Value::from_tensors(std::move(parts)), arg(dim)});
}

// diff(self, n, dim, prepend, append)
void diff_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const int64_t n = c.int_arg(1);
  if (self.dim() == 0) fail(ErrorCode::BadInput, c.where(), "diff expects input to be at least one-dimensional");
  if (n < 0) fail(ErrorCode::BadInput, c.where(), "order must be non-negative but got ", n);
  const int64_t dim = wrap_dim(c.int_arg(2), self.dim());
  std::vector<Tensor> parts;
  for (const Tensor& t : {c.optional_tensor(3), self, c.optional_tensor(4)}) {
    if (!t.defined()) continue;
    if (t.dim() != self.dim())
      fail(ErrorCode::BadInput, c.where(), "diff expects prepend or append to be the same dimension as input");
    parts.push_back(t);
  }
  Tensor result = parts.size() == 1 ? self : cat(parts, dim);
  if (n == 0) {
    c.push(result.clone());
    return;
  }
  const int64_t steps = std::min(n, result.sizes()[dim]);
  for (int64_t k = 0; k < steps; ++k) {
    const int64_t len = result.sizes()[dim] - 1;
    Tensor later = slice_view(result, dim, 1, 1 + len, 1), earlier = slice_view(result, dim, 0, len, 1);
    result = result.dtype() == DType::Bool ? run_op1("aten::logical_xor.default", {arg(later), arg(earlier)})
                                           : sub(later, earlier);
  }
  c.push(result);
}

// ---- gradient ---------------------------------------------------------------

void check_gradient_sizes(const OpCall& c, const Tensor& self, const std::vector<int64_t>& dims, int64_t edge_order) {
  if (edge_order != 1 && edge_order != 2)
    fail(ErrorCode::BadInput, c.where(), "torch.gradient only supports edge_order=1 and edge_order=2.");
  for (int64_t d : dims)
    if (self.sizes()[d] < edge_order + 1)
      fail(ErrorCode::BadInput, c.where(),
           "torch.gradient expected each dimension size to be at least edge_order+1");
}

// Uniform spacing h along dim: (f[i+1] - f[i-1]) / h / 2 inside, one-sided
// differences of first or second order at the two ends.
Tensor gradient_uniform(const Tensor& f, int64_t dim, const Value& h, int64_t edge_order) {
  Tensor center = div(div(sub(slice(f, dim, 2), slice(f, dim, 0, -2)), h), Value::from_double(2.0));
  Tensor first, last;
  if (edge_order == 1) {
    first = div(sub(slice(f, dim, 1, 2), slice(f, dim, 0, 1)), h);
    last = div(sub(slice(f, dim, -1), slice(f, dim, -2, -1)), h);
  } else {
    auto scaled = [&](double k, const Tensor& t) { return mul(t, Value::from_double(k)); };
    first = div(add(add(scaled(-1.5, slice(f, dim, 0, 1)), scaled(2.0, slice(f, dim, 1, 2))),
                    scaled(-0.5, slice(f, dim, 2, 3))),
                h);
    last = div(add(add(scaled(0.5, slice(f, dim, -3, -2)), scaled(-2.0, slice(f, dim, -2, -1))),
                   scaled(1.5, slice(f, dim, -1))),
               h);
  }
  return cat({first, center, last}, dim);
}

// Sample coordinates x along dim: the second-order accurate weights for
// uneven steps inside, one-sided differences at the ends.
Tensor gradient_coordinates(const Tensor& f, int64_t dim, const Tensor& x, int64_t edge_order) {
  Tensor dx = sub(slice(x, 0, 1), slice(x, 0, 0, -1));
  Shape along(f.dim(), 1);
  along[dim] = -1;
  Tensor dx1 = slice(dx, 0, 0, -1), dx2 = slice(dx, 0, 1), both = add(dx1, dx2);
  Tensor neg_dx2 = run_op1("aten::neg.default", {arg(dx2)});
  Tensor a = reshape(div(neg_dx2, mul(dx1, both)), along);
  Tensor b = reshape(div(sub(dx2, dx1), mul(dx1, dx2)), along);
  Tensor w = reshape(div(dx1, mul(dx2, both)), along);
  Tensor center = add(add(mul(a, slice(f, dim, 0, -2)), mul(b, slice(f, dim, 1, -1))), mul(w, slice(f, dim, 2)));
  auto at = [&](int64_t i) { return select_view(dx, 0, i); };
  Tensor first, last;
  if (edge_order == 1) {
    first = div(sub(slice(f, dim, 1, 2), slice(f, dim, 0, 1)), at(0));
    last = div(sub(slice(f, dim, -1), slice(f, dim, -2, -1)), at(-1));
  } else {
    auto weighted = [&](const Tensor& p, const Tensor& q, const Tensor& r, const Tensor& s0, const Tensor& s1,
                        const Tensor& s2) { return add(add(mul(p, s0), mul(q, s1)), mul(r, s2)); };
    Tensor h0 = at(0), h1 = at(1), sum01 = add(h0, h1);
    Tensor p = div(run_op1("aten::neg.default", {arg(add(mul(h0, Value::from_double(2.0)), h1))}), mul(h0, sum01));
    Tensor q = div(sum01, mul(h0, h1));
    Tensor r = div(run_op1("aten::neg.default", {arg(h0)}), mul(h1, sum01));
    first = weighted(p, q, r, slice(f, dim, 0, 1), slice(f, dim, 1, 2), slice(f, dim, 2, 3));
    Tensor hl = at(-1), hm = at(-2), suml = add(hl, hm);
    p = div(hl, mul(hm, suml));
    q = div(run_op1("aten::neg.default", {arg(suml)}), mul(hl, hm));
    r = div(add(mul(hl, Value::from_double(2.0)), hm), mul(hl, suml));
    last = weighted(p, q, r, slice(f, dim, -3, -2), slice(f, dim, -2, -1), slice(f, dim, -1));
  }
  return cat({first, center, last}, dim);
}

std::vector<int64_t> gradient_dims(const Tensor& self, std::optional<std::vector<int64_t>> given) {
  std::vector<int64_t> dims;
  if (given) {
    for (int64_t d : *given) dims.push_back(wrap_dim(d, self.dim()));
  } else {
    for (int64_t d = 0; d < self.dim(); ++d) dims.push_back(d);
  }
  return dims;
}

// The dims of the list overloads (argument 2), one per spacing entry, checked
// against self's sizes for the edge order (argument 3).
std::vector<int64_t> listed_gradient_dims(const OpCall& c, size_t spacing_count) {
  const Tensor& self = c.tensor(0);
  const std::vector<int64_t> dims = gradient_dims(self, c.int_list(2));
  if (spacing_count != dims.size())
    fail(ErrorCode::BadInput, c.where(), "torch.gradient expected spacing to be unspecified, a scalar or it's spacing ",
         "and dim arguments to have the same length, but got a spacing argument of length ", spacing_count,
         " and a dim argument of length ", dims.size(), ".");
  check_gradient_sizes(c, self, dims, c.int_arg(3));
  return dims;
}

void push_list(OpCall& c, std::vector<Tensor> parts) { c.outputs.push_back(Value::from_tensors(std::move(parts))); }

// gradient.scalarint(self, *, spacing=None, dim=None, edge_order)
void gradient_scalar_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  std::optional<int64_t> dim = c.optional_int(2);
  const std::vector<int64_t> dims =
      gradient_dims(self, dim ? std::make_optional(std::vector<int64_t>{*dim}) : std::nullopt);
  const int64_t edge_order = c.int_arg(3);
  check_gradient_sizes(c, self, dims, edge_order);
  const Value h = c.arg(1).is_none() ? Value::from_int(1) : c.arg(1);
  std::vector<Tensor> out;
  for (int64_t d : dims) out.push_back(gradient_uniform(self, d, h, edge_order));
  push_list(c, out);
}

// gradient.scalarrayarray(self, *, spacing: Scalar[], dim: int[], edge_order)
void gradient_scalar_list_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const std::vector<double> spacing = c.double_list(1);
  const std::vector<int64_t> dims = listed_gradient_dims(c, spacing.size());
  const int64_t edge_order = c.int_arg(3);
  std::vector<Tensor> out;
  for (size_t i = 0; i < dims.size(); ++i)
    out.push_back(gradient_uniform(self, dims[i], Value::from_double(spacing[i]), edge_order));
  push_list(c, out);
}

// gradient.tensorarray(self, *, spacing: Tensor[] (coordinates), dim: int[], edge_order)
void gradient_tensor_list_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const std::vector<Tensor> coordinates = c.tensor_list(1);
  const std::vector<int64_t> dims = listed_gradient_dims(c, coordinates.size());
  const int64_t edge_order = c.int_arg(3);
  std::vector<Tensor> out;
  for (size_t i = 0; i < dims.size(); ++i) {
    const Tensor& x = coordinates[i];
    if (x.dim() == 0) {
      out.push_back(gradient_uniform(self, dims[i], Value::from_tensor(x), edge_order));
      continue;
    }
    if (x.dim() != 1 || x.size(0) != self.sizes()[dims[i]])
      fail(ErrorCode::BadInput, c.where(), "torch.gradient expected each tensor to be on the same device and have one ",
           "coordinate per sample along its dim");
    out.push_back(gradient_coordinates(self, dims[i], x, edge_order));
  }
  push_list(c, out);
}

// ---- trapezoid ----------------------------------------------------------------

Tensor zeros_without_dim(const Tensor& y, int64_t dim) {
  Shape shape = y.sizes();
  shape.erase(shape.begin() + dim);
  return Tensor::empty(is_floating(y.dtype()) ? y.dtype() : DType::Float32, shape);
}

void reject_bool(const OpCall& c, const Tensor& t) {
  if (t.dtype() == DType::Bool)
    fail(ErrorCode::BadInput, c.where(), "trapezoid: received a bool input for `x` or `y`, but bool is not supported");
}

// The spacing between x's samples along dim, shaped to broadcast against y's pairs.
Tensor sample_steps(const OpCall& c, const Tensor& y, const Tensor& x, int64_t dim) {
  reject_bool(c, x);
  Tensor xv = x;
  if (x.dim() == 1) {
    if (x.size(0) != y.sizes()[dim])
      fail(ErrorCode::BadInput, c.where(), "trapezoid: There must be one `x` value for each sample point");
    Shape shape(y.dim(), 1);
    shape[dim] = x.size(0);
    xv = reshape(x, shape);
  } else if (x.dim() < y.dim()) {
    Shape shape(y.dim() - x.dim(), 1);
    shape.insert(shape.end(), x.sizes().begin(), x.sizes().end());
    xv = reshape(x, shape);
  }
  return sub(slice(xv, dim, 1), slice(xv, dim, 0, -1));
}

// Sums of adjacent pairs of y along dim: y[i] + y[i+1].
Tensor pair_sums(const Tensor& y, int64_t dim) { return add(slice(y, dim, 1), slice(y, dim, 0, -1)); }

Tensor sum_dim(const Tensor& t, int64_t dim) {
  return run_op1("aten::sum.dim_IntList", {arg(t), arg(std::vector<int64_t>{dim})});
}

// trapezoid.x / trapz.x(y, x, *, dim) = sum(dx * (y[i] + y[i+1])) / 2
void trapezoid_x_op(OpCall& c) {
  const Tensor& y = c.tensor(0);
  reject_bool(c, y);
  const int64_t dim = existing_dim(y, c.int_arg(2), c.where());
  if (y.sizes()[dim] == 0) {
    c.push(zeros_without_dim(y, dim));
    return;
  }
  Tensor dx = sample_steps(c, y, c.tensor(1), dim);
  c.push(div(sum_dim(mul(dx, pair_sums(y, dim)), dim), Value::from_double(2.0)));
}

// trapezoid.dx / trapz.dx(y, *, dx, dim) = (sum(y) - (y[0] + y[-1]) / 2) * dx
void trapezoid_dx_op(OpCall& c) {
  const Tensor& y = c.tensor(0);
  reject_bool(c, y);
  const int64_t dim = existing_dim(y, c.int_arg(2), c.where());
  if (y.sizes()[dim] == 0) {
    c.push(zeros_without_dim(y, dim));
    return;
  }
  Tensor ends = add(select_view(y, dim, 0), select_view(y, dim, -1));
  c.push(mul(sub(sum_dim(y, dim), mul(ends, Value::from_double(0.5))), c.arg(1)));
}

Tensor cumulative_sum(const Tensor& t, int64_t dim) {
  return run_op1("aten::cumsum.default", {arg(t), arg(dim)});
}

// cumulative_trapezoid.x(y, x, *, dim) = cumsum(dx / 2 * (y[i] + y[i+1]))
void cumulative_trapezoid_x_op(OpCall& c) {
  const Tensor& y = c.tensor(0);
  reject_bool(c, y);
  const int64_t dim = existing_dim(y, c.int_arg(2), c.where());
  Tensor dx = sample_steps(c, y, c.tensor(1), dim);
  c.push(cumulative_sum(mul(div(dx, Value::from_double(2.0)), pair_sums(y, dim)), dim));
}

// cumulative_trapezoid.dx(y, *, dx, dim) = cumsum(dx / 2 * (y[i] + y[i+1]))
void cumulative_trapezoid_dx_op(OpCall& c) {
  const Tensor& y = c.tensor(0);
  reject_bool(c, y);
  const int64_t dim = existing_dim(y, c.int_arg(2), c.where());
  const Value half_dx = Value::from_double(c.scalar(1).to_double() / 2.0);
  c.push(cumulative_sum(mul(pair_sums(y, dim), half_dx), dim));
}

}  // namespace

void register_difference_ops(OpTable& t) {
  t.add("aten::diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor", diff_op);
  t.add("aten::gradient.scalarint(Tensor self, *, Scalar? spacing=None, int? dim=None, int edge_order=1) -> Tensor[]",
        gradient_scalar_op);
  t.add("aten::gradient.scalarrayarray(Tensor self, *, Scalar[] spacing, int[] dim, int edge_order=1) -> Tensor[]",
        gradient_scalar_list_op);
  t.add("aten::gradient.tensorarray(Tensor self, *, Tensor[] spacing, int[] dim, int edge_order=1) -> Tensor[]",
        gradient_tensor_list_op);
  t.add("aten::trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", trapezoid_x_op);
  t.add("aten::trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", trapezoid_x_op);
  t.add("aten::trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", trapezoid_dx_op);
  t.add("aten::trapz.dx(Tensor y, *, float dx=1, int dim=-1) -> Tensor", trapezoid_dx_op);
  t.add("aten::cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", cumulative_trapezoid_x_op);
  t.add("aten::cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", cumulative_trapezoid_dx_op);
}

}  // namespace pt2web
