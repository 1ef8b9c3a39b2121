// The spectral folder's operators against values printed by torch 2.6
// (torch.ops.aten._fft_*, torch.fft.*, torch.stft/istft and the window
// functions on the inputs below; float32 results compared at 1e-5, float64
// at 1e-9).
#include <catch2/catch.hpp>

#include "ops/complex_test.h"
#include "tensor/tensor.h"
#include "util/error.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

const DType c64 = DType::Complex64, c128 = DType::Complex128;

Tensor x7() { return make(DType::Float64, {7}, {0.5, -1, 2, 3, -0.25, 1.5, 0.75}); }
Tensor z5() { return make_complex(c64, {5}, {1.0, 0.5, -0.5, 1.0, 2.0, -1.0, 0.25, 0.75, 1.0, -0.5}); }
Tensor z23() { return make_complex(c64, {2, 3}, {-1.0, 0.5, -0.5, -1.0, 0.0, 2.0, 0.5, 1.0, 1.0, 0.0, 1.5, -0.5}); }
Tensor x6() { return make({2, 3}, {1.0, 2, -1, 0.5, 3, 2}); }
Tensor signal12() { return make({12}, {0.5, -1, 2, 3, -0.25, 1.5, 0.75, -2, 1, 0.25, -0.5, 2.5}); }

}  // namespace

