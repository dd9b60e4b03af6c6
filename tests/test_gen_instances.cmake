# test_gen_instances.cmake: tools/gen_knot and tools/gen_instances write a small version of the
# scene of 10^9 instanced triangles (a knot of 2048 triangles, a grid of 4 x 3 x 2 instances),
# which loads with its instances and renders on the CPU.
# Usage: cmake -DKNOT=gen_knot -DGEN=gen_instances -DRAYCOMPACT=raycompact -DOUT=dir -P ...
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${KNOT} 64 16 --glb ${OUT}/knot.glb RESULT_VARIABLE rc ERROR_VARIABLE err
  TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_knot: exit ${rc}: ${err}")
endif()
execute_process(COMMAND ${GEN} --mesh knot.glb --grid 4 3 2 --out ${OUT}/instances.json
  RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen_instances: exit ${rc}: ${err}")
endif()
execute_process(COMMAND ${RAYCOMPACT} render --backend cpu --scene ${OUT}/instances.json
  --width 48 --height 27 --spp 2 --max-depth 4 --stats --out ${OUT}/instances.png
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}/instances.png)
  message(FATAL_ERROR "render: exit ${rc}: ${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "instances: 24 of 1 mesh, 49152 instanced triangles")
  message(FATAL_ERROR "render --stats does not report the 24 instances: ${out}${err}")
endif()
message(STATUS "gen_instances: 24 instances of 2048 triangles rendered")
