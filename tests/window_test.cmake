# Window tests under Xvfb (the window needs an X display; CI has none, so Xvfb gives one).
# Pictures are checked by blurlab-screenshot-check (tests/tools/screenshot_check.cpp); the
# overlay's geometry and lines come from what blurlab prints at the last frame of --frames N.
#   MODE=screenshot: three screenshots of the same paused frame (blurred, unblurred, bare); one
#   saved as .jpg must be a JPEG.
#   MODE=layout: the overlay at 1920x1080 (with its plot of GPU times drawn), 1280x720 and 640x360
#   (screenshots kept in OUT).
#   MODE=linear: linear light (L) leaves the unblurred scene as it is and changes only the blur.
#   MODE=stale: switching to a box-only variant with the Gaussian on; a check of older settings.
#   MODE=radius_map: M cycles the map; the map is shown; a variable approximation's fidelity is to
#   the per-pixel blur; a --frames run that animates ends on its check's result.
#   MODE=border: E cycles the border mode; the same picture as --border; a constant differs.
#   MODE=difference: the difference views (to the CPU reference, to a second variant; an
#   approximation's to its CPU model and to the exact Gaussian it stands in for).
#   MODE=keys: the help window is opaque over the panel at 640x360 (the same pixels over two
#   different pictures) and says which keys reach every variant; R without --shader-dir says why it
#   did nothing; +/- step an approximation's sigma given with --sigma.
#   MODE=effect: an effect on the HDR scene (X, --effect): its picture differs from the frame
#   without it (B), which is the effect's at intensity 0 (the same tonemap); the panel names the
#   effect and its implementation, times its stages, checks it against the ground truth; the
#   arrows switch the implementation, a digit of a variant that does not serve it says so; D
#   shows the difference to the ground truth; an implementation that cannot run says why.
#   MODE=dof: depth of field: a click on the picture focuses there (the backdrop's depth is the far
#   plane's, an object's within the objects' depths); C renders the lens's ground truth over a few
#   frames (time standing still) and then checks the technique against it.
#   MODE=errors: --screenshot into a missing directory, or minimized at the screenshot frame.
#   MODE=resize: odd sizes, 1x1 and 0x0 (minimized) while running; the last screenshot must have
#   the last size, no GL errors, and the minimized frames must have been skipped, not rendered.
#   MODE=nogl: a display whose OpenGL is below 4.3 gives one line and exit code 1.
#   MODE=soak: SECONDS of pseudo-random input (not in the default run: ctest -C Soak -R soak).
# WITH_XVFB is tests/tools/with_xvfb.sh (a private 2000x1200 display per run; why not xvfb-run: there).
file(MAKE_DIRECTORY ${OUT})
set(xvfb ${WITH_XVFB})
set(common --gl-debug --time 2 --radius 6)

