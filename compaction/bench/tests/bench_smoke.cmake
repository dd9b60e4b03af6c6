# bench_smoke.cmake: run a small CPU sweep of `compact bench` that writes JSON and CSV, then
# check that the JSON parses, has every field and one record per CSV line, and no mismatch;
# --warm on one input set. -DCASE=budget: --budget-ms never makes more runs than --runs.
# Usage: cmake -DCOMPACT=path/to/compact -DOUT_DIR=dir [-DMASK=file.png -DHAVE_STB=dir]
#        [-DCASE=budget]
#        -P bench_smoke.cmake
include(${CMAKE_CURRENT_LIST_DIR}/bench_expect.cmake)
if(CASE STREQUAL "budget")
  # --budget-ms shortens a measurement but never lengthens it past --runs: with --runs 1 and 2
  # each record holds exactly that many runs (the runs array has --runs entries).
  foreach(runs 1 2)
    compact(0 bench --backend cpu --algos serial --n 64 --runs ${runs} --warmup 0 --budget-ms 1e-9
      --json ${OUT_DIR}/budget.json --quiet)
    json_length(${OUT_DIR}/budget.json records n 1)
    expect_each(${OUT_DIR}/budget.json runs ${runs})
  endforeach()
  return()
endif()
set(json ${OUT_DIR}/bench.json)
set(csv ${OUT_DIR}/bench.csv)
# A small case of every axis (the sweeps that measure are benchmarks, not tests): every algorithm
# crossed with the knobs it reads, at an odd size, the edge fractions 0 and 1, an odd element
# size; the other patterns on two algorithms below.
set(patterns random)
set(more_patterns runs:3,blobs,red:0.5)
if(MASK AND HAVE_STB AND NOT HAVE_STB MATCHES "NOTFOUND$")
  set(patterns ${patterns},invmask:${MASK})
  set(more_patterns ${more_patterns},mask:${MASK})
endif()
compact(0 bench --backend cpu --algos all --n 2^12+3 --removed 0,0.3,1 --elem 12,2
  --tile 32,256 --scan default,blelloch --order random,slot --runs 2 --warmup 1
  --pattern ${patterns} --json ${json} --csv ${csv} --quiet)
json_length(${json} records count 3)
# A mismatch already makes the exit status non-zero; here every field of a record must be there.
expect_fields(${json} 1 backend device commit sweep algorithm kind n elem_size removed pattern
  red_share tile scan order median_ms min_ms max_ms gbps x_cub pct_copy check phases)
string(FIND "${text}" "MISMATCH" mismatch)
if(NOT mismatch EQUAL -1)
  message(FATAL_ERROR "${json}: a result differs from the serial reference")
endif()
expect_csv(${csv} ${count})
message(STATUS "compact bench: ${count} records in JSON and CSV")
# The cache mode: the sweep above is cold (sets rotate, several of them); --warm runs every
# record on one set and says so in the JSON and under the table.
string(JSON cache GET "${text}" cache)
string(JSON sets GET "${text}" records 1 sets)
if(NOT cache STREQUAL "cold" OR sets LESS 2)
  message(FATAL_ERROR "${json}: cache '${cache}' with ${sets} sets, expected cold with >= 2")
endif()
set(warm_json ${OUT_DIR}/bench_warm.json)
compact_says(0 "warm: every run on one input set" bench --backend cpu --warm
  --algos serial,scan-scatter --n 5000 --removed 0.5 --runs 3 --warmup 1 --json ${warm_json})
json_length(${warm_json} records count 2)
string(JSON cache GET "${text}" cache)
if(NOT cache STREQUAL "warm")
  message(FATAL_ERROR "${warm_json}: cache '${cache}', ${count} records")
endif()
expect_each(${warm_json} sets 1)
compact_says(2 "--warm does not go with --report" bench --backend cpu --warm --report ${OUT_DIR}/r)
message(STATUS "compact bench --warm: ${count} records on one set each")

# The other patterns (the masks need stb_image).
set(pjson ${OUT_DIR}/patterns.json)
compact(0 bench --backend cpu --algos serial,rlz --n 1000 --removed 0.5 --runs 1 --warmup 0
  --pattern ${more_patterns} --json ${pjson} --quiet)
json_length(${pjson} records pcount 6)
message(STATUS "compact bench: ${pcount} records of the other patterns")
