// Elementwise set and tolerance tests with bool results: isclose (ATen's
// definition, |self - other| <= atol + |rtol * other| or equal, run through
// the table's comparison and arithmetic kernels so promotion and rounding
// are theirs) and isin (membership after promotion to the inputs' common
// dtype; NaN is never a member).
#include <algorithm>
#include <cmath>
#include <vector>

#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"
#include "ops/op_compose.h"

namespace pt2web {

namespace {

using namespace elementwise;

void isclose_op(OpCall& c) {
  const Tensor& self = c.tensor(0);
  const Tensor& other = c.tensor(1);
  const double rtol = c.double_arg(2), atol = c.double_arg(3);
  const bool equal_nan = c.bool_arg(4);
  if (self.dtype() != other.dtype())
    fail(ErrorCode::BadInput, c.where(), dtype_name(self.dtype()), " did not match ", dtype_name(other.dtype()));
  if (is_complex(self.dtype())) fail(ErrorCode::Unsupported, c.where(), "complex inputs are not supported");
  if (rtol < 0) fail(ErrorCode::BadInput, c.where(), "rtol must be greater than or equal to zero, but got ", rtol);
  if (atol < 0) fail(ErrorCode::BadInput, c.where(), "atol must be greater than or equal to zero, but got ", atol);

  Tensor close = run_op1("aten::eq.Tensor", {arg(self), arg(other)});
  if (equal_nan && is_floating(self.dtype())) {
    Tensor both_nan = run_op1("aten::logical_and.default", {arg(run_op1("aten::isnan.default", {arg(self)})),
                                                          arg(run_op1("aten::isnan.default", {arg(other)}))});
    close = run_op1("aten::logical_or.default", {arg(close), arg(both_nan)});
  }
  if (rtol == 0 && atol == 0) return c.push(close);

  // Bool inputs measure their distance in float32.
  const Tensor a = self.dtype() == DType::Bool ? self.to(DType::Float32) : self;
  const Tensor b = other.dtype() == DType::Bool ? other.to(DType::Float32) : other;
  Tensor scaled = run_op1("aten::mul.Scalar", {arg(b), Value::from_double(rtol)});
  Tensor allowed = run_op1("aten::add.Scalar", {arg(run_op1("aten::abs.default", {arg(scaled)})), Value::from_double(atol)});
  Tensor actual = run_op1("aten::abs.default", {arg(run_op1("aten::sub.Tensor", {arg(a), arg(b)}))});
  Tensor within = run_op1("aten::logical_and.default", {arg(run_op1("aten::isfinite.default", {arg(actual)})),
                                                      arg(run_op1("aten::le.Tensor", {arg(actual), arg(allowed)}))});
  c.push(run_op1("aten::logical_or.default", {arg(close), arg(within)}));
}

// isin(elements, test_elements, *, assume_unique, invert): a sorted copy of
// the test values, then one binary search per element.
void isin_op(OpCall& c) {
  Operand elements = operand(c, 0), tests = operand(c, 1);
  const bool invert = c.bool_arg(3);
  DType dtype = result_type_of({&elements, &tests});
  check_kinds(c, dtype, Kinds::All);
  Tensor values = kernel_input(elements, dtype).contiguous();
  Tensor pool = kernel_input(tests, dtype).contiguous();
  Tensor out = Tensor::empty(DType::Bool, elements.sizes());
  visit_dtype(opmath_dtype(dtype), [&](auto tag) {
    using M = typename decltype(tag)::type;
    std::vector<M> sorted;
    const M* p = pool.data<M>();
    for (int64_t i = 0; i < pool.numel(); ++i)
      if (!is_nan(p[i])) sorted.push_back(p[i]);
    std::sort(sorted.begin(), sorted.end());
    const M* v = values.data<M>();
    bool* o = out.data<bool>();
    for (int64_t i = 0; i < values.numel(); ++i)
      o[i] = (!is_nan(v[i]) && std::binary_search(sorted.begin(), sorted.end(), v[i])) != invert;
  });
  c.push(out);
}

}  // namespace

void register_closeness_ops(OpTable& t) {
  t.add("aten::isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor",
        isclose_op);
  t.add("aten::isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool "
        "invert=False) -> Tensor",
        isin_op);
  t.add("aten::isin.Tensor_Scalar(Tensor elements, Scalar test_element, *, bool assume_unique=False, bool "
        "invert=False) -> Tensor",
        isin_op);
  t.add("aten::isin.Scalar_Tensor(Scalar element, Tensor test_elements, *, bool assume_unique=False, bool "
        "invert=False) -> Tensor",
        isin_op);
}

}  // namespace pt2web
