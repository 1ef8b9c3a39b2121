// _upsample_bilinear2d_aa (antialias.cpp) against torch 2.6: downsampling
// (widened triangle filter), align_corners, upsampling, the .vec overload
// and a dim left at its size.
#include "ops/op_test.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

// torch.arange(30.).reshape(1, 1, 5, 6) ** 1.5 / 10, as float32 values.
Tensor input() {
  return make({1, 1, 5, 6},
              {0.0, 0.10000000149011612, 0.2828426957130432, 0.5196152329444885, 0.800000011920929, 1.1180340051651,
               1.469693899154663, 1.8520259857177734, 2.2627415657043457, 2.700000047683716, 3.1622776985168457,
               3.648287296295166, 4.156921863555908, 4.687216758728027, 5.238320350646973, 5.809474945068359,
               6.400000095367432, 7.009279727935791, 7.636753082275391, 8.28190803527832, 8.9442720413208,
               9.623409271240234, 10.318914413452148, 11.030412673950195, 11.757551193237305, 12.5,
               13.257451057434082, 14.029611587524414, 14.816207885742188, 15.616978645324707});
}

}  // namespace

TEST_CASE("_upsample_bilinear2d_aa: downsampling, align_corners, upsampling", "[pool]") {
  check_values(call1("aten::_upsample_bilinear2d_aa", {tv(input()), ints({2, 4}), bv(false)}), {1, 1, 2, 4},
               {2.0198963, 2.531662, 3.1295915, 3.7660594, 8.1159973, 9.0268488, 9.9990873, 10.975421}, 1e-6);
  check_values(call1("aten::_upsample_bilinear2d_aa", {tv(input()), ints({3, 2}), bv(true)}), {1, 1, 3, 2},
               {1.9836518, 2.7611122, 7.4552951, 8.7385778, 12.408967, 13.9538059}, 1e-6);
  check_values(call1("aten::_upsample_bilinear2d_aa", {tv(input()), ints({5, 3}), bv(false)}), {1, 1, 5, 3},
               {0.0832632, 0.4134217, 0.8962454, 1.7468431, 2.4878161, 3.304528, 4.5386767, 5.5288258, 6.5767593,
                8.1000366, 9.2879829, 10.5244846, 12.2900152, 13.6471748, 15.0470247},
               1e-6);
  const Tensor corner = call1("aten::slice.Tensor", {tv(call1("aten::slice.Tensor", {tv(input()), iv(2), iv(0), iv(2)})),
                                                     iv(3), iv(0), iv(3)});
  check_values(call1("aten::_upsample_bilinear2d_aa", {tv(corner), ints({3, 5}), bv(false)}), {1, 1, 3, 5},
               {0.0, 0.04, 0.1, 0.2097057, 0.2828427, 0.7348469, 0.8313134, 0.976013, 1.1540805, 1.2727921, 1.4696939,
                1.6226268, 1.852026, 2.0984554, 2.2627416},
               1e-6);
}

TEST_CASE("_upsample_bilinear2d_aa.vec: scale factors give sizes and scales; checks", "[pool]") {
  check_values(call1("aten::_upsample_bilinear2d_aa.vec", {tv(input()), none(), bv(false), doubles({0.5, 0.7})}),
               {1, 1, 2, 4}, {1.321493, 1.7173051, 2.2409277, 2.8282199, 6.2772846, 7.0365796, 7.9226751, 8.8449736},
               1e-6);
  CHECK(error_code_of("aten::_upsample_bilinear2d_aa.vec", {tv(input()), ints({2, 2}), bv(false), doubles({0.5, 0.5})}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::_upsample_bilinear2d_aa", {tv(input()), ints({0, 2}), bv(false)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::_upsample_bilinear2d_aa", {tv(input().to(DType::Float16)), ints({2, 2}), bv(false)}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::_upsample_bilinear2d_aa", {tv(input().to(DType::UInt8)), ints({2, 2}), bv(false)}) ==
        ErrorCode::Unsupported);
}
