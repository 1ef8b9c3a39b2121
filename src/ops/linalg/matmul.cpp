// Matrix products: mm, bmm, addmm, baddbmm, addmv, mv, dot, linear, matmul.
// float32 runs through kernels/gemm; 16-bit floats compute in float32 and
// round once at the end (as ATen accumulates them); other types use a plain loop.
#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/gemm/gemm.h"
#include "kernels/gemm/half_weight_gemv.h"
#include "kernels/parallel/thread_pool.h"
#include "ops/elementwise.h"
#include "ops/linalg/linalg.h"
#include "ops/op_utils.h"
#include "ops/type_promotion.h"
#include "ops/views.h"

namespace pt2web {

namespace {

std::string torch_type_name(DType d) {
  switch (d) {
    case DType::Float32: return "Float";
    case DType::Float64: return "Double";
    case DType::Float16: return "Half";
    case DType::BFloat16: return "BFloat16";
    case DType::Int64: return "Long";
    case DType::Int32: return "Int";
    case DType::Bool: return "Bool";
    default: return dtype_name(d);
  }
}

void check_same_dtype(const Tensor& a, const Tensor& b, const char* what) {
  if (a.dtype() != b.dtype())
    fail(ErrorCode::BadInput, what, " must have the same dtype, but got ", torch_type_name(a.dtype()), " and ",
         torch_type_name(b.dtype()));
}

template <typename T>
void matmul_loop(int64_t M, int64_t N, int64_t K, const T* a, const T* b, T* c) {
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      T acc = T(0);
      for (int64_t k = 0; k < K; ++k) acc += a[i * K + k] * b[k * N + j];
      c[i * N + j] = acc;
    }
}

// The float32 view of a 2-D float32 tensor, strides included (no copy).
MatrixF32 matrix_view(const Tensor& t) { return {t.data<float>(), t.strides()[0], t.strides()[1]}; }

bool computes_in_float32(DType d) { return d == DType::Float32 || d == DType::Float16 || d == DType::BFloat16; }

// [M, K] x [K2, N] needs K == K2.
void check_inner_sizes(int64_t M, int64_t K, int64_t K2, int64_t N) {
  if (K2 != K)
    fail(ErrorCode::BadInput, "mat1 and mat2 shapes cannot be multiplied (", M, "x", K, " and ", K2, "x", N, ")");
}

void check_inner_sizes(const Tensor& a, const Tensor& b) {
  check_inner_sizes(a.size(0), a.size(1), b.size(0), b.size(1));
}

// c[M,N] (row stride N) = a[M,K] x b[K,N] for 2-D tensors of dtype T != bool (any strides).
template <typename T>
void matmul_2d_into(const Tensor& a, const Tensor& b, T* c) {
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  const int64_t ra = a.strides()[0], ca = a.strides()[1], rb = b.strides()[0], cb = b.strides()[1];
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      T acc = T(0);
      for (int64_t k = 0; k < K; ++k)
        acc = elementwise::wrapping_add(acc, elementwise::wrapping_mul(pa[i * ra + k * ca], pb[k * rb + j * cb]));
      c[i * N + j] = acc;
    }
}

bool is_16bit_float(DType d) { return d == DType::Float16 || d == DType::BFloat16; }

// Products of up to this many rows with a 16-bit weight read it in place
// (kernels/gemm/half_weight_gemv.h); more rows widen it once and take the
// packed float32 path, whose blocking pays off when each weight element is
// used by many rows.
constexpr int64_t kHalfWeightMaxRows = 4;

// out[M, N] (float32, contiguous) = a[M, K] w[N, K]^T + bias (N floats, may be
// null) for 16-bit a and w of one dtype, when w's rows are contiguous and M
// is small; false (nothing written) otherwise.
bool half_weight_product(const Tensor& a, const Tensor& w, const float* bias, float* out) {
  const int64_t M = a.size(0), K = a.size(1), N = w.size(0);
  if (M > kHalfWeightMaxRows || !is_16bit_float(w.dtype()) || a.dtype() != w.dtype() ||
      (K > 1 && w.strides()[1] != 1))
    return false;
  const Tensor fa = a.to(DType::Float32).contiguous();
  const HalfWeight weight{reinterpret_cast<const uint16_t*>(w.raw_data()), w.strides()[0],
                          w.dtype() == DType::BFloat16 ? HalfKind::BFloat16 : HalfKind::Float16};
  gemm_half_weight_t_f32(M, N, K, fa.data<float>(), K, weight, out, N, bias);
  return true;
}

