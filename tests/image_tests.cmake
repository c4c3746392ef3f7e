# Included by ctest (through the generated image_tests_config.cmake, which sets BLURLAB,
# COMPARE, ASSETS, GOLDEN, OUT, DRIVER, CMAKE and CASES): adds image.<variant>.<case> for every variant
# the built program lists, so the registry stays the only list of variants.
if(NOT EXISTS "${BLURLAB}")
  add_test(image.not_built "${CMAKE}" -E echo "blurlab is not built: ${BLURLAB}")
  set_tests_properties(image.not_built PROPERTIES WILL_FAIL TRUE)
  return()
endif()
execute_process(COMMAND "${BLURLAB}" --list-variants OUTPUT_VARIABLE listing RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  add_test(image.list_variants "${BLURLAB}" --list-variants)
  return()
endif()
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  # name  stage  N LSB  summary
  if(NOT line MATCHES "^([a-z0-9-]+) +([a-z]+) +([0-9]+) LSB")
    continue()
  endif()
  set(variant ${CMAKE_MATCH_1})
  set(tolerance ${CMAKE_MATCH_3})
  foreach(case IN LISTS CASES)
    string(REPLACE "|" ";" fields "${case}")
    list(GET fields 0 name)
    list(GET fields 1 input)
    list(GET fields 2 args)
    string(REPLACE "," ";" args "${args}")
    add_test(image.${variant}.${name} "${CMAKE}" "-DBLURLAB=${BLURLAB}" "-DCOMPARE=${COMPARE}" "-DVARIANT=${variant}"
             "-DINPUT=${ASSETS}/${input}" "-DGOLDEN=${GOLDEN}/${name}.png" "-DOUT=${OUT}/${variant}/${name}.png"
             "-DTOLERANCE=${tolerance}" "-DARGS=${args}" -P "${DRIVER}")
    set_tests_properties(image.${variant}.${name} PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED: unsupported" LABELS image TIMEOUT 600)
  endforeach()
endforeach()
