// Reductions, scans, sorting and softmax on small hand-checkable tensors:
// dtype promotion, negative dims, keepdim, empty inputs, non-contiguous
// inputs, integer wrap-around and NaN rules.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "ops/registry.h"
#include "ops/op_test.h"
#include "ops/views.h"
#include "tensor/half.h"
#include "util/error.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

void check(const Tensor& t, DType dtype, const Shape& shape, const std::vector<double>& want, double margin = 1e-6) {
  CHECK(t.dtype() == dtype);
  REQUIRE(t.sizes() == shape);
  REQUIRE(t.numel() == static_cast<int64_t>(want.size()));
  for (size_t i = 0; i < want.size(); ++i) {
    double got = t.item_as_double(static_cast<int64_t>(i));
    if (std::isnan(want[i])) CHECK(std::isnan(got));
    else if (std::isinf(want[i])) CHECK(got == want[i]);
    else CHECK(got == Approx(want[i]).margin(margin));
  }
}

void check_ints(const Tensor& t, const Shape& shape, const std::vector<int64_t>& want) {
  CHECK(t.dtype() == DType::Int64);
  REQUIRE(t.sizes() == shape);
  for (size_t i = 0; i < want.size(); ++i) CHECK(t.item_as_int(static_cast<int64_t>(i)) == want[i]);
}

}  // namespace

TEST_CASE("sum promotes integers and bools to int64 and wraps on overflow", "[reductions]") {
  check(call1("aten::sum.default", {tv(make({3}, {1, 2, 3}, DType::Int32))}), DType::Int64, {}, {6});
  check(call1("aten::sum.default", {tv(make({3}, {1, 0, 1}, DType::Bool))}), DType::Int64, {}, {2});
  const int64_t big = std::numeric_limits<int64_t>::max();
  Tensor wrapped = call1("aten::sum.default", {tv(make_i64({2}, {big, 1}))});
  CHECK(wrapped.item_as_int() == std::numeric_limits<int64_t>::min());
  // An explicit dtype converts before summing.
  check(call1("aten::sum.default", {tv(make({2}, {0.5, 0.25})), dt(DType::Float64)}), DType::Float64, {}, {0.75});
}

TEST_CASE("sum.dim_IntList: negative dims, keepdim, [] meaning all, empty and strided input", "[reductions]") {
  Tensor x = make({2, 3}, {1, 2, 3, 4, 5, 6});
  check(call1("aten::sum.dim_IntList", {tv(x), ints({-1})}), DType::Float32, {2}, {6, 15});
  check(call1("aten::sum.dim_IntList", {tv(x), ints({0}), bv(true)}), DType::Float32, {1, 3}, {5, 7, 9});
  check(call1("aten::sum.dim_IntList", {tv(x), ints({})}), DType::Float32, {}, {21});
  check(call1("aten::sum.dim_IntList", {tv(x), Value::none(), bv(true)}), DType::Float32, {1, 1}, {21});
  // Transposed view: sums of the original columns.
  check(call1("aten::sum.dim_IntList", {tv(transpose_view(x, 0, 1)), ints({1})}), DType::Float32, {3}, {5, 7, 9});
  check(call1("aten::sum.dim_IntList", {tv(make({0, 2}, {})), ints({0})}), DType::Float32, {2}, {0, 0});
  check(call1("aten::sum.default", {tv(make({}, {4}))}), DType::Float32, {}, {4});
  CHECK_THROWS_AS(call1("aten::sum.dim_IntList", {tv(x), ints({2})}), Error);
}

TEST_CASE("nansum skips NaN", "[reductions]") {
  check(call1("aten::nansum.default", {tv(make({3}, {1, kNaN, 2}))}), DType::Float32, {}, {3});
}

