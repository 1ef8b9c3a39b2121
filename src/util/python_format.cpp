#include "util/python_format.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace pt2web {

std::string python_float_repr(double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (std::isnan(value)) return "nan";
  std::string text;
  for (int precision = 1; precision <= 17; ++precision) {
    std::ostringstream out;
    out.precision(precision);
    out << value;
    text = out.str();
    if (std::strtod(text.c_str(), nullptr) == value) break;
  }
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

}  // namespace pt2web