// b [K, N] seen as the [N, K] weight whose transpose it is (a view).
Tensor as_weight(const Tensor& b) {
  return b.as_strided({b.size(1), b.size(0)}, {b.strides()[1], b.strides()[0]}, b.storage_offset());
}

// out[M,N] = a x b, `out` contiguous of a's dtype; 16-bit floats compute in float32.
void matmul_2d_into(const Tensor& a, const Tensor& b, Tensor& out) {
  const int64_t M = a.size(0), K = a.size(1), N = b.size(1);
  if (M == 0 || N == 0) return;
  DType dtype = a.dtype();
  if (dtype == DType::Float32) {
    gemm_f32(M, N, K, matrix_view(a), matrix_view(b), out.data<float>(), N, false);
    return;
  }
  if (computes_in_float32(dtype)) {
    Tensor fc = Tensor::uninitialized(DType::Float32, {M, N});  // either product writes all of it
    if (!half_weight_product(a, as_weight(b), nullptr, fc.data<float>())) {
      Tensor fa = a.to(DType::Float32), fb = b.to(DType::Float32);
      gemm_f32(M, N, K, matrix_view(fa), matrix_view(fb), fc.data<float>(), N, false);
    }
    out.copy_from(fc);
    return;
  }
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same<T, bool>::value) {
      fail(ErrorCode::Unsupported, "matrix products of bool tensors are not supported");
    } else if constexpr (std::is_arithmetic<T>::value) {
      matmul_2d_into<T>(a, b, out.data<T>());
    }
  });
}

// [M,K] x [K,N] -> [M,N] (2-D tensors of one dtype; any strides).
Tensor matmul_2d(const Tensor& a, const Tensor& b) {
  check_inner_sizes(a, b);
  Tensor out = Tensor::uninitialized(a.dtype(), {a.size(0), b.size(1)});  // matmul_2d_into writes all of it
  matmul_2d_into(a, b, out);
  return out;
}

// Batched product with broadcast batch dims: [..., M, K] x [..., K, N].
Tensor batched_matmul(const Tensor& a, const Tensor& b) {
  Shape batch_a(a.sizes().begin(), a.sizes().end() - 2);
  Shape batch_b(b.sizes().begin(), b.sizes().end() - 2);
  Shape batch = broadcast_shapes(batch_a, batch_b);
  const int64_t M = a.size(-2), N = b.size(-1);
  Shape out_shape = batch;
  out_shape.push_back(M);
  out_shape.push_back(N);
  Tensor out = Tensor::uninitialized(a.dtype(), out_shape);  // every batch entry's product is written
  Shape a_full = batch, b_full = batch;
  a_full.insert(a_full.end(), a.sizes().end() - 2, a.sizes().end());
  b_full.insert(b_full.end(), b.sizes().end() - 2, b.sizes().end());
  Shape sa = broadcast_strides(a, a_full), sb = broadcast_strides(b, b_full);
  const int64_t count = shape_numel(batch);
  const size_t rank = batch.size();
  std::vector<int64_t> offsets_a(static_cast<size_t>(count)), offsets_b(static_cast<size_t>(count));
  for (int64_t n = 0; n < count; ++n) {
    int64_t rest = n, off_a = a.storage_offset(), off_b = b.storage_offset();
    for (size_t d = rank; d-- > 0;) {
      int64_t i = rest % batch[d];
      rest /= batch[d];
      off_a += i * sa[d];
      off_b += i * sb[d];
    }
    offsets_a[static_cast<size_t>(n)] = off_a;
    offsets_b[static_cast<size_t>(n)] = off_b;
  }
  const int64_t K = a.size(-1);
  check_inner_sizes(M, K, b.size(-2), N);
  if (a.dtype() == DType::Float32 && count > 1) {
    // One product per batch entry, the entries split across threads (each
    // product then runs on one thread).
    // Offsets count from the start of storage, so the bases are shifted back.
    const float* base_a = a.data<float>() - a.storage_offset();
    const float* base_b = b.data<float>() - b.storage_offset();
    float* base_c = out.data<float>();
    parallel::for_each_index(count, M * N * K, [&](int64_t n) {
      gemm_f32(M, N, K, MatrixF32{base_a + offsets_a[n], sa[rank], sa[rank + 1]},
               MatrixF32{base_b + offsets_b[n], sb[rank], sb[rank + 1]}, base_c + n * M * N, N, false);
    });
    return out;
  }
  for (int64_t n = 0; n < count; ++n) {
    Tensor a2 = a.as_strided({M, K}, {sa[rank], sa[rank + 1]}, offsets_a[static_cast<size_t>(n)]);
    Tensor b2 = b.as_strided({K, N}, {sb[rank], sb[rank + 1]}, offsets_b[static_cast<size_t>(n)]);
    Tensor c2 = out.as_strided({M, N}, {N, 1}, n * M * N);
    matmul_2d_into(a2, b2, c2);
  }
  return out;
}