TEST_CASE("mean needs a floating dtype; empty gives NaN", "[reductions]") {
  CHECK_THROWS_AS(call1("aten::mean.default", {tv(make({2}, {1, 2}, DType::Int64))}), Error);
  check(call1("aten::mean.dim", {tv(make({2}, {1, 2}, DType::Int64)), ints({0}), bv(false), dt(DType::Float32)}),
        DType::Float32, {}, {1.5});
  check(call1("aten::mean.dim", {tv(make({2, 2}, {1, 2, 3, 4})), ints({0, 1}), bv(true)}), DType::Float32, {1, 1},
        {2.5});
  check(call1("aten::mean.default", {tv(make({0}, {}))}), DType::Float32, {}, {kNaN});
  check(call1("aten::mean.default", {tv(make({3}, {1, 2, 4}, DType::BFloat16))}), DType::BFloat16, {},
        {static_cast<float>(BFloat16(7.0f / 3.0f))});
}

TEST_CASE("prod: dims, integer promotion and empty product", "[reductions]") {
  Tensor x = make({2, 2}, {1, 2, 3, 4});
  check(call1("aten::prod.dim_int", {tv(x), iv(0)}), DType::Float32, {2}, {3, 8});
  check(call1("aten::prod.dim_int", {tv(x), iv(-1), bv(true)}), DType::Float32, {2, 1}, {2, 12});
  check(call1("aten::prod.default", {tv(make({3}, {2, 3, 4}, DType::Int8))}), DType::Int64, {}, {24});
  check(call1("aten::prod.default", {tv(make({0}, {}))}), DType::Float32, {}, {1});
}

TEST_CASE("amax/amin/max/min propagate NaN and reject empty reductions", "[reductions]") {
  Tensor x = make({2, 3}, {1, kNaN, 3, 4, 5, 2});
  check(call1("aten::amax.default", {tv(x), ints({1})}), DType::Float32, {2}, {kNaN, 5});
  check(call1("aten::amin.default", {tv(x), ints({0})}), DType::Float32, {3}, {1, kNaN, 2});
  check(call1("aten::amax.default", {tv(make({2, 2}, {1, 7, 3, 4}))}), DType::Float32, {}, {7});
  check(call1("aten::max.default", {tv(x)}), DType::Float32, {}, {kNaN});
  check(call1("aten::min.default", {tv(make({3}, {3, -1, 2}, DType::Int32))}), DType::Int32, {}, {-1});
  CHECK_THROWS_AS(call1("aten::max.default", {tv(make({0}, {}))}), Error);
  CHECK_THROWS_AS(call1("aten::amax.default", {tv(make({0, 2}, {})), ints({0})}), Error);
  // Reducing a non-empty dim of an empty tensor is fine.
  check(call1("aten::amax.default", {tv(make({0, 2}, {})), ints({1})}), DType::Float32, {0}, {});
}

TEST_CASE("max.dim/min.dim return the first extremum's index, or the first NaN's", "[reductions]") {
  auto r = call("aten::max.dim", {tv(make({2, 4}, {1, 5, 5, 2, 1, kNaN, 9, kNaN})), iv(1)});
  check(r[0].tensor, DType::Float32, {2}, {5, kNaN});
  check_ints(r[1].tensor, {2}, {1, 1});
  auto m = call("aten::min.dim", {tv(make({2, 2}, {3, 1, 1, 3})), iv(0), bv(true)});
  check(m[0].tensor, DType::Float32, {1, 2}, {1, 1});
  check_ints(m[1].tensor, {1, 2}, {1, 0});
  auto s = call("aten::max.dim", {tv(make({}, {4})), iv(-1)});
  check(s[0].tensor, DType::Float32, {}, {4});
  check_ints(s[1].tensor, {}, {0});
  auto b = call("aten::max.dim", {tv(make({3}, {0, 1, 1}, DType::Bool)), iv(0)});
  CHECK(b[0].tensor.dtype() == DType::Bool);
  check_ints(b[1].tensor, {}, {1});
}

