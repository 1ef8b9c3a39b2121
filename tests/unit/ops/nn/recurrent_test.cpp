// lstm / gru / rnn_tanh / rnn_relu (.input) and the single-step cells, on
// hidden size 1 so every expected value is a short formula from the gate
// equations in torch's documentation.
#include <catch2/catch.hpp>

#include <cmath>

#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

// (has_biases, num_layers, dropout, train, bidirectional, batch_first)
std::vector<Value> flags(bool biases, int64_t layers, bool bidirectional, bool batch_first) {
  return {Value::from_bool(biases), Value::from_int(layers), Value::from_double(0.0), Value::from_bool(false),
          Value::from_bool(bidirectional), Value::from_bool(batch_first)};
}

std::vector<Value> args_with(std::vector<Value> head, const std::vector<Value>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

double sig(double x) { return 1 / (1 + std::exp(-x)); }

}  // namespace

TEST_CASE("rnn_tanh follows h_t = tanh(W_ih x + W_hh h)", "[recurrent]") {
  Tensor x = make({2, 1, 1}, {0.5, -1});  // [T, B, input]
  Tensor h0 = make({1, 1, 1}, {0});
  std::vector<Tensor> params = {make({1, 1}, {1}), make({1, 1}, {1})};
  auto out = call("aten::rnn_tanh.input", args_with({tv(x), tv(h0), tl(params)}, flags(false, 1, false, false)));
  const double h1 = std::tanh(0.5), h2 = std::tanh(-1 + h1);
  check_values(out[0].tensor, {2, 1, 1}, {h1, h2});
  check_values(out[1].tensor, {1, 1, 1}, {h2});
}

TEST_CASE("rnn_relu clamps at zero and adds both biases", "[recurrent]") {
  Tensor x = make({2, 1, 1}, {0.5, -3});
  Tensor h0 = make({1, 1, 1}, {0.25});
  std::vector<Tensor> params = {make({1, 1}, {1}), make({1, 1}, {2}), make({1}, {0.1}), make({1}, {0.2})};
  auto out = call("aten::rnn_relu.input", args_with({tv(x), tv(h0), tl(params)}, flags(true, 1, false, false)));
  const double h1 = 0.5 + 2 * 0.25 + 0.3;  // 1.3
  check_values(out[0].tensor, {2, 1, 1}, {h1, 0});
}

TEST_CASE("lstm gates are i, f, g, o in that order", "[recurrent]") {
  // Zero weights: every gate is its bias sum.
  const double bi = 0.1, bf = -0.2, bg = 0.3, bo = 0.4, c0 = 0.5;
  Tensor x = make({1, 1, 1}, {7});
  std::vector<Tensor> params = {make({4, 1}, {0, 0, 0, 0}), make({4, 1}, {0, 0, 0, 0}),
                                make({4}, {bi, bf, bg, bo}), make({4}, {0, 0, 0, 0})};
  auto out = call("aten::lstm.input", args_with({tv(x), tl({make({1, 1, 1}, {0}), make({1, 1, 1}, {c0})}), tl(params)},
                                                flags(true, 1, false, false)));
  const double c1 = sig(bf) * c0 + sig(bi) * std::tanh(bg), h1 = sig(bo) * std::tanh(c1);
  check_values(out[0].tensor, {1, 1, 1}, {h1});
  check_values(out[1].tensor, {1, 1, 1}, {h1});
  check_values(out[2].tensor, {1, 1, 1}, {c1});
}

TEST_CASE("lstm with proj_size projects h through w_hr", "[recurrent]") {
  // hidden 1, proj 1 would not be detectable; use hidden 2, proj 1.
  Tensor x = make({1, 1, 1}, {0});
  std::vector<double> zeros8(8, 0.0);
  Tensor w_ih = make({8, 1}, zeros8);
  Tensor w_hh = make({8, 1}, zeros8);
  // gate biases [i i f f g g o o]
  Tensor b_ih = make({8}, {0, 0, 0, 0, 1, -1, 0, 0});
  Tensor b_hh = make({8}, zeros8);
  Tensor w_hr = make({1, 2}, {2, 3});
  auto out = call("aten::lstm.input",
                  args_with({tv(x), tl({make({1, 1, 1}, {0}), make({1, 1, 2}, {0, 0})}),
                             tl({w_ih, w_hh, b_ih, b_hh, w_hr})},
                            flags(true, 1, false, false)));
  const double c_a = 0.5 * std::tanh(1.0), c_b = 0.5 * std::tanh(-1.0);
  const double h = 2 * 0.5 * std::tanh(c_a) + 3 * 0.5 * std::tanh(c_b);
  check_values(out[0].tensor, {1, 1, 1}, {h});
  check_values(out[2].tensor, {1, 1, 2}, {c_a, c_b});
}

