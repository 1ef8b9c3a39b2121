#include "half_precision_reference.h"

#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <vector>

#include "conformance_check.h"
#include "runtime/loaded_program.h"

namespace pt2web::testing {

namespace {

struct IndexRow {
  std::string folder, opinfo, variant, dtype, sample;
};

// The corpus's INDEX.tsv rows, by folder; empty when the file is missing.
std::map<std::string, IndexRow> read_index(const std::string& path) {
  std::map<std::string, IndexRow> rows;
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return rows;
  std::vector<std::string> header;
  std::istringstream head(line);
  for (std::string field; std::getline(head, field, '\t');) header.push_back(field);
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::map<std::string, std::string> row;
    for (size_t k = 0; k < header.size(); ++k) std::getline(fields, row[header[k]], '\t');
    if (row["folder"] == "-" || row["status"] != "ok") continue;
    rows[row["folder"]] = {row["folder"], row["opinfo"], row["variant"], row["dtype"], row["sample"]};
  }
  return rows;
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

// The float64 folder that exported the same sample as `folder`, or "".
std::string find_twin(const std::map<std::string, IndexRow>& index, const std::string& folder) {
  auto self = index.find(folder);
  if (self == index.end() || (self->second.dtype != "float16" && self->second.dtype != "bfloat16")) return "";
  std::string wanted = replace_all(self->second.sample, self->second.dtype + "[", "float64[");
  for (const auto& [name, row] : index)
    if (row.dtype == "float64" && row.opinfo == self->second.opinfo && row.variant == self->second.variant &&
        row.sample == wanted)
      return name;
  return "";
}

PyValue widen_to_float64(const PyValue& value) {
  PyValue out = value;
  const bool half = value.kind == PyValue::Kind::Tensor &&
                    (value.tensor.dtype() == DType::Float16 || value.tensor.dtype() == DType::BFloat16);
  if (half) {
    Tensor wide = Tensor::empty(DType::Float64, value.tensor.sizes());
    for (int64_t i = 0; i < wide.numel(); ++i) wide.data<double>()[i] = value.tensor.item_as_double(i);
    out.tensor = wide;
  }
  for (auto& item : out.items) item = widen_to_float64(item);
  return out;
}

// Largest |a - reference| over the floating tensors of two results of the
// same structure; false when the structures differ.
bool max_distance(const PyValue& a, const PyValue& reference, double* distance) {
  if (a.kind != reference.kind || a.items.size() != reference.items.size()) return false;
  for (size_t i = 0; i < a.items.size(); ++i)
    if (!max_distance(a.items[i], reference.items[i], distance)) return false;
  if (a.kind != PyValue::Kind::Tensor || !is_floating(a.tensor.dtype())) return true;
  if (a.tensor.sizes() != reference.tensor.sizes()) return false;
  for (int64_t i = 0; i < a.tensor.numel(); ++i) {
    double x = a.tensor.item_as_double(i), r = reference.tensor.item_as_double(i);
    if (x == r || (std::isnan(x) && std::isnan(r))) continue;
    double d = std::fabs(x - r);
    *distance = std::max(*distance, std::isnan(d) ? INFINITY : d);
  }
  return true;
}

}  // namespace

HalfPrecisionErrors half_precision_errors(const std::string& dir, bool core, const Case& c, const PyValue& got) {
  HalfPrecisionErrors result;
  const std::string name = folder_name(dir);
  const std::string trimmed = dir.substr(0, dir.find_last_not_of('/') + 1);
  const std::string corpus = trimmed.size() > name.size() ? trimmed.substr(0, trimmed.size() - name.size() - 1) : ".";
  static std::map<std::string, std::map<std::string, IndexRow>> indexes;  // read once per corpus folder
  if (!indexes.count(corpus)) indexes[corpus] = read_index(corpus + "/INDEX.tsv");
  result.twin = find_twin(indexes[corpus], name);
  if (result.twin.empty()) return result;
  try {
    std::string model = corpus + "/" + result.twin + (core ? "/model.core.pt2" : "/model.pt2");
    auto bytes = std::make_shared<const std::vector<uint8_t>>(read_file(model));
    LoadedProgram twin(bytes, model);
    PyValue reference = twin.run(widen_to_float64(c.args), widen_to_float64(c.kwargs));
    result.available = max_distance(got, reference, &result.pt2web_error) &&
                       max_distance(c.expected, reference, &result.torch_error);
  } catch (const std::exception&) {
    result.available = false;
  }
  return result;
}

}  // namespace pt2web::testing
