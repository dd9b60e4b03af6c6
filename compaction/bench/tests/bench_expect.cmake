# bench_expect.cmake: what the bench's test scripts share (include()d; they are given -DCOMPACT
# and -DOUT_DIR, which starts empty here).
file(REMOVE_RECURSE ${OUT_DIR})
file(MAKE_DIRECTORY ${OUT_DIR})

# compact(RC ARGS...): run ${COMPACT} ARGS and fail unless it exits RC; rc, out and err are set
# in the caller. compact_says(RC REGEX ARGS...): the same, and fail unless REGEX matches what it
# said: its stderr, its stdout when RC is 0.
function(compact want)
  compact_says(${want} "^" ${ARGN})
  foreach(var rc out err)
    set(${var} "${${var}}" PARENT_SCOPE)
  endforeach()
endfunction()
function(compact_says want regex)
  execute_process(COMMAND ${COMPACT} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err)
  set(said "${err}")
  if(want STREQUAL "0")
    set(said "${out}")
  endif()
  if(NOT rc STREQUAL "${want}" OR NOT said MATCHES "${regex}")
    message(FATAL_ERROR "compact ${ARGN}: exit code ${rc}, want ${want} and '${regex}'\n"
      "${out}\n${err}")
  endif()
  foreach(var rc out err)
    set(${var} "${${var}}" PARENT_SCOPE)
  endforeach()
endfunction()

# json_length(FILE ARRAY VAR [MIN]): the length of FILE's top-level ARRAY into VAR (and FILE's
# text into `text`); fails when FILE does not parse, has no such array or one shorter than MIN.
function(json_length file array var)
  file(READ ${file} text)
  string(JSON n ERROR_VARIABLE bad LENGTH "${text}" ${array})
  if(bad)
    message(FATAL_ERROR "${file}: no '${array}' (${bad})")
  endif()
  if(ARGC GREATER 3 AND n LESS ARGV3)
    message(FATAL_ERROR "${file}: ${n} entries in '${array}', expected at least ${ARGV3}")
  endif()
  set(${var} ${n} PARENT_SCOPE)
  set(text "${text}" PARENT_SCOPE)
endfunction()

# The records of FILE, whose text json_length() left in `text`:
# expect_fields(FILE I FIELD...): record I has every FIELD (null counts);
# expect_each(FILE FIELD VALUE): every record's FIELD equals the number VALUE.
function(expect_fields file i)
  foreach(field ${ARGN})
    string(JSON type ERROR_VARIABLE bad TYPE "${text}" records ${i} ${field})
    if(bad)
      message(FATAL_ERROR "${file}: record ${i} has no field '${field}'")
    endif()
  endforeach()
endfunction()
function(expect_each file field want)
  string(JSON n LENGTH "${text}" records)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON got GET "${text}" records ${i} ${field})
    if(NOT got EQUAL want)
      message(FATAL_ERROR "${file}: record ${i} has ${field} ${got}, want ${want}")
    endif()
  endforeach()
endfunction()

# expect_csv(FILE RECORDS): FILE is the bench's CSV (its header first) with one line per
# record, as many as the JSON's RECORDS.
function(expect_csv file count)
  file(STRINGS ${file} lines)
  list(LENGTH lines n)
  math(EXPR n "${n} - 1")
  if(NOT n EQUAL count OR NOT lines MATCHES "^backend,")
    message(FATAL_ERROR "${file}: ${n} records, the JSON has ${count} (or no header 'backend,')")
  endif()
endfunction()
