// Data-error messages: input bytes escaped, one line each.
#include <catch2/catch.hpp>

#include <string>

#include "formats/io.hpp"
#include "formats/png.hpp"
#include "formats/region_grid.hpp"
#include "formats/save.hpp"
#include "formats/sm_chunk.hpp"
#include "formats/sm_chunk_batch.hpp"
#include "formats/splat.hpp"
#include "formats/terrain_base.hpp"
#include "formats/world_xml.hpp"
#include "formats/zip.hpp"
#include "lib/base64.hpp"
#include "lib/error.hpp"
#include "lib/lz4_block.hpp"
#include "lib/preview.hpp"
#include "tests/test_util.hpp"

using namespace voxkit;
using Bytes = std::vector<uint8_t>;

TEST_CASE("input bytes in a message are escaped: one line, no control bytes", "[messages]") {
  Error e(ErrorKind::Data, "bad name 'a\nb\x01\x1b[2J\x7f\xff'", 4, "'x\ty'", "\r");
  e.set_source("dir/f\nile.xml");
  CHECK(std::string(e.what()) ==
        "dir/f\\nile.xml: offset 4: bad name 'a\\nb\\x01\\x1b[2J\\x7f\\xff' (expected "
        "'x\\x09y', found \\x0d)");
  // Valid UTF-8 stays readable; a lone continuation byte, an overlong form, a truncated
  // sequence and a C1 control are escaped.
  CHECK(std::string(Error(ErrorKind::Data, "caf\xc3\xa9 \xe2\x82\xac").what()) ==
        "caf\xc3\xa9 \xe2\x82\xac");
  CHECK(std::string(Error(ErrorKind::Data, "\x80 \xc0\xaf \xe2\x82 \xc2\x9b").what()) ==
        "\\x80 \\xc0\\xaf \\xe2\\x82 \\xc2\\x9b");
  // Escaping twice changes nothing: a message wrapped in another stays as it was.
  const std::string once = escape_text("a\nb\xff\\x41");
  CHECK(once == "a\\nb\\xff\\x41");
  CHECK(escape_text(once) == once);
}

TEST_CASE("a note ends the message and keeps offset, expected and found", "[messages]") {
  Error e(ErrorKind::Data, "bad byte", 7, "0x00", "0x01");
  e.add_note("read as lz4");
  e.set_source("f");
  CHECK(std::string(e.what()) == "f: offset 7: bad byte (expected 0x00, found 0x01) [read as lz4]");
  CHECK(e.reason() == "bad byte");
  CHECK(e.offset() == 7u);
}
