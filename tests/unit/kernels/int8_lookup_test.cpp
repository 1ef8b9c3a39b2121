// byte_lookup against its definition (out[i] = table[byte(in[i])]) on
// lengths around every vector width, and the operator on int8 and uint8
// values, tables of either dtype, non-contiguous input and bad tables.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "kernels/int8/byte_lookup.h"
#include "ops/op_compose.h"
#include "util/error.h"

using namespace pt2web;

TEST_CASE("byte_lookup reads the table at each value's bit pattern", "[kernels][int8]") {
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<uint8_t> table(256);
  for (auto& t : table) t = static_cast<uint8_t>(byte(rng));
  for (int64_t n : {0, 1, 15, 16, 17, 31, 64, 255, 256, 1000}) {
    std::vector<uint8_t> in(n), out(n + 1, 77);
    for (int64_t i = 0; i < n; ++i) in[i] = static_cast<uint8_t>(i < 256 ? i : byte(rng));
    byte_lookup(in.data(), n, table.data(), out.data());
    CHECK(out.back() == 77);
    for (int64_t i = 0; i < n; ++i) REQUIRE(out[i] == table[in[i]]);
  }
}

TEST_CASE("quantized_lookup maps int8 and uint8 values through a 256-entry table", "[ops][int8]") {
  Tensor values = Tensor::uninitialized(DType::Int8, {3, 4});
  auto* v = values.data<int8_t>();
  const int8_t raw[] = {-128, -1, 0, 1, 127, -5, 5, 100, -100, 42, -42, 7};
  for (int i = 0; i < 12; ++i) v[i] = raw[i];
  Tensor table = Tensor::uninitialized(DType::UInt8, {256});
  for (int b = 0; b < 256; ++b) table.data<uint8_t>()[b] = static_cast<uint8_t>(255 - b);
  // the transposed view reads the values column by column
  Tensor t = run_op1("aten::t.default", {arg(values)});
  Tensor out = run_op1("pt2web::quantized_lookup.default", {arg(t), arg(table)});
  REQUIRE(out.dtype() == DType::UInt8);
  REQUIRE(out.sizes() == Shape{4, 3});
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c)
      CHECK(out.data<uint8_t>()[r * 3 + c] == 255 - static_cast<uint8_t>(raw[c * 4 + r]));
  Tensor short_table = Tensor::uninitialized(DType::Int8, {255});
  CHECK_THROWS_AS(run_op1("pt2web::quantized_lookup.default", {arg(values), arg(short_table)}), Error);
  Tensor floats = Tensor::uninitialized(DType::Float32, {4});
  CHECK_THROWS_AS(run_op1("pt2web::quantized_lookup.default", {arg(floats), arg(table)}), Error);
}