// torch.matmul's rules for 1-D operands and broadcasting.
Tensor matmul(const Tensor& a, const Tensor& b) {
  check_same_dtype(a, b, "expected m1 and m2 to");
  if (a.dim() == 0 || b.dim() == 0)
    fail(ErrorCode::BadInput, "both arguments to matmul need to be at least 1D, but they are ", a.dim(), "D and ",
         b.dim(), "D");
  Tensor x = a.dim() == 1 ? unsqueeze_view(a, 0) : a;
  Tensor y = b.dim() == 1 ? unsqueeze_view(b, 1) : b;
  if (x.size(-1) != y.size(-2))
    fail(ErrorCode::BadInput, "matmul: shapes cannot be multiplied (", shape_to_string(a.sizes()), " and ",
         shape_to_string(b.sizes()), ")");
  Tensor out = x.dim() == 2 && y.dim() == 2 ? matmul_2d(x, y) : batched_matmul(x, y);
  if (b.dim() == 1) out = squeeze_view(out, {out.dim() - 1});
  if (a.dim() == 1) out = squeeze_view(out, {out.dim() - (b.dim() == 1 ? 1 : 2)});
  return out;
}

// out = beta * self + alpha * product, self broadcast to product's shape.
Tensor scale_and_add(const Tensor& product, const Tensor& self, const Scalar& beta, const Scalar& alpha) {
  using namespace elementwise;
  const DType dtype = product.dtype();
  double b = beta.to_double(), al = alpha.to_double();
  if (!self.defined() || b == 0.0) {
    if (al == 1.0) return product;
    return map_elements<Kinds::All, false>(
        dtype, [al](auto v) { return v * static_cast<decltype(v)>(al); }, kernel_input(operand(product), dtype));
  }
  return map_elements<Kinds::All, false>(
      dtype,
      [b, al](auto p, auto s) {
        using M = decltype(p);
        return static_cast<M>(al) * p + static_cast<M>(b) * s;
      },
      kernel_input(operand(product), dtype), kernel_input(operand(self), dtype));
}

void mm_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  if (a.dim() != 2 || b.dim() != 2) fail(ErrorCode::BadInput, c.where(), "both arguments must be 2-D");
  check_same_dtype(a, b, "self and mat2");
  c.push(matmul_2d(a, b));
}

// bmm's and baddbmm's operands: 3-D, the same batch size.
void check_batches(const OpCall& c, const Tensor& a, const Tensor& b) {
  if (a.dim() != 3 || b.dim() != 3 || a.size(0) != b.size(0))
    fail(ErrorCode::BadInput, c.where(), "expected 3-D tensors with equal batch sizes, got ",
         shape_to_string(a.sizes()), " and ", shape_to_string(b.sizes()));
}

void bmm_op(OpCall& c) {
  const Tensor& a = c.tensor(0);
  const Tensor& b = c.tensor(1);
  check_batches(c, a, b);
  check_same_dtype(a, b, "self and mat2");
  c.push(batched_matmul(a, b));
}

