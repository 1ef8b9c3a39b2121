// Stage times: where a long operation (loading a program, its first run)
// spends its time, for the native driver's `loadtime` command and tests.
//
// A StageClock installed on the calling thread (StageRecording) collects the
// time of every StageTimer scope that ends while it is installed, summed by
// stage name in the order stages first ended. With no clock installed a
// StageTimer costs one thread-local read and never reads the clock, so the
// load path keeps its timers in release builds.
//
// Ownership: the clock belongs to its creator; StageRecording installs it for
// its own lifetime (nested recordings restore the outer one).
// Errors: none.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace pt2web {

class StageClock {
 public:
  void add(const char* stage, double milliseconds);
  // (stage, total ms), in the order each stage first ended.
  const std::vector<std::pair<std::string, double>>& stages() const { return stages_; }

 private:
  std::vector<std::pair<std::string, double>> stages_;
};

// The clock installed on this thread, or null.
StageClock* current_stage_clock();

class StageRecording {
 public:
  explicit StageRecording(StageClock& clock);
  ~StageRecording();
  StageRecording(const StageRecording&) = delete;
  StageRecording& operator=(const StageRecording&) = delete;

 private:
  StageClock* outer_;
};

// Times its own scope as `stage` (a string literal) when a clock is installed.
class StageTimer {
 public:
  explicit StageTimer(const char* stage) : stage_(stage), clock_(current_stage_clock()) {
    if (clock_) start_ = std::chrono::steady_clock::now();
  }
  ~StageTimer() {
    if (clock_)
      clock_->add(stage_, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count());
  }
  StageTimer(const StageTimer&) = delete;
  StageTimer& operator=(const StageTimer&) = delete;

 private:
  const char* stage_;
  StageClock* clock_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace pt2web
