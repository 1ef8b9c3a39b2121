#include "ops/families.h"
#include "ops/torchvision/torchvision.h"

namespace pt2web {

void register_torchvision_ops(OpTable& t) {
  register_roi_align_ops(t);
  register_roi_pool_ops(t);
  register_nms_ops(t);
  register_deform_conv2d_ops(t);
}

}  // namespace pt2web
