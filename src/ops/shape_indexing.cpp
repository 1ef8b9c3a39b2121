#include "ops/shape_indexing.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/op_utils.h"
#include "tensor/storage_size.h"
#include "tensor/strided_extent.h"
#include "tensor/strided_loop.h"
#include "util/error.h"

namespace pt2web {

std::vector<int64_t> read_indices(const Tensor& index, bool allow_int32, const std::string& where) {
  std::vector<int64_t> out(static_cast<size_t>(index.numel()));
  auto read = [&](auto tag) {
    using I = typename decltype(tag)::type;
    const I* src = index.data<I>();
    size_t k = 0;
    for_each_offsets<1>(index.sizes(), {&index.strides()},
                        [&](const std::array<int64_t, 1>& o) { out[k++] = static_cast<int64_t>(src[o[0]]); });
  };
  if (index.dtype() == DType::Int64) {
    read(TypeTag<int64_t>{});
  } else if (index.dtype() == DType::Int32 && allow_int32) {
    read(TypeTag<int32_t>{});
  } else {
    fail(ErrorCode::BadInput, where, "expected an index tensor of dtype int64", allow_int32 ? " or int32" : "",
         ", but got ", dtype_name(index.dtype()));
  }
  return out;
}

int64_t wrap_index(int64_t index, int64_t size, int64_t dim, const std::string& where) {
  if (index < -size || index >= size)
    fail(ErrorCode::BadInput, where, "index ", index, " is out of bounds for dimension ", dim, " with size ", size);
  return index < 0 ? index + size : index;
}

std::vector<int64_t> identity_map(int64_t size) {
  std::vector<int64_t> map(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) map[i] = i;
  return map;
}

Tensor gather_by_dim_maps(const Tensor& in, const std::vector<std::vector<int64_t>>& maps, const Tensor& fill) {
  const size_t rank = maps.size();
  PT2WEB_CHECK(static_cast<int64_t>(rank) == in.dim(), "gather_by_dim_maps: one map per dimension");
  // Offsets are non-negative (strides of our inputs are), so one very negative
  // component marks a result element that takes the fill value.
  const int64_t kFill = -(int64_t(1) << 60);
  Shape out_shape(rank);
  std::vector<std::vector<int64_t>> offsets(rank);
  bool needs_fill = false;
  for (size_t d = 0; d < rank; ++d) {
    out_shape[d] = static_cast<int64_t>(maps[d].size());
    offsets[d].resize(maps[d].size());
    for (size_t i = 0; i < maps[d].size(); ++i) {
      int64_t m = maps[d][i];
      needs_fill |= m < 0;
      offsets[d][i] = m < 0 ? kFill : m * in.strides()[d];
    }
  }
  PT2WEB_CHECK(!needs_fill || fill.defined(), "gather_by_dim_maps: fill value missing");
  Tensor out = Tensor::empty(in.dtype(), out_shape);
  if (out.numel() == 0) return out;
  visit_element_size(in.dtype(), [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* src = in.data<U>();
    U* dst = out.data<U>();
    const U fill_value = fill.defined() ? *fill.data<U>() : U{};
    if (rank == 0) {
      dst[0] = src[0];
      return;
    }
    const std::vector<int64_t>& inner = offsets[rank - 1];
    std::vector<int64_t> pos(rank, 0);
    int64_t k = 0;
    while (true) {
      int64_t base = 0;
      for (size_t d = 0; d + 1 < rank; ++d) base += offsets[d][pos[d]];
      for (int64_t off : inner) {
        int64_t o = base + off;
        dst[k++] = o < 0 ? fill_value : src[o];
      }
      // Advance the odometer over the outer dimensions.
      size_t d = rank - 1;
      while (true) {
        if (d == 0) return;
        --d;
        if (++pos[d] < out_shape[d]) break;
        pos[d] = 0;
      }
    }
  });
  return out;
}

namespace {

// The representable range of an element type, as doubles.
template <typename T>
void value_range(double& lowest, double& highest) {
  if constexpr (std::is_same<T, Half>::value) {
    lowest = -65504.0;
    highest = 65504.0;
  } else if constexpr (std::is_same<T, BFloat16>::value) {
    lowest = -3.3895313892515355e38;
    highest = 3.3895313892515355e38;
  } else {
    lowest = static_cast<double>(std::numeric_limits<T>::lowest());
    highest = static_cast<double>(std::numeric_limits<T>::max());
  }
}

// ATen's c10::overflows<T>() for the value a Scalar holds.
template <typename T>
bool scalar_overflows(const Scalar& s) {
  if constexpr (std::is_same<T, bool>::value) {
    return false;
  } else {
    double lowest, highest;
    value_range<T>(lowest, highest);
    if (s.kind == Scalar::Kind::Bool) return false;
    if (s.kind == Scalar::Kind::Double) {
      if constexpr (is_floating_type_v<T>) {
        if (std::isinf(s.d) || std::isnan(s.d)) return false;
      } else {
        if (std::isnan(s.d)) return true;
      }
      return s.d < lowest || s.d > highest;
    }
    // Integers: compared exactly for 64-bit targets, as doubles otherwise.
    if constexpr (std::is_integral<T>::value && !std::is_signed<T>::value) {
      // Negative integers wrap into unsigned types when their magnitude fits.
      if (s.i < 0) return static_cast<uint64_t>(-(s.i + 1)) + 1 > static_cast<uint64_t>(std::numeric_limits<T>::max());
      return static_cast<uint64_t>(s.i) > static_cast<uint64_t>(std::numeric_limits<T>::max());
    } else if constexpr (std::is_same<T, int64_t>::value) {
      return false;
    } else {
      double v = static_cast<double>(s.i);
      return v < lowest || v > highest;
    }
  }
}

}  // namespace

Tensor checked_scalar_tensor(const Scalar& s, DType dtype, const std::string& where) {
  if (is_complex(dtype)) return Tensor::scalar(dtype, s.to_double());  // a real number, zero imaginary part
  Tensor t = Tensor::empty(dtype, {});
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (scalar_overflows<T>(s))
      fail(ErrorCode::BadInput, where, "value cannot be converted to type ", dtype_name(dtype), " without overflow");
    T* dst = t.data<T>();
    if (s.kind == Scalar::Kind::Double) {
      *dst = convert_element<T>(s.d);
    } else if constexpr (std::is_same<T, bool>::value) {
      *dst = s.i != 0;
    } else if constexpr (std::is_integral<T>::value) {
      *dst = static_cast<T>(s.i);  // wraps like a C++ integer conversion
    } else {
      *dst = convert_element<T>(s.i);
    }
  });
  return t;
}

