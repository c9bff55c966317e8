// Dig-zone RLE: the canonical encoder and a strict decoder (format in docs/formats/rle.md).
//
//   stream  = varint(sampleCount) token*
//   token   = varint((len << 1) | isRun) payload   payload = isRun ? 1 value byte : len bytes
//   varint  = unsigned LEB128, at most 5 bytes, value <= 2^31 - 1
//
// The encoder stores maximal runs of 8 or more equal bytes as run tokens and everything
// between them as one literal token, which gives the same bytes as the reference encoder.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace voxkit::rle {

inline constexpr size_t kMinRun = 8;
inline constexpr uint64_t kMaxCount = 0x7fffffffu;  // int32 in the reference implementation

// Appends the encoding of `samples` to `out`. Precondition: samples.size() <= kMaxCount.
void encode_append(std::span<const uint8_t> samples, std::vector<uint8_t>& out);
std::vector<uint8_t> encode(std::span<const uint8_t> samples);

// Reads the sample count at the start of `stream`; throws a data error on a bad varint.
// `header_bytes` receives the length of the count varint.
uint64_t read_count(std::span<const uint8_t> stream, size_t* header_bytes = nullptr);

// Decodes one stream that starts at stream[0] into `out`, whose size must equal the
// stream's sample count. Returns the number of stream bytes consumed (bytes after the
// stream, such as the next chunk in a blob, are not looked at). Throws a data error with
// the byte offset for every violation of the format.
size_t decode_into(std::span<const uint8_t> stream, std::span<uint8_t> out);

// A count is trusted before its tokens are read only up to a small multiple of the stream
// (kTrustedSamples + kTrustedRatio per stream byte): a decoder allocates that much on the
// header alone. A larger count must first be proven by a scan of the tokens, which costs at
// most 1/kTrustedRatio of the decode it protects.
inline constexpr uint64_t kTrustedSamples = uint64_t(1) << 20;
inline constexpr uint64_t kTrustedRatio = 64;

// Returns the sample count of the stream that starts at stream[0] once it is safe to allocate
// that many samples: the count is at most `max_samples`, and when it is over the trusted
// size the stream's tokens are checked to make up exactly that many samples (bytes after the
// last token are not looked at). Throws the data errors decode_into() would.
uint64_t proven_count(std::span<const uint8_t> stream, uint64_t max_samples);

// Decodes a whole stream: the count must be at most `max_samples` and proven by the tokens
// (proven_count) before the output is allocated, and the stream must end exactly where its
// last token ends.
std::vector<uint8_t> decode(std::span<const uint8_t> stream, uint64_t max_samples);

// What a stream is made of, from a full validation pass that writes no samples.
struct Stats {
  uint64_t samples = 0;
  uint64_t header_bytes = 0;  // length of the count varint
  uint64_t runs = 0, literals = 0;
  uint64_t run_samples = 0, literal_samples = 0;
  uint64_t tokens() const { return runs + literals; }
};

// Checks a whole stream by decode()'s rules (count at most `max_samples`, no bytes after the
// last token) without decoding it, and counts its tokens.
Stats scan(std::span<const uint8_t> stream, uint64_t max_samples = kMaxCount);

// Appends an unsigned LEB128 varint.
void put_varint(std::vector<uint8_t>& out, uint32_t v);

}  // namespace voxkit::rle
