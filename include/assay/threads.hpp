// assay: how many threads the library's parallel kernels may use.
//
// Every parallel kernel of assay (bootstrap and permutation replicates, cross-validation splits,
// bias-variance rounds, BLEU sentences, the paired sorts of DeLong) runs as tasks of one scheduler,
// oneTBB, so nested work (a bootstrap inside a cross-validation split inside a caller's own thread
// pool) shares one set of worker threads instead of starting threads per call. The cap below bounds
// them; results never depend on it (every replicate draws from its own random stream and is stored
// by index). docs/architecture.md, "Determinism and threads", explains the design.
#pragma once

namespace assay {

/// The most threads a parallel call of assay uses at once on the calling thread, >= 1: the smallest
/// of the process-wide cap (set_max_threads, else the environment variable ASSAY_NUM_THREADS, else
/// the cores available to the process) and the innermost thread_limit of the calling thread. Inside
/// assay's own parallel work it is the limit of the enclosing call.
unsigned max_threads();

/// Sets the process-wide cap on the threads of assay's parallel calls; 0 restores the default
/// (ASSAY_NUM_THREADS when it is a positive integer, else the cores available). Calls already
/// running keep their limit. A cap above the number of cores does not add threads.
void set_max_threads(unsigned n);

/// Limits the parallel calls made by the constructing thread to at most `n` threads (0: no further
/// limit) while the object lives; limits nest, the smallest wins. With n = 1 every call, nested ones
/// included, runs on the calling thread. Must be destroyed on the thread that created it.
class thread_limit {
 public:
  explicit thread_limit(unsigned n);
  ~thread_limit();
  thread_limit(const thread_limit&) = delete;
  thread_limit& operator=(const thread_limit&) = delete;

 private:
  unsigned previous_;
};

}  // namespace assay
