// torchvision's detection operators on small inputs whose results follow by
// hand: bilinear sampling is exact on a linear ramp, so roi_align bins
// average to the ramp's value at their centres; max pooling a ramp picks a
// bin's last pixel. Then the argument checks: each bad input is a BadInput
// naming the operator and the argument, and the next call still works.
// (The fixture programs tests/fixtures-export/tv_* hold torch's own values.)
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

// [1, channels, h, w] with value c*1000 + y*w + x.
Tensor ramp(int64_t channels, int64_t h, int64_t w, DType dtype = DType::Float32) {
  std::vector<double> v;
  for (int64_t c = 0; c < channels; ++c)
    for (int64_t i = 0; i < h * w; ++i) v.push_back(static_cast<double>(c * 1000 + i));
  return make({1, channels, h, w}, v, dtype);
}

std::string message_of(const std::string& op, std::vector<Value> args) {
  try {
    call(op, std::move(args));
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::BadInput);
    return e.what();
  }
  FAIL("no error from " << op);
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("roi_align averages bilinear samples over each bin", "[ops][torchvision]") {
  for (DType dtype : {DType::Float32, DType::Float64}) {
    // aligned: box [0.5, 4.5] on each axis, 2x2 bins of 2 pixels, centres 1.5 and 3.5.
    Tensor rois = make({1, 5}, {0, 1, 1, 5, 5}, dtype);
    Tensor out = call1("torchvision::roi_align", {tv(ramp(1, 8, 8, dtype)), tv(rois), dv(1.0), iv(2), iv(2), iv(2), bv(true)});
    check_values(out, {1, 1, 2, 2}, {1.5 * 8 + 1.5, 1.5 * 8 + 3.5, 3.5 * 8 + 1.5, 3.5 * 8 + 3.5});
    // Unaligned at scale 0.5 with an adaptive grid: box [1, 3], one bin centred at 2.
    Tensor one = call1("torchvision::roi_align",
                       {tv(ramp(2, 8, 8, dtype)), tv(make({1, 5}, {0, 2, 2, 6, 6}, dtype)), dv(0.5), iv(1), iv(1), iv(-1), bv(false)});
    check_values(one, {1, 2, 1, 1}, {2 * 8 + 2, 1000 + 2 * 8 + 2});
  }
  // A box wholly outside the map (more than a pixel away) samples zeros.
  Tensor far = call1("torchvision::roi_align",
                     {tv(ramp(1, 4, 4)), tv(make({1, 5}, {0, 10, 10, 12, 12})), dv(1.0), iv(1), iv(1), iv(2), bv(true)});
  check_values(far, {1, 1, 1, 1}, {0});
}

