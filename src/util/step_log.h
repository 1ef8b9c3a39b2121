// StepLog: the named steps one piece of work went through, in order, each
// with its time and an optional detail ("3 batch norms folded"). The prepare
// pipeline keeps one per program and describe() lists it; unlike StageTimer
// (util/stage_times.h), which sums stages per thread for profiling, a StepLog
// belongs to its owner and records every step, taken or not.
//
// Ownership: plain value. Errors: none.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "util/stage_times.h"

namespace pt2web {

struct LoggedStep {
  std::string name;
  std::string detail;      // what the step changed; empty when it changed nothing
  double milliseconds = 0;
};

class StepLog {
 public:
  // Adds `milliseconds` to the step called `name` (a step repeated, e.g. once
  // per subgraph, is one entry), creating it at the end on first use.
  LoggedStep& add(const std::string& name, double milliseconds);
  const std::vector<LoggedStep>& steps() const { return steps_; }

 private:
  std::vector<LoggedStep> steps_;
};

// Times its scope into `log` (nothing when `log` is null), and into the
// thread's stage clock when one is installed (util/stage_times.h), so the
// native `loadtime` command sees the same steps.
class LoggedStepTimer {
 public:
  LoggedStepTimer(StepLog* log, std::string name)
      : log_(log), name_(std::move(name)), start_(std::chrono::steady_clock::now()) {}
  ~LoggedStepTimer() {
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    if (log_) log_->add(name_, ms);
    if (StageClock* clock = current_stage_clock()) clock->add(name_.c_str(), ms);
  }
  LoggedStepTimer(const LoggedStepTimer&) = delete;
  LoggedStepTimer& operator=(const LoggedStepTimer&) = delete;

 private:
  StepLog* log_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace pt2web
