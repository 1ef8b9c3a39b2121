// bilinear, _trilinear, channel_shuffle, rrelu, native_dropout_backward,
// _softmax_backward_data, _batch_norm_with_update(_functional),
// embedding_renorm(_), grid_sampler and detach_ (composite_layers.cpp)
// against torch 2.6.
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

Tensor in1() { return make({2, 2}, {1.0, 2.0, 0.5, -1.0}); }
Tensor in2() { return make({2, 3}, {1.0, 0.0, -1.0, 2.0, 1.0, 0.5}); }

// arange(12).reshape(2, 2, 3) / 4 - 1
Tensor weight() {
  std::vector<double> v;
  for (int i = 0; i < 12; ++i) v.push_back(i / 4.0 - 1.0);
  return make({2, 2, 3}, v);
}

}  // namespace

TEST_CASE("bilinear and _trilinear", "[nn]") {
  check_values(call1("aten::bilinear", {tv(in1()), tv(in2()), tv(weight()), tv(make({2}, {0.5, -0.5}))}), {2, 2},
               {-1.0, -2.0, -0.625, -4.25});
  check_values(call1("aten::bilinear", {tv(make({2}, {1.0, 2.0})), tv(make({3}, {1.0, 0.0, -1.0})), tv(weight())}),
               {2}, {-1.5, -1.5});
  check_values(call1("aten::_trilinear", {tv(in1()), tv(weight()), tv(in2()), ints({1, 3}), ints({0}), ints({1, 2}),
                                          ints({2, 3})}),
               {2, 2}, {-1.5, -1.5, -1.125, -3.75});
  CHECK(error_code_of("aten::bilinear", {tv(in1()), tv(in1()), tv(weight())}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::bilinear", {tv(in1()), tv(make({3}, {0, 0, 0})), tv(weight())}) == ErrorCode::BadInput);
}

TEST_CASE("channel_shuffle: groups interleave, checks", "[nn]") {
  std::vector<double> v;
  for (int i = 0; i < 12; ++i) v.push_back(i);
  const Tensor x = make({1, 6, 2}, v);
  check_values(call1("aten::channel_shuffle", {tv(x), iv(3)}), {1, 6, 2}, {0, 1, 4, 5, 8, 9, 2, 3, 6, 7, 10, 11});
  CHECK(error_code_of("aten::channel_shuffle", {tv(x), iv(4)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::channel_shuffle", {tv(x), iv(0)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::channel_shuffle", {tv(make({2, 2}, {0, 0, 0, 0})), iv(1)}) == ErrorCode::BadInput);
}

TEST_CASE("rrelu: the mean slope when not training; training refused unless empty", "[nn]") {
  const Tensor r = make({4}, {-2.0, -0.5, 0.0, 1.5});
  check_values(call1("aten::rrelu", {tv(r)}), {4}, {-0.458333343, -0.114583336, 0.0, 1.5});
  check_values(call1("aten::rrelu", {tv(r), dv(0.2), dv(0.4)}), {4}, {-0.600000024, -0.150000006, 0.0, 1.5});
  const std::vector<Value> both = call("aten::rrelu_with_noise_functional", {tv(r), tv(make({4}, {7, 7, 7, 7}))});
  check_values(both[0].tensor, {4}, {-0.458333343, -0.114583336, 0.0, 1.5});
  check_values(both[1].tensor, {4}, {7, 7, 7, 7});
  check_values(call1("aten::rrelu", {tv(make({1, 0, 3}, {})), dv(0.0), dv(1.0), bv(true)}), {1, 0, 3}, {});
  CHECK(error_code_of("aten::rrelu", {tv(r), dv(0.1), dv(0.3), bv(true)}) == ErrorCode::Unsupported);
  CHECK(error_code_of("aten::rrelu", {tv(r), dv(0.5), dv(0.3)}) == ErrorCode::BadInput);
}

TEST_CASE("native_dropout_backward and _softmax_backward_data", "[nn]") {
  check_values(call1("aten::native_dropout_backward", {tv(make({3}, {1, 2, 3})), tv(make_bool({3}, {true, false, true})),
                                                       dv(2.0)}),
               {3}, {2.0, 0.0, 6.0});
  const Tensor b = call1("aten::native_dropout_backward", {tv(make_bool({2}, {true, true})),
                                                           tv(make_bool({2}, {true, false})), dv(2.0)});
  CHECK(b.dtype() == DType::Float32);
  check_values(b, {2}, {2.0, 0.0});
  const Tensor g = make({2, 3}, {1.0, 2.0, 3.0, 0.5, -1.0, 0.0});
  const Tensor o = call1("aten::_softmax", {tv(make({2, 3}, {0.1, 0.2, 0.3, 1.0, -1.0, 0.5})), iv(1), bv(false)});
  check_values(call1("aten::_softmax_backward_data", {tv(g), tv(o), iv(1), dt(DType::Float32)}), {2, 3},
               {-0.320616871, -0.022111479, 0.342728436, 0.166859612, -0.09396138, -0.072898239});
  check_values(call1("aten::_softmax_backward_data", {tv(g), tv(o), iv(0), dt(DType::Float32)}), {2, 3},
               {0.123953946, 0.469515502, 0.697064877, -0.05032422, -0.123283803, -0.383549154});
}

TEST_CASE("_batch_norm_with_update: training batch norm, running stats updated", "[nn]") {
  const Tensor x = make({2, 2, 2}, {1.0, 2.0, 3.0, 5.0, 0.0, -1.0, 4.0, 1.0});
  const Tensor w = make({2}, {1.0, 2.0});
  const Tensor bias = make({2}, {0.0, 1.0});
  const std::vector<double> normalized = {0.447211802, 1.341635466,  0.661939144, 3.366426468,
                                          -0.447211802, -1.341635466, 2.014182806, -2.04254818};
  Tensor rm = make({2}, {0.5, -0.5});
  Tensor rv = make({2}, {1.0, 2.0});
  const std::vector<Value> out = call("aten::_batch_norm_with_update", {tv(x), tv(w), tv(bias), tv(rm), tv(rv), dv(0.1),
                                                                        dv(1e-5)});
  REQUIRE(out.size() == 4);
  check_values(out[0].tensor, {2, 2, 2}, normalized, 1e-5);
  check_values(out[1].tensor, {2}, {0.5, 3.25});
  check_values(out[2].tensor, {2}, {0.894423604, 0.676121831}, 1e-5);
  CHECK(out[3].tensor.dtype() == DType::UInt8);
  CHECK(out[3].tensor.numel() == 0);
  check_values(rm, {2}, {0.5, -0.12499997});
  check_values(rv, {2}, {1.066666603, 2.091666698}, 1e-6);
  const Tensor rm2 = make({2}, {0.5, -0.5});
  const std::vector<Value> f = call("aten::_batch_norm_with_update_functional",
                                    {tv(x), tv(w), tv(bias), tv(rm2), tv(make({2}, {1.0, 2.0})), dv(0.1), dv(1e-5)});
  REQUIRE(f.size() == 6);
  check_values(f[0].tensor, {2, 2, 2}, normalized, 1e-5);
  CHECK(f[3].tensor.numel() == 0);
  check_values(f[4].tensor, {2}, {0.5, -0.12499997});
  check_values(f[5].tensor, {2}, {1.066666603, 2.091666698}, 1e-6);
  check_values(rm2, {2}, {0.5, -0.5});  // the functional form leaves its inputs alone
}

TEST_CASE("embedding_renorm(_): rows over max_norm scaled, in place or not", "[nn]") {
  const Tensor emb = make({3, 2}, {3.0, 4.0, 0.3, 0.4, 6.0, 8.0});
  check_values(call1("aten::embedding_renorm", {tv(emb), tv(make_i64({3}, {0, 1, 0})), dv(1.0), dv(2.0)}), {3, 2},
               {0.600000024, 0.800000012, 0.3, 0.4, 6.0, 8.0});
  check_values(emb, {3, 2}, {3.0, 4.0, 0.3, 0.4, 6.0, 8.0});
  const Tensor out = call1("aten::embedding_renorm_", {tv(emb), tv(make_i64({1}, {2})), dv(5.0), dv(1.0)});
  check_values(emb, {3, 2}, {3.0, 4.0, 0.3, 0.4, 2.142857075, 2.857142925});
  CHECK(out.storage() == emb.storage());
  CHECK(error_code_of("aten::embedding_renorm", {tv(emb), tv(make_i64({1}, {3})), dv(1.0), dv(2.0)}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::embedding_renorm", {tv(emb), tv(make({1}, {0})), dv(1.0), dv(2.0)}) == ErrorCode::BadInput);
}

TEST_CASE("grid_sampler picks the 2-d or 3-d sampler; detach_ returns its input", "[nn]") {
  const Tensor input = make({1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor grid = make({1, 1, 1, 2}, {0, 0});
  check_values(call1("aten::grid_sampler", {tv(input), tv(grid), iv(0), iv(0), bv(true)}), {1, 1, 1, 1}, {2.5});
  const Tensor input3 = make({1, 1, 1, 2, 2}, {1, 2, 3, 4});
  const Tensor grid3 = make({1, 1, 1, 1, 3}, {0, 0, 0});
  check_values(call1("aten::grid_sampler", {tv(input3), tv(grid3), iv(0), iv(0), bv(true)}), {1, 1, 1, 1, 1}, {2.5});
  CHECK(error_code_of("aten::grid_sampler", {tv(input), tv(grid3), iv(0), iv(0), bv(true)}) == ErrorCode::BadInput);
  const Tensor d = call1("aten::detach_", {tv(input)});
  CHECK(d.storage() == input.storage());
  check_values(d, {1, 1, 2, 2}, {1, 2, 3, 4});
}
