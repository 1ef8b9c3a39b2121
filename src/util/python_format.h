// Formatting numbers the way Python prints them, for messages and for
// values torch shows (signature views, printed programs).
#pragma once

#include <string>

namespace pt2web {

// repr(float): the shortest text that reads back as the same double, with
// ".0" for integral values, and "inf"/"-inf"/"nan".
std::string python_float_repr(double value);

}  // namespace pt2web
