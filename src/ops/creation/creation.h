// The creation operator folder: Factory operators: empty, zeros, ones, full, arange, linspace, eye and their _like / new_ forms; random tensors (random.cpp).
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_creation_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_factory_ops(OpTable& t);  // creation.cpp
void register_diagonal_builder_ops(OpTable& t);  // diagonal_builders.cpp
void register_spaced_range_ops(OpTable& t);  // spaced_ranges.cpp
void register_random_ops(OpTable& t);  // random.cpp

}  // namespace pt2web