// self + mat1 @ mat2 in float32 with beta = alpha = 1: the output starts as
// self broadcast to [M, N] and the product accumulates onto it in one pass.
bool try_addmm_f32(OpCall& c, const Tensor& self, const Tensor& mat1, const Tensor& mat2) {
  if (mat1.dtype() != DType::Float32 || self.dtype() != DType::Float32 || c.scalar(3).to_double() != 1.0 ||
      c.scalar(4).to_double() != 1.0)
    return false;
  const Shape shape{mat1.size(0), mat2.size(1)};
  if (self.dim() > 2 || broadcast_shapes(self.sizes(), shape) != shape) return false;
  check_inner_sizes(mat1, mat2);
  Tensor out = Tensor::uninitialized(DType::Float32, shape);  // the product or the copy writes all of it
  if (self.dim() >= 1 && self.size(-1) == shape[1] && self.numel() == shape[1]) {
    // A row vector ([N] or [1, N]): a bias per column.
    Tensor bias = self.contiguous();
    gemm_f32(shape[0], shape[1], mat1.size(1), matrix_view(mat1), matrix_view(mat2), out.data<float>(), shape[1],
             false, GemmBias{nullptr, bias.data<float>()});
  } else {
    out.copy_from(expand_view(self, shape));
    gemm_f32(shape[0], shape[1], mat1.size(1), matrix_view(mat1), matrix_view(mat2), out.data<float>(), shape[1],
             true);
  }
  c.push(out);
  return true;
}

// float16/bfloat16 products with an added term (addmm, linear) are computed
// in float32 and rounded once, as ATen's CPU kernels do: rounding the
// product before adding can move the sum by an ulp.
Tensor widened(const Tensor& t) { return t.defined() && is_16bit_float(t.dtype()) ? t.to(DType::Float32) : t; }

void addmm_op(OpCall& c) {
  const Tensor& mat1 = c.tensor(1);
  const Tensor& mat2 = c.tensor(2);
  if (mat1.dim() != 2 || mat2.dim() != 2) fail(ErrorCode::BadInput, c.where(), "mat1 and mat2 must be 2-D");
  check_same_dtype(mat1, mat2, "mat1 and mat2");
  if (is_16bit_float(mat1.dtype())) {
    Tensor sum = scale_and_add(matmul_2d(widened(mat1), widened(mat2)), widened(c.tensor(0)), c.scalar(3), c.scalar(4));
    c.push(sum.to(mat1.dtype()));
    return;
  }
  if (try_addmm_f32(c, c.tensor(0), mat1, mat2)) return;
  c.push(scale_and_add(matmul_2d(mat1, mat2), c.tensor(0), c.scalar(3), c.scalar(4)));
}

void baddbmm_op(OpCall& c) {
  check_batches(c, c.tensor(1), c.tensor(2));
  check_same_dtype(c.tensor(1), c.tensor(2), "batch1 and batch2");
  c.push(scale_and_add(batched_matmul(c.tensor(1), c.tensor(2)), c.tensor(0), c.scalar(3), c.scalar(4)));
}

void mv_op(OpCall& c) { c.push(matmul(c.tensor(0), c.tensor(1))); }
void dot_op(OpCall& c) { c.push(matmul(c.tensor(0), c.tensor(1))); }
void matmul_op(OpCall& c) { c.push(matmul(c.tensor(0), c.tensor(1))); }

void addmv_op(OpCall& c) {
  c.push(scale_and_add(matmul(c.tensor(1), c.tensor(2)), c.tensor(0), c.scalar(3), c.scalar(4)));
}

// x[rows, K] x w[N, K]^T + bias[N] in float32; the product starts from the
// bias (one pass over the output).
Tensor linear_f32(const Tensor& x, const Tensor& weight, const Tensor& bias) {
  const int64_t rows = x.size(0), K = x.size(1), N = weight.size(0);
  Tensor out = Tensor::uninitialized(DType::Float32, {rows, N});  // the product writes all of it
  Tensor b = bias.defined() ? bias.contiguous() : Tensor();
  gemm_f32(rows, N, K, matrix_view(x), matrix_view(weight).transposed(), out.data<float>(), N, false,
           GemmBias{nullptr, b.defined() ? b.data<float>() : nullptr});
  return out;
}

Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias);

