# A committed file must equal what its generator makes today, bit for bit: goldens (made by the
# CPU reference, blurlab-golden) and the test chart (blurlab-make-chart).
#   GENERATE: the generator's command line (a list) that writes OUT; EXPECTED: the committed file.
get_filename_component(out_dir ${OUT} DIRECTORY)
file(MAKE_DIRECTORY ${out_dir})
execute_process(COMMAND ${GENERATE} RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the generator failed (${code}): ${GENERATE}")
endif()
execute_process(COMMAND ${COMPARE} ${OUT} ${EXPECTED} --tolerance 0 RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${EXPECTED} is not what `${GENERATE}` makes; regenerate it")
endif()
