# policy_same.cmake: the built-in sm_90 table (compact policy show sm_90) is the checked-in
# compaction/policies/sm_90.json, byte for byte.
# Usage: cmake -DCOMPACT=compact -DJSON=sm_90.json -DOUT=file -P policy_same.cmake
execute_process(COMMAND ${COMPACT} policy show sm_90 OUTPUT_FILE ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compact policy show sm_90 exited with ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${JSON} RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "the built-in sm_90 table differs from ${JSON}")
endif()
