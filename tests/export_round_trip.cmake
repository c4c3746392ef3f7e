# cmake -DBLURLAB=... -DRUN_RECIPE=... -DGLSLANG=... -DVARIANT=... -DKERNEL=box|gauss [-DBORDER=mode] -DDIR=... -P export_round_trip.cmake
# 1. blurlab exports VARIANT (r = 5, an odd size so partial workgroups occur);
# 2. blurlab-run-recipe runs the export from recipe.json and its shaders alone and compares with the
#    CPU reference; 3. glslangValidator accepts every exported shader (vertex + fragment linked).
# Any refusal fails: every variant must export its default knobs at this size (approximations,
# given r = 5, blur for sigma = 5/3 and are compared with their CPU model).
file(REMOVE_RECURSE "${DIR}")
get_filename_component(parent "${DIR}" DIRECTORY)
file(MAKE_DIRECTORY "${parent}")
set(border_args)
if(BORDER)  # a mode other than clamp; constant with a value that is not 0 (what an unmapped read returns)
  set(border_args --border ${BORDER})
  if(BORDER STREQUAL "constant")
    list(APPEND border_args --border-value 1,0.5,0,1)
  endif()
endif()
# No --check here: the round trip below is the check.
execute_process(COMMAND "${BLURLAB}" --headless --variant ${VARIANT} --kernel ${KERNEL} --radius 5 --size 61x43 --frames 0
                        ${border_args} --export "${DIR}" RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "export of ${VARIANT} failed (${code}): ${err}\n${out}")
endif()
execute_process(COMMAND "${RUN_RECIPE}" "${DIR}/recipe.json"
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the exported recipe of ${VARIANT} does not blur as the reference does (${code})")
endif()
file(GLOB computes "${DIR}/*.comp")
file(GLOB vertices "${DIR}/*.vert")
foreach(shader IN LISTS computes)
  execute_process(COMMAND "${GLSLANG}" "${shader}" RESULT_VARIABLE code OUTPUT_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "glslangValidator rejects ${shader}:\n${out}")
  endif()
endforeach()
foreach(vertex IN LISTS vertices)
  string(REGEX REPLACE "\\.vert$" ".frag" fragment "${vertex}")
  execute_process(COMMAND "${GLSLANG}" -l "${vertex}" "${fragment}" RESULT_VARIABLE code OUTPUT_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "glslangValidator rejects ${vertex} + ${fragment}:\n${out}")
  endif()
endforeach()
list(LENGTH computes n_compute)
list(LENGTH vertices n_vertex)
if(n_compute EQUAL 0 AND n_vertex EQUAL 0)
  message(FATAL_ERROR "no shaders exported for ${VARIANT}")
endif()
