#!/usr/bin/env bash
# Breaks blurlab on purpose, one way at a time, and shows that the test suite goes red for each: a
# test must be able to fail. Each mutation is one edit of one file (a perl substitution that must
# change it) and the tests that must catch it. The script works in a scratch clone of HEAD (commit
# first), so the tree is never touched; it builds once, then rebuilds and runs only each
# mutation's tests.
#
#   tests/mutation/run.sh                 every mutation (about 20 minutes on 2 cores)
#   tests/mutation/run.sh NAME...         some of them (names: tests/mutation/run.sh --list)
#   KEEP=1 tests/mutation/run.sh ...      keep the scratch clone and its build, and say where
#   tests/mutation/run.sh --tier first [NAME...]
#                                         the same, each break's tests taken from the suite's first
#                                         tier alone (`ctest -LE full`, what `./run.sh test` runs;
#                                         tests/tiers.cmake): a break whose tests are all in the full
#                                         tier only counts as SURVIVED
#   tests/mutation/run.sh --gpu-list      the breaks only a GPU shows (tests/gpu/pack.sh builds them)
#
# It ends with a table: "caught" (the tests failed, as they must), "SURVIVED" (the tests passed
# with the break in place: a hole in the suite) or "STALE" (the edit no longer applies, or no longer
# compiles: update it).
# Exit code 0 only when every mutation was caught.
set -uo pipefail
root=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)

