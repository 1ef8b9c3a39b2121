#include "io/pt2_writer.h"

#include <set>

#include "io/program_json_writer.h"
#include "io/torch_save.h"
#include "io/zip_writer.h"
#include "util/error.h"

namespace pt2web {

std::vector<uint8_t> save_pt2(const ExportedProgram& program) {
  std::set<std::string> parameters;
  for (const auto& spec : program.signature.input_specs)
    if (spec.kind == InputKind::Parameter) parameters.insert(spec.target);

  PyValue state = PyValue::dict();
  for (const std::string& name : program.state_dict_order)
    state.set(PyValue::from_str(name), PyValue::from_tensor(program.state_dict.at(name)));
  PyValue constants = PyValue::dict();
  for (const std::string& name : program.constants_order) {
    const PyValue& v = program.constants.at(name);
    if (v.kind != PyValue::Kind::Tensor)
      fail(ErrorCode::Unsupported, "cannot save constant '", name, "': it is a ", py_kind_name(v.kind), ", not a tensor");
    constants.set(PyValue::from_str(name), v);
  }

  ZipWriter zip(64);
  zip.add("serialized_exported_program.json", write_program_json(program));
  zip.add("serialized_state_dict.pt", torch_save(state, parameters));
  zip.add("serialized_constants.pt", torch_save(constants));
  if (program.example_inputs) zip.add("serialized_example_inputs.pt", torch_save(*program.example_inputs));
  else zip.add("serialized_example_inputs.pt", std::string());
  zip.add("version", std::string("8.2"));
  return zip.finish();
}

}  // namespace pt2web
