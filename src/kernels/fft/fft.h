// Discrete Fourier transforms of any length on complex<double> values.
//
// FftPlan(n) precomputes what a length-n transform needs: an iterative
// radix-2 transform when n is a power of two; a recursive mixed-radix
// Cooley-Tukey transform when every prime factor of n is at most 13 (400 =
// 4*4*5*5, the usual audio frame); otherwise Bluestein's chirp-z algorithm
// (the length-n DFT as a circular convolution, done with a radix-2 transform
// of the next power of two >= 2n-1), so every length costs O(n log n). Transforms are unnormalized: forward uses e^(-2*pi*i*jk/n),
// inverse e^(+2*pi*i*jk/n). float inputs are computed in double by the
// callers and rounded once at the end.
//
// Ownership: a plan owns its tables; run() only touches the caller's buffer
// and a scratch buffer of its own (a plan is not shared between threads).
// Errors: none beyond PT2WEB_CHECK (Error(Internal)) for n < 1.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace pt2web {

using cdouble = std::complex<double>;

class FftPlan {
 public:
  explicit FftPlan(int64_t n);
  int64_t size() const { return n_; }
  // Transforms data[0 .. n) in place.
  void run(cdouble* data, bool inverse) const;

 private:
  void run_power_of_two(cdouble* data, bool inverse) const;
  void run_mixed_radix(cdouble* data, bool inverse) const;
  void mixed_radix_step(const cdouble* in, int64_t stride, cdouble* out, int64_t n, size_t level, bool inverse) const;
  void run_bluestein(cdouble* data, bool inverse) const;

  int64_t n_ = 0;
  std::vector<cdouble> twiddles_;      // e^(-2*pi*i*k/n): k < n/2 (power of two), k < n (mixed radix)
  std::vector<int64_t> factors_;       // mixed radix: n's factors, 4s first, then primes ascending
  std::vector<int64_t> bit_reverse_;   // power of two: the input permutation
  std::vector<cdouble> chirp_;         // Bluestein: e^(-pi*i*k^2/n), k < n
  std::vector<cdouble> kernel_fft_;    // Bluestein: transform of the conjugate chirp
  std::vector<FftPlan> inner_;         // Bluestein: the power-of-two plan (one entry)
  mutable std::vector<cdouble> scratch_;
};

// Transforms every line along `axis` of a contiguous row-major buffer of
// shape `sizes` in place, with the plan of length sizes[axis].
void fft_along_axis(cdouble* data, const std::vector<int64_t>& sizes, int64_t axis, bool inverse);

// The plain O(n^2) DFT, the reference the tests compare FftPlan with.
std::vector<cdouble> dft_reference(const std::vector<cdouble>& x, bool inverse);

}  // namespace pt2web