function(run_blurlab name script)
  execute_process(COMMAND ${xvfb} ${BLURLAB} ${common} ${ARGN} --script "${script}" --screenshot ${OUT}/${name}.png
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "blurlab (${name}) exited ${code}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

# An effect's run: no --radius (its parameters say what it blurs).
function(run_effect name script)
  execute_process(COMMAND ${xvfb} ${BLURLAB} --gl-debug --time 2 ${ARGN} --script "${script}" --screenshot ${OUT}/${name}.png
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "blurlab (${name}) exited ${code}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

function(check_screenshots)
  execute_process(COMMAND ${CHECK} ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message(STATUS "${ARGV0}: ${out}")
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "blurlab-screenshot-check ${ARGN} failed:\n${out}${err}see ${OUT}")
  endif()
endfunction()

# Fails unless the printed overlay lines include one matching `regex`.
function(expect_line output regex)
  if(NOT output MATCHES "\noverlay line: ${regex}\n")
    message(FATAL_ERROR "no overlay line matches '${regex}':\n${output}")
  endif()
endfunction()

function(forbid_line output regex)
  if(output MATCHES "\noverlay line: ${regex}\n")
    message(FATAL_ERROR "an overlay line matches '${regex}':\n${output}")
  endif()
endfunction()

include(${CMAKE_CURRENT_LIST_DIR}/listing.cmake)
blurlab_read_variants(${BLURLAB} listed)
if(listed_error)
  message(FATAL_ERROR "${listed_error}")
endif()

# The key that selects a variant: its place in `blurlab --list-variants --json -` (the registry's
# order, which the overlay's list and the keys follow): 1-9, then Shift+1-9.
function(variant_key variant out_var)
  list(FIND listed_names ${variant} index)
  if(index EQUAL -1)
    message(FATAL_ERROR "${variant} is not listed")
  endif()
  if(index LESS 9)
    math(EXPR key "${index} + 1")
  else()
    math(EXPR key "${index} - 8")
    set(key "Shift+${key}")
  endif()
  set(${out_var} ${key} PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "screenshot")
  run_blurlab(blurred "0:key=Space" --frames 6 --size 960x540)
  run_blurlab(unblurred "0:key=Space;0:key=B;0:key=Tab" --frames 6 --size 960x540)
  run_blurlab(bare "0:key=Space;0:key=Tab" --frames 6 --size 960x540)
  check_screenshots(frame ${OUT}/blurred.png ${OUT}/unblurred.png ${OUT}/bare.png)
  # The format comes from the extension: .jpg writes a JPEG (once it wrote a PNG under that name).
  file(REMOVE ${OUT}/small.jpg)
  execute_process(COMMAND ${xvfb} ${BLURLAB} ${common} --frames 3 --size 320x180 --screenshot ${OUT}/small.jpg
                  RESULT_VARIABLE code ERROR_VARIABLE err)
  file(READ ${OUT}/small.jpg header LIMIT 3 HEX)
  if(NOT code EQUAL 0 OR NOT header STREQUAL "ffd8ff")
    message(FATAL_ERROR "--screenshot small.jpg: exit ${code}, first bytes '${header}' (a JPEG starts ffd8ff)\n${err}")
  endif()
elseif(MODE STREQUAL "layout")
  # Designed for 1280x720 and smaller: the panel is a small share of the window (at most a third
  # of 640x360), and the GPU times (the blur's total and each of its two passes) and the
  # correctness line lie inside the panel, inside the window, and are not clipped. The overlay
  # must draw nowhere but the panel it reports (the shot with it against the shot without).
  foreach(case "1920x1080;25" "1280x720;25" "640x360;33")
    list(GET case 0 size)
    list(GET case 1 most)
    run_blurlab(overlay_${size} "0:key=Space" --frames 8 --size ${size})
    set(printed "${run_output}")
    run_blurlab(bare_${size} "0:key=Space;0:key=Tab" --frames 8 --size ${size})
    if(NOT printed MATCHES "overlay: window ${size} [^\n]*")
      message(FATAL_ERROR "no overlay layout for ${size}:\n${printed}")
    endif()
    set(layout "${CMAKE_MATCH_0}")
    set(rect "([0-9]+),([0-9]+)-([0-9]+),([0-9]+)")
    string(REGEX MATCH "panel ${rect} covers ([0-9.]+)%" _ "${layout}")
    set(panel ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4})
    set(share ${CMAKE_MATCH_5})
    string(REGEX MATCH "timing ${rect} (visible|hidden) rows ([0-9]+)" _ "${layout}")
    set(timing ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4})
    set(timing_visible ${CMAKE_MATCH_5})
    set(rows ${CMAKE_MATCH_6})
    string(REGEX MATCH "check ${rect} (visible|hidden)" _ "${layout}")
    set(check ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4})
    set(check_visible ${CMAKE_MATCH_5})
    list(LENGTH panel p)
    list(LENGTH timing t)
    list(LENGTH check c)
    if(NOT p EQUAL 4 OR NOT t EQUAL 4 OR NOT c EQUAL 4)
      message(FATAL_ERROR "cannot read the overlay layout: ${layout}")
    endif()
    string(REPLACE "x" ";" window "${size}")
    list(GET window 0 width)
    list(GET window 1 height)
    message(STATUS "${size}: panel ${panel} covers ${share}% (at most ${most}%), timing ${timing} (${rows} rows), check ${check}")
    if(share GREATER most)
      message(FATAL_ERROR "${size}: the overlay covers ${share}% of the window, more than ${most}%")
    endif()
    if(NOT timing_visible STREQUAL "visible" OR NOT check_visible STREQUAL "visible" OR rows LESS 3)
      message(FATAL_ERROR "${size}: timing ${timing_visible} (${rows} rows, want the blur and 2 passes), check ${check_visible}")
    endif()
    foreach(item timing check)
      list(GET ${item} 0 x0)
      list(GET ${item} 1 y0)
      list(GET ${item} 2 x1)
      list(GET ${item} 3 y1)
      list(GET panel 0 px0)
      list(GET panel 1 py0)
      list(GET panel 2 px1)
      list(GET panel 3 py1)
      if(x0 LESS px0 OR y0 LESS py0 OR x1 GREATER px1 OR y1 GREATER py1 OR x1 GREATER width OR y1 GREATER height)
        message(FATAL_ERROR "${size}: the ${item} lines ${${item}} leave the panel ${panel} or the window")
      endif()
    endforeach()
    check_screenshots(inside ${OUT}/overlay_${size}.png ${OUT}/bare_${size}.png ${panel})
    # 1920x1080 opens the plot section: its line of the blur's times is drawn (it once was an
    # empty box), in ImGui's plot colour (0.61 grey).
    if(size STREQUAL "1920x1080")
      if(NOT layout MATCHES "plot ([0-9]+),([0-9]+)-([0-9]+),([0-9]+) points ([0-9]+)")
        message(FATAL_ERROR "${size}: no plot reported: ${layout}")
      endif()
      check_screenshots(colour ${OUT}/overlay_${size}.png ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4}
                        --rgb 156 156 156 --min-pixels 30)
    endif()
  endforeach()
