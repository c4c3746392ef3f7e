# Window tests under Xvfb (the window needs an X display; CI has none, so xvfb-run gives one).
#   MODE=screenshot: three screenshots of the same paused frame, checked by blurlab-screenshot-check;
#   and one saved as .jpg must be a JPEG.
#   MODE=resize: odd sizes, 1x1 and 0x0 (minimized) while running; the last screenshot must have
#   the last size, no GL errors, and the minimized frames must have been skipped, not rendered.
#   MODE=nogl: a display whose OpenGL is below 4.3 gives one line and exit code 1.
#   MODE=soak: SECONDS of pseudo-random input (not in the default run: ctest -C Soak -R soak).
find_program(XVFB_RUN xvfb-run)
if(NOT XVFB_RUN)
  message(FATAL_ERROR "xvfb-run is missing (Debian package xvfb)")
endif()
file(MAKE_DIRECTORY ${OUT})
set(xvfb ${XVFB_RUN} -a -s "-screen 0 1600x1200x24")
set(common --gl-debug --time 2 --radius 6)

function(run_blurlab name script)
  execute_process(COMMAND ${xvfb} ${BLURLAB} ${common} ${ARGN} --script "${script}" --screenshot ${OUT}/${name}.png
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "blurlab (${name}) exited ${code}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "screenshot")
  run_blurlab(blurred "0:key=Space" --frames 6 --size 960x540)
  run_blurlab(unblurred "0:key=Space;0:key=B;0:key=Tab" --frames 6 --size 960x540)
  run_blurlab(bare "0:key=Space;0:key=Tab" --frames 6 --size 960x540)
  execute_process(COMMAND ${CHECK} ${OUT}/blurred.png ${OUT}/unblurred.png ${OUT}/bare.png RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "screenshot check failed; see ${OUT}")
  endif()
  # The format comes from the extension: .jpg writes a JPEG (once it wrote a PNG under that name).
  file(REMOVE ${OUT}/small.jpg)
  execute_process(COMMAND ${xvfb} ${BLURLAB} ${common} --frames 3 --size 320x180 --screenshot ${OUT}/small.jpg
                  RESULT_VARIABLE code ERROR_VARIABLE err)
  file(READ ${OUT}/small.jpg header LIMIT 3 HEX)
  if(NOT code EQUAL 0 OR NOT header STREQUAL "ffd8ff")
    message(FATAL_ERROR "--screenshot small.jpg: exit ${code}, first bytes '${header}' (a JPEG starts ffd8ff)\n${err}")
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
  message(FATAL_ERROR "MODE must be screenshot, resize or nogl")
endif()
