# test_out_link.cmake: outputs named by a symbolic link. Variables: EXE (raycompact), SRC (source
# tree), OUT (a scratch folder).
#  - render --out LINK writes the link's target, byte for byte the image a render to a plain
#    file gives, and LINK stays a link (also through a chain of two links, relative targets);
#  - bench --json LINK likewise writes the target, a JSON with runs;
#  - a link whose target's directory does not exist is refused with one line and exit code 2
#    before any rendering, and nothing is written; so is a target that is a directory;
#  - a link to a file that does not exist yet, in a directory that does, makes that file.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT}/real)
set(render render --scene ${SRC}/scenes/cornell.json --width 16 --height 12 --spp 2 --backend cpu)

include(${SRC}/compaction/tests/out_link_expect.cmake) # expect_link, expect_no_temporaries

function(run want_rc)
  execute_process(COMMAND ${EXE} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
    ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc STREQUAL "${want_rc}")
    message(FATAL_ERROR "raycompact ${ARGN}: exit code ${rc}, want ${want_rc}\n${out}\n${err}")
  endif()
  string(REGEX REPLACE "raycompact: [^\n]*rendering on the CPU\n" "" err "${err}")
  set(err "${err}" PARENT_SCOPE)
endfunction()

function(expect_one_line regex)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines n)
  if(NOT n EQUAL 1 OR NOT err MATCHES "${regex}")
    message(FATAL_ERROR "want one line matching '${regex}', got:\n${err}")
  endif()
endfunction()

# The image through a link, and through a chain of two, against a plain file.
run(0 ${render} --out ${OUT}/plain.png)
file(CREATE_LINK real/linked.png ${OUT}/link.png SYMBOLIC)
file(CREATE_LINK link.png ${OUT}/chain.png SYMBOLIC)
file(WRITE ${OUT}/real/linked.png "old")
run(0 ${render} --out ${OUT}/link.png)
expect_link(${OUT}/link.png)
file(SHA256 ${OUT}/plain.png want)
file(SHA256 ${OUT}/real/linked.png got)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "the link's target does not hold the image a plain --out gives")
endif()
file(REMOVE ${OUT}/real/linked.png)
run(0 ${render} --out ${OUT}/chain.png)
expect_link(${OUT}/chain.png)
expect_link(${OUT}/link.png)
file(SHA256 ${OUT}/real/linked.png got)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "through two links: the target does not hold the image")
endif()

# bench --json through a link.
file(CREATE_LINK ${OUT}/real/bench.json ${OUT}/bench_link.json SYMBOLIC)
run(0 bench --scene ${SRC}/scenes/spheres.json --width 8 --height 8 --frames 1 --warmup 0
  --backend cpu --algos serial --modes indices --json ${OUT}/bench_link.json)
expect_link(${OUT}/bench_link.json)
file(READ ${OUT}/real/bench.json j)
string(JSON nruns LENGTH "${j}" runs)
if(NOT nruns EQUAL 1)
  message(FATAL_ERROR "bench --json through a link: ${nruns} runs in the target, want 1")
endif()

# Dangling: the target's directory does not exist. Refused before the render (--spp 100000
# would take minutes), one line, nothing written.
file(CREATE_LINK nosuch/x.png ${OUT}/dangling.png SYMBOLIC)
run(2 render --scene ${SRC}/scenes/cornell.json --spp 100000 --backend cpu
  --out ${OUT}/dangling.png)
expect_one_line("^raycompact render: --out: '[^']*/dangling.png' is a symbolic link to '[^']*/nosuch/x.png': cannot write in '[^']*/nosuch': No such file or directory\n$")
expect_link(${OUT}/dangling.png)
file(CREATE_LINK nosuch/b.json ${OUT}/dangling.json SYMBOLIC)
run(2 bench --scene ${SRC}/scenes/spheres.json --width 8 --height 8 --frames 1 --warmup 0
  --backend cpu --algos serial --modes indices --json ${OUT}/dangling.json)
expect_one_line("^raycompact bench: --json: '[^']*/dangling.json' is a symbolic link to '[^']*/nosuch/b.json': cannot write in '[^']*/nosuch': No such file or directory\n$")
expect_link(${OUT}/dangling.json)

# A link to a directory.
file(CREATE_LINK real ${OUT}/dir.png SYMBOLIC)
run(2 ${render} --out ${OUT}/dir.png)
expect_one_line("^raycompact render: --out: '[^']*/dir.png' is a symbolic link to '[^']*/real': '[^']*/real' is not a regular file\n$")

# A link to a file not there yet, in a directory that is: the file is made.
file(CREATE_LINK real/new.png ${OUT}/new.png SYMBOLIC)
run(0 ${render} --out ${OUT}/new.png)
expect_link(${OUT}/new.png)
file(SHA256 ${OUT}/real/new.png got)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "a link to a new file: the file does not hold the image")
endif()

# No temporary file is left anywhere.
expect_no_temporaries(${OUT})
