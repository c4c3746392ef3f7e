// Image files: what decodes, to what, and what is refused. Fixtures are made byte by byte here
// (tests/fixtures/image_bytes.h), independently of blurlab's encoders.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "fixtures/image_bytes.h"
#include "image/image_file.h"
#include "util/error.h"

namespace blurlab {
namespace {

using namespace blurlab::test;

std::filesystem::path temp(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("blurlab_image_" + std::to_string(::getpid()) + "_" + name);
}

// The message decode_image throws for `bytes`, or "" when it decodes.
std::string refusal(const std::string& bytes) {
  try {
    decode_image(bytes, "x");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::string repeat(const std::string& pixel, int times) {
  std::string row;
  for (int i = 0; i < times; ++i) row += pixel;
  return row;
}

TEST(Image, PngRoundTripIsExactForRgba8) {
  Image image(7, 3);
  for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = static_cast<float>((i * 37) % 256 / 255.0);
  const auto path = temp("round.png");
  save_image(image, path);
  const LoadedImage back = load_image(path);
  ASSERT_EQ(back.image.width, 7);
  ASSERT_EQ(back.image.height, 3);
  EXPECT_EQ(to_rgba8(back.image), to_rgba8(image));
  EXPECT_EQ(back.info.bits_per_channel, 8);
  EXPECT_EQ(back.info.channels, 4);
  std::filesystem::remove(path);
}

TEST(Image, PngRoundTripIsExactFor16Bits) {
  Image image(5, 4);
  for (size_t i = 0; i < image.texels.size(); ++i) image.texels[i] = static_cast<float>((i * 4099 + 511) % 65536 / 65535.0);
  const LoadedImage back = decode_image(encode_image(image, ImageFormat::png, 16), "16-bit");
  EXPECT_EQ(back.info.bits_per_channel, 16);
  for (size_t i = 0; i < image.texels.size(); ++i) ASSERT_EQ(to_unorm16(back.image.texels[i]), to_unorm16(image.texels[i])) << i;
}

TEST(Image, Flat16BitPngKeepsEveryBit) {
  // A flat 511 once came out as 2 (cut to 8 bits). Made by hand: RGB, 16 bits, no alpha.
  const std::string png = png_file(3, 2, 16, 2, {repeat(be16(511) + be16(1) + be16(65535), 3), repeat(be16(511) + be16(1) + be16(65535), 3)});
  const LoadedImage loaded = decode_image(png, "flat");
  EXPECT_EQ(loaded.info.bits_per_channel, 16);
  EXPECT_EQ(describe(loaded.info), "16-bit RGB PNG");
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) {
      EXPECT_EQ(to_unorm16(loaded.image.at(x, y, 0)), 511);
      EXPECT_EQ(to_unorm16(loaded.image.at(x, y, 1)), 1);
      EXPECT_EQ(to_unorm16(loaded.image.at(x, y, 2)), 65535);
      EXPECT_EQ(loaded.image.at(x, y, 3), 1.0f);  // opaque where the file has no alpha
    }
}

TEST(Image, EveryPngColourTypeWidensToRgba) {
  // Gray 1-bit: 0 and 1 become 0 and 1.0.
  const LoadedImage gray1 = decode_image(png_file(3, 1, 1, 0, {std::string(1, '\xA0')}), "g1");  // bits 1, 0, 1
  EXPECT_EQ(gray1.image.at(0, 0, 0), 1.0f);
  EXPECT_EQ(gray1.image.at(1, 0, 1), 0.0f);
  EXPECT_EQ(gray1.image.at(2, 0, 2), 1.0f);
  EXPECT_EQ(describe(gray1.info), "1-bit gray PNG");
  // Gray + alpha, 8 bits.
  const LoadedImage gray_alpha = decode_image(png_file(1, 1, 8, 4, {std::string("\x40\x80", 2)}), "ga");
  EXPECT_EQ(to_rgba8(gray_alpha.image), (std::vector<uint8_t>{0x40, 0x40, 0x40, 0x80}));
  // Palette with transparency: index 1 is half-transparent green.
  const std::string plte = chunk("PLTE", std::string("\xff\x00\x00\x00\xff\x00", 6)) + chunk("tRNS", std::string("\xff\x80", 2));
  const LoadedImage palette = decode_image(png_file(2, 1, 8, 3, {std::string("\x00\x01", 2)}, plte), "palette");
  EXPECT_EQ(to_rgba8(palette.image), (std::vector<uint8_t>{255, 0, 0, 255, 0, 255, 0, 128}));
  // An RGB tRNS colour becomes alpha 0 there.
  const LoadedImage keyed = decode_image(png_file(2, 1, 8, 2, {std::string("\x01\x02\x03\x04\x05\x06", 6)},
                                                  chunk("tRNS", be16(4) + be16(5) + be16(6))), "keyed");
  EXPECT_EQ(to_rgba8(keyed.image), (std::vector<uint8_t>{1, 2, 3, 255, 4, 5, 6, 0}));
}

TEST(Image, InterlacedPngEqualsTheSameImageNotInterlaced) {
  const uint32_t w = 13, h = 11;
  const auto pixel = [](uint32_t x, uint32_t y) {
    return std::string{static_cast<char>(x * 19), static_cast<char>(y * 23), static_cast<char>(x * y), static_cast<char>(200 + x)};
  };
  std::vector<std::string> rows;
  for (uint32_t y = 0; y < h; ++y) {
    rows.emplace_back();
    for (uint32_t x = 0; x < w; ++x) rows.back() += pixel(x, y);
  }
  const LoadedImage plain = decode_image(png_file(w, h, 8, 6, rows), "plain");
  const LoadedImage interlaced = decode_image(interlaced_png_file(w, h, 8, 6, pixel), "interlaced");
  EXPECT_EQ(interlaced.image.texels, plain.image.texels);
  EXPECT_GT(interlaced.info.decoder_bytes_per_texel, 0);  // decoded whole before conversion
}

TEST(Image, GammaOneMeansLinear) {
  const std::string pixel(4, '\x10');
  EXPECT_TRUE(decode_image(png_file(1, 1, 8, 6, {pixel}), "plain").info.srgb_encoded);
  EXPECT_FALSE(decode_image(png_file(1, 1, 8, 6, {pixel}, chunk("gAMA", be32(100000))), "linear").info.srgb_encoded);
  EXPECT_TRUE(decode_image(png_file(1, 1, 8, 6, {pixel}, chunk("gAMA", be32(45455))), "2.2").info.srgb_encoded);
}

TEST(Image, DamagedCompressedDataIsRefusedEvenWithCorrectCrcs) {
  // libpng says "incorrect data check" for these; stb_image blurred them with exit code 0.
  const std::string good = valid_png();
  EXPECT_EQ(refusal(good), "");
  const size_t idat_at = good.find("IDAT");
  const uint32_t length = static_cast<uint32_t>(good.size() - idat_at - 4 - 4 - 12);  // less CRC and IEND
  for (size_t offset : {size_t{2}, size_t{length / 2}, size_t{length - 1}}) {  // the stream, its adler32
    std::string data = good.substr(idat_at + 4, length);
    data[offset] = static_cast<char>(data[offset] ^ 0x24);
    const std::string damaged = kPngSignature + ihdr(11, 7) + chunk("IDAT", data) + chunk("IEND", "");
    EXPECT_NE(refusal(damaged), "") << "byte " << offset << " of the IDAT data";
  }
}

TEST(Image, PaletteIndexesPastThePaletteAreRefused) {
  const std::string plte = chunk("PLTE", std::string("\xff\x00\x00\x00\xff\x00", 6));  // two colours
  EXPECT_EQ(refusal(png_file(3, 1, 8, 3, {std::string("\x00\x01\x00", 3)}, plte)), "");
  // Index 2 is one past the end (libpng 1.6.39's own check misses exactly this one), 200 far past.
  EXPECT_NE(refusal(png_file(3, 1, 8, 3, {std::string("\x00\x02\x00", 3)}, plte)).find("palette index 2"), std::string::npos);
  EXPECT_NE(refusal(png_file(3, 1, 8, 3, {std::string("\x00\x01\xc8", 3)}, plte)).find("palette index 200"), std::string::npos);
  // Packed 2-bit indexes, the last pixel's index 3.
  EXPECT_NE(refusal(png_file(4, 1, 2, 3, {std::string(1, '\x07')}, plte)).find("palette index 3"), std::string::npos);
}

TEST(Image, DamagedAncillaryChunksAreRefused) {
  // Chunks blurlab skips still have their CRCs checked (libpng would only warn).
  std::string text = chunk("tEXt", std::string("Comment\0hello", 13));
  text[10] ^= 1;
  EXPECT_NE(refusal(png_file(1, 1, 8, 6, {std::string(4, '\1')}, text)), "");
}

TEST(Image, WhatFollowsThePixelsIsCheckedToo) {
  const std::string head = kPngSignature + ihdr(11, 7) + idat(11, 7);
  EXPECT_EQ(refusal(head + chunk("IEND", "")), "");
  EXPECT_NE(refusal(head), "");                                // no IEND
  std::string text = chunk("tEXt", std::string("Comment\0hello", 13));
  text[10] ^= 1;
  EXPECT_NE(refusal(head + text + chunk("IEND", "")), "");  // a bad CRC after the pixels
  // The zlib stream's check value alone in a last IDAT chunk, damaged.
  const std::string data = zlib_compress(std::string(8 * (1 + 4 * 2), '\0'));
  const std::string split = kPngSignature + ihdr(2, 8) + chunk("IDAT", data.substr(0, data.size() - 4));
  std::string adler = data.substr(data.size() - 4);
  EXPECT_EQ(refusal(split + chunk("IDAT", adler) + chunk("IEND", "")), "");
  adler[3] ^= 1;
  EXPECT_NE(refusal(split + chunk("IDAT", adler) + chunk("IEND", "")), "");
}

TEST(Image, JpegDecodesCloseToWhatWasEncoded) {
  // Quality 100 without subsampling: YCbCr rounding and the DCT keep samples within 2 of a
  // smooth input.
  const auto ramp = [](int x, int y, int c) { return static_cast<uint8_t>(c == 0 ? 8 * x : c == 1 ? 8 * y : 100 + x + y); };
  for (bool progressive : {false, true}) {
    const LoadedImage loaded = decode_image(jpeg_file(24, 16, 3, ramp, 100, progressive), "ramp.jpg");
    EXPECT_EQ(describe(loaded.info), "8-bit RGB JPEG");
    ASSERT_EQ(loaded.image.width, 24);
    ASSERT_EQ(loaded.image.height, 16);
    for (int y = 0; y < 16; ++y)
      for (int x = 0; x < 24; ++x) {
        for (int c = 0; c < 3; ++c) ASSERT_NEAR(to_unorm8(loaded.image.at(x, y, c)), ramp(x, y, c), 2) << x << "," << y << " c" << c;
        ASSERT_EQ(loaded.image.at(x, y, 3), 1.0f);
      }
  }
  const LoadedImage gray = decode_image(jpeg_file(8, 8, 1, [](int, int, int) { return uint8_t{77}; }), "gray.jpg");
  EXPECT_EQ(describe(gray.info), "8-bit gray JPEG");
  EXPECT_EQ(to_rgba8(gray.image)[0], 77);
  EXPECT_EQ(to_rgba8(gray.image)[2], 77);
}

TEST(Image, DamagedOrUnsupportedJpegsAreRefused) {
  const auto ramp = [](int x, int y, int) { return static_cast<uint8_t>(x * 5 + y * 3); };
  const std::string good = jpeg_file(32, 32, 3, ramp);
  EXPECT_EQ(refusal(good), "");
  // Cut short: libjpeg warns and fills the rest with grey; a warning is an error here.
  EXPECT_NE(refusal(good.substr(0, good.size() * 2 / 3)), "");
  EXPECT_NE(refusal(good.substr(0, good.size() - 2)), "");  // no EOI
  EXPECT_NE(refusal(good.substr(0, 3)), "");
  EXPECT_NE(refusal(jpeg_file(8, 8, 4, ramp)).find("CMYK"), std::string::npos);
}

// A gray progressive JPEG with one scan per successive-approximation bit of every coefficient:
// 2 DC scans + 63 x (bits + 1) AC scans.
std::string jpeg_with_many_scans(int bits) {
  std::vector<jpeg_scan_info> script;
  script.push_back({1, {0}, 0, 0, 0, 1});
  script.push_back({1, {0}, 0, 0, 1, 0});
  for (int k = 1; k < 64; ++k) {
    script.push_back({1, {0}, k, k, 0, bits});
    for (int al = bits - 1; al >= 0; --al) script.push_back({1, {0}, k, k, al + 1, al});
  }
  return jpeg_file(8, 8, 1, [](int, int, int) { return uint8_t{100}; }, 75, false, &script);
}

TEST(Image, ProgressiveJpegsWithThousandsOfScansAreRefused) {
  // Each scan makes libjpeg go over the whole image again: a small file with very many scans is a
  // known way to spend minutes of CPU. libjpeg-turbo's own tools stop at 500.
  EXPECT_EQ(refusal(jpeg_with_many_scans(5)), "");  // 380 scans
  EXPECT_NE(refusal(jpeg_with_many_scans(9)).find("more than 500 progressive scans"), std::string::npos);  // 632
}

TEST(Image, HeaderCheckSeesTheNumbersBeforeDecoding) {
  const std::string png = png_file(3, 2, 16, 2, {std::string(18, '\1'), std::string(18, '\2')});
  ImageFileInfo seen;
  decode_image(png, "x", [&](const ImageFileInfo& info) { seen = info; });
  EXPECT_EQ(seen.width, 3);
  EXPECT_EQ(seen.height, 2);
  EXPECT_EQ(seen.bits_per_channel, 16);
  EXPECT_EQ(seen.file_bytes, png.size());
  // What it throws comes out as it is: a large file is refused from its header, whatever its pixels.
  const std::string huge = kPngSignature + ihdr(16384, 16384) + idat(1, 1) + chunk("IEND", "");
  EXPECT_THROW(decode_image(huge, "huge", [](const ImageFileInfo&) { throw UsageError("no"); }), UsageError);
  // Edges above the limit never reach the check.
  bool called = false;
  const std::string wide = kPngSignature + ihdr(16385, 1) + idat(1, 1) + chunk("IEND", "");
  EXPECT_NE(refusal(wide).find("16385x1"), std::string::npos);
  EXPECT_THROW(decode_image(wide, "wide", [&](const ImageFileInfo&) { called = true; }), Error);
  EXPECT_FALSE(called);
}

TEST(Image, FormatsAreFoundBySignatureNotByName) {
  const auto ramp = [](int x, int, int) { return static_cast<uint8_t>(x); };
  const auto path = temp("really_a_jpeg.png");
  std::ofstream(path, std::ios::binary) << jpeg_file(4, 4, 1, ramp);
  EXPECT_EQ(load_image(path).info.format, ImageFormat::jpeg);
  std::filesystem::remove(path);
  EXPECT_NE(refusal("BM" + std::string(60, '\3')).find("BMP"), std::string::npos);
  EXPECT_NE(refusal("GIF89a" + std::string(60, '\3')).find("GIF"), std::string::npos);
  EXPECT_NE(refusal("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n").find("Radiance HDR"), std::string::npos);
  EXPECT_NE(refusal(std::string("\0\0\0\x18" "ftypavif", 12)).find("HEIF/AVIF"), std::string::npos);
  EXPECT_NE(refusal("hello").find("not a PNG or JPEG"), std::string::npos);
  EXPECT_NE(refusal("").find("empty"), std::string::npos);
}

TEST(Image, OutputFormatComesFromTheExtension) {
  EXPECT_EQ(output_format("a.png", "--output"), ImageFormat::png);
  EXPECT_EQ(output_format("dir/a.PNG", "--output"), ImageFormat::png);
  EXPECT_EQ(output_format("a.jpg", "--output"), ImageFormat::jpeg);
  EXPECT_EQ(output_format("a.JPEG", "--output"), ImageFormat::jpeg);
  for (const char* bad : {"a.bmp", "a", "a.png.tmp", ".png"}) {
    try {
      output_format(bad, "--output");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("--output"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(encode_image(Image(1, 1), ImageFormat::jpeg, 16), Error);  // JPEG holds 8 bits
}

TEST(Image, JpegOutputDropsAlphaAndKeepsColour) {
  Image image(16, 8);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 16; ++x) {
      image.at(x, y, 0) = 0.8f;
      image.at(x, y, 1) = static_cast<float>(x / 15.0);
      image.at(x, y, 2) = 0.25f;
      image.at(x, y, 3) = 0.5f;
    }
  const auto path = temp("out.jpg");
  save_image(image, path);
  const LoadedImage back = load_image(path);
  EXPECT_EQ(back.info.format, ImageFormat::jpeg);
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 16; ++x) {
      // Quality 95 on a smooth ramp: within 3 of 255 steps.
      for (int c = 0; c < 3; ++c) EXPECT_NEAR(back.image.at(x, y, c), image.at(x, y, c), 3.0 / 255) << x << "," << y;
      EXPECT_EQ(back.image.at(x, y, 3), 1.0f);
    }
  std::filesystem::remove(path);
}

TEST(Image, UnitRounding) {
  EXPECT_EQ(to_unorm8(0.0), 0);
  EXPECT_EQ(to_unorm8(1.0), 255);
  EXPECT_EQ(to_unorm8(-3.0), 0);
  EXPECT_EQ(to_unorm8(7.0), 255);
  EXPECT_EQ(to_unorm8(0.5), 128);  // 127.5 rounds half away from zero
  EXPECT_EQ(to_unorm8(std::nan("")), 0);
  EXPECT_EQ(to_unorm16(511 / 65535.0), 511);
  EXPECT_EQ(to_unorm16(2.0), 65535);
  EXPECT_EQ(to_unorm16(std::nan("")), 0);
}

TEST(Image, BadFilesAreErrorsNotCrashes) {
  EXPECT_THROW(load_image(temp("missing.png")), Error);
  const auto empty = temp("empty.png");
  std::ofstream(empty).close();
  EXPECT_THROW(load_image(empty), Error);
  const auto text = temp("text.png");
  std::ofstream(text) << "hello, not a png";
  EXPECT_THROW(load_image(text), Error);
  // A valid PNG cut in half.
  const auto whole = temp("whole.png");
  save_image(Image(32, 32), whole);
  std::filesystem::resize_file(whole, std::filesystem::file_size(whole) / 2);
  EXPECT_THROW(load_image(whole), Error);
  EXPECT_THROW(load_image(std::filesystem::temp_directory_path()), Error);
  for (const auto& p : {empty, text, whole}) std::filesystem::remove(p);
}

TEST(Image, FailedWriteLeavesNoFile) {
  Image image(4, 4);
  const auto target = temp("nodir") / "out.png";
  EXPECT_THROW(save_image(image, target), Error);
  EXPECT_FALSE(std::filesystem::exists(target));
  const auto unknown = temp("out.bmp");
  EXPECT_THROW(save_image(image, unknown), Error);
  EXPECT_FALSE(std::filesystem::exists(unknown));
}

TEST(Image, FlipReversesRows) {
  Image image(1, 2);
  image.at(0, 0, 0) = 1.0f;
  const Image flipped = flipped_vertically(image);
  EXPECT_EQ(flipped.at(0, 1, 0), 1.0f);
  EXPECT_EQ(flipped.at(0, 0, 0), 0.0f);
}

}  // namespace
}  // namespace blurlab
