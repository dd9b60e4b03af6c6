# auto_eval_smoke.cmake: the pipeline that measures auto against the best fixed algorithm, on
# the CPU with a tiny grid: compact tune writes a table and (--json) its measurements, auto runs on
# the same grid with that table (SC_POLICY), and auto_eval.py compares them point by point.
# Usage: cmake -DCOMPACT=compact -DPYTHON=python3 -DEVAL=auto_eval.py -DOUT_DIR=dir -P ...
include(${CMAKE_CURRENT_LIST_DIR}/bench_expect.cmake)
set(grid --backend cpu --n 3000,2^14 --elem 4,16 --removed 0.05,0.5 --runs 3 --warmup 1 --quiet)
compact(0 tune ${grid} --tile 256 --out ${OUT_DIR}/table.json --json ${OUT_DIR}/fixed.json)
# the measurements it kept derive the same table again, byte for byte (compact tune --from)
compact(0 tune --from ${OUT_DIR}/fixed.json --out ${OUT_DIR}/again.json --quiet)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT_DIR}/table.json
    ${OUT_DIR}/again.json RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "tune --from the tune's own measurements derives another table")
endif()
set(ENV{SC_POLICY} ${OUT_DIR}/table.json)
compact(0 bench --algos auto ${grid} --json ${OUT_DIR}/auto.json)
execute_process(COMMAND ${PYTHON} ${EVAL} ${OUT_DIR}/fixed.json ${OUT_DIR}/auto.json
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# 8 points, each with auto and auto-list
if(NOT rc EQUAL 0 OR NOT out MATCHES "auto: [0-8] of 8 points" OR NOT out MATCHES
   "auto-list: [0-8] of 8 points")
  message(FATAL_ERROR "auto_eval.py exited with ${rc}\n${out}\n${err}")
endif()
message(STATUS "${out}")
