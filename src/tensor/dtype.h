// Element types of tensors, with the names used by torch and by pt2web's API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pt2web {

enum class DType : uint8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Complex64,
  Complex128,
  UInt16,
  UInt32,
  UInt64,
  Float8E4M3FN,
  Float8E5M2,
};

size_t element_size(DType dtype);

// "float32", "int64", "bfloat16", ... (the names torch prints without "torch.").
const char* dtype_name(DType dtype);

// torch's short names used in printed graphs: "f32", "i64", "bf16", "b8".
const char* dtype_short_name(DType dtype);

// Parses dtype_name()'s names and the common aliases ("float", "long", "half").
// Throws Error(BadInput) for an unknown name.
DType dtype_from_name(const std::string& name);

// The ScalarType integers of the export schema (torch/_export/serde/schema.py),
// which differ from c10's. Throws Error(BadFile) for an unknown value.
DType dtype_from_serialized(int64_t value);

bool is_floating(DType dtype);  // float16, bfloat16, float32, float64, float8
bool is_complex(DType dtype);
bool is_integral(DType dtype);  // signed and unsigned integers, not bool

// Type promotion categories, ordered: bool < integral < floating < complex.
int promotion_category(DType dtype);

// torch.promote_types for two tensor dtypes.
DType promote_types(DType a, DType b);

}  // namespace pt2web
