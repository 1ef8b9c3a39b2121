// The complex folder's operators and the complex paths of the pointwise
// arithmetic, against values printed by torch 2.6 (float32 printed with
// repr, compared at 1e-6).
#include <catch2/catch.hpp>

#include <cmath>

#include "ops/complex_test.h"
#include "tensor/tensor.h"
#include "util/error.h"

using namespace pt2web;
using namespace pt2web::op_test;

namespace {

const DType c64 = DType::Complex64;

// torch.complex(tensor([1., -.5, 2, .25, 1]), tensor([.5, 1, -1, .75, -.5]))
Tensor z5() { return make_complex(c64, {5}, {1.0, 0.5, -0.5, 1.0, 2.0, -1.0, 0.25, 0.75, 1.0, -0.5}); }

}  // namespace

TEST_CASE("real, imag and view_as_real are views of a complex tensor's storage", "[complex]") {
  Tensor z = z5();
  Tensor re = call1("aten::real", {tv(z)}), im = call1("aten::imag", {tv(z)});
  check_values(re, {5}, {1.0, -0.5, 2.0, 0.25, 1.0});
  check_values(im, {5}, {0.5, 1.0, -1.0, 0.75, -0.5});
  CHECK(re.storage() == z.storage());
  Tensor parts = call1("aten::view_as_real", {tv(z)});
  CHECK(parts.sizes() == Shape{5, 2});
  CHECK(parts.dtype() == DType::Float32);
  Tensor back = call1("aten::view_as_complex", {tv(parts)});
  check_complex(back, c64, {5}, {1.0, 0.5, -0.5, 1.0, 2.0, -1.0, 0.25, 0.75, 1.0, -0.5});
  // a strided complex view (every other element) keeps working through real()
  Tensor odd = call1("aten::slice.Tensor", {tv(z), iv(0), iv(1), iv(5), iv(2)});
  check_values(call1("aten::imag", {tv(odd)}), {2}, {1.0, 0.75});
  // real() of a real tensor is the tensor; imag() refuses it
  Tensor x = make({2}, {1, 2});
  CHECK(call1("aten::real", {tv(x)}).storage() == x.storage());
  CHECK(error_code_of("aten::imag", {tv(x)}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::view_as_real", {tv(x)}) == ErrorCode::BadInput);
}

TEST_CASE("view_as_complex checks ATen's layout rules", "[complex]") {
  CHECK(error_code_of("aten::view_as_complex", {tv(make({3}, {1, 2, 3}))}) == ErrorCode::BadInput);
  CHECK(error_code_of("aten::view_as_complex", {tv(make(DType::Int64, {2}, {1, 2}))}) == ErrorCode::BadInput);
  Tensor t = make({2, 2}, {1, 2, 3, 4});
  Tensor transposed = call1("aten::t", {tv(t)});
  CHECK(error_code_of("aten::view_as_complex", {tv(transposed)}) == ErrorCode::BadInput);
  check_complex(call1("aten::view_as_complex", {tv(t)}), c64, {2}, {1, 2, 3, 4});
}

TEST_CASE("conj and its relatives", "[complex]") {
  Tensor z = z5();
  for (const char* name : {"aten::conj", "aten::_conj", "aten::conj_physical"})
    check_complex(call1(name, {tv(z)}), c64, {5}, {1.0, -0.5, -0.5, -1.0, 2.0, 1.0, 0.25, -0.75, 1.0, 0.5});
  check_complex(z, c64, {5}, {1.0, 0.5, -0.5, 1.0, 2.0, -1.0, 0.25, 0.75, 1.0, -0.5});  // input unchanged
  Tensor x = make({2}, {1, -2});
  for (const char* name : {"aten::conj", "aten::conj_physical", "aten::resolve_conj", "aten::resolve_neg"})
    check_values(call1(name, {tv(x)}), {2}, {1, -2});
}

TEST_CASE("angle of complex and real tensors", "[complex]") {
  check_values(call1("aten::angle", {tv(z5())}), {5},
               {0.46364760398864746, 2.0344438552856445, -0.46364760398864746, 1.249045729637146, -0.46364760398864746});
  // torch.angle(tensor([1., -2, nan, -0., 0., -inf]))
  Tensor r = make({6}, {1.0, -2, kNaN, -0.0, 0.0, -kInf});
  check_values(call1("aten::angle", {tv(r)}), {6}, {0.0, 3.1415927410125732, kNaN, 0.0, 0.0, 3.1415927410125732});
  Tensor ints = call1("aten::angle", {tv(make(DType::Int64, {3}, {-3, 0, 4}))});
  CHECK(ints.dtype() == DType::Float32);
  check_values(ints, {3}, {3.1415927410125732, 0.0, 0.0});
  check_values(call1("aten::angle", {tv(make(DType::Float16, {2}, {-1, 2}))}), {2}, {3.140625, 0.0});
}

TEST_CASE("isreal, abs and the complex constructors", "[complex]") {
  Tensor zr = make_complex(c64, {3}, {0, 0, 0, 2, 1, 0});
  check_values(call1("aten::isreal", {tv(zr)}), {3}, {1, 0, 1});
  check_values(call1("aten::isreal", {tv(make(DType::Int64, {2}, {1, 2}))}), {2}, {1, 1});
  Tensor a = call1("aten::abs", {tv(z5())});
  CHECK(a.dtype() == DType::Float32);
  check_values(a, {5}, {1.1180340051651, 1.1180340051651, 2.2360680103302, 0.7905694246292114, 1.1180340051651});
  // torch.polar(tensor([2., 1]), tensor([[.5], [-1.]]))
  check_complex(call1("aten::polar", {tv(make({2}, {2, 1})), tv(make({2, 1}, {0.5, -1.0}))}), c64, {2, 2},
                {1.7551651000976562, 0.9588510990142822, 0.8775825500488281, 0.4794255495071411, 1.0806045532226562,
                 -1.6829419136047363, 0.5403022766113281, -0.8414709568023682});
  Tensor z = call1("aten::complex", {tv(make(DType::Float64, {2}, {1, -2})), tv(make(DType::Float64, {2}, {0.5, 3}))});
  check_complex(z, DType::Complex128, {2}, {1, 0.5, -2, 3});
  CHECK(error_code_of("aten::complex", {tv(make({2}, {1, 2})), tv(make(DType::Float64, {2}, {1, 2}))}) ==
        ErrorCode::BadInput);
  CHECK(error_code_of("aten::polar", {tv(make(DType::Int64, {1}, {1})), tv(make(DType::Int64, {1}, {1}))}) ==
        ErrorCode::BadInput);
}

TEST_CASE("arithmetic promotes to complex", "[complex]") {
  Tensor zz = make_complex(c64, {2}, {1.0, 0.5, -2, 3});
  check_complex(call1("aten::mul.Tensor", {tv(zz), tv(make({2}, {2.0, -1}))}), c64, {2}, {2.0, 1.0, 2.0, -3.0});
  Tensor plus_one = call1("aten::add.Scalar", {tv(zz), dv(1.0)});
  check_complex(call1("aten::div.Tensor", {tv(zz), tv(plus_one)}), c64, {2},
                {0.529411792755127, 0.11764705926179886, 1.100000023841858, 0.30000001192092896});
  check_complex(call1("aten::sub.Tensor", {tv(zz), tv(zz), dv(2.5)}), c64, {2}, {-1.5, -0.75, 3.0, -4.5});
  check_complex(call1("aten::mul.Tensor", {tv(zz), tv(call1("aten::conj", {tv(zz)}))}), c64, {2}, {1.25, 0, 13, 0});
  check_complex(call1("aten::add.Tensor", {tv(zz), tv(make(DType::Int64, {2}, {3, 4}))}), c64, {2}, {4, 0.5, 2, 3});
  CHECK(call1("aten::add.Tensor", {tv(zz), tv(make(DType::Float64, {1}, {1}))}).dtype() == DType::Complex128);
  check_complex(call1("aten::neg", {tv(zz)}), c64, {2}, {-1.0, -0.5, 2, -3});
}

TEST_CASE("casts take the real part and generic ops move complex elements", "[complex]") {
  Tensor zz = make_complex(c64, {2}, {1.0, 0.5, -2, 3});
  check_values(zz.to(DType::Float32), {2}, {1, -2});
  check_values(make_complex(c64, {3}, {0, 0, 0, 2, 1, 0}).to(DType::Bool), {3}, {0, 1, 1});
  check_complex(make({2}, {1.5, -1}).to(DType::Complex128), DType::Complex128, {2}, {1.5, 0, -1, 0});
  check_complex(call1("aten::_to_copy", {tv(zz), dt(DType::Complex128)}), DType::Complex128, {2}, {1.0, 0.5, -2, 3});
  check_complex(call1("aten::cat", {tl({zz, zz})}), c64, {4}, {1.0, 0.5, -2, 3, 1.0, 0.5, -2, 3});
  Tensor grid = make_complex(c64, {2, 2}, {1, 1, 2, 2, 3, 3, 4, 4});
  check_complex(call1("aten::permute", {tv(grid), ints({1, 0})}).contiguous(), c64, {2, 2}, {1, 1, 3, 3, 2, 2, 4, 4});
  check_complex(call1("aten::clone", {tv(call1("aten::select.int", {tv(grid), iv(1), iv(1)}))}), c64, {2},
                {2, 2, 4, 4});
  Tensor rows = make_i64({3}, {1, 0, 1});
  check_complex(call1("aten::index_select", {tv(grid), iv(0), tv(rows)}), c64, {3, 2}, {3, 3, 4, 4, 1, 1, 2, 2, 3, 3, 4, 4});
  check_complex(call1("aten::index.Tensor", {tv(grid), optional_tl({rows})}), c64, {3, 2},
                {3, 3, 4, 4, 1, 1, 2, 2, 3, 3, 4, 4});
  check_complex(call1("aten::flip", {tv(zz), ints({0})}), c64, {2}, {-2, 3, 1.0, 0.5});
  check_complex(call1("aten::stack", {tl({zz, zz}), iv(1)}), c64, {2, 2}, {1.0, 0.5, 1.0, 0.5, -2, 3, -2, 3});
  check_complex(call1("aten::expand", {tv(zz), ints({2, 2})}).contiguous(), c64, {2, 2}, {1.0, 0.5, -2, 3, 1.0, 0.5, -2, 3});
}

TEST_CASE("sum and mean of complex tensors reduce both parts", "[complex]") {
  Tensor grid = make_complex(c64, {2, 2}, {1, 1, 2, 2, 3, 3, 4, 4});
  check_complex(call1("aten::sum", {tv(z5())}), c64, {}, {3.75, 0.75});
  check_complex(call1("aten::sum.dim_IntList", {tv(grid), ints({0})}), c64, {2}, {4, 4, 6, 6});
  check_complex(call1("aten::mean.dim", {tv(grid), ints({-1}), bv(true)}), c64, {2, 1}, {1.5, 1.5, 3.5, 3.5});
  check_complex(call1("aten::mean", {tv(z5())}), c64, {}, {0.75, 0.15});
  CHECK(error_code_of("aten::nansum", {tv(grid)}) == ErrorCode::BadInput);
}

TEST_CASE("factories and fills make complex tensors from real numbers", "[complex]") {
  check_complex(call1("aten::full_like", {tv(z5()), dv(2.5)}), c64, {5}, {2.5, 0, 2.5, 0, 2.5, 0, 2.5, 0, 2.5, 0});
  check_complex(call1("aten::ones", {ints({2}), dt(DType::Complex128)}), DType::Complex128, {2}, {1, 0, 1, 0});
  check_complex(call1("aten::zeros_like", {tv(z5())}), c64, {5}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  Tensor z = z5().clone();
  call1("aten::fill_.Scalar", {tv(z), iv(3)});
  check_complex(z, c64, {5}, {3, 0, 3, 0, 3, 0, 3, 0, 3, 0});
}