TEST_CASE("ps_roi_align reads one input channel per bin", "[ops][torchvision]") {
  // 8 channels, 2x2 bins: output channel c, bin (i, j) reads channel 4c + 2i + j.
  auto out = call("torchvision::ps_roi_align", {tv(ramp(8, 8, 8)), tv(make({1, 5}, {0, 1, 1, 5, 5})), dv(1.0), iv(2), iv(2), iv(2)});
  const Tensor& mapping = out[1].tensor;
  REQUIRE(mapping.dtype() == DType::Int32);
  check_values(mapping, {1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  check_values(out[0].tensor, {1, 2, 2, 2},
               {13.5, 1000 + 15.5, 2000 + 29.5, 3000 + 31.5, 4000 + 13.5, 5000 + 15.5, 6000 + 29.5, 7000 + 31.5});
}

TEST_CASE("roi_pool takes the maximum of each bin and its index", "[ops][torchvision]") {
  // Box x, y in [1, 4] inclusive: 4 pixels per axis, 2x2 bins of 2x2 pixels.
  auto out = call("torchvision::roi_pool", {tv(ramp(1, 6, 6)), tv(make({1, 5}, {0, 1, 1, 4, 4})), dv(1.0), iv(2), iv(2)});
  check_values(out[0].tensor, {1, 1, 2, 2}, {2 * 6 + 2, 2 * 6 + 4, 4 * 6 + 2, 4 * 6 + 4});
  REQUIRE(out[1].tensor.dtype() == DType::Int32);
  check_values(out[1].tensor, {1, 1, 2, 2}, {14, 16, 26, 28});
  // A box past the input's edge has empty bins: value 0, index -1.
  auto outside = call("torchvision::roi_pool", {tv(ramp(1, 6, 6)), tv(make({1, 5}, {0, 7, 7, 9, 9})), dv(1.0), iv(1), iv(1)});
  check_values(outside[0].tensor, {1, 1, 1, 1}, {0});
  check_values(outside[1].tensor, {1, 1, 1, 1}, {-1});
}

TEST_CASE("ps_roi_pool averages each bin of its own channel", "[ops][torchvision]") {
  // Box [0, 4) on both axes (x2 = 4 exclusive), 2x2 bins of 2x2 pixels, 4 channels.
  auto out = call("torchvision::ps_roi_pool", {tv(ramp(4, 6, 6)), tv(make({1, 5}, {0, 0, 0, 4, 4})), dv(1.0), iv(2), iv(2)});
  check_values(out[0].tensor, {1, 1, 2, 2}, {3.5, 1000 + 5.5, 2000 + 15.5, 3000 + 17.5});
  check_values(out[1].tensor, {1, 1, 2, 2}, {0, 1, 2, 3});
}

TEST_CASE("nms keeps boxes by decreasing score and drops overlapping ones", "[ops][torchvision]") {
  Tensor boxes = make({4, 4}, {0, 0, 10, 10, 1, 1, 11, 11, 20, 20, 30, 30, 21, 21, 29, 29});
  // Boxes 0 and 1 overlap with IoU 81/119; box 3 lies inside box 2 (IoU 0.64).
  Tensor keep = call1("torchvision::nms", {tv(boxes), tv(make({4}, {0.8, 0.9, 0.7, 0.7})), dv(0.5)});
  REQUIRE(keep.dtype() == DType::Int64);
  check_values(keep, {2}, {1, 2});
  // Equal scores keep index order; a higher threshold keeps every box.
  check_values(call1("torchvision::nms", {tv(boxes), tv(make({4}, {0.5, 0.5, 0.5, 0.5})), dv(0.7)}), {4}, {0, 1, 2, 3});
  check_values(call1("torchvision::nms", {tv(make({0, 4}, {})), tv(make({0}, {})), dv(0.5)}), {0}, {});
}

TEST_CASE("deform_conv2d with zero offsets is a convolution", "[ops][torchvision]") {
  // One 3x3 ones kernel, padding 1, on a 3x3 ramp: each output sums a window.
  Tensor x = ramp(1, 3, 3);
  Tensor w = make({1, 1, 3, 3}, std::vector<double>(9, 1.0));
  Tensor offset = make({1, 18, 3, 3}, std::vector<double>(162, 0.0));
  Tensor mask = make({1, 9, 3, 3}, std::vector<double>(81, 0.5));
  Tensor bias = make({1}, {10});
  Tensor out = call1("torchvision::deform_conv2d",
                     {tv(x), tv(w), tv(offset), tv(mask), tv(bias), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), bv(false)});
  check_values(out, {1, 1, 3, 3}, {18, 25, 22, 31, 46, 37, 30, 43, 34});
  // With use_mask, the mask scales every tap.
  Tensor masked = call1("torchvision::deform_conv2d",
                        {tv(x), tv(w), tv(offset), tv(mask), tv(bias), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), bv(true)});
  check_values(masked, {1, 1, 3, 3}, {14, 17.5, 16, 20.5, 28, 23.5, 20, 26.5, 22});
}

