# expect_width(TEXT WIDTH WHAT): fails the test, naming WHAT, where a line of TEXT is wider than
# WIDTH columns.
function(expect_width text width what)
  string(REPLACE "\n" ";" lines "${text}")
  foreach(line IN LISTS lines)
    string(LENGTH "${line}" length)
    if(length GREATER ${width})
      message(FATAL_ERROR "${what}: a line of ${length} columns, more than ${width}:\n${line}\n\n${text}")
    endif()
  endforeach()
endfunction()
