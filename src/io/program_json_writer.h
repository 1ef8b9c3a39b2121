// Writes an ExportedProgram's program JSON in torch 2.6's export schema
// (torch/_export/serde/schema.py, version 8.2): the graph with its tensor
// and symbolic value tables, the graph signature, the module call graph,
// range constraints, opset and dialect. Symbolic sizes are written in
// sympy's srepr form, as torch writes them, so torch.export.load rebuilds
// the same symbols. The inverse of io/program_json.h.
//
// Ownership: returns the text. Errors: Error(Unsupported) for dtypes the
// schema cannot name.
#pragma once

#include <string>

#include "program/exported_program.h"

namespace pt2web {

std::string write_program_json(const ExportedProgram& program);

// A symbolic expression in sympy's srepr form ("Mul(Integer(2), Symbol('s0', positive=True, integer=True))").
std::string sympy_srepr(const SymExpr& e);

// The export schema's ScalarType code (the inverse of dtype_from_serialized).
// Throws Error(Unsupported) for a dtype the schema cannot name.
int64_t dtype_to_serialized(DType dtype);

}  // namespace pt2web