elseif(MODE STREQUAL "linear")
  # The unblurred scene with L on and off: at most one 8-bit step per channel (the rgba8 scene
  # rounds the colour once, linear light rounds it to fp16 and then the sRGB-encoded value; they
  # may land on either side of a half step) and a mean below 0.05 (a washed-out, double-encoded
  # scene is tens of steps off). --linear is the same as L. The blurred pictures differ: in
  # linear light the halos around bright shapes are brighter.
  run_blurlab(unblurred_off "0:key=Space;0:key=B;0:key=Tab" --frames 4 --size 640x360)
  run_blurlab(unblurred_on "0:key=Space;0:key=B;0:key=Tab;0:key=L" --frames 4 --size 640x360)
  run_blurlab(unblurred_flag "0:key=Space;0:key=B;0:key=Tab" --frames 4 --size 640x360 --linear)
  run_blurlab(blurred_off "0:key=Space;0:key=Tab" --frames 4 --size 640x360)
  run_blurlab(blurred_on "0:key=Space;0:key=Tab;0:key=L" --frames 4 --size 640x360)
  check_screenshots(same ${OUT}/unblurred_off.png ${OUT}/unblurred_on.png --max-lsb 1 --max-mean 0.05)
  check_screenshots(same ${OUT}/unblurred_on.png ${OUT}/unblurred_flag.png --max-lsb 0 --max-mean 0)
  check_screenshots(differ ${OUT}/blurred_off.png ${OUT}/blurred_on.png --min-mean 1.0)
