// Names of PyValue kinds as Python spells the types, for messages.
#include "program/py_value.h"

namespace pt2web {

const char* py_kind_name(PyValue::Kind kind) {
  switch (kind) {
    case PyValue::Kind::None: return "None";
    case PyValue::Kind::Bool: return "bool";
    case PyValue::Kind::Int: return "int";
    case PyValue::Kind::Float: return "float";
    case PyValue::Kind::Str: return "str";
    case PyValue::Kind::Tensor: return "Tensor";
    case PyValue::Kind::Tuple: return "tuple";
    case PyValue::Kind::List: return "list";
    case PyValue::Kind::Dict: return "dict";
  }
  return "unknown";
}

}  // namespace pt2web
