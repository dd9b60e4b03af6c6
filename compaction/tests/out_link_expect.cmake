# out_link_expect.cmake: what the tests of outputs named by a symbolic link share (include()d):
# the library's (compaction/bench/tests/out_link.cmake) and the raycompact root's
# (tests/test_out_link.cmake).
# expect_link(LINK): fail unless LINK is still a symbolic link (the write went to its target).
function(expect_link link)
  if(NOT IS_SYMLINK ${link})
    message(FATAL_ERROR "${link} is no longer a symbolic link")
  endif()
endfunction()

# expect_no_temporaries(DIR): fail when a temporary file (*.tmp*, the name a file is written
# under before its rename) is left anywhere below DIR.
function(expect_no_temporaries dir)
  file(GLOB_RECURSE left ${dir}/*.tmp*)
  if(left)
    message(FATAL_ERROR "temporary files left: ${left}")
  endif()
endfunction()
