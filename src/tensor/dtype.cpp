#include "tensor/dtype.h"

#include "util/error.h"

namespace pt2web {

namespace {

struct DTypeInfo {
  DType dtype;
  size_t size;
  const char* name;
  const char* short_name;
};

constexpr DTypeInfo kInfos[] = {
    {DType::Bool, 1, "bool", "b8"},
    {DType::UInt8, 1, "uint8", "u8"},
    {DType::Int8, 1, "int8", "i8"},
    {DType::Int16, 2, "int16", "i16"},
    {DType::Int32, 4, "int32", "i32"},
    {DType::Int64, 8, "int64", "i64"},
    {DType::Float16, 2, "float16", "f16"},
    {DType::BFloat16, 2, "bfloat16", "bf16"},
    {DType::Float32, 4, "float32", "f32"},
    {DType::Float64, 8, "float64", "f64"},
    {DType::Complex64, 8, "complex64", "c64"},
    {DType::Complex128, 16, "complex128", "c128"},
    {DType::UInt16, 2, "uint16", "u16"},
    {DType::UInt32, 4, "uint32", "u32"},
    {DType::UInt64, 8, "uint64", "u64"},
    {DType::Float8E4M3FN, 1, "float8_e4m3fn", "f8e4m3fn"},
    {DType::Float8E5M2, 1, "float8_e5m2", "f8e5m2"},
};

const DTypeInfo& info(DType dtype) { return kInfos[static_cast<size_t>(dtype)]; }

}  // namespace

size_t element_size(DType dtype) { return info(dtype).size; }
const char* dtype_name(DType dtype) { return info(dtype).name; }
const char* dtype_short_name(DType dtype) { return info(dtype).short_name; }

DType dtype_from_name(const std::string& raw) {
  std::string name = raw.rfind("torch.", 0) == 0 ? raw.substr(6) : raw;
  for (const auto& entry : kInfos)
    if (name == entry.name) return entry.dtype;
  struct Alias {
    const char* name;
    DType dtype;
  };
  static constexpr Alias kAliases[] = {
      {"float", DType::Float32},  {"double", DType::Float64}, {"half", DType::Float16},
      {"long", DType::Int64},     {"int", DType::Int32},      {"short", DType::Int16},
      {"cfloat", DType::Complex64}, {"cdouble", DType::Complex128},
  };
  for (const auto& alias : kAliases)
    if (name == alias.name) return alias.dtype;
  fail(ErrorCode::BadInput, "unknown dtype '", raw, "'");
}

DType dtype_from_serialized(int64_t value) {
  switch (value) {
    case 1: return DType::UInt8;
    case 2: return DType::Int8;
    case 3: return DType::Int16;
    case 4: return DType::Int32;
    case 5: return DType::Int64;
    case 6: return DType::Float16;
    case 7: return DType::Float32;
    case 8: return DType::Float64;
    case 10: return DType::Complex64;
    case 11: return DType::Complex128;
    case 12: return DType::Bool;
    case 13: return DType::BFloat16;
    case 28: return DType::UInt16;
    case 29: return DType::Float8E4M3FN;
    case 30: return DType::Float8E5M2;
    default: break;
  }
  fail(ErrorCode::BadFile, "unsupported serialized dtype ", value);
}

bool is_floating(DType d) {
  return d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 ||
         d == DType::Float64 || d == DType::Float8E4M3FN || d == DType::Float8E5M2;
}
bool is_complex(DType d) { return d == DType::Complex64 || d == DType::Complex128; }
bool is_integral(DType d) {
  return d == DType::UInt8 || d == DType::Int8 || d == DType::Int16 || d == DType::Int32 ||
         d == DType::Int64 || d == DType::UInt16 || d == DType::UInt32 || d == DType::UInt64;
}

int promotion_category(DType d) {
  if (d == DType::Bool) return 0;
  if (is_integral(d)) return 1;
  if (is_floating(d)) return 2;
  return 3;
}

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  int ca = promotion_category(a), cb = promotion_category(b);
  if (ca != cb) {
    DType hi = ca > cb ? a : b;
    DType lo = ca > cb ? b : a;
    if (is_complex(hi) && lo == DType::Float64 && hi == DType::Complex64) return DType::Complex128;
    return hi;
  }
  if (ca == 1) {
    // Signed/unsigned lattice of torch: uint8 with a signed type promotes to
    // the next signed type that holds both.
    auto rank = [](DType d) {
      switch (d) {
        case DType::Int8: return 1;
        case DType::UInt8: return 2;
        case DType::Int16: return 3;
        case DType::Int32: return 4;
        default: return 5;
      }
    };
    if ((a == DType::UInt8 && b == DType::Int8) || (a == DType::Int8 && b == DType::UInt8))
      return DType::Int16;
    return rank(a) >= rank(b) ? a : b;
  }
  if (ca == 2) {
    if ((a == DType::Float16 && b == DType::BFloat16) ||
        (a == DType::BFloat16 && b == DType::Float16))
      return DType::Float32;
    auto rank = [](DType d) {
      switch (d) {
        case DType::Float8E4M3FN:
        case DType::Float8E5M2: return 0;
        case DType::Float16:
        case DType::BFloat16: return 1;
        case DType::Float32: return 2;
        default: return 3;
      }
    };
    return rank(a) >= rank(b) ? a : b;
  }
  return (a == DType::Complex128 || b == DType::Complex128) ? DType::Complex128 : DType::Complex64;
}

}  // namespace pt2web
