// Edge cases of order statistics, searching, unique, histograms, segment
// reductions and differences (reduction/order_stats.cpp, searchsorted.cpp,
// unique.cpp, histogram.cpp, segment_reduce.cpp, differences.cpp,
// composite_reductions.cpp). Expected values are small hand-checked ATen
// results.
#include <catch2/catch.hpp>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

TEST_CASE("kthvalue picks the k-th smallest with its index", "[order_stats]") {
  Tensor x = make({2, 3}, {3, 1, 2, 5, kNaN, 4});
  auto out = call("aten::kthvalue", {tv(x), iv(2), iv(1)});
  check_values(out[0].tensor, {2}, {2, 5});
  check_values(out[1].tensor, {2}, {2, 0});
  auto last = call("aten::kthvalue", {tv(x), iv(3), iv(-1), bv(true)});
  check_values(last[0].tensor, {2, 1}, {3, kNaN});  // NaN orders last
  CHECK(error_code_of("aten::kthvalue", {tv(x), iv(4), iv(1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::kthvalue", {tv(x), iv(0), iv(1)}) == ErrorCode::BadInput);
  // Ties: ATen's quickselect (median-of-three pivot, swaps from both ends) decides the position.
  auto tied = call("aten::kthvalue", {tv(make_i64({3}, {1, 1, 1})), iv(1)});
  check_values(tied[0].tensor, {}, {1});
  check_values(tied[1].tensor, {}, {1});
}

TEST_CASE("median.dim returns the lower middle value or the first NaN", "[order_stats]") {
  Tensor x = make({2, 4}, {4, 1, 3, 2, 1, kNaN, 2, kNaN});
  auto out = call("aten::median.dim", {tv(x), iv(1)});
  check_values(out[0].tensor, {2}, {2, kNaN});
  check_values(out[1].tensor, {2}, {3, 1});
  auto nan_ignoring = call("aten::nanmedian.dim", {tv(x), iv(1)});
  check_values(nan_ignoring[0].tensor, {2}, {2, 1});
  check_values(nan_ignoring[1].tensor, {2}, {3, 0});
  check_values(call1("aten::nanmedian", {tv(x)}), {}, {2});
  check_values(call1("aten::nanmedian", {tv(make({2}, {kNaN, kNaN}))}), {}, {kNaN});
  check_values(call1("aten::nanmedian", {tv(make({0}, {}))}), {}, {kNaN});
  CHECK(error_code_of("aten::median.dim", {tv(make({2, 0}, {})), iv(1)}) == ErrorCode::BadInput);
}

TEST_CASE("mode prefers the smallest of equally frequent values and reports its last position", "[order_stats]") {
  Tensor x = make_i64({2, 5}, {3, 1, 3, 1, 2, 7, 7, 7, 0, 0});
  auto out = call("aten::mode", {tv(x)});
  check_values(out[0].tensor, {2}, {1, 7});
  check_values(out[1].tensor, {2}, {3, 2});
  auto flags = call("aten::mode", {tv(make_bool({3}, {true, false, true}))});
  check_values(flags[0].tensor, {}, {1});
  check_values(flags[1].tensor, {}, {2});
  auto scalar = call("aten::mode", {tv(make({}, {4}))});
  check_values(scalar[0].tensor, {}, {4});
  check_values(call1("aten::msort", {tv(make({3, 1}, {2, kNaN, 1}))}), {3, 1}, {1, 2, kNaN});
}

TEST_CASE("searchsorted and bucketize follow ATen's left and right rules", "[searchsorted]") {
  Tensor seq = make({4}, {1, 3, 3, 5});
  Tensor v = make({5}, {0, 3, 4, 6, kNaN});
  check_values(call1("aten::searchsorted.Tensor", {tv(seq), tv(v)}), {5}, {0, 1, 3, 4, 4});
  Tensor right = call1("aten::searchsorted.Tensor", {tv(seq), tv(v), bv(false), bv(true)});
  check_values(right, {5}, {0, 3, 3, 4, 4});
  CHECK(right.dtype() == DType::Int64);
  Tensor sided = call1("aten::searchsorted.Tensor", {tv(seq), tv(v), bv(true), bv(false), sv("right")});
  CHECK(sided.dtype() == DType::Int32);
  check_values(sided, {5}, {0, 3, 3, 4, 4});
  CHECK(error_code_of("aten::searchsorted.Tensor", {tv(seq), tv(v), bv(false), bv(true), sv("left")}) ==
        ErrorCode::BadInput);
  // One sorted row per row of values, and a sorter permutation.
  Tensor rows = make({2, 2}, {1, 2, 10, 20});
  check_values(call1("aten::searchsorted.Tensor", {tv(rows), tv(make({2, 1}, {2, 15}))}), {2, 1}, {1, 1});
  Tensor unsorted = make({3}, {5, 1, 3});
  check_values(call1("aten::searchsorted.Tensor",
                     {tv(unsorted), tv(make({1}, {4})), bv(false), bv(false), none(), tv(make_i64({3}, {1, 2, 0}))}),
               {1}, {2});
  check_values(call1("aten::bucketize.Tensor", {tv(make_i64({3}, {1, 3, 9})), tv(seq), bv(false), bv(true)}), {3},
               {1, 3, 4});
  CHECK(error_code_of("aten::bucketize.Tensor", {tv(v), tv(rows)}) == ErrorCode::BadInput);
}

TEST_CASE("_unique2 sorts, counts and keeps NaNs apart", "[unique]") {
  Tensor x = make({2, 3}, {3, kNaN, 1, 3, kNaN, 2});
  auto out = call("aten::_unique2", {tv(x), bv(true), bv(true), bv(true)});
  check_values(out[0].tensor, {5}, {1, 2, 3, kNaN, kNaN});
  check_values(out[1].tensor, {2, 3}, {2, 3, 0, 2, 4, 1});
  check_values(out[2].tensor, {5}, {1, 1, 2, 1, 1});
  auto plain = call("aten::_unique2", {tv(make_bool({3}, {true, false, true}))});
  check_values(plain[0].tensor, {2}, {0, 1});
  CHECK(plain[1].tensor.sizes() == Shape{0});
  CHECK(plain[2].tensor.sizes() == Shape{0});
}

TEST_CASE("histc and histogram bin values with ATen's edges", "[histogram]") {
  Tensor x = make({6}, {0, 1, 1.5, 2, 3, 7});
  check_values(call1("aten::histc", {tv(x), iv(3), dv(0), dv(3)}), {3}, {1, 2, 2});  // 7 is outside
  check_values(call1("aten::histc", {tv(x), iv(2)}), {2}, {5, 1});  // range from the data
  std::vector<double> one_at_50(100, 0.0);
  one_at_50[50] = 1;  // a single value v spans [v - 1, v + 1]
  check_values(call1("aten::histc", {tv(make({}, {2}))}), {100}, one_at_50);
  auto h = call("aten::histogram.bin_ct", {tv(x), iv(2), doubles({0, 4}), none(), bv(true)});
  check_values(h[1].tensor, {3}, {0, 2, 4});
  check_values(h[0].tensor, {2}, {3.0 / 5 / 2, 2.0 / 5 / 2});
  auto e = call("aten::histogram.bins_tensor", {tv(x), tv(make({3}, {0, 1, 10}))});
  check_values(e[0].tensor, {2}, {1, 5});
  Tensor points = make({3, 2}, {0, 0, 1, 1, 0.5, 2});
  auto dd = call("aten::histogramdd", {tv(points), ints({2, 1})});
  check_values(dd[0].tensor, {2, 1}, {1, 2});
  CHECK(error_code_of("aten::histc", {tv(x), iv(2), dv(3), dv(1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::histogram.bin_ct", {tv(x), iv(0)}) == ErrorCode::BadInput);
}

TEST_CASE("segment_reduce reduces runs given by lengths or offsets", "[segment_reduce]") {
  Tensor data = make({5}, {1, 2, 3, kNaN, 5});
  Tensor lengths = make_i64({4}, {2, 0, 2, 1});
  check_values(call1("aten::segment_reduce", {tv(data), sv("sum"), tv(lengths)}), {4}, {3, 0, kNaN, 5});
  check_values(call1("aten::segment_reduce", {tv(data), sv("max"), tv(lengths)}), {4}, {2, -kInf, kNaN, 5});
  check_values(call1("aten::segment_reduce", {tv(data), sv("mean"), tv(lengths)}), {4}, {1.5, kNaN, kNaN, 5});
  Value initial = dv(10);
  check_values(call1("aten::segment_reduce",
                     {tv(data), sv("mean"), none(), none(), tv(make_i64({3}, {0, 2, 2})), iv(0), bv(false), initial}),
               {2}, {6.5, 10});
  CHECK(error_code_of("aten::segment_reduce", {tv(data), sv("sum"), tv(make_i64({2}, {1, 1}))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::segment_reduce", {tv(data), sv("median"), tv(lengths)}) == ErrorCode::BadInput);
}

TEST_CASE("diff, gradient and trapezoid", "[differences]") {
  Tensor x = make({4}, {1, 4, 9, 16});
  check_values(call1("aten::diff", {tv(x)}), {4 - 1}, {3, 5, 7});
  check_values(call1("aten::diff", {tv(x), iv(2), iv(0), tv(make({1}, {0}))}), {3}, {2, 2, 2});
  check_values(call1("aten::diff", {tv(x), iv(9)}), {0}, {});
  check_values(call1("aten::diff", {tv(make_bool({3}, {true, true, false}))}), {2}, {0, 1});
  auto g = call("aten::gradient.scalarint", {tv(x), dv(2.0)}).at(0).tensors;
  REQUIRE(g.size() == 1);
  check_values(g[0], {4}, {1.5, 2, 3, 3.5});
  auto g2 = call("aten::gradient.scalarint", {tv(x), none(), none(), iv(2)}).at(0).tensors;
  check_values(g2[0], {4}, {2, 4, 6, 8});
  auto gx = call("aten::gradient.tensorarray", {tv(x), tl({make({4}, {0, 1, 3, 4})}), ints({0})}).at(0).tensors;
  check_values(gx[0], {4}, {3, 17.0 / 6, 5.5, 7});  // uneven steps 1, 2, 1
  CHECK(error_code_of("aten::gradient.scalarint", {tv(make({1}, {1}))}) == ErrorCode::BadInput);
  check_values(call1("aten::trapezoid.dx", {tv(x), dv(0.5)}), {}, {0.5 * (1 + 16) / 2 + 0.5 * (4 + 9)});
  check_values(call1("aten::trapezoid.x", {tv(x), tv(make({4}, {0, 1, 3, 4}))}), {}, {2.5 + 13 + 12.5});
  check_values(call1("aten::cumulative_trapezoid.dx", {tv(x)}), {3}, {2.5, 9, 21.5});
  check_values(call1("aten::trapezoid.dx", {tv(make({2, 0}, {}))}), {2}, {0, 0});
}

TEST_CASE("nanmean, dist, renorm and max.other", "[composite_reductions]") {
  Tensor x = make({2, 2}, {1, kNaN, 3, 5});
  check_values(call1("aten::nanmean", {tv(x)}), {}, {3});
  check_values(call1("aten::nanmean", {tv(x), ints({1})}), {2}, {1, 4});
  CHECK(error_code_of("aten::nanmean", {tv(make_i64({1}, {1}))}) == ErrorCode::BadInput);
  check_values(call1("aten::dist", {tv(make({2}, {0, 0})), tv(make({2}, {3, 4}))}), {}, {5});
  Tensor r = call1("aten::renorm", {tv(make({2, 2}, {3, 4, 0.3, 0.4})), dv(2), iv(0), dv(1)});
  check_values(r, {2, 2}, {0.6, 0.8, 0.3, 0.4}, 1e-5);
  check_values(call1("aten::max.other", {tv(make({2}, {1, kNaN})), tv(make({2}, {2, 0}))}), {2}, {2, kNaN});
  check_values(call1("aten::min.other", {tv(make({2}, {1, 5})), tv(make({2}, {2, 0}))}), {2}, {1, 0});
}

TEST_CASE("unique_consecutive collapses runs, flat or over a dim", "[unique]") {
  auto flat = call("aten::unique_consecutive", {tv(make_i64({2, 3}, {1, 1, 2, 2, 1, 1})), bv(true), bv(true)});
  check_values(flat[0].tensor, {3}, {1, 2, 1});
  check_values(flat[1].tensor, {2, 3}, {0, 0, 1, 1, 2, 2});
  check_values(flat[2].tensor, {3}, {2, 2, 2});
  // Not asked for: empty inverse and counts. NaNs never equal each other.
  auto nans = call("aten::unique_consecutive", {tv(make({3}, {kNaN, kNaN, 1}))});
  check_values(nans[0].tensor, {3}, {kNaN, kNaN, 1});
  CHECK(nans[1].tensor.numel() == 0);
  CHECK(nans[2].tensor.numel() == 0);
  auto rows = call("aten::unique_consecutive", {tv(make_i64({3, 2}, {1, 2, 1, 2, 0, 2})), bv(false), bv(false), iv(0)});
  check_values(rows[0].tensor, {2, 2}, {1, 2, 0, 2});
  check_values(rows[1].tensor, {3}, {0, 0, 1});
  check_values(rows[2].tensor, {2}, {2, 1});
  // unique_dim sorts the slices first; columns [1, 1] and [2, 2] of a 2x3.
  auto cols = call("aten::unique_dim", {tv(make_i64({2, 3}, {2, 1, 2, 2, 1, 2})), iv(1)});
  check_values(cols[0].tensor, {2, 2}, {1, 2, 1, 2});
  check_values(cols[1].tensor, {3}, {1, 0, 1});
  CHECK(error_code_of("aten::unique_dim", {tv(make_i64({0, 0}, {})), iv(0)}) == ErrorCode::BadInput);
}

TEST_CASE("bincount counts or sums weights, with ATen's dtypes and checks", "[bincount]") {
  Tensor x = make_i64({5}, {0, 3, 3, 1, 3});
  Tensor counts = call1("aten::bincount", {tv(x)});
  CHECK(counts.dtype() == DType::Int64);
  check_values(counts, {4}, {1, 1, 0, 3});
  check_values(call1("aten::bincount", {tv(x), none(), iv(6)}), {6}, {1, 1, 0, 3, 0, 0});
  Tensor summed = call1("aten::bincount", {tv(x), tv(make({5}, {0.5, 1, 1, 2, 3}))});
  CHECK(summed.dtype() == DType::Float32);
  check_values(summed, {4}, {0.5, 2, 0, 5});
  CHECK(call1("aten::bincount", {tv(x), tv(x)}).dtype() == DType::Float64);  // integer weights sum in float64
  check_values(call1("aten::bincount", {tv(make_i64({0}, {})), none(), iv(2)}), {2}, {0, 0});
  CHECK(error_code_of("aten::bincount", {tv(make_i64({2}, {1, -1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::bincount", {tv(make_i64({1, 2}, {1, 1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::bincount", {tv(make({2}, {1, 1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::bincount", {tv(x), tv(make({2}, {1, 1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::bincount", {tv(x), none(), iv(-1)}) == ErrorCode::BadInput);
}

TEST_CASE("quantile interpolates between sorted neighbours; nanquantile skips NaN", "[quantile]") {
  Tensor x = make({2, 4}, {4, 1, 3, 2, 1, kNaN, 2, 6});
  check_values(call1("aten::quantile.scalar", {tv(x), dv(0.5), iv(1)}), {2}, {2.5, kNaN});
  check_values(call1("aten::nanquantile.scalar", {tv(x), dv(0.5), iv(1)}), {2}, {2.5, 2});
  check_values(call1("aten::nanquantile.scalar", {tv(x), dv(0.5), iv(1), bv(true), sv("lower")}), {2, 1}, {2, 2});
  check_values(call1("aten::nanquantile.scalar", {tv(x), dv(0.75), iv(1), bv(false), sv("higher")}), {2}, {4, 6});
  Tensor q = make({2}, {0, 1});
  check_values(call1("aten::nanquantile", {tv(x), tv(q)}), {2}, {1, 6});  // every element
  CHECK(error_code_of("aten::quantile.scalar", {tv(x), dv(1.5)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::quantile", {tv(x), tv(make({1}, {-0.1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::quantile.scalar", {tv(make_i64({2}, {1, 2})), dv(0.5)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::quantile.scalar", {tv(x), dv(0.5), none(), bv(false), sv("cubic")}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::quantile.scalar", {tv(make({0}, {})), dv(0.5)}) == ErrorCode::BadInput);
}
