#include "ops/quantized/widened_weights.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include "kernels/int8/widen.h"

namespace pt2web::quantized {

namespace {

WidenedWeight widen(const Tensor& weight, int64_t rows, int64_t cols, const std::vector<int32_t>& zero_points) {
  const Tensor w = weight.contiguous();
  WidenedWeight out;
  out.ld = cols + (cols & 1);
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
                             const std::vector<int32_t>& zero_points, bool fixed) {
  if (!fixed || !weight.is_contiguous()) return widen(weight, rows, cols, zero_points);
  Cache& c = cache();
  const std::shared_ptr<Storage>& storage = weight.storage();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    for (const Entry& e : c.entries)
      if (e.key == storage.get() && e.offset == weight.storage_offset() && e.rows == rows && e.cols == cols &&
          e.dtype == weight.dtype() && e.zero_points == zero_points && e.storage.lock() == storage)
        return e.widened;
  }
  Entry e;
  e.storage = storage;
  e.key = storage.get();
  e.offset = weight.storage_offset();
  e.rows = rows;
  e.cols = cols;
  e.dtype = weight.dtype();
  e.zero_points = zero_points;
  e.widened = widen(weight, rows, cols, zero_points);
  WidenedWeight result = e.widened;
  std::lock_guard<std::mutex> lock(c.mutex);
  c.entries.erase(std::remove_if(c.entries.begin(), c.entries.end(),
                                 [](const Entry& old) { return old.storage.expired(); }),
                  c.entries.end());
  c.entries.push_back(std::move(e));
  return result;
}

}  // namespace pt2web::quantized
