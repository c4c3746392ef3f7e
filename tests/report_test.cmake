# A short sweep on the headless context: the table, the CSV and JSON reports and the charts made
# from them, and the --report page.
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
execute_process(COMMAND ${BLURLAB} --headless --gl-debug --size 64x48 --kernel box,gauss --radius 1,3:5:2
                        --variant frag-separable,compute-separable,compute-naive --frames 3 --warmup 1
                        --csv ${OUT}/report.csv --json ${OUT}/report.json
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "blurlab exited ${code}\n${out}\n${err}")
endif()
file(STRINGS ${OUT}/report.csv lines)
list(LENGTH lines count)
# header + copy + 3 variants x 2 kernels x 3 radii
if(NOT count EQUAL 20)
  message(FATAL_ERROR "report.csv has ${count} lines, expected 20")
endif()
file(READ ${OUT}/report.json json)
string(JSON renderer GET "${json}" gl renderer)
string(JSON results LENGTH "${json}" results)
if(NOT results EQUAL 19 OR renderer STREQUAL "")
  message(FATAL_ERROR "report.json: ${results} results, renderer '${renderer}'")
endif()
execute_process(COMMAND ${PYTHON} ${CHARTS} ${OUT}/report.json --out ${OUT} --log RESULT_VARIABLE code OUTPUT_VARIABLE charts)
if(NOT code EQUAL 0 OR NOT charts MATCHES "time_vs_radius_64x48_rgba8_box.png" OR NOT charts MATCHES "bars_64x48_rgba8_gauss_r5.png")
  message(FATAL_ERROR "charts.py failed (${code}):\n${charts}")
endif()
foreach(chart IN ITEMS time_vs_radius_64x48_rgba8_gauss.png bars_64x48_rgba8_box_r5.png)
  if(NOT EXISTS ${OUT}/${chart})
    message(FATAL_ERROR "missing chart ${chart}")
  endif()
endforeach()

# The default table fits 120 columns; --wide has every column.
string(REPLACE "\n" ";" lines "${out}")
set(table FALSE)
foreach(line IN LISTS lines)
  if(line MATCHES "^variant ")
    set(table TRUE)
  endif()
  string(LENGTH "${line}" length)
  if(table AND length GREATER 120)
    message(FATAL_ERROR "the default table has a line of ${length} columns:\n${line}")
  endif()
endforeach()
if(NOT table OR out MATCHES "passes \\(median ms\\)")
  message(FATAL_ERROR "the default table is missing or has the --wide columns:\n${out}")
endif()

# --report DIR: one page with the GPU, the command, the table, the correctness summary and the
# charts beside it (made by the copy of charts.py the program carries, with Debian's python3).
execute_process(COMMAND ${CMAKE_COMMAND} -E env BLURLAB_PYTHON=${PYTHON}
                        ${BLURLAB} --headless --gl-debug --size 64x48 --kernel box,gauss --radius 3
                        --variant frag-separable,compute-separable,compute-sliding --frames 3 --warmup 1 --wide
                        --report ${OUT}/page
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
# One radius: a bar chart per kernel and no time-vs-radius chart (a column of dots).
if(NOT code EQUAL 0 OR NOT out MATCHES "report: [^\n]*page/report.md \\(2 charts; report.json, report.csv beside it\\)")
  message(FATAL_ERROR "--report exited ${code}\n${out}\n${err}")
endif()
if(NOT out MATCHES "passes \\(median ms\\)")
  message(FATAL_ERROR "--wide has no passes column:\n${out}")
endif()
file(READ ${OUT}/page/report.md page)
foreach(part "# blurlab report" "--variant frag-separable,compute-separable,compute-sliding" "## GPU and driver"
             "## Correctness" "All 6 runs match the CPU reference within their tolerance"
             "compute-sliding: box kernel only" "### 64x48 rgba8 gauss r=3" "## Charts" "!\\[bars_64x48_rgba8_gauss_r3.png\\]")
  if(NOT page MATCHES "${part}")
    message(FATAL_ERROR "report.md lacks '${part}':\n${page}")
  endif()
endforeach()
string(REGEX MATCHALL "!\\[[^]]*\\]\\(([^)]*)\\)" images "${page}")
list(LENGTH images count)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "report.md shows ${count} charts, expected 2")
endif()
foreach(image IN LISTS images)
  string(REGEX REPLACE ".*\\(([^)]*)\\)" "\\1" file "${image}")
  if(NOT EXISTS ${OUT}/page/${file})
    message(FATAL_ERROR "report.md shows ${file}, which is not there")
  endif()
endforeach()
# A variable-radius variant without a map: its charts are a group of their own, named after the
# map's description ("none (uniform r = R)"), which must make a plain file name the page can link.
execute_process(COMMAND ${CMAKE_COMMAND} -E env BLURLAB_PYTHON=${PYTHON}
                        ${BLURLAB} --headless --size 64x48 --kernel box --radius 3 --variant variable-sat --frames 3 --warmup 1
                        --report ${OUT}/page_variable
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${OUT}/page_variable/report.md variable_page)
string(REGEX MATCHALL "!\\[[^]]*\\]\\(([^)]*)\\)" variable_images "${variable_page}")
if(NOT code EQUAL 0 OR NOT variable_images)
  message(FATAL_ERROR "--report of variable-sat exited ${code} or shows no chart\n${out}\n${err}")
