# The library speaks its own language: no string literal in src/ or include/ names a command-line
# option ("--threshold"); messages name parameters with assay::param and cli/ renders them as
# options. Exempt: the HTML report's "command that reproduces this page" (src/report/html.cpp), and
# any line marked `// names an option on purpose`.
# Run: cmake -DROOT=<source dir> -P library_names_no_cli_options.cmake
file(GLOB_RECURSE files ${ROOT}/src/*.cpp ${ROOT}/src/*.hpp ${ROOT}/include/*.hpp)
set(bad "")
foreach(f ${files})
  if(f MATCHES "/src/report/html\\.cpp$")
    continue()
  endif()
  file(STRINGS ${f} lines)
  set(n 0)
  foreach(line IN LISTS lines)
    math(EXPR n "${n} + 1")
    string(REGEX REPLACE "//.*$" "" code "${line}")
    if(line MATCHES "names an option on purpose")
      continue()
    endif()
    if(code MATCHES "\"[^\"]*--[a-z][a-z-]*")
      string(APPEND bad "${f}:${n}: ${line}\n")
    endif()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "library messages that name command-line options (use assay::param):\n${bad}")
endif()
