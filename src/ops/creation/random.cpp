// Random operators: rand, randn, randint (and their _like forms), randperm,
// the in-place uniform_ / normal_, and bernoulli. They draw from the
// program's RandomSource (OpCall::random()), one value per element in
// row-major order, so a seed fixes every result; the stream is not torch's
// (ops/random_source.h). Floating results are drawn in double and rounded to
// the result dtype, integers drawn as int64 and converted.
#include <cmath>
#include <limits>
#include <numeric>

#include "ops/creation/creation.h"
#include "ops/op_utils.h"
#include "tensor/dispatch.h"

namespace pt2web {

namespace {

void check_sizes(const OpCall& c, const std::vector<int64_t>& sizes) {
  for (int64_t s : sizes)
    if (s < 0)
      fail(ErrorCode::BadInput, c.where(), "Trying to create tensor with negative dimension ", s, ": ",
           shape_to_string(sizes));
}

void require_floating(const OpCall& c, DType dtype, const char* what) {
  if (!is_floating(dtype))
    fail(ErrorCode::BadInput, c.where(), what, " is not implemented for ", dtype_name(dtype),
         " (it needs a floating dtype)");
}

// Writes draw() into every element of the contiguous tensor `out`.
template <typename Draw>
void fill_drawn(Tensor& out, Draw&& draw) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data<T>();
    const int64_t n = out.numel();
    for (int64_t i = 0; i < n; ++i) data[i] = convert_element<T>(draw());
  });
}

// The draws of `fill` into self (any layout): drawn contiguous, then copied.
template <typename Draw>
void draw_into(const Tensor& self, Draw&& draw) {
  Tensor drawn = Tensor::empty(self.dtype(), self.sizes());
  fill_drawn(drawn, draw);
  self.copy_from(drawn);
}

// rand(size, dtype...) and randn: uniform [0, 1) / standard normal.
template <bool Normal>
void rand_op(OpCall& c) {
  const std::vector<int64_t> sizes = c.int_list(0);
  check_sizes(c, sizes);
  const DType dtype = c.optional_dtype(1).value_or(DType::Float32);
  require_floating(c, dtype, Normal ? "randn" : "rand");
  Tensor out = Tensor::empty(dtype, sizes);
  RandomSource& r = c.random();
  fill_drawn(out, [&] { return Normal ? r.normal() : r.uniform(); });
  c.push(out);
}

template <bool Normal>
void rand_like_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const DType dtype = c.optional_dtype(1).value_or(self.dtype());
  require_floating(c, dtype, Normal ? "randn_like" : "rand_like");
  Tensor out = Tensor::empty(dtype, self.sizes());
  RandomSource& r = c.random();
  fill_drawn(out, [&] { return Normal ? r.normal() : r.uniform(); });
  c.push(out);
}

// An integer uniform in [low, high).
int64_t draw_int(RandomSource& r, int64_t low, int64_t high) {
  return low + static_cast<int64_t>(r.below(static_cast<uint64_t>(high) - static_cast<uint64_t>(low)));
}

void check_int_range(const OpCall& c, int64_t low, int64_t high) {
  if (low >= high)
    fail(ErrorCode::BadInput, c.where(), "random_ expects 'from' to be less than 'to', but got from=", low,
         " >= to=", high);
}

// randint(high, size) / randint.low(low, high, size): int64 unless dtype says.
template <bool HasLow>
void randint_op(OpCall& c) {
  const int64_t low = HasLow ? c.int_arg(0) : 0;
  const int64_t high = c.int_arg(HasLow ? 1 : 0);
  const std::vector<int64_t> sizes = c.int_list(HasLow ? 2 : 1);
  check_sizes(c, sizes);
  check_int_range(c, low, high);
  const DType dtype = c.optional_dtype(HasLow ? 3 : 2).value_or(DType::Int64);
  Tensor out = Tensor::empty(dtype, sizes);
  RandomSource& r = c.random();
  fill_drawn(out, [&] { return draw_int(r, low, high); });
  c.push(out);
}

template <bool HasLow>
void randint_like_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const int64_t low = HasLow ? c.int_arg(1) : 0;
  const int64_t high = c.int_arg(HasLow ? 2 : 1);
  check_int_range(c, low, high);
  Tensor out = Tensor::empty(c.optional_dtype(HasLow ? 3 : 2).value_or(self.dtype()), self.sizes());
  RandomSource& r = c.random();
  fill_drawn(out, [&] { return draw_int(r, low, high); });
  c.push(out);
}

// randperm(n): a uniformly random permutation of 0..n-1 (Fisher-Yates),
// int64 unless dtype says. As in ATen, every value must be exact in the
// dtype: n - 1 at most the dtype's largest integer, and for floating dtypes
// n at most 2^digits + 1 (float16 2049, bfloat16 257, float32 2^24 + 1).
int randperm_float_digits(DType dtype) {
  switch (dtype) {
    case DType::Float16: return 11;
    case DType::BFloat16: return 8;
    case DType::Float32: return 24;
    case DType::Float64: return 53;
    default: return 0;
  }
}

