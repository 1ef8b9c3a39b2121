#include "runtime/thread_choice.h"

namespace pt2web {

namespace {

// Probe run i (0-based) uses one thread when the pattern says so: N 1 1 N N 1 1 N.
bool probe_uses_one_thread(int i) { return ((i + 1) / 2) % 2 == 1; }

}  // namespace

int ThreadChoice::next() const {
  if (allowed_ == 1) return 1;
  if (chosen_ != 0) return chosen_;
  if (recorded_ == 0) return allowed_;
  return probe_uses_one_thread(recorded_ - 1) ? 1 : allowed_;
}

void ThreadChoice::record(int threads, double seconds) {
  if (settled() || threads != next()) return;
  if (recorded_ > 0) seconds_[threads == 1 ? 1 : 0] += seconds;
  ++recorded_;
  if (recorded_ == kProbeRuns + 1) chosen_ = seconds_[1] < (1.0 - kMargin) * seconds_[0] ? 1 : allowed_;
}

}  // namespace pt2web
