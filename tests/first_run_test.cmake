# What a user meets first, run as they run it (stdout and stderr piped, as run.sh and CI do):
#   MODE=default: the default headless run (every variant, the default kernel) with --report: on a
#   CPU rasterizer sized down and saying so; a progress line per variant on stderr; every line of
#   stdout within 120 columns; the report page opening with its conclusion.
#   MODE=tune: --tune's table within 120 columns, saying which knob changed and why; --tuned with a
#   file of another size says so; on a CPU rasterizer --tune and --tuned are sized like the default
#   run, with progress.
#   MODE=one_blur: --image --output prints its row without the sweep's legend and conclusion.
#   MODE=terminal: in a pseudo-terminal (script(1)) the progress bar is erased before the table.
#   MODE=sizing: on a CPU rasterizer --frames keeps the size-down and the run says the size it
#   blurs and how to get the other; --size runs its own size and says so.
include(${CMAKE_CURRENT_LIST_DIR}/listing.cmake)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})

include(${CMAKE_CURRENT_LIST_DIR}/line_width.cmake)

if(MODE STREQUAL "default")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env BLURLAB_PYTHON=${PYTHON} ${BLURLAB} --headless --report ${OUT}/page
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "the default run exited ${code}\n${out}\n${err}")
  endif()
  expect_width("${out}" 120 "the default run")
  blurlab_read_variants(${BLURLAB} listed)
  list(LENGTH listed_names count)
  if(listed_error OR count EQUAL 0)
    message(FATAL_ERROR "no variants listed: ${listed_error}")
  endif()
  # A line per variant, each with the total, the time so far and (from the second) an estimate of
  # the time left; the lines of the first 2 s (Progress::kQuietSeconds) come out once the run
  # passes them, so none is missing: [1/N] to [N/N], and nothing else.
  string(REGEX MATCHALL "\\[ *[0-9]+/${count}\\] [a-z0-9-]+ \\([0-9]+x[0-9]+ rgba8\\): [0-9]+ (s|min)[^\n]* so far(, about [^\n]+ left)?\n"
         progress "${err}")
  list(LENGTH progress lines)
  string(REPLACE ";" "" progress_text "${progress}")
  if(NOT lines EQUAL count OR NOT err STREQUAL progress_text OR NOT err MATCHES "^\\[ *1/${count}\\] "
     OR NOT err MATCHES "\n\\[ *2/${count}\\] [^\n]*, about [^\n]+ left\n" OR NOT err MATCHES "\\[${count}/${count}\\] [^\n]*\n$")
    message(FATAL_ERROR "${lines} progress lines on stderr for ${count} variants:\n${err}")
  endif()
  file(READ ${OUT}/page/report.json json)
  string(JSON renderer GET "${json}" gl renderer)
  string(JSON width GET "${json}" results 0 size width)
  file(READ ${OUT}/page/report.md page)
  string(FIND "${page}" "## Conclusion" conclusion)
  string(FIND "${page}" "## GPU and driver" gpu)
  if(conclusion LESS 0 OR conclusion GREATER gpu)
    message(FATAL_ERROR "the page does not open with its conclusion:\n${page}")
  endif()
  if(renderer MATCHES "llvmpipe|softpipe|swrast")
    if(NOT width EQUAL 480 OR NOT out MATCHES "CPU rasterizer: this run blurs 480x270, sized down[ \n]from[ \n]a[ \n]GPU's[ \n]default 1920x1080"
       OR NOT out MATCHES "5 timed frames per setting \\(--frames chooses\\)")
      message(FATAL_ERROR "a CPU rasterizer's default run is ${width} wide:\n${out}")
    endif()
    # First that a CPU's ranking does not carry, then the GPUs' answers (the results files the
    # program carries) beside this run's, each labelled; a winner only where the spreads settle it.
    if(NOT out MATCHES "\nConclusion [^\n]*\n- This run is on a CPU rasterizer \\(llvmpipe[^\n]*: its ranking says how a CPU runs"
       OR NOT out MATCHES "\n- 480x270 rgba8 gauss r=16 sigma=5.333, border clamp:\n  - NVIDIA "
       # The H200's rows ranked (those older than today's code named and left out), or each row
       # older and none ranked: an answer of older code is never shown as today's
       # (report/results_files.h).
       OR NOT out MATCHES "\n  - NVIDIA H200[^\n]*h200.json((;[ \n]+not[ \n]+ranked,[ \n]+their[ \n]+rows[ \n]+older[^)]*)?\\):[ \n]+fastest[ \n]+exact|;[ \n]+every[ \n]+row[ \n]+older[ \n]+than[ \n]+today's[ \n]+code[^)]*\\):[ \n]+nothing[ \n]+ranked)"
       OR NOT out MATCHES "\n  - this run \\(CPU rasterizer; [0-9]+ variants timed\\):[ \n]+fastest[ \n]+exact[ \n]+(not[ \n]+settled:[ \n]+)?[a-z-]+")
      message(FATAL_ERROR "the terminal's conclusion does not put the GPUs' answers beside a CPU rasterizer's:\n${out}")
    endif()
    if(NOT page MATCHES "## Conclusion\n\n\\*\\*This run is on a CPU rasterizer"
       OR NOT page MATCHES "\\| 480x270 rgba8 gauss r=16 sigma=5.333, border clamp \\| NVIDIA H200 \\([^|]*h200.json([^|]*\\) \\| [a-z-]+, [0-9.]+x copy|; every row older than today's code[^|]*none is ranked[^|]*\\) \\| -) \\|")
      message(FATAL_ERROR "the page's conclusion does not open with what GPUs answered:\n${page}")
    endif()
  elseif(NOT out MATCHES "\nConclusion [^\n]*\n- [0-9x]+ rgba8 gauss r=16 sigma=5.333, border clamp: fastest exact [a-z-]+"
         OR NOT page MATCHES "\\| [0-9x]+ rgba8 gauss r=16 sigma=5.333, border clamp \\| ([a-z-]+, |not settled)")
    message(FATAL_ERROR "no conclusion:\n${out}\n${page}")
  endif()