endif()
foreach(image IN LISTS variable_images)
  string(REGEX REPLACE ".*\\(([^)]*)\\)" "\\1" file "${image}")
  if(NOT file MATCHES "^[A-Za-z0-9._-]+\\.png$" OR NOT EXISTS ${OUT}/page_variable/${file})
    message(FATAL_ERROR "report.md links '${file}': not a plain file name beside it")
  endif()
endforeach()

foreach(file report.json report.csv)
  if(NOT EXISTS ${OUT}/page/${file})
    message(FATAL_ERROR "--report wrote no ${file}")
  endif()
endforeach()

# Without matplotlib (python3 -S skips the packages) the page says why it has no charts, and
# shows none; without python at all, too. charts.py itself says so in one line.
file(WRITE ${OUT}/bare_python "#!/bin/sh\nexec ${PYTHON} -S \"$@\"\n")
file(CHMOD ${OUT}/bare_python PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
foreach(python ${OUT}/bare_python ${OUT}/no_such_python)
  file(REMOVE_RECURSE ${OUT}/nocharts)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env BLURLAB_PYTHON=${python}
                          ${BLURLAB} --headless --size 32x24 --radius 2 --variant compute-separable --frames 2 --warmup 1
                          --report ${OUT}/nocharts
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(READ ${OUT}/nocharts/report.md page)
  file(GLOB pictures ${OUT}/nocharts/*.png)
  if(NOT code EQUAL 0 OR NOT out MATCHES "report: [^\n]*\\(no charts: [^\n]*(matplotlib is missing|could not be started)"
     OR NOT page MATCHES "The charts could not be made here: " OR page MATCHES "!\\[" OR pictures)
    message(FATAL_ERROR "${python}: exit ${code}, pictures '${pictures}'\n${out}\n${err}\n${page}")
  endif()
endforeach()
execute_process(COMMAND ${OUT}/bare_python ${CHARTS} ${OUT}/report.json RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 1 OR NOT err MATCHES "^charts.py: matplotlib is missing [^\n]*python3-matplotlib\n$")
  message(FATAL_ERROR "charts.py without matplotlib: exit ${code}, expected one line:\n${err}")
endif()

# --report into a file, or below a missing directory: one line, exit 1, before any GL work.
file(WRITE ${OUT}/afile "")
foreach(dir ${OUT}/afile ${OUT}/missing/page)
  execute_process(COMMAND ${BLURLAB} --headless --size 32x24 --variant copy --frames 1 --report ${dir}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab: --report '[^\n]*\n$" OR out MATCHES "GL_RENDERER" OR EXISTS ${OUT}/missing)
    message(FATAL_ERROR "--report ${dir}: exit ${code}\n${out}\n${err}")
  endif()
endforeach()

# Approximations of the Gaussian answer the same sigma request as the exact variants: their rows
# carry what they chose and their fidelity, and the --report page has the fidelity column and the
# quality-cost frontier that charts.py draws.
execute_process(COMMAND ${CMAKE_COMMAND} -E env BLURLAB_PYTHON=${PYTHON}
                        ${BLURLAB} --headless --gl-debug --size 48x32 --kernel gauss --sigma 1,3
                        --variant compute-separable,box-iterated,recursive-gaussian,recursive-gaussian-blocks --frames 3 --warmup 1
                        --report ${OUT}/approx
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "blurlab exited ${code}\n${out}\n${err}")
endif()
file(READ ${OUT}/approx/report.json json)
string(JSON results LENGTH "${json}" results)
set(approximations 0)
math(EXPR last "${results} - 1")
foreach(i RANGE ${last})
  string(JSON role GET "${json}" results ${i} role)
  if(role STREQUAL "approximation")
    string(JSON rms GET "${json}" results ${i} fidelity rms_lsb)
    string(JSON sigma GET "${json}" results ${i} settings approximation sigma)
    if(rms STREQUAL "" OR sigma STREQUAL "")
      message(FATAL_ERROR "approximation row ${i} without fidelity or sigma")
    endif()
    math(EXPR approximations "${approximations} + 1")
  endif()
endforeach()
if(NOT approximations EQUAL 6)
  message(FATAL_ERROR "approx/report.json: ${approximations} approximation rows, expected 6")
endif()
file(READ ${OUT}/approx/report.md page)
foreach(part "\\| fidelity \\|" "~sigma=[0-9.]+ boxes r=" "fidelity:[ \n]error[ \n]against[ \n]the[ \n]exact"
             "!\\[frontier_48x32_rgba8.png\\]")
  if(NOT page MATCHES "${part}")
    message(FATAL_ERROR "approx/report.md lacks '${part}':\n${page}")
  endif()
endforeach()
if(NOT EXISTS ${OUT}/approx/frontier_48x32_rgba8.png)
  message(FATAL_ERROR "--report drew no frontier:\n${out}")
endif()
