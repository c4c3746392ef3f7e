# --linear: decode sRGB to linear light, blur in rgba16f, encode back.
#   MODE=edge: sharp edges (black/white, and 64/192, which decoding changes) blurred by a fragment
#   and a compute variant equal the CPU reference done the same way (blurlab-golden --linear:
#   decode, blur and encode in double, rounded once), within 1 step: the GPU's rgba16f input,
#   intermediate and output round by at most 2^-10 relative, under 0.1 of a step once encoded; the
#   final rounding may land on the other side of a half step. The gamma-space blur equals its own
#   reference, and the two differ visibly at the black/white edge (the linear one is brighter:
#   188 against 128 in the middle).
#   MODE=check: every variant blurs the chart in linear light within its float tolerance of the
#   reference made from the same decoded input; the only refusals are box-only variants' Gaussian.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

if(MODE STREQUAL "edge")
  run(${MAKE_CHART} --edge ${OUT}/edge.png)
  set(blur --kernel gauss --radius 8)
  run(${GOLDEN} ${OUT}/edge.png ${OUT}/golden_linear.png ${blur} --linear)
  run(${GOLDEN} ${OUT}/edge.png ${OUT}/golden_gamma.png ${blur})
  foreach(variant frag-separable compute-separable)
    run(${BLURLAB} --headless --gl-debug --frames 0 --variant ${variant} --image ${OUT}/edge.png ${blur} --linear
        --output ${OUT}/${variant}_linear.png)
    run(${BLURLAB} --headless --gl-debug --frames 0 --variant ${variant} --image ${OUT}/edge.png ${blur}
        --output ${OUT}/${variant}_gamma.png)
    run(${COMPARE} ${OUT}/${variant}_linear.png ${OUT}/golden_linear.png --tolerance 1)
    run(${COMPARE} ${OUT}/${variant}_gamma.png ${OUT}/golden_gamma.png --tolerance 1)
    execute_process(COMMAND ${COMPARE} ${OUT}/${variant}_linear.png ${OUT}/${variant}_gamma.png --tolerance 0
                    RESULT_VARIABLE code ERROR_VARIABLE err)
    if(NOT code EQUAL 1 OR NOT err MATCHES "by up to ([0-9]+) LSB")
      message(FATAL_ERROR "${variant}: the linear and gamma blurs of the edge do not differ:\n${err}")
    endif()
    if(CMAKE_MATCH_1 LESS 50)
      message(FATAL_ERROR "${variant}: the linear and gamma blurs differ by only ${CMAKE_MATCH_1} steps at the edge")
    endif()
    message(STATUS "${variant}: linear and gamma blurs of the edge differ by up to ${CMAKE_MATCH_1} steps")
  endforeach()
elseif(MODE STREQUAL "check")
  run(${BLURLAB} --headless --gl-debug --check --linear --image ${CHART} --kernel box,gauss --radius 7 --json ${OUT}/linear.json)
  file(READ ${OUT}/linear.json json)
  string(JSON count LENGTH "${json}" results)
  math(EXPR last "${count} - 1")
  set(checked 0)
  foreach(i RANGE ${last})
    string(JSON variant GET "${json}" results ${i} variant)
    string(JSON kernels GET "${json}" results ${i} kernels)
    string(JSON linear GET "${json}" results ${i} settings linear)
    string(JSON format GET "${json}" results ${i} settings input_format)
    string(JSON supported GET "${json}" results ${i} supported)
    if(NOT linear OR NOT format STREQUAL "rgba16f")
      message(FATAL_ERROR "${variant}: linear ${linear}, input ${format}")
    endif()
    if(NOT supported)
      string(JSON kernel GET "${json}" results ${i} settings kernel)
      string(JSON reason GET "${json}" results ${i} reason)
      # Box-only variants refuse the Gaussian, approximations of the Gaussian the box.
      if(NOT (kernels STREQUAL "box" AND kernel STREQUAL "gauss") AND NOT (kernels STREQUAL "gauss" AND kernel STREQUAL "box"))
        message(FATAL_ERROR "${variant} refused ${kernel} in linear light: ${reason}")
      endif()
      continue()
    endif()
    string(JSON ok GET "${json}" results ${i} error ok)
    if(NOT ok)
      message(FATAL_ERROR "${variant} exceeds its tolerance in linear light:\n${run_output}")
    endif()
    math(EXPR checked "${checked} + 1")
  endforeach()
  message(STATUS "${checked} runs in linear light within their tolerance")
else()
  message(FATAL_ERROR "MODE must be edge or check")
endif()