# name | file | perl substitution (applied with -0pi: the whole file is one string) | ctest regex
mutations=(
  "bloom-threshold-ignored|glsl/effects/bloom_common.glsl|s/return max\(q, b - threshold\) \/ b;/return 1.0;/|^gl\.Effects\.BloomWithThresholdAndSumOfGaussians\$"
  "bloom-composite-keeps-the-light-that-blooms|glsl/effects/bloom_common.glsl|s/h \+ u_pass\.x \* \(layer - blooming_light\(h\)\)/h + u_pass.x * layer/|^gl\.Bloom/BloomImplementations\..*/fft( |\$)"
  "tonemap-shoulder-moved|glsl/effects/tonemap.glsl|s/x \* \(2\.51 \* x \+ 0\.03\)/x * (2.41 * x + 0.03)/|^gl\.Bloom/BloomImplementations\..*/compute_separable( |\$)"
  "mip-chain-level-weights-ignored|glsl/effects/bloom_mip_chain.comp|s/u_pass\.x \* imageLoad\(u_down_here, p\)\.rgb : vec3\(0\.0\)/imageLoad(u_down_here, p).rgb : vec3(0.0)/|^gl\.Bloom/BloomImplementations\..*/mip_chain( |\$)"
  "refuse-everything|src/blur/variant.cpp|s/(std::optional<Refusal> unsupported_reason\([^{]*\{)/\$1\n  return Refusal{Limit::Setting, \"mutation\"};/|^gl\.compute-separable\.r7\$"
  "refuse-non-default-knobs|src/variants/compute_box_blocked.cpp|s/(std::optional<Refusal> check\([^{]*\{)/\$1\n  for (const Knob* k : {&kColumns, &kRows, &kBatch, &kScan})\n    if (s.knob(k->name) != k->default_value(s.kernel.radius)) return Refusal{Limit::Knobs, \"mutation\"};/|^gl\.compute-box-blocked\.knobs\$"
  "refuse-large-radii|src/variants/compute_box_blocked.cpp|s/(std::optional<Refusal> check\([^{]*\{)/\$1\n  if (s.kernel.radius > 16) return Refusal{Limit::Reach, \"mutation\", double(s.kernel.radius), 16.0};/|^gl\.compute-box-blocked\.r33\$"
  "refuse-large-radii-as-shared-memory|src/variants/compute_box_blocked.cpp|s/(std::optional<Refusal> check\([^{]*\{)/\$1\n  if (s.kernel.radius > 16) return Refusal{Limit::SharedMemory, \"mutation\", 1e9, double(limits.max_compute_shared_memory)};/|^gl\.compute-box-blocked\.r33\$"
  "declare-too-much-shared-memory|src/variants/compute_box_blocked.cpp|s/(return \{batch \* padded \* \(2 \* texel \+ prefix\) \+ prefix \* batch \* n)/\$1 + (s.kernel.radius > 16 ? 1000000 : 0)/|^gl\.compute-box-blocked\.r33\$"
  "fidelity-at-1.2-sigma|src/bench/measure.cpp|s/fidelity_reference\(m\.approximation->sigma,/fidelity_reference(m.approximation->sigma * 1.2,/|^gl\.ReportedNumbers\.Fidelity"
  "times-doubled|src/gl/timer_pool.cpp|s/static_cast<double>\(t1 - t0\) \* 1e-6/static_cast<double>(t1 - t0) * 2e-6/|^gl\.ReportedNumbers\.Times"
  "cpu-time-as-gpu-time|src/bench/measure.cpp|s/(m\.spans_ms = t\.spans_ms;)/\$1\n    for (auto& [span, times] : m.spans_ms)\n      for (double& ms : times) ms = t.cpu_ms_per_frame;/|^gl\.ReportedNumbers\.Times"
  "check-loosened-by-2-lsb|src/blur/check.cpp|s/allowed = tolerance\.lsb_limit;/allowed = tolerance.lsb_limit + 2;/|^unit\.Check\."
  "strip-segments-skip-their-prologue|glsl/compute_strip_regblock.comp|s/for \(int first = start - RADIUS;/for (int first = start > 0 ? start + RADIUS : start - RADIUS;/g|^gl\.compute-strip-regblock\.walks\$"
  "zeros|glsl/target_image.glsl|s/imageStore\(u_dst, p, v\)/imageStore(u_dst, p, vec4(0.0))/|^gl\.compute-separable\.r7\$"
  "fft-twiddle-sign|glsl/fft_butterflies.glsl|s/vec2\(cos\(angle\), sin\(angle\)\)/vec2(cos(angle), -sin(angle))/|^gl\.fft\.r7\$"
  "fft-radix8-w8-cubed-wrong|glsl/fft_butterflies.glsl|s/vec2 o3 = SQRT_HALF \* vec2\(-v7\.x - dir \* v7\.y,/vec2 o3 = SQRT_HALF * vec2(-v7.x + dir * v7.y,/|^gl\.Fft\.EveryStepScheduleMatchesReference\$"
  "fft-segment-apron|glsl/fft.comp|s/const int M = N - 2 \* RADIUS;/const int M = N - RADIUS;/|^gl\.fft\.walks\$"
  "fft-one-step-without-product|glsl/fft.comp|s/fft_step\(F, 1, -1\.0, FROM_SOURCE, TO_TARGET, true\);/fft_step(F, 1, -1.0, FROM_SOURCE, TO_TARGET, false);/|^gl\.Fft\.EveryStepScheduleMatchesReference\$"
  "off-by-one-tap|glsl/separable_1d.glsl|s/i <= RADIUS; \+\+i/i < RADIUS; ++i/|^gl\.compute-separable\.r7\$"
  "weights-times-1.01|src/blur/pipeline.cpp|s/block\.taps\[i\] = static_cast<float>\(weights\[i\]\);/block.taps[i] = static_cast<float>(weights[i] * 1.01);/|^gl\.compute-separable\.r7\$"
  "kawase-one-pass-fewer|src/variants/kawase.cpp|s/const size_t n = offsets_\.size\(\);/const size_t n = offsets_.size() > 1 ? offsets_.size() - 1 : 1;/|^gl\.kawase\.r16\$"
  "kawase-shared-fetches-misplace-outputs|glsl/kawase.comp|s/ivec2 p = first \+ ivec2\(kx, ky - 1\) \* s;/ivec2 p = first + ivec2(kx, ky - 1) * (s + 1);/|^gl\.kawase\.r16\$"
  "kawase-tall-blocks-laid-out-square|glsl/kawase.comp|s/ivec2\(SHARE_X, SHARE_Y\) \* s/ivec2(SHARE_X, SHARE_X) * s/|^gl\.kawase\.r16\$"
  "dual-kawase-level-1-parts-misplaced|glsl/dual_kawase.comp|s/region\[1\]\.start \+ ivec2\(0, kPartStep \* round\)/region[1].start + ivec2(0, kPartStep * round + 2 * round)/|^gl\.dual-kawase\.r16\$"
  "dual-kawase-fused-second-to-last-computes|glsl/dual_kawase.comp|s/== children - 1u\)/== children - 2u)/|^gl\.DualKawase\.FusedChainRunsTwiceTheSame\$"
  "dual-kawase-fused-counters-not-reset|glsl/dual_kawase.comp|s/imageAtomicExchange\(u_counters, at, 0u\);//|^gl\.DualKawase\.FusedChainRunsTwiceTheSame\$"
  "dual-kawase-shared-corners-shifted|glsl/dual_kawase.comp|s/ivec2 first = 2 \* \(p0 - kO \/ 2\) \+ 1 - \(kO & 1\);/ivec2 first = 2 * (p0 - kO \/ 2) + 3 - (kO & 1);/|^gl\.DualKawase\.DownPassesShareTheirCorners\$"
  "dual-kawase-stream-odd-columns-unmirrored|glsl/dual_kawase.comp|s/direction = 1 - 2 \* \(x & 1\);/direction = 1;/|^gl\.DualKawase\.StreamedLastPass\$"
  "dual-kawase-stream-window-one-row-short|glsl/dual_kawase.comp|s/if \(j < kRows && r - j >= -2 && r - j <= 2\) apply_even_row/if (j < kRows \&\& r - j >= -1 \&\& r - j <= 2) apply_even_row/|^gl\.DualKawase\.StreamedLastPass\$"
  "sliding-transposed-store-untransposed|glsl/sliding_common.glsl|s/ivec2 stored_at\(ivec2 p\) \{ return p\.yx; \}/ivec2 stored_at(ivec2 p) { return p; }/|^gl\.BoxWalks\.SlidingWalksRawAndTransposed\$"
  "sliding-packed-average-truncated|glsl/sliding_common.glsl|s/uvec4 q = uvec4\(vec4\(s\) \* box_weight\(\) \+ 0\.5\);/uvec4 q = uvec4(vec4(s) * box_weight());/|^gl\.BoxWalks\.SlidingWalksRawAndTransposed\$"
  "sliding-packed-fields-swapped|glsl/sliding_common.glsl|s/uvec4 s = uvec4\(sum\.x & 0xFFFFu, sum\.y & 0xFFFFu, sum\.x >> 16, sum\.y >> 16\);/uvec4 s = uvec4(sum.x \& 0xFFFFu, sum.x >> 16, sum.y \& 0xFFFFu, sum.y >> 16);/|^gl\.BoxWalks\.SlidingWalksRawAndTransposed\$"
  "sliding-walk-io-auto-raw-for-any-intermediate|src/variants/compute_sliding.cpp|s/\(io == kWalkAuto && rgba8_walk\(s\)\)/io == kWalkAuto/|^gl\.BoxWalks\.SlidingWalksRawAndTransposed\$"
  "dual-kawase-auto-streams-below-its-size|src/variants/dual_kawase.cpp|s/double\(size->x\) \* size->y >= kStreamFromTexels/double(size->x) * size->y < kStreamFromTexels/|^unit\.OwnBound\."
  "dual-kawase-shared-odd-centre-from-the-diagonals|glsl/dual_kawase.comp|s/vec4 sum = 4\.0 \* s_centre\[gl_LocalInvocationIndex\];/vec4 sum = 4.0 * diagonal(q + kO \/ 2);/|^gl\.DualKawase\.DownPassesShareTheirCorners\$"
  "no-barrier-before-a-store-after-a-read|src/gl/barriers.cpp|s/accessed_\.count\(texture\) > 0/false/|^(unit\.Barriers\.|gl\.Pipeline\.Stores)"
  "pipeline-forgets-what-a-pass-read|src/blur/pass_runner.cpp|s/    gl::barriers\(\)\.shader_accessed\(b\.texture->id\(\)\);\n//|^gl\.Pipeline\.Stores"
  "variable-pyramid-level-variance-doubled|glsl/variable_pyramid.comp|s/float\(1 << \(2 \* \(k - 1\)\)\)/float(1 << (2 * k - 1))/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_pyramid"
  "variable-pyramid-model-level-variance-doubled|src/variants/variable_pyramid.cpp|s/std::ldexp\(1\.0, 2 \* \(k - 1\)\)/std::ldexp(1.0, 2 * k - 1)/|^unit\.Approximation\.ThePyramids"
  "timer-frames-dropped|src/gl/timer_pool.cpp|s/(    if \(!ready\) break;[^\n]*\n)/\$1    if (frame.number % 2) {\n      release(frame);\n      in_flight_.pop_front();\n      continue;\n    }\n/|^unit\.TimerPool\."
  "png-writer-drops-a-row|src/image/png_codec.cpp|s/&image\.texels\[static_cast<size_t>\(y\) \* image\.width \* 4\]/&image.texels[static_cast<size_t>(y == 1 ? 0 : y) * image.width * 4]/|^unit\.Image\.Png"
  "variable-sat-truncates|glsl/variable_sat.comp|s/uvec4 step = \(2u \* box\.lo \+ n\) \/ \(2u \* n\);/uvec4 step = box.lo \/ n;/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_sat"
  "variable-sat-drops-the-carry|glsl/variable_sat.comp|s/return Sum\(lo, a\.hi \+ b\.hi \+ carry\);/return Sum(lo, a.hi + b.hi);/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_sat"
  "variable-sat-ignores-the-border|glsl/variable_sat.comp|s/source_texel\(q - max_radius\(\)\)/source_texel(clamp(q - max_radius(), ivec2(0), source_size() - 1))/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_sat"
  "variable-sat-drops-the-row-carries|glsl/variable_sat.comp|s/sum_add\(sum_add\(column\[k\], left\[k\]\), above\)/sum_add(column[k], above)/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_sat"
  "variable-sat-tile-rows-forget-the-runs-before|glsl/variable_sat.comp|s/for \(int p = 0; p < part; \+\+p\)/for (int p = 0; p < 0; ++p)/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_sat"
  "variable-sat-carries-one-entry-late|glsl/variable_sat.comp|s/running = sum_add\(running, step\[k\]\);/if (k0 + k > first) running = sum_add(running, step[k]);/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_sat"
  "variable-sat-segments-forget-the-ones-before|glsl/variable_sat.comp|s/for \(int s = 0; s < segment; \+\+s\)/for (int s = 0; s < 0; ++s)/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_sat"
  "variable-levels-off-by-one-on-the-gpu|src/blur/pipeline.cpp|s/static_cast<float>\(levels\[i\]\) \/ 255\.0f/static_cast<float>(std::min<int>(levels[i] + 1, max_radius)) \/ 255.0f/|^gl\.Variable\/"
  "variable-level-sigma-not-scaled|src/blur/radius_map.cpp|s/kernel\.sigma \* level \/ kernel\.radius/kernel.sigma/|^unit\.(RadiusMap|VariableReference)\."
  "variable-pyramid-sample-off-by-half|glsl/variable_pyramid.comp|s/\/ float\(1 << l\.k\) - 0\.5;/\/ float(1 << l.k);/|^gl\.Variable\/Variable\.MatchesThePerPixelReference\/variable_pyramid"
  "dof-near-far-circles-signed-backwards|glsl/effects/dof_near_far.comp|s/float coc = u_pass\.x \+ u_pass\.y \* texelFetch\(u_depth, p, 0\)\.r;\n    nearest/float coc = -(u_pass.x + u_pass.y * texelFetch(u_depth, p, 0).r);\n    nearest/|^gl\.Dof\.NearFarMatchesItsModel\$"
  "dof-lens-circle-signed-backwards|src/effects/dof.cpp|s/\(1\.0 \/ focus_distance - 1\.0 \/ view_depth\)/(1.0 \/ view_depth - 1.0 \/ focus_distance)/|^(unit\.DofLens\.|gl\.Dof\.NearFarMatchesItsModel\$)"
  "dof-near-far-tiles-not-dilated|src/effects/dof_near_far.cpp|s/std::to_string\(near_dilation_tiles\(config_, setup\.size\(\)\.y\)\)/std::to_string(0)/|^gl\.Dof\.NearFarMatchesItsModel\$"
  "dof-near-far-dilation-a-tile-short|src/effects/dof_near_far.cpp|s/return \(texels \+ kTile - 1\) \/ kTile;/return texels \/ kTile;/|^unit\.DofNearFar\."
  "dof-near-field-cut-at-silhouettes|glsl/effects/dof_near_far.comp|s/min\(near\.a, 1\.0\)\);/min(near.a, 1.0) * ramp(-coc - 1.0));/|^gl\.Dof\.NearFarMatchesItsModel\$"
  "dof-far-field-over-the-near|glsl/effects/dof_near_far.comp|s/(  if \(far\.a > 0\.0\)[^\n]*\n)(  if \(near\.a > 0\.0\)[^\n]*\n)/\$2\$1/|^gl\.Dof\.NearFarMatchesItsModel\$"
  "dof-lens-views-unsheared|src/scene/scene.cpp|s/shear\[2\]\[0\] = -lens_offset\.x \/ focus_distance;/shear[2][0] = 0.0f;/; s/shear\[2\]\[1\] = -lens_offset\.y \/ focus_distance;/shear[2][1] = 0.0f;/|^unit\.SceneCameraLens\."
  "dof-levels-of-the-circles-diameter|glsl/effects/dof.comp|s/sqrt\(1\.0 \+ 3\.0 \* coc \* coc\)/sqrt(1.0 + 12.0 * coc * coc)/|^gl\.Dof\/DofVariant\.MatchesItsReference\/variable_naive( |\$)"
  "dof-click-reads-the-depth-upside-down|app/window.cpp|s/view_depth\(depth\.at\(at\.x, at\.y, 0\)\)/view_depth(depth.at(at.x, size_.y - 1 - at.y, 0))/|^window\.dof\$"
  "radius-map-key-does-nothing|src/ui/view_state.cpp|s/s\.settings\.radius_map = maps\[[^;]*;/(void)it;/|^(unit\.Keys\.MCycles|window\.radius_map)"
  "effect-key-does-nothing|src/ui/view_state.cpp|s/return select_effect\(s, \(s\.effect \+ 1\) % \(effects\(\)\.size\(\) \+ 1\)\);/return kNone;/|^(unit\.EffectKeys\.XCycles|window\.effect\$)"
  "effect-window-shows-the-frame-without-it|app/window.cpp|s/    else if \(presented_\.picture == ui::Picture::Unblurred\)\n      present_\.draw\(hdr_color_/    else if (true)\n      present_.draw(hdr_color_/|^window\.effect\$"
  "present-tonemap-without-the-curve|glsl/present.frag|s/u_encoding == 2 \? display_value\(c\.rgb\)/u_encoding == 2 ? vec4(linear_to_srgb(c.rgb), 1.0)/|^window\.effect\$"
  "recipe-levels-transposed|tests/tools/run_recipe.cpp|s/(  return \{bytes\.begin\(\), bytes\.end\(\)\};)/  if (name == \"radius_levels\") {\n    const size_t w = texture.at(\"width\"), h = texture.at(\"height\");\n    std::string t = bytes;\n    for (size_t y = 0; y < h; ++y)\n      for (size_t x = 0; x < w; ++x) t.replace((y * w + x) * texel, texel, bytes, (x * h + y) * texel, texel);\n    return {t.begin(), t.end()};\n  }\n\$1/|^export\.variable-"
  "regblock-unrolled-at-large-r|src/variants/compute_separable_regblock.cpp|s/with_defaults_by_radius\(regblock::taps_knob\(\{0, 1\}\), \{\{24, \{1\}\}\}\)/regblock::taps_knob({0, 1})/|^unit\.Defaults\."
  "streamed-taps-weights-off-by-one|glsl/regblock_common.glsl|s/w\[q\] = u_taps\[b \* \(RB_STREAM_INPUTS \/ 4\) \+ q\]/w[q] = u_taps[b * (RB_STREAM_INPUTS \/ 4) + q + 1]/|^gl\.compute-separable-regblock\.large_gauss\$"
  "recursive-gaussian-tolerance-times-10|src/variants/recursive_gaussian.cpp|s/return bound\.tolerance\(\"recursive filter, 4 passes\"\);/Tolerance t = bound.tolerance(\"recursive filter, 4 passes\");\n  t.lsb_limit *= 10;\n  return t;/|^unit\.Tolerances\."
  "dual-kawase-tolerance-times-10|src/variants/dual_kawase.cpp|s/return bound\.tolerance\(std::to_string\(choice\.levels\) \+ \" levels down and up\"\);/Tolerance t = bound.tolerance(std::to_string(choice.levels) + \" levels down and up\");\n  t.lsb_limit *= 10;\n  return t;/|^unit\.Tolerances\."
  "compare-loosened-by-3-lsb|tests/tools/compare.cpp|s/if \(largest <= tolerance\)/if (largest <= tolerance + 3)/|^tools\.compare\$"
  "golden-regeneration-accepts-anything|tests/regenerated_test.cmake|s/--tolerance 0/--tolerance 255/|^tools\.compare\$"
  "closest-approximation-lowest-psnr|src/report/conclusion.cpp|s/psnr\(c\.pick\) > psnr\(\*a\.closest_approximation\)/psnr(c.pick) < psnr(*a.closest_approximation)/|^unit\.Conclusion\."
  "fidelity-of-the-unrounded-value|src/blur/check.cpp|s/model::stored\(exact\.texels\[i\], format\)/exact.texels[i]/|^gl\.ReportedNumbers\.Fidelity"
  "variable-sat-levels-clamped-to-64|glsl/variable_sat.comp|s/int R = max_radius\(\), r = pixel_level\(p\);/int R = max_radius(), r = min(pixel_level(p), 64);/|^gl\.Variable\/Variable\.LargeLevelsOnARamp\/variable_sat"
  "variable-layers-level-one-pixel-right|glsl/variable_layers.comp|s/int R = int\(u_pass\.x\), r = pixel_level\(p\);/int R = int(u_pass.x), r = pixel_level(min(p + ivec2(1, 0), imageSize(u_levels) - 1));/|^(gl\.Variable\/Variable\.LargeLevelsOnARamp\/variable_layers|export\.variable-layers)\$"
  "docs-block-without-its-blank-line|docs/tools/results.py|s/\+ \[\"\", BLOCK_END\]/+ [BLOCK_END]/|^report\.results\$"
  "effects-edges-psnr-shows-the-psnr|docs/tools/results.py|s/(cells\.append\(f\"\{fidelity\['edges_psnr_db'\]:\.1f\}\" if fidelity\.get\(\")edges_psnr_db/\$1psnr_db/|^report\.results\$"
  "readme-results-table-edited-by-hand|README.md|s/box r = 1 /box r = 1 x/|^report\.results_docs\$"
  "table-takes-every-row-of-a-variant|docs/tools/results.py|s/newest_rows\.pop\(setting, None\)  # so the dict keeps the file's order of the newest rows\n        newest_rows\[setting\] = row/newest_rows[(setting, id(row))] = row/|^report\.results\$"
  "knob-sweep-told-by-its-copy-time|docs/tools/results.py|s/if \"run\" in r or \"run\" in row:/if False:/|^report\.results\$"
  "measure-results-replaces-the-file|docs/results/measure.sh|s/    earlier=\(\"\\\$file\"\)/    earlier=()/|^report\.results\$"
  "targets-met-when-rounded|docs/tools/results.py|s/\(\"yes\" if value <= limit else \"no\"\)/(\"yes\" if round(value, 1) <= limit else \"no\")/|^report\.results\$"
  "estimate-drops-intermediate-bytes|app/image_input.cpp|s/if \(!v->intermediate_bytes\) continue;/continue;/|^bad_input\.MemoryPlan\."
  "a-knob-define-no-shader-reads|src/variants/sliding.h|s/( +)\/\/ No define: the host resolves the rows into the dispatch and the shader's SEGMENT\.\n/\$1.define = \"ROWS_KNOB\",\n/|^unit\.Registry\.EveryKnobDefineReachesAShader\$"
  "fuzz-dictionary-drops-a-knob|tests/fuzz/cli.dict|s/\"--weights\"\n//|^cli\.fuzz_dictionary\$"
  "print-kernel-weights-off|app/main.cpp|s/(std::printf\(\"%s%\.17g\", i \? \" \" : \"\", weights\[i\])\)/\$1 * 1.0001)/|^cli\.print_kernel\$"
  "sliding-subgroup-carry-not-added|glsl/compute_sliding_subgroup.comp|s/      sum \+= total\[u\];\n//|^gl\.compute-sliding-subgroup\.r7\$"
  "sliding-subgroup-leaving-texel-off-by-one|glsl/compute_sliding_subgroup.comp|s/load_walk\(ivec2\(x - SLIDE_RADIUS - 1, y\)\)/load_walk(ivec2(x - SLIDE_RADIUS, y))/|^gl\.compute-sliding-subgroup\.r7\$"
  "sliding-subgroup-later-segments-skip-the-warm-up|glsl/compute_sliding_subgroup.comp|s/  if \(walking\)\n    for \(int k = 0;/  if (walking \&\& start == 0)\n    for (int k = 0;/|^gl\.BoxWalks\.SubgroupWalksSeveralSegmentsPerLine\$"
  "fft2d-spectrum-scaled-by-1.01|glsl/effects/bloom_fft2d.comp|s/const float scale = 1\.0 \/ \(float\(NX\) \* float\(N\)\);/const float scale = 1.01 \/ (float(NX) * float(N));/|^gl\.BloomFft2d\.(TheShippedStar|TheLayerHolds)"
  "fft2d-padding-filled-with-the-frame|glsl/effects/bloom_fft2d.comp|s/p - N \+ origin : -1;\n      vec4 v = y >= 0/p - N + origin : p % rows;\n      vec4 v = y >= 0/|^gl\.BloomFft2d\.TheShippedStarMatchesTheGroundTruth\$"
  "fft2d-mirror-not-conjugated|glsl/effects/bloom_fft2d.comp|s/\+ cmul\(conj\(g_mirror\[o\]\), b1\)/+ cmul(g_mirror[o], b1)/|^gl\.BloomFft2d\.AColouredKernelSpreadsEachChannelByItsOwn\$"
  "fft2d-kernel-channels-swapped|glsl/effects/bloom_fft2d.comp|s/vec2 a1 = 0\.25 \* \(times_one_minus_i\(a\) \+ times_one_plus_i\(mirror\)\);/vec2 a1 = 0.25 * (times_one_plus_i(a) + times_one_minus_i(mirror));/|^gl\.BloomFft2d\.AColouredKernelSpreadsEachChannelByItsOwn\$"
  "psf-kernel-normalised-to-0.99|src/effects/bloom_kernel_image.cpp|s/k\.rgb\[i\] \/= total;/k.rgb[i] \/= 1.01 * total;/|^(unit\.BloomKernel\.|gl\.BloomFft2d\.TheLayerHolds)"
  "psf-image-of-any-format-taken|src/effects/bloom_kernel_image.cpp|s/if \(info\.format != ImageFormat::png \W\W /if (/|^bad_input\.Cli/BadArguments\.OneLineAndNoFile/psf_image_jpeg( |\$)"
  "window-kernel-keeps-the-border|src/ui/view_state.cpp|s/  if \(preset\.border\) s\.settings\.border = \*preset\.border;\n//|^unit\.EffectKeys\.KSwitchesBloomsKernelAmongTheShippedOnesWithWhatServesThem\$"
  "psf-image-without-light-taken|src/effects/bloom_kernel_image.cpp|s/if \(!\(total\[c\] > 0\.0\)\)\n/if (false)\n/|^unit\.BloomKernel\.AnImageWithNoLightIsRefused\$"
  "fft2d-bound-counts-rows-one-way|src/effects/bloom_fft2d.cpp|s/b\.fmas = 2\.0 \* \(2\.0 \* h \* row_transform\)/b.fmas = 1.0 * (2.0 * h * row_transform)/|^unit\.Fft2d\.OwnBoundCountedByHand\$"
  "fft2d-estimate-drops-the-spectrum|src/effects/bloom_fft2d.cpp|s/ \+ 2\.0 \* half\.x \* half\.y \* 16\.0 \+\n/ +\n/|^(unit\.Fft2d\.MemoryCountedByHand|bad_input\.MemoryPlan\.TheRunsEstimateCountsFft2ds)"
  "recipe-runner-binds-two-on-a-unit|tests/tools/run_recipe.cpp|s/if \(!\(image \? image_units : texture_units\)\.insert\(unit\)\.second\)/if (false)/|^export\.run_recipe_hostile\$"
  "recipe-runner-writes-any-target|tests/tools/run_recipe.cpp|s/  blurlab::check_output_target\(out, \"OUT\.png\"\);\n//|^(export\.run_recipe_hostile|bad_input\.RecipeRunner\.)"
  "recipe-runner-hands-any-shader-on|tests/tools/run_recipe.cpp|s/      blurlab::check_glsl_limits\(text, \{name\}\);\n//|^export\.run_recipe_hostile\$"
  "export-counters-as-a-data-file|src/blur/pipeline.cpp|s/if \(texture == &owner_\.counters_\) recorded\.zeros = true;\n *else //|^gl\.ExportStructures\/ExportEveryStructure\.RunsFromItsRecipeAlone\/dual_kawase"
  "fft-compiles-any-workgroup|src/variants/fft.cpp|s/constexpr int kMaxButterfliesPerInvocation = 16;/constexpr int kMaxButterfliesPerInvocation = 1 << 20;/|^bad_input\.ListModes\."
  "json-listing-exact-as-zero|app/list_variants.cpp|s/  if \(v\.tolerance_lsb == 0\) return \"exact\";\n//|^bad_input\.JsonListings\.VariantsAgreeWithTheRegistry\$"
  "human-listing-not-grouped|app/list_variants.cpp|s/      if \(v->family != f\.family\) continue;\n//|^bad_input\.JsonListings\.HumanListingGroupsByFamily\$"
  "json-refusals-without-reasons|app/list_refusals.cpp|s/refusal \? nlohmann::ordered_json\(refusal->reason\) : nlohmann::ordered_json\(\)/nlohmann::ordered_json()/|^bad_input\.JsonListings\.RefusalsMirrorTheHumanListing\$"
  "variant-names-no-family|src/variants/compute_sliding.cpp|s/    \.family = Family::RunningSums,\n//|^(unit\.Registry\.EveryVariantNamesItsFamily|cli\.variants_doc)\$"
  "list-refusals-lists-every-variant|app/list_refusals.cpp|s/                                                                    : o\.variants;/ : std::vector<const VariantInfo*>(variants().begin(), variants().end());/|^bad_input\.ListModes\."
  "list-modes-ignore-options|src/cli/options.cpp|s/  check_list_mode\(app, o\);\n//|^bad_input\.Cli\/BadArguments\.OneLineAndNoFile\/list_"
  "charts-prefix-leaves-out|docs/tools/charts.py|s/    check_plain_name\(args\.prefix, \"--prefix\"\)[^\n]*\n//|^report\.charts_bad_input\$"
  "sliding-subgroup-columns-drop-the-last-walk|src/variants/compute_sliding_subgroup.cpp|s/\(\(size\.y \+ cw - 1\) \/ cw\)/(size.y \/ cw)/|^gl\.compute-sliding-subgroup\.r7\$"
  "effect-export-every-stage-bakes-one-kernel|src/blur/pipeline.cpp|s/pass\.program\.kernel = owner_\.settings_\.kernel;/pass.program.kernel = Kernel{owner_.settings_.kernel.type, owner_.settings_.kernel.radius, 1.5};/|^(export\.effect\.bloom_compute_separable|gl\.EffectExport\.)"
  "effect-export-stage-barriers-by-its-own-tracker|src/blur/pass_runner.cpp|s/  recorder_ = &chain;/  (void)chain;/|^gl\.EffectExport\.OneRecordingOfEveryStageWithTheBarriersBetweenThem\$"
  "effect-export-depth-not-shipped|src/effects/effect_pipeline.cpp|s/frame_texture\(\"depth\", \*depth_, true\)/frame_texture(\"depth\", *depth_, false)/|^gl\.EffectExport\.DepthTravelsBesideTheColourAndTheRunnerChecksIt\$"
  "recipe-runner-takes-negative-radiance|tests/tools/run_recipe.cpp|s/\(component < 3 && v < 0\.0\)/(false \&\& v < 0.0)/|^export\.effect\.bloom_compute_separable\$"
  "recipe-runner-takes-any-depth|tests/tools/run_recipe.cpp|s/if \(!\(d >= 0\.0f && d <= 1\.0f\)\)/if (false)/|^gl\.EffectExport\.DepthTravelsBesideTheColourAndTheRunnerChecksIt\$"
  "older-results-rows-ranked|src/report/results_files.cpp|s/  if \(row\.code != code_digest\(row\.variant\)\)\n/  if (false)\n/|^unit\.Conclusion\.(ResultsRowsOlderThanTheCodeAreNotRanked|CarriedResultsRankOnlyRowsOfTodaysCode)\$"
  "code-digest-counts-comments|src/util/code_digest.cpp|s/      while \(i < s\.size\(\) && s\[i\] != '\\\\n'\) \+\+i;/      while (i < s.size() \&\& s[i] != '\\\\n') put(s.substr(i++, 1));/|^unit\.CodeDigest\."
  "frontier-names-an-unsettled-winner|docs/tools/charts.py|s/return fastest, \[p for p in ranked\[1:\] if reach >= p\[0\] - spread_ms\(p\[3\]\) \/ 2\]/return fastest, []/|^report\.charts_words\$"
  "progress-hides-its-first-lines|src/util/progress.cpp|s/  for \(const std::string& line : held_\) out_ << line << \"\\\\n\";\n//|^unit\.Progress\."
  "cpu-sizing-off-with-frames|app/cpu_rasterizer_sizing.cpp|s/const bool size_chosen = !o\.sizes\.empty\(\) \x7c\x7c !o\.image\.empty\(\);/const bool size_chosen = !o.sizes.empty() or !o.image.empty() or o.frames_given;/|^cli\.first_run_sizing\$"
  "export-fidelity-on-the-scene-only|app/export_blur.cpp|s/    fidelities\.push_back\(fidelity_on\(pipeline, \*row, \"the test chart/    if (false) fidelities.push_back(fidelity_on(pipeline, *row, \"the test chart/|^export\.dual-kawase\.choices\$"
  "export-holds-for-any-size|src/export/export.cpp|s/    return !unsupported_reason\(v, s, size, limits\) && program_sources\(v, s, size\) == made;/    return !unsupported_reason(v, s, size, limits);/|^export\.dual-kawase\.choices\$"
  "export-ships-every-branch|src/export/export.cpp|s/  if \(chosen\.unresolved\.empty\(\)\) return chosen\.text;/  if (false) return chosen.text;/|^export\.compute-separable\$"
  "kernel-gaussian-accepted|src/blur/kernel.cpp|s/if \(text == \"gauss\"\) return KernelType::Gauss;/if (text == \"gauss\" or text == \"gaussian\") return KernelType::Gauss;/|^unit\.Options\.KernelNamesAreTheHelpsOnly\$"
  "recursive-blocks-default-ignores-the-size|src/variants/recursive_gaussian_blocks.cpp|s/  k\.default_by_side = \{\{128 \* kMaxBlock \+ 1, \{256, 2\}\}, \{256 \* kMaxBlock \+ 1, \{512, 1\}\}\};\n//|^unit\.Settings\.RecursiveGaussianBlocksDefaultsRunAtTheLargeSizes\$"
  "time-of-the-first-frame|src/report/report.cpp|s/return stats_of\(it->second\)\.median;/return it->second.front();/|^unit\.Report\.TimesAreTheMedianOfTheFramesNotTheFirst\$"
  "check-tolerance-doubled|src/bench/measure.cpp|s/(    m\.tolerance = tolerance_for\(variant, m\.settings, m\.size, peak\);\n)/\$1    m.tolerance.lsb_limit *= 2;\n    m.tolerance.relative *= 2;\n    m.tolerance.absolute *= 2;\n/|^bad_input\.FailedCheck\.TwiceItsToleranceFails\$"
  "sliding-walk-formula-axes-swapped|src/variants/sliding.h|s/along = axis == 0 \? w : h, across = axis == 0 \? h : w;/along = axis == 0 ? h : w, across = axis == 0 ? w : h;/|^export\.compute-sliding\.tall\$"
  "sliding-transposed-second-pass-sized-untransposed|src/variants/compute_sliding.cpp|s/\{\.transposed_source = true, \.raw = io_raw\}/{.raw = io_raw}/|^gl\.BoxWalks\.SlidingWalksRawAndTransposed\$"
  "dual-kawase-stream-rows-past-the-last-clamped|glsl/dual_kawase.comp|s/  int y = n\.y \+ r;\n/  int y = min(n.y + r, source_size().y - 1);\n/|^gl\.DualKawase\.StreamedLastPass\$"
  "variable-sat-slots-share-a-unit|src/variants/variable_sat.cpp|s/SAT_HI\x22, 5, /SAT_HI\x22, 4, /|^unit\.Bindings\.EachOwnersSlotsDifferFromEachOtherAndFromTheGenericUnits\$"
  "fft-shader-binds-another-owners-slot|glsl/fft.comp|s/binding = BINDING_SPECTRUM\)/binding = BINDING_ATLAS)/|^(unit\.Bindings\.EachOwnersShadersNameOnlyItsUnits\$|glsl\.Glsl\/Variant\.ShadersValidate\/fft)"
  "pass-binds-one-unit-twice-unseen|src/blur/pass_runner.cpp|s/a\.unit\.number == b\.unit\.number\)/a.unit.number == b.unit.number \&\& a.unit.name == b.unit.name)/|^unit\.Bindings\.APassBindingOneUnitTwiceIsFound\$"
  "tuning-table-not-wrapped|src/bench/sweep.cpp|s/  table\.wrap_to\(report::kTableWidth, 1\);\n//|^unit\.Sweep\.TuningTableFitsItsWidthWhateverTheWinnersChange\$"
)

