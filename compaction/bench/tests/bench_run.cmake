# bench_run.cmake: what the bench's test scripts share (include()d; they are given -DCOMPACT).
# compact(RC ARGS...): run ${COMPACT} ARGS and fail unless it exits RC ("any": whatever it
# exits); rc, out and err are set in the caller.
function(compact want)
  execute_process(COMMAND ${COMPACT} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  if(NOT want STREQUAL "any" AND NOT rc STREQUAL "${want}")
    message(FATAL_ERROR "compact ${ARGN}: exit code ${rc}, want ${want}\n${out}\n${err}")
  endif()
  set(rc "${rc}" PARENT_SCOPE)
  set(out "${out}" PARENT_SCOPE)
  set(err "${err}" PARENT_SCOPE)
endfunction()
# json_length(FILE ARRAY VAR): the length of FILE's top-level ARRAY into VAR (and FILE's text
# into `text`); fails when FILE does not parse or has no such array.
function(json_length file array var)
  file(READ ${file} text)
  string(JSON n ERROR_VARIABLE bad LENGTH "${text}" ${array})
  if(bad)
    message(FATAL_ERROR "${file}: no '${array}' (${bad})")
  endif()
  set(${var} ${n} PARENT_SCOPE)
  set(text "${text}" PARENT_SCOPE)
endfunction()
