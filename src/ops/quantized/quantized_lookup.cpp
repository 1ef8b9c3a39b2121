// pt2web::quantized_lookup(values, table): dequantize -> unary elementwise
// float op -> quantize on the int8/uint8 values as one 256-entry table
// (kernels/int8/byte_lookup.h), which runtime/quantized_lookup_fusion.h puts
// in place of the three nodes with the table it computed by running them.
// The output has the table's dtype and the values' shape; threads split it.
//
// Errors: Error(BadInput) for values that are not int8/uint8 or a table that
// is not 256 int8/uint8 entries.
#include "kernels/int8/byte_lookup.h"
#include "kernels/parallel/thread_pool.h"
#include "ops/quantized/quantized.h"
#include "util/error.h"

namespace pt2web::quantized {

namespace {

bool is_byte_dtype(DType d) { return d == DType::Int8 || d == DType::UInt8; }

void quantized_lookup_op(OpCall& c) {
  const Tensor& values = c.tensor(0);
  const Tensor& table = c.tensor(1);
  if (!is_byte_dtype(values.dtype()))
    fail(ErrorCode::BadInput, c.where(), "values must hold int8 or uint8 values, got ", dtype_name(values.dtype()));
  if (!is_byte_dtype(table.dtype()) || table.dim() != 1 || table.numel() != 256)
    fail(ErrorCode::BadInput, c.where(), "table must be 256 int8 or uint8 entries, got ", dtype_name(table.dtype()),
         " ", shape_to_string(table.sizes()));
  const Tensor in = values.contiguous();
  const Tensor entries = table.contiguous();
  Tensor out = Tensor::uninitialized(table.dtype(), values.sizes());
  const auto* x = static_cast<const uint8_t*>(in.raw_data());
  const auto* t = static_cast<const uint8_t*>(entries.raw_data());
  auto* y = static_cast<uint8_t*>(out.raw_data());
  parallel::parallel_for(out.numel(), 64, parallel::min_items_for(2), [&](int64_t begin, int64_t end) {
    byte_lookup(x + begin, end - begin, t, y + begin);
  });
  c.push(out);
}

}  // namespace

void register_quantized_lookup_ops(OpTable& t) {
  t.add("pt2web::quantized_lookup(Tensor values, Tensor table) -> Tensor", quantized_lookup_op);
}

}  // namespace pt2web::quantized
