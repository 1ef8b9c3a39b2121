// The kernels' thread pool, and the kernels that split work across it: every
// task runs exactly once, errors reach the caller and leave the pool usable,
// and GEMM, GEMV, depthwise convolution, im2col and the array functions give
// bit-identical results with 1, 2 and 3 threads (each output element is
// computed by one thread in the same order). Wasm builds without threads
// check the serial fallback.
#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "kernels/conv/convolution.h"
#include "kernels/conv/depthwise_conv.h"
#include "kernels/conv/im2col.h"
#include "kernels/gemm/gemm.h"
#include "kernels/math/array_math.h"
#include "kernels/parallel/thread_pool.h"

using namespace pt2web;
using parallel::ThreadBudget;

namespace {

std::vector<float> wave(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * scale + 0.25f);
  return v;
}

// Runs `compute` with 1 thread and with `threads`, and checks the outputs are identical.
template <class Compute>
void check_same_with_threads(int threads, Compute&& compute) {
  std::vector<float> serial, threaded;
  {
    ThreadBudget one(1);
    serial = compute();
  }
  {
    ThreadBudget many(threads);
    threaded = compute();
  }
  REQUIRE(serial.size() == threaded.size());
  size_t mismatches = 0;
  for (size_t i = 0; i < serial.size(); ++i) mismatches += serial[i] != threaded[i];
  CHECK(mismatches == 0);
}

}  // namespace

TEST_CASE("the thread pool runs every task once", "[kernels][parallel]") {
  for (int threads : {1, 2, 3, 4}) {
    ThreadBudget scope(threads);
    CHECK(parallel::thread_count() == (parallel::threads_supported() ? threads : 1));
    for (int64_t tasks : {0, 1, 2, 5, 97}) {
      std::vector<std::atomic<int>> runs(static_cast<size_t>(tasks));
      parallel::run_tasks(tasks, [&](int64_t i) { runs[static_cast<size_t>(i)].fetch_add(1); });
      for (int64_t i = 0; i < tasks; ++i) CHECK(runs[static_cast<size_t>(i)].load() == 1);
    }
  }
}

TEST_CASE("nested parallel work runs serially inside a task", "[kernels][parallel]") {
  ThreadBudget scope(2);
  std::vector<std::atomic<int>> runs(64);
  parallel::run_tasks(8, [&](int64_t outer) {
    parallel::run_tasks(8, [&](int64_t inner) { runs[static_cast<size_t>(outer * 8 + inner)].fetch_add(1); });
  });
  for (auto& r : runs) CHECK(r.load() == 1);
}

TEST_CASE("a failing task reaches the caller and the pool stays usable", "[kernels][parallel]") {
  ThreadBudget scope(3);
  CHECK_THROWS_WITH(parallel::run_tasks(40,
                                        [](int64_t i) {
                                          if (i == 17) throw std::runtime_error("task 17 failed");
                                        }),
                    "task 17 failed");
  std::atomic<int64_t> sum{0};
  parallel::run_tasks(10, [&](int64_t i) { sum += i; });
  CHECK(sum.load() == 45);
  CHECK_THROWS_AS(ThreadBudget(0), std::invalid_argument);
  CHECK(parallel::thread_count() == (parallel::threads_supported() ? 3 : 1));
}

TEST_CASE("a thread budget belongs to its thread and ends with its scope", "[kernels][parallel]") {
  CHECK(parallel::thread_count() == 1);
  {
    ThreadBudget outer(3);
    {
      ThreadBudget inner(2);
      CHECK(parallel::thread_count() == (parallel::threads_supported() ? 2 : 1));
    }
    CHECK(parallel::thread_count() == (parallel::threads_supported() ? 3 : 1));
#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
    int elsewhere = 0;
    std::thread other([&] { elsewhere = parallel::thread_count(); });
    other.join();
    CHECK(elsewhere == 1);  // another thread has its own budget
#endif
  }
  CHECK(parallel::thread_count() == 1);
}

TEST_CASE("parallel_for covers the range with aligned disjoint parts", "[kernels][parallel]") {
  ThreadBudget scope(3);
  for (int64_t n : {1, 7, 8, 9, 100, 1001}) {
    std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
    std::atomic<int> misaligned{0};
    parallel::parallel_for(n, 8, 1, [&](int64_t begin, int64_t end) {
      if (begin % 8 != 0) misaligned.fetch_add(1);
      for (int64_t i = begin; i < end; ++i) hits[static_cast<size_t>(i)].fetch_add(1);
    });
    CHECK(misaligned.load() == 0);
    for (auto& h : hits) CHECK(h.load() == 1);
  }
}

