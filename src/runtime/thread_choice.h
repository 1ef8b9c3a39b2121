// ThreadChoice: how many threads each run of a program uses when it may use
// several. A split is not free (waking the pool, handing out parts, operands
// packed for all parts), and for a program of small kernels that can cost
// more than a second core brings. So the program tries both: its first run
// (which plans memory and meets code V8 has not compiled yet) uses the
// allowed count untimed; the next kProbeRuns runs alternate between the
// allowed count and one thread in the order N 1 1 N N 1 1 N, so that code
// getting faster over those runs favours neither; from then on every run
// uses the faster of the two. One thread must beat the allowed count by
// kMargin of its time to be chosen.
//
// Kernels compute every output element on one thread in a fixed order
// (kernels/parallel), so the choice changes speed only, never results.
// A program whose input sizes change during its probe runs compares runs of
// different sizes; the choice is then rough, and still safe.
//
// Ownership: a value held by its program (runtime/loaded_program.h); not
// thread-safe (a program runs on one thread at a time). Errors: none.
#pragma once

namespace pt2web {

class ThreadChoice {
 public:
  static constexpr int kProbeRuns = 8;
  static constexpr double kMargin = 0.05;

  // `allowed` >= 1: what the program's owner asked for.
  explicit ThreadChoice(int allowed = 1) : allowed_(allowed < 1 ? 1 : allowed) {}

  int allowed() const { return allowed_; }
  // Threads for the next run.
  int next() const;
  // A run that used `threads` finished after `seconds` (runs that failed are
  // not recorded).
  void record(int threads, double seconds);
  // Whether the probe is over (always, when one thread is allowed).
  bool settled() const { return allowed_ == 1 || chosen_ != 0; }

 private:
  int allowed_;
  int recorded_ = 0;                // runs recorded, the untimed first one included
  double seconds_[2] = {0.0, 0.0};  // probe time on the allowed count, on one thread
  int chosen_ = 0;                  // 0 while probing
};

}  // namespace pt2web