elseif(MODE STREQUAL "stale")
  # 1. Switching to a variant that cannot run the settings (the first box-only variant, with the
  #    Gaussian on): the panel shows that variant's own settings (the knobs its headless run
  #    reports for the same settings) and why it cannot run, no check, and says the picture is the
  #    unblurred scene; and it is (the bare shot equals the unblurred one).
  set(box_only)
  foreach(variant IN LISTS listed_names)
    if(listed_${variant}_kernels STREQUAL "box" AND NOT listed_${variant}_tolerance STREQUAL "model")
      set(box_only ${variant})
      break()
    endif()
  endforeach()
  if(NOT box_only)
    message(FATAL_ERROR "no exact box-only variant in ${listed_names}")
  endif()
  variant_key(${box_only} key)
  # Its knobs as the headless report resolves them (the box kernel: a Gaussian run refuses at once).
  execute_process(COMMAND ${BLURLAB} --headless --variant ${box_only} --kernel box --radius 6 --size 640x360 --frames 0
                          --json ${OUT}/box_only.json OUTPUT_QUIET ERROR_QUIET)
  file(READ ${OUT}/box_only.json json)
  string(JSON knobs GET "${json}" results 0 settings knobs)
  string(JSON count LENGTH "${knobs}")
  run_blurlab(stale "0:key=Space;0:key=C;10:key=${key}" --frames 16 --size 640x360)
  set(printed "${run_output}")
  run_blurlab(stale_bare "0:key=Space;0:key=C;10:key=${key};10:key=Tab" --frames 16 --size 640x360)
  run_blurlab(scene "0:key=Space;0:key=B;0:key=Tab" --frames 4 --size 640x360)
  message(STATUS "${box_only} (key ${key}), ${count} knobs: ${knobs}")
  string(REPLACE "+" "\\+" key_pattern "${key}")
  expect_line("${printed}" "variant: ${key_pattern} +${box_only}")
  expect_line("${printed}" "cannot run: [^\n]*box kernel only[^\n]*")
  expect_line("${printed}" "check: none \\(nothing is blurred\\)")
  expect_line("${printed}" "view: unblurred scene: the variant cannot run these settings \\(paused\\)")
  forbid_line("${printed}" "check ok[^\n]*")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON name MEMBER "${knobs}" ${i})
    string(JSON value GET "${knobs}" ${name})
    expect_line("${printed}" "gauss r=6 [^\n]* ${name}=${value}( [^\n]*)?")
  endforeach()
  check_screenshots(same ${OUT}/stale_bare.png ${OUT}/scene.png --max-lsb 0 --max-mean 0)
  # 2. A check belongs to its settings: one that finished (waited for at frame 3) is not shown once
  #    the radius changes (frame 4): the line says a new check is under way. (wait=check: the
  #    frame waits for the CPU reference, so a loaded machine cannot fail these.)
  run_blurlab(checked "0:key=Space;0:key=C;3:wait=check" --frames 5 --size 640x360)
  expect_line("${run_output}" "check ok: [^\n]*")
  # An approximation of the Gaussian: its fidelity to the Gaussian it stands in for, under the check.
  run_blurlab(checked_approximation "0:key=Space;0:key=C;3:wait=check" --frames 5 --size 640x360 --variant kawase --sigma 4)
  expect_line("${run_output}" "check ok: [^\n]*")
  expect_line("${run_output}" "fidelity to gauss sigma 4: max [0-9.]+, rms [0-9.]+ LSB, [0-9.]+ dB")
  run_blurlab(rechecking "0:key=Space;0:key=C;3:wait=check;4:key=+" --frames 5 --size 640x360)
  forbid_line("${run_output}" "check ok[^\n]*")
  expect_line("${run_output}" "check: (comparing with the CPU reference|not yet run)[^\n]*")
  expect_line("${run_output}" "gauss r=7 [^\n]*")
elseif(MODE STREQUAL "border")
  # E cycles the border mode (clamp, reflect, reflect101, wrap, constant): three presses give
  # wrap, which the settings line names and the check passes with; the picture equals --border
  # wrap's. A red constant differs from it along the edges (r = 6: 6-pixel strips, a few percent
  # of the picture, tens of steps each).
  run_blurlab(wrap_keys "0:key=Space;0:key=E;0:key=E;0:key=E;0:key=C;3:wait=check" --frames 5 --size 640x360)
  expect_line("${run_output}" "[a-z]+ r=6 [^\n]*border=wrap [^\n]*")
  expect_line("${run_output}" "check ok: [^\n]*")
  run_blurlab(wrap_keys_bare "0:key=Space;0:key=E;0:key=E;0:key=E;0:key=Tab" --frames 4 --size 640x360)
  run_blurlab(wrap_flag_bare "0:key=Space;0:key=Tab" --frames 4 --size 640x360 --border wrap)
  run_blurlab(constant_bare "0:key=Space;0:key=Tab" --frames 4 --size 640x360 --border constant --border-value 1,0,0,1)
  check_screenshots(same ${OUT}/wrap_keys_bare.png ${OUT}/wrap_flag_bare.png --max-lsb 0 --max-mean 0)
  check_screenshots(differ ${OUT}/wrap_flag_bare.png ${OUT}/constant_bare.png --min-mean 0.5)
