# line_width.cmake: run EXE with ARGS ('|'-separated); require exit code RC (default 0) and no
# line of its stdout or of its stderr wider than WIDTH columns (default 100), a UTF-8 character
# counting as one column. EACH=1 (compact only): once per algorithm `EXE list --names` prints,
# the name after the first of ARGS (explain NAME --random 64). Shared by the library's
# command-line tests and the raycompact root's.
if(NOT DEFINED RC)
  set(RC 0)
endif()
if(NOT DEFINED WIDTH)
  set(WIDTH 100)
endif()
# The continuation bytes of UTF-8 (0x80-0xbf) take no column of their own.
string(ASCII 128 cont_lo)
string(ASCII 191 cont_hi)

# check(ARGS...): run EXE ARGS; the lines too wide are appended to `wide`, the lines counted in
# `lines`, in the caller.
function(check)
  execute_process(COMMAND ${EXE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT rc STREQUAL "${RC}")
    message(FATAL_ERROR "${ARGN}: exit code ${rc}, want ${RC}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  foreach(stream out err)
    string(REGEX REPLACE "[${cont_lo}-${cont_hi}]" "" text "${${stream}}")
    # one list item per line: ';', '\', '[' and ']' would split, escape or join items, so they
    # stand in as '.'
    string(REGEX REPLACE "[];\\\\[]" "." text "${text}")
    string(REPLACE "\n" ";" text "${text}")
    set(i 0)
    foreach(line IN LISTS text)
      math(EXPR i "${i} + 1")
      string(LENGTH "${line}" n)
      if(n GREATER WIDTH)
        string(APPEND wide "${ARGN}: std${stream} line ${i}: ${n} columns: ${line}\n")
      endif()
    endforeach()
    math(EXPR lines "${lines} + ${i}")
  endforeach()
  set(wide "${wide}" PARENT_SCOPE)
  set(lines ${lines} PARENT_SCOPE)
endfunction()

set(wide "")
set(lines 0)
string(REPLACE "|" ";" args "${ARGS}")
if(EACH)
  execute_process(COMMAND ${EXE} list --names RESULT_VARIABLE rc OUTPUT_VARIABLE names)
  string(STRIP "${names}" names)
  string(REPLACE "\n" ";" names "${names}")
  list(POP_FRONT args first)
  foreach(name IN LISTS names)
    check(${first} ${name} ${args})
  endforeach()
else()
  check(${args})
endif()
if(wide)
  message(FATAL_ERROR "lines wider than ${WIDTH} columns:\n${wide}")
endif()
if(lines LESS 2)
  message(FATAL_ERROR "no output to check: ${ARGS}")
endif()
message(STATUS "${lines} lines, none wider than ${WIDTH} columns")
