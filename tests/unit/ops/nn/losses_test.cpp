// Elementwise losses (losses.cpp) against torch 2.6: every reduction, the
// beta/delta/margin/log_target/full/pos_weight options and the errors.
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor xs() { return make({2, 3}, {0.5, -1.5, 2.0, 3.0, 0.25, -0.75}); }
Tensor ys() { return make({2, 3}, {1.0, -1.0, 0.0, 0.5, 0.5, 2.0}); }
Tensor signs() { return make({2, 3}, {1, -1, 1, -1, 1, -1}); }

}  // namespace

TEST_CASE("l1_loss and mse_loss: none, mean and sum", "[nn][losses]") {
  check_values(call1("aten::l1_loss", {tv(xs()), tv(ys()), iv(0)}), {2, 3}, {0.5, 0.5, 2.0, 2.5, 0.25, 2.75});
  check_values(call1("aten::l1_loss", {tv(xs()), tv(ys())}), {}, {1.416666627});
  check_values(call1("aten::l1_loss", {tv(xs()), tv(ys()), iv(2)}), {}, {8.5});
  check_values(call1("aten::mse_loss", {tv(xs()), tv(ys()), iv(0)}), {2, 3}, {0.25, 0.25, 4.0, 6.25, 0.0625, 7.5625});
  check_values(call1("aten::mse_loss", {tv(xs()), tv(ys())}), {}, {3.0625});
  check_values(call1("aten::mse_loss", {tv(xs()), tv(ys()), iv(2)}), {}, {18.375});
  // Broadcasting target, float64 kept.
  const Tensor d = call1("aten::l1_loss", {tv(xs().to(DType::Float64)), tv(make(DType::Float64, {3}, {0, 0, 0})), iv(2)});
  CHECK(d.dtype() == DType::Float64);
  check_values(d, {}, {8.0});
}

