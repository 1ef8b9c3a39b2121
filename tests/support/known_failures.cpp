#include "known_failures.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace pt2web::testing {

KnownFailures read_known_failures(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  KnownFailures known;
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    std::string where = path + ":" + std::to_string(line_number) + ": ";
    std::istringstream fields(line);
    std::string folder, dialect, reason;
    if (!std::getline(fields, folder, '\t') || !std::getline(fields, dialect, '\t') || !std::getline(fields, reason))
      throw std::runtime_error(where + "expected folder<TAB>dialect<TAB>reason");
    if (dialect != "training" && dialect != "core")
      throw std::runtime_error(where + "dialect '" + dialect + "' is neither training nor core");
    if (reason.empty()) throw std::runtime_error(where + "no reason given");
    if (!known.emplace(std::make_pair(folder, dialect), reason).second)
      throw std::runtime_error(where + folder + " (" + dialect + ") is listed twice");
  }
  return known;
}

}  // namespace pt2web::testing
