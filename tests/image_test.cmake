# One image-diff test: blur INPUT with VARIANT headless, compare with GOLDEN within TOLERANCE LSB
# (TOLERANCE=model: the one the approximation's check states for the case, from GOLDEN_TOOL).
# EXPECT=run: the variant must blur the case (any refusal fails); EXPECT=kernel: it must refuse
# the case's kernel, EXPECT=limit: it must refuse for a device limit (shared memory),
# EXPECT=border: for its border mode (VariantInfo::refused_borders), each with one
# line naming the reason (exit 2), and write nothing.
# Quoted words are words, not variables ("limit" is both below).
cmake_policy(SET CMP0054 NEW)
get_filename_component(dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${dir})
file(REMOVE ${OUT})
execute_process(COMMAND ${BLURLAB} --headless --gl-debug --frames 0 --variant ${VARIANT} --image ${INPUT} --output ${OUT} ${ARGS}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT STREQUAL "kernel" OR EXPECT STREQUAL "limit" OR EXPECT STREQUAL "border")
  if(EXPECT STREQUAL "kernel")
    set(limit "kernel")
  elseif(EXPECT STREQUAL "border")
    set(limit "border")
  else()
    set(limit "shared_memory")
  endif()
  # The device-limit cases are llvmpipe's (32 KiB of shared memory): on a device with more (a GPU
  # machine, tests/gpu/run.sh) the variant may blur the case, and then its output is compared
  # like any other's.
  string(REGEX MATCH "compute shared memory ([0-9]+) B" shared "${out}")
  if(EXPECT STREQUAL "limit" AND code EQUAL 0 AND CMAKE_MATCH_1 GREATER 32768)
    message(STATUS "runs on this device (${CMAKE_MATCH_1} B of shared memory, more than llvmpipe's 32768): compared")
    set(EXPECT run)
  endif()
endif()
if(EXPECT STREQUAL "kernel" OR EXPECT STREQUAL "limit" OR EXPECT STREQUAL "border")
  if(NOT code EQUAL 2 OR NOT err MATCHES "^blurlab: ${VARIANT} cannot run [^\n]*: [^\n]* \\(limit: ${limit}\\)\n$")
    message(FATAL_ERROR "${VARIANT} should refuse this case (limit: ${limit}) with one line (exit 2), got exit ${code}:\n${out}\n${err}")
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