TEST_CASE("gru keeps b_hn inside the reset product", "[recurrent]") {
  const double br = 0.3, bz = -0.4, bin = 0.2, bhn = 0.5, h0 = 0.7;
  Tensor x = make({1, 1, 1}, {0});
  std::vector<Tensor> params = {make({3, 1}, {0, 0, 0}), make({3, 1}, {0, 0, 0}), make({3}, {br, bz, bin}),
                                make({3}, {0, 0, bhn})};
  auto out = call("aten::gru.input", args_with({tv(x), tv(make({1, 1, 1}, {h0})), tl(params)},
                                               flags(true, 1, false, false)));
  const double r = sig(br), z = sig(bz), n = std::tanh(bin + r * bhn);
  check_values(out[0].tensor, {1, 1, 1}, {(1 - z) * n + z * h0});
}

TEST_CASE("bidirectional layers concatenate features and stack h_n", "[recurrent]") {
  Tensor x = make({2, 1, 1}, {0.5, -1});
  Tensor h0 = make({2, 1, 1}, {0, 0});
  std::vector<Tensor> params = {make({1, 1}, {1}), make({1, 1}, {1}), make({1, 1}, {1}), make({1, 1}, {1})};
  auto out = call("aten::rnn_tanh.input", args_with({tv(x), tv(h0), tl(params)}, flags(false, 1, true, false)));
  const double f1 = std::tanh(0.5), f2 = std::tanh(-1 + f1);
  const double b2 = std::tanh(-1.0), b1 = std::tanh(0.5 + b2);  // the reverse pass starts at t = 1
  check_values(out[0].tensor, {2, 1, 2}, {f1, b1, f2, b2});
  check_values(out[1].tensor, {2, 1, 1}, {f2, b1});
}

TEST_CASE("batch_first, multiple layers and unbatched input", "[recurrent]") {
  // Two layers, identity input weights, no recurrence: layer 2 sees tanh(x).
  std::vector<Tensor> params = {make({1, 1}, {1}), make({1, 1}, {0}), make({1, 1}, {1}), make({1, 1}, {0})};
  Tensor x = make({2, 1, 1}, {0.5, -1});  // [B = 2, T = 1, input] with batch_first
  auto out = call("aten::rnn_tanh.input", args_with({tv(x), tv(make({2, 2, 1}, {0, 0, 0, 0})), tl(params)},
                                                    flags(false, 2, false, true)));
  check_values(out[0].tensor, {2, 1, 1}, {std::tanh(std::tanh(0.5)), std::tanh(std::tanh(-1.0))});
  check_values(out[1].tensor, {2, 2, 1}, {std::tanh(0.5), std::tanh(-1.0), std::tanh(std::tanh(0.5)),
                                          std::tanh(std::tanh(-1.0))});
  // Unbatched: [T, input] with [layers, H] states.
  auto single = call("aten::rnn_tanh.input", args_with({tv(make({2, 1}, {0.5, -1})), tv(make({2, 1}, {0, 0})),
                                                        tl(params)},
                                                       flags(false, 2, false, false)));
  check_values(single[0].tensor, {2, 1}, {std::tanh(std::tanh(0.5)), std::tanh(std::tanh(-1.0))});
  check_values(single[1].tensor, {2, 1}, {std::tanh(-1.0), std::tanh(std::tanh(-1.0))});
}

TEST_CASE("recurrent ops keep float64 and bfloat16", "[recurrent]") {
  for (DType dtype : {DType::Float64, DType::BFloat16}) {
    Tensor x = make({1, 1, 1}, {0.5}, dtype);
    std::vector<Tensor> params = {make({1, 1}, {1}, dtype), make({1, 1}, {1}, dtype)};
    auto out = call("aten::rnn_tanh.input",
                    args_with({tv(x), tv(make({1, 1, 1}, {0}, dtype)), tl(params)}, flags(false, 1, false, false)));
    CHECK(out[0].tensor.dtype() == dtype);
    CHECK(out[0].tensor.item_as_double(0) == Approx(std::tanh(0.5)).margin(dtype == DType::BFloat16 ? 1e-2 : 1e-12));
  }
}

TEST_CASE("recurrent ops reject bad parameters and states", "[recurrent]") {
  Tensor x = make({1, 1, 1}, {0.5});
  std::vector<Tensor> params = {make({1, 1}, {1}), make({1, 1}, {1})};
  auto code = error_code_of;
  // has_biases promises four tensors per layer.
  CHECK(code("aten::rnn_tanh.input", args_with({tv(x), tv(make({1, 1, 1}, {0})), tl(params)},
                                               flags(true, 1, false, false))) == ErrorCode::BadInput);
  // h0 of the wrong batch size.
  CHECK(code("aten::rnn_tanh.input", args_with({tv(x), tv(make({1, 2, 1}, {0, 0})), tl(params)},
                                               flags(false, 1, false, false))) == ErrorCode::BadInput);
  // input feature size differs from w_ih's.
  CHECK(code("aten::rnn_tanh.input", args_with({tv(make({1, 1, 2}, {0, 0})), tv(make({1, 1, 1}, {0})), tl(params)},
                                               flags(false, 1, false, false))) == ErrorCode::BadInput);
  // Dropout between layers in training mode is random.
  std::vector<Value> train = {Value::from_bool(false), Value::from_int(2), Value::from_double(0.5),
                              Value::from_bool(true), Value::from_bool(false), Value::from_bool(false)};
  CHECK(code("aten::rnn_tanh.input", args_with({tv(x), tv(make({2, 1, 1}, {0, 0})), tl({params[0], params[1],
                                                                                        params[0], params[1]})},
                                               train)) == ErrorCode::Unsupported);
  CHECK(code("aten::lstm.input", args_with({tv(x), tl({make({1, 1, 1}, {0})}), tl(params)},
                                           flags(false, 1, false, false))) == ErrorCode::BadInput);
}

