// The shape operator folder: Shape and view operators (reshape, permute, slice, ...), joining and splitting (cat, stack, split, ...), padding, flips and copies.
// Each file registers its operators with one function declared here;
// register.cpp calls them all from register_shape_ops (ops/families.h).
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_joining_ops(OpTable& t);  // joining.cpp
void register_joining_copy_ops(OpTable& t);  // joining_copy.cpp
void register_joining_pad_ops(OpTable& t);  // joining_pad.cpp
void register_view_ops(OpTable& t);  // view_ops.cpp
void register_view_composition_ops(OpTable& t);  // view_compositions.cpp
void register_resize_ops(OpTable& t);  // resize.cpp
void register_splitting_ops(OpTable& t);  // splitting.cpp

}  // namespace pt2web
