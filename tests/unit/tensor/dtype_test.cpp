#include <catch2/catch.hpp>

#include "tensor/dtype.h"
#include "tensor/half.h"
#include "tensor/tensor.h"
#include "util/error.h"

using namespace pt2web;

TEST_CASE("dtype promotion follows torch.promote_types") {
  CHECK(promote_types(DType::Int64, DType::Float32) == DType::Float32);
  CHECK(promote_types(DType::UInt8, DType::Int8) == DType::Int16);
  CHECK(promote_types(DType::UInt8, DType::Int16) == DType::Int16);
  CHECK(promote_types(DType::Bool, DType::Int32) == DType::Int32);
  CHECK(promote_types(DType::Float16, DType::BFloat16) == DType::Float32);
  CHECK(promote_types(DType::BFloat16, DType::Float64) == DType::Float64);
  CHECK(promote_types(DType::Int32, DType::Int64) == DType::Int64);
}

TEST_CASE("dtype names round-trip and serialized values map") {
  for (DType d : {DType::Float32, DType::Int64, DType::BFloat16, DType::Bool})
    CHECK(dtype_from_name(dtype_name(d)) == d);
  CHECK(dtype_from_serialized(7) == DType::Float32);
  CHECK(dtype_from_serialized(13) == DType::BFloat16);
  CHECK_THROWS_AS(dtype_from_serialized(99), Error);
}

TEST_CASE("half and bfloat16 round to nearest even") {
  CHECK(static_cast<float>(BFloat16(1.0f)) == 1.0f);
  CHECK(static_cast<float>(Half(65504.0f)) == 65504.0f);
  CHECK(std::isinf(static_cast<float>(Half(1e6f))));
  CHECK(static_cast<float>(Half(5.9604645e-8f)) == 5.9604645e-8f);  // smallest subnormal
  CHECK(static_cast<float>(Half(0.333333f)) == Approx(0.33325195f));
}

TEST_CASE("tensor copies convert and broadcast") {
  Tensor a = Tensor::empty(DType::Float32, {2, 3});
  Tensor row = Tensor::empty(DType::Int64, {3});
  for (int i = 0; i < 3; ++i) row.data<int64_t>()[i] = i + 1;
  a.copy_from(row);
  CHECK(a.item_as_double(4) == 2.0);
  Tensor t = a.as_strided({3, 2}, {1, 3}, 0);
  CHECK_FALSE(t.is_contiguous());
  Tensor c = t.contiguous();
  CHECK(c.item_as_double(1) == 1.0);
  CHECK(c.item_as_double(2) == 2.0);
}
