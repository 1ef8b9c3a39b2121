// Writes an ExportedProgram as a .pt2 file in the layout torch 2.6's
// torch.export.save writes (and torch.export.load reads): a zip of
// serialized_exported_program.json (io/program_json_writer.h),
// serialized_state_dict.pt, serialized_constants.pt and
// serialized_example_inputs.pt (io/torch_save.h; parameters as
// nn.Parameter) and "version" ("8.2"). Entries are stored and their data
// starts at multiples of 64 bytes, so the nested archives' tensors are
// aligned and load without a copy.
//
// Ownership: returns the bytes. Errors: Error(Unsupported) for state pt2web
// cannot write (constants that are not tensors, dtypes torch cannot store).
#pragma once

#include <cstdint>
#include <vector>

#include "program/exported_program.h"

namespace pt2web {

std::vector<uint8_t> save_pt2(const ExportedProgram& program);

}  // namespace pt2web
