# test_bvh_layouts.cmake: `render --bvh binary` and `--bvh wide` write the same bytes, on every
# shipped scene and on the instanced scene of tests/data (its meshes' trees in either layout). Variables: EXE (raycompact), SRC (source tree), OUT (a scratch folder),
# BACKEND (cpu; the CUDA backend's layouts are compared by test_gpu_wide).
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(GLOB scenes ${SRC}/scenes/*.json)
list(APPEND scenes ${SRC}/tests/data/instances.json)
foreach(scene ${scenes})
  get_filename_component(name ${scene} NAME_WE)
  foreach(layout binary wide)
    execute_process(COMMAND ${EXE} render --scene ${scene} --width 48 --height 32 --spp 2
        --backend ${BACKEND} --bvh ${layout} --out ${OUT}/${name}_${layout}.pfm
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "render ${name} --bvh ${layout}: exit code ${rc}\n${out}\n${err}")
    endif()
  endforeach()
  file(SHA256 ${OUT}/${name}_binary.pfm a)
  file(SHA256 ${OUT}/${name}_wide.pfm b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "${name}: --bvh binary and --bvh wide images differ")
  endif()
  message("${name}: --bvh binary and wide: the same bytes")
endforeach()