elseif(MODE STREQUAL "radius_map")
  # M cycles the radius map of the variable-radius variants (none, ramp, band, circle): two presses
  # give band, which the settings line names and the check (against the per-pixel reference) passes
  # with; the picture equals --radius-map band's, and differs from none's (R everywhere) in the band.
  set(sat --variant variable-sat --kernel box)
  run_blurlab(band_keys "0:key=Space;0:key=M;0:key=M;0:key=C;3:wait=check" --frames 5 --size 640x360 ${sat})
  expect_line("${run_output}" "box r=6 [^\n]*map=band [^\n]*")
  expect_line("${run_output}" "check ok: [^\n]*")
  # The map itself is shown (a thumbnail under its line), so its shape need not be guessed.
  expect_line("${run_output}" "radius map band: black r = 0, white r = 6")
  # An approximation's fidelity says what it is against: the exact per-pixel blur of the map, not a
  # uniform Gaussian. Animating, without wait=check: a --frames run ends on the check's result.
  run_blurlab(pyramid_animated "1:key=C" --frames 4 --size 640x360 --variant variable-pyramid --radius-map band)
  expect_line("${run_output}" "check ok: [^\n]*")
  expect_line("${run_output}" "fidelity to the exact per-pixel blur \\(map band\\): max [0-9.]+, rms [0-9.]+ LSB, [0-9.]+ dB")
  forbid_line("${run_output}" "fidelity to gauss[^\n]*")
  run_blurlab(band_keys_bare "0:key=Space;0:key=M;0:key=M;0:key=Tab" --frames 4 --size 640x360 ${sat})
  run_blurlab(band_flag_bare "0:key=Space;0:key=Tab" --frames 4 --size 640x360 ${sat} --radius-map band)
  run_blurlab(none "0:key=Space" --frames 4 --size 640x360 ${sat})
  forbid_line("${run_output}" "radius map [^\n]*")  # no map, no thumbnail
  run_blurlab(none_bare "0:key=Space;0:key=Tab" --frames 4 --size 640x360 ${sat})
  check_screenshots(same ${OUT}/band_keys_bare.png ${OUT}/band_flag_bare.png --max-lsb 0 --max-mean 0)
  check_screenshots(differ ${OUT}/band_flag_bare.png ${OUT}/none_bare.png --min-mean 0.5)
elseif(MODE STREQUAL "difference")
  # The difference to the CPU reference rounded to the output format: a correct variant is black
  # where it rounds like the reference (most of the picture), grey where its own rounding differs
  # by the allowed step, never red; the panel states the scale, the tolerance and the largest error.
  run_blurlab(reference "0:key=Space;0:key=D;3:wait=check" --frames 5 --size 640x360)
  expect_line("${run_output}" "view: difference to the CPU reference \\(animation held\\)")
  expect_line("${run_output}" "x64 \\(1 LSB = 25% grey\\), red beyond 1 LSB; largest R [0-9] G [0-9] B [0-9] A [0-9] LSB")
  run_blurlab(reference_bare "0:key=Space;0:key=D;0:key=Tab;3:wait=check" --frames 5 --size 640x360)
  if(NOT run_output MATCHES "\nview: difference to the CPU reference\n")
    message(FATAL_ERROR "the bare shot is not the difference view:\n${run_output}")
  endif()
  check_screenshots(difference ${OUT}/reference_bare.png --min-black 0.6)
  # The second variant by default is the separable pair of the other stage (linear in r), with its
  # GPU time beside the first's; the difference of two correct variants is not red either.
  run_blurlab(second "0:key=Space;0:key=D;0:key=D;3:wait=check" --frames 5 --size 640x360)
  expect_line("${run_output}" "view: difference to frag-separable \\(paused\\)")
  expect_line("${run_output}" "frag-separable: [0-9.]+ ms GPU per frame \\([0-9.]+x the first\\)")
  expect_line("${run_output}" "x64 \\(1 LSB = 25% grey\\), red beyond 2 LSB; largest R [0-9] G [0-9] B [0-9] A [0-9] LSB")
  run_blurlab(second_bare "0:key=Space;0:key=D;0:key=D;0:key=Tab;3:wait=check" --frames 5 --size 640x360)
  check_screenshots(difference ${OUT}/second_bare.png --min-black 0.5)
  # An approximation: D shows it against its CPU model (within its tolerance: no red; kawase's own
  # rounding is grey at 1-2 LSB over most of the picture), then against
  # the exact Gaussian it stands in for, with the fidelity's numbers; the two pictures differ.
  run_blurlab(model_bare "0:key=Space;0:key=D;0:key=Tab;3:wait=check" --frames 5 --size 640x360 --variant kawase --sigma 3)
  check_screenshots(difference ${OUT}/model_bare.png --min-black 0.05)
  run_blurlab(gaussian "0:key=Space;0:key=D;0:key=D;3:wait=check" --frames 5 --size 640x360 --variant kawase --sigma 3)
  expect_line("${run_output}" "view: difference to the exact Gaussian \\(animation held\\)")
  expect_line("${run_output}" "x64 [^\n]*; largest max [0-9.]+ LSB, rms [0-9.]+ \\(sigma [0-9.]+\\)")
  run_blurlab(gaussian_bare "0:key=Space;0:key=D;0:key=D;0:key=Tab;3:wait=check" --frames 5 --size 640x360 --variant kawase --sigma 3)
  check_screenshots(differ ${OUT}/gaussian_bare.png ${OUT}/model_bare.png --min-mean 1)
