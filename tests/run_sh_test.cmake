# ./run.sh --help prints run.sh's own usage and exits 0, without installing, building or running
# anything (no build output, no blurlab options, no out/ files).
file(GLOB before ${SOURCE}/out/*)
execute_process(COMMAND ${SOURCE}/run.sh --help RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 20)
file(GLOB after ${SOURCE}/out/*)
if(NOT code EQUAL 0 OR NOT out MATCHES "^usage: ./run.sh \\[run\\]" OR NOT out MATCHES "./run.sh test" OR NOT err STREQUAL ""
   OR out MATCHES "Built target|Building|--variant" OR NOT before STREQUAL after)
  message(FATAL_ERROR "./run.sh --help: exit ${code}\n${out}\n${err}")
endif()
