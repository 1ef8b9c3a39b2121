// quantile and nanquantile (Tensor q and float q), computed the way ATen's
// quantile_compute does it, so results match to the last bit:
// - each line (all elements, or along `dim`) is sorted, NaN last;
// - the rank of q is q * (n - 1) in the input's dtype, with n the line's
//   length; a line holding NaN ranks at its end, so quantile gives NaN.
//   nanquantile counts only the numbers (an all-NaN line ranks 0: NaN);
// - lower / higher / nearest round the rank down, up or half to even and
//   take that element; linear and midpoint lerp (ops/pointwise/ternary.cpp)
//   between the elements at the rank's floor and ceiling, with weight
//   rank - floor or 0.5.
// The result is [len(q)] (when q is 1-D) followed by the reduced shape;
// keepdim keeps the reduced dims (every dim when there is none) as 1.
// A float q becomes a tensor of the input's dtype first (0.3 is 0.3f for
// float32 input).
#include <cmath>

#include "ops/op_compose.h"
#include "ops/reduction/common.h"
#include "ops/reduction/gnu_order.h"
#include "ops/reduction/reduction.h"
#include "ops/views.h"

namespace pt2web {

namespace {

enum class Interpolation { Linear, Lower, Higher, Midpoint, Nearest };

Interpolation parse_interpolation(const std::string& name, const std::string& where) {
  if (name == "linear") return Interpolation::Linear;
  if (name == "lower") return Interpolation::Lower;
  if (name == "higher") return Interpolation::Higher;
  if (name == "midpoint") return Interpolation::Midpoint;
  if (name == "nearest") return Interpolation::Nearest;
  fail(ErrorCode::BadInput, where, "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got ",
       name);
}

// The shape ATen gives the result.
Shape quantile_shape(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim) {
  Shape shape;
  if (dim && self.dim() > 0) {
    shape = self.sizes();
    if (keepdim) shape[*dim] = 1;
    else shape.erase(shape.begin() + *dim);
  } else if (keepdim) {
    shape.assign(static_cast<size_t>(self.dim()), 1);
  }
  if (q.dim() > 0) shape.insert(shape.begin(), q.numel());
  return shape;
}

Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim_arg, bool keepdim,
                const std::string& interpolation_name, bool ignore_nan, const std::string& where) {
  if (self.numel() == 0) fail(ErrorCode::BadInput, where, "quantile() input tensor must be non-empty");
  if (q.dim() > 1) fail(ErrorCode::BadInput, where, "quantile() q must be a scalar or 1D tensor");
  if (self.dtype() != DType::Float32 && self.dtype() != DType::Float64)
    fail(ErrorCode::BadInput, where, "quantile() input tensor must be either float or double dtype");
  if (q.dtype() != self.dtype())
    fail(ErrorCode::BadInput, where, "quantile() q tensor must be same dtype as the input tensor");
  const Interpolation how = parse_interpolation(interpolation_name, where);
  std::optional<int64_t> dim;
  if (dim_arg) dim = wrap_dim(*dim_arg, std::max<int64_t>(self.dim(), 1), where.c_str());
  const Shape out_shape = quantile_shape(self, q, dim, keepdim);
  const Lines lines = dim && self.dim() > 0 ? make_lines(self, *dim, self.dtype(), where)
                                            : make_lines(reshape(self, {-1}), 0, self.dtype(), where);
  const int64_t qs = q.numel();
  Tensor below = Tensor::empty(self.dtype(), {qs, lines.count});
  Tensor above = Tensor::empty(self.dtype(), {qs, lines.count});
  Tensor weights = Tensor::empty(self.dtype(), {qs, lines.count});
  auto compute = [&](auto tag) {
    using T = typename decltype(tag)::type;
    const Tensor q_values = q.contiguous();
    const T* qp = q_values.data<T>();
    for (int64_t j = 0; j < qs; ++j)
      if (!(qp[j] >= T(0) && qp[j] <= T(1)))
        fail(ErrorCode::BadInput, where, "quantile() q values must be in the range [0, 1]");
    std::vector<T> sorted(static_cast<size_t>(lines.len));
    const T* src = lines.data.data<T>();
    for (int64_t line = 0; line < lines.count; ++line) {
      std::copy_n(src + line * lines.len, lines.len, sorted.begin());
      gnu_order::sort(sorted.begin(), sorted.end(),
                      [](T a, T b) { return (!std::isnan(a) && std::isnan(b)) || a < b; });
      int64_t numbers = 0;
      for (T v : sorted) numbers += std::isnan(v) ? 0 : 1;
      const int64_t last_index = lines.len - 1;
      for (int64_t j = 0; j < qs; ++j) {
        T rank;
        if (ignore_nan) {
          rank = qp[j] * static_cast<T>(numbers - 1);
          if (rank < T(0)) rank = T(0);
        } else {
          rank = numbers < lines.len ? static_cast<T>(last_index) : qp[j] * static_cast<T>(last_index);
        }
        if (how == Interpolation::Lower) rank = std::floor(rank);
        if (how == Interpolation::Higher) rank = std::ceil(rank);
        if (how == Interpolation::Nearest) rank = std::nearbyint(rank);
        const auto low = static_cast<int64_t>(rank);
        const auto high = static_cast<int64_t>(std::ceil(rank));
        const int64_t at = j * lines.count + line;
        below.data<T>()[at] = sorted[static_cast<size_t>(low)];
        above.data<T>()[at] = sorted[static_cast<size_t>(high)];
        weights.data<T>()[at] = how == Interpolation::Midpoint ? T(0.5) : rank - static_cast<T>(low);
      }
    }
  };
  if (self.dtype() == DType::Float32) compute(TypeTag<float>{});
  else compute(TypeTag<double>{});
  Tensor result = below;
  if (how == Interpolation::Linear || how == Interpolation::Midpoint)
    result = run_op1("aten::lerp.Tensor", {arg(below), arg(above), arg(weights)});
  return reshape(result, out_shape);
}

// quantile / nanquantile (self, Tensor q, dim, keepdim, *, interpolation)
template <bool IgnoreNan>
void quantile_op(OpCall& c) {
  c.push(quantile(c.tensor(0), c.tensor(1), c.optional_int(2), c.bool_arg(3), c.string_arg(4), IgnoreNan, c.where()));
}

// quantile.scalar / nanquantile.scalar (self, float q, ...)
template <bool IgnoreNan>
void quantile_scalar_op(OpCall& c) {
  const double q = c.double_arg(1);
  if (!(q >= 0 && q <= 1)) fail(ErrorCode::BadInput, c.where(), "quantile() q must be in the range [0, 1] but got ", q);
  const Tensor& self = c.tensor(0);
  c.push(quantile(self, Tensor::scalar(self.dtype(), q), c.optional_int(2), c.bool_arg(3), c.string_arg(4), IgnoreNan,
                  c.where()));
}

}  // namespace

void register_quantile_ops(OpTable& t) {
  for (const char* name : {"quantile", "nanquantile"}) {
    const bool nan = std::string(name) == "nanquantile";
    const std::string tail = "(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor";
    const std::string scalar_tail =
        ".scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor";
    t.add(std::string("aten::") + name + tail, nan ? quantile_op<true> : quantile_op<false>);
    t.add(std::string("aten::") + name + scalar_tail, nan ? quantile_scalar_op<true> : quantile_scalar_op<false>);
  }
}

}  // namespace pt2web
