# fifo_inputs.cmake: inputs of `compact bench` that are FIFOs, refused at once with a line that
# names the file instead of waiting for a writer (opening a FIFO for reading blocks until one
# comes). Each run is stopped after 20 s, so a program that blocks fails here.
#   -DCASE=suite_mask: --report's masks ($COMPACT_MASK_DIR/hand.png a FIFO) are skipped with
#     "compact bench: mask PATH: not a regular file (a FIFO), skipped";
#   -DCASE=sc_policy: auto's table ($SC_POLICY a FIFO): each auto measurement fails naming it,
#     exit 1.
# Usage: cmake -DCOMPACT=path/to/compact -DOUT_DIR=dir -DCASE=suite_mask|sc_policy
#        -P fifo_inputs.cmake
include(${CMAKE_CURRENT_LIST_DIR}/bench_expect.cmake)

# fifo(PATH): PATH made a FIFO; fifo_re(PATH VAR): PATH as a regular expression.
function(fifo path)
  execute_process(COMMAND mkfifo ${path} RESULT_VARIABLE made ERROR_VARIABLE why)
  if(NOT made EQUAL 0)
    message(FATAL_ERROR "mkfifo ${path}: ${made} ${why}")
  endif()
endfunction()
function(fifo_re path var)
  string(REGEX REPLACE "([][+.*()^$?|\\\\])" "\\\\\\1" re "${path}")
  set(${var} "${re}" PARENT_SCOPE)
endfunction()
# run(ARGS...): compact ARGS, at most 20 s; rc and err set in the caller.
function(run)
  execute_process(COMMAND ${COMPACT} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err TIMEOUT 20)
  if(rc MATCHES "timeout")
    message(FATAL_ERROR "compact ${ARGN}: still running after 20 s (blocked on the FIFO?)\n${err}")
  endif()
  set(rc "${rc}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()

if(CASE STREQUAL "suite_mask")
  file(MAKE_DIRECTORY ${OUT_DIR}/masks)
  fifo(${OUT_DIR}/masks/hand.png)
  fifo_re(${OUT_DIR}/masks/hand.png mask_re)
  # The report's sweeps stop at once (--max-seconds); no plots (COMPACT_PYTHON=false).
  set(ENV{COMPACT_MASK_DIR} ${OUT_DIR}/masks)
  set(ENV{COMPACT_PYTHON} false)
  run(bench --backend cpu --quick --report ${OUT_DIR}/report --max-seconds 0.001)
  if(NOT err MATCHES "(^|\n)compact bench: mask ${mask_re}: not a regular file \\(a FIFO\\), skipped\n")
    message(FATAL_ERROR "no line skipping the FIFO mask (exit code ${rc}):\n${err}")
  endif()
elseif(CASE STREQUAL "sc_policy")
  fifo(${OUT_DIR}/table.json)
  fifo_re(${OUT_DIR}/table.json table_re)
  set(ENV{SC_POLICY} ${OUT_DIR}/table.json)
  run(bench --backend cpu --algos auto --n 2^10 --runs 1 --warmup 0 --quiet)
  set(line "compact bench: auto failed at [^\n]*: policy ${table_re}: not a regular file \\(a FIFO\\)\n")
  if(NOT rc EQUAL 1 OR NOT err MATCHES "^${line}")
    message(FATAL_ERROR "exit code ${rc}, want 1 and '${line}':\n${err}")
  endif()
else()
  message(FATAL_ERROR "CASE must be suite_mask or sc_policy, not '${CASE}'")
endif()
