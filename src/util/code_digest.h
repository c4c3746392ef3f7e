#pragma once
// What made a measurement: the code of the variant that ran it, as a digest. A results file's row
// (docs/results/) holds for today's program only while the variant's code is the code that timed
// it; the digest says whether it is. A variant's code is its C++ file (src/variants/<id>.cpp), the
// helpers of src/variants/ it includes (a header and the .cpp of the same name), the shaders those
// name (glsl/<name>.comp, .frag, .vert) and every file the shaders #include; comments and the
// amount of white space are not code, so a comment edited leaves the digest as it was; nor is the
// line of its VariantInfo naming its family (`.family = ...`), which only groups it in listings.
// The build computes each variant's digest from the source tree (src/code_digests_main.cpp), and
// docs/tools/results.py asks the same program about another tree.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blurlab {

// `source` (C++ or GLSL) without its comments, each line's runs of white space made one space,
// trimmed, and blank lines left out. String and character literals are kept as they are (a "//"
// inside one is no comment).
std::string code_text(std::string_view source);

// The variants of src/blur/registry.cpp's list, by their ids ("compute_separable_regblock"), in its order.
std::vector<std::string> registry_ids(std::string_view registry_cpp);

// The files of a variant's code (paths relative to the tree, "src/variants/fft.cpp",
// "glsl/blur_common.glsl"), sorted; `read` gives a file's text or nullopt where the tree has none.
using ReadTreeFile = std::function<std::optional<std::string>(const std::string& path)>;
std::vector<std::string> variant_code_files(const std::string& id, const ReadTreeFile& read);

// The digest of a variant's code: 16 hex digits (zlib's CRC-32 and Adler-32 of its files' paths
// and code_text()). Throws Error when the variant's C++ file or a file it names is missing.
std::string variant_code_digest(const std::string& id, const ReadTreeFile& read);

// The variant's name in the registry from its id: "compute_separable_regblock" ->
// "compute-separable-regblock".
std::string variant_name_of_id(std::string_view id);

}  // namespace blurlab