TEST_CASE("smooth_l1_loss and huber_loss: beta, delta and their checks", "[nn][losses]") {
  check_values(call1("aten::smooth_l1_loss", {tv(xs()), tv(ys()), iv(0), dv(0.5)}), {2, 3},
               {0.25, 0.25, 1.75, 2.25, 0.0625, 2.5});
  check_values(call1("aten::smooth_l1_loss", {tv(xs()), tv(ys()), iv(2), dv(0.0)}), {}, {8.5});
  check_values(call1("aten::huber_loss", {tv(xs()), tv(ys()), iv(0), dv(0.7)}), {2, 3},
               {0.125, 0.125, 1.154999971, 1.504999995, 0.03125, 1.680000067});
  CHECK(error_code_of("aten::smooth_l1_loss", {tv(xs()), tv(ys()), iv(1), dv(-1.0)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::huber_loss", {tv(xs()), tv(ys()), iv(1), dv(0.0)}) == ErrorCode::BadInput);
}

TEST_CASE("soft_margin_loss, kl_div and poisson_nll_loss", "[nn][losses]") {
  check_values(call1("aten::soft_margin_loss", {tv(xs()), tv(signs()), iv(0)}), {2, 3},
               {0.474076986, 0.201413289, 0.126928017, 3.048587322, 0.575939417, 0.38687101});
  check_values(call1("aten::soft_margin_loss", {tv(xs()), tv(signs())}), {}, {0.802302659});
  const Tensor q = make({2, 3}, {0.2, 0.0, 0.5, 1.5, 0.3, 0.0});
  // xlogy makes a 0 target contribute exactly 0.
  check_values(call1("aten::kl_div", {tv(xs()), tv(q), iv(0)}), {2, 3},
               {-0.421887577, 0.0, -1.346573591, -3.891802311, -0.436191857, 0.0});
  check_values(call1("aten::kl_div", {tv(xs()), tv(ys()), iv(2), bv(true)}), {}, {16.153360367}, 1e-6);
  CHECK(error_code_of("aten::kl_div", {tv(xs().to(DType::Int64)), tv(ys())}) == ErrorCode::BadInput);
  check_values(call1("aten::poisson_nll_loss", {tv(xs()), tv(call1("aten::abs", {tv(ys())})), bv(true), bv(false),
                                                dv(1e-8), iv(0)}),
               {2, 3}, {1.148721218, 1.723130226, 7.389056206, 18.585536957, 1.159025431, 1.972366571}, 1e-6);
  // Stirling's term only where the target exceeds 1.
  const Tensor rate = make({2, 3}, {0.5, 1.5, 2.0, 3.0, 0.25, 0.75});
  const Tensor counts = make({2, 3}, {0.5, 2.0, 3.0, 1.0, 0.0, 4.0});
  check_values(call1("aten::poisson_nll_loss", {tv(rate), tv(counts), bv(false), bv(true), dv(1e-8), iv(0)}), {2, 3},
               {0.846573591, 1.340876341, 1.68464005, 1.901387691, 0.25, 5.057991505}, 1e-6);
}

TEST_CASE("binary_cross_entropy (with logits): clamped logs, weights, pos_weight", "[nn][losses]") {
  const Tensor prob = make({2, 3}, {0.2, 0.9, 0.0, 1.0, 0.5, 0.3});
  const Tensor target = make({2, 3}, {0.0, 1.0, 1.0, 0.0, 0.25, 1.0});
  const Tensor w = make({3}, {1.0, 2.0, 0.5});
  // log(0) is clamped to -100.
  check_values(call1("aten::binary_cross_entropy", {tv(prob), tv(target), none(), iv(0)}), {2, 3},
               {0.223143548, 0.105360545, 100.0, 100.0, 0.693147182, 1.203972816});
  check_values(call1("aten::binary_cross_entropy", {tv(prob), tv(target), tv(w), iv(1)}), {}, {25.403692245});
  CHECK(error_code_of("aten::binary_cross_entropy", {tv(make({1}, {1.5})), tv(make({1}, {1.0}))}) ==
        ErrorCode::BadInput);
  check_values(call1("aten::binary_cross_entropy_with_logits", {tv(xs()), tv(target), none(), none(), iv(0)}), {2, 3},
               {0.974076986, 1.701413274, 0.126928017, 3.048587322, 0.763439417, 1.13687098});
  check_values(call1("aten::binary_cross_entropy_with_logits",
                     {tv(xs()), tv(target), tv(w), tv(make({3}, {3.0, 0.5, 1.0})), iv(2)}),
               {}, {7.738871098});
}

TEST_CASE("hinge_embedding, margin_ranking and cosine_embedding losses", "[nn][losses]") {
  const Tensor t = make({2, 3}, {1, -1, 1, -1, -1, 1});
  check_values(call1("aten::hinge_embedding_loss", {tv(xs()), tv(t), dv(1.0), iv(0)}), {2, 3},
               {0.5, 2.5, 2.0, 0.0, 0.75, -0.75});
  check_values(call1("aten::hinge_embedding_loss", {tv(xs()), tv(t), dv(2.0)}), {}, {1.166666627});
  check_values(call1("aten::margin_ranking_loss", {tv(xs()), tv(ys()), tv(t), dv(0.5), iv(0)}), {2, 3},
               {1.0, 0.0, 0.0, 3.0, 0.25, 3.25});
  check_values(call1("aten::cosine_embedding_loss", {tv(xs()), tv(ys()), tv(make({2}, {1, -1})), dv(0.1), iv(0)}), {2},
               {0.445299804, 0.0});
  const Tensor x0 = make({3}, {0.5, -1.5, 2.0});
  const Tensor y0 = make({3}, {1.0, -1.0, 0.0});
  check_values(call1("aten::cosine_embedding_loss", {tv(x0), tv(y0), tv(make({}, {-1})), dv(-0.5), iv(0)}), {},
               {1.054700136});
  CHECK(error_code_of("aten::cosine_embedding_loss", {tv(xs()), tv(ys()), tv(make({}, {1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::cosine_embedding_loss", {tv(xs()), tv(ys()), tv(ys())}) == ErrorCode::BadInput);
}

TEST_CASE("triplet_margin_loss: p, swap and the rank check", "[nn][losses]") {
  const Tensor n = make({2, 3}, {0.0, 1.0, 1.0, 2.0, 2.0, 2.0});
  check_values(call1("aten::triplet_margin_loss", {tv(xs()), tv(ys()), tv(n), dv(1.0), dv(2.0), dv(1e-6), bv(false), iv(0)}),
               {2}, {0.382708311, 1.315371513});
  check_values(call1("aten::triplet_margin_loss", {tv(xs()), tv(ys()), tv(n), dv(1.0), dv(1.0), dv(1e-6), bv(true), iv(1)}),
               {}, {1.75});
  CHECK(error_code_of("aten::triplet_margin_loss", {tv(xs()), tv(ys()), tv(make({3}, {0, 0, 0}))}) == ErrorCode::BadInput);
}

TEST_CASE("elementwise losses: empty means, NaN refused by bce, promotion, float16", "[nn][losses]") {
  const Tensor empty = make({0, 3}, {});
  check_values(call1("aten::l1_loss", {tv(empty), tv(empty)}), {}, {kNaN});
  CHECK(error_code_of("aten::binary_cross_entropy", {tv(make({1}, {kNaN})), tv(make({1}, {1.0}))}) ==
        ErrorCode::BadInput);
  const Tensor mixed = call1("aten::smooth_l1_loss", {tv(make({2}, {1.0, 3.0}, DType::Float64)), tv(make_i64({2}, {0, 0}))});
  CHECK(mixed.dtype() == DType::Float64);
  check_values(mixed, {}, {1.5});
  const Tensor half = call1("aten::mse_loss", {tv(make({2}, {1.5, -2.25}, DType::Float16)),
                                               tv(make({2}, {0.5, 0.5}, DType::Float16))});
  CHECK(half.dtype() == DType::Float16);
  check_values(half, {}, {4.28125});
}
