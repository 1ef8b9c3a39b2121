// Random operators: results fixed by the program's seed, in range, in the
// dtype asked for; refused outside a run (no random source) and on bad
// arguments. The stream is pt2web's own, so nothing here compares with
// torch's values: only the properties every seed must have.
#include <algorithm>

#include <catch2/catch.hpp>

#include "ops/op_test.h"
#include "ops/views.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

std::vector<double> drawn(uint64_t seed, const std::string& name, std::vector<Value> args) {
  RandomRun run(seed);
  return values_of(call(name, std::move(args), &run).at(0).tensor);
}

}  // namespace

TEST_CASE("random operators repeat per seed and differ across seeds", "[ops][random]") {
  for (const char* name : {"aten::rand", "aten::randn"}) {
    INFO(name);
    CHECK(drawn(7, name, {ints({3, 5})}) == drawn(7, name, {ints({3, 5})}));
    CHECK(drawn(7, name, {ints({3, 5})}) != drawn(8, name, {ints({3, 5})}));
  }
}

TEST_CASE("rand is uniform in [0, 1) and randn has mean 0 and variance 1", "[ops][random]") {
  std::vector<double> u = drawn(1, "aten::rand", {ints({20000})});
  double sum = 0;
  for (double v : u) {
    CHECK((v >= 0 && v < 1));
    sum += v;
  }
  CHECK(sum / u.size() == Approx(0.5).margin(0.01));
  std::vector<double> n = drawn(1, "aten::randn", {ints({20000})});
  double mean = 0, square = 0;
  for (double v : n) mean += v / n.size();
  for (double v : n) square += (v - mean) * (v - mean) / n.size();
  CHECK(mean == Approx(0).margin(0.03));
  CHECK(square == Approx(1).margin(0.05));
}

TEST_CASE("randint draws integers in [low, high) as int64 unless asked", "[ops][random]") {
  RandomRun run(3);
  Tensor t = call("aten::randint.low", {iv(-2), iv(3), ints({2000})}, &run).at(0).tensor;
  CHECK(t.dtype() == DType::Int64);
  std::vector<int> seen(5, 0);
  for (double v : values_of(t)) {
    REQUIRE((v >= -2 && v < 3));
    ++seen[static_cast<int>(v) + 2];
  }
  for (int count : seen) CHECK(count > 300);
  CHECK(call("aten::randint", {iv(4), ints({2}), dt(DType::Int32)}, &run).at(0).tensor.dtype() == DType::Int32);
}

TEST_CASE("randperm permutes 0..n-1, int64 unless asked, exact in its dtype", "[ops][random]") {
  RandomRun run(11);
  Tensor t = call("aten::randperm", {iv(50)}, &run).at(0).tensor;
  CHECK(t.dtype() == DType::Int64);
  std::vector<double> values = values_of(t);
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 50; ++i) CHECK(sorted[i] == i);
  CHECK(values != sorted);  // 50! orders: the identity would mean no shuffle
  CHECK(call("aten::randperm", {iv(0)}, &run).at(0).tensor.numel() == 0);
  Tensor half = call("aten::randperm", {iv(2049), dt(DType::Float16)}, &run).at(0).tensor;
  CHECK(half.dtype() == DType::Float16);
  auto code = [&](std::vector<Value> args) {
    try {
      call("aten::randperm", std::move(args), &run);
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::Internal;
  };
  CHECK(code({iv(-1)}) == ErrorCode::BadInput);
  CHECK(code({iv(2050), dt(DType::Float16)}) == ErrorCode::BadInput);
  CHECK(code({iv(257), dt(DType::UInt8)}) == ErrorCode::BadInput);
  CHECK(code({iv(256), dt(DType::UInt8)}) == ErrorCode::Internal);  // fits: no error
  CHECK(code({iv(3), dt(DType::Bool)}) == ErrorCode::BadInput);
}

TEST_CASE("uniform_, normal_ and bernoulli draw in place and by probability", "[ops][random]") {
  RandomRun run(5);
  Tensor x = make({4, 3}, std::vector<double>(12, 0.0));
  Tensor out = call("aten::uniform_", {tv(transpose_view(x, 0, 1)), dv(2.0), dv(3.0)}, &run).at(0).tensor;
  for (double v : values_of(x)) CHECK((v >= 2 && v < 3));
  CHECK(out.numel() == 12);
  Tensor p = make({3}, {0.0, 1.0, 0.0});
  CHECK(values_of(call("aten::bernoulli", {tv(p)}, &run).at(0).tensor) == std::vector<double>{0, 1, 0});
  CHECK(values_of(call("aten::bernoulli.p", {tv(p), dv(1.0)}, &run).at(0).tensor) == std::vector<double>{1, 1, 1});
}

TEST_CASE("random operators refuse bad arguments and a call outside a run", "[ops][random]") {
  RandomRun run(0);
  auto code = [&](const std::string& name, std::vector<Value> args) {
    try {
      call(name, std::move(args), &run);
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::Internal;
  };
  CHECK(code("aten::rand", {ints({2}), dt(DType::Int64)}) == ErrorCode::BadInput);
  CHECK(code("aten::randint.low", {iv(3), iv(3), ints({2})}) == ErrorCode::BadInput);
  CHECK(code("aten::bernoulli.p", {tv(make({2}, {0, 0})), dv(1.5)}) == ErrorCode::BadInput);
  CHECK(code("aten::normal_", {tv(make({2}, {0, 0})), dv(0.0), dv(-1.0)}) == ErrorCode::BadInput);
  CHECK(code("aten::rand", {ints({-1})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::rand", {ints({2})}) == ErrorCode::Unsupported);
}