void fill_scalar(const Tensor& t, const Scalar& s, const std::string& where) {
  t.copy_from(checked_scalar_tensor(s, t.dtype(), where));
}

Scalar tensor_to_scalar(const Tensor& t) {
  Scalar s;
  if (t.dtype() == DType::Bool) {
    s.kind = Scalar::Kind::Bool;
    s.i = t.item_as_int() != 0;
    s.d = static_cast<double>(s.i);
  } else if (is_floating(t.dtype())) {
    s.kind = Scalar::Kind::Double;
    s.d = t.item_as_double();
    s.i = convert_element<int64_t>(s.d);  // NaN and out-of-range values saturate, not UB
  } else {
    s.kind = Scalar::Kind::Int;
    s.i = t.item_as_int();
    s.d = static_cast<double>(s.i);
  }
  return s;
}

Tensor as_nonempty_dim(const Tensor& t) {
  return t.dim() == 0 ? t.as_strided({1}, {1}, t.storage_offset()) : t;
}

bool is_expandable_to(const Shape& from, const Shape& to) {
  if (from.size() > to.size()) return false;
  size_t shift = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != to[i + shift] && from[i] != 1) return false;
  return true;
}

namespace {

// Strides that step through every element exactly once, in some dim order.
bool non_overlapping_and_dense(const Tensor& x) {
  if (x.numel() == 0) return false;
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of dims with size > 1
  for (int64_t d = 0; d < x.dim(); ++d)
    if (x.sizes()[d] != 1) dims.emplace_back(x.strides()[d], x.sizes()[d]);
  std::sort(dims.begin(), dims.end());
  int64_t expected = 1;
  for (const auto& [stride, size] : dims) {
    if (stride != expected) return false;
    expected *= size;
  }
  return true;
}

}  // namespace

Tensor empty_like_preserving(const Tensor& x, DType dtype) {
  if (x.is_contiguous() || !non_overlapping_and_dense(x)) return Tensor::empty(dtype, x.sizes());
  auto storage = Storage::allocate(storage_bytes(x.numel(), dtype));
  return Tensor(std::move(storage), dtype, x.sizes(), x.strides(), 0);
}

Tensor checked_as_strided(const Tensor& x, const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                          int64_t offset, const std::string& where) {
  if (sizes.size() != strides.size())
    fail(ErrorCode::BadInput, where, "mismatch in length of strides and shape");
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0) fail(ErrorCode::BadInput, where, "Trying to create tensor with negative dimension ", sizes[i]);
    if (strides[i] < 0)
      fail(ErrorCode::BadInput, where, "as_strided: Negative strides are not supported at the moment, got strides: ",
           shape_to_string(strides));
  }
  if (offset < 0) fail(ErrorCode::BadInput, where, "Tensor: invalid storage offset ", offset);
  const int64_t item = static_cast<int64_t>(element_size(x.dtype()));
  const int64_t available = static_cast<int64_t>(x.storage()->nbytes()) / item;
  // Elements needed from the offset on; past int64 they cannot fit either.
  const std::optional<int64_t> extent = strided_extent(sizes, strides);
  if (!extent || (*extent > 0 && (offset > available || *extent > available - offset))) {
    int64_t required = 0;
    const bool fits = extent && !__builtin_add_overflow(offset, *extent, &required) &&
                      !__builtin_mul_overflow(required, item, &required);
    fail(ErrorCode::BadInput, where, "setStorage: sizes ", shape_to_string(sizes), ", strides ", shape_to_string(strides),
         ", storage offset ", offset, ", and itemsize ", item, " requiring a storage size of ",
         fits ? std::to_string(required) : std::string("more than 2^63"), " are out of bounds for storage of size ",
         x.storage()->nbytes());
  }
  return x.as_strided(sizes, strides, offset);
}

Tensor diagonal_view(const Tensor& x, int64_t offset, int64_t dim1, int64_t dim2, const std::string& where) {
  int64_t d1 = wrap_dim(dim1, x.dim()), d2 = wrap_dim(dim2, x.dim());
  if (d1 == d2) fail(ErrorCode::BadInput, where, "diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  int64_t n1 = x.sizes()[d1], n2 = x.sizes()[d2];
  int64_t length = std::max<int64_t>(offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2), 0);
  int64_t start = x.storage_offset();
  if (length > 0) start += offset >= 0 ? offset * x.strides()[d2] : -offset * x.strides()[d1];
  Shape sizes, strides;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != d1 && d != d2) {
      sizes.push_back(x.sizes()[d]);
      strides.push_back(x.strides()[d]);
    }
  sizes.push_back(length);
  strides.push_back(x.strides()[d1] + x.strides()[d2]);
  return x.as_strided(sizes, strides, start);
}

}  // namespace pt2web
