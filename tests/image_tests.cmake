# Included by ctest (through the generated image_tests_config.cmake, which sets BLURLAB,
# COMPARE, GOLDEN_TOOL, ASSETS, GOLDEN, OUT, DRIVER, REGENERATED, CMAKE and CASES): adds
# image.<variant>.<case> for every variant the built program lists, so the registry stays the only
# list of variants. An approximation (tolerance "model") has goldens of its own, made by its CPU
# model (golden/<variant>/<case>.png, checked by golden.<variant>.<case> like the others), and the
# tolerance its check states for the case (blurlab-golden --tolerance).
if(NOT EXISTS "${BLURLAB}")
  add_test(image.not_built "${CMAKE}" -E echo "blurlab is not built: ${BLURLAB}")
  set_tests_properties(image.not_built PROPERTIES WILL_FAIL TRUE)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/listing.cmake)
blurlab_read_variants("${BLURLAB}" listed)
if(listed_error)
  add_test(image.list_variants "${CMAKE}" -E echo "${listed_error}")
  set_tests_properties(image.list_variants PROPERTIES WILL_FAIL TRUE)
  return()
endif()
# A case's fields: name|input|blurlab arguments (comma-separated; <comma> is a comma inside one)|golden.
macro(case_fields case)
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 input)
  list(GET fields 2 args)
  string(REPLACE "," ";" args "${args}")
  string(REPLACE "<comma>" "," args "${args}")  # a comma inside one argument
  list(GET fields 3 golden)
endmacro()
# What each variant refuses each case for on this device, from the registry (--list-refusals: the
# limit a variant declares it cannot run the case's settings within, or "-"): a case's expected
# refusals are never a hand-kept list, so a new variant or limit needs no edit here.
foreach(case IN LISTS CASES)
  case_fields("${case}")
  blurlab_read_refusals("${BLURLAB}" refusals_${name} --image "${ASSETS}/${input}" ${args})
  if(refusals_${name}_error)
    add_test(image.${name}.list_refusals "${CMAKE}" -E echo "${refusals_${name}_error}")
    set_tests_properties(image.${name}.list_refusals PROPERTIES WILL_FAIL TRUE)
  endif()
endforeach()
list(LENGTH listed_names count)
foreach(variant IN LISTS listed_names)
  set(tolerance ${listed_${variant}_tolerance})  # LSB, or "model"
  foreach(case IN LISTS CASES)
    case_fields("${case}")
    # "run": the variant must blur the case; a limit's name (kernel, border, shared_memory, ...):
    # it must refuse the case for that limit, with the reason. A variant the listing does not
    # name fails (expect "unlisted").
    if(NOT DEFINED refusals_${name}_${variant})
      set(expect unlisted)
    elseif(refusals_${name}_${variant} STREQUAL "-")
      set(expect run)
    else()
      set(expect ${refusals_${name}_${variant}})
    endif()
    if(NOT golden STREQUAL "-")
      set(golden "${ASSETS}/${golden}")
    elseif(tolerance STREQUAL "model")
      set(golden "${GOLDEN}/${variant}/${name}.png")
      if(expect STREQUAL "run")
        # The committed golden must be what the model makes today.
        set(regenerated ${OUT}/golden_${variant}_${name}.png)
        add_test(golden.${variant}.${name} "${CMAKE}"
                 "-DGENERATE=${GOLDEN_TOOL};${ASSETS}/${input};${regenerated};--variant;${variant};${args}"
                 "-DCOMPARE=${COMPARE}" "-DEXPECTED=${golden}" "-DOUT=${regenerated}" -P "${REGENERATED}")
      endif()
    elseif(tolerance EQUAL 0)
      continue()  # an exact copy is checked against the identity cases only
    else()
      set(golden "${GOLDEN}/${name}.png")
    endif()
    add_test(image.${variant}.${name} "${CMAKE}" "-DBLURLAB=${BLURLAB}" "-DCOMPARE=${COMPARE}" "-DVARIANT=${variant}"
             "-DINPUT=${ASSETS}/${input}" "-DGOLDEN=${golden}" "-DOUT=${OUT}/${variant}/${name}.png"
             "-DTOLERANCE=${tolerance}" "-DGOLDEN_TOOL=${GOLDEN_TOOL}" "-DEXPECT=${expect}" "-DARGS=${args}" -P "${DRIVER}")
    set_tests_properties(image.${variant}.${name} PROPERTIES TIMEOUT 600)
    blurlab_tier(image.${variant}.${name} image)
  endforeach()
endforeach()
# A listing of no variants would otherwise add no test and pass.
if(count EQUAL 0)
  add_test(image.no_variants "${CMAKE}" -E echo "no variants listed by ${BLURLAB} --list-variants --json -")
  set_tests_properties(image.no_variants PROPERTIES WILL_FAIL TRUE)
endif()
