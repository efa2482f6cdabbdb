// libFuzzer target for the CSV reader and the typed column reader (build and run: fuzz/run.sh).
// The input layout and the properties checked are described in csv_fuzz_check.hpp; any failure
// aborts, and an exception other than assay::error escapes (libFuzzer reports both).
#include <cstdio>
#include <cstdlib>

#include "csv_fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string failure = csv_fuzz_check(data, size);
  if (!failure.empty()) {
    std::fprintf(stderr, "%s\n", failure.c_str());
    std::abort();
  }
  return 0;
}
