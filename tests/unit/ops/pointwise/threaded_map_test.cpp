// The elementwise map split across threads: large broadcast, strided and
// three-input maps give, on 1 and 3 threads, exactly what a plain loop in
// this file computes (float32 arithmetic is exact to reproduce), and an
// error raised by some thread's part (integer division by zero) reaches the
// caller as the same BadInput, leaving the pool usable.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "kernels/parallel/thread_pool.h"
#include "ops/op_test.h"
#include "util/error.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

// A float32 tensor of `shape` with values that vary along every dim.
Tensor wave(const Shape& shape, float scale) {
  Tensor t = Tensor::empty(DType::Float32, shape);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = std::sin(static_cast<float>(i) * scale + 0.3f);
  return t;
}

// The elements of a float32 tensor in row-major order (any strides).
std::vector<float> elements(const Tensor& t) {
  Tensor c = t.contiguous();
  return std::vector<float>(c.data<float>(), c.data<float>() + c.numel());
}

}  // namespace

TEST_CASE("large elementwise maps match plain loops on several threads", "[elementwise][parallel]") {
  const Tensor x = wave({6, 3, 70, 70}, 0.013f);  // 88200 elements: several parts per thread
  const Tensor channel = wave({3, 1, 1}, 0.9f);
  const Tensor row = wave({70}, 0.21f);
  // A transposed view: the map reads it with strides, not contiguously.
  const Tensor square = wave({6, 3, 70, 70}, 0.007f).as_strided({6, 3, 70, 70}, {14700, 4900, 1, 70}, 0);
  const std::vector<float> xs = elements(x), cs = elements(channel), rs = elements(row), ss = elements(square);
  std::vector<float> want_add(xs.size()), want_mul(xs.size()), want_where(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    const size_t c = i / 4900 % 3, w = i % 70;
    want_add[i] = xs[i] + cs[c] * 2.0f;  // add with alpha 2: the product, then the sum
    want_mul[i] = rs[w] * ss[i];
    want_where[i] = xs[i] > 0.0f ? ss[i] : rs[w];
  }
  for (int threads : {1, 3}) {
    parallel::ThreadBudget budget(threads);
    INFO(threads << " threads");
    CHECK(elements(call1("aten::add.Tensor", {tv(x), tv(channel), iv(2)})) == want_add);
    CHECK(elements(call1("aten::mul.Tensor", {tv(row), tv(square)})) == want_mul);
    const Tensor positive = call1("aten::gt.Scalar", {tv(x), dv(0.0)});
    CHECK(elements(call1("aten::where.self", {tv(positive), tv(square), tv(row)})) == want_where);
  }
}

TEST_CASE("an error in one thread's part of a map reaches the caller", "[elementwise][parallel]") {
  parallel::ThreadBudget budget(2);
  Tensor numerator = Tensor::empty(DType::Int64, {100000});
  Tensor divisor = Tensor::empty(DType::Int64, {100000});
  for (int64_t i = 0; i < 100000; ++i) {
    numerator.data<int64_t>()[i] = i;
    divisor.data<int64_t>()[i] = i == 99990 ? 0 : 7;  // in the last part
  }
  CHECK(error_code_of("aten::div.Tensor_mode", {tv(numerator), tv(divisor), sv("trunc")}) == ErrorCode::BadInput);
  // The pool still runs the next map.
  divisor.data<int64_t>()[99990] = 7;
  const Tensor q = call1("aten::div.Tensor_mode", {tv(numerator), tv(divisor), sv("trunc")});
  CHECK(q.data<int64_t>()[99999] == 99999 / 7);
}
