// Statistical reductions: var, std, var_mean, std_mean (all three argument
// styles: unbiased flag, dim + unbiased, correction), vector norms
// (linalg_vector_norm, norm) and logsumexp.
//
// All of them accumulate in double and round once to the output dtype; ATen's
// CPU var/std also accumulate float inputs in double.
#include <cmath>
#include <limits>

#include "ops/reduction/reduction.h"
#include "ops/reduction/common.h"
#include "ops/type_promotion.h"

namespace pt2web {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct VarArgs {
  std::vector<int64_t> dims;  // empty = all
  double correction = 1.0;
  bool keepdim = false;
};

// var(self, unbiased)
VarArgs var_args_flag(const OpCall& c) { return {{}, c.bool_arg(1) ? 1.0 : 0.0, false}; }
// var.dim(self, dim, unbiased, keepdim)
VarArgs var_args_dim(const OpCall& c) {
  auto dims = c.optional_int_list(1);
  return {dims ? *dims : std::vector<int64_t>{}, c.bool_arg(2) ? 1.0 : 0.0, c.bool_arg(3)};
}
// var.correction(self, dim, *, correction, keepdim): correction None means 1.
VarArgs var_args_correction(const OpCall& c) {
  auto dims = c.optional_int_list(1);
  auto correction = c.optional_scalar(2);
  return {dims ? *dims : std::vector<int64_t>{}, correction ? correction->to_double() : 1.0, c.bool_arg(3)};
}

// Two-pass variance of every row (mean first, then squared deviations), and
// the mean when asked for. The divisor is max(0, N - correction) as in ATen.
std::pair<Tensor, Tensor> var_mean_impl(const Tensor& x, const VarArgs& args, bool take_sqrt, bool want_mean,
                                        const std::string& where) {
  if (!is_floating(x.dtype()))
    fail(ErrorCode::BadInput, where, "std and var only support floating point and complex dtypes, got ",
         dtype_name(x.dtype()));
  ReduceRows r = make_reduce_rows(x, args.dims, args.keepdim, x.dtype(), where);
  Tensor var = Tensor::empty(x.dtype(), r.out_shape);
  Tensor mean = want_mean ? Tensor::empty(x.dtype(), r.out_shape) : Tensor();
  visit_floating_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = r.rows.data<T>();
    T* var_out = var.data<T>();
    T* mean_out = want_mean ? mean.data<T>() : nullptr;
    const double n = static_cast<double>(r.inner);
    const double divisor = std::max(0.0, n - args.correction);
    for (int64_t i = 0; i < r.outer; ++i) {
      const T* p = src + i * r.inner;
      double sum = 0.0;
      for (int64_t k = 0; k < r.inner; ++k) sum += convert_element<double>(p[k]);
      const double m = sum / n;
      double squares = 0.0;
      for (int64_t k = 0; k < r.inner; ++k) {
        double d = convert_element<double>(p[k]) - m;
        squares += d * d;
      }
      double v = squares / divisor;
      var_out[i] = convert_element<T>(take_sqrt ? std::sqrt(v) : v);
      if (mean_out) mean_out[i] = convert_element<T>(m);
    }
  });
  return {var, mean};
}

template <bool Sqrt, VarArgs (*Parse)(const OpCall&)>
void var_op(OpCall& c) {
  c.push(var_mean_impl(c.tensor(0), Parse(c), Sqrt, false, c.where()).first);
}

template <bool Sqrt, VarArgs (*Parse)(const OpCall&)>
void var_mean_op(OpCall& c) {
  auto result = var_mean_impl(c.tensor(0), Parse(c), Sqrt, true, c.where());
  c.push(result.first);
  c.push(result.second);
}

// The p-norm of one row, |x| maxed/mined for +-inf, a nonzero count for 0.
template <typename T>
double norm_of_row(const T* p, int64_t n, double ord) {
  auto mag = [&](int64_t k) { return std::fabs(convert_element<double>(p[k])); };
  if (std::isinf(ord)) {
    double best = mag(0);
    for (int64_t k = 1; k < n && !std::isnan(best); ++k) {
      double v = mag(k);
      if (std::isnan(v) || (ord > 0 ? v > best : v < best)) best = v;
    }
    return best;
  }
  double acc = 0.0;
  if (ord == 0.0) {
    for (int64_t k = 0; k < n; ++k) acc += convert_element<double>(p[k]) != 0.0 ? 1.0 : 0.0;
    return acc;
  }
  if (ord == 1.0) {
    for (int64_t k = 0; k < n; ++k) acc += mag(k);
    return acc;
  }
  if (ord == 2.0) {
    for (int64_t k = 0; k < n; ++k) acc += mag(k) * mag(k);
    return std::sqrt(acc);
  }
  for (int64_t k = 0; k < n; ++k) acc += std::pow(mag(k), ord);
  return std::pow(acc, 1.0 / ord);
}

