cmake_minimum_required(VERSION 3.25)
# README.md is a newcomer's page: at most 200 lines; its counts of variants are the registry's
# (blurlab --list-variants: "exact" or "N LSB" for exact variants other than the copy, "model" for
# approximations); it says where the program is, how long the first build takes, and how to build
# without run.sh (the cmake lines); and that one GPU's fragment-versus-compute ratios do not carry.
# Its commands run as written from the repository root: the program by its path, the pictures
# from assets/; and it links the licence.
file(STRINGS ${README} lines)
list(LENGTH lines count)
if(count GREATER 200)
  message(FATAL_ERROR "README.md has ${count} lines, more than 200")
endif()
file(READ ${README} readme)
execute_process(COMMAND ${BLURLAB} --list-variants OUTPUT_VARIABLE listing RESULT_VARIABLE code)
string(REGEX MATCHALL "(^|\n)[a-z0-9-]+ +[a-z]+ +(exact|[0-9]+ LSB) " exact "${listing}")
# Approximations of the Gaussian: "model" and "gauss" (variable-pyramid approximates any per-pixel kernel).
string(REGEX MATCHALL "(^|\n)[a-z0-9-]+ +[a-z]+ +model +gauss " approximate "${listing}")
list(LENGTH exact exact_count)
list(LENGTH approximate approximate_count)
math(EXPR blurs "${exact_count} - 1")  # the copy pass is listed as exact, and is no blur
foreach(part "${blurs} exact ways to blur" "${approximate_count} approximate Gaussians" "build-release/app/blurlab"
             "its first build about [0-9]+[ \n]+minutes[ \n]+on[ \n]+2[ \n]+busy[ \n]+cores" "cmake -S \\. -B build-release -DCMAKE_BUILD_TYPE=Release"
             "--target blurlab" "do not carry to desktop GPUs")
  if(NOT readme MATCHES "${part}")
    message(FATAL_ERROR "README.md does not say '${part}' (the registry has ${blurs} exact blurs and ${approximate_count} approximations)")
  endif()
endforeach()

# Every command of its shell blocks that runs the program names it by its path (it is not on PATH),
# and every file it reads from the repository is there.
string(REGEX MATCHALL "```sh\n[^`]*```" blocks "${readme}")
foreach(block IN LISTS blocks)
  string(REPLACE "\n" ";" block_lines "${block}")
  foreach(line IN LISTS block_lines)
    if(line MATCHES "^blurlab( |$)")
      message(FATAL_ERROR "README.md runs blurlab by a name that is not on PATH: ${line}")
    endif()
    string(REGEX MATCHALL "assets/[A-Za-z0-9_.-]+" files "${line}")
    foreach(file IN LISTS files)
      if(NOT EXISTS ${SOURCE}/${file})
        message(FATAL_ERROR "README.md reads ${file}, which the repository does not have: ${line}")
      endif()
    endforeach()
    if(line MATCHES "--image ([^ ]+)" AND NOT CMAKE_MATCH_1 MATCHES "^assets/")
      message(FATAL_ERROR "README.md blurs a picture the repository does not have: ${line}")
    endif()
    # What a command writes goes under out/ (ignored by git), not into the repository's root.
    set(written)
    foreach(option --output --export --report --csv --json --tune-file)
      if(line MATCHES " ${option} ([^ ]+)")
        list(APPEND written ${CMAKE_MATCH_1})
      endif()
    endforeach()
    if(line MATCHES "blurlab-run-recipe [^ ]+ [^ ]+ ([^ ]+)")
      list(APPEND written ${CMAKE_MATCH_1})
    endif()
    foreach(path IN LISTS written)
      if(NOT path MATCHES "^out(/|$)")
        message(FATAL_ERROR "README.md writes ${path} outside out/: ${line}")
      endif()
    endforeach()
  endforeach()
endforeach()
if(NOT readme MATCHES "\\[LICENSE\\]\\(LICENSE\\)" OR NOT EXISTS ${SOURCE}/LICENSE)
  message(FATAL_ERROR "README.md does not link the licence, or there is none")
endif()
