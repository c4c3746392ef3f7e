# cmake -DBLURLAB=... -DRUN_RECIPE=... -DCOMPARE=... -DGLSLANG=... -DSOURCE_LICENSE=... -DIMPLEMENTATION=...
#       -DPSF=... [-DTHRESHOLD=t -DKNEE=k] [-DTAMPER=1] -DDIR=... -P export_effect_round_trip.cmake
# An effect's whole chain exported and run without blurlab: 1. blurlab runs bloom by IMPLEMENTATION
# on the HDR scene at 96x54, writes the picture it ships (--output) and exports the chain (--export);
# 2. blurlab-run-recipe runs the export from recipe.json, its shaders and its frame's data file alone
# (no IN.png: the frame travels as data) and writes its picture; 3. the two pictures agree within
# 1 LSB (the same passes on the same GL: the export's constants are the floats the uniforms held,
# which a compiler may fold in another order); 4. glslangValidator accepts every exported shader;
# 5. the recipe states the effect, its parameters as numbers (the PSF's terms), its frame, its
# fidelity against the effect's ground truth, and every blur stage's pass carries its own kernel
# (a sum's terms blur by different ones, each baked into its own shaders); 6. every file carries
# the licence; README.md says how to run the chain and how to give it a frame of one's own.
# TAMPER: then the runner's refusals of the chain's command line and frame, each one line: an IN.png
# given for a recipe whose frame is data (exit 2), a frame file one texel short or one byte long,
# missing, or holding a NaN or a negative radiance (exit 1).
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

set(width 96)
set(height 54)
set(effect_args --effect bloom --variant ${IMPLEMENTATION} --psf ${PSF} --intensity 0.3)
if(THRESHOLD)
  list(APPEND effect_args --threshold ${THRESHOLD} --knee ${KNEE})
endif()
# No --check: the export checks its run (its recipe states the fidelity); the round trip is the test.
run(${BLURLAB} --headless ${effect_args} --size ${width}x${height} --frames 0 --output ${DIR}/blurlab.png --export ${DIR}/export)
message("${run_output}")
if(NOT run_output MATCHES "exported bloom by ${IMPLEMENTATION} to [^\n]*/export/: [^\n]* source\\.bin [^\n]* recipe\\.json ")
  message(FATAL_ERROR "blurlab does not say what it exported:\n${run_output}")
endif()
run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/ran.png)
message("${run_output}")
if(NOT run_output MATCHES "^bloom by ${IMPLEMENTATION}: ran [0-9]+ passes at ${width}x${height} from [^\n]* alone and its frame source\\.bin")
  message(FATAL_ERROR "the runner does not say it ran the chain on its frame:\n${run_output}")
endif()
run(${COMPARE} ${DIR}/ran.png ${DIR}/blurlab.png --tolerance 1)
message("${run_output}")

# Every shader the chain runs, through the Khronos reference compiler.
file(GLOB computes "${DIR}/export/*.comp")
list(LENGTH computes n_compute)
if(n_compute LESS 2)
  message(FATAL_ERROR "the chain exported ${n_compute} compute shaders")
endif()
file(GLOB draws "${DIR}/export/*.vert" "${DIR}/export/*.frag")  # a fragment variant's stages
foreach(shader IN LISTS computes draws)
  run(${GLSLANG} "${shader}")
endforeach()

file(READ ${DIR}/export/recipe.json recipe)
string(JSON effect GET "${recipe}" effect)
string(JSON implementation GET "${recipe}" implementation)
string(JSON frame_file GET "${recipe}" frame source file)
string(JSON terms LENGTH "${recipe}" parameter_values psf)
string(REGEX MATCHALL "[,:]" separators "${PSF}")
list(LENGTH separators given_terms)  # gauss:S has one ':', sum:W@S,W@S one ':' and a ',' per further term
if(NOT effect STREQUAL "bloom" OR NOT implementation STREQUAL IMPLEMENTATION OR NOT frame_file STREQUAL "source.bin"
   OR NOT terms EQUAL given_terms)
  message(FATAL_ERROR "the recipe does not state the effect, its implementation, its frame or its PSF's ${given_terms} terms:\n${recipe}")
endif()
file(SIZE ${DIR}/export/source.bin frame_bytes)
math(EXPR expected_bytes "${width} * ${height} * 8")
if(NOT frame_bytes EQUAL expected_bytes)
  message(FATAL_ERROR "source.bin is ${frame_bytes} bytes, not the ${width}x${height} rgba16f frame's ${expected_bytes}")
