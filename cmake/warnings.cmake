# The warning set every reach target builds with (gcc and clang), errors under REACH_WERROR.
function(reach_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wconversion -Wshadow
    -Wstrict-prototypes -Wmissing-prototypes)
  if(REACH_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
