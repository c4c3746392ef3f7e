# ./run.sh builds what its mode runs: the program and the recipe runner for a run, everything for
# `./run.sh test`, which runs the suite's first tier, and both tiers with --full.
# run.sh runs in a copy of itself with cmake, ctest and dpkg-query replaced by scripts that log
# their arguments (the fake cmake "builds" a blurlab that logs its own), so nothing is installed,
# built or timed here.
file(REMOVE_RECURSE ${OUT})
set(tree ${OUT}/tree)
set(bin ${OUT}/bin)
set(log ${OUT}/calls.log)
file(MAKE_DIRECTORY ${tree} ${bin})
file(COPY ${SOURCE}/run.sh DESTINATION ${tree})
file(WRITE ${bin}/cmake "#!/bin/sh
echo \"cmake $*\" >> '${log}'
if [ \"$1\" = --build ]; then
  mkdir -p build-release/app
  printf '#!/bin/sh\\necho \"blurlab $*\" >> \"%s\"\\n' '${log}' > build-release/app/blurlab
  chmod +x build-release/app/blurlab
fi
")
file(WRITE ${bin}/ctest "#!/bin/sh\necho \"ctest $*\" >> '${log}'\n")
file(WRITE ${bin}/dpkg-query "#!/bin/sh\nprintf 'install ok installed'\n")
foreach(tool cmake ctest dpkg-query)
  file(CHMOD ${bin}/${tool} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endforeach()

function(run_sh expected)
  file(REMOVE ${log})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY "PATH=${bin}:$ENV{PATH}"
                          ${tree}/run.sh ${ARGN}
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
  file(READ ${log} calls)
  if(NOT code EQUAL 0 OR NOT calls MATCHES "${expected}")
    message(FATAL_ERROR "./run.sh ${ARGN}: exit ${code}; the calls do not match '${expected}':\n${calls}\n${out}\n${err}")
  endif()
  set(calls "${calls}" PARENT_SCOPE)
endfunction()

run_sh("cmake --build build-release -j[0-9]+ --target blurlab blurlab-run-recipe\nblurlab --headless --report out --variant copy\n$" --variant copy)
# The first tier by default (tests/tiers.cmake), both with --full.
run_sh("cmake --build build-release -j[0-9]+\nctest --output-on-failure -j[0-9]+ -LE full -R unit\n$" test -R unit)
run_sh("cmake --build build-release -j[0-9]+\nctest --output-on-failure -j[0-9]+ -R unit\n$" test --full -R unit)
