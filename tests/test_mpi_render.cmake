# test_mpi_render.cmake: `raycompact render` under MPI writes the same bytes as one process.
# Renders a small image alone, then with MPIEXEC -n 2 and -n 3 (more ranks than cores: Open MPI
# needs --oversubscribe), and requires each file to equal the single-process one byte for byte;
# a render of other samples (--seed) must differ, so the comparison can fail. Then a scene one
# rank cannot read must end the whole job with that rank's one-line message (no hang).
# Variables: EXE, MPIEXEC, SRC (source tree), OUT (a scratch folder).
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${MPIEXEC} --version OUTPUT_VARIABLE version ERROR_QUIET)
set(pre "")
if(version MATCHES "Open MPI|OpenRTE")
  set(pre --oversubscribe)
endif()
set(args render --scene ${SRC}/scenes/cornell.json --width 24 --height 16 --spp 7
  --samples-per-wave 2 --max-depth 6 --backend cpu)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
    TIMEOUT 120)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: exit code ${rc}\n${out}\n${err}")
  endif()
endfunction()

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

# Rank 1 cannot read its scene: the job ends with its message and a non-zero status.
execute_process(COMMAND ${MPIEXEC} -n 1 ${pre} ${EXE} ${args} --out ${OUT}/bad.pfm :
  -n 1 ${EXE} render --scene ${OUT}/nosuch.json --out ${OUT}/bad.pfm --backend cpu
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
if(rc EQUAL 0 OR NOT err MATCHES "raycompact render: [^\n]*nosuch.json: cannot open")
  message(FATAL_ERROR "a rank's missing scene: exit code ${rc}, want non-zero and its message\n${err}")
endif()
if(EXISTS ${OUT}/bad.pfm)
  message(FATAL_ERROR "a failed job wrote its output")
endif()