TEST_CASE("argmax/argmin: flattened without dim, keepdim shapes, NaN", "[reductions]") {
  Tensor x = make({2, 3}, {1, 9, 3, 9, 0, 2});
  check_ints(call1("aten::argmax.default", {tv(x)}), {}, {1});
  check_ints(call1("aten::argmin.default", {tv(x)}), {}, {4});
  check_ints(call1("aten::argmax.default", {tv(x), Value::none(), bv(true)}), {1, 1}, {1});
  check_ints(call1("aten::argmax.default", {tv(x), iv(0)}), {3}, {1, 0, 0});
  check_ints(call1("aten::argmin.default", {tv(x), iv(-1), bv(true)}), {2, 1}, {0, 1});
  check_ints(call1("aten::argmin.default", {tv(make({3}, {1, kNaN, 0}))}), {}, {1});
  CHECK_THROWS_AS(call1("aten::argmax.default", {tv(make({0}, {}))}), Error);
}

TEST_CASE("aminmax and median", "[reductions]") {
  auto r = call("aten::aminmax.default", {tv(make({2, 2}, {3, 1, 4, 2})), iv(1)});
  check(r[0].tensor, DType::Float32, {2}, {1, 2});
  check(r[1].tensor, DType::Float32, {2}, {3, 4});
  check(call1("aten::median.default", {tv(make({4}, {4, 1, 3, 2}))}), DType::Float32, {}, {2});
  check(call1("aten::median.default", {tv(make({3}, {4, kNaN, 2}))}), DType::Float32, {}, {kNaN});
}

TEST_CASE("var/std: unbiased flag, correction, dims, NaN for too few samples", "[reductions]") {
  Tensor x = make({4}, {1, 2, 3, 4});
  check(call1("aten::var.default", {tv(x)}), DType::Float32, {}, {5.0 / 3.0});
  check(call1("aten::var.default", {tv(x), bv(false)}), DType::Float32, {}, {1.25});
  check(call1("aten::var.correction", {tv(x), Value::none(), Value::from_double(0.0)}), DType::Float32, {}, {1.25});
  check(call1("aten::std.dim", {tv(make({2, 2}, {1, 3, 2, 2})), ints({-1}), bv(true), bv(true)}), DType::Float32,
        {2, 1}, {std::sqrt(2.0), 0});
  check(call1("aten::var.correction", {tv(make({1}, {5}))}), DType::Float32, {}, {kNaN});
  CHECK_THROWS_AS(call1("aten::var.default", {tv(make({2}, {1, 2}, DType::Int64))}), Error);
  auto vm = call("aten::var_mean.correction", {tv(x), ints({0})});
  check(vm[0].tensor, DType::Float32, {}, {5.0 / 3.0});
  check(vm[1].tensor, DType::Float32, {}, {2.5});
}

TEST_CASE("any/all: empty identities, uint8 keeps uint8, NaN is true", "[reductions]") {
  check(call1("aten::any.default", {tv(make({0}, {}))}), DType::Bool, {}, {0});
  check(call1("aten::all.default", {tv(make({0}, {}))}), DType::Bool, {}, {1});
  check(call1("aten::any.default", {tv(make({2}, {0, kNaN}))}), DType::Bool, {}, {1});
  check(call1("aten::all.dim", {tv(make({2, 2}, {1, 0, 2, 3}, DType::UInt8)), iv(1)}), DType::UInt8, {2}, {0, 1});
  check(call1("aten::any.dims", {tv(make({2, 2}, {0, 0, 0, 1})), ints({0}), bv(true)}), DType::Bool, {1, 2}, {0, 1});
  check(call1("aten::any.dims", {tv(make({2, 2}, {0, 0, 0, 1}))}), DType::Bool, {}, {1});
  check_ints(call1("aten::count_nonzero.dim_IntList", {tv(make({2, 2}, {0, 1, 2, 0})), ints({1})}), {2}, {1, 1});
}

