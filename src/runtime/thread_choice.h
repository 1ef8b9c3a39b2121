// ThreadChoice: how many threads each run of a program uses when it may use
// several. A split is not free (waking the pool, handing out parts, operands
// packed for all parts), and for a program of small kernels that can cost
// more than a second core brings. So the program tries both, now and then:
// its first run (which plans memory and meets code V8 has not compiled yet)
// uses the allowed count untimed; then a probe of kProbeRuns runs alternates
// between the allowed count and one thread in the order N 1 1 N N 1 1 N, so
// that code getting faster over those runs favours neither, and the runs
// after it use the faster of the two (one thread must beat the allowed count
// by kMargin of its time, and only runs shorter than kLongestSplitLossSeconds
// may go to one thread). The choice holds for kFirstHold runs, then a new
// probe decides again, and each hold is twice the last (up to kLongestHold):
// the first probes run while V8 is still compiling the module on the other
// core, which makes several threads look worse than they are, and a machine's
// load changes; later probes cost less and less.
//
// Kernels compute every output element on one thread in a fixed order
// (kernels/parallel), so the choice changes speed only, never results.
// A program whose input sizes change during a probe compares runs of
// different sizes; that choice is then rough, still safe, and redone later.
//
// Ownership: a value held by its program (runtime/loaded_program.h); not
// thread-safe (a program runs on one thread at a time). Errors: none.
#pragma once

namespace pt2web {

class ThreadChoice {
 public:
  static constexpr int kProbeRuns = 8;
  static constexpr double kMargin = 0.05;
  static constexpr int kFirstHold = 16;
  static constexpr int kLongestHold = 1024;
  // Runs longer than this on the allowed count keep it: their kernels split
  // into parts worth far more than waking the pool, and a probe of such runs
  // measures mostly other work on the machine (measured: MobileNetV2, ~20 ms,
  // probed to one thread while onnxruntime-web's idle workers spun beside it).
  static constexpr double kLongestSplitLossSeconds = 0.002;

  // `allowed` >= 1: what the program's owner asked for.
  explicit ThreadChoice(int allowed = 1) : allowed_(allowed < 1 ? 1 : allowed), chosen_(allowed_) {}

  int allowed() const { return allowed_; }
  // Threads for the next run.
  int next() const;
  // A run that used `threads` finished after `seconds` (runs that failed are
  // not recorded; a run with another count than next() said is ignored).
  void record(int threads, double seconds);
  // Whether no probe is under way (always, when one thread is allowed).
  bool settled() const { return allowed_ == 1 || (started_ && !probing_); }
  // Runs left before the next probe starts (0 while probing).
  int runs_until_probe() const { return probing_ ? 0 : until_probe_; }

 private:
  int allowed_;
  int chosen_;                      // the count runs use between probes
  bool started_ = false;            // the untimed first run is done
  bool probing_ = true;
  int probe_runs_ = 0;              // runs of the current probe recorded
  double seconds_[2] = {0.0, 0.0};  // the probe's time on the allowed count, on one thread
  int hold_ = 0;                    // length of the last hold
  int until_probe_ = 0;
};

}  // namespace pt2web
