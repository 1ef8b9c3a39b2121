#include "cases.h"

#include <cmath>
#include <complex>
#include <cstring>
#include <fstream>
#include <sstream>

#include "tensor/dtype.h"
#include "util/error.h"

namespace pt2web::testing {

using json = nlohmann::json;

std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

namespace {

std::vector<uint8_t> base64_decode(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::vector<uint8_t> out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    int v = value(c);
    if (v < 0) continue;
    buffer = (buffer << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<uint8_t>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

double decode_float(const json& j) {
  if (j.is_string()) {
    std::string s = j.get<std::string>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    return NAN;
  }
  return j.get<double>();
}

}  // namespace

PyValue decode_value(const json& j) {
  if (j.is_null()) return PyValue::none();
  if (j.contains("tensor")) {
    const json& t = j["tensor"];
    DType dtype = dtype_from_name(t["dtype"].get<std::string>());
    Shape shape = t["shape"].get<std::vector<int64_t>>();
    Tensor tensor = Tensor::empty(dtype, shape);
    std::vector<uint8_t> bytes = base64_decode(t["data"].get<std::string>());
    if (bytes.size() != tensor.nbytes()) throw std::runtime_error("tensor data size mismatch in cases file");
    if (!bytes.empty()) std::memcpy(tensor.raw_data(), bytes.data(), bytes.size());
    return PyValue::from_tensor(tensor);
  }
  if (j.contains("int")) return PyValue::from_int(j["int"].get<int64_t>());
  if (j.contains("float")) return PyValue::from_float(decode_float(j["float"]));
  if (j.contains("bool")) return PyValue::from_bool(j["bool"].get<bool>());
  if (j.contains("str")) return PyValue::from_str(j["str"].get<std::string>());
  if (j.contains("tuple") || j.contains("list")) {
    bool tuple = j.contains("tuple");
    std::vector<PyValue> items;
    for (const auto& e : j[tuple ? "tuple" : "list"]) items.push_back(decode_value(e));
    return tuple ? PyValue::tuple(items) : PyValue::list(items);
  }
  if (j.contains("dict")) {
    PyValue d = PyValue::dict();
    for (const auto& kv : j["dict"]) {
      PyValue key = kv[0].is_string() ? PyValue::from_str(kv[0].get<std::string>()) : PyValue::from_int(kv[0].get<int64_t>());
      d.keys.push_back(key);
      d.items.push_back(decode_value(kv[1]));
    }
    return d;
  }
  if (j.contains("dataclass")) {  // a registered dataclass: field -> value, `s` its class
    PyValue d = PyValue::dict();
    d.s = j["dataclass"]["type"].get<std::string>();
    const json& fields = j["dataclass"]["fields"];
    const json& values = j["dataclass"]["values"];
    for (size_t k = 0; k < fields.size(); ++k) d.set(PyValue::from_str(fields[k].get<std::string>()), decode_value(values[k]));
    return d;
  }
  if (j.contains("namedtuple")) {
    std::vector<PyValue> items;
    for (const auto& e : j["namedtuple"]["values"]) items.push_back(decode_value(e));
    PyValue t = PyValue::tuple(items);
    t.s = j["namedtuple"]["type"].get<std::string>();
    return t;
  }
  throw std::runtime_error("unknown value encoding in cases file: " + j.dump().substr(0, 80));
}

std::vector<Case> read_cases(const std::string& path) {
  std::vector<uint8_t> bytes = read_file(path);
  json root = json::parse(bytes.begin(), bytes.end());
  std::vector<Case> cases;
  for (const auto& c : root["cases"]) {
    Case k;
    k.name = c["name"].get<std::string>();
    k.args = decode_value(c["args"]);
    k.kwargs = decode_value(c["kwargs"]);
    if (c.contains("error")) {
      k.expects_error = true;
      k.error_message = c.value("message", "");
    } else {
      k.expected = decode_value(c["expected"]);
      k.rtol = c.value("rtol", 0.0);
      k.atol = c.value("atol", 0.0);
    }
    if (c.contains("state_after")) {
      k.has_state_after = true;
      k.state_after = decode_value(c["state_after"]);
    }
    if (c.contains("args_after")) {
      k.has_args_after = true;
      k.args_after = decode_value(c["args_after"]);
      k.kwargs_after = c.contains("kwargs_after") ? decode_value(c["kwargs_after"]) : PyValue::dict();
    }
    cases.push_back(std::move(k));
  }
  return cases;
}

namespace {

// Complex elements compare as torch.testing does: |got - want| <= atol + rtol * |want|.
std::string compare_complex(const Tensor& g, const Tensor& w, double rtol, double atol, double* max_error,
                            const std::string& path) {
  Tensor gc = g.to(DType::Complex128), wc = w.to(DType::Complex128);
  const auto* a = gc.data<std::complex<double>>();
  const auto* b = wc.data<std::complex<double>>();
  for (int64_t i = 0; i < w.numel(); ++i) {
    if (a[i] == b[i]) continue;
    const bool nan_a = std::isnan(a[i].real()) || std::isnan(a[i].imag());
    const bool nan_b = std::isnan(b[i].real()) || std::isnan(b[i].imag());
    if (nan_a && nan_b) continue;
    double err = std::abs(a[i] - b[i]);
    if (std::isnan(err)) err = INFINITY;
    if (max_error && err > *max_error) *max_error = err;
    if (!(err <= atol + rtol * std::abs(b[i]))) {
      std::ostringstream msg;
      msg << path << "[flat " << i << "]: got " << a[i] << ", expected " << b[i] << " (error " << err << ")";
      return msg.str();
    }
  }
  return "";
}

}  // namespace

std::string compare(const PyValue& got, const PyValue& want, double rtol, double atol, double* max_error,
                    const std::string& path) {
  std::ostringstream msg;
  if (want.kind == PyValue::Kind::Tensor) {
    if (got.kind != PyValue::Kind::Tensor) return path + ": expected a tensor, got " + py_kind_name(got.kind);
    const Tensor& g = got.tensor;
    const Tensor& w = want.tensor;
    if (g.dtype() != w.dtype())
      return path + ": dtype " + dtype_name(g.dtype()) + ", expected " + dtype_name(w.dtype());
    if (g.sizes() != w.sizes())
      return path + ": shape " + shape_to_string(g.sizes()) + ", expected " + shape_to_string(w.sizes());
    if (is_complex(w.dtype())) return compare_complex(g, w, rtol, atol, max_error, path);
    bool exact = !is_floating(w.dtype());
    for (int64_t i = 0; i < w.numel(); ++i) {
      double a = g.item_as_double(i), b = w.item_as_double(i);
      if (std::isnan(a) && std::isnan(b)) continue;
      if (a == b) continue;
      double err = std::fabs(a - b);
      if (std::isnan(err)) err = INFINITY;
      if (max_error && err > *max_error) *max_error = err;
      if (exact || !(err <= atol + rtol * std::fabs(b))) {
        msg << path << "[flat " << i << "]: got " << a << ", expected " << b << " (error " << err << ")";
        return msg.str();
      }
    }
    return "";
  }
  if (want.kind == PyValue::Kind::Tuple || want.kind == PyValue::Kind::List) {
    if (got.kind != PyValue::Kind::Tuple && got.kind != PyValue::Kind::List)
      return path + ": expected a sequence, got " + py_kind_name(got.kind);
    if (got.items.size() != want.items.size())
      return path + ": " + std::to_string(got.items.size()) + " items, expected " + std::to_string(want.items.size());
    for (size_t i = 0; i < want.items.size(); ++i) {
      std::string r = compare(got.items[i], want.items[i], rtol, atol, max_error, path + "[" + std::to_string(i) + "]");
      if (!r.empty()) return r;
    }
    return "";
  }
  if (want.kind == PyValue::Kind::Dict) {
    if (got.kind != PyValue::Kind::Dict) return path + ": expected a dict, got " + py_kind_name(got.kind);
    if (got.keys.size() != want.keys.size()) return path + ": dict sizes differ";
    for (size_t i = 0; i < want.keys.size(); ++i) {
      const PyValue* g = got.get(want.keys[i].s);
      if (!g) return path + ": missing key '" + want.keys[i].s + "'";
      std::string r = compare(*g, want.items[i], rtol, atol, max_error, path + "['" + want.keys[i].s + "']");
      if (!r.empty()) return r;
    }
    return "";
  }
  if (want.kind == PyValue::Kind::Float || want.kind == PyValue::Kind::Int || want.kind == PyValue::Kind::Bool) {
    double g = got.kind == PyValue::Kind::Float ? got.f : got.kind == PyValue::Kind::Int ? got.i : got.b ? 1 : 0;
    double w = want.kind == PyValue::Kind::Float ? want.f : want.kind == PyValue::Kind::Int ? want.i : want.b ? 1 : 0;
    if (got.kind == PyValue::Kind::Tensor || got.kind == PyValue::Kind::None || got.kind == PyValue::Kind::Tuple)
      return path + ": expected a number, got " + py_kind_name(got.kind);
    if (std::fabs(g - w) > atol + rtol * std::fabs(w)) {
      msg << path << ": got " << g << ", expected " << w;
      return msg.str();
    }
    return "";
  }
  if (want.kind == PyValue::Kind::None)
    return got.kind == PyValue::Kind::None ? "" : path + ": expected None, got " + py_kind_name(got.kind);
  if (want.kind == PyValue::Kind::Str)
    return got.kind == PyValue::Kind::Str && got.s == want.s ? "" : path + ": strings differ";
  return path + ": cannot compare";
}

}  // namespace pt2web::testing
