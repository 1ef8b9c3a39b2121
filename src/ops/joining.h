// The joining family is spread over several files; joining.cpp's
// register_joining_ops calls the others' register functions.
#pragma once

#include "ops/registry.h"

namespace pt2web {

void register_joining_pad_ops(OpTable& t);   // joining_pad.cpp
void register_joining_copy_ops(OpTable& t);  // joining_copy.cpp

}  // namespace pt2web
