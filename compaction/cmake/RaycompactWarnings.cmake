# RaycompactWarnings.cmake: raycompact_warnings(target) turns on the project's warnings
# (RAYCOMPACT_WERROR=ON makes them errors). Included by the library and by the raycompact root.
include_guard(GLOBAL)
option(RAYCOMPACT_WERROR "Treat warnings as errors" OFF)
function(raycompact_warnings target)
  set(c_warnings -Wall -Wextra -Wshadow -Wstrict-prototypes)
  set(cuda_warnings -Xcompiler=-Wall,-Wextra)
  if(RAYCOMPACT_WERROR)
    list(APPEND c_warnings -Werror)
    list(APPEND cuda_warnings -Werror=all-warnings -Xcompiler=-Werror)
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:${c_warnings}>
    $<$<COMPILE_LANGUAGE:CUDA>:${cuda_warnings}>)
endfunction()
