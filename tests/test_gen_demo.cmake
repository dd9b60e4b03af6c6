# test_gen_demo.cmake: tools/gen_demo writes a .glb that the project's glTF reader loads whole:
# the triangles, materials and images the generator says it wrote are the ones the reader finds
# (two programs that share no code but the file format), for the default scene and a small one
# with more materials than the kinds it cycles through.
# Usage: cmake -DGEN=gen_demo -DINFO=gltf_info -DOUT=dir -P test_gen_demo.cmake
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
foreach(args "--materials;32;--detail;4" "--materials;45;--detail;1")
  set(glb ${OUT}/demo.glb)
  execute_process(COMMAND ${GEN} --out ${glb} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "([0-9]+) objects, ([0-9]+) materials, ([0-9]+) triangles")
    message(FATAL_ERROR "gen_demo ${args}: exit ${rc}: ${out}${err}")
  endif()
  set(materials ${CMAKE_MATCH_2})
  set(triangles ${CMAKE_MATCH_3})
  execute_process(COMMAND ${INFO} ${glb} RESULT_VARIABLE rc OUTPUT_VARIABLE info
    ERROR_VARIABLE err TIMEOUT 60)
  if(NOT info MATCHES "loaded: ${triangles} triangles, [0-9]+ vertices, [0-9]+ parts, [0-9]+ instances, ${materials} materials, 5 images, camera yes")
    message(FATAL_ERROR "gltf_info ${glb}: want ${triangles} triangles, ${materials} materials, "
                        "5 images and a camera; got: ${info}${err}")
  endif()
  message(STATUS "gen_demo ${args}: ${triangles} triangles, ${materials} materials: read back")
endforeach()

# The small demo renders through the command line, as a scene of its own.
if(RAYCOMPACT)
  execute_process(COMMAND ${RAYCOMPACT} render --backend cpu --scene ${OUT}/demo.glb --width 32
    --height 18 --spp 1 --max-depth 4 --tonemap aces --out ${OUT}/demo.png
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${OUT}/demo.png)
    message(FATAL_ERROR "raycompact render --scene demo.glb: exit ${rc}: ${out}${err}")
  endif()
  message(STATUS "raycompact render --scene demo.glb: ${out}")
endif()
