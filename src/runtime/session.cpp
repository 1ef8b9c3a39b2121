#include "runtime/session.h"

#include "tensor/alignment.h"
#include "util/error.h"
#include "util/stage_times.h"

namespace pt2web {

namespace {

Tensor constant_tensor(const ExportedProgram& program, const std::string& name) {
  auto it = program.constants.find(name);
  if (it == program.constants.end() || it->second.kind != PyValue::Kind::Tensor)
    fail(ErrorCode::BadProgram, "constant '", name, "' is not a tensor");
  return it->second.tensor;
}

}  // namespace

Session::Session(ExportedProgram program)
    : prepared_(prepare_program(std::move(program))),
      program_(prepared_->loaded),
      executor_(std::move(*prepared_->plans)) {
  StageTimer timer("session: buffers and inputs");
  prepared_->plans.reset();  // moved into the executor, which owns them now
  const std::set<std::string>& written = prepared_->written;
  if (!prepared_->written_in_place.empty()) executor_.set_write_watcher(&journal_);
  for (const auto& spec : program_.signature.input_specs) {
    if (spec.kind == InputKind::CustomObj)
      fail(ErrorCode::Unsupported, "custom object '", spec.target, "' (torchbind) cannot be run by pt2web");
    if (spec.kind != InputKind::Buffer) continue;
    Tensor loaded = spec.persistent.value_or(true) ? program_.state_dict.at(spec.target)
                                                   : constant_tensor(program_, spec.target);
    initial_buffers_[spec.target] = loaded;
    // Buffers the program never writes share the loaded bytes until
    // set_buffer writes them (copy on write).
    if (written.count(spec.target)) owned_buffers_.insert(spec.target);
    buffers_[spec.target] = written.count(spec.target) ? loaded.clone() : aligned(loaded);
  }
  token_ = Tensor::empty(DType::Float32, {0});
  size_t next_leaf = 0;
  for (const auto& spec : prepared_->runs().signature.input_specs) {
    const bool user = spec.kind == InputKind::UserInput;
    if (user) user_input_leaf_[spec.arg.name] = next_leaf;
    leaf_of_input_.push_back(user ? next_leaf++ : 0);
    state_inputs_.push_back(user ? nullptr : state_tensor(spec));
  }
}

const Tensor* Session::state_tensor(const InputSpec& spec) const {
  switch (spec.kind) {
    case InputKind::Parameter: return &program_.state_dict.at(spec.target);
    case InputKind::Buffer: return &buffers_.at(spec.target);
    case InputKind::ConstantTensor: {
      const ExportedProgram& runs = prepared_->runs();
      auto it = runs.constants.find(spec.target);
      if (it == runs.constants.end() || it->second.kind != PyValue::Kind::Tensor)
        fail(ErrorCode::BadProgram, "constant '", spec.target, "' is not a tensor");
      return &it->second.tensor;
    }
    case InputKind::Token: return &token_;
    default: fail(ErrorCode::Internal, "not a state input: ", spec.target);
  }
}

namespace {

constexpr size_t kMaxPlans = 16;

// Shapes and dtypes of the tensor inputs: runs with equal signatures allocate alike.
std::string shape_signature(const BoundInputs& bound) {
  std::string key;
  for (const PyValue& leaf : bound.leaves) {
    if (leaf.kind == PyValue::Kind::Tensor) {
      key += dtype_name(leaf.tensor.dtype());
      key += shape_to_string(leaf.tensor.sizes());
    }
    key += ';';
  }
  return key;
}

}  // namespace

PyValue Session::run(const PyValue& args, const PyValue& kwargs, TreeSpec::SequenceMatch sequences) {
  BoundInputs bound = bind_user_inputs(program_, args, kwargs, sequences);
  // A failed run leaves the buffers as they were (runtime/write_journal.h).
  journal_.watch(buffers_, prepared_->written_in_place);
  JournalScope rollback(journal_);
  std::string key = shape_signature(bound);
  auto it = plans_.find(key);
  if (it != plans_.end()) {
    PlannedAllocator allocator(it->second, arena_);
    ScopedStorageAllocator scope(&allocator);
    last_plan_ = &it->second;
    PyValue outputs = execute(bound);
    rollback.commit();
    return outputs;
  }
  RecordingAllocator recorder;
  PyValue outputs;
  {
    StageTimer timer("first run on a shape: execute");
    ScopedStorageAllocator scope(&recorder);
    outputs = execute(bound);
  }
  StageTimer timer("first run on a shape: plan memory");
  rollback.commit();
  if (plans_.size() >= kMaxPlans) {
    plans_.erase(plan_order_.front());
    plan_order_.erase(plan_order_.begin());
  }
  MemoryPlan& plan = plans_[key] = plan_memory(recorder.lifetimes());
  plan_order_.push_back(key);
  if (plan.arena_bytes > arena_bytes_) {
    arena_ = allocate_arena(plan.arena_bytes);
    arena_bytes_ = plan.arena_bytes;
  }
  last_plan_ = &plan;
  return outputs;
}

PyValue Session::execute(const BoundInputs& bound) {
  std::vector<Value> placeholders(state_inputs_.size());
  for (size_t i = 0; i < placeholders.size(); ++i)
    placeholders[i] = state_inputs_[i] ? Value::from_tensor(*state_inputs_[i])
                                       : value_from_leaf(bound.leaves[leaf_of_input_[i]]);
  std::vector<Value> results = executor_.run(placeholders);

  std::vector<PyValue> user_outputs;
  for (size_t i = 0; i < program_.signature.output_specs.size(); ++i) {
    const OutputSpec& spec = program_.signature.output_specs[i];
    const Value& value = results[i];
    switch (spec.kind) {
      case OutputKind::BufferMutation:
        buffers_.at(spec.target).copy_from(value.tensor);
        break;
      case OutputKind::UserInputMutation: {
        const PyValue& leaf = bound.leaves.at(user_input_leaf_.at(spec.target));
        if (leaf.tensor.storage() != value.tensor.storage() ||
            leaf.tensor.storage_offset() != value.tensor.storage_offset())
          leaf.tensor.copy_from(value.tensor);
        break;
      }
      case OutputKind::UserOutput:
      case OutputKind::LossOutput:
        user_outputs.push_back(leaf_from_value(value));
        break;
      default: break;  // tokens and gradients are not returned
    }
  }
  return program_.call_signature().out_spec.unflatten(user_outputs);
}

std::vector<std::pair<std::string, Tensor>> Session::state_dict() const {
  std::vector<std::pair<std::string, Tensor>> out;
  for (const auto& name : program_.state_dict_order) {
    auto it = buffers_.find(name);
    // Entries no node reads may still sit at misaligned archive offsets.
    out.emplace_back(name, it != buffers_.end() ? it->second : aligned(program_.state_dict.at(name)));
  }
  return out;
}

void Session::set_buffer(const std::string& name, const Tensor& value) {
  auto it = buffers_.find(name);
  if (it == buffers_.end()) fail(ErrorCode::BadInput, "the program has no buffer named '", name, "'");
  if (it->second.sizes() != value.sizes())
    fail(ErrorCode::BadInput, "buffer '", name, "' has shape ", shape_to_string(it->second.sizes()), ", got ",
         shape_to_string(value.sizes()));
  if (!owned_buffers_.count(name)) {
    it->second = it->second.clone();
    owned_buffers_.insert(name);
  }
  it->second.copy_from(value);
  if (prepared_->folded.folded_buffers.count(name))
    refresh_folds(program_, buffers_, prepared_->written, prepared_->folded);
}

void Session::reset_state() {
  bool refold = false;
  for (const auto& name : owned_buffers_) {
    buffers_.at(name).copy_from(initial_buffers_.at(name));
    refold = refold || prepared_->folded.folded_buffers.count(name);
  }
  if (refold) refresh_folds(program_, buffers_, prepared_->written, prepared_->folded);
}

}  // namespace pt2web
