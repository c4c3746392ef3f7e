# cmake -DBLURLAB=... -DRUN_RECIPE=... -DGOLDEN_TOOL=... -DCOMPARE=... -DMAKE_CHART=... -DGLSLANG=... -DVARIANT=...
#       -DKERNEL=box|gauss [-DBORDER=mode] [-DLINEAR=1] [-DMAP=ramp|band|circle|png] [-DINPUT_FORMAT=rgba16f]
#       [-DWIDTH=w -DHEIGHT=h] -DDIR=... -P export_round_trip.cmake
# 1. blurlab exports VARIANT blurring a noise image (r = 5, an odd size so partial workgroups occur);
# 2. blurlab-run-recipe, which knows nothing of blurlab, runs the export from recipe.json and its
#    shaders alone and writes what it made; 3. that matches the CPU reference (blurlab-golden; an
#    approximation's CPU model) within the tolerance the recipe states (LINEAR: 1 LSB of the
#    sRGB-encoded result, as tests/linear_test.cmake); 4. glslangValidator accepts every exported
#    shader (vertex + fragment linked); 5. recipe.md says what the recipe has; 6. every exported
#    file carries the MIT licence (LICENSE, an SPDX line first in each text file, a .license file
#    beside each data file) and no shader points into blurlab's tree; 7. the recipe states its
#    fidelity against the exact kernel and the bar; 8. the runner blurs an image of another size
#    (37x29) from the same recipe, matching the reference of that image, or, where the recipe
#    carries data made per pixel (a radius map's levels), refuses it naming both sizes.
# MAP (variable-radius variants): blur by that per-pixel radius map, a built-in one or (png) a grey
# PNG of seeded noise of another size than the image (scaled to it), whose levels and weights the
# recipe carries as data files; the reference blurs by the same map. INPUT_FORMAT=rgba16f: blur
# the image in rgba16f (the runner fills the source with floats and reads the result back to 8 bits).
# Any refusal fails: every variant must export its default knobs at this size (approximations,
# given r = 5, blur for sigma = 5/3 and are compared with their CPU model). WIDTH x HEIGHT: the
# image's size, 61x43 unless given (a large one keeps many workgroups of a pass in flight while the
# next pass starts, where a GPU shows a barrier missing between the runner's passes; a tall one needs
# several workgroups along its long side, where a workgroup formula with its axes swapped shows).
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

set(border_args)
if(BORDER)  # a mode other than clamp; constant with a value that is not 0 (what an unmapped read returns)
  list(APPEND border_args --border ${BORDER})
  if(BORDER STREQUAL "constant")
    list(APPEND border_args --border-value 1,0.5,0,1)
  endif()
endif()
if(NOT RADIUS)  # a radius where every variant's defaults run on llvmpipe
  set(RADIUS 5)
endif()
set(blur_args --kernel ${KERNEL} --radius ${RADIUS} ${border_args})
set(light_args)
if(LINEAR)
  set(light_args --linear)
endif()
if(NOT WIDTH OR NOT HEIGHT)
  set(WIDTH 61)
  set(HEIGHT 43)
endif()
run(${MAKE_CHART} --noise ${WIDTH} ${HEIGHT} ${DIR}/input.png)
set(map_args)
if(MAP STREQUAL "png")
  run(${MAKE_CHART} --map 23 17 ${DIR}/map.png)
  set(map_args --radius-map ${DIR}/map.png)
elseif(MAP)
  set(map_args --radius-map ${MAP})
endif()
set(format_args)
if(INPUT_FORMAT)
  set(format_args --input-format ${INPUT_FORMAT})
endif()
# No --check here: the round trip below is the check.
run(${BLURLAB} --headless --variant ${VARIANT} ${blur_args} ${map_args} ${format_args} ${light_args} --image ${DIR}/input.png
    --frames 0 --export ${DIR}/export)
run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/input.png ${DIR}/blurred.png)
message("${run_output}")

file(READ ${DIR}/export/recipe.json recipe)
string(JSON reference GET "${recipe}" reference)
# The blur the output must match, as the recipe states it (the copy's: the identity, r = 0).
string(JSON kernel_type GET "${recipe}" kernel type)
string(JSON kernel_radius GET "${recipe}" kernel radius)
string(JSON kernel_sigma GET "${recipe}" kernel sigma)
set(golden_args --kernel ${kernel_type} --radius ${kernel_radius})
if(kernel_type STREQUAL "gauss" AND kernel_radius GREATER 0)
  list(APPEND golden_args --sigma ${kernel_sigma})
endif()
list(APPEND golden_args ${border_args} ${map_args})
if(reference STREQUAL "model")
  list(APPEND golden_args --variant ${VARIANT})
