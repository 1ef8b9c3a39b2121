#include "runtime/random_inputs.h"

#include <algorithm>
#include <complex>
#include <limits>
#include <map>
#include <optional>

#include "util/error.h"

namespace pt2web {

namespace {

constexpr int64_t kSmallSize = 8;

// SplitMix64: a tiny generator with good statistics, the same on every platform.
class SeededRandom {
 public:
  explicit SeededRandom(uint32_t seed) : state_(seed) {}

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  // Uniform in [low, high], both included.
  int64_t integer(int64_t low, int64_t high) {
    const double span = static_cast<double>(high) - static_cast<double>(low) + 1;
    return low + static_cast<int64_t>(uniform() * span);
  }
  bool coin() { return uniform() < 0.5; }

 private:
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

using SymbolValues = std::map<std::string, int64_t>;

const TensorMeta* tensor_meta(const ExportedProgram& program, const Argument& arg) {
  auto it = program.graph.tensor_values.find(arg.name);
  return it == program.graph.tensor_values.end() ? nullptr : &it->second;
}

// The symbolic value behind a symbolic scalar input, if it has one.
const SymInt* symbolic_int(const ExportedProgram& program, const Argument& arg) {
  if (arg.kind != Argument::Kind::SymInt || arg.names.empty()) return nullptr;
  auto it = program.graph.sym_int_values.find(arg.names[0]);
  return it != program.graph.sym_int_values.end() && it->second.is_symbolic && it->second.expr ? &it->second
                                                                                                  : nullptr;
}

bool is_random_scalar(const Argument& arg) {
  using K = Argument::Kind;
  return (arg.kind == K::SymInt || arg.kind == K::SymFloat || arg.kind == K::SymBool) && !arg.names.empty() &&
         !arg.names[0].empty();
}

void add_symbols(const SymInt& size, std::vector<std::string>& symbols) {
  if (!size.is_symbolic || !size.expr) return;
  for (const auto& s : size.expr->symbols())
    if (std::find(symbols.begin(), symbols.end(), s) == symbols.end()) symbols.push_back(s);
}

// The symbols of the user inputs, in order of first appearance.
std::vector<std::string> input_symbols(const ExportedProgram& program) {
  std::vector<std::string> symbols;
  for (const auto& spec : program.signature.input_specs) {
    if (spec.kind != InputKind::UserInput || spec.is_constant_input) continue;
    if (spec.arg.kind == Argument::Kind::Tensor) {
      if (const TensorMeta* meta = tensor_meta(program, spec.arg))
        for (const SymInt& size : meta->sizes) add_symbols(size, symbols);
    } else if (const SymInt* value = symbolic_int(program, spec.arg)) {
      add_symbols(*value, symbols);
    }
  }
  return symbols;
}

SymbolValues choose_symbols(const ExportedProgram& program, SeededRandom& random) {
  SymbolValues values;
  for (const auto& symbol : input_symbols(program)) {
    std::optional<int64_t> min, max;
    auto range = program.range_constraints.find(symbol);
    if (range != program.range_constraints.end()) {
      min = range->second.min_val;
      max = range->second.max_val;
    }
    const int64_t low = min.value_or(2);
    const int64_t high = std::min(max.value_or(std::numeric_limits<int64_t>::max()), std::max(low, kSmallSize));
    values[symbol] = random.integer(low, high);
  }
  return values;
}

int64_t evaluate(const SymInt& size, const SymbolValues& values) {
  if (!size.is_symbolic || !size.expr) return size.value;
  return size.expr->evaluate([&](const std::string& name) -> std::optional<int64_t> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  });
}

// One element's value for `dtype`, as the double it is stored from.
double random_element(DType dtype, SeededRandom& random) {
  if (dtype == DType::Bool) return random.coin() ? 1 : 0;
  if (is_floating(dtype) || is_complex(dtype)) return random.uniform() * 2 - 1;
  return static_cast<double>(random.integer(0, 3));
}

Tensor random_tensor(const ExportedProgram& program, const InputSpec& spec, const SymbolValues& values,
                     SeededRandom& random) {
  const TensorMeta* meta = tensor_meta(program, spec.arg);
  if (!meta) fail(ErrorCode::BadProgram, "input '", spec.arg.name, "' has no recorded dtype and shape");
  Shape shape;
  for (const SymInt& size : meta->sizes) shape.push_back(evaluate(size, values));
  if (is_complex(meta->dtype)) {
    Tensor t = Tensor::uninitialized(DType::Complex128, shape);
    auto* data = t.data<std::complex<double>>();
    for (int64_t i = 0; i < t.numel(); ++i) {
      const double re = random_element(meta->dtype, random);
      data[i] = {re, random_element(meta->dtype, random)};
    }
    return t.to(meta->dtype);
  }
  Tensor t = Tensor::uninitialized(DType::Float64, shape);
  auto* data = t.data<double>();
  for (int64_t i = 0; i < t.numel(); ++i) data[i] = random_element(meta->dtype, random);
  return t.to(meta->dtype);
}

PyValue random_scalar(const ExportedProgram& program, const Argument& arg, const SymbolValues& values,
                      SeededRandom& random) {
  if (arg.kind == Argument::Kind::SymBool) return PyValue::from_bool(random.coin());
  if (arg.kind == Argument::Kind::SymFloat) return PyValue::from_float(random_element(DType::Float64, random));
  if (const SymInt* value = symbolic_int(program, arg)) return PyValue::from_int(evaluate(*value, values));
  return PyValue::from_int(random.integer(0, 3));
}

// A specialized input's value (run() must receive exactly this).
PyValue constant_value(const Argument& arg) {
  using K = Argument::Kind;
  switch (arg.kind) {
    case K::Int:
    case K::SymInt: return PyValue::from_int(arg.ints.empty() ? 0 : arg.ints[0]);
    case K::Float:
    case K::SymFloat: return PyValue::from_float(arg.floats.empty() ? 0 : arg.floats[0]);
    case K::Bool:
    case K::SymBool: return PyValue::from_bool(!arg.bools.empty() && arg.bools[0]);
    case K::String: return PyValue::from_str(arg.str);
    default: return PyValue::none();
  }
}

}  // namespace

PyValue random_inputs(const ExportedProgram& program, uint32_t seed) {
  SeededRandom random(seed);
  const SymbolValues values = choose_symbols(program, random);
  std::vector<PyValue> leaves;
  for (const auto& spec : program.signature.input_specs) {
    if (spec.kind != InputKind::UserInput) continue;
    if (!spec.is_constant_input && spec.arg.kind == Argument::Kind::Tensor)
      leaves.push_back(PyValue::from_tensor(random_tensor(program, spec, values, random)));
    else if (!spec.is_constant_input && is_random_scalar(spec.arg))
      leaves.push_back(random_scalar(program, spec.arg, values, random));
    else
      leaves.push_back(constant_value(spec.arg));
  }
  return program.call_signature().in_spec.unflatten(leaves);
}

}  // namespace pt2web
