# Included by ctest (through the generated export_tests_config.cmake): one test per variant,
# export.<variant>, with the variants and the kernels they take listed by the program itself, so
# the registry stays the only list. A gauss-capable variant exports a Gaussian, a box-only one a box.
if(NOT EXISTS "${BLURLAB}" OR NOT EXISTS "${RUN_RECIPE}")
  add_test(export.not_built "${CMAKE}" -E echo "not built: ${BLURLAB} ${RUN_RECIPE}")
  set_tests_properties(export.not_built PROPERTIES WILL_FAIL TRUE)
  return()
endif()
# The runner knows nothing of blurlab's blurs or GL code: of blurlab's headers only src/util's
# (files, messages, the GLSL bounds: blurlab_util, app/CMakeLists.txt).
file(STRINGS "${RUN_RECIPE_SOURCE}" own_includes REGEX "^#include \"")
list(FILTER own_includes EXCLUDE REGEX "^#include \"util/[a-z_]+\\.h\"$")
if(own_includes)
  add_test(export.runner_standalone "${CMAKE}" -E echo "${RUN_RECIPE_SOURCE} includes ${own_includes}")
  set_tests_properties(export.runner_standalone PROPERTIES WILL_FAIL TRUE)
endif()
set(tools -DBLURLAB=${BLURLAB} -DRUN_RECIPE=${RUN_RECIPE} -DGLSLANG=${GLSLANG} -DGOLDEN_TOOL=${GOLDEN_TOOL} -DCOMPARE=${COMPARE}
          -DMAKE_CHART=${MAKE_CHART} -DSOURCE_LICENSE=${SOURCE_LICENSE})
# The variants whose sums change form with the radius (the taps knob, --help lists them): their
# exports also at r = 50, where the defaults stream the taps through a run-time loop.
execute_process(COMMAND "${BLURLAB}" --help OUTPUT_VARIABLE help)
string(REGEX MATCH "\n  --taps [^;]*;([a-z0-9, \n-]+)\n  -" taps_entry "${help}")  # its variants end its (wrapped) description
string(REGEX REPLACE "[ \n]" "" streamed_variants "${CMAKE_MATCH_1}")
string(REPLACE "," ";" streamed_variants "${streamed_variants}")
if(NOT streamed_variants)
  add_test(export.taps_listing "${CMAKE}" -E echo "no variants listed for --taps in blurlab --help")
  set_tests_properties(export.taps_listing PROPERTIES WILL_FAIL TRUE)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/listing.cmake)
blurlab_read_variants("${BLURLAB}" listed)
if(listed_error)
  add_test(export.list_variants "${CMAKE}" -E echo "${listed_error}")
  set_tests_properties(export.list_variants PROPERTIES WILL_FAIL TRUE)
endif()
set(count 0)
foreach(variant IN LISTS listed_names)
  set(kernel box)
  list(FIND listed_${variant}_kernels gauss gauss_at)
  if(NOT gauss_at EQUAL -1)
    set(kernel gauss)
  endif()
  # A variable-radius variant blurs by a built-in map (its levels and weights travel as data files):
  # the circle, whose hard edge runs along x and y (a level read from a neighbour shows).
  set(map)
  set(variable_radius FALSE)
  if(listed_${variant}_family STREQUAL "variable-radius")
    set(variable_radius TRUE)
    set(map -DMAP=circle)
  endif()
  add_test(export.${variant} "${CMAKE}" ${tools} -DVARIANT=${variant} -DKERNEL=${kernel} ${map} -DDIR=${WORK}/${variant} -P "${ROUND_TRIP}")
  set_tests_properties(export.${variant} PROPERTIES TIMEOUT 300)
  blurlab_tier(export.${variant} export)
  # And by a PNG map of another size than the image, on rgba16f input (every variable variant takes it).
  if(variable_radius)
    add_test(export.${variant}.map_png_rgba16f "${CMAKE}" ${tools} -DVARIANT=${variant} -DKERNEL=${kernel} -DMAP=png
             -DINPUT_FORMAT=rgba16f -DDIR=${WORK}/${variant}.map_png_rgba16f -P "${ROUND_TRIP}")
    set_tests_properties(export.${variant}.map_png_rgba16f PROPERTIES TIMEOUT 300)
    blurlab_tier(export.${variant}.map_png_rgba16f export)
  endif()
  # The other border modes where the export's handling of them differs: a shader mapping taps of
  # image loads (compute-separable) and of texelFetch (frag-separable), and the sampler wrap modes
  # (and border colour) that the recipe must name for the hardware-linear fetches.
  if(variant MATCHES "^(compute-separable|frag-separable|compute-separable-linear|frag-linear-2d)$")
    foreach(border reflect reflect101 wrap constant)
      add_test(export.${variant}.border_${border} "${CMAKE}" ${tools} -DVARIANT=${variant} -DKERNEL=${kernel} -DBORDER=${border}
               -DDIR=${WORK}/${variant}.${border} -P "${ROUND_TRIP}")
      set_tests_properties(export.${variant}.border_${border} PROPERTIES TIMEOUT 300)
      blurlab_tier(export.${variant}.border_${border} export)
    endforeach()
  endif()
  list(FIND streamed_variants ${variant} streamed_at)  # (no IN_LIST: ctest runs this without policies)
  if(NOT streamed_at EQUAL -1)
    add_test(export.${variant}.streamed "${CMAKE}" ${tools} -DVARIANT=${variant} -DKERNEL=gauss -DRADIUS=50
             -DDIR=${WORK}/${variant}.streamed -P "${ROUND_TRIP}")
    set_tests_properties(export.${variant}.streamed PROPERTIES TIMEOUT 300)
    blurlab_tier(export.${variant}.streamed export)
  endif()
  # At 2048x2048, for variants of several dependent passes: each pass's thousands of workgroups are
  # still in flight when the next could start, so a GPU shows a barrier missing between the
  # runner's passes (llvmpipe runs one dispatch at a time and cannot; tests/gpu/run.sh).
  if(variant MATCHES "^(compute-separable|dual-kawase|fft)$")
    add_test(export.${variant}.large "${CMAKE}" ${tools} -DVARIANT=${variant} -DKERNEL=${kernel} -DWIDTH=2048 -DHEIGHT=2048
             -DDIR=${WORK}/${variant}.large -P "${ROUND_TRIP}")
    set_tests_properties(export.${variant}.large PROPERTIES TIMEOUT 300)
    blurlab_tier(export.${variant}.large export)
  endif()
  # Taller than wide, with several workgroups along the long side: the walks' workgroup formulas
  # (lines across times segments along, in W and H) give the same counts at 61x43 whichever axis
  # they walk, as one workgroup covers each pass's lines there; here a formula with its axes swapped
  # gives counts other than the recipe's, and lines unblurred at any other size.
  if(variant MATCHES "^(compute-sliding|compute-sliding-tiles|box-iterated)$")
    add_test(export.${variant}.tall "${CMAKE}" ${tools} -DVARIANT=${variant} -DKERNEL=${kernel} -DWIDTH=37 -DHEIGHT=400
             -DDIR=${WORK}/${variant}.tall -P "${ROUND_TRIP}")
    set_tests_properties(export.${variant}.tall PROPERTIES TIMEOUT 300)
    blurlab_tier(export.${variant}.tall export)
  endif()
  # Linear light: the recipe says the source holds it and the result must be encoded, and the runner does so.
  if(variant MATCHES "^(compute-separable|frag-separable)$")
    add_test(export.${variant}.linear "${CMAKE}" ${tools} -DVARIANT=${variant} -DKERNEL=${kernel} -DLINEAR=1
             -DDIR=${WORK}/${variant}.linear -P "${ROUND_TRIP}")
    set_tests_properties(export.${variant}.linear PROPERTIES TIMEOUT 300)
    blurlab_tier(export.${variant}.linear export)
  endif()
  math(EXPR count "${count} + 1")