endif()
run(${GOLDEN_TOOL} ${DIR}/input.png ${DIR}/golden.png ${golden_args} ${light_args})
string(JSON in_lsb GET "${recipe}" tolerance lsb)
string(JSON tolerance GET "${recipe}" tolerance lsb_limit)
if(LINEAR)
  set(tolerance 1)
elseif(INPUT_FORMAT STREQUAL "rgba16f")
  # The float result read back to 8 bits: within the recipe's tolerance, here at most 2^-10 of the
  # value and 10^-4 (a quarter of a step and less), plus the 8-bit input's rounding to fp16 (2^-12
  # of it), it is less than half a step from the reference, so within 1 step of it rounded.
  string(JSON relative GET "${recipe}" tolerance relative)
  string(JSON absolute GET "${recipe}" tolerance absolute)
  set(tiny "0|0\\.0000[0-9]*|[1-9](\\.[0-9]+)?e-0*([5-9]|[1-9][0-9])")
  if(in_lsb OR NOT relative MATCHES "^(0\\.0009765625|${tiny})$" OR NOT absolute MATCHES "^(${tiny})$")
    message(FATAL_ERROR "the recipe of an rgba16f blur states a tolerance past what 1 step of its 8-bit result covers:\n${recipe}")
  endif()
  set(tolerance 1)
elseif(NOT in_lsb)
  message(FATAL_ERROR "the recipe of an rgba8 blur states its tolerance in other units than LSB:\n${recipe}")
endif()
run(${COMPARE} ${DIR}/blurred.png ${DIR}/golden.png --tolerance ${tolerance})
message("${run_output}")

file(GLOB computes "${DIR}/export/*.comp")
file(GLOB vertices "${DIR}/export/*.vert")
foreach(shader IN LISTS computes)
  run(${GLSLANG} ${shader})
endforeach()
foreach(vertex IN LISTS vertices)
  string(REGEX REPLACE "\\.vert$" ".frag" fragment "${vertex}")
  run(${GLSLANG} -l ${vertex} ${fragment})
endforeach()
list(LENGTH computes n_compute)
list(LENGTH vertices n_vertex)
if(n_compute EQUAL 0 AND n_vertex EQUAL 0)
  message(FATAL_ERROR "no shaders exported for ${VARIANT}")
endif()
# The weights go only where a shader blurs with them (an approximation's get none, and say so).
file(GLOB shaders "${DIR}/export/*.comp" "${DIR}/export/*.frag")
string(JSON role_model GET "${recipe}" reference)
foreach(shader IN LISTS shaders)
  file(READ ${shader} text)
  if(role_model STREQUAL "model" AND (text MATCHES "#define BAKED_TAPS " OR NOT text MATCHES "// No kernel weights: this approximation"))
    message(FATAL_ERROR "${shader} of an approximation carries the Gaussian's weights or says it uses them")
  endif()
  # What the recipe runs and no more (the preprocessor's choice): no #if group left to choose, one
  # main(), no uniform (its values are baked in), no BINDING_ unit the shader does not bind.
  string(REGEX MATCHALL "void main\\(" mains "${text}")
  list(LENGTH mains n_mains)
  string(REGEX MATCH "\n[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)[^a-z]" group "${text}")
  string(REGEX MATCH "\n[^/\n]*uniform [^\n]*" uniform "${text}")
  if(uniform MATCHES "image2D|sampler2D")  # a binding of an image or texture unit, not a value to set
    string(REGEX MATCHALL "\n[^/\n]*uniform [^\n]*" uniforms "${text}")
    set(uniform)
    foreach(u IN LISTS uniforms)
      if(NOT u MATCHES "image2D|sampler2D")
        set(uniform "${u}")
      endif()
    endforeach()
  endif()
  string(REGEX MATCHALL "#define BINDING_[A-Z_]+" bindings "${text}")
  set(unused_binding)
  foreach(binding IN LISTS bindings)
    string(REPLACE "#define " "" name "${binding}")
    string(REGEX MATCHALL "${name}[^A-Z_]" named "${text}")
    list(LENGTH named n_named)
    if(n_named LESS 2)
      set(unused_binding ${name})
    endif()
  endforeach()
  if(NOT n_mains EQUAL 1 OR group OR uniform OR unused_binding)
    message(FATAL_ERROR "${shader} is not the program its recipe runs: ${n_mains} main(), '${group}', '${uniform}', "
                        "unused ${unused_binding}")
  endif()
endforeach()
# A per-pixel radius travels as data: the levels file, the weights file where the passes read
# weights (not variable-sat's or variable-pyramid's), their section in recipe.md.
if(MAP)
  string(JSON max_level GET "${recipe}" radius_map max_level)
  string(JSON weights ERROR_VARIABLE no_weights GET "${recipe}" radius_map weights texture)
  if(NOT max_level EQUAL kernel_radius OR NOT EXISTS ${DIR}/export/radius_levels.bin
     OR (NOT no_weights AND NOT EXISTS ${DIR}/export/level_weights.bin))
    message(FATAL_ERROR "the recipe of a radius map lacks its data files or its max_level (${max_level}):\n${recipe}")
  endif()
