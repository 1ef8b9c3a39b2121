// Guards: the input conditions torch 2.14 records beside a program
// (ExportedProgram._guards_code, schema field `guards_code`) that its range
// constraints cannot express, such as "(L['x'].size()[0] % 2) == 0" or
// "L['x'].size()[0] != L['y'].size()[0]". torch's ep.module() refuses an
// input that breaks one with "Guard failed: x.size()[0] % 2 == 0"; so does
// pt2web, before anything runs.
//
// A guard is a Python expression as torch's sympy printers write it:
// integers and floats, + - * / // % ** (Python's floor semantics),
// comparisons (chained), and / or / not, max, min, abs, round,
// math.floor / ceil / trunc / sqrt / isnan / inf / nan, torch.sym_float /
// sym_int / sym_max / sym_min / _sym_sqrt, and input sources: `L` followed by
// the input's key path (L['x'], L['batch']['ids'], L['p'].a, L['xs'][0]),
// optionally .size()[i], .stride()[i], .storage_offset() or .dim().
//
// Errors: parse_guard throws Error(Unsupported) naming the guard and the
// first thing it cannot read; check_guard throws Error(BadInput) with
// torch's message when the guard is false, and Error(BadInput) naming the
// source when the guard refers to an input the call does not have.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "program/py_value.h"

namespace pt2web {

struct GuardNode;

struct Guard {
  std::string code;                       // as torch wrote it
  std::shared_ptr<const GuardNode> expr;  // parsed
};

Guard parse_guard(const std::string& code);

// The guard as torch's failure message prints it: sources without the
// leading `L` ("x.size()[0]") and only the parentheses Python needs.
std::string guard_text(const Guard& guard);

// Finds the input leaf a source names ("L['x']", "L['p'].a"); nullptr when
// the call has no such input.
using GuardSourceLookup = std::function<const PyValue*(const std::string& source)>;

// Evaluates the guard on the call's inputs; throws (see above) unless it holds.
void check_guard(const Guard& guard, const GuardSourceLookup& lookup);

}  // namespace pt2web
