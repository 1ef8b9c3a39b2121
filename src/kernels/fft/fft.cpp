#include "kernels/fft/fft.h"

#include <algorithm>
#include <cmath>

#include "util/error.h"

namespace pt2web {

namespace {

constexpr double kPi = 3.14159265358979323846;

bool is_power_of_two(int64_t n) { return (n & (n - 1)) == 0; }

constexpr int64_t kLargestRadix = 13;

// n's factors for the mixed-radix transform (4s first, then primes
// ascending), or empty when a prime factor exceeds kLargestRadix.
std::vector<int64_t> small_factors(int64_t n) {
  std::vector<int64_t> factors;
  while (n % 4 == 0) {
    factors.push_back(4);
    n /= 4;
  }
  for (int64_t p = 2; p <= kLargestRadix && n > 1; ++p) {
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  }
  if (n > 1) factors.clear();
  return factors;
}

// e^(sign * 2*pi*i * num/den), with num reduced modulo den first so large
// products keep their precision.
cdouble unit_root(int64_t num, int64_t den, double sign) {
  double angle = sign * 2.0 * kPi * static_cast<double>(num % den) / static_cast<double>(den);
  return {std::cos(angle), std::sin(angle)};
}

}  // namespace

FftPlan::FftPlan(int64_t n) : n_(n) {
  PT2WEB_CHECK(n >= 1, "FftPlan needs a positive length, got ", n);
  if (is_power_of_two(n)) {
    twiddles_.resize(static_cast<size_t>(n / 2));
    for (int64_t k = 0; k < n / 2; ++k) twiddles_[k] = unit_root(k, n, -1.0);
    bit_reverse_.resize(static_cast<size_t>(n));
    int bits = 0;
    while ((int64_t{1} << bits) < n) ++bits;
    for (int64_t i = 0; i < n; ++i) {
      int64_t r = 0;
      for (int b = 0; b < bits; ++b)
        if (i & (int64_t{1} << b)) r |= int64_t{1} << (bits - 1 - b);
      bit_reverse_[i] = r;
    }
    return;
  }
  factors_ = small_factors(n);
  if (!factors_.empty()) {
    twiddles_.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) twiddles_[k] = unit_root(k, n, -1.0);
    scratch_.resize(static_cast<size_t>(n));
    return;
  }
  int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  inner_.emplace_back(m);
  chirp_.resize(static_cast<size_t>(n));
  // e^(-pi*i*k^2/n) = e^(-2*pi*i * (k^2 mod 2n) / 2n)
  for (int64_t k = 0; k < n; ++k) chirp_[k] = unit_root((k * k) % (2 * n), 2 * n, -1.0);
  kernel_fft_.assign(static_cast<size_t>(m), cdouble(0, 0));
  kernel_fft_[0] = std::conj(chirp_[0]);
  for (int64_t k = 1; k < n; ++k) kernel_fft_[k] = kernel_fft_[m - k] = std::conj(chirp_[k]);
  inner_[0].run(kernel_fft_.data(), false);
  scratch_.resize(static_cast<size_t>(m));
}

void FftPlan::run(cdouble* data, bool inverse) const {
  if (n_ == 1) return;
  if (is_power_of_two(n_))
    run_power_of_two(data, inverse);
  else if (!factors_.empty())
    run_mixed_radix(data, inverse);
  else
    run_bluestein(data, inverse);
}

void FftPlan::run_mixed_radix(cdouble* data, bool inverse) const {
  std::copy(data, data + n_, scratch_.begin());
  mixed_radix_step(scratch_.data(), 1, data, n_, 0, inverse);
}

