// Elementwise maps for ATen's "floating" pointwise ops, shared by the
// special-function and float-extras files of this folder: the inputs'
// common dtype, with integer and bool promoted to float32, is the compute
// and result dtype. Ops whose ATen kernels exist only for float32 and
// float64 (most torch.special functions) pass Precision::Full and reject
// float16/bfloat16 the way ATen does ("<op>" not implemented for 'Half').
//
// Errors: BadInput for dtypes the op rejects (complex, or 16-bit floats
// under Precision::Full).
#pragma once

#include <utility>

#include "ops/elementwise.h"

namespace pt2web {
namespace elementwise {

enum class Precision { Any, Full };

// The compute dtype of a floating op over `operands`, checked.
DType floating_dtype(const OpCall& c, std::initializer_list<const Operand*> operands, Precision precision);

// The operands' common dtype for ops that ATen defines on floating dtypes
// without promoting integers (hypot, igamma, logaddexp, nextafter):
// integer or bool operands are refused.
DType common_floating_dtype(const OpCall& c, std::initializer_list<const Operand*> operands);

// f(a, b) over two broadcast operands of a common floating dtype (no promotion).
template <typename F>
Tensor map_common_floating(const OpCall& c, const Operand& a, const Operand& b, F&& f) {
  DType dtype = common_floating_dtype(c, {&a, &b});
  return map_elements<Kinds::Floating, false>(dtype, std::forward<F>(f), kernel_input(a, dtype), kernel_input(b, dtype));
}

// f(x) over one operand.
template <typename F>
Tensor map_floating(const OpCall& c, const Operand& x, F&& f, Precision precision = Precision::Any) {
  DType dtype = floating_dtype(c, {&x}, precision);
  return map_elements<Kinds::Floating, false>(dtype, std::forward<F>(f), kernel_input(x, dtype));
}

// f(a, b) over two broadcast operands.
template <typename F>
Tensor map_floating(const OpCall& c, const Operand& a, const Operand& b, F&& f, Precision precision = Precision::Any) {
  DType dtype = floating_dtype(c, {&a, &b}, precision);
  return map_elements<Kinds::Floating, false>(dtype, std::forward<F>(f), kernel_input(a, dtype), kernel_input(b, dtype));
}

// Adapts a double -> double function to map_floating's element types.
template <double (*Fn)(double)>
struct InDouble {
  template <typename M>
  M operator()(M x) const {
    return static_cast<M>(Fn(static_cast<double>(x)));
  }
};

}  // namespace elementwise
}  // namespace pt2web
