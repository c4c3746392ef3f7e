# cmake -DBLURLAB=... -DRUN_RECIPE=... -DMAKE_CHART=... -DDIR=... -P export_hostile_recipe.cmake
# blurlab-run-recipe ships with every export, so it takes what it reads as blurlab takes bad input:
# exports variable-naive (data files, a radius_map) and compute-separable, then tampers with one
# thing at a time: special files where a shader, a data file, the recipe or IN.png should be, paths
# out of the folder, values out of range, a dropped radius_map, escape sequences and NULs in names,
# bindings that do not agree with the textures (two on one unit, an image format not the texture's,
# GL_READ_WRITE on a texture nothing filled, a formula it cannot read: each once ran with exit 0
# and a wrong image), shaders past the bounds blurlab keeps for a GLSL compiler (a chain of macros,
# an 800 kB #define: each once crashed the runner). Each must exit 1 within seconds with one line on
# stderr naming what is wrong, and leave no OUT.png. Then OUT.png as blurlab takes an output: never
# a file the run reads, a link that leads through /proc (a /dev/stdout of the test's own: one
# became a regular file) or a read-only file (replaced as root); a device (a null device node of
# the test's own) and a FIFO written through, a link to a file kept and the file replaced. And an
# effect's chain (bloom) whose "frame" names its data files otherwise than the runner checks them.
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)
run(${MAKE_CHART} --noise 61 43 ${DIR}/input.png)
run(${MAKE_CHART} --noise 30 20 ${DIR}/other.png)
run(${BLURLAB} --headless --variant variable-naive --kernel box --radius 5 --radius-map band --image ${DIR}/input.png --frames 0
    --export ${DIR}/var)
run(${BLURLAB} --headless --variant compute-separable --kernel box --radius 3 --image ${DIR}/input.png --frames 0 --export ${DIR}/sep)
foreach(folder var sep)
  file(READ ${DIR}/${folder}/recipe.json ${folder}_recipe)
  file(COPY_FILE ${DIR}/${folder}/recipe.json ${DIR}/${folder}.good)
