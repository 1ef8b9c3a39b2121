// A dim of a tensor that must have one. wrap_dim (ops/op_utils.h) lets a 0-d
// tensor take dim 0 or -1, as ATen's dim wrapping does; kernels that then
// index the tensor's sizes need a real dim, and ATen's size(dim) refuses a
// 0-d tensor. This is that refusal, once.
//
// Errors: Error(BadInput) "dimension specified as D but tensor has no
// dimensions" for a 0-d tensor, or wrap_dim's out-of-range message.
#pragma once

#include <cstdint>
#include <string>

#include "tensor/tensor.h"

namespace pt2web {

int64_t existing_dim(const Tensor& t, int64_t dim, const std::string& where);

}  // namespace pt2web
