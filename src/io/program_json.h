// Parses the JSON of a serialized ExportedProgram (torch/_export/serde) into
// an ExportedProgram without its tensors (state dict, constants and example
// inputs come from other archive entries; see io/pt2_loader.h).
//
// Accepts the encodings torch has written since 2.1: single-key unions and
// the older all-keys-present unions, "Infinity"/"NaN" as strings or bare
// tokens, missing optional fields, schema_version as int or {major, minor}.
// Errors: Error(BadFile) naming the JSON path of what is malformed.
#pragma once

#include <string>

#include "program/exported_program.h"

namespace pt2web {

ExportedProgram parse_program_json(const std::string& text);

}  // namespace pt2web