TEST_CASE("torchvision operators name the argument they reject", "[ops][torchvision][errors]") {
  Tensor x = ramp(2, 6, 6);
  Tensor good = make({1, 5}, {0, 1, 1, 4, 4});
  for (const char* op : {"torchvision::roi_align", "torchvision::roi_pool"}) {
    INFO(op);
    std::vector<Value> tail = std::string(op) == "torchvision::roi_align" ? std::vector<Value>{iv(2), bv(false)}
                                                                           : std::vector<Value>{};
    auto args = [&](const Tensor& input, const Tensor& rois) {
      std::vector<Value> a = {tv(input), tv(rois), dv(1.0), iv(2), iv(2)};
      a.insert(a.end(), tail.begin(), tail.end());
      return a;
    };
    const std::string batch = message_of(op, args(x, make({2, 5}, {0, 1, 1, 4, 4, 1, 0, 0, 2, 2})));
    CHECK(contains(batch, op));
    CHECK(contains(batch, "'rois': row 1 names batch index 1"));
    const std::string shape = message_of(op, args(x, make({1, 4}, {1, 1, 4, 4})));
    CHECK(contains(shape, "'rois' must have shape [K, 5]"));
    CHECK(contains(message_of(op, args(x, make({1, 5}, {0, 1, 1, 4, 4}, DType::Float64))), "same dtype"));
    CHECK(contains(message_of(op, args(make({6, 6}, std::vector<double>(36, 0)), good)), "'input' must be a 4-d"));
    // The operator is still usable after each refusal.
    CHECK(call1(op, args(x, good)).sizes() == Shape{1, 2, 2, 2});
  }
  for (const char* op : {"torchvision::ps_roi_align", "torchvision::ps_roi_pool"}) {
    INFO(op);
    std::vector<Value> a = {tv(ramp(10, 6, 6)), tv(good), dv(1.0), iv(3), iv(3)};
    if (std::string(op) == "torchvision::ps_roi_align") a.push_back(iv(2));
    const std::string channels = message_of(op, a);
    CHECK(contains(channels, op));
    CHECK(contains(channels, "'input' has 10 channels, which is not a multiple of pooled_height * pooled_width = 9"));
    a[0] = tv(ramp(9, 6, 6));
    CHECK(call(op, a)[0].tensor.sizes() == Shape{1, 1, 3, 3});
  }
  const std::string nms = message_of("torchvision::nms", {tv(make({2, 4}, std::vector<double>(8, 0))), tv(make({3}, {1, 2, 3})), dv(0.5)});
  CHECK(contains(nms, "'scores' must have shape [2]"));
  Tensor offset = make({1, 18, 3, 3}, std::vector<double>(162, 0.0));
  const std::string deform = message_of("torchvision::deform_conv2d",
      {tv(ramp(1, 3, 3)), tv(make({1, 1, 3, 3}, std::vector<double>(9, 1.0))), tv(make({1, 8, 3, 3}, std::vector<double>(72, 0.0))),
       tv(make({1, 1}, {0})), tv(make({1}, {0})), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), bv(false)});
  CHECK(contains(deform, "'offset' must have shape [1, 18, 3, 3]"));
  const std::string weight = message_of("torchvision::deform_conv2d",
      {tv(ramp(1, 3, 3)), tv(make({1, 2, 3, 3}, std::vector<double>(18, 1.0))), tv(offset),
       tv(make({1, 1}, {0})), tv(make({1}, {0})), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), iv(1), bv(false)});
  CHECK(contains(weight, "'weight' must have channels / groups = 1 / 1"));
}

TEST_CASE("deform_conv2d samples at its offsets", "[ops][torchvision]") {
  // 1x1 kernel, no padding: output (y, x) reads the input at (y + dy, x + dx).
  Tensor x = ramp(1, 3, 3);
  Tensor w = make({1, 1, 1, 1}, {1});
  std::vector<double> off(2 * 9, 0.0);
  off[0] = 0.5;           // output (0, 0): half a row down: (0 + 3) / 2
  off[9 + 4] = 0.25;      // output (1, 1): a quarter column right: 4.25
  off[8] = 1.5;           // output (2, 2): a row and a half down, outside the input: 0
  Tensor out = call1("torchvision::deform_conv2d", {tv(x), tv(w), tv(make({1, 2, 3, 3}, off)), tv(make({1, 1}, {0})),
                                                    tv(make({1}, {0})), iv(1), iv(1), iv(0), iv(0), iv(1), iv(1), iv(1),
                                                    iv(1), bv(false)});
  check_values(out, {1, 1, 3, 3}, {1.5, 1, 2, 3, 4.25, 5, 6, 7, 0});
}

