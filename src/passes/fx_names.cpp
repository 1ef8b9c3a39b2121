#include "passes/fx_names.h"

#include <cctype>

namespace pt2web {

namespace {

// Python 3 keywords and the builtins fx refuses as value names.
bool is_illegal(const std::string& name) {
  static const std::set<std::string> illegal = {
      "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
      "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in",
      "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with",
      "yield", "abs", "aiter", "all", "anext", "any", "ascii", "bin", "bool", "breakpoint",
      "bytearray", "bytes", "callable", "chr", "classmethod", "compile", "complex", "copyright",
      "credits", "delattr", "dict", "dir", "divmod", "enumerate", "eval", "exec", "exit", "filter",
      "float", "format", "frozenset", "getattr", "globals", "hasattr", "hash", "help", "hex", "id",
      "input", "int", "isinstance", "issubclass", "iter", "len", "license", "list", "locals", "map",
      "max", "memoryview", "min", "next", "object", "oct", "open", "ord", "pow", "print", "property",
      "quit", "range", "repr", "reversed", "round", "set", "setattr", "slice", "sorted",
      "staticmethod", "str", "sum", "super", "tuple", "type", "vars", "zip", "Ellipsis",
      "NotImplemented", "inf", "nan", "NoneType", "torch", "device", "fx_pytree", "pytree"};
  return illegal.count(name) != 0;
}

}  // namespace

void FxNames::reserve(const std::string& name) { used_.insert(name); }

std::string FxNames::create(const std::string& raw) {
  std::string candidate;
  for (char c : raw) candidate += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  if (candidate.empty()) candidate = "_unnamed";
  if (std::isdigit(static_cast<unsigned char>(candidate[0]))) candidate = "_" + candidate;
  // Split a trailing "_<digits>" counter off.
  std::string base = candidate;
  int64_t num = 0;
  size_t us = candidate.rfind('_');
  if (us != std::string::npos && us + 1 < candidate.size() && us > 0) {
    bool digits = true;
    for (size_t i = us + 1; i < candidate.size(); ++i)
      digits = digits && std::isdigit(static_cast<unsigned char>(candidate[i]));
    if (digits) {
      base = candidate.substr(0, us);
      num = std::stoll(candidate.substr(us + 1));
    }
  }
  candidate = num ? base + "_" + std::to_string(num) : base;
  if (!num) num = base_count_[base];
  while (used_.count(candidate) || is_illegal(candidate)) {
    ++num;
    candidate = base + "_" + std::to_string(num);
  }
  used_.insert(candidate);
  base_count_[base] = num;
  return candidate;
}

std::string fx_base_name(const std::string& target) {
  std::string t = target;
  for (const char* prefix : {"torch.ops.", "_operator.", "builtins."})
    if (t.rfind(prefix, 0) == 0) t = t.substr(std::string(prefix).size());
  size_t colons = t.find("::");
  if (colons != std::string::npos) t = t.substr(colons + 2);
  else if (t.rfind("aten.", 0) == 0 || t.rfind("higher_order.", 0) == 0) t = t.substr(t.find('.') + 1);
  size_t dot = t.find('.');
  std::string packet = dot == std::string::npos ? t : t.substr(0, dot);
  if (packet == "sym_size" || packet == "sym_stride" || packet == "sym_numel" ||
      packet == "sym_storage_offset")
    return dot == std::string::npos ? packet : packet + "_" + t.substr(dot + 1);
  return packet;
}

}  // namespace pt2web
