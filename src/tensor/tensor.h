// Tensor: a strided view of typed elements in a shared Storage.
//
// Ownership: a Tensor holds a shared_ptr to its Storage; copies of a Tensor
// are cheap and alias the same elements (like at::Tensor). Storage either owns
// its bytes or borrows them from an owner kept alive by a shared_ptr (for
// example the loaded archive, so weights are never copied).
//
// Errors: shape or dtype misuse throws Error(Internal) through PT2WEB_CHECK;
// callers validate shapes first (shape_numel beyond int64 is BadInput).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tensor/dtype.h"

namespace pt2web {

using Shape = std::vector<int64_t>;

class Storage {
 public:
  // Zero-filled (unless `zeroed` is false), 16-byte aligned storage of nbytes
  // bytes, from the thread's installed StorageAllocator (tensor/allocator.h)
  // or else the heap.
  static std::shared_ptr<Storage> allocate(size_t nbytes, bool zeroed = true);
  // Always from the heap.
  static std::shared_ptr<Storage> allocate_heap(size_t nbytes, bool zeroed = true);
  // Borrowed bytes: `owner` keeps them alive for as long as the storage lives.
  static std::shared_ptr<Storage> borrow(uint8_t* data, size_t nbytes,
                                         std::shared_ptr<const void> owner);

  uint8_t* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }

 private:
  uint8_t* data_ = nullptr;
  size_t nbytes_ = 0;
  std::shared_ptr<const void> owner_;
};

int64_t shape_numel(const Shape& sizes);
Shape contiguous_strides(const Shape& sizes);
std::string shape_to_string(const Shape& sizes);  // "[2, 3]"

class Tensor {
 public:
  Tensor() = default;  // undefined tensor (None)
  Tensor(std::shared_ptr<Storage> storage, DType dtype, Shape sizes, Shape strides,
         int64_t storage_offset);

  // A new contiguous tensor, zero-filled.
  static Tensor empty(DType dtype, const Shape& sizes);
  // A new contiguous tensor with unspecified contents, for a kernel that
  // writes every element (saves the zero-filling pass).
  static Tensor uninitialized(DType dtype, const Shape& sizes);
  // A 0-d tensor holding one value converted to dtype.
  static Tensor scalar(DType dtype, double value);

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Shape& sizes() const { return sizes_; }
  const Shape& strides() const { return strides_; }
  int64_t storage_offset() const { return offset_; }
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return shape_numel(sizes_); }
  int64_t size(int64_t d) const;  // negative d counts from the end
  size_t nbytes() const { return static_cast<size_t>(numel()) * element_size(dtype_); }
  const std::shared_ptr<Storage>& storage() const { return storage_; }

  bool is_contiguous() const;

  // Pointer to the first element (storage data + offset). The element type
  // must match dtype(); see tensor/elements.h for typed access.
  void* raw_data() const;
  template <typename T>
  T* data() const {
    return static_cast<T*>(raw_data());
  }

  // Same storage, new geometry (no checks beyond the storage bounds).
  Tensor as_strided(const Shape& sizes, const Shape& strides, int64_t storage_offset) const;
  // This tensor if contiguous, otherwise a contiguous copy.
  Tensor contiguous() const;
  // A contiguous copy that owns new storage.
  Tensor clone() const;
  // A contiguous copy converted to dtype (this tensor itself if already so
  // and contiguous, unless force_copy).
  Tensor to(DType dtype, bool force_copy = false) const;
  // Copies src into this tensor elementwise, converting dtype and
  // broadcasting src to this tensor's shape.
  void copy_from(const Tensor& src) const;
  // Reads element i (in row-major order of the logical shape) as double.
  double item_as_double(int64_t flat_index = 0) const;
  int64_t item_as_int(int64_t flat_index = 0) const;

 private:
  std::shared_ptr<Storage> storage_;
  DType dtype_ = DType::Float32;
  Shape sizes_;
  Shape strides_;
  int64_t offset_ = 0;
};

}  // namespace pt2web
