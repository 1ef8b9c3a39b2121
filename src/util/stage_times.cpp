#include "util/stage_times.h"

namespace pt2web {

namespace {
thread_local StageClock* installed = nullptr;
}  // namespace

void StageClock::add(const char* stage, double milliseconds) {
  for (auto& entry : stages_) {
    if (entry.first == stage) {
      entry.second += milliseconds;
      return;
    }
  }
  stages_.emplace_back(stage, milliseconds);
}

StageClock* current_stage_clock() { return installed; }

StageRecording::StageRecording(StageClock& clock) : outer_(installed) { installed = &clock; }

StageRecording::~StageRecording() { installed = outer_; }

}  // namespace pt2web
