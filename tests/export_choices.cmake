# cmake -DBLURLAB=... -DRUN_RECIPE=... -DMAKE_CHART=... -DDIR=... -P export_choices.cmake
# What an export states of itself, on dual Kawase at sigma 4 (an approximation whose last pass is
# left to the image's size, last-pass auto), exported at 61x43:
# 1. its fidelity against the exact Gaussian of the sigma asked, on the run's image and on the test
#    chart, the bar judged on the worst, and the sigma it realizes beside it;
# 2. the choice the size made (the chain, below 3.1 M texels) and the sizes the recipe holds for,
#    which the runner keeps to: at 2048x1536 (3.1 M texels, where blurlab streams the last pass) it
#    refuses, naming the sizes, rather than running the chain blurlab would not;
# 3. the runner writes PNG files only: an output named .jpg is refused before any work.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

run(${MAKE_CHART} --noise 61 43 ${DIR}/input.png)
run(${BLURLAB} --headless --variant dual-kawase --sigma 4 --image ${DIR}/input.png --frames 0 --export ${DIR}/export)
file(READ ${DIR}/export/recipe.json recipe)

# 1. Both sigmas; each input's numbers; the top numbers and the bar those of the worst input.
string(JSON against GET "${recipe}" fidelity against)
string(JSON asked GET "${recipe}" fidelity asked_sigma)
string(JSON realized GET "${recipe}" fidelity realized_sigma)
string(JSON psnr GET "${recipe}" fidelity psnr_db)
string(JSON meets GET "${recipe}" fidelity meets_bar)
string(JSON inputs LENGTH "${recipe}" fidelity inputs)
if(NOT asked EQUAL 4 OR realized EQUAL 4 OR NOT against MATCHES "sigma 4 asked.*realizes sigma" OR NOT inputs EQUAL 2)
  message(FATAL_ERROR "the fidelity does not state both sigmas and two inputs:\n${recipe}")
endif()
set(worst 1000)
set(chart FALSE)
math(EXPR last "${inputs} - 1")
foreach(i RANGE ${last})
  string(JSON name GET "${recipe}" fidelity inputs ${i} input)
  string(JSON input_psnr GET "${recipe}" fidelity inputs ${i} psnr_db)
  string(JSON realized_psnr GET "${recipe}" fidelity inputs ${i} against_realized_sigma psnr_db)
  if(name MATCHES "^the test chart \\(assets/chart.png, 320x240\\)$")
    set(chart TRUE)
  endif()
  if(input_psnr LESS worst)
    set(worst ${input_psnr})
  endif()
endforeach()
if(NOT chart OR NOT psnr EQUAL worst OR (psnr LESS 50 AND meets) OR (NOT psnr LESS 50 AND NOT meets))
  message(FATAL_ERROR "the bar is not judged on the worst input (${worst}), or the chart is not one of them:\n${recipe}")
endif()
file(READ ${DIR}/export/README.md readme)
if(NOT readme MATCHES "Fidelity: against the exact Gaussian of sigma 4 asked[^\n]*on the test chart")
  message(FATAL_ERROR "README.md does not state the fidelity on the chart against the sigma asked:\n${readme}")
endif()

# 2. The choice and the sizes it holds for, and the runner keeping to them.
string(JSON decided GET "${recipe}" holds_for decided_by_size)
string(JSON max_texels GET "${recipe}" holds_for texels 1)
if(NOT decided STREQUAL "last-pass auto: chain, below 3.1 M texels" OR NOT max_texels LESS 3100000 OR max_texels LESS 3000000)
  message(FATAL_ERROR "the recipe does not state the choice the size made and the sizes it holds for:\n${recipe}")
endif()
if(NOT readme MATCHES "texels in all \\(last-pass auto: chain, below 3.1 M texels\\)")
  message(FATAL_ERROR "README.md does not say the sizes the recipe holds for:\n${readme}")
endif()
run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/input.png ${DIR}/blurred.png)
run(${MAKE_CHART} --noise 2048 1536 ${DIR}/large.png)
run_refused("large.png is 2048x1536: the recipe holds for [^\n]* texels \\(last-pass auto: chain, below 3.1 M texels\\)"
            ${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/large.png ${DIR}/large_blurred.png)
if(EXISTS ${DIR}/large_blurred.png)
  message(FATAL_ERROR "a refused run left ${DIR}/large_blurred.png")
endif()

# 3. PNG only.
run_refused("blurred.jpg' does not end in .png: the runner writes PNG files only"
            ${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/input.png ${DIR}/blurred.jpg)
if(EXISTS ${DIR}/blurred.jpg)
  message(FATAL_ERROR "a refused run left ${DIR}/blurred.jpg")
endif()
