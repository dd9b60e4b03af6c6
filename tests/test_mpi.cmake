# test_mpi.cmake: render and bench as the ranks of an MPI job (more ranks than cores: Open MPI
# needs --oversubscribe). Variables: PART (render or bench), EXE, MPIEXEC, SRC (source tree),
# OUT (a scratch folder).
#  render: a small image alone, then with MPIEXEC -n 2 and -n 3 (25x15: 1125 film sums, odd, so
#          the reduction's remainder path runs with 2 ranks): each file must equal the
#          single-process one byte for byte; a render of other samples (--seed) must differ,
#          so the comparison can fail. A scene one rank cannot read must end the whole job with
#          that rank's one-line message and rank 0's line naming it (no hang), and no output
#          file; a bad --out (every rank) the same way.
#  render_cuda: the same on the CUDA backend, where ranks of one machine add their films GPU to
#          GPU, and 2 ranks of --gpus 0,0 each (a rank's share over its workers; skipped without
#          a CUDA device).
#  bench:  -n 2 shares the runs out (each run names its rank, every image hash the same, both
#          ranks listed with host and device); -n 2 --per-rank gives every rank every run.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${MPIEXEC} --version OUTPUT_VARIABLE version ERROR_QUIET)
set(pre "")
if(version MATCHES "Open MPI|OpenRTE")
  set(pre --oversubscribe)
endif()
set(backend cpu)
if(PART STREQUAL "render_cuda")
  set(backend cuda)
endif()
set(args render --scene ${SRC}/scenes/cornell.json --width 25 --height 15 --spp 7
  --samples-per-wave 2 --max-depth 6 --backend ${backend})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: exit code ${rc}\n${out}\n${err}")
  endif()
endfunction()

if(PART STREQUAL "bench")
  set(bench bench --scene ${SRC}/scenes/spheres.json --width 16 --height 16 --frames 1
    --warmup 0 --backend cpu --algos none,serial,scan-scatter)
  run("bench, 2 ranks" ${MPIEXEC} -n 2 ${pre} ${EXE} ${bench} --json ${OUT}/shared.json)
  file(READ ${OUT}/shared.json j)
  string(JSON nranks LENGTH "${j}" ranks)
  string(JSON nruns LENGTH "${j}" runs)
  string(JSON hash0 GET "${j}" runs 0 image_hash)
  if(NOT nranks EQUAL 2 OR NOT nruns EQUAL 6)
    message(FATAL_ERROR "shared out: ${nranks} ranks and ${nruns} runs, want 2 and 6\n${j}")
  endif()
  foreach(i RANGE 5)
    string(JSON rank GET "${j}" runs ${i} rank)
    string(JSON hash GET "${j}" runs ${i} image_hash)
    math(EXPR want "${i} % 2")
    if(NOT rank EQUAL want OR NOT hash STREQUAL hash0)
      message(FATAL_ERROR "run ${i}: rank ${rank} (want ${want}), image ${hash} (want ${hash0})")
    endif()
  endforeach()
  string(JSON device GET "${j}" ranks 1 device)
  string(JSON host GET "${j}" ranks 1 host)
  if(NOT device STREQUAL "cpu" OR host STREQUAL "")
    message(FATAL_ERROR "rank 1: host '${host}', device '${device}'")
  endif()
  run("bench, 2 ranks, --per-rank" ${MPIEXEC} -n 2 ${pre} ${EXE} ${bench} --modes indices
    --per-rank --json ${OUT}/per_rank.json)
  file(READ ${OUT}/per_rank.json j)
  string(JSON n1 LENGTH "${j}" ranks 1 runs)
  string(JSON hash GET "${j}" ranks 1 runs 2 image_hash)
  if(NOT n1 EQUAL 3 OR NOT hash STREQUAL hash0)
    message(FATAL_ERROR "--per-rank: rank 1 has ${n1} runs (want 3), image ${hash}\n${j}")
  endif()
  return()