// linalg.vector_norm semantics; `dtype` casts the input before the norm.
Tensor vector_norm_impl(const Tensor& x, double ord, const std::vector<int64_t>& dims, bool keepdim,
                        std::optional<DType> dtype, const std::string& where) {
  if (!is_floating(x.dtype()))
    fail(ErrorCode::BadInput, where, "Expected a floating point or complex tensor as input. Got ",
         dtype_name(x.dtype()));
  if (dtype && !is_floating(*dtype))
    fail(ErrorCode::BadInput, where, "dtype should be floating point or complex. Got ", dtype_name(*dtype));
  DType out_dtype = dtype ? *dtype : x.dtype();
  ReduceRows r = make_reduce_rows(x, dims, keepdim, out_dtype, where);
  if (x.numel() == 0 && (ord < 0.0 || std::isinf(ord))) {
    bool empty_reduced = dims.empty();
    for (int64_t d : r.dims) empty_reduced = empty_reduced || x.sizes()[d] == 0;
    if (empty_reduced)
      fail(ErrorCode::BadInput, where, "linalg.vector_norm cannot compute the ", ord,
           " norm on an empty tensor because the operation does not have an identity");
  }
  Tensor out;
  visit_floating_dtype(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    out = map_rows<T, T>(r, out_dtype, [ord](const T* p, int64_t n) { return norm_of_row(p, n, ord); });
  });
  return out;
}

void linalg_vector_norm_op(OpCall& c) {
  auto dims = c.optional_int_list(2);
  c.push(vector_norm_impl(c.tensor(0), c.scalar(1).to_double(), dims ? *dims : std::vector<int64_t>{},
                          c.bool_arg(3), c.optional_dtype(4), c.where()));
}

// norm.ScalarOpt_dim(self, p?, dim, keepdim): p None is the 2-norm.
void norm_dim_op(OpCall& c) {
  auto p = c.optional_scalar(1);
  c.push(vector_norm_impl(c.tensor(0), p ? p->to_double() : 2.0, c.int_list(2), c.bool_arg(3), std::nullopt,
                          c.where()));
}

void norm_scalar_op(OpCall& c) {
  c.push(vector_norm_impl(c.tensor(0), c.scalar(1).to_double(), {}, false, std::nullopt, c.where()));
}

// log(sum(exp(x))) shifted by the row max; an infinite max is not subtracted
// (as ATen does), so all -inf rows give -inf and +inf rows give +inf.
// Integer inputs compute in float32.
void logsumexp_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  DType out_dtype = to_floating(x.dtype());
  ReduceRows r = make_reduce_rows(x, c.int_list(1), c.bool_arg(2), out_dtype, c.where());
  Tensor out;
  visit_floating_dtype(out_dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    out = map_rows<T, T>(r, out_dtype, [](const T* p, int64_t n) {
      double m = -kInf;
      for (int64_t k = 0; k < n; ++k) {
        double v = convert_element<double>(p[k]);
        if (std::isnan(v) || v > m) m = v;
        if (std::isnan(m)) break;
      }
      if (std::isinf(m) || n == 0) m = 0.0;
      double sum = 0.0;
      for (int64_t k = 0; k < n; ++k) sum += std::exp(convert_element<double>(p[k]) - m);
      return std::log(sum) + m;
    });
  });
  c.push(out);
}

}  // namespace

void register_stats_ops(OpTable& t) {
  t.add("aten::var(Tensor self, bool unbiased=True) -> Tensor", var_op<false, var_args_flag>);
  t.add("aten::var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
        var_op<false, var_args_dim>);
  t.add("aten::var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
        var_op<false, var_args_correction>);
  t.add("aten::std(Tensor self, bool unbiased=True) -> Tensor", var_op<true, var_args_flag>);
  t.add("aten::std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
        var_op<true, var_args_dim>);
  t.add("aten::std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
        var_op<true, var_args_correction>);
  t.add("aten::var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", var_mean_op<false, var_args_flag>);
  t.add("aten::var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)",
        var_mean_op<false, var_args_dim>);
  t.add("aten::var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> "
        "(Tensor, Tensor)",
        var_mean_op<false, var_args_correction>);
  t.add("aten::std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)", var_mean_op<true, var_args_flag>);
  t.add("aten::std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)",
        var_mean_op<true, var_args_dim>);
  t.add("aten::std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> "
        "(Tensor, Tensor)",
        var_mean_op<true, var_args_correction>);
  t.add("aten::linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor",
        linalg_vector_norm_op);
  t.add("aten::norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor", norm_dim_op);
  t.add("aten::norm.Scalar(Tensor self, Scalar p=2) -> Tensor", norm_scalar_op);
  t.add("aten::logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", logsumexp_op);
}

}  // namespace pt2web
