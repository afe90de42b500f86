# Runs the real `reach` binary once and checks its exit status and output.
#   cmake -DREACH=<binary> -DARGS="solve|file.json" -DEXPECT_EXIT=0 [-DINPUT=<file for stdin>]
#         [-DEXPECT_STDOUT=<regex>] [-DEXPECT_STDERR=<regex>] -P run_binary.cmake
# ARGS separates arguments with | so that the list survives being passed through add_test.
string(REPLACE "|" ";" arguments "${ARGS}")
if(DEFINED INPUT)
  set(input INPUT_FILE ${INPUT})
endif()
execute_process(COMMAND ${REACH} ${arguments} ${input}
  RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT status STREQUAL "${EXPECT_EXIT}")
  message(FATAL_ERROR "reach ${arguments}: exit status ${status}, expected ${EXPECT_EXIT}\n${stdout}${stderr}")
endif()
if(DEFINED EXPECT_STDOUT AND NOT stdout MATCHES "${EXPECT_STDOUT}")
  message(FATAL_ERROR "reach ${arguments}: standard output does not match '${EXPECT_STDOUT}':\n${stdout}")
endif()
if(DEFINED EXPECT_STDERR AND NOT stderr MATCHES "${EXPECT_STDERR}")
  message(FATAL_ERROR "reach ${arguments}: standard error does not match '${EXPECT_STDERR}':\n${stderr}")
endif()
if(stdout MATCHES "nan|inf|null")
  message(FATAL_ERROR "reach ${arguments}: output has a non-finite number:\n${stdout}")
endif()
