// nll_loss_nd, cross_entropy_loss, multi_margin_loss and
// multilabel_margin_loss (class_losses.cpp) against torch 2.6.
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor xs() { return make({2, 3}, {0.5, -1.5, 2.0, 3.0, 0.25, -0.75}); }
Tensor class_weight() { return make({3}, {1.0, 2.0, 0.5}); }

// A [2, 3, 2, 2] input (arange / 10 - 1) and its [2, 2, 2] targets, -1 ignored.
Tensor input4d() {
  std::vector<double> v;
  for (int i = 0; i < 24; ++i) v.push_back(i / 10.0 - 1.0);
  return make({2, 3, 2, 2}, v);
}
Tensor target4d() { return make_i64({2, 2, 2}, {0, 1, 2, 1, 2, 2, 0, -1}); }

}  // namespace

TEST_CASE("nll_loss_nd: reductions, weights, ignore_index and every rank", "[nn][losses]") {
  const Tensor t = make_i64({2}, {2, 0});
  check_values(call1("aten::nll_loss_nd", {tv(xs()), tv(t), none(), iv(0)}), {2}, {-2.0, -3.0});
  check_values(call1("aten::nll_loss_nd", {tv(xs()), tv(t)}), {}, {-2.5});
  check_values(call1("aten::nll_loss_nd", {tv(xs()), tv(t), none(), iv(2)}), {}, {-5.0});
  // Mean divides by the weights of the kept targets; all ignored gives NaN.
  check_values(call1("aten::nll_loss_nd", {tv(xs()), tv(make_i64({2}, {1, -100})), tv(class_weight()), iv(1)}), {}, {1.5});
  check_values(call1("aten::nll_loss_nd", {tv(xs()), tv(make_i64({2}, {-100, -100}))}), {}, {kNaN});
  check_values(call1("aten::nll_loss_nd", {tv(make({3}, {0.5, -1.5, 2.0})), tv(make_i64({}, {1})), none(), iv(0)}), {},
               {1.5});
  check_values(call1("aten::nll_loss_nd", {tv(input4d()), tv(target4d()), tv(class_weight()), iv(0), iv(-1)}), {2, 2, 2},
               {1.0, 1.0, 0.0, 0.600000024, -0.5, -0.549999952, -0.399999976, 0.0});
  check_values(call1("aten::nll_loss_nd", {tv(input4d()), tv(target4d()), tv(class_weight()), iv(1), iv(-1)}), {},
               {0.153333351}, 1e-5);
  const Tensor x3 = call1("aten::reshape", {tv(input4d()), ints({2, 3, 4})});
  const Tensor t3 = call1("aten::reshape", {tv(target4d()), ints({2, 4})});
  check_values(call1("aten::nll_loss_nd", {tv(x3), tv(t3), none(), iv(2), iv(-1)}), {}, {-0.699999928}, 1e-5);
}

