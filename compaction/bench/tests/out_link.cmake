# out_link.cmake: `compact bench` outputs named by a symbolic link (out_path.h). --json and
# --csv of a sweep, and `compact tune`'s --out and --json, write the link's target and the link stays a
# link, also through a chain of two relative links; a link whose target's directory does not
# exist is refused with one line and exit code 2 before any measurement, and nothing is
# written. Usage: cmake -DCOMPACT=path/to/compact -DOUT_DIR=dir -P out_link.cmake
include(${CMAKE_CURRENT_LIST_DIR}/bench_expect.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/../../tests/out_link_expect.cmake)
file(MAKE_DIRECTORY ${OUT_DIR}/real)
set(quick --backend cpu --algos serial --n 64 --runs 1 --warmup 0 --quiet)

# A sweep's JSON through a chain of two links, its CSV through one; earlier targets replaced.
file(CREATE_LINK real/sweep.json ${OUT_DIR}/first.json SYMBOLIC)
file(CREATE_LINK first.json ${OUT_DIR}/sweep.json SYMBOLIC)
file(CREATE_LINK real/sweep.csv ${OUT_DIR}/sweep.csv SYMBOLIC)
file(WRITE ${OUT_DIR}/real/sweep.json "old")
compact(0 bench ${quick} --json ${OUT_DIR}/sweep.json --csv ${OUT_DIR}/sweep.csv)
foreach(link sweep.json first.json sweep.csv)
  expect_link(${OUT_DIR}/${link})
endforeach()
json_length(${OUT_DIR}/real/sweep.json records n 1)
expect_csv(${OUT_DIR}/real/sweep.csv ${n})

# compact tune: the table (--out) and its measurements (--json) through links.
file(CREATE_LINK real/table.json ${OUT_DIR}/table.json SYMBOLIC)
file(CREATE_LINK real/kept.json ${OUT_DIR}/kept.json SYMBOLIC)
compact(0 tune --backend cpu --n 2^10 --elem 4 --removed 0.5 --tile 64 --runs 1 --warmup 0 --quiet
  --out ${OUT_DIR}/table.json --json ${OUT_DIR}/kept.json)
expect_link(${OUT_DIR}/table.json)
expect_link(${OUT_DIR}/kept.json)
json_length(${OUT_DIR}/real/table.json rules n 1)
json_length(${OUT_DIR}/real/kept.json records n 1)

# Dangling: refused before the sweep (2^27 elements would take a while), one line.
file(CREATE_LINK nosuch/x.json ${OUT_DIR}/dangling.json SYMBOLIC)
compact_says(2 "^compact bench: --json: '[^']*/dangling.json' is a symbolic link to '[^']*/nosuch/x.json': cannot write in '[^']*/nosuch': No such file or directory\n$"
  bench --backend cpu --algos serial --n 2^27 --runs 100 --json ${OUT_DIR}/dangling.json)
expect_link(${OUT_DIR}/dangling.json)
file(CREATE_LINK nosuch/t.json ${OUT_DIR}/dangling_table.json SYMBOLIC)
compact_says(2 "^compact tune: --out: '[^']*/dangling_table.json' is a symbolic link to '[^']*/nosuch/t.json': cannot write in '[^']*/nosuch': No such file or directory\n$"
  tune --backend cpu --n 2^10 --out ${OUT_DIR}/dangling_table.json)

expect_no_temporaries(${OUT_DIR})