TEST_CASE("_fft_r2c: onesided and full, the three normalizations, a Bluestein length", "[spectral]") {
  check_complex(call1("aten::_fft_r2c", {tv(x7()), ints({0}), iv(0), bv(true)}), c128, {4}, {6.5, 0.0, -2.912360106043436, -0.5293810139039232, -0.883163849057871, 4.464018033898068, 2.2955239551013076, -2.0183034299011853}, 1e-9);
  check_complex(call1("aten::_fft_r2c", {tv(x7()), ints({0}), iv(1), bv(true)}), c128, {4}, {2.456769074559977, 0.0, -1.1007686526938043, -0.20008721594128673, -0.3338045587899589, 1.6872402236859696, 0.8676265019699226, -0.7628469922553173}, 1e-9);
  check_complex(call1("aten::_fft_r2c", {tv(x7()), ints({-1}), iv(2), bv(true)}), c128, {4}, {0.9285714285714285, 0.0, -0.4160514437204908, -0.07562585912913189, -0.12616626415112442, 0.6377168619854382, 0.3279319935859011, -0.288329061414455}, 1e-9);
  check_complex(call1("aten::_fft_r2c", {tv(x7()), ints({0}), iv(0), bv(false)}), c128, {7}, {6.5, 0.0, -2.912360106043436, -0.5293810139039232, -0.883163849057871, 4.464018033898068, 2.2955239551013076, -2.0183034299011853, 2.2955239551013076, 2.0183034299011853, -0.883163849057871, -4.464018033898068, -2.912360106043436, 0.5293810139039232}, 1e-9);
  CHECK(error_code_of("aten::_fft_r2c", {tv(z5()), ints({0}), iv(0), bv(true)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::_fft_r2c", {tv(x7()), ints({0}), iv(3), bv(true)}) == ErrorCode::BadInput);
}

TEST_CASE("_fft_c2r and _fft_c2c", "[spectral]") {
  check_values(call1("aten::_fft_c2r", {tv(z5()), ints({0}), iv(2), iv(8)}), {8}, {0.6875, -0.1919417381286621, -0.3125, -0.4267767071723938, 0.8125, 0.6919417381286621, -0.1875, -0.0732232928276062}, 1e-5);
  check_values(call1("aten::_fft_c2r", {tv(z5()), ints({0}), iv(0), iv(7)}), {7}, {4.5, -1.22869074344635, -3.7144851684570312, 0.3898453712463379, 8.177490234375, -0.4247335195541382, -0.6994251012802124}, 1e-5);
  check_complex(call1("aten::_fft_c2c", {tv(z23()), ints({0, 1}), iv(0), bv(true)}), c64, {2, 3}, {1.5, 2.0, -3.6650633811950684, 2.116025447845459, 0.6650633811950684, 0.3839746117591858, -4.5, 1.0, -3.0310888290405273, -1.25, 3.0310888290405273, -1.25}, 1e-5);
  check_complex(call1("aten::_fft_c2c", {tv(z23()), ints({1}), iv(2), bv(false)}), c64, {2, 3}, {-0.5, 0.5, 0.6160253882408142, -0.14433756470680237, -1.116025447845459, 0.14433756470680237, 1.0, 0.1666666716337204, -0.39433759450912476, 0.27232909202575684, -0.10566243529319763, 0.5610042810440063}, 1e-5);
  Tensor r = call1("aten::_fft_c2r", {tv(z23()), ints({0, 1}), iv(1), iv(4)});
  CHECK(r.dtype() == DType::Float32);
  check_values(r, {2, 4}, {0.7071067690849304, 0.0, 0.0, -1.4142135381698608, -2.1213202476501465, 0.7071067690849304, 0.0, -0.7071067690849304}, 1e-5);
  CHECK(error_code_of("aten::_fft_c2r", {tv(x7()), ints({0}), iv(0), iv(4)}) == ErrorCode::BadInput);
}

TEST_CASE("torch.fft functions: n, dim, norm, promotion", "[spectral]") {
  check_values(call1("aten::fft_hfft", {tv(x6()), iv(5)}), {2, 5}, {3.0, 3.85410213470459, -2.85410213470459, -2.85410213470459, 3.85410213470459, 10.5, -0.8819658756256104, -3.1180341243743896, -3.1180341243743896, -0.8819658756256104}, 1e-5);
  check_values(call1("aten::fft_irfft", {tv(x6()), iv(3), iv(0), sv("ortho")}), {3, 3}, {1.154700517654419, 4.618802070617676, 1.7320507764816284, 0.28867512941360474, -0.5773502588272095, -1.7320507764816284, 0.28867512941360474, -0.5773502588272095, -1.7320507764816284}, 1e-5);
  check_complex(call1("aten::fft_rfft2", {tv(x6())}), c64, {2, 2}, {7.5, 0.0, -1.5, -3.464101552963257, -3.5, 0.0, 2.5, -1.7320506572723389}, 1e-5);
  check_complex(call1("aten::fft_ihfft", {tv(x6()), none(), iv(-1), sv("forward")}), c64, {2, 2}, {2.0, -0.0, 0.5, 2.598076105117798, 5.5, -0.0, -2.0, 0.8660253882408142}, 1e-5);
  check_complex(call1("aten::fft_fft", {tv(make(DType::Int64, {5}, {1, 2, 3, 4, 5}))}), c64, {5}, {15.0, 0.0, -2.499999761581421, 3.4409549236297607, -2.499999761581421, 0.8122991919517517, -2.499999761581421, -0.8122991919517517, -2.499999761581421, -3.4409549236297607}, 1e-5);
  check_values(call1("aten::fft_hfftn", {tv(x6())}), {2, 4}, {12.5, 0.5, -7.5, 0.5, -4.5, 3.5, -0.5, 3.5}, 1e-5);
  check_complex(call1("aten::fft_ihfft2", {tv(x6())}), c64, {2, 2}, {1.25, -0.0, -0.25, 0.5773502588272095, -0.5833333730697632, 0.0, 0.4166666865348816, 0.28867512941360474}, 1e-5);
  check_values(call1("aten::fft_irfftn", {tv(x6()), ints({3, 4})}), {3, 4}, {1.0416667461395264, 0.0416666679084301, -0.625, 0.0416666679084301, -0.02083333395421505, -0.2038460224866867, -0.1875, 0.6621793508529663, -0.02083333395421505, 0.6621793508529663, -0.1875, -0.2038460224866867}, 1e-5);
  Tensor round_trip = call1("aten::fft_ifft", {tv(call1("aten::fft_fft", {tv(z5())}))});
  check_complex(round_trip, c64, {5}, {1.0, 0.5, -0.5, 1.0, 2.0, -1.0, 0.25, 0.75, 1.0, -0.5}, 1e-5);
  CHECK(error_code_of("aten::fft_fft", {tv(x6()), none(), iv(0), sv("sideways")}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::fft_irfft", {tv(make({1}, {1}))}) == ErrorCode::BadInput);  // n = 0 points
  CHECK(error_code_of("aten::fft_rfft", {tv(z5())}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::fft_fftn", {tv(x6()), none(), ints({1, -1})}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::fft_fft", {tv(make(DType::Float16, {2}, {1, 2}))}) == ErrorCode::Unsupported);
}

TEST_CASE("fftshift, ifftshift, fftfreq, rfftfreq", "[spectral]") {
  Tensor grid = make({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  check_values(call1("aten::fft_fftshift", {tv(grid)}), {2, 5}, {8.0, 9.0, 5.0, 6.0, 7.0, 3.0, 4.0, 0.0, 1.0, 2.0});
  check_values(call1("aten::fft_ifftshift", {tv(grid), ints({1})}), {2, 5}, {2.0, 3.0, 4.0, 0.0, 1.0, 7.0, 8.0, 9.0, 5.0, 6.0});
  check_values(call1("aten::fft_fftfreq", {iv(5), dv(0.1)}), {5}, {0.0, 2.0, 4.0, -4.0, -2.0});
  check_values(call1("aten::fft_fftfreq", {iv(6)}), {6}, {0.0, 0.1666666716337204, 0.3333333432674408, -0.5, -0.3333333432674408, -0.1666666716337204});
  Tensor r = call1("aten::fft_rfftfreq", {iv(7), dv(2.0), dt(DType::Float64)});
  CHECK(r.dtype() == DType::Float64);
  check_values(r, {4}, {0.0, 0.07142857142857142, 0.14285714285714285, 0.21428571428571427}, 1e-12);
}

TEST_CASE("window functions", "[spectral]") {
  check_values(call1("aten::hann_window", {iv(5)}), {5}, {0.0, 0.34549152851104736, 0.9045085310935974, 0.9045084714889526, 0.3454914391040802});
  check_values(call1("aten::hann_window.periodic", {iv(5), bv(false)}), {5}, {0.0, 0.5, 1.0, 0.5, 2.9802322387695312e-08});
  check_values(call1("aten::hamming_window", {iv(6), dt(DType::Float64)}), {6}, {0.08000000000000002, 0.30999999999999994, 0.7699999999999999, 1.0, 0.7700000000000002, 0.31000000000000033}, 1e-12);
  check_values(call1("aten::hamming_window.periodic_alpha_beta", {iv(5), bv(false), dv(0.6), dv(0.3)}), {5}, {0.30000001192092896, 0.6000000238418579, 0.9000000357627869, 0.6000000238418579, 0.30000004172325134});
  check_values(call1("aten::blackman_window", {iv(7)}), {7}, {-2.9802322387695312e-08, 0.09045341610908508, 0.4591829478740692, 0.9203636646270752, 0.9203635454177856, 0.4591829776763916, 0.09045332670211792});
  check_values(call1("aten::bartlett_window", {iv(6)}), {6}, {0.0, 0.3333333432674408, 0.6666666865348816, 1.0, 0.6666666269302368, 0.33333325386047363});
  check_values(call1("aten::bartlett_window.periodic", {iv(5), bv(false)}), {5}, {0.0, 0.5, 1.0, 0.5, 0.0});
  check_values(call1("aten::kaiser_window", {iv(6)}), {6}, {5.2773437346331775e-05, 0.05475931614637375, 0.5188445448875427, 1.0, 0.5188445448875427, 0.05475931614637375});
  check_values(call1("aten::kaiser_window.beta", {iv(5), bv(false), dv(5.0)}), {5}, {0.036710888147354126, 0.5528515577316284, 1.0, 0.5528515577316284, 0.036710888147354126});
  check_values(call1("aten::hann_window", {iv(1)}), {1}, {1.0});
  CHECK(call1("aten::hann_window", {iv(0)}).numel() == 0);
  CHECK(error_code_of("aten::hann_window", {iv(-1)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::hann_window", {iv(4), dt(DType::Int64)}) == ErrorCode::BadInput);
}

TEST_CASE("stft and istft", "[spectral]") {
  Tensor window4 = call1("aten::hann_window", {iv(4)});
  check_complex(call1("aten::stft", {tv(signal12()), iv(4), iv(2), none(), tv(window4), bv(false), none(), bv(true)}),
                c64, {3, 5}, {3.0, 0.0, 2.0, 0.0, 0.5, 0.0, 0.125, 0.0, 0.875, 0.0, -2.0, 2.0, 0.25, -0.75, -0.75, -1.75, -1.0, 1.125, 0.5, 1.125, 1.0, 0.0, -2.5, 0.0, 1.0, 0.0, 1.875, 0.0, -1.875, 0.0}, 1e-5);
  // a 3-sample window centered in n_fft = 4, normalized, return_complex=False
  Tensor out = call1("aten::stft", {tv(signal12()), iv(4), iv(3), iv(3), tv(make({3}, {1.0, 2.0, 0.5})), bv(true),
                                    none(), bv(false)});
  check_values(out, {3, 3, 2}, {-0.25, 0.0, 1.625, 0.0, -1.375, 0.0, -0.25, 1.0, 1.125, 0.25, 0.125, 2.0, 1.75, 0.0, 2.125, 0.0, 2.625, 0.0}, 1e-5);
  Tensor centered = call1("aten::stft.center", {tv(signal12()), iv(4), iv(1), none(), tv(window4), bv(true),
                                                sv("reflect"), bv(false), none(), bv(true)});
  check_complex(centered, c64, {3, 13}, {-0.5, 0.0, 0.25, 0.0, 3.0, 0.0, 3.875, 0.0, 2.0, 0.0, 1.75, 0.0, 0.5, 0.0, -1.125, 0.0, 0.125, 0.0, 0.5, 0.0, 0.875, 0.0, 2.0, 0.0, 0.875, 0.0, -0.5, 0.0, 1.0, 0.75, -2.0, 2.0, -3.0, -1.125, 0.25, -0.75, -1.5, 0.5, -0.75, -1.75, 2.0, 0.125, -1.0, 1.125, -0.25, -0.75, 0.5, 1.125, -2.5, 0.0, 0.5, -1.125, 1.5, 0.0, -2.25, 0.0, 1.0, 0.0, 2.125, 0.0, -2.5, 0.0, 1.25, 0.0, 1.0, 0.0, -2.875, 0.0, 1.875, 0.0, 0.0, 0.0, -1.875, 0.0, 3.0, 0.0, -1.875, 0.0}, 1e-5);
  check_values(call1("aten::istft", {tv(centered), iv(4), iv(1), none(), tv(window4)}), {12}, {0.5, -1.0, 2.0, 3.0, -0.25, 1.5, 0.75, -2.0, 1.0, 0.25, -0.5, 2.5}, 1e-5);
  Tensor plain = call1("aten::stft", {tv(signal12()), iv(4), iv(1), none(), none(), bv(false), none(), bv(true)});
  check_values(call1("aten::istft", {tv(plain), iv(4), iv(1), none(), none(), bv(false), bv(false), none(), iv(10)}),
               {10}, {0.5, -1.0, 2.0, 3.0, -0.25, 1.5, 0.75, -2.0, 1.0, 0.25}, 1e-5);
  // a Hann window without centering leaves the first sample with no overlap: torch refuses
  Tensor hann_frames =
      call1("aten::stft", {tv(signal12()), iv(4), iv(1), none(), tv(window4), bv(false), none(), bv(true)});
  CHECK(error_code_of("aten::istft", {tv(hann_frames), iv(4), iv(1), none(), tv(window4), bv(false)}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::stft", {tv(signal12()), iv(4)}) == ErrorCode::BadInput);  // return_complex required
  CHECK(error_code_of("aten::stft", {tv(signal12()), iv(13), none(), none(), none(), bv(false), none(), bv(true)}) ==
        ErrorCode::BadInput);
}
