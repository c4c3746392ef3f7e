cmake_minimum_required(VERSION 3.25)
# README.md is a newcomer's page: at most 200 lines; its counts of variants are the registry's
# (blurlab --list-variants: "exact" or "N LSB" for exact variants other than the copy, "model" for
# approximations); it says where the program is, how long the first build takes, and how to build
# without run.sh (the cmake lines); and that Hopper's fragment-versus-compute ratios do not carry.
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
             "the first build takes about [0-9]+ minutes on 2" "cmake -S \\. -B build-release -DCMAKE_BUILD_TYPE=Release"
             "--target blurlab" "do not carry to desktop GPUs")
  if(NOT readme MATCHES "${part}")
    message(FATAL_ERROR "README.md does not say '${part}' (the registry has ${blurs} exact blurs and ${approximate_count} approximations)")
  endif()
endforeach()
