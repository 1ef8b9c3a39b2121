#include "runtime/loaded_program.h"

#include <chrono>
#include <set>

#include "io/pt2_writer.h"
#include "kernels/parallel/thread_pool.h"
#include "runtime/input_mutation.h"
#include "runtime/prepare_pipeline.h"
#include "runtime/random_inputs.h"
#include "util/error.h"
#include "util/stage_times.h"

namespace pt2web {

namespace {

std::shared_ptr<const ByteSource> source_of(Bytes bytes) {
  return bytes ? memory_source(std::move(bytes)) : nullptr;
}

ExportedProgram load_archive(std::shared_ptr<const ByteSource> source, const std::string& label,
                              ArchiveLayout* layout, const std::string& model, UnreadState* unread,
                              const WeightProgress& progress) {
  return load_pt2(std::move(source), label, layout, unread, model, progress);
}

// Attaches a profiler to a session and detaches it however the run ends.
class ObserverScope {
 public:
  ObserverScope(Session& session, NodeObserver* observer) : session_(session) { session_.set_observer(observer); }
  ~ObserverScope() { session_.set_observer(nullptr); }
  ObserverScope(const ObserverScope&) = delete;
  ObserverScope& operator=(const ObserverScope&) = delete;

 private:
  Session& session_;
};

}  // namespace

LoadedProgram::LoadedProgram(Bytes bytes, const std::string& label, const std::string& model)
    : LoadedProgram(source_of(std::move(bytes)), label, model) {}

LoadedProgram::LoadedProgram(std::shared_ptr<const ByteSource> source, const std::string& label,
                             const std::string& model, const WeightProgress& progress) {
  ExportedProgram program = load_archive(std::move(source), label, &layout_, model, &unread_, progress);
  StageTimer timer("session (all of prepare)");
  session_ = std::make_unique<Session>(std::move(program));
  mutates_inputs_ = pt2web::may_mutate_inputs(session_->program());
}

LoadedProgram::LoadedProgram(ExportedProgram program) {
  session_ = std::make_unique<Session>(std::move(program));
  mutates_inputs_ = pt2web::may_mutate_inputs(session_->program());
}

int LoadedProgram::set_threads(int threads) {
  if (threads < 1) fail(ErrorCode::BadInput, "threads must be a whole number of at least 1, got ", threads);
  threads_ = ThreadChoice(parallel::threads_supported() ? threads : 1);
  return threads_.allowed();
}

PyValue LoadedProgram::run(const PyValue& args, const PyValue& kwargs, TreeSpec::SequenceMatch sequences) {
  const int threads = threads_.next();
  parallel::ThreadBudget budget(threads);
  const auto start = std::chrono::steady_clock::now();
  PyValue outputs = session_->run(args, kwargs, sequences);
  threads_.record(threads, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return outputs;
}

ProfiledRun LoadedProgram::run_profiled(const PyValue& args, const PyValue& kwargs,
                                        TreeSpec::SequenceMatch sequences) {
  OperatorProfile profile;
  ProfiledRun result;
  {
    ObserverScope scope(*session_, &profile);
    result.outputs = run(args, kwargs, sequences);
  }
  result.profile = profile.slowest_first();
  return result;
}

std::vector<std::pair<std::string, Tensor>> LoadedProgram::state_dict() const {
  std::vector<std::pair<std::string, Tensor>> read = session_->state_dict();
  if (unread_.tensors.empty()) return read;
  std::vector<std::pair<std::string, Tensor>> out;
  std::set<std::string> placed;
  auto by_name = [&](const std::string& name) -> const Tensor* {
    for (const auto& entry : read)
      if (entry.first == name) return &entry.second;
    return nullptr;
  };
  for (const std::string& name : unread_.order) {
    auto unread = unread_.tensors.find(name);
    if (const Tensor* t = by_name(name)) out.emplace_back(name, *t);
    else if (unread != unread_.tensors.end()) out.emplace_back(name, unread->second.fetch());
    else continue;
    placed.insert(name);
  }
  for (const auto& entry : read)
    if (placed.count(entry.first) == 0) out.push_back(entry);
  return out;
}

std::unique_ptr<LoadedProgram> LoadedProgram::decomposed(const DecompositionOptions& options) const {
  auto result = std::make_unique<LoadedProgram>(run_decompositions(program(), options));
  result->unread_ = unread_;
  return result;
}

std::vector<uint8_t> LoadedProgram::save() const {
  if (unread_.tensors.empty()) return save_pt2(program());
  ExportedProgram whole = program();
  unread_.restore(whole);
  return save_pt2(whole);
}

MemoryStats LoadedProgram::memory() const {
  return {session_->planned_bytes(), session_->unplanned_bytes()};
}

nlohmann::json LoadedProgram::describe(DescribeOptions options) const {
  options.prepare_steps = &session_->prepare_steps();
  return describe_program(program(), &layout_, options);
}

std::string LoadedProgram::printed() const { return print_program(program()); }

const PyValue* LoadedProgram::example_inputs() const {
  const ExportedProgram& ep = program();
  if (!ep.example_inputs && !ep.example_inputs_unavailable.empty())
    fail(ErrorCode::Unsupported, "the archive's example inputs cannot be read (the program itself loads and runs): ",
         ep.example_inputs_unavailable);
  return ep.example_inputs ? &*ep.example_inputs : nullptr;
}

PyValue LoadedProgram::random_inputs(uint32_t seed) const { return pt2web::random_inputs(program(), seed); }

nlohmann::json inspect_archive(Bytes bytes, const std::string& label, DescribeOptions options,
                               const std::string& model) {
  return inspect_archive(source_of(std::move(bytes)), label, options, model);
}

nlohmann::json inspect_archive(std::shared_ptr<const ByteSource> source, const std::string& label,
                               DescribeOptions options, const std::string& model) {
  ArchiveLayout layout;
  ExportedProgram program = load_archive(std::move(source), label, &layout, model, nullptr, {});
  verify_and_lower(program, nullptr);
  return describe_program(program, &layout, options);
}

}  // namespace pt2web
