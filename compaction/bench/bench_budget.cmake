# bench_budget.cmake: --budget-ms shortens a measurement but never lengthens it past --runs (it
# used to make at least 3 runs into an array of --runs entries: a heap overflow with --runs 1).
# Usage: cmake -DCOMPACT=path/to/compact -DOUT_DIR=dir -P bench_budget.cmake
file(MAKE_DIRECTORY ${OUT_DIR})
set(json ${OUT_DIR}/budget.json)
file(REMOVE ${json})
foreach(runs 1 2)
  execute_process(
    COMMAND ${COMPACT} bench --backend cpu --algos serial --n 64 --runs ${runs} --warmup 0
      --budget-ms 1e-9 --json ${json} --quiet
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "compact bench exited with ${rc}\n${err}\n${out}")
  endif()
  file(READ ${json} text)
  string(JSON n LENGTH "${text}" records)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON got GET "${text}" records ${i} runs)
    if(NOT got EQUAL runs)
      message(FATAL_ERROR "record ${i}: ${got} runs with --runs ${runs} and a tiny budget")
    endif()
  endforeach()
endforeach()
