#include "util/step_log.h"

namespace pt2web {

LoggedStep& StepLog::add(const std::string& name, double milliseconds) {
  for (auto& step : steps_)
    if (step.name == name) {
      step.milliseconds += milliseconds;
      return step;
    }
  steps_.push_back({name, "", milliseconds});
  return steps_.back();
}

}  // namespace pt2web