// Decimation in time: the length-n transform of in[0], in[stride], ... into
// out[0 .. n) from p transforms of length m = n/p (p = factors_[level]) of
// the interleaved subsequences, combined by p-point butterflies.
void FftPlan::mixed_radix_step(const cdouble* in, int64_t stride, cdouble* out, int64_t n, size_t level,
                               bool inverse) const {
  if (n == 1) {
    out[0] = in[0];
    return;
  }
  const int64_t p = factors_[level], m = n / p;
  for (int64_t q = 0; q < p; ++q) mixed_radix_step(in + q * stride, stride * p, out + q * m, m, level + 1, inverse);
  auto root = [&](int64_t index) {
    const cdouble w = twiddles_[index % n_];
    return inverse ? std::conj(w) : w;
  };
  const int64_t n_step = n_ / n, p_step = n_ / p;
  cdouble t[kLargestRadix];
  for (int64_t k = 0; k < m; ++k) {
    for (int64_t q = 0; q < p; ++q) t[q] = out[q * m + k] * root(q * k * n_step);
    for (int64_t s = 0; s < p; ++s) {
      cdouble sum = t[0];
      for (int64_t q = 1; q < p; ++q) sum += t[q] * root(q * s * p_step);
      out[k + m * s] = sum;
    }
  }
}

void FftPlan::run_power_of_two(cdouble* data, bool inverse) const {
  for (int64_t i = 0; i < n_; ++i)
    if (bit_reverse_[i] > i) std::swap(data[i], data[bit_reverse_[i]]);
  for (int64_t len = 2; len <= n_; len <<= 1) {
    int64_t half = len / 2, step = n_ / len;
    for (int64_t start = 0; start < n_; start += len) {
      for (int64_t j = 0; j < half; ++j) {
        cdouble w = twiddles_[j * step];
        if (inverse) w = std::conj(w);
        cdouble u = data[start + j], v = data[start + j + half] * w;
        data[start + j] = u + v;
        data[start + j + half] = u - v;
      }
    }
  }
}

void FftPlan::run_bluestein(cdouble* data, bool inverse) const {
  // The inverse transform is the conjugate of the forward transform of the
  // conjugate input.
  const int64_t m = inner_[0].size();
  for (int64_t k = 0; k < n_; ++k) scratch_[k] = (inverse ? std::conj(data[k]) : data[k]) * chirp_[k];
  for (int64_t k = n_; k < m; ++k) scratch_[k] = cdouble(0, 0);
  inner_[0].run(scratch_.data(), false);
  for (int64_t k = 0; k < m; ++k) scratch_[k] *= kernel_fft_[k];
  inner_[0].run(scratch_.data(), true);
  const double scale = 1.0 / static_cast<double>(m);
  for (int64_t k = 0; k < n_; ++k) {
    cdouble value = scratch_[k] * scale * chirp_[k];
    data[k] = inverse ? std::conj(value) : value;
  }
}

void fft_along_axis(cdouble* data, const std::vector<int64_t>& sizes, int64_t axis, bool inverse) {
  const int64_t n = sizes[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= sizes[d];
  for (size_t d = static_cast<size_t>(axis) + 1; d < sizes.size(); ++d) inner *= sizes[d];
  if (n <= 1 || outer * inner == 0) return;
  FftPlan plan(n);
  std::vector<cdouble> line(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      cdouble* base = data + o * n * inner + i;
      if (inner == 1) {
        plan.run(base, inverse);
        continue;
      }
      for (int64_t k = 0; k < n; ++k) line[k] = base[k * inner];
      plan.run(line.data(), inverse);
      for (int64_t k = 0; k < n; ++k) base[k * inner] = line[k];
    }
  }
}

std::vector<cdouble> dft_reference(const std::vector<cdouble>& x, bool inverse) {
  const int64_t n = static_cast<int64_t>(x.size());
  std::vector<cdouble> out(x.size());
  for (int64_t k = 0; k < n; ++k) {
    cdouble sum(0, 0);
    for (int64_t j = 0; j < n; ++j) sum += x[j] * unit_root(j * k, n, inverse ? 1.0 : -1.0);
    out[k] = sum;
  }
  return out;
}

}  // namespace pt2web
