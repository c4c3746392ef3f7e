# cmake -DBLURLAB=... -DRUN_RECIPE=... -DMAKE_CHART=... -DDIR=... -P export_bad_data.cmake
# blurlab-run-recipe checks the data files of a recipe (a variable-radius variant's levels and
# weights) before any of it reaches GL: exports variable-naive with a built-in map, then damages
# its data one way at a time and expects exit 1 with one line on stderr saying what is wrong.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)
run(${MAKE_CHART} --noise 61 43 ${DIR}/input.png)
run(${BLURLAB} --headless --variant variable-naive --kernel box --radius 5 --radius-map band --image ${DIR}/input.png --frames 0
    --export ${DIR}/export)
run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/input.png ${DIR}/blurred.png)  # undamaged, it runs
set(levels ${DIR}/export/radius_levels.bin)
set(weights ${DIR}/export/level_weights.bin)
file(SIZE ${levels} level_bytes)
file(SIZE ${weights} weight_bytes)
if(NOT level_bytes EQUAL 10492 OR NOT weight_bytes EQUAL 576)  # 61 x 43 x 4 bytes; (5 + 1)^2 x 16
  message(FATAL_ERROR "radius_levels.bin is ${level_bytes} bytes, level_weights.bin ${weight_bytes}")
endif()
file(COPY_FILE ${levels} ${DIR}/levels.good)
file(COPY_FILE ${weights} ${DIR}/weights.good)

# expect_refusal(NAME REGEX): the runner exits 1 with exactly one line on stderr, matching REGEX.
function(expect_refusal name regex)
  execute_process(COMMAND ${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/input.png ${DIR}/${name}.png
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab-run-recipe: [^\n]*${regex}[^\n]*\n$")
    message(FATAL_ERROR "${name}: exit ${code}, expected 1 and one line matching '${regex}'; stderr:\n${err}")
  endif()
  message(STATUS "${name}: ${err}")
endfunction()

# Text bytes stand in for damage: CMake strings cannot hold the files' zero bytes.
string(REPEAT "A" 10491 short)  # one byte short
file(WRITE ${levels} "${short}")
expect_refusal(levels_short "radius_levels.bin holds 10491 bytes, texture radius_levels needs 10492")
file(REMOVE ${levels})
expect_refusal(levels_missing "cannot read .*radius_levels.bin")
string(REPEAT "A" 10492 high)  # every level 65, past max_level 5
file(WRITE ${levels} "${high}")
expect_refusal(levels_past_max "radius_levels.bin: texel \\(0, 0\\) holds level 65, above max_level 5")
string(ASCII 1 one)
string(REPEAT "${one}" 10492 green)  # levels of 1, but green, blue and alpha set
file(WRITE ${levels} "${green}")
expect_refusal(levels_green "radius_levels.bin: texel \\(0, 0\\) has green, blue or alpha set")
file(COPY_FILE ${DIR}/levels.good ${levels})
string(REPEAT "A" 576 garbage)  # floats of 12.1 everywhere
file(WRITE ${weights} "${garbage}")
expect_refusal(weights_garbage "level_weights.bin: texel \\(0, 0\\) is not a weight of level 0")
file(COPY_FILE ${DIR}/weights.good ${weights})
run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/input.png ${DIR}/blurred.png)  # restored, it runs again
