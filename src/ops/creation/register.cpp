#include "ops/families.h"
#include "ops/creation/creation.h"

namespace pt2web {

// Operator files added while the folder layout was being restructured; their
// declarations move to creation.h with the next change to that header.
void register_diagonal_builder_ops(OpTable& t);  // diagonal_builders.cpp
void register_spaced_range_ops(OpTable& t);  // spaced_ranges.cpp

void register_creation_ops(OpTable& t) {
  register_diagonal_builder_ops(t);
  register_factory_ops(t);
  register_spaced_range_ops(t);
}

}  // namespace pt2web
