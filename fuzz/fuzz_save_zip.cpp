// Fuzz target: ZIP structure of .save files. Parses the end records, central directory and
// local headers, reads every member under a cap (also with the deflate block index), splices
// an edited copy of each deflated member against its old stream and checks that it inflates
// to the edit, and checks that the writer's archive of what was read reads back the same.
#include <cstdint>
#include <cstdlib>
#include <span>

#include "formats/core/io.hpp"
#include "formats/stationeers/save.hpp"
#include "formats/stationeers/zip.hpp"
#include "lib/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::span<const uint8_t> in(data, size);
  voxkit::zip::MemorySource src(in);
  voxkit::zip::Archive a;
  try {
    a = voxkit::zip::read_archive(src);
  } catch (const voxkit::Error&) {
    return 0;
  }
  voxkit::zip::Writer w;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> members;
  for (const auto& e : a.entries) {
    if (e.local_offset + e.local.size() != e.data_offset || e.end_offset > a.cd_offset) std::abort();
    try {
      auto bytes = voxkit::zip::read_entry(src, e, voxkit::io::kDefaultMaxInput);
      if (bytes.size() != e.size) std::abort();
      voxkit::zip::DeflateIndex index;
      if (voxkit::zip::read_entry(src, e, voxkit::io::kDefaultMaxInput, &index) != bytes) std::abort();
      if (e.method == 8) {
        // Cut out the middle third and splice against the member's own stream.
        std::vector<uint8_t> now(bytes.begin(), bytes.begin() + long(bytes.size() / 3));
        now.insert(now.end(), bytes.begin() + long(2 * bytes.size() / 3), bytes.end());
        std::vector<uint8_t> stream(e.compressed_size);
        src.read(e.data_offset, stream);
        auto c = voxkit::zip::splice(stream, index, bytes, now,
                                     voxkit::zip::common_runs(bytes, now), 1);
        std::vector<uint8_t> back(now.size());
        auto st = voxkit::zip::inflate_raw(c.data, back);
        if (st.rc != 1 /* Z_STREAM_END */ || st.overflow || st.out_used != now.size() ||
            back != now || c.crc32 != voxkit::zip::crc32(now)) {
          std::abort();
        }
      }
      members.emplace_back(e.name, std::move(bytes));
    } catch (const voxkit::Error&) {
    }
  }
  for (auto& [name, bytes] : members) {
    if (name.size() > 0xffff) continue;
    voxkit::zip::Writer::Options o;
    o.method = bytes.size() % 2 ? 8 : 0;
    o.descriptor = bytes.size() % 3 == 0;
    w.add(name, bytes, o);
  }
  auto z = w.finish();
  auto listed = voxkit::save::list_members(z);
  if (listed.size() != members.size()) std::abort();
  for (size_t i = 0; i < members.size(); ++i) {
    voxkit::zip::Archive b = voxkit::zip::read_archive(voxkit::zip::MemorySource(z));
    if (voxkit::zip::read_entry(voxkit::zip::MemorySource(z), b.entries[i], voxkit::io::kDefaultMaxInput) !=
        members[i].second)
      std::abort();
  }
  return 0;
}
