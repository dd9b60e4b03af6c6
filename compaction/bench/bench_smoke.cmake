# bench_smoke.cmake: run a tiny CPU sweep of `compact bench` that writes JSON and CSV, then
# check that the JSON parses, has every field and one record per CSV line, and no mismatch.
# Usage: cmake -DCOMPACT=path/to/compact -DOUT_DIR=dir [-DMASK=file.png -DHAVE_STB=dir]
#        -P bench_smoke.cmake
file(MAKE_DIRECTORY ${OUT_DIR})
set(json ${OUT_DIR}/bench.json)
set(csv ${OUT_DIR}/bench.csv)
file(REMOVE ${json} ${csv})
set(patterns random,runs:3,blobs,red:0.5)
if(MASK AND HAVE_STB AND NOT HAVE_STB MATCHES "NOTFOUND$")
  set(patterns ${patterns},mask:${MASK},invmask:${MASK})
endif()
execute_process(
  COMMAND ${COMPACT} bench --backend cpu --algos all --n 2^12+3,1000 --removed 0,0.3,1
    --elem 4,12,2 --tile 32,256 --scan default,blelloch --order random,slot --runs 3 --warmup 1
    --pattern ${patterns} --json ${json} --csv ${csv} --quiet
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compact bench exited with ${rc}\n${err}\n${out}")
endif()

file(READ ${json} text)
string(JSON records ERROR_VARIABLE json_error GET "${text}" records)
if(json_error)
  message(FATAL_ERROR "${json} does not parse: ${json_error}")
endif()
string(JSON count LENGTH "${records}")
if(count LESS 3)
  message(FATAL_ERROR "${json}: ${count} records, expected more")
endif()
# A mismatch already makes the exit status non-zero; here every field of a record must be there.
foreach(field backend device commit sweep algorithm kind n elem_size removed pattern red_share
    tile scan order median_ms min_ms max_ms gbps x_cub pct_copy check phases)
  string(JSON type ERROR_VARIABLE json_error TYPE "${records}" 1 ${field})
  if(json_error)
    message(FATAL_ERROR "${json}: record 1 has no field '${field}'")
  endif()
endforeach()
string(FIND "${text}" "MISMATCH" mismatch)
if(NOT mismatch EQUAL -1)
  message(FATAL_ERROR "${json}: a result differs from the serial reference")
endif()

file(STRINGS ${csv} lines)
list(LENGTH lines csv_lines)
math(EXPR csv_records "${csv_lines} - 1")
if(NOT csv_records EQUAL count)
  message(FATAL_ERROR "${csv}: ${csv_records} records, the JSON has ${count}")
endif()
message(STATUS "compact bench: ${count} records in JSON and CSV")

# The cache mode: the sweep above is cold (sets rotate, several of them); --warm runs every
# record on one set and says so in the JSON and under the table.
string(JSON cache GET "${text}" cache)
string(JSON sets GET "${records}" 1 sets)
if(NOT cache STREQUAL "cold" OR sets LESS 2)
  message(FATAL_ERROR "${json}: cache '${cache}' with ${sets} sets, expected cold with >= 2")
endif()
set(warm_json ${OUT_DIR}/bench_warm.json)
file(REMOVE ${warm_json})
execute_process(
  COMMAND ${COMPACT} bench --backend cpu --warm --algos serial,scan-scatter --n 5000
    --removed 0.5 --runs 3 --warmup 1 --json ${warm_json}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "compact bench --warm exited with ${rc}\n${err}\n${out}")
endif()
if(NOT out MATCHES "warm: every run on one input set")
  message(FATAL_ERROR "compact bench --warm: the table does not say it is warm\n${out}")
endif()
file(READ ${warm_json} text)
string(JSON cache GET "${text}" cache)
string(JSON records GET "${text}" records)
string(JSON count LENGTH "${records}")
if(NOT cache STREQUAL "warm" OR count LESS 2)
  message(FATAL_ERROR "${warm_json}: cache '${cache}', ${count} records")
endif()
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON sets GET "${records}" ${i} sets)
  if(NOT sets EQUAL 1)
    message(FATAL_ERROR "${warm_json}: record ${i} ran on ${sets} sets, expected 1")
  endif()
endforeach()
execute_process(COMMAND ${COMPACT} bench --backend cpu --warm --report ${OUT_DIR}/r
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "--warm does not go with --report")
  message(FATAL_ERROR "compact bench --warm --report: exit ${rc}, '${err}'")
endif()
message(STATUS "compact bench --warm: ${count} records on one set each")
