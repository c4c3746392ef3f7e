// raw_images.glsl: the source and the destination bound raw (Binding::read_raw, write_raw): as
// unsigned-integer images of the texel's size (r32ui for rgba8, rg32ui for rgba16f, rgba32ui for
// rgba32f), read and written as bits, with no format conversion. For moving texels unchanged
// (copy); a blur reads through source_image.glsl instead.
layout(SRC_RAW_FORMAT, binding = 0) uniform restrict readonly uimage2D u_src_raw;
layout(DST_RAW_FORMAT, binding = 1) uniform restrict writeonly uimage2D u_dst_raw;