TEST_CASE("vector norms: orders 2, 1, 0, inf, -inf and other p", "[reductions]") {
  Tensor x = make({2, 2}, {3, -4, 0, 1});
  check(call1("aten::linalg_vector_norm.default", {tv(x), iv(2), ints({1})}), DType::Float32, {2}, {5, 1});
  check(call1("aten::linalg_vector_norm.default", {tv(x), iv(1)}), DType::Float32, {}, {8});
  check(call1("aten::linalg_vector_norm.default", {tv(x), iv(0)}), DType::Float32, {}, {3});
  check(call1("aten::linalg_vector_norm.default", {tv(x), Value::from_double(kInf)}), DType::Float32, {}, {4});
  check(call1("aten::linalg_vector_norm.default", {tv(x), Value::from_double(-kInf), ints({1})}), DType::Float32, {2},
        {3, 0});
  check(call1("aten::linalg_vector_norm.default", {tv(make({2}, {1, 2})), iv(3)}), DType::Float32, {},
        {std::cbrt(9.0)});
  check(call1("aten::norm.ScalarOpt_dim", {tv(x), Value::none(), ints({0}), bv(true)}), DType::Float32, {1, 2},
        {3, std::sqrt(17.0)});
  CHECK_THROWS_AS(call1("aten::linalg_vector_norm.default", {tv(make({2}, {1, 2}, DType::Int64))}), Error);
  CHECK_THROWS_AS(call1("aten::linalg_vector_norm.default", {tv(make({0}, {})), Value::from_double(kInf)}), Error);
  check(call1("aten::linalg_vector_norm.default", {tv(make({0}, {}))}), DType::Float32, {}, {0});
}

TEST_CASE("logsumexp: stable for large values, -inf rows, ints become float", "[reductions]") {
  check(call1("aten::logsumexp.default", {tv(make({2}, {1000, 1000})), ints({0})}), DType::Float32, {},
        {1000 + std::log(2.0)}, 1e-3);
  check(call1("aten::logsumexp.default", {tv(make({2}, {-kInf, -kInf})), ints({0})}), DType::Float32, {}, {-kInf});
  check(call1("aten::logsumexp.default", {tv(make({2}, {0, 0}, DType::Int64)), ints({0})}), DType::Float32, {},
        {std::log(2.0)});
}

TEST_CASE("cumsum/cumprod: dims, int64 promotion, in place", "[reductions]") {
  Tensor x = make({2, 3}, {1, 2, 3, 4, 5, 6});
  check(call1("aten::cumsum.default", {tv(x), iv(1)}), DType::Float32, {2, 3}, {1, 3, 6, 4, 9, 15});
  check(call1("aten::cumsum.default", {tv(x), iv(0)}), DType::Float32, {2, 3}, {1, 2, 3, 5, 7, 9});
  check(call1("aten::cumsum.default", {tv(make({3}, {1, 1, 0}, DType::Bool)), iv(0)}), DType::Int64, {3}, {1, 2, 2});
  check(call1("aten::cumprod.default", {tv(x), iv(-1)}), DType::Float32, {2, 3}, {1, 2, 6, 4, 20, 120});
  check(call1("aten::cumsum.default", {tv(transpose_view(x, 0, 1)), iv(1)}), DType::Float32, {3, 2},
        {1, 5, 2, 7, 3, 9});
  Tensor y = make({3}, {1, 2, 3});
  call1("aten::cumsum_.default", {tv(y), iv(0)});
  check(y, DType::Float32, {3}, {1, 3, 6});
}

TEST_CASE("cummax/cummin: later ties take the index, NaN sticks", "[reductions]") {
  auto r = call("aten::cummax.default", {tv(make({5}, {1, 3, 2, 3, 0})), iv(0)});
  check(r[0].tensor, DType::Float32, {5}, {1, 3, 3, 3, 3});
  check_ints(r[1].tensor, {5}, {0, 1, 1, 3, 3});
  auto m = call("aten::cummin.default", {tv(make({4}, {2, kNaN, 1, kNaN})), iv(0)});
  check(m[0].tensor, DType::Float32, {4}, {2, kNaN, kNaN, kNaN});
  check_ints(m[1].tensor, {4}, {0, 1, 1, 3});
}