elseif(MODE STREQUAL "tune")
  # On a CPU rasterizer --tune is sized like the default run (and --tuned alike, so the file it
  # made is used there), with a progress line per variant on stderr.
  execute_process(COMMAND ${BLURLAB} --headless --gl-debug --tune --tune-file ${OUT}/sized.json
                          --variant copy,compute-separable,compute-separable-regblock
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "--tune exited ${code}\n${out}\n${err}")
  endif()
  if(out MATCHES "GL_RENDERER +llvmpipe")
    # Progress from the first variant on (the three tuned here take minutes), and within each a line
    # every 15 s of the knobs it is timing.
    if(NOT out MATCHES "CPU rasterizer: this run blurs 480x270, sized down" OR NOT out MATCHES "\n== 480x270 rgba8 gauss r=16\n"
       OR NOT err MATCHES "^(\\[[123]/3\\] [a-z-]+ \\(480x270 rgba8\\): [^\n]*\n)+$" OR NOT err MATCHES "^\\[1/3\\] "
       OR NOT err MATCHES "\n\\[3/3\\] compute-separable-regblock \\(480x270 rgba8\\): ")
      message(FATAL_ERROR "--tune on a CPU rasterizer is not sized like the default run, or says nothing as it goes:\n${out}\n${err}")
    endif()
    execute_process(COMMAND ${BLURLAB} --headless --tuned ${OUT}/sized.json --variant compute-separable-regblock
                    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT code EQUAL 0 OR out MATCHES "has no entry" OR NOT out MATCHES "this run blurs 480x270, sized down")
      message(FATAL_ERROR "--tuned does not use the sized --tune's file:\n${out}\n${err}")
    endif()
  endif()
  # The variants with the longest knob changes to print (two knobs of sizes), and an approximation.
  execute_process(COMMAND ${BLURLAB} --headless --tune --tune-file ${OUT}/tune.json --size 48x32 --frames 3 --warmup 1
                          --variant compute-separable-regblock,compute-inline-persistent,box-iterated
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0 OR NOT out MATCHES "\nvariant +knobs changed +default ms +tuned ms +why +check\n"
     OR NOT out MATCHES "\n== 48x32 rgba8 gauss r=16\n" OR NOT out MATCHES "(won by [0-9.]+%|kept: (in spread|none faster))")
    message(FATAL_ERROR "--tune exited ${code}\n${out}\n${err}")
  endif()
  expect_width("${out}" 120 "--tune")
  execute_process(COMMAND ${BLURLAB} --headless --tuned ${OUT}/tune.json --size 40x30 --frames 2 --warmup 1
                          --variant compute-separable-regblock
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0 OR NOT out MATCHES "--tuned [^\n]*tune.json has[ \n]no[ \n]entry[ \n]for[ \n]1[ \n]of[ \n]the[ \n]1[ \n]runs")
    message(FATAL_ERROR "--tuned of another size exited ${code}\n${out}\n${err}")
  endif()
  expect_width("${out}" 120 "--tuned")
