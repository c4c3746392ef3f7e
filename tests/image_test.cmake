# One image-diff test: blur INPUT with VARIANT headless, compare with GOLDEN within TOLERANCE LSB
# (TOLERANCE=model: the one the approximation's check states for the case, from GOLDEN_TOOL).
# EXPECT=run: the variant must blur the case (any refusal fails); EXPECT=<limit> (kernel, border,
# shared_memory, ...: what `blurlab --list-refusals` says the registry declares for the case on this
# device): it must refuse the case for that limit, with one line naming the reason (exit 2), and
# write nothing. EXPECT=unlisted: the listing did not name the variant, which fails.
# Quoted words are words, not variables (a limit's name, EXPECT's value, may name one too).
cmake_policy(SET CMP0054 NEW)
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
file(REMOVE ${OUT})
if(EXPECT STREQUAL "unlisted")
  message(FATAL_ERROR "blurlab --list-refusals did not name ${VARIANT}: no expectation for this case")
endif()
execute_process(COMMAND ${BLURLAB} --headless --gl-debug --frames 0 --variant ${VARIANT} --image ${INPUT} --output ${OUT} ${ARGS}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT EXPECT STREQUAL "run")
  if(NOT code EQUAL 2 OR NOT err MATCHES "^blurlab: ${VARIANT} cannot run [^\n]*: [^\n]* \\(limit: ${EXPECT}\\)\n$")
    message(FATAL_ERROR "${VARIANT} should refuse this case (limit: ${EXPECT}) with one line (exit 2), got exit ${code}:\n${out}\n${err}")
  endif()
  if(EXISTS ${OUT})
    message(FATAL_ERROR "${VARIANT} refused but wrote ${OUT}")
  endif()
  message(STATUS "refused as expected: ${err}")
  return()
endif()
if(NOT code EQUAL 0)
  message(FATAL_ERROR "blurlab exited ${code}\n${out}\n${err}")
endif()
if(TOLERANCE STREQUAL "model")
  execute_process(COMMAND ${GOLDEN_TOOL} ${INPUT} --tolerance --variant ${VARIANT} ${ARGS} RESULT_VARIABLE code
                  OUTPUT_VARIABLE TOLERANCE OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT code EQUAL 0 OR NOT TOLERANCE MATCHES "^[0-9]+$")
    message(FATAL_ERROR "${GOLDEN_TOOL} --tolerance failed (${code}): ${TOLERANCE}")
  endif()
  message(STATUS "${VARIANT}: the tolerance its check states here: ${TOLERANCE} LSB")
endif()
execute_process(COMMAND ${COMPARE} ${OUT} ${GOLDEN} --tolerance ${TOLERANCE} RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${VARIANT}: output differs from the golden (see above)")
endif()