# Breaks that llvmpipe cannot show: it runs one dispatch at a time, so a missing barrier between
# dispatches changes nothing there. tests/gpu/pack.sh builds each (same fields; the tests are run
# on a GPU by tests/gpu/run.sh, which prints whether they went red); here --gpu-list prints them.
gpu_mutations=(
  "no-memory-barrier-in-the-tracker|src/gl/barriers.cpp|s/\[\]\(GLbitfield bits\) \{ glMemoryBarrier\(bits\); \}/[](GLbitfield bits) { (void)bits; }/|^(gl\.|image\.)"
  "sliding-subgroup-scan-exclusive|glsl/compute_sliding_subgroup.comp|s/v\[u\] = subgroupInclusiveAdd\(v\[u\]\);/v[u] = subgroupExclusiveAdd(v[u]);/|^gl\.BoxWalks\.SubgroupWalksSeveralSegmentsPerLine\$"
  "no-memory-barrier-in-the-recipe-runner|tests/tools/run_recipe.cpp|s/bits != 0\) glMemoryBarrier\(bits\);/bits != 0) (void)bits;/|^export\."
)
if [ "${1:-}" = "--gpu-list" ]; then
  printf '%s\n' "${gpu_mutations[@]}"
  exit 0
fi

tier=()  # ctest's selection of the tier the tests come from: every test, or the first tier's
tier_name=""
if [ "${1:-}" = "--tier" ]; then
  [ "${2:-}" = first ] || { echo "mutation: --tier takes 'first' (the full tier is the default)" >&2; exit 2; }
  tier=(-LE full)
  tier_name=" in the first tier"
  shift 2
