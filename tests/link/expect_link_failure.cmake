# Compiles and links SOURCE against LIBRARY with FLAGS; passes only if linking fails and the
# error names the precision guard symbol EXPECT (so the failure is the one we mean).
execute_process(
  COMMAND ${COMPILER} ${FLAGS} -I${INCLUDE} ${SOURCE} ${LIBRARY} -lm -o ${OUTPUT}
  RESULT_VARIABLE result ERROR_VARIABLE errors OUTPUT_VARIABLE output)
if(result EQUAL 0)
  message(FATAL_ERROR "a program of the other precision linked against the library")
endif()
string(FIND "${errors}${output}" "${EXPECT}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "link failed, but not on ${EXPECT}:\n${errors}")
endif()
message(STATUS "mismatched precision fails to link on ${EXPECT}, as it should")