void check_randperm_fits(const OpCall& c, int64_t n, DType dtype) {
  if (is_floating(dtype)) {
    const int digits = randperm_float_digits(dtype);
    if (digits == 0) fail(ErrorCode::BadInput, c.where(), "randperm is not implemented for ", dtype_name(dtype));
    if (digits < 53 && n > (int64_t{1} << digits) + 1)
      fail(ErrorCode::BadInput, c.where(), "n cannot be greater than 2^", digits, "+1 for ", dtype_name(dtype),
           " type.");
    return;
  }
  if (!is_integral(dtype)) fail(ErrorCode::BadInput, c.where(), "randperm is not implemented for ", dtype_name(dtype));
  const uint64_t largest = visit_integral_dtype(dtype, [](auto tag) {
    using T = typename decltype(tag)::type;
    return static_cast<uint64_t>(std::numeric_limits<T>::max());
  });
  if (n > 0 && static_cast<uint64_t>(n - 1) > largest)
    fail(ErrorCode::BadInput, c.where(), "n cannot be greater than ", largest + 1, " for ", dtype_name(dtype),
         " type.");
}

void randperm_op(OpCall& c) {
  const int64_t n = c.int_arg(0);
  if (n < 0) fail(ErrorCode::BadInput, c.where(), "n must be non-negative, got", n);
  const DType dtype = c.optional_dtype(1).value_or(DType::Int64);
  check_randperm_fits(c, n, dtype);
  Tensor order = Tensor::empty(DType::Int64, {n});
  int64_t* values = order.data<int64_t>();
  std::iota(values, values + n, int64_t{0});
  RandomSource& r = c.random();
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(values[i], values[static_cast<int64_t>(r.below(static_cast<uint64_t>(i) + 1))]);
  c.push(dtype == DType::Int64 ? order : order.to(dtype, true));
}

// uniform_(self, from=0, to=1): in place, uniform in [from, to).
void uniform_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  require_floating(c, self.dtype(), "uniform_");
  const double from = c.double_arg(1), to = c.double_arg(2);
  if (!(from <= to))
    fail(ErrorCode::BadInput, c.where(), "uniform_ expects to return a [from, to) range, but found from=", from,
         " > to=", to);
  RandomSource& r = c.random();
  draw_into(self, [&] { return from + (to - from) * r.uniform(); });
  c.push(self);
}

// normal_(self, mean=0, std=1): in place.
void normal_inplace_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  require_floating(c, self.dtype(), "normal_");
  const double mean = c.double_arg(1), std = c.double_arg(2);
  if (!(std >= 0)) fail(ErrorCode::BadInput, c.where(), "normal expects std >= 0.0, but found std ", std);
  RandomSource& r = c.random();
  draw_into(self, [&] { return mean + std * r.normal(); });
  c.push(self);
}

// bernoulli(self): each element 1 with probability self[i]; bernoulli.p:
// with probability p, in self's shape and dtype.
void check_probability(const OpCall& c, double p) {
  if (!(p >= 0 && p <= 1)) fail(ErrorCode::BadInput, c.where(), "bernoulli_ expects p to be in [0, 1], but got p=", p);
}

void bernoulli_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  require_floating(c, self.dtype(), "bernoulli");
  Tensor p = self.to(DType::Float64, true);
  const double* probs = p.data<double>();
  for (int64_t i = 0; i < p.numel(); ++i) check_probability(c, probs[i]);
  Tensor out = Tensor::empty(self.dtype(), self.sizes());
  RandomSource& r = c.random();
  int64_t i = 0;
  fill_drawn(out, [&] { return r.uniform() < probs[i++] ? 1.0 : 0.0; });
  c.push(out);
}

void bernoulli_p_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const double p = c.double_arg(1);
  check_probability(c, p);
  Tensor out = Tensor::empty(self.dtype(), self.sizes());
  RandomSource& r = c.random();
  fill_drawn(out, [&] { return r.uniform() < p ? 1.0 : 0.0; });
  c.push(out);
}

}  // namespace

void register_random_ops(OpTable& t) {
  const std::string options = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None";
  const std::string long_options =
      "ScalarType? dtype=long, Layout? layout=None, Device? device=None, bool? pin_memory=None";
  const std::string like = options + ", MemoryFormat? memory_format=None) -> Tensor";
  t.add("aten::rand(SymInt[] size, *, " + options + ") -> Tensor", rand_op<false>);
  t.add("aten::randn(SymInt[] size, *, " + options + ") -> Tensor", rand_op<true>);
  t.add("aten::rand_like(Tensor self, *, " + like, rand_like_op<false>);
  t.add("aten::randn_like(Tensor self, *, " + like, rand_like_op<true>);
  t.add("aten::randint(SymInt high, SymInt[] size, *, " + long_options + ") -> Tensor", randint_op<false>);
  t.add("aten::randint.low(SymInt low, SymInt high, SymInt[] size, *, " + long_options + ") -> Tensor",
        randint_op<true>);
  t.add("aten::randint_like(Tensor self, SymInt high, *, " + like, randint_like_op<false>);
  t.add("aten::randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, " + like, randint_like_op<true>);
  t.add("aten::randperm(SymInt n, *, " + long_options + ") -> Tensor", randperm_op);
  t.add("aten::uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)",
        uniform_inplace_op);
  t.add("aten::normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)",
        normal_inplace_op);
  t.add("aten::bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", bernoulli_op);
  t.add("aten::bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", bernoulli_p_op);
}

}  // namespace pt2web