endif()
file(READ ${DIR}/export/recipe.md page)
foreach(part "## Textures" "glTexStorage2D\\(GL_TEXTURE_2D, 1, " "## How to bind" "sampler object" "## After the last pass"
             "## Passes, in order")
  if(NOT page MATCHES "${part}")
    message(FATAL_ERROR "recipe.md lacks '${part}':\n${page}")
  endif()
endforeach()
if(MAP AND NOT page MATCHES "## The radius map\n[^#]*`radius_levels` from `radius_levels.bin`")
  message(FATAL_ERROR "recipe.md of a radius map does not say how to fill its levels:\n${page}")
endif()
if(LINEAR AND NOT page MATCHES "linear light: decode the sRGB picture[^\n]*\n[^\n]*encode it to sRGB")
  message(FATAL_ERROR "recipe.md of a --linear export does not say the source holds linear light:\n${page}")
endif()

# The licence travels with every file: LICENSE itself, an SPDX line first in each text file (a
# key of recipe.json, which has no comments), a NAME.license beside each data file.
file(READ ${SOURCE_LICENSE} licence)
file(READ ${DIR}/export/LICENSE exported_licence)
if(NOT exported_licence STREQUAL licence)
  message(FATAL_ERROR "the export's LICENSE is not the repository's")
endif()
string(JSON spdx GET "${recipe}" "SPDX-License-Identifier")
if(NOT spdx STREQUAL "MIT")
  message(FATAL_ERROR "recipe.json has no SPDX-License-Identifier MIT:\n${recipe}")
