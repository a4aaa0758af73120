// Checks the seed corpus of hf_frame_fuzz (userspace/fuzz/corpus/hf_frame,
// written by make_seeds.py) against the decoder: every frame of every seed
// is meant to be valid, so that the fuzzer starts past the decoder. A
// change of the wire version or layout that the seeds were not written
// again for fails here instead of silently starving the fuzzer.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

extern "C" {
#include "hf_train.h"
#include "hf_wire.h"
}

namespace {

std::vector<u8> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

u16 get16(const std::vector<u8>& b, size_t at) {
  return static_cast<u16>(b[at] << 8U | b[at + 1]);
}

}  // namespace

TEST(hf_frame_corpus, every_seed_frame_decodes_and_sums_to_zero) {
  const std::filesystem::path dir(HF_FRAME_CORPUS_DIR);
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  int seeds = 0;
  int frames = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::vector<u8> blob = read_file(entry.path());
    const std::string name = entry.path().filename().string();
    ASSERT_GE(blob.size(), 4U) << name;
    seeds++;
    size_t pos = 4;
    while (pos + 2 <= blob.size()) {
      const size_t len = get16(blob, pos) & 0x3fffU;
      pos += 2;
      ASSERT_LE(pos + len, blob.size()) << name << ": a record runs past the end";
      const std::vector<u8> frame(blob.begin() + static_cast<std::ptrdiff_t>(pos),
                                  blob.begin() + static_cast<std::ptrdiff_t>(pos + len));
      pos += len;
      frames++;
      hf_hdr h{};
      ASSERT_EQ(HF_WERR_OK, hf_hdr_decode(frame.data(), frame.size(), &h))
          << name << ": frame " << frames << " of version " << (frame.empty() ? 0 : frame[0] >> 4U);
      size_t covered = h.hlen;
      if (h.type == HF_TYPE_DATA && (h.flags & HF_DF_PACKED) != 0) {
        u32 n = 0;
        ASSERT_EQ(HF_WERR_OK, hf_train_check(&h, static_cast<u32>(frame.size() - h.hlen), &n))
            << name;
        covered = frame.size();
      } else if (h.type == HF_TYPE_DATA) {
        covered += h.data.seg_len;
      }
      EXPECT_EQ(0, hf_csum_fold(hf_csum_add(0, frame.data(), covered)))
          << name << ": frame " << frames << " checksum";
    }
  }
  EXPECT_GE(seeds, 8);
  EXPECT_GT(frames, seeds);
}
