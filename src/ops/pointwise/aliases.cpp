// ATen's alias operators, which the TRAINING dialect keeps under their own
// names: divide, true_divide and subtract run the table's div and sub
// kernels on the same arguments; positive returns its input (refusing bool,
// as torch's unary `+`); prims::convert_element_type (left by some
// decompositions) is a dtype conversion into a new tensor.
#include "ops/elementwise.h"
#include "ops/pointwise/pointwise.h"
#include "ops/op_compose.h"

namespace pt2web {

namespace {

template <const char* Target>
void alias_of(OpCall& c) {
  forward_to(c, Target);
}

constexpr char kDivTensor[] = "aten::div.Tensor";
constexpr char kDivScalar[] = "aten::div.Scalar";
constexpr char kDivTensorMode[] = "aten::div.Tensor_mode";
constexpr char kDivScalarMode[] = "aten::div.Scalar_mode";
constexpr char kDivInPlaceTensor[] = "aten::div_.Tensor";
constexpr char kDivInPlaceScalar[] = "aten::div_.Scalar";
constexpr char kSubTensor[] = "aten::sub.Tensor";
constexpr char kSubScalar[] = "aten::sub.Scalar";
constexpr char kSubInPlaceTensor[] = "aten::sub_.Tensor";
constexpr char kSubInPlaceScalar[] = "aten::sub_.Scalar";

void positive_op(OpCall& c) {
  const Tensor& x = c.tensor(0);
  if (x.dtype() == DType::Bool)
    fail(ErrorCode::BadInput, c.where(), "The `+` operator, on a bool tensor is not supported.");
  c.push(x);
}

void convert_element_type_op(OpCall& c) {
  const std::optional<DType> dtype = c.optional_dtype(1);
  if (!dtype) fail(ErrorCode::BadInput, c.where(), "argument 'dtype' must be a dtype");
  c.push(c.tensor(0).to(*dtype, true));
}

}  // namespace

void register_aliases_ops(OpTable& t) {
  t.add("aten::divide.Tensor(Tensor self, Tensor other) -> Tensor", alias_of<kDivTensor>);
  t.add("aten::divide.Scalar(Tensor self, Scalar other) -> Tensor", alias_of<kDivScalar>);
  t.add("aten::divide.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor", alias_of<kDivTensorMode>);
  t.add("aten::divide.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor", alias_of<kDivScalarMode>);
  t.add("aten::divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", alias_of<kDivInPlaceTensor>);
  t.add("aten::divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", alias_of<kDivInPlaceScalar>);
  t.add("aten::true_divide.Tensor(Tensor self, Tensor other) -> Tensor", alias_of<kDivTensor>);
  t.add("aten::true_divide.Scalar(Tensor self, Scalar other) -> Tensor", alias_of<kDivScalar>);
  t.add("aten::true_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", alias_of<kDivInPlaceTensor>);
  t.add("aten::true_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", alias_of<kDivInPlaceScalar>);
  t.add("aten::subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", alias_of<kSubTensor>);
  t.add("aten::subtract.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", alias_of<kSubScalar>);
  t.add("aten::subtract_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
        alias_of<kSubInPlaceTensor>);
  t.add("aten::subtract_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)",
        alias_of<kSubInPlaceScalar>);
  t.add("aten::positive(Tensor(a) self) -> Tensor(a)", positive_op);
  t.add("prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor", convert_element_type_op);
}

}  // namespace pt2web
