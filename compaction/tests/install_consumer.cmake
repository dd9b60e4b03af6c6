# install_consumer.cmake: install the library into a scratch prefix, then build and run a small
# program against it twice: with find_package(compaction) and with pkg-config.
# -DBUILD=<build dir> -DSRC=<this folder> -DWORK=<scratch dir>
file(REMOVE_RECURSE ${WORK})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --component Unspecified
                        --prefix ${WORK}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "install failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SRC}/consumer -B ${WORK}/b
                        -DCMAKE_PREFIX_PATH=${WORK}/prefix
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "find_package(compaction) consumer did not configure:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/b RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "find_package(compaction) consumer did not build:\n${out}")
endif()
execute_process(COMMAND ${WORK}/b/use RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out MATCHES "ok kept 4: 0 2 4 6")
  message(FATAL_ERROR "consumer printed '${out}' (exit ${rc})")
endif()
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${WORK}/prefix/lib/pkgconfig)
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs compaction RESULT_VARIABLE rc
                  OUTPUT_VARIABLE flags OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config does not find compaction.pc")
  endif()
  separate_arguments(flags UNIX_COMMAND "${flags}")
  execute_process(COMMAND cc ${SRC}/consumer/use.c ${flags} -o ${WORK}/use_pc RESULT_VARIABLE rc
                  ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config consumer did not build:\n${out}")
  endif()
  execute_process(COMMAND ${WORK}/use_pc RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "ok kept 4: 0 2 4 6")
    message(FATAL_ERROR "pkg-config consumer printed '${out}' (exit ${rc})")
  endif()
endif()
message(STATUS "installed library used through find_package and pkg-config")