TEST_CASE("nll_loss_nd: the shape, target and weight errors", "[nn][losses]") {
  CHECK(error_code_of("aten::nll_loss_nd", {tv(xs()), tv(make_i64({2}, {3, 0}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::nll_loss_nd", {tv(xs()), tv(make_i64({3}, {0, 0, 0}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::nll_loss_nd", {tv(xs()), tv(make({2}, {0, 0}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::nll_loss_nd", {tv(xs()), tv(make_i64({2}, {0, 0})), tv(make({2}, {1, 1}))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::nll_loss_nd", {tv(input4d()), tv(make_i64({2, 2}, {0, 0, 0, 0}))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::nll_loss_nd", {tv(make({}, {1})), tv(make_i64({}, {0}))}) == ErrorCode::BadInput);
}

TEST_CASE("cross_entropy_loss: class indices, label smoothing, probabilities", "[nn][losses]") {
  const Tensor t = make_i64({2}, {2, 0});
  check_values(call1("aten::cross_entropy_loss", {tv(xs()), tv(t), none(), iv(0)}), {2}, {0.225802094, 0.083831474});
  check_values(call1("aten::cross_entropy_loss", {tv(xs()), tv(t)}), {}, {0.154816777});
  check_values(call1("aten::cross_entropy_loss", {tv(xs()), tv(t), none(), iv(2)}), {}, {0.309633553});
  check_values(call1("aten::cross_entropy_loss", {tv(xs()), tv(make_i64({2}, {2, -100})), tv(class_weight()), iv(1), iv(-100),
                                                  dv(0.2)}),
               {}, {1.419349313});
  check_values(call1("aten::cross_entropy_loss", {tv(xs()), tv(t), none(), iv(0), iv(-100), dv(0.3)}), {2},
               {0.725802064, 0.733831465});
  check_values(call1("aten::cross_entropy_loss", {tv(xs()), tv(t), tv(class_weight()), iv(2), iv(-100), dv(0.3)}), {},
               {1.833584428});
  const Tensor probs = make({2, 3}, {0.2, 0.3, 0.5, 1.0, 0.0, 0.0});
  check_values(call1("aten::cross_entropy_loss", {tv(xs()), tv(probs)}), {}, {0.829816818});
  check_values(call1("aten::cross_entropy_loss", {tv(xs()), tv(probs), tv(class_weight()), iv(0), iv(-100), dv(0.1)}), {2},
               {2.683059692, 0.331062019});
  check_values(call1("aten::cross_entropy_loss", {tv(input4d()), tv(target4d()), none(), iv(1), iv(-1)}), {},
               {1.094107628}, 1e-5);
  CHECK(error_code_of("aten::cross_entropy_loss", {tv(xs()), tv(t), none(), iv(1), iv(-100), dv(1.5)}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::cross_entropy_loss", {tv(xs()), tv(make_i64({2, 3}, {0, 0, 0, 0, 0, 0}))}) ==
        ErrorCode::BadInput);
}

TEST_CASE("multi_margin_loss and multilabel_margin_loss", "[nn][losses]") {
  const Tensor m = make({2, 3}, {0.5, 0.4, 0.1, 0.2, 0.9, 0.3});
  const Tensor t = make_i64({2}, {2, 0});
  check_values(call1("aten::multi_margin_loss", {tv(m), tv(t), iv(1), iv(1), none(), iv(0)}), {2},
               {0.899999917, 0.933333397});
  check_values(call1("aten::multi_margin_loss", {tv(m), tv(t), iv(2), dv(0.5), tv(class_weight()), iv(1)}), {},
               {0.420833349});
  // A 1-d target of one frame keeps its dim.
  check_values(call1("aten::multi_margin_loss", {tv(make({3}, {0.5, -1.5, 2.0})), tv(make_i64({1}, {1})), iv(1), iv(1),
                                                 none(), iv(0)}),
               {1}, {2.5});
  CHECK(error_code_of("aten::multi_margin_loss", {tv(m), tv(t), iv(3)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::multi_margin_loss", {tv(m), tv(make_i64({2}, {3, 0}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::multi_margin_loss", {tv(m.to(DType::Float16)), tv(t)}) == ErrorCode::BadInput);
  const Tensor labels = make_i64({2, 3}, {2, 0, -1, 1, -1, 0});
  check_values(call1("aten::multilabel_margin_loss", {tv(xs()), tv(labels), iv(0)}), {2}, {0.0, 1.25});
  check_values(call1("aten::multilabel_margin_loss", {tv(xs()), tv(labels)}), {}, {0.625});
  check_values(call1("aten::multilabel_margin_loss", {tv(make({3}, {0.5, -1.5, 2.0})), tv(make_i64({3}, {0, -1, 2})),
                                                      iv(0)}),
               {}, {0.833333313});
  CHECK(error_code_of("aten::multilabel_margin_loss", {tv(xs()), tv(make_i64({2}, {0, 1}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::multilabel_margin_loss", {tv(xs()), tv(make_i64({2, 3}, {3, 0, 0, 0, 0, 0}))}) ==
        ErrorCode::BadInput);
}

TEST_CASE("class losses on empty batches and NaN inputs", "[nn][losses]") {
  const Tensor empty = make({0, 3}, {});
  const Tensor no_targets = make_i64({0}, {});
  check_values(call1("aten::nll_loss_nd", {tv(empty), tv(no_targets)}), {}, {kNaN});
  check_values(call1("aten::nll_loss_nd", {tv(empty), tv(no_targets), none(), iv(2)}), {}, {0.0});
  check_values(call1("aten::nll_loss_nd", {tv(empty), tv(no_targets), none(), iv(0)}), {0}, {});
  check_values(call1("aten::cross_entropy_loss", {tv(empty), tv(no_targets)}), {}, {kNaN});
  check_values(call1("aten::cross_entropy_loss", {tv(empty), tv(empty)}), {}, {kNaN});
  check_values(call1("aten::multi_margin_loss", {tv(empty), tv(no_targets), iv(1), iv(1), none(), iv(0)}), {0}, {});
  check_values(call1("aten::multilabel_margin_loss", {tv(empty), tv(make_i64({0, 3}, {})), iv(0)}), {0}, {});
  check_values(call1("aten::nll_loss_nd", {tv(make({1, 2}, {kNaN, 1.0})), tv(make_i64({1}, {0}))}), {}, {kNaN});
}

TEST_CASE("nll_loss, nll_loss2d and their _forward overloads: rank checks and total_weight", "[nn][losses]") {
  const Tensor t = make_i64({2}, {2, -100});
  std::vector<Value> none_out = call("aten::nll_loss_forward", {tv(xs()), tv(t), none(), iv(0), iv(-100)});
  check_values(none_out[0].tensor, {2}, {-2.0, 0.0});
  check_values(none_out[1].tensor, {}, {0.0});  // left at 0 for a batch without reduction
  std::vector<Value> mean_out = call("aten::nll_loss_forward", {tv(xs()), tv(t), none(), iv(1), iv(-100)});
  check_values(mean_out[0].tensor, {}, {-2.0});
  check_values(mean_out[1].tensor, {}, {1.0});
  // One unbatched sample: scalar loss and its weight even without reduction.
  std::vector<Value> single = call("aten::nll_loss_forward", {tv(make({3}, {0.5, -1.5, 2.0})), tv(make_i64({}, {1})),
                                                              none(), iv(0), iv(-100)});
  check_values(single[0].tensor, {}, {1.5});
  check_values(single[1].tensor, {}, {1.0});
  std::vector<Value> ignored = call("aten::nll_loss_forward", {tv(xs()), tv(make_i64({2}, {-100, -100})),
                                                               tv(make({3}, {1, 2, 3})), iv(1), iv(-100)});
  check_values(ignored[0].tensor, {}, {kNaN});
  check_values(ignored[1].tensor, {}, {0.0});
  std::vector<double> v;
  for (int i = 0; i < 24; ++i) v.push_back(i);
  const Tensor x4 = make({2, 3, 2, 2}, v);
  std::vector<Value> spatial = call("aten::nll_loss2d_forward", {tv(x4), tv(target4d()), none(), iv(1), iv(-1)});
  check_values(spatial[0].tensor, {}, {-11.0});
  check_values(spatial[1].tensor, {}, {7.0});
  check_values(call1("aten::nll_loss2d", {tv(x4), tv(target4d()), none(), iv(0), iv(-1)}), {2, 2, 2},
               {0, -5, -10, -7, -20, -21, -14, 0});
  check_values(call1("aten::nll_loss", {tv(xs()), tv(t)}), {}, {-2.0});
  CHECK(error_code_of("aten::nll_loss", {tv(x4), tv(target4d())}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::nll_loss2d", {tv(xs()), tv(t)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::nll_loss2d", {tv(x4), tv(make_i64({2, 2}, {0, 0, 0, 0}))}) == ErrorCode::BadInput);
}

TEST_CASE("nll_loss_nd and cross_entropy_loss read non-contiguous inputs", "[nn][losses]") {
  const Tensor stored = make({3, 2}, {0.5, 3.0, -1.5, 0.25, 2.0, -0.75});
  const Tensor x = call1("aten::t", {tv(stored)});  // [2, 3], column-major
  REQUIRE_FALSE(x.is_contiguous());
  const Tensor t = make_i64({2}, {2, 0});
  check_values(call1("aten::nll_loss_nd", {tv(x), tv(t), none(), iv(0)}), {2}, {-2.0, -3.0});
  check_values(call1("aten::cross_entropy_loss", {tv(x), tv(t), none(), iv(0)}), {2}, {0.225802094, 0.083831474});
}