TEST_CASE("single-step cells match the layers", "[recurrent]") {
  const double bi = 0.1, bf = -0.2, bg = 0.3, bo = 0.4, c0 = 0.5;
  auto lstm = call("aten::lstm_cell.default", {tv(make({1, 1}, {0})), tl({make({1, 1}, {0}), make({1, 1}, {c0})}),
                                       tv(make({4, 1}, {0, 0, 0, 0})), tv(make({4, 1}, {0, 0, 0, 0})),
                                       tv(make({4}, {bi, bf, bg, bo})), tv(make({4}, {0, 0, 0, 0}))});
  const double c1 = sig(bf) * c0 + sig(bi) * std::tanh(bg);
  check_values(lstm[0].tensor, {1, 1}, {sig(bo) * std::tanh(c1)});
  check_values(lstm[1].tensor, {1, 1}, {c1});

  // gru_cell without biases on an unbatched input: r = z = sigmoid(0) = 1/2, n = tanh(x).
  auto gru = call("aten::gru_cell.default", {tv(make({1}, {0.5})), tv(make({1}, {0.25})), tv(make({3, 1}, {0, 0, 1})),
                                     tv(make({3, 1}, {0, 0, 0}))});
  check_values(gru[0].tensor, {1}, {0.5 * std::tanh(0.5) + 0.5 * 0.25});

  auto relu = call("aten::rnn_relu_cell.default", {tv(make({2, 1}, {1, -1})), tv(make({2, 1}, {0, 0})),
                                           tv(make({1, 1}, {2})), tv(make({1, 1}, {1}))});
  check_values(relu[0].tensor, {2, 1}, {2, 0});
  auto tanh = call("aten::rnn_tanh_cell.default", {tv(make({1, 1}, {1})), tv(make({1, 1}, {1})), tv(make({1, 1}, {1})),
                                           tv(make({1, 1}, {1})), tv(make({1}, {-1})), tv(make({1}, {0}))});
  check_values(tanh[0].tensor, {1, 1}, {std::tanh(1.0)});
}

TEST_CASE("float32 lstm and gru match the float64 layers on wider states", "[recurrent]") {
  // Hidden sizes 6 and 13: whole four-lane groups of the float32 gate pass and
  // their tails; batch 3 (a pair of rows and one more in the hidden
  // product), two layers. The float64 path is the plain scalar reference.
  auto values = [](int64_t n, double scale, int seed) {
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = scale * std::sin(0.7 * static_cast<double>(i) + seed);
    return v;
  };
  for (int64_t H : {6, 13})
    for (bool lstm : {true, false}) {
      const int64_t T = 5, B = 3, in = 4, G = (lstm ? 4 : 3) * H;
      auto run = [&](DType dtype) {
        std::vector<Tensor> params;
        for (int64_t l = 0; l < 2; ++l) {
          const int64_t width = l == 0 ? in : H;
          params.push_back(make({G, width}, values(G * width, 0.4, 1 + static_cast<int>(l)), dtype));
          params.push_back(make({G, H}, values(G * H, 0.3, 3 + static_cast<int>(l)), dtype));
          params.push_back(make({G}, values(G, 0.2, 5 + static_cast<int>(l)), dtype));
          params.push_back(make({G}, values(G, 0.1, 7 + static_cast<int>(l)), dtype));
        }
        Tensor x = make({T, B, in}, values(T * B * in, 1.0, 9), dtype);
        Tensor h0 = make({2, B, H}, values(2 * B * H, 0.5, 11), dtype);
        Tensor c0 = make({2, B, H}, values(2 * B * H, 0.5, 13), dtype);
        auto out = lstm ? call("aten::lstm.input", args_with({tv(x), tl({h0, c0}), tl(params)}, flags(true, 2, false, false)))
                        : call("aten::gru.input", args_with({tv(x), tv(h0), tl(params)}, flags(true, 2, false, false)));
        return out[0].tensor.to(DType::Float64, true);
      };
      const Tensor got = run(DType::Float32), want = run(DType::Float64);
      INFO("H=" << H << (lstm ? " lstm" : " gru"));
      REQUIRE(got.numel() == T * B * H);
      for (int64_t i = 0; i < got.numel(); ++i)
        REQUIRE(got.data<double>()[i] == Approx(want.data<double>()[i]).margin(2e-6));
    }
}