TEST_CASE("roi batch indices are truncated toward zero, as torchvision reads them", "[ops][torchvision][errors]") {
  Tensor x = ramp(1, 8, 8);
  auto roi_align = [&](const Tensor& rois) {
    return std::vector<Value>{tv(x), tv(rois), dv(1.0), iv(2), iv(2), iv(2), bv(true)};
  };
  // 0.9 and -0.5 both name image 0; -1 and NaN name none.
  Tensor near_zero = call1("torchvision::roi_align", roi_align(make({2, 5}, {0.9, 1, 1, 5, 5, -0.5, 1, 1, 5, 5})));
  check_values(near_zero, {2, 1, 2, 2}, {13.5, 15.5, 29.5, 31.5, 13.5, 15.5, 29.5, 31.5});
  CHECK(contains(message_of("torchvision::roi_align", roi_align(make({1, 5}, {-1, 1, 1, 5, 5}))), "batch index -1"));
  CHECK(contains(message_of("torchvision::roi_align", roi_align(make({1, 5}, {kNaN, 1, 1, 5, 5}))), "'rois': row 0"));
  // Non-contiguous rois (every other row of a [2, 5] tensor seen through a transpose) read like contiguous ones.
  Tensor wide = make({5, 2}, {0, 0, 1, 9, 1, 9, 5, 9, 5, 9});
  Tensor rois = call1("aten::t", {tv(wide)});
  REQUIRE_FALSE(rois.is_contiguous());
  Tensor out = call1("torchvision::roi_align", roi_align(rois));
  check_values(out, {2, 1, 2, 2}, {13.5, 15.5, 29.5, 31.5, 0, 0, 0, 0});
}

TEST_CASE("non-finite rois are refused and NaN offsets sample zeros", "[ops][torchvision][errors]") {
  Tensor x = ramp(1, 6, 6);
  const std::string message =
      message_of("torchvision::roi_pool", {tv(x), tv(make({2, 5}, {0, 1, 1, 4, 4, 0, 1, kNaN, 4, 4})), dv(1.0), iv(2), iv(2)});
  CHECK(contains(message, "'rois': row 1 has a non-finite coordinate"));
  CHECK(contains(message_of("torchvision::roi_align", {tv(x), tv(make({1, 5}, {0, 1, 1, kInf, 4})), dv(1.0), iv(2), iv(2),
                                                        iv(-1), bv(false)}),
                 "non-finite"));
  std::vector<double> off(2 * 36, 0.0);
  off[0] = kNaN;  // output (0, 0) samples at NaN rows
  Tensor out = call1("torchvision::deform_conv2d", {tv(x), tv(make({1, 1, 1, 1}, {1})), tv(make({1, 2, 6, 6}, off)),
                                                    tv(make({1, 1}, {0})), tv(make({1}, {0})), iv(1), iv(1), iv(0), iv(0),
                                                    iv(1), iv(1), iv(1), iv(1), bv(false)});
  CHECK(out.item_as_double(0) == 0.0);
  CHECK(out.item_as_double(7) == 7.0);
}

TEST_CASE("an adaptive grid too large to sample is refused", "[ops][torchvision][errors]") {
  Tensor x = ramp(1, 6, 6);
  Tensor huge = make({1, 5}, {0, 0, 0, 1e9, 1e9});
  try {
    call("torchvision::roi_align", {tv(x), tv(huge), dv(1.0), iv(2), iv(2), iv(0), bv(false)});
    FAIL("a 1e9 x 1e9 roi with an adaptive grid ran");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Unsupported);
    CHECK(contains(e.what(), "'rois': row 0"));
  }
  // roi_pool clips such a box to the input: its maximum is the whole plane's.
  check_values(call1("torchvision::roi_pool", {tv(x), tv(make({1, 5}, {0, -1e30, -1e30, 1e30, 1e30})), dv(1.0), iv(1), iv(1)}),
               {1, 1, 1, 1}, {35});
  // A fixed sampling ratio samples the same box at 2x2 points per bin.
  CHECK(call1("torchvision::roi_align", {tv(x), tv(huge), dv(1.0), iv(2), iv(2), iv(2), bv(false)}).sizes() == Shape{1, 1, 2, 2});
}
