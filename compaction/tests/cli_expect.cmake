# cli_expect.cmake: run EXE with ARGS ('|'-separated); require exit code RC and a line matching
# REGEX: on stderr when RC is non-zero (and stderr must be that single line), on stdout when RC
# is 0. NOTICE (optional, a regular expression): stderr lines that end with it are notices (the
# raycompact tool's "..., rendering on the CPU"), left out before the one-line check.
# FIFO (optional, '|'-separated paths): made FIFOs (mkfifo) before the run, for inputs that must
# be refused at once, not waited on (opening a FIFO for reading blocks until a writer comes);
# the run is then stopped after 20 s, so a program that blocks fails here, not at CTest's limit.
# Shared by the library's command-line tests and the raycompact root's.
string(REPLACE "|" ";" args "${ARGS}")
set(limit "")
if(DEFINED FIFO AND NOT FIFO STREQUAL "")
  string(REPLACE "|" ";" fifos "${FIFO}")
  foreach(fifo ${fifos})
    get_filename_component(dir ${fifo} DIRECTORY)
    file(MAKE_DIRECTORY ${dir})
    file(REMOVE ${fifo})
    execute_process(COMMAND mkfifo ${fifo} RESULT_VARIABLE made ERROR_VARIABLE why)
    if(NOT made EQUAL 0)
      message(FATAL_ERROR "mkfifo ${fifo}: ${made} ${why}")
    endif()
  endforeach()
  set(limit TIMEOUT 20)
endif()
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
  ${limit})
if(NOT rc STREQUAL "${RC}")
  message(FATAL_ERROR "exit code ${rc}, want ${RC}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(RC STREQUAL "0")
  set(stream "${out}")
else()
  set(stream "${err}")
  if(DEFINED NOTICE AND NOT NOTICE STREQUAL "")
    # Drop the notices; what is left must be exactly one line.
    string(REGEX REPLACE "[^\n]*${NOTICE}\n" "" stream "${stream}")
  endif()
  string(REGEX MATCHALL "\n" newlines "${stream}")
  list(LENGTH newlines n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "want one line on stderr, got ${n}:\n${err}")
  endif()
  string(STRIP "${stream}" stream)
endif()
if(NOT stream MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}':\n${stream}\n(stderr: ${err})")
endif()
