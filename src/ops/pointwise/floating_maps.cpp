#include "ops/pointwise/floating_maps.h"

namespace pt2web {
namespace elementwise {

DType floating_dtype(const OpCall& c, std::initializer_list<const Operand*> operands, Precision precision) {
  DType dtype = to_floating(result_type_of(operands));
  check_kinds(c, dtype, Kinds::Floating);
  if (precision == Precision::Full && element_size(dtype) < 4) fail_not_implemented_for(c, dtype);
  return dtype;
}

DType common_floating_dtype(const OpCall& c, std::initializer_list<const Operand*> operands) {
  DType dtype = result_type_of(operands);
  check_kinds(c, dtype, Kinds::Floating);
  return dtype;
}

}  // namespace elementwise
}  // namespace pt2web