fi

if [ "${1:-}" = "--list" ]; then
  for m in "${mutations[@]}"; do echo "${m%%|*}"; done
  exit 0
fi

# A name that is in no list would run nothing and end like a pass.
names=" $(for m in "${mutations[@]}"; do printf '%s ' "${m%%|*}"; done)"
for name in "$@"; do
  [[ "$names" == *" $name "* ]] || { echo "mutation: no mutation is named '$name' (--list names them)" >&2; exit 2; }
done

scratch=$(mktemp -d /tmp/blurlab-mutation.XXXXXX)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$scratch"' EXIT
git clone -q "$root" "$scratch/src"
cd "$scratch/src" || exit 1
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# Paths relative to the clone, so ccache finds what a build of the same files elsewhere left.
export CCACHE_BASEDIR=$scratch/src
jobs=${BUILD_JOBS:-$(nproc)}
echo "mutation: building $(git rev-parse --short HEAD) in $scratch"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null && cmake --build build -j"$jobs" >/dev/null ||
  { echo "mutation: the unmutated tree does not build" >&2; exit 1; }

selected=("$@")
results=()
status=0
for m in "${mutations[@]}"; do
  IFS='|' read -r name file edit tests <<<"$m"
  if [ ${#selected[@]} -gt 0 ] && [[ ! " ${selected[*]} " == *" $name "* ]]; then continue; fi
  git checkout -q -- .
  perl -0pi -e "$edit" "$file"
  if git diff --quiet; then
    results+=("STALE     $name ($file: the edit no longer applies)")
    status=1
    continue
  fi
  start=$SECONDS
  if ! cmake --build build -j"$jobs" >"$scratch/$name.build.log" 2>&1; then
    # A mutation that does not compile breaks nothing the tests could see: update it.
    results+=("STALE     $name (does not build: $scratch/$name.build.log)")
    status=1
    continue
  fi
  if (cd build && ctest -R "$tests" "${tier[@]}" -j"$jobs" >"$scratch/$name.log" 2>&1); then
    if grep -q "No tests were found" "$scratch/$name.log"; then
      if [ ${#tier[@]} -gt 0 ] && [ -n "$(cd build && ctest -N -R "$tests" | grep -E '^ *Test +#')" ]; then
        results+=("SURVIVED  $name: no test of $tests is in the first tier")
      else
        results+=("STALE     $name (no test matches $tests)")
      fi
    else
      results+=("SURVIVED  $name: $tests passed$tier_name with the break in place")
    fi
    status=1
  else
    failed=$(grep -cE "^\s*[0-9]+ - " "$scratch/$name.log")
    results+=("caught    $name: $failed of the tests $tests$tier_name failed ($((SECONDS - start)) s)")
  fi
  echo "${results[-1]}"
done
git checkout -q -- .
echo
printf '%s\n' "${results[@]}"
[ -n "${KEEP:-}" ] && echo "scratch clone and logs kept in $scratch"
exit $status
