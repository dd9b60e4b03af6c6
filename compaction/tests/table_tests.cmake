# table_tests.cmake: run by ctest (TEST_INCLUDE_FILES), not by cmake. Registers one test per
# algorithm of the library's own table, as `compact list --names` prints it for this build, so
# no test list is kept by hand. SC_COMPACT is the compact tool (set by the generated file).
# sc_table_test(PREFIX LABEL "LIST-ARGS" EXE "ARGS" [PROPERTY VALUE]...): for each name that
# `compact list --names LIST-ARGS` prints, test PREFIX.NAME runs `EXE ARGS NAME`.
function(sc_table_test prefix label list_args exe args)
  separate_arguments(list_args UNIX_COMMAND "${list_args}")
  separate_arguments(args UNIX_COMMAND "${args}")
  execute_process(COMMAND "${SC_COMPACT}" list --names ${list_args} RESULT_VARIABLE rc
    OUTPUT_VARIABLE names ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT names)
    # Not built yet, or the list failed: one test that fails and says why.
    add_test(${prefix}.compact_list "${SC_COMPACT}" list --names ${list_args})
    set_tests_properties(${prefix}.compact_list PROPERTIES LABELS ${label})
    return()
  endif()
  string(REGEX REPLACE "\n$" "" names "${names}")
  string(REPLACE "\n" ";" names "${names}")
  foreach(name IN LISTS names)
    add_test(${prefix}.${name} "${exe}" ${args} ${name})
    set_tests_properties(${prefix}.${name} PROPERTIES LABELS ${label} SKIP_RETURN_CODE 77
      TIMEOUT 120 ${ARGN})
  endforeach()
endfunction()
