# One image-diff test: blur INPUT with VARIANT headless, compare with GOLDEN within TOLERANCE LSB.
# A setting the variant declares unsupported is reported as skipped, not passed.
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
file(REMOVE ${OUT})
execute_process(COMMAND ${BLURLAB} --headless --gl-debug --frames 0 --variant ${VARIANT} --image ${INPUT} --output ${OUT} ${ARGS}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(code EQUAL 2 AND err MATCHES "cannot run")
  message(STATUS "SKIPPED: unsupported: ${err}")
  return()
endif()
if(NOT code EQUAL 0)
  message(FATAL_ERROR "blurlab exited ${code}\n${out}\n${err}")
endif()
execute_process(COMMAND ${COMPARE} ${OUT} ${GOLDEN} --tolerance ${TOLERANCE} RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${VARIANT}: output differs from the golden (see above)")
endif()
