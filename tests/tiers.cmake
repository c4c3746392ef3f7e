# The suite's two tiers, as data. Compiling shaders on llvmpipe makes the whole suite cost what it
# costs (about 2000 distinct programs), so it is split:
#   ./run.sh test          the first tier, `ctest -LE full`: every test not labelled `full`. It
#                          keeps one case of every variant (the GL grid's r = 7, and the cases that
#                          are the one catch of a break in tests/mutation/run.sh), every unit, CLI,
#                          bad-input, golden and Pipeline test, and the image, export and window
#                          cases whose C++ no other case of the tier runs.
#   ./run.sh test --full   both tiers: every radius, border mode, knob candidate, long walk and
#                          large Gaussian of every variant, every variant's image and export cases
#                          and shader validation, the first-run, sweep, chart and memory tests.
#                          CI runs it.
# `tests/mutation/run.sh --tier first` proves that the first tier alone catches every break the
# script holds. Included when CMake configures (tests/CMakeLists.txt, tests/fuzz/) and when ctest
# lists the tests it discovers (gl_grid_tests.cmake, image_tests.cmake, export_tests.cmake), so
# these lines are the only place a test's tier is decided.

# Tests only the full tier runs (regular expressions on the ctest name).
set(BLURLAB_FULL_TIER_ONLY
  # The GL grid's repeats: the other radii, the border modes, the knob candidates, the long walks
  # and the large Gaussians of every variant (its r = 7 case stays).
  "^gl\\.[a-z0-9-]+\\.(r(0|1|2|16|33|64|128|512)|border_[a-z0-9]+|knobs|walks|large_gauss)$"
  # Every line shape of the recursive Gaussians' blocks (158 s of CPU on its own), and dual Kawase
  # at every level count, odd size, border and chain (minutes).
  "^gl\\.RecursiveGaussianBlocks\\."
  "^gl\\.DualKawase\\.EveryLevelCountSizeBorderAndChain$"
  # The streamed last pass at the borders and level counts the first tier's case leaves out, and
  # compute-sliding's walks at the borders, radii and formats its first-tier case leaves out.
  "^gl\\.DualKawase\\.StreamedLastPassEveryBorderAndLevelCount$"
  "^gl\\.BoxWalks\\.SlidingWalksEveryBorderAndFormat$"
  # Every variant's shaders, at every setting that changes their code, through the Khronos
  # reference compiler (130 s of CPU; the GL grid's cases compile each variant's at r = 7).
  "^glsl\\.Glsl/Variant\\."
  # The image and export cases per variant: the first tier keeps those whose C++ is their own
  # (below); the rest differ in their shaders, which the GL grid checks. (The approximations'
  # goldens, golden.<variant>.<case>, are their CPU models' and cheap: every one stays.)
  "^(image|export)\\.[a-z0-9-]+\\.[a-z0-9_]+$"
  "^export\\.[a-z0-9-]+$"
  # Every variant's exports at each knob value that changes the recipe, run by the recipe runner
  # (the first tier keeps dual Kawase's, below), and the python tools' fuzzing beyond their seeds.
  "^gl\\.ExportStructures/"
  "^fuzz_tools\\.mutations$"
  # Long runs of the whole program: every variant with --check on the scene and in a sweep of
  # formats, the first run's default table and --tune, the report's sweep and charts, every
  # variant's memory.
  "^cli\\.(check_scene|check_sweep|first_run_(default|tune))$"
  "^report\\.(sweep|charts|memory_estimate)$"
  # Linear light through every variant (cli.check_scene and linear.edge keep the rest of it).
  "^linear\\.check$"
  # Depth of field's variable-radius techniques but variable-naive (the same C++ around another
  # variant's blur), every technique against the lens, and the ground truth's convergence (views of
  # the scene by the thousand): the first tier keeps the passes' checks a mutation needs.
  "^gl\\.Dof/DofVariant\\.MatchesItsReference/variable_(sat|pyramid|layers)( |$)"
  "^gl\\.Dof\\.(NearFarIsCloserToTheLensAtDepthEdgesThanEveryPerPixelGather|GroundTruthConverges)$"
  # The window cases but the ones whose code no other case runs (below).
  "^window\\."
  # Bloom through every implementation (the first tier keeps one exact separable, the FFT, an
  # approximation by passes and the mip chain, below).
  "^gl\\.Bloom/BloomImplementations\\.")

# Exceptions to the lines above: cases the first tier keeps.
set(BLURLAB_FIRST_TIER_KEEPS
  # The one test of a break in tests/mutation/run.sh (a knob candidate refused, radii past 16
  # refused, a segment's prologue skipped, an FFT segment's apron, level counts of the Kawase
  # filters, the streamed taps of large Gaussians).
  "^gl\\.compute-box-blocked\\.(knobs|r33)$"
  "^gl\\.(compute-strip-regblock|fft)\\.walks$"
  "^gl\\.(kawase|dual-kawase)\\.r16$"
  "^gl\\.compute-separable-regblock\\.large_gauss$"
  # Image and export cases of one exact variant (files, the reference, the recipe: the
  # same C++ for every variant) and of the variable-radius ones (radius maps: C++ of their own),
  # but the 2048x2048 round trips (.large), which are there for a GPU's overlapping passes.
  "^(image|export)\\.(compute-separable|variable-[a-z]+)(\\.([a-z0-9]+_[a-z0-9_]+|linear|streamed))?$"
  # One export of a variant's walks taller than wide (its workgroup formulas' axes; the other
  # walking variants' tall exports are the full tier's).
  "^export\\.compute-sliding\\.tall$"
  # One effect's chain exported and run on its frame by the recipe runner, with the runner's
  # refusals of a chain's command line and frame (a sum of two kernels, a prefilter: the richest
  # chain); the other implementations' chains in the full tier.
  "^export\\.effect\\.bloom_compute_separable$"
  # The exports of every knob value of one variant of many recipes (dual Kawase: its fused chain's
  # counters once made an export its runner refused).
  "^gl\\.ExportStructures/ExportEveryStructure\\.RunsFromItsRecipeAlone/dual_kawase( |$)"
  # What an export states of itself (fidelity on the chart, the sizes it holds for) and the runner
  # keeping to it: dual Kawase's own choices, the one case of them.
  "^export\\.dual-kawase\\.choices$"
  # The window: its keys, its radius maps, its effects, the depth of field's focus click, its errors.
  "^window\\.(keys|radius_map|effect|dof|errors)$"
  # Bloom's stages through the code paths of its implementations: a variant per term, the FFT's
  # own passes, an approximation checked against its model, the mip chain's levels.
  "^gl\\.Bloom/BloomImplementations\\..*/(compute_separable|fft|dual_kawase|mip_chain)( |$)")

# Whether `test` runs only in the full tier: sets `result` to TRUE or FALSE.
function(blurlab_full_tier_only test result)
  set(${result} FALSE PARENT_SCOPE)
  foreach(keep IN LISTS BLURLAB_FIRST_TIER_KEEPS)
    if(test MATCHES "${keep}")
      return()
    endif()
  endforeach()
  foreach(full IN LISTS BLURLAB_FULL_TIER_ONLY)
    if(test MATCHES "${full}")
      set(${result} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# Sets `test`'s labels to ARGN, and `full` with them when only the full tier runs it.
function(blurlab_tier test)
  set(labels ${ARGN})
  blurlab_full_tier_only("${test}" full)
  if(full)
    list(APPEND labels full)
  endif()
  if(labels)
    set_tests_properties(${test} PROPERTIES LABELS "${labels}")
  endif()
endfunction()
