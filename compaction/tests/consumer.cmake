# consumer.cmake: build and run tests/consumer/use.c against the library the ways another
# project takes it, from a copy of compaction/ alone (so nothing outside the folder is reached).
# -DSRC=<compaction/> -DWORK=<scratch dir> -DHOW=subdirectory|fetchcontent|install
# -DSHARED=ON|OFF [-DBUILD=<a configured build of the library>, for HOW=install: use it as is]
# [-DGENERATOR=<CMake generator>: the one the calling build uses, so that no other build tool
# is needed (a machine with ninja may have no make)]
# HOW=install: installs (BUILD, or a fresh stand-alone build of the copy), then builds the
# consumer with find_package(raycompact-compaction) and with pkg-config.
# The fresh builds are CPU only (the consumer side of a CUDA build is the same; BUILD covers it).
set(expect "ok kept 4: 0 2 4 6 \\(v[0-9]+\\.[0-9]+, detail ''\\)")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
# The folder alone: no build outputs, nothing of the repository around it.
file(COPY ${SRC}/ DESTINATION ${WORK}/compaction PATTERN ".git" EXCLUDE)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()
function(check_use exe)
  run("running ${exe}" ${exe})
  if(NOT run_out MATCHES "${expect}")
    message(FATAL_ERROR "${exe} printed '${run_out}'")
  endif()
endfunction()

set(gen "")
if(GENERATOR)
  set(gen -G ${GENERATOR})
endif()
set(common -DBUILD_SHARED_LIBS=${SHARED} -DRAYCOMPACT_CUDA=OFF -DCMAKE_BUILD_TYPE=Release)
if(HOW STREQUAL "subdirectory" OR HOW STREQUAL "fetchcontent")
  set(source ${WORK}/compaction)
  if(HOW STREQUAL "fetchcontent")
    run("tar" ${CMAKE_COMMAND} -E chdir ${WORK} ${CMAKE_COMMAND} -E tar czf compaction.tar.gz
      compaction)
    set(source file://${WORK}/compaction.tar.gz)
  endif()
  run("configure (${HOW})" ${CMAKE_COMMAND} ${gen} -S ${SRC}/tests/consumer -B ${WORK}/b -DHOW=${HOW}
    -DSC_SOURCE=${source} ${common})
  run("build (${HOW})" ${CMAKE_COMMAND} --build ${WORK}/b)
  # The library's tests and CLI stay out of a consumer's build.
  if(EXISTS ${WORK}/b/raycompact-compaction/tests OR EXISTS ${WORK}/b/_deps/raycompact_compaction-build/tests)
    message(FATAL_ERROR "the consumer's build holds the library's tests")
  endif()
  check_use(${WORK}/b/use)
  message(STATUS "consumer through ${HOW} (shared ${SHARED}): ok")
  return()
endif()

if(NOT HOW STREQUAL "install")
  message(FATAL_ERROR "HOW=${HOW}")
endif()
if(NOT BUILD)
  set(BUILD ${WORK}/lib)
  run("configure the library alone" ${CMAKE_COMMAND} ${gen} -S ${WORK}/compaction -B ${BUILD} ${common}
    -DRAYCOMPACT_COMPACTION_TESTS=OFF)
  run("build the library alone" ${CMAKE_COMMAND} --build ${BUILD})
endif()
set(prefix ${WORK}/prefix)
run("install" ${CMAKE_COMMAND} --install ${BUILD} --component Unspecified --prefix ${prefix})
foreach(f include/raycompact/compaction.h lib/cmake/raycompact-compaction/raycompact-compactionConfig.cmake
    lib/pkgconfig/raycompact-compaction.pc)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
file(GLOB libs RELATIVE ${prefix}/lib ${prefix}/lib/libraycompact-compaction*)
message(STATUS "installed: ${libs}")
if(SHARED)
  # The SONAME carries the ABI version: libraycompact-compaction.so.0.MINOR for 0.x.
  if(NOT libs MATCHES "libraycompact-compaction\\.so\\.0\\.[0-9]+;" AND NOT libs MATCHES "libraycompact-compaction\\.so\\.[1-9][0-9]*;")
    message(FATAL_ERROR "no versioned shared library among: ${libs}")
  endif()
elseif(NOT libs MATCHES "libraycompact-compaction\\.a")
  message(FATAL_ERROR "no static library among: ${libs}")
endif()

run("configure (find_package)" ${CMAKE_COMMAND} ${gen} -S ${SRC}/tests/consumer -B ${WORK}/b -DHOW=package
  -DCMAKE_PREFIX_PATH=${prefix})
run("build (find_package)" ${CMAKE_COMMAND} --build ${WORK}/b)
check_use(${WORK}/b/use)
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
  run("pkg-config" ${PKG_CONFIG} --cflags --libs raycompact-compaction)
  string(STRIP "${run_out}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run("build (pkg-config)" cc ${SRC}/tests/consumer/use.c ${flags} -Wl,-rpath,${prefix}/lib
    -o ${WORK}/use_pc)
  check_use(${WORK}/use_pc)
  message(STATUS "installed library used through find_package and pkg-config: ok")
else()
  message(STATUS "installed library used through find_package: ok (no pkg-config here)")
endif()