elseif(MODE STREQUAL "keys")
  # The help window over the panel at 640x360, over the blurred and the unblurred scene (and the
  # panel's lines, which say which): opaque, so its pixels do not change.
  run_blurlab(help_blurred "0:key=Space;0:key=F1" --frames 4 --size 640x360)
  set(printed "${run_output}")
  run_blurlab(help_unblurred "0:key=Space;0:key=F1;0:key=B" --frames 4 --size 640x360)
  if(NOT printed MATCHES "help (-?[0-9]+),(-?[0-9]+)-([0-9]+),([0-9]+)")
    message(FATAL_ERROR "no help window reported:\n${printed}")
  endif()
  set(help ${CMAKE_MATCH_1} ${CMAKE_MATCH_2} ${CMAKE_MATCH_3} ${CMAKE_MATCH_4})
  if(NOT printed MATCHES "panel [0-9]+,[0-9]+-([0-9]+),")
    message(FATAL_ERROR "no panel reported:\n${printed}")
  endif()
  list(GET help 0 help_x0)
  if(NOT help_x0 LESS CMAKE_MATCH_1)
    message(FATAL_ERROR "the help window ${help} does not lie over the panel at 640x360 (the case to check):\n${printed}")
  endif()
  check_screenshots(differ ${OUT}/help_blurred.png ${OUT}/help_unblurred.png --min-mean 0.1)
  check_screenshots(same ${OUT}/help_blurred.png ${OUT}/help_unblurred.png --max-lsb 0 --max-mean 0 --region ${help})
  if(NOT printed MATCHES "\noverlay help: Left/Right: previous / next variant \\(all of them\\)\n")
    message(FATAL_ERROR "the help does not say how to reach every variant:\n${printed}")
  endif()
  # R without --shader-dir: nothing to reload, and the panel says so.
  run_blurlab(reload "0:key=R" --frames 3 --size 640x360)
  expect_line("${run_output}" "R: nothing to reload: the shaders are the program's own copies \\(start with --shader-dir[^\n]*")
  # +/- change an approximation's sigma given with --sigma (the radius alone changes nothing).
  run_blurlab(plus "0:key=Plus;1:key=Plus" --frames 3 --size 640x360 --variant dual-kawase --sigma 2)
  expect_line("${run_output}" "gauss sigma=2.667 ~sigma=[^\n]*")
