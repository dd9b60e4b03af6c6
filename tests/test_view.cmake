# test_view.cmake: the viewer in a virtual X server. xvfb-run starts Xvfb (Mesa's llvmpipe
# gives the OpenGL 3.3 core context), raycompact view runs tests/data/view_all.txt on the CPU
# backend and must exit 0; test_view_check then looks at the screenshots and the log.
# -DEXE=raycompact -DCHECK=test_view_check -DXVFB_RUN=xvfb-run -DSRC=source dir -DOUT=dir
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(
  COMMAND ${XVFB_RUN} -a -s "-screen 0 1024x768x24"
          ${EXE} view --scene ${SRC}/scenes/spheres.json --width 96 --height 54 --max-depth 8
          --backend cpu --window 480x360 --script ${SRC}/tests/data/view_all.txt
  WORKING_DIRECTORY ${OUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
file(WRITE ${OUT}/view.log "${out}")
message("${out}${err}")
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "raycompact view exited with ${rc}")
endif()
execute_process(COMMAND ${CHECK} ${OUT} RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "test_view_check failed (${rc})")
endif()
