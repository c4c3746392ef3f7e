# run(COMMAND...): runs a command of a test script, fails the test with the command, its exit code
# and its output when it exits non-zero, and leaves its stdout in run_output.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${ARGN}\nexited ${code}:\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# run_refused(REGEX COMMAND...): runs a command that must refuse: exit code 1 and one line on stderr
# matching REGEX; fails the test with what it did otherwise.
function(run_refused regex)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 1 OR NOT err MATCHES "^[^\n]*${regex}[^\n]*\n$")
    message(FATAL_ERROR "${ARGN}\nexited ${code}, not 1 with one line matching '${regex}':\n${out}\n${err}")
  endif()
endfunction()