endif()

if(backend STREQUAL "cuda")
  # render_cuda: the ranks share this machine, so their films are added GPU to GPU (CUDA IPC)
  execute_process(COMMAND ${EXE} ${args} --out ${OUT}/one.pfm RESULT_VARIABLE rc
    ERROR_VARIABLE err OUTPUT_QUIET TIMEOUT 120)
  if(NOT rc EQUAL 0 AND err MATCHES "no usable CUDA device|no CUDA device")
    message("test_mpi: SKIPPED: ${err}") # the test's SKIP_REGULAR_EXPRESSION
    return()
  endif()
endif()
run("one process" ${EXE} ${args} --out ${OUT}/one.pfm)
run("other seed" ${EXE} ${args} --seed 100 --out ${OUT}/seed.pfm)
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/one.pfm ${OUT}/seed.pfm
  RESULT_VARIABLE same)
if(same EQUAL 0)
  message(FATAL_ERROR "renders of other samples are identical: the comparison proves nothing")
endif()
foreach(n 2 3)
  run("${n} ranks" ${MPIEXEC} -n ${n} ${pre} ${EXE} ${args} --out ${OUT}/ranks${n}.pfm)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/one.pfm ${OUT}/ranks${n}.pfm
    RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "the image of ${n} ranks differs from the single-process image")
  endif()
  message(STATUS "${n} ranks: the same bytes as one process")
endforeach()
if(backend STREQUAL "cuda")
  # the films went GPU to GPU, not through the host reduction that would give the same bytes
  execute_process(COMMAND ${MPIEXEC} -n 2 ${pre} ${EXE} ${args} --stats --out ${OUT}/stats.pfm
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "film sum: GPU to GPU")
    message(FATAL_ERROR "2 ranks on CUDA: exit ${rc}, no 'film sum: GPU to GPU' line\n${out}\n${err}")
  endif()
  # --gpus under MPI: each rank's share split again over its two workers (both on device 0),
  # their films added on the rank's worker 0, then the ranks' films: the same bytes
  run("2 ranks, --gpus 0,0 each" ${MPIEXEC} -n 2 ${pre} ${EXE} ${args} --gpus 0,0
    --out ${OUT}/nested.pfm)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/one.pfm ${OUT}/nested.pfm
    RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "2 ranks of 2 workers each: the image differs from one process's")
  endif()
endif()

# Rank 1 cannot read its scene: the job ends with its message and a non-zero status.
execute_process(COMMAND ${MPIEXEC} -n 1 ${pre} ${EXE} ${args} --out ${OUT}/bad.pfm :
  -n 1 ${EXE} render --scene ${OUT}/nosuch.json --out ${OUT}/bad.pfm --backend cpu
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(rc EQUAL 0 OR NOT err MATCHES "raycompact render: [^\n]*nosuch.json: cannot open"
   OR NOT err MATCHES "raycompact: rank 1 of 2 failed \\(exit code 2\\); every rank stops")
  message(FATAL_ERROR "a rank's missing scene: exit code ${rc}, want non-zero, its message and "
                      "rank 0's line naming rank 1\n${err}")
endif()
if(EXISTS ${OUT}/bad.pfm)
  message(FATAL_ERROR "a failed job wrote its output")
endif()
# Every rank refuses an output folder that does not exist (before the render): rank 0 names
# the lowest failing rank, and the job ends without a hang.
execute_process(COMMAND ${MPIEXEC} -n 2 ${pre} ${EXE} ${args} --out ${OUT}/nodir/bad.pfm
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(rc EQUAL 0 OR NOT err MATCHES "raycompact render: --out: cannot write in '[^\n]*nodir'"
   OR NOT err MATCHES "raycompact: rank 0 of 2 failed \\(exit code 2\\); every rank stops")
  message(FATAL_ERROR "a bad --out on every rank: exit code ${rc}\n${err}")
endif()
