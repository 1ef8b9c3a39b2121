// The landing-pad context of native wasm exceptions, for the threaded wasm
// build (-pthread -fwasm-exceptions) only; everywhere else this file is empty.
//
// Why it exists: a landing pad with a typed catch clause stores its index and
// its LSDA in the process-wide struct `__wasm_lpad_context`, calls
// _Unwind_CallPersonality, and reads the matching clause back from the same
// struct. Debian's Emscripten 3.1.6 builds its libunwind with that struct
// thread_local, but its clang 14 compiles the landing pads' accesses as a
// plain global. In a -pthread build the two are different addresses: the
// personality function never sees the landing pad and every exception lands
// in catch (...), whatever its type. Defining the context here (a plain
// global, as the compiler expects) and the handful of _Unwind_* functions
// that live beside it in libunwind's Unwind-wasm.c keeps the linker from
// taking that object at all, and typed catch clauses match again.
//
// Threads: the context is shared by every thread, so two threads must not be
// between a typed catch's landing pad and its clause at the same instant.
// Only typed clauses use it (catch (...) and destructor cleanups do not), and
// pt2web's typed clauses all run on the thread that calls into the module
// (one JavaScript thread); the kernels' pool workers catch with (...) only
// (kernels/parallel/thread_pool.cpp), and kernels have no catch clauses.
//
// The functions follow the Itanium C++ ABI's unwinding interface as
// Emscripten's libc++abi calls it (personality __gxx_personality_wasm0,
// cleanup phase only: wasm unwinds in one phase).

#if defined(__EMSCRIPTEN_PTHREADS__) && defined(__wasm_exception_handling__)

#include <cstdint>

namespace {

struct UnwindException {
  uint64_t exception_class;
  void (*exception_cleanup)(int reason, UnwindException* exception);
};

struct LandingPadContext {
  uintptr_t lpad_index;  // written by the landing pad
  uintptr_t lsda;        // written by the landing pad
  uintptr_t selector;    // written by the personality function: the clause taken
};

constexpr int kCleanupPhase = 2;            // _UA_CLEANUP_PHASE
constexpr int kForeignExceptionCaught = 1;  // _URC_FOREIGN_EXCEPTION_CAUGHT

LandingPadContext& context_of(void* context) { return *static_cast<LandingPadContext*>(context); }

}  // namespace

extern "C" {

LandingPadContext __wasm_lpad_context;

int __gxx_personality_wasm0(int version, int actions, uint64_t exception_class, UnwindException* exception,
                            void* context);

int _Unwind_CallPersonality(void* thrown) {
  auto* exception = static_cast<UnwindException*>(thrown);
  __wasm_lpad_context.selector = 0;
  return __gxx_personality_wasm0(1, kCleanupPhase, exception->exception_class, exception, &__wasm_lpad_context);
}

int _Unwind_RaiseException(UnwindException* exception) { __builtin_wasm_throw(0, exception); }

void _Unwind_DeleteException(UnwindException* exception) {
  if (exception->exception_cleanup != nullptr) exception->exception_cleanup(kForeignExceptionCaught, exception);
}

// The personality function reports the clause it chose as register 1.
void _Unwind_SetGR(void* context, int index, uintptr_t value) {
  if (index == 1) context_of(context).selector = value;
}

// Read back as a 1-based call-site index after subtracting one.
uintptr_t _Unwind_GetIP(void* context) { return context_of(context).lpad_index + 2; }

void _Unwind_SetIP(void*, uintptr_t) {}

uintptr_t _Unwind_GetLanguageSpecificData(void* context) { return context_of(context).lsda; }

uintptr_t _Unwind_GetRegionStart(void*) { return 0; }

}  // extern "C"

#endif
