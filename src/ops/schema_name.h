// The qualified name of an operator schema read from its text alone, for the
// operator table (ops/registry.cpp), which parses whole schemas lazily.
//
// Errors: Error(Internal) for text without an argument list (schemas are ours).
#pragma once

#include <string>

namespace pt2web {

// The name parse_op_schema(text) gives ("aten::add.Tensor"; ".default" when
// the text names no overload), without parsing the arguments.
std::string schema_qualified_name(const std::string& text);

}  // namespace pt2web