endforeach()
# An effect's whole chain (tests/export_effect_round_trip.cmake): bloom's representative
# implementations at 96x54, each run by the runner on the frame its export carries and compared with
# blurlab's own picture. A variant per term of a sum with a threshold (a prefilter pass, two blur
# stages by two kernels; and the runner's refusals of a chain's command line and damaged frame),
# the FFT's own passes per stage, an approximation by passes, the engines' mip chain, a recursive
# filter by blocks, and fragment passes (draws into framebuffers) between the effect's compute passes.
function(effect_export_case implementation psf threshold knee tamper)
  string(REPLACE "-" "_" test_name "export.effect.bloom_${implementation}")
  add_test(${test_name} "${CMAKE}" ${tools} -DIMPLEMENTATION=${implementation} "-DPSF=${psf}" "-DTHRESHOLD=${threshold}"
           "-DKNEE=${knee}" "-DTAMPER=${tamper}" -DDIR=${WORK}/effect_${implementation} -P "${EFFECT_ROUND_TRIP}")
  set_tests_properties(${test_name} PROPERTIES TIMEOUT 300)
  blurlab_tier(${test_name} export)
endfunction()
effect_export_case(compute-separable "sum:0.6@1.5,0.4@4" 1 0.5 1)
effect_export_case(fft "gauss:3" "" "" "")
effect_export_case(dual-kawase "gauss:4" "" "" "")
effect_export_case(mip-chain "sum:0.5@2,0.5@6" 2 1 "")
effect_export_case(recursive-gaussian-blocks "gauss:5" "" "" "")
effect_export_case(frag-separable "sum:0.7@1,0.3@3" 1 0 "")
# What an export states of itself, and the runner keeping to it (tests/export_choices.cmake).
add_test(export.dual-kawase.choices "${CMAKE}" -DBLURLAB=${BLURLAB} -DRUN_RECIPE=${RUN_RECIPE} -DMAKE_CHART=${MAKE_CHART}
         -DDIR=${WORK}/choices -P "${CHOICES}")
set_tests_properties(export.dual-kawase.choices PROPERTIES TIMEOUT 300)
blurlab_tier(export.dual-kawase.choices export)
# The runner refuses a recipe whose data files are damaged, in one line (tests/export_bad_data.cmake).
add_test(export.run_recipe_bad_data "${CMAKE}" -DBLURLAB=${BLURLAB} -DRUN_RECIPE=${RUN_RECIPE} -DMAKE_CHART=${MAKE_CHART}
         -DDIR=${WORK}/bad_data -P "${BAD_DATA}")
set_tests_properties(export.run_recipe_bad_data PROPERTIES TIMEOUT 300)
blurlab_tier(export.run_recipe_bad_data export)
# It refuses special files, paths out of its folder, values out of range and names that would drive
# the terminal, in one line and without waiting (tests/export_hostile_recipe.cmake).
add_test(export.run_recipe_hostile "${CMAKE}" -DBLURLAB=${BLURLAB} -DRUN_RECIPE=${RUN_RECIPE} -DMAKE_CHART=${MAKE_CHART}
         -DDIR=${WORK}/hostile_recipe -P "${HOSTILE_RECIPE}")
set_tests_properties(export.run_recipe_hostile PROPERTIES TIMEOUT 300)
blurlab_tier(export.run_recipe_hostile export)
if(count EQUAL 0)
  add_test(export.no_variants "${CMAKE}" -E echo "no variants listed by ${BLURLAB} --list-variants --json -")
  set_tests_properties(export.no_variants PROPERTIES WILL_FAIL TRUE)
endif()