endif()
# The fidelity against the ground truth, its bar, and that it follows the PSNR.
string(JSON against GET "${recipe}" fidelity against)
string(JSON bar GET "${recipe}" fidelity bar_psnr_db)
string(JSON meets GET "${recipe}" fidelity meets_bar)
string(JSON layer GET "${recipe}" fidelity layer name)
string(JSON psnr ERROR_VARIABLE equal GET "${recipe}" fidelity psnr_db)
if(NOT against MATCHES "^bloom's ground truth" OR NOT bar EQUAL 45 OR NOT layer STREQUAL "bloom layer")
  message(FATAL_ERROR "the recipe's fidelity does not say what it is against, its bar or its layer:\n${recipe}")
endif()
if(NOT equal AND ((psnr LESS 45 AND meets) OR (NOT psnr LESS 45 AND NOT meets)))
  message(FATAL_ERROR "the recipe's meets_bar (${meets}) does not follow its PSNR ${psnr}")
endif()
# Each blur stage's passes carry their own kernel, baked into their own shaders: as many sigmas as
# the PSF has terms where a variant blurs by weights (the mip chain and approximations have none).
string(JSON passes LENGTH "${recipe}" passes)
math(EXPR last "${passes} - 1")
set(sigmas)
foreach(i RANGE ${last})
  string(JSON sigma ERROR_VARIABLE none GET "${recipe}" passes ${i} kernel sigma)
  string(JSON name GET "${recipe}" passes ${i} name)
  # A compute pass's shader, or a draw's fragment shader (which holds the weights).
  string(JSON compute ERROR_VARIABLE draw GET "${recipe}" passes ${i} shaders compute)
  if(draw)
    string(JSON compute GET "${recipe}" passes ${i} shaders fragment)
  endif()
  file(READ "${DIR}/export/${compute}" text)
  if(none)
    if(text MATCHES "#define BAKED_TAPS ")
      message(FATAL_ERROR "${compute} bakes weights its pass '${name}' does not state")
    endif()
    continue()
  endif()
  list(APPEND sigmas ${sigma})
  if(NOT text MATCHES "#define BAKED_TAPS " OR NOT text MATCHES "RADIUS")
    message(FATAL_ERROR "${compute} of a pass by a kernel of sigma ${sigma} has no weights baked in")
  endif()
endforeach()
list(REMOVE_DUPLICATES sigmas)
list(LENGTH sigmas distinct_sigmas)
string(JSON reads_weights GET "${recipe}" description)
if(reads_weights MATCHES "\\(exact\\)" AND NOT distinct_sigmas EQUAL given_terms)
  message(FATAL_ERROR "the passes of an exact variant's stages carry ${distinct_sigmas} kernels, not the PSF's ${given_terms}:\n${recipe}")
endif()
# Textures: unique names, each a plain file name part.
string(JSON textures LENGTH "${recipe}" textures)
math(EXPR last "${textures} - 1")
set(names)
foreach(i RANGE ${last})
  string(JSON name GET "${recipe}" textures ${i} name)
  list(FIND names "${name}" seen)  # (no IN_LIST: a script runs without policies)
  if(NOT name MATCHES "^[a-z0-9_]+$" OR NOT seen EQUAL -1)
    message(FATAL_ERROR "texture name '${name}' is not a unique, file-safe name:\n${recipe}")
  endif()
  list(APPEND names ${name})
endforeach()

file(READ ${DIR}/export/README.md readme)
file(READ ${DIR}/export/recipe.md page)
if(NOT readme MATCHES "build-release/app/blurlab-run-recipe THIS_FOLDER/recipe.json OUT.png"
   OR NOT readme MATCHES "## Your own frame\n\nReplace `source.bin` with your HDR frame of ${width} x ${height} texels"
   OR NOT readme MATCHES "row 0 at the top" OR NOT readme MATCHES "Fidelity: PSNR [^\n]*against bloom's ground truth")
  message(FATAL_ERROR "README.md does not say how to run the chain, how to give it a frame, or its fidelity:\n${readme}")
endif()
if(NOT page MATCHES "## The frame\n" OR NOT page MATCHES "`source` from `source.bin` \\(${expected_bytes} bytes, `GL_RGBA`, `GL_HALF_FLOAT`\\)"
   OR NOT page MATCHES "## Passes, in order")
  message(FATAL_ERROR "recipe.md does not say how to fill the frame:\n${page}")
