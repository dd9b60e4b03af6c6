# tune_smoke.cmake: `compact tune` on the CPU with a tiny grid writes a policy table
# that `compact policy check` and the library read back and auto then chooses by; a tune that
# stops leaves the table it would replace untouched. -DCOMPACT=<compact> -DOUT_DIR=<scratch>
include(${CMAKE_CURRENT_LIST_DIR}/bench_expect.cmake)
set(table ${OUT_DIR}/cpu.json)

compact(0 tune --backend cpu --n 2^10,2^14 --elem 4,16 --removed 0.02,0.5 --tile 64,256
  --runs 3 --warmup 0 --quiet --out ${table})
compact_says(0 "ok \\(cpu backend\\)" policy check ${table} --backend cpu)
file(READ ${table} json)
string(JSON format GET "${json}" format)
string(JSON backend GET "${json}" backend)
string(JSON rules LENGTH "${json}" rules)
string(JSON grid_n GET "${json}" grid n)
if(NOT format STREQUAL "raycompact-policy" OR NOT backend STREQUAL "cpu" OR rules LESS 4
   OR NOT grid_n MATCHES "1024.*16384")
  message(FATAL_ERROR "tuned table: format ${format}, backend ${backend}, ${rules} rules, "
                      "grid n ${grid_n}")
endif()
# every rule names an algorithm of the CPU backend, never auto
math(EXPR last "${rules} - 1")
foreach(i RANGE ${last})
  string(JSON algo GET "${json}" rules ${i} algo)
  if(algo STREQUAL "auto" OR algo STREQUAL "cub" OR algo STREQUAL "single-pass")
    message(FATAL_ERROR "rule ${i} names ${algo}")
  endif()
endforeach()

# auto chooses by it, through $SC_POLICY and through --policy
set(ENV{SC_POLICY} ${table})
compact_says(0 "auto chose [a-z-]+.*policy tuned-cpu.*matches the serial reference"
  explain auto --random 1000 --removed 0.5)
unset(ENV{SC_POLICY})
compact_says(0 "removed 0\\.0[0-9]+ from exact"
  explain auto --random 4096 --removed 0.02 --list --policy ${table})

# a tune that stops, or cannot write, leaves the old table as it was
file(SHA256 ${table} before)
compact_says(1 "no table was written" tune --backend cpu --n 2^10 --elem 4 --removed 0.5 --runs 1
  --warmup 0 --quiet --max-seconds 0.000001 --out ${table})
file(SHA256 ${table} after)
if(NOT before STREQUAL after)
  message(FATAL_ERROR "stopped tune: the table changed: ${before} ${after}\n${err}")
endif()
# refused before any measurement (out_path.h), as a usage error
compact_says(2 "^compact tune: --out: cannot write in '[^']*/no/such/dir': No such file or directory\n$"
  tune --backend cpu --n 2^10 --elem 4 --removed 0.5 --runs 1 --warmup 0 --quiet
  --out ${OUT_DIR}/no/such/dir/t.json)
message(STATUS "tuned ${rules} rules; auto read them back")
