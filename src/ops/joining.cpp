// Joining and splitting: cat, stack, split, chunk, unbind, narrow, flip, repeat, roll, pad, tril/triu, ...
#include "ops/families.h"
#include "ops/op_utils.h"

namespace pt2web {

void register_joining_ops(OpTable& t) { (void)t; }

}  // namespace pt2web