elseif(MODE STREQUAL "effect")
  # 1. The effect is applied: bloom's picture differs from the frame without it (B), and that
  #    frame is bloom's at intensity 0, display(H): the present shader's tonemap against the
  #    effect's composite, the same fp32 curve, each rounded once to 8 bits (1 step apart at most).
  set(bloom --effect bloom --size 320x180 --frames 3)
  run_effect(bloom_bare "0:key=Space;0:key=Tab" ${bloom} --intensity 0.3)
  run_effect(without_bare "0:key=Space;0:key=B;0:key=Tab" ${bloom} --intensity 0.3)
  run_effect(zero_bare "0:key=Space;0:key=Tab" ${bloom} --intensity 0)
  check_screenshots(differ ${OUT}/bloom_bare.png ${OUT}/without_bare.png --min-mean 1.0)
  check_screenshots(same ${OUT}/zero_bare.png ${OUT}/without_bare.png --max-lsb 1 --max-mean 0.05)
  # 2. The panel with --effect and an implementation of the effect's own: what runs, its stages'
  #    GPU times (the mip chain's levels), its check against the ground truth.
  run_effect(panel "0:key=Space;0:key=C;3:wait=check" --effect bloom --variant mip-chain --size 320x180 --frames 5)
  set(printed "${run_output}")
  expect_line("${printed}" "effect: bloom")
  expect_line("${printed}" "implementation: +mip-chain")
  expect_line("${printed}" "the mip chain: [^\n]*, then the composite")
  expect_line("${printed}" "psf=gauss:2% intensity=[0-9.]+ threshold=0 knee=0 border=clamp")
  expect_line("${printed}" "check ok, max [0-9]+ LSB, [0-9.]+ dB against the ground truth")
  expect_line("${printed}" "bloom layer: max [0-9.e-]+, rms [0-9.e-]+ of the ground truth's \\(relative\\)")
  expect_line("${printed}" "view: bloom \\(paused\\)")
  foreach(span "total" "down 1" "up 1" "composite")
    if(NOT printed MATCHES "\nspan ${span} +avg [0-9.]+ ms")
      message(FATAL_ERROR "no GPU time of '${span}':\n${printed}")
    endif()
  endforeach()
  if(NOT printed MATCHES "timing [0-9,-]+ visible rows ([0-9]+)" OR CMAKE_MATCH_1 LESS 4)
    message(FATAL_ERROR "the timing table does not show the effect and its stages:\n${printed}")
  endif()
  # 3. Keys: X from the blur on screen (its variant serves bloom, so it is the implementation),
  #    Right and Left back, D to the ground truth's difference; then a digit whose variant does not
  #    serve the effect (copy, 1) says so and changes nothing.
  run_effect(keys "0:key=Space;0:key=X;0:key=Right;0:key=Left;0:key=D;3:wait=check;4:key=1" --size 320x180 --frames 5)
  set(printed "${run_output}")
  expect_line("${printed}" "effect: bloom")
  expect_line("${printed}" "implementation: [0-9 ]+compute-separable")
  expect_line("${printed}" "view: difference to bloom's ground truth \\(animation held\\)")
  expect_line("${printed}" "x64 \\(1 LSB = 25% grey\\), red beyond 1 LSB; largest max [0-9.]+ LSB, rms [0-9.]+ \\([0-9.]+ dB\\)")
  expect_line("${printed}" "1: copy does not serve bloom [^\n]*")
  # 4. Why an implementation cannot run, in red, and the frame without the effect instead: a
  #    variant's refusal (its reach), and a PSF in percent of the height that outgrows every blur
  #    when the window grows.
  run_effect(refused "0:key=Space" --effect bloom --variant compute-separable --psf gauss:30% --size 320x180 --frames 3)
  expect_line("${run_output}" "cannot run: radius 162 is above compute-separable's [0-9]+[^\n]*")
  expect_line("${run_output}" "check: none \\(the effect does not run\\)")
  expect_line("${run_output}" "view: without bloom: the HDR frame, tonemapped; the implementation cannot run these settings \\(paused\\)")
  run_effect(outgrown "0:key=Space;1:resize=1280x720" --effect bloom --variant fft --psf gauss:30% --size 320x180 --frames 3)
  expect_line("${run_output}" "cannot run: --psf: sigma 216 px \\(30% of 720 rows\\) needs radius 648 \\(3 sigma\\), above 512")
  # An exact implementation's difference: black where it rounds like the ground truth, no red.
  run_effect(difference_bare "0:key=Space;0:key=X;0:key=D;0:key=Tab;3:wait=check" --size 320x180 --frames 5)
  check_screenshots(difference ${OUT}/difference_bare.png --min-black 0.6)
