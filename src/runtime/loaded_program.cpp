#include "runtime/loaded_program.h"

#include "io/pt2_writer.h"
#include "kernels/parallel/thread_pool.h"
#include "runtime/input_mutation.h"
#include "runtime/random_inputs.h"
#include "util/error.h"

namespace pt2web {

namespace {

ExportedProgram load_verified(Bytes bytes, const std::string& label, ArchiveLayout* layout,
                              const std::string& model) {
  ExportedProgram program = load_pt2(std::move(bytes), label, layout, model);
  verify_program(program);
  return program;
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

LoadedProgram::LoadedProgram(Bytes bytes, const std::string& label, const std::string& model) {
  ExportedProgram program = load_verified(std::move(bytes), label, &layout_, model);
  mutates_inputs_ = pt2web::may_mutate_inputs(program);
  session_ = std::make_unique<Session>(std::move(program));
}

LoadedProgram::LoadedProgram(ExportedProgram program) {
  verify_program(program);
  mutates_inputs_ = pt2web::may_mutate_inputs(program);
  session_ = std::make_unique<Session>(std::move(program));
}

int LoadedProgram::set_threads(int threads) {
  if (threads < 1) fail(ErrorCode::BadInput, "threads must be a whole number of at least 1, got ", threads);
  threads_ = parallel::threads_supported() ? threads : 1;
  return threads_;
}

PyValue LoadedProgram::run(const PyValue& args, const PyValue& kwargs, TreeSpec::SequenceMatch sequences) {
  parallel::ThreadBudget budget(threads_);
  return session_->run(args, kwargs, sequences);
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

std::unique_ptr<LoadedProgram> LoadedProgram::decomposed(const DecompositionOptions& options) const {
  return std::make_unique<LoadedProgram>(run_decompositions(program(), options));
}

std::vector<uint8_t> LoadedProgram::save() const { return save_pt2(program()); }

MemoryStats LoadedProgram::memory() const {
  return {session_->planned_bytes(), session_->unplanned_bytes()};
}

nlohmann::json LoadedProgram::describe(DescribeOptions options) const {
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
  ArchiveLayout layout;
  ExportedProgram program = load_verified(std::move(bytes), label, &layout, model);
  return describe_program(program, &layout, options);
}

}  // namespace pt2web