endforeach()
run(${RUN_RECIPE} ${DIR}/var/recipe.json ${DIR}/input.png ${DIR}/out.png)  # untouched, both run
run(${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${DIR}/out.png)
file(REMOVE ${DIR}/out.png)

# refused(NAME FOLDER REGEX [IN]): the runner on FOLDER's recipe exits 1 within 20 s with one line on
# stderr matching REGEX, no raw library text or control character in it, and no OUT.png (every case
# is tried: SEND_ERROR fails the test at its end).
function(refused name folder regex)
  set(in ${DIR}/input.png)
  if(ARGC GREATER 3)
    set(in ${ARGV3})
  endif()
  if(in STREQUAL "NONE")  # an effect's chain: its frame is its data file, no IN.png
    set(in)
  endif()
  execute_process(COMMAND ${RUN_RECIPE} ${DIR}/${folder}/recipe.json ${in} ${DIR}/${name}.png TIMEOUT 20
                  RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(ASCII 27 escape)
  if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab-run-recipe: [^\n]*${regex}[^\n]*\n$" OR err MATCHES "json\\.exception|${escape}")
    message(SEND_ERROR "${name}: exit ${code}, expected 1 and one line matching '${regex}'; stderr:\n${err}")
  endif()
  if(EXISTS ${DIR}/${name}.png)
    message(SEND_ERROR "${name}: wrote ${name}.png")
  endif()
  message(STATUS "${name}: ${err}")
endfunction()
# with(FOLDER JSON-PATH... VALUE): FOLDER's recipe.json with one value set (string(JSON SET)).
function(with folder)
  string(JSON changed SET "${${folder}_recipe}" ${ARGN})
  file(WRITE ${DIR}/${folder}/recipe.json "${changed}")
endfunction()
function(restore folder)
  file(COPY_FILE ${DIR}/${folder}.good ${DIR}/${folder}/recipe.json)
endfunction()

string(JSON shader GET "${sep_recipe}" passes 0 shaders compute)
set(levels radius_levels.bin)
# Special files: nothing waits for a writer or reads without end.
file(RENAME ${DIR}/sep/${shader} ${DIR}/shader.good)
execute_process(COMMAND mkfifo ${DIR}/sep/${shader})
refused(shader_fifo sep "cannot read shader '.*${shader}': it is a FIFO, not a regular file")
file(REMOVE ${DIR}/sep/${shader})
file(CREATE_LINK /dev/zero ${DIR}/sep/${shader} SYMBOLIC)
refused(shader_dev_zero sep "cannot read shader '.*${shader}': it is a character device, not a regular file")
file(REMOVE ${DIR}/sep/${shader})
file(RENAME ${DIR}/shader.good ${DIR}/sep/${shader})
execute_process(COMMAND mkfifo ${DIR}/in.fifo)
refused(image_fifo sep "cannot read IN.png '.*in.fifo': it is a FIFO, not a regular file" ${DIR}/in.fifo)
refused(image_dev_zero sep "cannot read IN.png '/dev/zero': it is a character device, not a regular file" /dev/zero)
file(RENAME ${DIR}/sep/recipe.json ${DIR}/recipe.moved)
execute_process(COMMAND mkfifo ${DIR}/sep/recipe.json)
refused(recipe_fifo sep "cannot read the recipe '.*recipe.json': it is a FIFO, not a regular file")
file(REMOVE ${DIR}/sep/recipe.json)
restore(sep)
file(RENAME ${DIR}/var/${levels} ${DIR}/levels.good)
file(CREATE_LINK /dev/zero ${DIR}/var/${levels} SYMBOLIC)
refused(data_dev_zero var "cannot read the contents of texture radius_levels '.*${levels}': it is a character device")
file(REMOVE ${DIR}/var/${levels})
file(RENAME ${DIR}/levels.good ${DIR}/var/${levels})
# Nothing outside the recipe's folder.
with(sep passes 0 shaders compute "\"/etc/passwd\"")
refused(shader_absolute sep "shader '/etc/passwd' is not a file name in the recipe's folder")
with(sep passes 0 shaders compute "\"../sep/${shader}\"")
refused(shader_parent sep "shader '../sep/${shader}' is not a file name in the recipe's folder")
# Values out of range, of the wrong kind, or missing.
with(sep passes 0 groups "[0, 0, 0]")
refused(groups_zero sep "\"groups\" holds 0, out of range 1..65535")
with(sep width "\"wide\"")
refused(width_text sep "\"width\" is not a whole number")
with(sep passes 0 groups_formula "\"((((((((((((((((((((((((((((((((((((((((W))))))))))))))))))))))))))))))))))))))) x 1 x 1\"")
refused(formula_deep sep "is no formula this runner can evaluate")
string(JSON dropped REMOVE "${var_recipe}" radius_map)
file(WRITE ${DIR}/var/recipe.json "${dropped}")
refused(radius_map_dropped var "is filled from a file, but neither the recipe's \"radius_map\" nor its \"frame\" checks it")
string(JSON dropped REMOVE "${var_recipe}" radius_map weights)
file(WRITE ${DIR}/var/recipe.json "${dropped}")
refused(radius_map_weights_dropped var "texture 'level_weights' is filled from a file, but neither the recipe's \"radius_map\" nor its")
restore(var)
# A depth texture (an effect's frame's depth) is data the recipe's "frame" checks, and only sampled.
string(JSON changed SET "${sep_recipe}" textures 2 internal_format "\"GL_DEPTH_COMPONENT32F\"")
string(JSON changed SET "${changed}" textures 2 format "\"depth32f\"")
file(WRITE ${DIR}/sep/recipe.json "${changed}")
refused(depth_not_the_frames sep "depth texture 'intermediate0' is not the frame's depth")
restore(sep)
# An effect's chain (bloom, its frame as data): its "frame" names the files the runner checks the
# frame by; every other way of naming them is refused before GL starts.
run(${BLURLAB} --headless --effect bloom --variant compute-separable --psf gauss:1 --size 24x16 --frames 0 --export ${DIR}/fx)
file(READ ${DIR}/fx/recipe.json fx_recipe)
file(COPY_FILE ${DIR}/fx/recipe.json ${DIR}/fx.good)
run(${RUN_RECIPE} ${DIR}/fx/recipe.json ${DIR}/out.png)  # untouched, it runs
file(REMOVE ${DIR}/out.png)
with(fx frame source texture "\"destination\"")
refused(frame_source_renamed fx "\"frame\" source is texture 'destination', not 'source'" NONE)
with(fx frame depth "{\"texture\": \"source\"}")
refused(frame_depth_the_colour fx "\"frame\" depth: texture 'source' is GL_RGBA16F, not GL_DEPTH_COMPONENT32F" NONE)
with(fx frame depth "{\"texture\": \"nowhere\"}")
refused(frame_depth_unknown fx "\"frame\" depth: no texture 'nowhere'" NONE)
with(fx frame 3)
refused(frame_not_an_object fx "\"frame\"" NONE)
string(JSON dropped REMOVE "${fx_recipe}" frame source)
file(WRITE ${DIR}/fx/recipe.json "${dropped}")
refused(frame_source_dropped fx "\"frame\" has no \"source\"" NONE)
string(JSON dropped REMOVE "${fx_recipe}" frame)
file(WRITE ${DIR}/fx/recipe.json "${dropped}")
refused(frame_dropped fx "texture 'source' is filled from a file, but neither the recipe's \"radius_map\" nor its \"frame\" checks it" NONE)
string(JSON dropped REMOVE "${fx_recipe}" textures 0 contents)
file(WRITE ${DIR}/fx/recipe.json "${dropped}")
refused(frame_without_contents fx "\"frame\" source: texture 'source' has no \"contents\" to fill it from" NONE)
with(fx textures 0 contents pixel_type "\"GL_UNSIGNED_BYTE\"")
refused(frame_not_half_floats fx "GL_UNSIGNED_BYTE GL_RGBA texels are 4 bytes, not 8" NONE)
restore(fx)
# The command line the recipe takes: a blur's recipe blurs IN.png, and without one it says so (a
# usage mistake: exit 2, one line, nothing written; an effect's chain, whose frame is data, takes
# none: tests/export_effect_round_trip.cmake).
execute_process(COMMAND ${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/no_in.png TIMEOUT 20 RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 2 OR EXISTS ${DIR}/no_in.png OR NOT err MATCHES
   "^blurlab-run-recipe: '[^\n]*recipe.json' blurs an image and none was given: run blurlab-run-recipe RECIPE IN.png OUT.png\n$")
  message(SEND_ERROR "a blur's recipe without IN.png: exit ${code}, expected 2 and one line; stderr:\n${err}")
endif()
# Bindings that do not add up with the textures the recipe declares: each once ran, exit 0, with an
# image 127-194 LSB off. Two bindings on one image unit (one of them unbound), an image format
# that is neither the texture's nor its raw twin, GL_READ_WRITE on a texture nothing filled and
# the recipe does not declare scratch, an access its kind does not take, a sampled binding's
# filter not its kind's, a formula it cannot read (it was taken as a constant: at another size part
# of the image stayed unblurred).
with(sep passes 1 bindings 1 unit 0)
refused(binding_two_on_a_unit sep "pass 2 \\('v'\\), binding of destination: image unit 0 is bound twice in the pass")
string(JSON changed SET "${sep_recipe}" passes 0 bindings 0 gl_image_format "\"GL_RGBA16F\"")
string(JSON changed SET "${changed}" passes 0 bindings 0 image_format "\"rgba16f\"")
file(WRITE ${DIR}/sep/recipe.json "${changed}")
refused(binding_format_not_the_textures sep "image format GL_RGBA16F is neither the texture's GL_RGBA8 nor its raw twin GL_R32UI")
string(JSON changed SET "${sep_recipe}" passes 1 bindings 0 texture "\"destination\"")
string(JSON changed SET "${changed}" passes 1 bindings 0 access "\"GL_READ_WRITE\"")
string(JSON changed SET "${changed}" passes 1 bindings 0 kind "\"image_read_write\"")
file(WRITE ${DIR}/sep/recipe.json "${changed}")
refused(binding_read_write_unfilled sep "reads and writes texture 'destination' \\(GL_READ_WRITE\\) before anything fills it")
with(sep passes 1 bindings 0 access "\"GL_READ_WRITE\"")
refused(binding_access_not_its_kinds sep "access GL_READ_WRITE is not what image_read takes \\(GL_READ_ONLY\\)")
with(sep passes 0 groups_formula "\"ceil(width / 16) x ceil(height / 16) x 1\"")
refused(groups_formula_unreadable sep "pass h: 'ceil\\(width / 16\\) x ceil\\(height / 16\\) x 1' is no formula this runner can evaluate")
with(sep textures 2 internal_format "\"GL_RGBA16F\"")
refused(texture_format_not_its_name sep "\"format\" \"rgba8\" is not its internal_format GL_RGBA16F")
restore(sep)
# Shaders past what blurlab hands a GLSL compiler (util/glsl_limits.h, as --shader-dir): a chain
# of 22 macros that each use the next twice (the runner crashed with SIGSEGV at 2 GB) and an 800 kB
# #define (it crashed in a second). Refused before GL starts.
file(READ ${DIR}/sep/${shader} shader_text)
string(REGEX MATCH "^[^\n]*\n[^\n]*\n" shader_head "${shader_text}")  # the licence line and #version
string(LENGTH "${shader_head}" head_length)
string(SUBSTRING "${shader_text}" ${head_length} -1 shader_rest)
set(doubling "")
foreach(i RANGE 0 21)
  math(EXPR next "${i} + 1")
  string(APPEND doubling "#define B${i} B${next} + B${next}\n")
endforeach()
file(WRITE ${DIR}/sep/${shader} "${shader_head}${doubling}#define B22 1.0\nfloat doubled() { return B0; }\n${shader_rest}")
refused(shader_macro_chain sep "${shader}:26: a statement of 8388609 tokens with its macros expanded; blurlab hands a GL compiler at most 16384")
string(REPEAT " + 1.0" 130000 sum)
file(WRITE ${DIR}/sep/${shader} "${shader_head}#define BIG 1.0${sum}\nfloat big() { return BIG; }\n${shader_rest}")
refused(shader_huge_define sep "${shader}:3: a #define of 761.7 KiB; blurlab hands a GL compiler at most 64.0 KiB")
file(WRITE ${DIR}/sep/${shader} "${shader_text}")
# A NUL in a name is shown, not the end of the message (it cut the line before its reason).
string(REPLACE "\"compute\": \"${shader}\"" "\"compute\": \"a\\u0000b.comp\"" nul_recipe "${sep_recipe}")
file(WRITE ${DIR}/sep/recipe.json "${nul_recipe}")
refused(shader_nul sep "shader 'a\\\\x00b.comp' is not a file name in the recipe's folder")
restore(sep)
# Names with escape sequences and line breaks stay one line of text.
with(sep passes 0 shaders compute "\"\\u001b[2J\\nx.comp\"")
refused(shader_escape sep "shader '\\\\e\\[2J\\\\nx.comp' is not a file name|cannot read shader '.*\\\\e\\[2J\\\\nx.comp'")
file(WRITE ${DIR}/sep/recipe.json "{\"format\": \"blurlab-recipe\", \"version\": 3, \"variant\": 1")
refused(recipe_cut sep "recipe.json' is not JSON: ")
with(sep passes "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]")
refused(recipe_deep sep "nests deeper than 32 levels")
with(sep variant "\"\\u001b[2Jv\\nw\"")
run(${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${DIR}/out.png)
string(ASCII 27 escape)
if(run_output MATCHES "${escape}" OR NOT run_output MATCHES "^\\\\e\\[2Jv\\\\nw: ran [^\n]*\n$")
  message(FATAL_ERROR "a variant's name in the recipe reached stdout as it was:\n${run_output}")
endif()
restore(sep)
run(${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${DIR}/out.png)  # restored, it runs again
# OUT.png as blurlab takes an output (util/files.h): never a file the run reads (compared by
# identity: a link to it counts) nor one in the recipe's folder (exit 2, a usage mistake, before
# anything is read).
function(spared name out regex)
  file(SHA256 ${DIR}/sep/recipe.json recipe_before)
  file(SHA256 ${DIR}/input.png input_before)
  execute_process(COMMAND ${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${out} TIMEOUT 20
                  RESULT_VARIABLE code ERROR_VARIABLE err)
  file(SHA256 ${DIR}/sep/recipe.json recipe_after)
  file(SHA256 ${DIR}/input.png input_after)
  if(NOT code EQUAL 2 OR NOT err MATCHES "^blurlab-run-recipe: [^\n]*${regex}[^\n]*\n$")
    message(SEND_ERROR "${name}: exit ${code}, expected 2 and one line matching '${regex}'; stderr:\n${err}")
  endif()
  if(NOT recipe_before STREQUAL recipe_after OR NOT input_before STREQUAL input_after)
    message(SEND_ERROR "${name}: an input changed")
  endif()
  message(STATUS "${name}: ${err}")
endfunction()
spared(out_is_in ${DIR}/input.png "is the same file as IN.png")
file(CREATE_LINK ${DIR}/input.png ${DIR}/in_link.png SYMBOLIC)
spared(out_links_to_in ${DIR}/in_link.png "is the same file as IN.png")
spared(out_is_recipe ${DIR}/sep/recipe.json "is the same file as the recipe")
spared(out_is_shader ${DIR}/sep/${shader} "is the same file as the recipe's folder file")
spared(out_in_the_recipes_folder ${DIR}/sep/new.png "is inside the recipe's folder")
# A link of the test's own to /proc/self/fd/1, as /dev/stdout is, with stdout redirected to a file:
# refused before any work, the link left a link (an old runner replaced it with a regular file: as
# root, /dev/stdout of the whole machine). No test writes into the real /dev.
file(CREATE_LINK /proc/self/fd/1 ${DIR}/stdout_link SYMBOLIC)
execute_process(COMMAND ${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${DIR}/stdout_link TIMEOUT 20
                OUTPUT_FILE ${DIR}/stdout.txt RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab-run-recipe: OUT.png '[^\n]*stdout_link': it leads through /proc to a file a process has open")
  message(SEND_ERROR "OUT.png a link through /proc to a redirected stdout: exit ${code}; stderr:\n${err}")
endif()
if(NOT IS_SYMLINK ${DIR}/stdout_link)
  message(SEND_ERROR "OUT.png a link through /proc: the link was replaced")
endif()
# A read-only OUT.png is refused, as root too (renaming over it needs no permission on it).
file(WRITE ${DIR}/read_only.png "kept")
file(CHMOD ${DIR}/read_only.png PERMISSIONS OWNER_READ GROUP_READ WORLD_READ)
execute_process(COMMAND ${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${DIR}/read_only.png TIMEOUT 20 RESULT_VARIABLE code ERROR_VARIABLE err)
file(READ ${DIR}/read_only.png read_only_text)
if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab-run-recipe: OUT.png '[^\n]*read_only.png': it is read-only \\(mode 0444\\)\n$" OR NOT read_only_text STREQUAL "kept")
  message(SEND_ERROR "a read-only OUT.png: exit ${code}, its text now '${read_only_text}'; stderr:\n${err}")
endif()
# A FIFO nobody reads: written through, which fails at once with the reason (no wait, no file).
execute_process(COMMAND mkfifo ${DIR}/out_fifo.png)
execute_process(COMMAND ${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${DIR}/out_fifo.png TIMEOUT 20 RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 1 OR NOT err MATCHES "^blurlab-run-recipe: cannot write OUT.png '[^\n]*out_fifo.png': no process is reading from it\n$")
  message(SEND_ERROR "OUT.png a FIFO without a reader: exit ${code}; stderr:\n${err}")
endif()
# A character device (a null device node of the test's own, where this user may make one): written
# through and still a device.
execute_process(COMMAND mknod ${DIR}/null.png c 1 3 RESULT_VARIABLE made ERROR_QUIET)
if(made EQUAL 0)
  run(${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${DIR}/null.png)
  execute_process(COMMAND test -c ${DIR}/null.png RESULT_VARIABLE still_a_device)
  if(NOT still_a_device EQUAL 0)
    message(SEND_ERROR "a device at OUT.png was replaced")
  endif()
endif()
# A link to a file: the link stays a link and the file it points to gets the blur, whole.
file(WRITE ${DIR}/outside.txt "kept")
file(CREATE_LINK ${DIR}/outside.txt ${DIR}/linked_out.png SYMBOLIC)
run(${RUN_RECIPE} ${DIR}/sep/recipe.json ${DIR}/input.png ${DIR}/linked_out.png)
file(READ ${DIR}/outside.txt outside LIMIT 4 HEX)
if(NOT outside STREQUAL "89504e47" OR NOT IS_SYMLINK ${DIR}/linked_out.png)
  message(SEND_ERROR "a link at OUT.png was not kept, or its file did not get the PNG (outside.txt starts with ${outside})")
endif()
file(GLOB partial ${DIR}/.blurlab-*.tmp)
if(partial)
  message(SEND_ERROR "temporary files left: ${partial}")
endif()