elseif(MODE STREQUAL "sizing")
  # On a CPU rasterizer an option of the timing keeps the size-down, and the line says the size run
  # and how to get the other; --size runs its size and says so. (On a GPU nothing is sized down.)
  execute_process(COMMAND ${BLURLAB} --headless --variant copy,compute-separable --frames 2 --json ${OUT}/frames.json
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "--frames 2 exited ${code}\n${out}\n${err}")
  endif()
  if(out MATCHES "GL_RENDERER +llvmpipe")
    file(READ ${OUT}/frames.json json)
    string(JSON width GET "${json}" results 0 size width)
    string(REGEX MATCH "\nThe renderer is a CPU rasterizer: this run blurs 480x270, sized down from a GPU's default 1920x1080[ \n]\\(--size[ \n]1920x1080[ \n]runs[ \n]that\\);[ \n]2[ \n]timed[ \n]frames[ \n]per[ \n]setting[ \n]as[ \n]--frames[ \n]asks" said "${out}")
    if(NOT width EQUAL 480 OR NOT said)
      message(FATAL_ERROR "--frames 2 on a CPU rasterizer ran ${width} wide, or did not say the size it runs:\n${out}")
    endif()
    execute_process(COMMAND ${BLURLAB} --headless --variant copy --size 64x48 --frames 1
                    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT code EQUAL 0 OR NOT out MATCHES "\nThe renderer is a CPU rasterizer: this run blurs 64x48 as --size asks, not sized down to 480x270")
      message(FATAL_ERROR "--size 64x48 on a CPU rasterizer does not say it is not sized down:\n${out}\n${err}")
    endif()
  endif()
  expect_width("${out}" 120 "a sized run")
elseif(MODE STREQUAL "one_blur")
  execute_process(COMMAND ${BLURLAB} --headless --variant compute-separable --image ${ASSETS}/chart.png --output ${OUT}/out.png
                          --sigma 2
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0 OR NOT out MATCHES "\ncompute-separable " OR out MATCHES "total ms: median|Conclusion" OR NOT err STREQUAL "")
    message(FATAL_ERROR "one blur exited ${code}\n${out}\n${err}")
  endif()
  expect_width("${out}" 120 "one blur")
elseif(MODE STREQUAL "terminal")
  execute_process(COMMAND script -qec "'${BLURLAB}' --headless --size 32x24 --variant copy,compute-separable --frames 2 --warmup 1"
                          /dev/null
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  # The bar is drawn ("\r[###...] 1/2 ...") and erased: the header starts its line, or follows the
  # erasing carriage return, never the bar's text.
  if(NOT code EQUAL 0 OR NOT out MATCHES "\r\\[[#.]+\\] 1/2 " OR NOT out MATCHES "(\n|\r)variant +settings "
     OR out MATCHES "[^\r\n]variant +settings ")
    message(FATAL_ERROR "in a terminal: exit ${code}\n${out}\n${err}")
  endif()
else()
  message(FATAL_ERROR "unknown MODE ${MODE}")
endif()
