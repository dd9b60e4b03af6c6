# test_gpus.cmake: render --gpus on the CUDA backend writes the bytes of a plain render (one
# GPU, no --gpus): --gpus 0,0 (two workers sharing device 0: the sharing and the film sum in
# place), --gpus 1, --gpus all (every device: peer access or the host between them), and with
# --stats a row per worker. Prints "test_gpus: SKIPPED" (the test's SKIP_REGULAR_EXPRESSION)
# without a CUDA device. Variables: EXE, SRC (source tree), OUT (a scratch folder).
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(args render --scene ${SRC}/scenes/spheres.json --width 64 --height 48 --spp 9
  --samples-per-wave 2 --max-depth 8 --backend cuda)
execute_process(COMMAND ${EXE} ${args} --out ${OUT}/one.pfm RESULT_VARIABLE rc
  ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 120)
if(NOT rc EQUAL 0 AND err MATCHES "no usable CUDA device|no CUDA device|CUDA-capable")
  message("test_gpus: SKIPPED: ${err}")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the plain render: exit code ${rc}\n${err}")
endif()
execute_process(COMMAND ${EXE} ${args} --seed 3 --out ${OUT}/seed.pfm RESULT_VARIABLE rc
  OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/one.pfm ${OUT}/seed.pfm
  RESULT_VARIABLE same)
if(same EQUAL 0)
  message(FATAL_ERROR "renders of other samples are identical: the comparison proves nothing")
endif()
set(i 0)
foreach(gpus 0,0 1 all 0,0,0)
  math(EXPR i "${i} + 1")
  execute_process(COMMAND ${EXE} ${args} --gpus ${gpus} --stats --out ${OUT}/g${i}.pfm
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "--gpus ${gpus}: exit code ${rc}\n${out}\n${err}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/one.pfm ${OUT}/g${i}.pfm
    RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "--gpus ${gpus}: the image differs from the plain render's")
  endif()
  string(REGEX MATCHALL "\nworker [0-9]+ +[0-9]+ [^\n]*" rows "${out}")
  list(LENGTH rows nrows)
  if(gpus MATCHES ",")
    string(REGEX MATCHALL "[0-9]+" ids "${gpus}")
    list(LENGTH ids want)
  elseif(gpus STREQUAL "1")
    set(want 1)
  else()
    set(want ${nrows}) # all: as many as the machine has
  endif()
  if(NOT nrows EQUAL want OR nrows EQUAL 0)
    message(FATAL_ERROR "--gpus ${gpus}: ${nrows} worker rows, want ${want}\n${out}")
  endif()
  message(STATUS "--gpus ${gpus}: ${nrows} workers, the same bytes as one GPU")
endforeach()
# A device that is not there: one line, exit 1, nothing written.
execute_process(COMMAND ${EXE} ${args} --gpus 0,1023 --out ${OUT}/bad.pfm RESULT_VARIABLE rc
  ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 60)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^raycompact render: --gpus 0,1023: no CUDA device 1023"
   OR EXISTS ${OUT}/bad.pfm)
  message(FATAL_ERROR "--gpus 0,1023: exit code ${rc}, want 1 and one line\n${err}")
endif()
# bench --gpus 0,0: the runs shared out over two workers in turn, every image hash the same,
# each run naming its worker, a row per worker under workers_timing.
execute_process(COMMAND ${EXE} bench --scene ${SRC}/scenes/spheres.json --width 32 --height 32
  --frames 1 --warmup 0 --backend cuda --algos none,scan-scatter --modes indices --gpus 0,0
  --json ${OUT}/bench.json RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench --gpus 0,0: exit code ${rc}\n${out}\n${err}")
endif()
file(READ ${OUT}/bench.json j)
string(JSON nw LENGTH "${j}" workers_timing)
string(JSON hash0 GET "${j}" runs 0 image_hash)
string(JSON hash1 GET "${j}" runs 1 image_hash)
string(JSON w1 GET "${j}" runs 1 worker)
if(NOT nw EQUAL 2 OR NOT hash0 STREQUAL hash1 OR NOT w1 EQUAL 1)
  message(FATAL_ERROR "bench --gpus 0,0: ${nw} worker rows (want 2), hashes ${hash0} ${hash1}, "
                      "run 1 on worker ${w1} (want 1)\n${j}")
endif()
