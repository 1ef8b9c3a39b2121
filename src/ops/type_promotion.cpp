#include "ops/type_promotion.h"

namespace pt2web {

namespace {

std::optional<DType> promote(std::optional<DType> a, DType b) { return a ? promote_types(*a, b) : b; }

// The lower group only matters when its category is higher.
std::optional<DType> combine(std::optional<DType> higher, std::optional<DType> lower) {
  if (!higher) return lower;
  if (!lower) return higher;
  if (is_complex(*higher) || is_floating(*higher)) return higher;
  if (*higher == DType::Bool || promotion_category(*lower) > promotion_category(*higher))
    return promote_types(*higher, *lower);
  return higher;
}

}  // namespace

DType scalar_default_dtype(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::Bool: return DType::Bool;
    case Scalar::Kind::Int: return DType::Int64;
    case Scalar::Kind::Double: return DType::Float32;
  }
  return DType::Float32;
}

ResultType& ResultType::add(const Tensor& t) {
  if (!t.defined()) return *this;
  if (t.dim() > 0) dim_ = promote(dim_, t.dtype());
  else zero_ = promote(zero_, t.dtype());
  return *this;
}

ResultType& ResultType::add(const Scalar& s) {
  wrapped_ = promote(wrapped_, scalar_default_dtype(s));
  return *this;
}

DType ResultType::get() const {
  auto r = combine(dim_, combine(zero_, wrapped_));
  return r ? *r : DType::Float32;
}

DType result_type(const Tensor& a, const Tensor& b) { return ResultType().add(a).add(b).get(); }
DType result_type(const Tensor& a, const Scalar& b) { return ResultType().add(a).add(b).get(); }

}  // namespace pt2web
