#include "runtime/thread_choice.h"

#include <algorithm>

namespace pt2web {

namespace {

// Probe run i (0-based) uses one thread when the pattern says so: N 1 1 N N 1 1 N.
bool probe_uses_one_thread(int i) { return ((i + 1) / 2) % 2 == 1; }

}  // namespace

int ThreadChoice::next() const {
  if (allowed_ == 1) return 1;
  if (!started_) return allowed_;
  if (!probing_) return chosen_;
  return probe_uses_one_thread(probe_runs_) ? 1 : allowed_;
}

void ThreadChoice::record(int threads, double seconds) {
  if (allowed_ == 1 || threads != next()) return;
  if (!started_) {
    started_ = true;
    return;
  }
  if (!probing_) {
    if (--until_probe_ == 0) {
      probing_ = true;
      probe_runs_ = 0;
      seconds_[0] = seconds_[1] = 0.0;
    }
    return;
  }
  seconds_[threads == 1 ? 1 : 0] += seconds;
  if (++probe_runs_ < kProbeRuns) return;
  // Long runs keep the allowed count whatever a probe finds, so probing
  // them again would only spend runs on one thread.
  const bool long_runs = seconds_[0] / (kProbeRuns / 2) >= kLongestSplitLossSeconds;
  chosen_ = !long_runs && seconds_[1] < (1.0 - kMargin) * seconds_[0] ? 1 : allowed_;
  probing_ = false;
  hold_ = long_runs ? kLongestHold : hold_ == 0 ? kFirstHold : std::min(2 * hold_, kLongestHold);
  until_probe_ = hold_;
}

}  // namespace pt2web