endif()
# The licence travels with every file (as export_round_trip.cmake checks for a blur's export).
file(READ ${SOURCE_LICENSE} licence)
file(READ ${DIR}/export/LICENSE exported_licence)
if(NOT exported_licence STREQUAL licence)
  message(FATAL_ERROR "the export's LICENSE is not the repository's")
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
  file(STRINGS "${DIR}/export/${name}" first LIMIT_COUNT 1)
  if(NOT first MATCHES "^(// |<!-- )SPDX-License-Identifier: MIT( -->)?$")
    message(FATAL_ERROR "${name} does not open with the SPDX line: '${first}'")
  endif()
endforeach()

if(NOT TAMPER)
  return()
endif()
# The chain's command line: its frame is data, so an IN.png is a usage mistake (exit 2, one line).
execute_process(COMMAND ${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/blurlab.png ${DIR}/given.png RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR EXISTS ${DIR}/given.png OR NOT err MATCHES
   "^blurlab-run-recipe: '[^\n]*blurlab.png' given, but [^\n]* takes its frame from its data file source.bin: run blurlab-run-recipe RECIPE OUT.png\n$")
  message(FATAL_ERROR "an IN.png given to a chain's recipe: exit ${code}, expected 2 and one line:\n${err}")
endif()
# The frame's data file, damaged one way at a time: one line each, exit 1, no OUT.png.
set(frame ${DIR}/export/source.bin)
file(COPY_FILE ${frame} ${DIR}/source.good)
function(expect_frame_refusal name regex)
  run_refused("${regex}" ${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/${name}.png)
  if(EXISTS ${DIR}/${name}.png)
    message(FATAL_ERROR "${name}: the runner refused the frame but wrote ${name}.png")
  endif()
  message(STATUS "${name}: refused")
endfunction()
# Text bytes stand in for the frame: CMake strings cannot hold its zero bytes. "<<" is 0x3C3C, the
# half float 1.0586 (a radiance); "~~" 0x7E7E, a NaN; bytes C0 BC 0xBCC0, -1.1875.
math(EXPR short_bytes "${expected_bytes} - 8")
string(REPEAT "<" ${short_bytes} short)
file(WRITE ${frame} "${short}")
expect_frame_refusal(frame_short "source.bin holds ${short_bytes} bytes, texture source needs ${expected_bytes} \\(${width}x${height} texels of 8 bytes\\)")
file(WRITE ${frame} "${short}<<<<<<<<<")
math(EXPR long_bytes "${expected_bytes} + 1")
expect_frame_refusal(frame_long "source.bin holds ${long_bytes} bytes, texture source needs ${expected_bytes} ")
file(REMOVE ${frame})
expect_frame_refusal(frame_missing "cannot read .*source.bin")
string(REPEAT "<" ${expected_bytes} plain)
file(WRITE ${frame} "${plain}")
run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/plain.png)  # a frame of one's own, of the right size: it runs
string(REPEAT "<" 16 two_texels)
math(EXPR rest_bytes "${expected_bytes} - 20")
string(REPEAT "<" ${rest_bytes} rest)
file(WRITE ${frame} "${two_texels}<<~~${rest}")  # texel (2, 0): green a NaN
expect_frame_refusal(frame_nan "source.bin: texel \\(2, 0\\) green is -?nan, not a radiance")
string(ASCII 192 c0)
string(ASCII 188 bc)
math(EXPR rest_bytes "${expected_bytes} - 24")
string(REPEAT "<" ${rest_bytes} rest)
file(WRITE ${frame} "${two_texels}<<<<<<${c0}${bc}${rest}")  # texel (2, 0): alpha -1.1875, finite: it runs
run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/alpha.png)
file(WRITE ${frame} "${two_texels}${c0}${bc}<<<<<<${rest}")  # texel (2, 0): red -1.1875, a negative radiance
expect_frame_refusal(frame_negative "source.bin: texel \\(2, 0\\) red is -1.1875[0-9]*, not a radiance \\(finite, at least 0\\)")
file(COPY_FILE ${DIR}/source.good ${frame})
run(${RUN_RECIPE} ${DIR}/export/recipe.json ${DIR}/restored.png)  # restored, it runs again
run(${COMPARE} ${DIR}/restored.png ${DIR}/blurlab.png --tolerance 1)