TEST_CASE("GEMM and GEMV give the same bits on several threads", "[kernels][parallel][gemm]") {
  struct Case {
    int64_t M, N, K;
    bool transposed_b, accumulate, bias;
  };
  // Wide (split by columns, A packed once for all parts: one block, or
  // several row and K blocks with tails), tall (split by rows), unpacked rows
  // and columns, transposed B, accumulation and both biases.
  const Case cases[] = {{64, 517, 70, false, false, true},  {251, 700, 601, false, true, true},
                        {301, 24, 130, true, false, true},
                        {2, 3001, 300, true, false, false}, {700, 1, 300, false, true, false},
                        {130, 130, 260, false, true, false}, {9, 2000, 33, false, false, true},
                        // unpacked products of up to eight rows, both layouts of B
                        {6, 1700, 257, false, true, false},  {8, 1100, 300, true, false, true},
                        {1, 4000, 100, false, false, true}};
  for (const Case& c : cases) {
    INFO("M=" << c.M << " N=" << c.N << " K=" << c.K);
    const std::vector<float> a = wave(static_cast<size_t>(c.M * c.K), 0.37f);
    const std::vector<float> b = wave(static_cast<size_t>(c.K * c.N), 0.11f);
    const std::vector<float> rows = wave(static_cast<size_t>(c.M), 0.5f), cols = wave(static_cast<size_t>(c.N), 0.7f);
    const MatrixF32 A{a.data(), c.K, 1};
    const MatrixF32 B = c.transposed_b ? MatrixF32{b.data(), 1, c.K} : MatrixF32{b.data(), c.N, 1};
    const GemmBias bias = c.bias ? GemmBias{rows.data(), cols.data()} : GemmBias{};
    for (int threads : {2, 3}) {
      check_same_with_threads(threads, [&] {
        std::vector<float> out = wave(static_cast<size_t>(c.M * c.N), 0.03f);
        gemm_f32(c.M, c.N, c.K, A, B, out.data(), c.N, c.accumulate, bias);
        return out;
      });
    }
  }
}

TEST_CASE("depthwise convolution and im2col give the same bits on several threads", "[kernels][parallel][conv]") {
  DepthwiseShape d;
  d.channels_in = 37;
  d.multiplier = 2;
  d.in_h = d.in_w = 57;
  d.kernel_h = d.kernel_w = 3;
  d.stride_h = d.stride_w = 2;
  d.pad_h = d.pad_w = 1;
  d.out_h = d.out_w = 29;
  const std::vector<float> x = wave(static_cast<size_t>(d.channels_in * d.in_h * d.in_w), 0.13f);
  const std::vector<float> w = wave(static_cast<size_t>(d.channels_in * d.multiplier * 9), 0.9f);
  const std::vector<float> bias = wave(static_cast<size_t>(d.channels_in * d.multiplier), 0.3f);
  check_same_with_threads(2, [&] {
    std::vector<float> y(static_cast<size_t>(d.channels_in * d.multiplier * d.out_h * d.out_w));
    depthwise_conv2d_f32(d, x.data(), w.data(), bias.data(), y.data());
    return y;
  });

  Im2colShape s;
  s.channels = 40;
  s.in_h = s.in_w = 31;
  s.kernel_h = s.kernel_w = 3;
  s.pad_h = s.pad_w = 1;
  s.out_h = s.out_w = 31;
  const std::vector<float> image = wave(static_cast<size_t>(s.channels * s.in_h * s.in_w), 0.21f);
  check_same_with_threads(3, [&] {
    std::vector<float> cols(static_cast<size_t>(s.channels * 9 * s.out_h * s.out_w), -1.0f);
    im2col_2d_f32(s, image.data(), cols.data());
    return cols;
  });
}

TEST_CASE("the array functions give the same bits on several threads", "[kernels][parallel][math]") {
  const std::vector<float> x = wave(100003, 0.01f);
  check_same_with_threads(2, [&] {
    std::vector<float> y(x.size());
    gelu_erf_f32(x.data(), y.data(), static_cast<int64_t>(x.size()));
    return y;
  });
  check_same_with_threads(3, [&] {
    std::vector<float> y = x;
    clamp_f32(y.data(), y.data(), static_cast<int64_t>(y.size()), -0.5f, 0.25f);
    return y;
  });
}

TEST_CASE("small and grouped convolutions give the same bits on several threads", "[kernels][parallel][conv]") {
  // One image: the direct kernel splits its output channels (small planes),
  // the implicit GEMM its groups (larger planes).
  for (int64_t side : {20, 41}) {
    ConvShape s;
    s.batch = 1;
    s.in_channels = 32, s.out_channels = 48, s.groups = 4;
    s.input = {1, side, side};
    s.kernel = {1, 3, 3};
    s.stride = {1, 1, 1};
    s.pad = {0, 1, 1};
    s.dilation = {1, 1, 1};
    s.output = {1, side, side};
    const std::vector<float> x = wave(static_cast<size_t>(s.in_channels * side * side), 0.17f);
    const std::vector<float> w = wave(static_cast<size_t>(s.out_channels * (s.in_channels / s.groups) * 9), 0.7f);
    const std::vector<float> b = wave(static_cast<size_t>(s.out_channels), 0.4f);
    check_same_with_threads(2, [&] {
      std::vector<float> y(static_cast<size_t>(s.out_channels * side * side));
      conv_forward<float>(s, x.data(), w.data(), b.data(), y.data());
      return y;
    });
  }
}
