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