endif()
file(GLOB exported RELATIVE ${DIR}/export ${DIR}/export/*)
foreach(name IN LISTS exported)
  if(name MATCHES "^(LICENSE|recipe\\.json)$" OR name MATCHES "\\.license$")
    continue()
  elseif(name MATCHES "\\.bin$")
    file(READ ${DIR}/export/${name}.license sidecar)
    if(NOT sidecar MATCHES "^SPDX-License-Identifier: MIT\n")
      message(FATAL_ERROR "${name} has no ${name}.license with the SPDX line")
    endif()
    continue()
  endif()
  file(STRINGS ${DIR}/export/${name} first LIMIT_COUNT 1)
  if(NOT first MATCHES "^(// |<!-- )SPDX-License-Identifier: MIT( -->)?$")
    message(FATAL_ERROR "${name} does not open with the SPDX line: '${first}'")
  endif()
  # Nothing an integrator does not have: no path into blurlab's tree, no issue, in any shader (the
  # settings line names the user's own files, a map PNG, wherever they are).
  if(name MATCHES "\\.(comp|vert|frag)$")
    file(READ ${DIR}/export/${name} text)
    string(REGEX REPLACE "\n// settings: [^\n]*" "" text "${text}")
    string(REGEX MATCH "[^\n]*((src|docs|tests)/[A-Za-z_./]+|[a-z_]+\\.(cpp|h)[^a-z]|issue [0-9]+)[^\n]*" pointer "${text}")
    if(pointer)
      message(FATAL_ERROR "${name} points into blurlab's source: ${pointer}")
    endif()
  endif()
endforeach()

# The fidelity against the exact kernel asked for (an approximation: of the sigma it realizes),
# with the bar and whether it reaches it; README.md and recipe.md say it too.
if(NOT VARIANT STREQUAL "copy")
  string(JSON against GET "${recipe}" fidelity against)
  string(JSON max_lsb GET "${recipe}" fidelity max_lsb)
  string(JSON rms_lsb GET "${recipe}" fidelity rms_lsb)
  string(JSON bar GET "${recipe}" fidelity bar_psnr_db)
  string(JSON meets GET "${recipe}" fidelity meets_bar)
  string(JSON psnr ERROR_VARIABLE equal GET "${recipe}" fidelity psnr_db)
  if(NOT bar EQUAL 50 OR NOT against MATCHES "^the exact ")
    message(FATAL_ERROR "the recipe's fidelity does not say what it is against, or its bar:\n${recipe}")
  endif()
  if(NOT equal)  # meets_bar is psnr_db >= 50
    if((psnr LESS 50 AND meets) OR (NOT psnr LESS 50 AND NOT meets))
      message(FATAL_ERROR "the recipe's meets_bar (${meets}) does not follow its PSNR ${psnr}:\n${recipe}")
    endif()
  endif()
  if(reference STREQUAL "model" AND NOT MAP)
    string(JSON realized GET "${recipe}" fidelity realized_sigma)
    string(JSON asked GET "${recipe}" fidelity asked_sigma)
    if(NOT against MATCHES "sigma" OR NOT asked EQUAL kernel_sigma)
      message(FATAL_ERROR "an approximation's fidelity does not name the sigma it realizes (${realized}):\n${recipe}")
    endif()
  elseif(reference STREQUAL "kernel" AND NOT MAP)
    # An exact blur: within its tolerance of the reference rounded, so half a step more of the exact one.
    math(EXPR limit "${tolerance} + 1")
    if(max_lsb GREATER ${limit})
      message(FATAL_ERROR "an exact blur states a fidelity of ${max_lsb} LSB:\n${recipe}")
    endif()
  endif()
  file(READ ${DIR}/export/README.md readme)
  if(NOT page MATCHES "## Fidelity\n\n[^\n]*against the exact " OR NOT readme MATCHES "Fidelity: [^\n]*against the exact ")
    message(FATAL_ERROR "recipe.md or README.md does not state the fidelity:\n${page}\n${readme}")
  endif()
  if(NOT readme MATCHES "build-release/app/blurlab-run-recipe THIS_FOLDER/recipe.json IN.png OUT.png")
    message(FATAL_ERROR "README.md does not say how to run the recipe:\n${readme}")
  endif()
endif()

# Another size from the same recipe: what its formulas allow, within the sizes it holds for
# ("holds_for": where blurlab makes the programs it carries). 37x29 when the recipe holds for it;
# otherwise that size is refused with the size to export again at, and the round trip runs at the
# size nearest 37x29 that the recipe holds for, when that is another size than its own.
string(JSON held_w0 GET "${recipe}" holds_for width 0)
string(JSON held_w1 GET "${recipe}" holds_for width 1)
string(JSON held_h0 GET "${recipe}" holds_for height 0)
string(JSON held_h1 GET "${recipe}" holds_for height 1)
string(JSON held_t0 GET "${recipe}" holds_for texels 0)
string(JSON held_t1 GET "${recipe}" holds_for texels 1)
function(holds_size w h result)
  math(EXPR texels "${w} * ${h}")
  if(w GREATER_EQUAL held_w0 AND w LESS_EQUAL held_w1 AND h GREATER_EQUAL held_h0 AND h LESS_EQUAL held_h1 AND
     texels GREATER_EQUAL held_t0 AND texels LESS_EQUAL held_t1)
    set(${result} TRUE PARENT_SCOPE)
  else()
    set(${result} FALSE PARENT_SCOPE)
  endif()
endfunction()
set(other_w 37)
set(other_h 29)
holds_size(${other_w} ${other_h} held)
if(NOT held AND NOT MAP)
  run(${MAKE_CHART} --noise 37 29 ${DIR}/refused.png)
  run_refused("refused.png is 37x29[,:] [^\n]*; export the blur again at 37x29"
              ${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/refused.png ${DIR}/refused_blurred.png)
  if(EXISTS ${DIR}/refused_blurred.png)
    message(FATAL_ERROR "a refused size left ${DIR}/refused_blurred.png")
  endif()
  # The nearest size it holds for: each side clamped into its range, then the texels.
  foreach(side w h)
    if(other_${side} LESS held_${side}0)
      set(other_${side} ${held_${side}0})
    elseif(other_${side} GREATER held_${side}1)
      set(other_${side} ${held_${side}1})
    endif()
  endforeach()
  holds_size(${other_w} ${other_h} held)
  if(NOT held OR (other_w EQUAL WIDTH AND other_h EQUAL HEIGHT))
    set(other_w "")  # it holds for its own size only (or no nearer one): the refusal above is the case
  endif()
endif()
if(MAP)
  run(${MAKE_CHART} --noise 37 29 ${DIR}/other.png)
  # Its levels were made per pixel of the recipe's image: refused, with both sizes.
  run_refused("other.png is 37x29, the recipe's image ${WIDTH}x${HEIGHT}: [^\n]*; export the blur again at 37x29 "
              ${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/other.png ${DIR}/other_blurred.png)
  if(NOT readme MATCHES "Made for ${WIDTH}x${HEIGHT}; it runs at that size only: ")
    message(FATAL_ERROR "README.md does not say the recipe runs at its own size only:\n${readme}")
  endif()
elseif(other_w)
  run(${MAKE_CHART} --noise ${other_w} ${other_h} ${DIR}/other.png)
  run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/other.png ${DIR}/other_blurred.png)
  message("${run_output}")
  run(${GOLDEN_TOOL} ${DIR}/other.png ${DIR}/other_golden.png ${golden_args} ${light_args})
  run(${COMPARE} ${DIR}/other_blurred.png ${DIR}/other_golden.png --tolerance ${tolerance})
  message("${run_output}")
endif()
