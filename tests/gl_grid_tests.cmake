# Included by ctest (through the generated gl_grid_tests_config.cmake, which sets GL_TESTS): one
# test per case of the GL grids, gl.<variant>.r<R>, gl.<variant>.knobs, gl.<variant>.walks,
# gl.<variant>.border_<mode> and gl.<variant>.large_gauss, listed from the test program itself (e.g.
# Grid/VariantGrid.MatchesReference/<variant with _ for ->_r<R>), so the registry stays the only
# list of variants and `ctest -R 'gl\.<variant>\.'` selects one variant's cases.
if(NOT EXISTS "${GL_TESTS}")
  add_test(gl.not_built "${CMAKE_COMMAND}" -E echo "the GL tests are not built: ${GL_TESTS}")
  set_tests_properties(gl.not_built PROPERTIES WILL_FAIL TRUE)
  return()
endif()
# The five grids: their gtest test, the case name's pattern and the ctest name's suffix (-: none).
foreach(grid IN ITEMS "Grid/VariantGrid.MatchesReference|_r([0-9]+)|r" "Borders/BorderGrid.MatchesReference|_border_([a-z0-9]+)|border_"
                      "Knobs/KnobGrid.EveryCandidateMatchesReference|_(knobs)|-" "Walks/WalkGrid.LongLinesMatchReference|_(walks)|-"
                      "LargeGauss/LargeGaussGrid.MatchesReference|_(large_gauss)|-")
  string(REPLACE "|" ";" grid "${grid}")
  list(GET grid 0 test)
  list(GET grid 1 pattern)
  list(GET grid 2 suffix)
  if(suffix STREQUAL "-")
    set(suffix "")
  endif()
  string(REGEX REPLACE "\\..*" "" suite "${test}")
  string(REGEX REPLACE "^[^.]*\\." "" method "${test}")
  execute_process(COMMAND "${GL_TESTS}" --gtest_list_tests "--gtest_filter=${suite}.*" OUTPUT_VARIABLE listing RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    add_test(gl.grid_listing "${GL_TESTS}" --gtest_list_tests)
    return()
  endif()
  string(REPLACE "\n" ";" lines "${listing}")
  set(count 0)
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^  ${method}/(([a-z0-9_]+)${pattern})( |$)")
      continue()
    endif()
    set(param ${CMAKE_MATCH_1})
    string(REPLACE "_" "-" variant "${CMAKE_MATCH_2}")
    set(name gl.${variant}.${suffix}${CMAKE_MATCH_3})
    add_test(${name} "${GL_TESTS}" "--gtest_filter=${suite}.${method}/${param}")
    # A case that checked nothing says so with GTEST_SKIP: ctest counts it as skipped, not passed.
    set_tests_properties(${name} PROPERTIES TIMEOUT 900 SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]")
    blurlab_tier(${name} gl)
    math(EXPR count "${count} + 1")
  endforeach()
  if(count EQUAL 0)
    add_test(gl.grid_empty "${CMAKE_COMMAND}" -E echo "no ${suite} cases listed by ${GL_TESTS}")
    set_tests_properties(gl.grid_empty PROPERTIES WILL_FAIL TRUE)
  endif()
endforeach()
