# test_view.cmake: a scripted viewer session. raycompact view runs tests/data/view_all.txt and
# must exit 0; test_view_check then looks at the screenshots and the log.
#   XVFB_RUN set: in a virtual X server (xvfb-run starts Xvfb; Mesa's llvmpipe gives the
#                 OpenGL 3.3 core context), on BACKEND (cpu in CI);
#   XVFB_RUN empty: on SDL's offscreen driver (EGL, no X server), e.g. with BACKEND=cuda on a
#                 GPU machine, where the film goes through CUDA-GL interop (or the host copy
#                 where interop cannot register). Prints "SKIPPED" (the test's skip pattern)
#                 when the build or the machine has no CUDA device for a cuda session.
# -DEXE=raycompact -DCHECK=test_view_check -DXVFB_RUN=xvfb-run|"" -DBACKEND=cpu|cuda
# -DSRC=source dir -DOUT=dir
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
set(view ${EXE} view --scene ${SRC}/scenes/spheres.json --width 96 --height 54 --max-depth 8
    --backend ${BACKEND} --window 640x480 --script ${SRC}/tests/data/view_all.txt)
if(XVFB_RUN)
  set(cmd ${XVFB_RUN} -a -s "-screen 0 1024x768x24" ${view})
else()
  set(cmd ${CMAKE_COMMAND} -E env SDL_VIDEODRIVER=offscreen ${view})
endif()
execute_process(COMMAND ${cmd} WORKING_DIRECTORY ${OUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
file(WRITE ${OUT}/view.log "${out}")
message("${out}${err}")
if(BACKEND STREQUAL "cuda" AND err MATCHES "no usable CUDA device|has no CUDA backend")
  message("test_view: SKIPPED: no CUDA device") # the test's SKIP_REGULAR_EXPRESSION
  return()
endif()
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "raycompact view exited with ${rc}")
endif()
execute_process(COMMAND ${CHECK} ${OUT} ${BACKEND} RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "test_view_check failed (${rc})")
endif()
# A small window: the overlay folds (test_view_check compares view_small_*.png).
list(TRANSFORM view REPLACE "^640x480$" "320x240")
list(TRANSFORM view REPLACE "view_all\\.txt$" "view_small.txt")
if(XVFB_RUN)
  set(cmd ${XVFB_RUN} -a -s "-screen 0 1024x768x24" ${view})
else()
  set(cmd ${CMAKE_COMMAND} -E env SDL_VIDEODRIVER=offscreen ${view})
endif()
execute_process(COMMAND ${cmd} WORKING_DIRECTORY ${OUT} RESULT_VARIABLE rc TIMEOUT 120)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "raycompact view (320x240) exited with ${rc}")
endif()
execute_process(COMMAND ${CHECK} ${OUT} ${BACKEND} --small RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "test_view_check --small failed (${rc})")
endif()
string(REGEX MATCH "display through [^\n]*" path "${err}")
message("test_view: ${BACKEND} backend, ${path}")
