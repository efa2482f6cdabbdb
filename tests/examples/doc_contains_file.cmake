# Fails unless DOC contains the whole text of FILE (the getting-started page shows the example program
# verbatim). Run: cmake -DDOC=... -DFILE=... -P doc_contains_file.cmake
file(READ ${DOC} doc)
file(READ ${FILE} code)
string(FIND "${doc}" "```cpp\n${code}```" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC} does not show ${FILE} verbatim: copy the file into its ```cpp block")
endif()
