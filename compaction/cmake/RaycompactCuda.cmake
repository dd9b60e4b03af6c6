# RaycompactCuda.cmake: find nvcc and enable CUDA (RAYCOMPACT_CUDA = AUTO | ON | OFF); sets
# RAYCOMPACT_HAVE_CUDA. Included by the library and by the raycompact root, whichever comes
# first; the second include does nothing.
#
# Architectures, unless the user set CMAKE_CUDA_ARCHITECTURES (or $CUDAARCHS): `native` when a
# GPU answers nvidia-smi at configure time, else a fat binary for Turing through Hopper with
# PTX for the newest, which the driver compiles for later GPUs.
include_guard(GLOBAL)
set(RAYCOMPACT_CUDA AUTO CACHE STRING "Build the CUDA backend: AUTO (when nvcc is found), ON, OFF")
set_property(CACHE RAYCOMPACT_CUDA PROPERTY STRINGS AUTO ON OFF)
set(RAYCOMPACT_CUDA_FAT_ARCHITECTURES "75-real;80-real;86-real;89-real;90-real;90-virtual")

set(RAYCOMPACT_HAVE_CUDA OFF)
if(NOT RAYCOMPACT_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
    find_program(_rc_nvcc nvcc HINTS /usr/local/cuda/bin ENV CUDA_PATH PATH_SUFFIXES bin)
    if(_rc_nvcc)
      set(CMAKE_CUDA_COMPILER ${_rc_nvcc})
    endif()
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      set(_rc_arch ${RAYCOMPACT_CUDA_FAT_ARCHITECTURES})
      set(_rc_why "no GPU answered nvidia-smi: fat binary")
      find_program(_rc_nvidia_smi nvidia-smi)
      if(_rc_nvidia_smi)
        execute_process(COMMAND ${_rc_nvidia_smi} -L RESULT_VARIABLE _rc_smi_rc
          OUTPUT_VARIABLE _rc_smi_out ERROR_QUIET TIMEOUT 30)
        if(_rc_smi_rc EQUAL 0 AND _rc_smi_out MATCHES "GPU [0-9]")
          set(_rc_arch native)
          set(_rc_why "the GPU present at configure time")
        endif()
      endif()
      set(CMAKE_CUDA_ARCHITECTURES "${_rc_arch}" CACHE STRING "CUDA architectures (default: \
native when a GPU is present at configure time, else ${RAYCOMPACT_CUDA_FAT_ARCHITECTURES})")
      # Remembered, so that a later configure of this build says the same.
      set(RAYCOMPACT_CUDA_ARCH_DEFAULT "${_rc_arch}" CACHE INTERNAL "the architectures chosen")
      set(RAYCOMPACT_CUDA_ARCH_WHY "${_rc_why}" CACHE INTERNAL "why they were chosen")
    endif()
    enable_language(CUDA)
    # One line at every configure: what the kernels are compiled for and, when that is several
    # architectures (each one a full compile of every kernel), how to build for one GPU only.
    if(DEFINED RAYCOMPACT_CUDA_ARCH_DEFAULT
       AND "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${RAYCOMPACT_CUDA_ARCH_DEFAULT}")
      set(_rc_why "${RAYCOMPACT_CUDA_ARCH_WHY}")
    else()
      set(_rc_why "as given")
    endif()
    list(LENGTH CMAKE_CUDA_ARCHITECTURES _rc_arch_count)
    if(_rc_arch_count GREATER 1)
      string(APPEND _rc_why ", ${_rc_arch_count} images of every kernel; to build for one GPU \
only, e.g. an H100: -DCMAKE_CUDA_ARCHITECTURES=90, or CUDAARCHS=90 for a new build folder")
    endif()
    message(STATUS "raycompact: CUDA architectures ${CMAKE_CUDA_ARCHITECTURES} (${_rc_why})")
    if(NOT DEFINED CMAKE_CUDA_STANDARD)
      set(CMAKE_CUDA_STANDARD 17)
      set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    endif()
    find_package(CUDAToolkit REQUIRED)
    set(RAYCOMPACT_HAVE_CUDA ON)
  elseif(RAYCOMPACT_CUDA STREQUAL "ON")
    message(FATAL_ERROR "RAYCOMPACT_CUDA=ON but no CUDA compiler was found")
  endif()
endif()
message(STATUS "raycompact: CUDA backend ${RAYCOMPACT_HAVE_CUDA}")
