#include "ops/quantized/widened_weights.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "kernels/int8/widen.h"

namespace pt2web::quantized {

namespace {

bool int8_in_place(const Tensor& weight, const std::vector<int32_t>& zero_points, bool allow_int8) {
  if (!allow_int8 || weight.dtype() != DType::Int8) return false;
  for (int32_t zp : zero_points)
    if (zp != 0) return false;
  return true;
}

WidenedWeight widen(const Tensor& weight, int64_t rows, int64_t cols, const std::vector<int32_t>& zero_points,
                    bool as_int8) {
  const Tensor w = weight.contiguous();
  WidenedWeight out;
  out.ld = cols + (cols & 1);
  out.int8 = as_int8;
  if (as_int8) {
    if (out.ld == cols) {
      out.rows = w;  // the weight's own bytes
      return out;
    }
    out.rows = Tensor::uninitialized(DType::Int8, {rows, out.ld});
    const int8_t* src = w.data<int8_t>();
    int8_t* dst = out.rows.data<int8_t>();
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t c = 0; c < cols; ++c) dst[r * out.ld + c] = src[r * cols + c];
      dst[r * out.ld + cols] = 0;
    }
    return out;
  }
  out.rows = Tensor::uninitialized(DType::Int16, {rows, out.ld});
  const bool per_row = zero_points.size() > 1;
  if (w.dtype() == DType::Int8)
    widen_rows(w.data<int8_t>(), rows, cols, cols, zero_points.data(), per_row, out.rows.data<int16_t>(), out.ld);
  else
    widen_rows(w.data<uint8_t>(), rows, cols, cols, zero_points.data(), per_row, out.rows.data<int16_t>(), out.ld);
  return out;
}

struct Entry {
  std::weak_ptr<Storage> storage;
  const Storage* key = nullptr;
  int64_t offset = 0, rows = 0, cols = 0;
  DType dtype = DType::Int8;
  bool int8 = false;
  std::vector<int32_t> zero_points;
  WidenedWeight widened;
};

struct Cache {
  std::mutex mutex;
  std::vector<Entry> entries;
};

Cache& cache() {
  static Cache* c = new Cache();  // never destroyed: kernels may run during static destruction
  return *c;
}

}  // namespace

WidenedWeight widened_weight(const Tensor& weight, int64_t rows, int64_t cols,
                             const std::vector<int32_t>& zero_points, bool fixed, bool allow_int8) {
  const bool as_int8 = int8_in_place(weight, zero_points, allow_int8);
  // nothing to keep when the rows are read in place
  if (!fixed || !weight.is_contiguous() || (as_int8 && cols % 2 == 0))
    return widen(weight, rows, cols, zero_points, as_int8);
  Cache& c = cache();
  const std::shared_ptr<Storage>& storage = weight.storage();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    for (const Entry& e : c.entries)
      if (e.key == storage.get() && e.offset == weight.storage_offset() && e.rows == rows && e.cols == cols &&
          e.dtype == weight.dtype() && e.int8 == as_int8 && e.zero_points == zero_points &&
          e.storage.lock() == storage)
        return e.widened;
  }
  Entry e;
  e.storage = storage;
  e.key = storage.get();
  e.offset = weight.storage_offset();
  e.rows = rows;
  e.cols = cols;
  e.dtype = weight.dtype();
  e.int8 = as_int8;
  e.zero_points = zero_points;
  e.widened = widen(weight, rows, cols, zero_points, as_int8);
  WidenedWeight result = e.widened;
  std::lock_guard<std::mutex> lock(c.mutex);
  c.entries.erase(std::remove_if(c.entries.begin(), c.entries.end(),
                                 [](const Entry& old) { return old.storage.expired(); }),
                  c.entries.end());
  c.entries.push_back(std::move(e));
  return result;
}

}  // namespace pt2web::quantized
