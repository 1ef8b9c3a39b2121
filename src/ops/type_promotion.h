// ATen's result-type rules for operators that mix tensors and numbers:
// dimensioned tensors decide first, then zero-dim tensors, then Python
// numbers ("wrapped numbers", which count as the default float32/int64/bool),
// and a lower group only wins when it is of a higher category
// (bool < integer < floating < complex).
#pragma once

#include <optional>

#include "ops/op_call.h"
#include "tensor/tensor.h"

namespace pt2web {

class ResultType {
 public:
  ResultType& add(const Tensor& t);
  ResultType& add(const Scalar& s);
  DType get() const;  // Float32 when nothing was added

 private:
  std::optional<DType> dim_, zero_, wrapped_;
};

DType result_type(const Tensor& a, const Tensor& b);
DType result_type(const Tensor& a, const Scalar& b);

// The dtype a number has as a tensor: bool, int64 or float32 (ATen's defaults).
DType scalar_default_dtype(const Scalar& s);

// Integer and bool inputs to "floating" ops (exp, sigmoid, div, ...) compute in float32.
inline DType to_floating(DType d) { return is_floating(d) || is_complex(d) ? d : DType::Float32; }

}  // namespace pt2web
