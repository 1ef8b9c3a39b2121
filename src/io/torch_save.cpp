#include "io/torch_save.h"

#include <cstring>

#include "io/zip_writer.h"
#include "tensor/alignment.h"
#include "util/error.h"

namespace pt2web {

namespace {

const char* storage_class(DType dtype) {
  switch (dtype) {
    case DType::Float32: return "FloatStorage";
    case DType::Float64: return "DoubleStorage";
    case DType::Float16: return "HalfStorage";
    case DType::BFloat16: return "BFloat16Storage";
    case DType::Int64: return "LongStorage";
    case DType::Int32: return "IntStorage";
    case DType::Int16: return "ShortStorage";
    case DType::Int8: return "CharStorage";
    case DType::UInt8: return "ByteStorage";
    case DType::Bool: return "BoolStorage";
    case DType::Complex64: return "ComplexFloatStorage";
    case DType::Complex128: return "ComplexDoubleStorage";
    default: break;
  }
  fail(ErrorCode::Unsupported, "cannot save a ", dtype_name(dtype), " tensor: torch has no storage class for it");
}

class Pickler {
 public:
  explicit Pickler(const std::set<std::string>& parameter_keys) : parameter_keys_(parameter_keys) {}

  void top(const PyValue& v) {
    op(0x80);
    op(2);
    value(v, true);
    op('.');
  }

  std::vector<uint8_t> pickle;
  std::vector<Tensor> storages;  // contiguous, by record number

 private:
  void op(uint8_t c) { pickle.push_back(c); }
  void raw(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    pickle.insert(pickle.end(), b, b + n);
  }
  void u32(uint32_t v) {
    for (int k = 0; k < 4; ++k) op(static_cast<uint8_t>(v >> (8 * k)));
  }
  void str(const std::string& s) {
    op('X');
    u32(static_cast<uint32_t>(s.size()));
    raw(s.data(), s.size());
  }
  void global(const std::string& module, const std::string& name) {
    op('c');
    raw(module.data(), module.size());
    op('\n');
    raw(name.data(), name.size());
    op('\n');
  }
  void integer(int64_t v) {
    if (v >= INT32_MIN && v <= INT32_MAX) {
      op('J');
      u32(static_cast<uint32_t>(static_cast<int32_t>(v)));
      return;
    }
    op(0x8a);  // LONG1: 8 little-endian two's-complement bytes
    op(8);
    for (int k = 0; k < 8; ++k) op(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * k)));
  }
  void floating(double d) {
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    op('G');
    for (int k = 7; k >= 0; --k) op(static_cast<uint8_t>(bits >> (8 * k)));
  }
  void int_tuple(const Shape& v) {
    op('(');
    for (int64_t x : v) integer(x);
    op('t');
  }
  void empty_ordered_dict() {
    global("collections", "OrderedDict");
    op(')');
    op('R');
  }

  void tensor(const Tensor& t) {
    // A tensor borrowed from an archive may be misaligned (tensor/alignment.h);
    // typed reads need an aligned copy first.
    Tensor c = aligned(t).contiguous();
    size_t key = storages.size();
    storages.push_back(c);
    global("torch._utils", "_rebuild_tensor_v2");
    op('(');
    op('(');  // persistent id: ('storage', class, key, location, numel)
    str("storage");
    global("torch", storage_class(c.dtype()));
    str(std::to_string(key));
    str("cpu");
    integer(c.numel());
    op('t');
    op('Q');
    integer(0);
    int_tuple(c.sizes());
    int_tuple(contiguous_strides(c.sizes()));
    op(0x89);  // requires_grad False
    empty_ordered_dict();
    op('t');
    op('R');
  }

  void parameter(const Tensor& t) {
    global("torch._utils", "_rebuild_parameter");
    op('(');
    tensor(t);
    op(0x88);  // requires_grad True
    empty_ordered_dict();
    op('t');
    op('R');
  }

  void value(const PyValue& v, bool top_level = false) {
    switch (v.kind) {
      case PyValue::Kind::None: op('N'); return;
      case PyValue::Kind::Bool: op(v.b ? 0x88 : 0x89); return;
      case PyValue::Kind::Int: integer(v.i); return;
      case PyValue::Kind::Float: floating(v.f); return;
      case PyValue::Kind::Str: str(v.s); return;
      case PyValue::Kind::Tensor: tensor(v.tensor); return;
      case PyValue::Kind::Tuple:
        op('(');
        for (const auto& x : v.items) value(x);
        op('t');
        return;
      case PyValue::Kind::List:
        op(']');
        op('(');
        for (const auto& x : v.items) value(x);
        op('e');
        return;
      case PyValue::Kind::Dict:
        op('}');
        op('(');
        for (size_t k = 0; k < v.keys.size(); ++k) {
          value(v.keys[k]);
          bool is_param = top_level && v.keys[k].kind == PyValue::Kind::Str && parameter_keys_.count(v.keys[k].s) &&
                          v.items[k].kind == PyValue::Kind::Tensor;
          if (is_param) parameter(v.items[k].tensor);
          else value(v.items[k]);
        }
        op('u');
        return;
    }
  }

  const std::set<std::string>& parameter_keys_;
};

}  // namespace

std::vector<uint8_t> torch_save(const PyValue& value, const std::set<std::string>& parameter_keys) {
  Pickler p(parameter_keys);
  p.top(value);
  ZipWriter zip(64);
  zip.add("archive/data.pkl", p.pickle);
  zip.add("archive/byteorder", std::string("little"));
  for (size_t k = 0; k < p.storages.size(); ++k) {
    const Tensor& t = p.storages[k];
    zip.add("archive/data/" + std::to_string(k), static_cast<const uint8_t*>(t.raw_data()), t.nbytes());
  }
  zip.add("archive/version", std::string("3\n"));
  return zip.finish();
}

}  // namespace pt2web