elseif(MODE STREQUAL "dof")
  set(dof --effect dof --variant near-far --size 320x180 --f-number 0.5)
  # 1. Clicks: the top right corner is backdrop (at the far plane, 30).
  run_effect(focus_backdrop "0:key=Space;1:click=315,4" ${dof} --frames 3)
  if(NOT run_output MATCHES "click at 315,4: depth 30 is the focus-distance now")
    message(FATAL_ERROR "a click on the backdrop did not focus at the far plane:\n${run_output}")
  endif()
  expect_line("${run_output}" "focal-length=28 f-number=0.5 focus-distance=30 [^\n]*")
  # 178,20 is an object at about 7.56 (the pixel mirrored, 178,159, is another at about 7.07: a
  # click read upside down lands there).
  run_effect(focus_object "0:key=Space;1:click=178,20" ${dof} --frames 3)
  if(NOT run_output MATCHES "click at 178,20: depth ([0-9.]+) is the focus-distance now" OR CMAKE_MATCH_1 LESS 7.3 OR CMAKE_MATCH_1 GREATER 7.9)
    message(FATAL_ERROR "a click on the object at 178,20 did not focus at its depth (7.3..7.9):\n${run_output}")
  endif()
  # 2. The ground truth on demand: its views accumulate, then the check runs against it.
  run_effect(truth "0:key=Space;0:key=C;4:wait=check" ${dof} --lens-views 40 --frames 5)
  expect_line("${run_output}" "ground truth: 40 views averaged; D shows the picture against it")
  expect_line("${run_output}" "check ok, max [0-9]+ LSB, [0-9.]+ dB against the ground truth")
elseif(MODE STREQUAL "errors")
  # --screenshot into a missing directory: one line and exit 1 before any GL work (no GL banner).
  execute_process(COMMAND ${xvfb} ${BLURLAB} --frames 2 --screenshot ${OUT}/no/such/dir/shot.png
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab: --screenshot '[^']*shot.png': cannot write into '[^']*dir'(: No such file or directory)?\n$" OR out MATCHES "GL_RENDERER")
    message(FATAL_ERROR "missing directory: expected exit 1, one line and no GL work, got ${code}:\n${out}\n${err}")
  endif()
  # Minimized (0x0) at the screenshot frame: no picture, so exit 1 with one line, and no file.
  file(REMOVE ${OUT}/minimized.png)
  execute_process(COMMAND ${xvfb} ${BLURLAB} ${common} --frames 5 --script "2:resize=0x0" --screenshot ${OUT}/minimized.png
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab: no screenshot made: the window was minimized at frame 5\n$" OR EXISTS ${OUT}/minimized.png)
    message(FATAL_ERROR "minimized: expected exit 1, one line and no file, got ${code}:\n${out}\n${err}")
  endif()
elseif(MODE STREQUAL "resize")
  run_blurlab(resized "3:resize=517x389;6:resize=0x0;10:resize=641x361;13:key=Right;15:resize=1x1;18:resize=0x0;20:resize=803x601;23:key=L"
              --frames 27 --size 640x360)
  if(NOT run_output MATCHES "frames 27 \\(minimized ([0-9]+)\\)")
    message(FATAL_ERROR "no frame summary:\n${run_output}")
  endif()
  if(CMAKE_MATCH_1 LESS 5)
    message(FATAL_ERROR "expected at least 5 minimized frames, got ${CMAKE_MATCH_1}")
  endif()
  file(READ ${OUT}/resized.png header LIMIT 24 HEX)
  # PNG IHDR: width and height are the big-endian words at bytes 16..23: 803 = 0x323, 601 = 0x259.
  if(NOT header MATCHES "0000032300000259$")
    message(FATAL_ERROR "the last screenshot is not 803x601 (header ${header})")
  endif()
elseif(MODE STREQUAL "soak")
  # Minutes of pseudo-random keys and resizes; the program checks its own bounds (timer queries,
  # memory growth after settling) and --gl-debug turns any GL error into exit code 1.
  execute_process(COMMAND ${xvfb} ${BLURLAB} --gl-debug --soak ${SECONDS} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "soak: [^\n]*" figures "${out}")
  string(REPLACE ";" "\n" figures "${figures}")
  message(STATUS "${figures}")
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "soak failed (exit ${code}):\n${err}")
  endif()
elseif(MODE STREQUAL "nogl")
  # A display but no OpenGL 4.3: one line and exit code 1.
  execute_process(COMMAND ${CMAKE_COMMAND} -E env MESA_GL_VERSION_OVERRIDE=4.2 ${xvfb} ${BLURLAB} --frames 2
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab: OpenGL 4.3 core is not available in a window[^\n]*\n$")
    message(FATAL_ERROR "expected exit 1 and one line, got ${code}:\n${err}")
  endif()
else()
  message(FATAL_ERROR "MODE must be screenshot, layout, linear, stale, border, radius_map, difference, keys, effect, dof, errors, resize, nogl or soak")
endif()