TEST_CASE("sort/argsort/topk: order, NaN placement, ties, dims", "[reductions]") {
  Tensor x = make({5}, {3, kNaN, 1, 3, 2});
  auto up = call("aten::sort.default", {tv(x)});
  check(up[0].tensor, DType::Float32, {5}, {1, 2, 3, 3, kNaN});
  check_ints(up[1].tensor, {5}, {2, 4, 0, 3, 1});
  auto down = call("aten::sort.stable", {tv(x), bv(true), iv(0), bv(true)});
  check(down[0].tensor, DType::Float32, {5}, {kNaN, 3, 3, 2, 1});
  check_ints(down[1].tensor, {5}, {1, 0, 3, 4, 2});
  check_ints(call1("aten::argsort.default", {tv(make({2, 2}, {2, 1, 0, 3})), iv(0)}), {2, 2}, {1, 0, 0, 1});

  Tensor y = make({2, 4}, {1, 5, 3, 5, 4, 2, 8, 0});
  auto top = call("aten::topk.default", {tv(y), iv(2)});
  check(top[0].tensor, DType::Float32, {2, 2}, {5, 5, 8, 4});
  check_ints(top[1].tensor, {2, 2}, {1, 3, 2, 0});
  auto low = call("aten::topk.default", {tv(y), iv(1), iv(0), bv(false)});
  check(low[0].tensor, DType::Float32, {1, 4}, {1, 2, 3, 0});
  check_ints(low[1].tensor, {1, 4}, {0, 1, 0, 1});
  CHECK_THROWS_AS(call("aten::topk.default", {tv(y), iv(5)}), Error);
}

TEST_CASE("softmax family: stable, dims, dtype handling, masked rows", "[reductions]") {
  Tensor x = make({2, 2}, {1000, 1000, 0, std::log(3.0)});
  check(call1("aten::softmax.int", {tv(x), iv(1)}), DType::Float32, {2, 2}, {0.5, 0.5, 0.25, 0.75});
  check(call1("aten::_log_softmax.default", {tv(x), iv(-1), bv(false)}), DType::Float32, {2, 2},
        {-std::log(2.0), -std::log(2.0), std::log(0.25), std::log(0.75)}, 1e-5);
  check(call1("aten::_softmax.default", {tv(make({2, 2}, {0, 0, 0, 0})), iv(0), bv(false)}), DType::Float32, {2, 2},
        {0.5, 0.5, 0.5, 0.5});
  check(call1("aten::softmax.int", {tv(transpose_view(make({2, 2}, {0, 0, std::log(3.0), 0}), 0, 1)), iv(1)}),
        DType::Float32, {2, 2}, {0.25, 0.75, 0.5, 0.5});
  check(call1("aten::softmax.int", {tv(make({2}, {0, 0}, DType::Int64)), iv(0), dt(DType::Float64)}), DType::Float64,
        {2}, {0.5, 0.5});
  CHECK_THROWS_AS(call1("aten::softmax.int", {tv(make({2}, {0, 0}, DType::Int64)), iv(0)}), Error);
  check(call1("aten::softmax.int", {tv(make({2}, {-kInf, -kInf})), iv(0)}), DType::Float32, {2}, {kNaN, kNaN});
  check(call1("aten::_safe_softmax.default", {tv(make({2, 2}, {-kInf, -kInf, 0, 0})), iv(1)}), DType::Float32,
        {2, 2}, {0, 0, 0.5, 0.5});
  check(call1("aten::_softmax.default", {tv(make({2}, {0, 0}, DType::Float16)), iv(0), bv(true)}), DType::Float32,
        {2}, {0.5, 0.5});
  check(call1("aten::softmax.int", {tv(make({}, {7})), iv(0)}), DType::Float32, {}, {1});
}
