#include "tensor/tensor.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

#include "tensor/allocator.h"
#include "tensor/complex_dispatch.h"
#include "tensor/storage_size.h"
#include "tensor/strided_loop.h"
#include "util/error.h"

namespace pt2web {

void fail_unsupported_dtype(DType dtype, const char* what) {
  fail(ErrorCode::Unsupported, "dtype ", dtype_name(dtype), " is not supported by ", what);
}

namespace {
thread_local StorageAllocator* current_allocator = nullptr;
thread_local const void* current_tag = nullptr;
}  // namespace

void set_allocation_tag(const void* tag) { current_tag = tag; }
const void* allocation_tag() { return current_tag; }

ScopedStorageAllocator::ScopedStorageAllocator(StorageAllocator* allocator) : previous_(current_allocator) {
  current_allocator = allocator;
}

ScopedStorageAllocator::~ScopedStorageAllocator() { current_allocator = previous_; }

std::shared_ptr<Storage> Storage::allocate(size_t nbytes, bool zeroed) {
  if (current_allocator != nullptr) return current_allocator->allocate(nbytes, zeroed);
  return allocate_heap(nbytes, zeroed);
}

std::shared_ptr<Storage> Storage::allocate_heap(size_t nbytes, bool zeroed) {
  auto storage = std::make_shared<Storage>();
  // The block's spare tail and alignment: tensor/storage_size.h.
  const size_t alignment = storage_alignment(nbytes);
  const size_t padded = storage_block_bytes(nbytes, alignment);
  auto* bytes = static_cast<uint8_t*>(std::aligned_alloc(alignment, padded));
  if (bytes == nullptr)
    fail(ErrorCode::OutOfMemory, "out of memory: allocating ", nbytes, " bytes (", padded, " with alignment) failed");
  if (zeroed) std::memset(bytes, 0, padded);
  else std::memset(bytes + nbytes, 0, padded - nbytes);  // the spare tail stays defined
  storage->data_ = bytes;
  storage->nbytes_ = nbytes;
  storage->owner_ = std::shared_ptr<const void>(bytes, [](const void* p) { std::free(const_cast<void*>(p)); });
  return storage;
}

std::shared_ptr<Storage> Storage::borrow(uint8_t* data, size_t nbytes,
                                         std::shared_ptr<const void> owner) {
  auto storage = std::make_shared<Storage>();
  storage->data_ = data;
  storage->nbytes_ = nbytes;
  storage->owner_ = std::move(owner);
  return storage;
}

int64_t shape_numel(const Shape& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes)
    if (__builtin_mul_overflow(n, s, &n))
      fail(ErrorCode::BadInput, "shape ", shape_to_string(sizes), " has more than 2^63 elements");
  return n;
}

Shape contiguous_strides(const Shape& sizes) {
  Shape strides(sizes.size());
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    // Past int64 only when another dimension is 0 (a tensor with elements
    // has strides under its numel): such strides are never used, so any
    // defined value serves. Saturate instead of overflowing.
    if (__builtin_mul_overflow(stride, sizes[i] > 1 ? sizes[i] : 1, &stride))
      stride = std::numeric_limits<int64_t>::max();
  }
  return strides;
}

std::string shape_to_string(const Shape& sizes) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < sizes.size(); ++i) out << (i ? ", " : "") << sizes[i];
  out << "]";
  return out.str();
}

Tensor::Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape sizes, Shape strides,
               int64_t storage_offset)
    : storage_(std::move(storage)),
      dtype_(dtype),
      sizes_(std::move(sizes)),
      strides_(std::move(strides)),
      offset_(storage_offset) {
  PT2WEB_CHECK(sizes_.size() == strides_.size(), "tensor sizes and strides differ in rank");
}

namespace {

Tensor new_contiguous(DType dtype, const Shape& sizes, bool zeroed) {
  for (int64_t s : sizes)
    if (s < 0) fail(ErrorCode::BadInput, "negative dimension in shape ", shape_to_string(sizes));
  auto storage = Storage::allocate(storage_bytes(shape_numel(sizes), dtype), zeroed);
  return Tensor(std::move(storage), dtype, sizes, contiguous_strides(sizes), 0);
}

}  // namespace

Tensor Tensor::empty(DType dtype, const Shape& sizes) { return new_contiguous(dtype, sizes, true); }

Tensor Tensor::uninitialized(DType dtype, const Shape& sizes) { return new_contiguous(dtype, sizes, false); }

