// Which buffers a program can write: the targets of BUFFER_MUTATION outputs,
// and buffers that reach a mutable operator argument ("Tensor(a!)", the
// in-place ops of TRAINING-dialect graphs) directly or through values that
// may alias them (views, operators whose schema returns an alias, Python
// built-ins such as getitem, higher-order operators and operators without a
// kernel, which are assumed to alias and write everything they receive).
//
// The session copies only these buffers at creation; the others (PT2E's
// int8 weights, for instance) stay borrowed from the loaded archive. The
// buffers written in place, while the graph runs, are the ones a failed run
// must put back (runtime/write_journal.h); BUFFER_MUTATION outputs are
// written only after the whole graph ran.
// Never throws for a verified program.
#pragma once

#include <set>
#include <string>

#include "program/exported_program.h"

namespace pt2web {

// Buffers reaching a mutable operator argument (directly or through aliases).
std::set<std::string> buffers_written_in_place(const ExportedProgram& program);
// Those and the targets of BUFFER_MUTATION outputs.
std::set<std::string> buffers_the_program_may_write(const ExportedProgram& program);
// The same from buffers_written_in_place's result, when the caller has it.
std::set<std::string> with_buffer_mutations(const ExportedProgram& program, std::set<std::string> written_in_place);

}  // namespace pt2web
