// describe_program: everything a user wants to know about a loaded program,
// as one JSON document (what `pt2web info` prints and what the JS API exposes
// as Program.inputs / outputs / signature / operators). It lives in runtime
// because it asks the op table (ops/) which operators are supported and
// names the archive's entries (io/).
//
// src/runtime/description.schema.json is the document's schema: the npm
// package's types are generated from it, and a test checks every corpus
// program's description against it (change both together). It has these members:
//   archive          {kind, program_entry, entries: [{name, size}]} (null without a layout)
//   schema_version   {major, minor}; torch_version; dialect
//   inputs           user inputs in flatten order: {path, name, kind, dtype, shape,
//                    ranges} for tensors ("tensor"), {path, name, kind: "int"|"float"|"bool"}
//                    for symbolic scalars and {path, name, kind: "constant", value}
//                    for specialized constants; symbolic sizes are strings ("s0", "2*s0")
//   outputs          user outputs in flatten order: {path, name, kind, dtype, shape,
//                    ranges, loss}; "path" is where the value sits in what run()
//                    returns, in Python's spelling ("[0]", "['logits']", "" for a
//                    lone value); "name" is "" for constants
//   signature        input_specs, output_specs and torch's derived views
//   state            {parameters, buffers, constants}: each {count, bytes}
//   range_constraints  symbol -> [min, max] (null = unbounded)
//   in_spec / out_spec TreeSpec strings as torch prints them
//   operators        [{target, qualified, count, supported}] over the graph and
//                    all its subgraphs, sorted by target
//   prepare          [{step, detail}]: the prepare steps the program went
//                    through, in order (null when it was only inspected); no
//                    times, so a description is the same on every load
//   printed          print_program(), only with DescribeOptions::printed
//
// Ownership: returns a fresh value; borrows nothing. Errors: Error(BadProgram)
// when the program has no root call signature; otherwise it does not throw for
// a program that passed verify_program (unsupported operators are reported,
// not rejected).
#pragma once

#include <nlohmann/json.hpp>

#include "io/pt2_loader.h"
#include "program/exported_program.h"
#include "util/step_log.h"

namespace pt2web {

struct DescribeOptions {
  bool printed = false;  // include the printed program (it can be long)
  // The prepare pipeline's steps (runtime/prepare_pipeline.h), for "prepare";
  // null (inspect, which prepares nothing) writes null.
  const StepLog* prepare_steps = nullptr;
};

nlohmann::json describe_program(const ExportedProgram& program, const ArchiveLayout* layout,
                                DescribeOptions options = {});

}  // namespace pt2web