// A 16-bit linear layer of few rows with the weight read in place, rounded
// once to the input's dtype; undefined when the shapes call for the general path.
Tensor linear_half_weight(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  if (weight.dim() != 2 || input.dim() < 1 || input.size(-1) != weight.size(1)) return Tensor();
  const int64_t N = weight.size(0), K = weight.size(1);
  if (bias.defined() && (bias.dim() != 1 || bias.size(0) != N)) return Tensor();
  Shape out_shape(input.sizes().begin(), input.sizes().end() - 1);
  const int64_t rows = shape_numel(out_shape);
  if (rows > kHalfWeightMaxRows) return Tensor();
  out_shape.push_back(N);
  const Tensor b = bias.defined() ? bias.to(DType::Float32).contiguous() : Tensor();
  Tensor out = Tensor::uninitialized(DType::Float32, {rows, N});
  if (!half_weight_product(reshape(input, {rows, K}), weight, b.defined() ? b.data<float>() : nullptr,
                           out.data<float>()))
    return Tensor();
  return reshape(out, out_shape).to(input.dtype());
}

void linear_op(OpCall& c) {
  const Tensor& input = c.tensor(0);
  const Tensor& weight = c.tensor(1);
  const Tensor bias = c.optional_tensor(2);
  check_same_dtype(input, weight, "mat1 and mat2");
  if (is_16bit_float(input.dtype()) && (!bias.defined() || bias.dtype() == input.dtype())) {
    if (Tensor out = linear_half_weight(input, weight, bias); out.defined()) c.push(out);
    else c.push(linear(widened(input), widened(weight), widened(bias)).to(input.dtype()));
  } else
    c.push(linear(input, weight, bias));
}

// input @ weight^T + bias for inputs of one dtype.
Tensor linear(const Tensor& input, const Tensor& weight, const Tensor& bias) {
  const bool plain_bias = !bias.defined() || (bias.dim() == 1 && bias.dtype() == DType::Float32 &&
                                              weight.dim() == 2 && bias.size(0) == weight.size(0));
  if (input.dtype() == DType::Float32 && weight.dim() == 2 && input.dim() >= 1 && plain_bias &&
      input.size(-1) == weight.size(1)) {
    // All leading dims of the input are rows of one matrix product.
    Shape out_shape(input.sizes().begin(), input.sizes().end() - 1);
    out_shape.push_back(weight.size(0));
    const int64_t row_count = shape_numel(Shape(input.sizes().begin(), input.sizes().end() - 1));
    Tensor rows = reshape(input, {row_count, input.size(-1)});
    return reshape(linear_f32(rows, weight, bias), out_shape);
  }
  Shape wt_strides = weight.strides();
  Tensor wt = weight.dim() == 2
                  ? weight.as_strided({weight.size(1), weight.size(0)}, {wt_strides[1], wt_strides[0]},
                                      weight.storage_offset())
                  : weight;
  Tensor out = matmul(input, wt);
  if (bias.defined()) {
    using namespace elementwise;
    const DType dtype = out.dtype();
    out = map_elements<Kinds::All, false>(dtype, [](auto x, auto y) { return x + y; }, kernel_input(operand(out), dtype),
                                          kernel_input(operand(bias), dtype));
  }
  return out;
}

}  // namespace

void register_matmul_ops(OpTable& t) {
  t.add("aten::mm(Tensor self, Tensor mat2) -> Tensor", mm_op);
  t.add("aten::bmm(Tensor self, Tensor mat2) -> Tensor", bmm_op);
  t.add("aten::addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addmm_op);
  t.add("aten::baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        baddbmm_op);
  t.add("aten::addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor", addmv_op);
  t.add("aten::mv(Tensor self, Tensor vec) -> Tensor", mv_op);
  t.add("aten::dot(Tensor self, Tensor tensor) -> Tensor", dot_op);
  t.add("aten::matmul(Tensor self, Tensor other) -> Tensor", matmul_op);
  t.add("aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", linear_op);
}

}  // namespace pt2web