Tensor Tensor::scalar(DType dtype, double value) {
  Tensor t = empty(dtype, {});
  visit_any_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    *t.data<T>() = convert_any<T>(value);
  });
  return t;
}

int64_t Tensor::size(int64_t d) const {
  int64_t rank = dim();
  int64_t wrapped = d < 0 ? d + rank : d;
  PT2WEB_CHECK(wrapped >= 0 && wrapped < rank, "dimension ", d, " out of range for rank ", rank);
  return sizes_[wrapped];
}

bool Tensor::is_contiguous() const {
  int64_t expected = 1;
  for (size_t i = sizes_.size(); i-- > 0;) {
    if (sizes_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= sizes_[i];
  }
  return true;
}

void* Tensor::raw_data() const {
  return storage_->data() + offset_ * static_cast<int64_t>(element_size(dtype_));
}

Tensor Tensor::as_strided(const Shape& sizes, const Shape& strides, int64_t storage_offset) const {
  return Tensor(storage_, dtype_, sizes, strides, storage_offset);
}

Tensor Tensor::contiguous() const { return is_contiguous() ? *this : clone(); }

Tensor Tensor::clone() const {
  Tensor out = empty(dtype_, sizes_);
  out.copy_from(*this);
  return out;
}

Tensor Tensor::to(DType dtype, bool force_copy) const {
  if (dtype == dtype_ && !force_copy) return contiguous();
  Tensor out = empty(dtype, sizes_);
  out.copy_from(*this);
  return out;
}

void Tensor::copy_from(const Tensor& src) const {
  Shape src_strides = broadcast_strides(src, sizes_);
  if (src.dtype() == dtype_ && is_contiguous() && src.is_contiguous() && src.sizes() == sizes_) {
    std::memmove(raw_data(), src.raw_data(), nbytes());
    return;
  }
  visit_any_dtype(dtype_, [&](auto out_tag) {
    using Out = typename decltype(out_tag)::type;
    visit_any_dtype(src.dtype(), [&](auto in_tag) {
      using In = typename decltype(in_tag)::type;
      Out* out = data<Out>();
      const In* in = src.data<In>();
      for_each_offsets<2>(sizes_, {&strides_, &src_strides}, [&](const std::array<int64_t, 2>& o) {
        out[o[0]] = convert_any<Out>(in[o[1]]);
      });
    });
  });
}

namespace {

// Offset (in elements, from the first element) of the flat_index-th element
// in row-major order of the logical shape.
// Where element `flat_index` (row-major) lives; Error(BadInput) past the end,
// so reading a value out of an empty tensor is refused, never a division by zero.
int64_t element_offset(const Shape& sizes, const Shape& strides, int64_t flat_index) {
  const int64_t numel = shape_numel(sizes);
  if (flat_index < 0 || flat_index >= numel)
    fail(ErrorCode::BadInput, "a tensor of ", numel, " elements ", shape_to_string(sizes), " has no element ", flat_index);
  int64_t offset = 0, rest = flat_index;
  for (size_t i = sizes.size(); i-- > 0;) {
    offset += (rest % sizes[i]) * strides[i];
    rest /= sizes[i];
  }
  return offset;
}

}  // namespace

double Tensor::item_as_double(int64_t flat_index) const {
  int64_t offset = element_offset(sizes_, strides_, flat_index);
  return visit_any_dtype(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return convert_any<double>(data<T>()[offset]);
  });
}

int64_t Tensor::item_as_int(int64_t flat_index) const {
  int64_t offset = element_offset(sizes_, strides_, flat_index);
  return visit_any_dtype(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return convert_any<int64_t>(data<T>()[offset]);
  });
}

Shape broadcast_strides(const Tensor& t, const Shape& sizes) {
  Shape out(sizes.size(), 0);
  int64_t shift = static_cast<int64_t>(sizes.size()) - t.dim();
  PT2WEB_CHECK(shift >= 0, "cannot broadcast ", shape_to_string(t.sizes()), " to ",
               shape_to_string(sizes));
  for (int64_t i = 0; i < t.dim(); ++i) {
    int64_t s = t.sizes()[i];
    PT2WEB_CHECK(s == sizes[i + shift] || s == 1, "cannot broadcast ",
                 shape_to_string(t.sizes()), " to ", shape_to_string(sizes));
    out[i + shift] = s == 1 ? 0 : t.strides()[i];
  }
  return out;
}

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      fail(ErrorCode::BadInput, "shapes ", shape_to_string(a), " and ", shape_to_string(b),
           " cannot be broadcast together (dimension ", i, ": ", da, " vs ", db, ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace pt2web
