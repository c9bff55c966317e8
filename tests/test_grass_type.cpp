// Grass types (lib/grass/grass_type, formats/grass/grass_type_io): GrassType.Of's defaults,
// Validate's refusals in the engine's order, DensityAt and GridOf (spec 5.1-5.3), the
// engine's two sample .vxgrass files, TOML and JSON round trips, and where bad input is
// reported (line, byte offset, key, expected, found).
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "formats/grass/grass_type_io.hpp"
#include "lib/core/error.hpp"
#include "lib/grass/grass_type.hpp"
#include "test_util.hpp"

using namespace voxkit;
using namespace voxkit::grass;

namespace {

std::string fixture(const std::string& name) { return std::string(VOXKIT_SOURCE_DIR) + "/test_data/grass/" + name; }

// The data error `f` throws.
template <class F>
Error data_error(F&& f) {
  auto e = test::thrown_error(std::forward<F>(f));
  REQUIRE(e);
  CHECK(e->kind() == ErrorKind::Data);
  return *e;
}

GrassType vx(const std::string& text, std::vector<std::string>* warnings = nullptr) {
  return decode_grass_type(text, GrassTypeSyntax::Vxgrass, "t.vxgrass", warnings);
}

void check_same(const GrassType& a, const GrassType& b) {
  CHECK(a.name == b.name);
  CHECK(a.mesh == b.mesh);
  CHECK(a.albedo == b.albedo);
  CHECK(a.layer == b.layer);
  CHECK(a.min_weight == b.min_weight);
  CHECK(a.max_weight == b.max_weight);
  CHECK(a.density == b.density);
  CHECK(a.jitter == b.jitter);
  CHECK(a.min_scale == b.min_scale);
  CHECK(a.max_scale == b.max_scale);
  CHECK(a.random_yaw == b.random_yaw);
  CHECK(a.align_to_normal == b.align_to_normal);
  CHECK(a.max_slope == b.max_slope);
  CHECK(a.start_cull_distance == b.start_cull_distance);
  CHECK(a.end_cull_distance == b.end_cull_distance);
  CHECK(a.wind.direction_x == b.wind.direction_x);
  CHECK(a.wind.direction_z == b.wind.direction_z);
  CHECK(a.wind.strength == b.wind.strength);
  CHECK(a.wind.frequency == b.wind.frequency);
  CHECK(a.wind.speed == b.wind.speed);
  CHECK(a.wind.flutter == b.wind.flutter);
  CHECK(a.wind.height == b.wind.height);
}

}  // namespace

TEST_CASE("GrassType.Of's defaults are the table of spec 5.1", "[grass][type]") {
  const GrassType t = default_type("Lawn");
  CHECK(t.name == "Lawn");
  CHECK(t.mesh.empty());
  CHECK(t.albedo.empty());
  CHECK(t.layer.empty());
  CHECK(t.min_weight == 0.15f);
  CHECK(t.max_weight == 0.6f);
  CHECK(t.density == 16.0f);
  CHECK(t.jitter == 0.8f);
  CHECK(t.min_scale == 0.7f);
  CHECK(t.max_scale == 1.3f);
  CHECK(t.random_yaw);
  CHECK(t.align_to_normal == 0.35f);
  CHECK(t.max_slope == float(M_PI) / 4.0f);
  CHECK(t.start_cull_distance == 30.0f);
  CHECK(t.end_cull_distance == 40.0f);
  CHECK(t.wind.direction_x == 1.0f);
  CHECK(t.wind.direction_z == 0.3f);
  CHECK(t.wind.strength == 0.12f);
  CHECK(t.wind.frequency == 0.35f);
  CHECK(t.wind.speed == 1.4f);
  CHECK(t.wind.flutter == 0.03f);
  CHECK(t.wind.height == 0.6f);
  CHECK_FALSE(validate(t));
  CHECK_FALSE(needs_weight(t));
  const GrassWind still = still_wind();
  CHECK((still.direction_x == 1 && still.direction_z == 0 && still.strength == 0 && still.frequency == 0.1f &&
         still.speed == 1 && still.flutter == 0 && still.height == 1));
}

TEST_CASE("validate refuses in the engine's order", "[grass][type]") {
  GrassType t = zero_type();
  t.max_scale = -1;
  t.max_weight = -1;
  t.end_cull_distance = -1;
  const auto next = [&](const char* words) {
    const auto why = validate(t);
    REQUIRE(why);
    CHECK_THAT(*why, Catch::Contains(words));
  };
  next("needs a name");
  t.name = "   ";
  next("needs a name");  // blank is no name either
  t.name = "Lawn";
  next("candidate density of 0");
  t.density = -2;
  next("candidate density of -2");
  t.density = 4;
  next("scales between 0 and -1");
  t.min_scale = 1;
  next("scales between 1 and -1");
  t.max_scale = 1;  // min = max is a range
  next("weights 0 and -1");
  t.max_weight = 0;
  next("starts fading at 0 m and is gone by -1 m");
  t.end_cull_distance = 0;
  next("needs a direction");
  t.wind.direction_z = 0.5f;
  next("reference height is 0");
  t.wind.height = std::nanf("");
  next("reference height");
  t.wind.height = 0.1f;
  CHECK_FALSE(validate(t));
}

TEST_CASE("density_at is the guarded smoothstep of spec 5.2", "[grass][type]") {
  GrassType t = default_type("Lawn");
  CHECK(density_at(t, 0.0f) == 1.0f);  // no layer: everywhere
  t.layer = "Grass";
  CHECK(density_at(t, 0.3f) == Approx(0.259259).margin(1e-6));
  CHECK(density_at(t, 0.375f) == Approx(0.5).margin(1e-6));
  CHECK(density_at(t, 0.5f) == Approx(0.8738).margin(1e-4));
  CHECK(density_at(t, 0.6f) == 1.0f);
  CHECK(density_at(t, 0.9f) == 1.0f);
  CHECK(density_at(t, 0.15f) == 0.0f);
  CHECK(density_at(t, 0.0f) == 0.0f);
  // min = max: the 1e-4 guard makes a step, defined everywhere.
  t.min_weight = t.max_weight = 0.5f;
  CHECK(density_at(t, 0.49f) == 0.0f);
  CHECK(density_at(t, 0.5f) == 0.0f);
  CHECK(density_at(t, 0.5001f) == Approx(1.0).margin(1e-3));
  CHECK(density_at(t, 0.51f) == 1.0f);
  CHECK(std::isfinite(density_at(t, 0.50005f)));
}

TEST_CASE("grid_side rounds half to even and never goes below 1", "[grass][type]") {
  GrassType t = default_type("Lawn");
  CHECK(grid_side(t, 32.0f) == 128);  // 32 * sqrt(16)
  t.density = 0.25f;                   // sqrt = 0.5 exactly
  CHECK(grid_side(t, 5.0f) == 2);      // 2.5 -> 2
  CHECK(grid_side(t, 7.0f) == 4);      // 3.5 -> 4
  CHECK(grid_side(t, 3.0f) == 2);      // 1.5 -> 2
  CHECK(grid_side(t, 1.0f) == 1);      // 0.5 -> 0, then at least 1
  t.density = 0;
  CHECK(grid_side(t, 32.0f) == 1);
  t.density = -4;
  CHECK(grid_side(t, 32.0f) == 1);
  t.density = 16;
  CHECK(grid_side(t, 0.0f) == 1);
  CHECK(grid_side(t, -8.0f) == 1);
}

TEST_CASE("the engine's Meadow.vxgrass reads with its values", "[grass][vxgrass]") {
  std::vector<std::string> warnings;
  const GrassType t = read_grass_type(fixture("Meadow.vxgrass"), &warnings);
  CHECK(warnings.empty());
  CHECK(t.name == "Meadow");
  CHECK(t.layer == "Grass");
  CHECK(t.mesh.empty());
  CHECK(t.albedo.empty());
  CHECK(t.min_weight == 0.15f);
  CHECK(t.max_weight == 0.6f);
  CHECK(t.density == 24.0f);
  CHECK(t.jitter == 0.8f);
  CHECK(t.min_scale == 0.7f);
  CHECK(t.max_scale == 1.3f);
  CHECK(t.random_yaw);
  CHECK(t.align_to_normal == 0.35f);
  CHECK(t.max_slope == 0.8f);
  CHECK(t.start_cull_distance == 30.0f);
  CHECK(t.end_cull_distance == 42.0f);
  CHECK(t.wind.direction_x == 1.0f);
  CHECK(t.wind.direction_z == 0.3f);
  CHECK(t.wind.strength == 0.12f);
  CHECK(t.wind.frequency == 0.35f);
  CHECK(t.wind.speed == 1.4f);
  CHECK(t.wind.flutter == 0.03f);
  CHECK(t.wind.height == 0.6f);
}

TEST_CASE("the engine's Outskirts.vxgrass reads with its values", "[grass][vxgrass]") {
  const GrassType t = read_grass_type(fixture("Outskirts.vxgrass"));
  CHECK(t.name == "Outskirts");
  CHECK(t.layer == "Grass");
  CHECK(t.albedo == "vx:6a17bc2149f845118f5497862fa98c7e");
  CHECK(t.min_weight == 0.2f);
  CHECK(t.max_weight == 0.7f);
  CHECK(t.density == 18.0f);
  CHECK(t.jitter == 0.85f);
  CHECK(t.min_scale == 0.8f);
  CHECK(t.max_scale == 1.4f);
  CHECK(t.align_to_normal == 0.4f);
  CHECK(t.max_slope == 0.7f);
  CHECK(t.start_cull_distance == 38.0f);
  CHECK(t.end_cull_distance == 55.0f);
  CHECK(t.wind.direction_z == 0.25f);
  CHECK(t.wind.strength == 0.14f);
  CHECK(t.wind.frequency == 0.3f);
  CHECK(t.wind.speed == 1.6f);
  CHECK(t.wind.flutter == 0.035f);
  CHECK(t.wind.height == 0.55f);
  CHECK(grid_side(t, 32.0f) == 136);  // 32 * sqrt(18) = 135.76
}

TEST_CASE(".vxgrass: missing keys stay zero, unknown keys are warnings", "[grass][vxgrass]") {
  std::vector<std::string> warnings;
  const GrassType t = vx("name: Bare\ntintRange: 0.2\nwind:\n  strength: 2\n  gust: 1\n", &warnings);
  CHECK(t.name == "Bare");
  CHECK(t.density == 0);
  CHECK(t.min_scale == 0);
  CHECK(t.max_slope == 0);
  CHECK_FALSE(t.random_yaw);
  CHECK(t.wind.strength == 2);
  CHECK(t.wind.direction_x == 0);
  CHECK(t.wind.height == 0);
  REQUIRE(warnings.size() == 2);
  CHECK_THAT(warnings[0], Catch::Contains("line 2") && Catch::Contains("'tintRange'"));
  CHECK_THAT(warnings[1], Catch::Contains("line 5") && Catch::Contains("'wind.gust'"));
  // parse_grass_type validates: a zero density is the engine's refusal, naming the file.
  const Error e = data_error([] { parse_grass_type("name: Bare\n", GrassTypeSyntax::Vxgrass, "bare.vxgrass", nullptr); });
  CHECK(e.source() == "bare.vxgrass");
  CHECK_THAT(e.what(), Catch::Contains("refuses") && Catch::Contains("'Bare' has a candidate density of 0"));
  std::vector<std::string> none;
  CHECK(vx("# nothing\n\n", &none).density == 0);
  CHECK(none.size() == 1);
  // At most kMaxGrassTypeWarnings, then one that counts the rest.
  std::string many;
  for (int i = 0; i < 100; ++i) many += "extra" + std::to_string(i) + ": 1\n";
  std::vector<std::string> capped;
  vx(many, &capped);
  REQUIRE(capped.size() == kMaxGrassTypeWarnings + 1);
  CHECK(capped.back() == "36 more warnings like these were left out");
}

TEST_CASE(".vxgrass: PascalCase and any case, quotes, comments, booleans, BOM and CRLF", "[grass][vxgrass]") {
  const GrassType t = vx(
      "\xef\xbb\xbf---\r\n"
      "Name: 'It''s # grass'   # a comment\r\n"
      "LAYER: \"Gr\\u00e4s\"\r\n"
      "density: \"24\"\r\n"
      "minScale: +.5\r\n"
      "maxScale: 2.\r\n"
      "randomYaw: yes\r\n"
      "wind:   # the wind\r\n"
      "    Direction: 0.5, 2\r\n"
      "    HEIGHT: 1e0\r\n");
  CHECK(t.name == "It's # grass");
  CHECK(t.layer == "Gr\xc3\xa4s");
  CHECK(t.density == 24);
  CHECK(t.min_scale == 0.5f);
  CHECK(t.max_scale == 2.0f);
  CHECK(t.random_yaw);
  CHECK(t.wind.direction_x == 0.5f);
  CHECK(t.wind.direction_z == 2.0f);
  CHECK(t.wind.height == 1.0f);
  // One number of a direction: the other is zero (the engine's MathScalars tolerate too few).
  CHECK(vx("wind:\n  direction: 3\n").wind.direction_z == 0);
  CHECK(vx("name: ~\nlayer: null\n").name.empty());
  CHECK(vx("randomYaw: off\n").random_yaw == false);
  CHECK(vx("density: 1e-60\n").density == 0);  // underflow is zero, as in .NET
}

TEST_CASE(".vxgrass: bad input names the line, the offset, the key, expected and found", "[grass][vxgrass]") {
  const auto check = [](const std::string& text, size_t offset, std::vector<const char*> words) {
    const Error e = data_error([&] { vx(text); });
    CHECK(e.source() == "t.vxgrass");
    REQUIRE(e.offset());
    CHECK(*e.offset() == offset);
    for (const char* w : words) CHECK_THAT(e.what(), Catch::Contains(w));
  };
  check("name: A\ndensity: lots\n", 17, {"line 2", "key 'density'", "not a number", "a finite number", "'lots'"});
  check("name: A\ndensity: 1e39\n", 17, {"too large for a 32-bit float"});
  check("density: .inf\n", 9, {"not a number"});
  check("density: NaN\n", 9, {"not a number"});
  check("density: 1,000\n", 9, {"not a number"});
  check("density:\n", 8, {"no value", "nothing"});
  check("randomYaw: maybe\n", 11, {"not true or false", "'maybe'"});
  check("wind:\n  direction: 1 2 3\n", 19, {"key 'wind.direction'", "more than two numbers"});
  check("wind:\n  direction: 1 x\n", 21, {"'x'"});
  check("wind: 3\n", 6, {"not a mapping"});
  check("wind:\n", 5, {"not a mapping", "nothing"});
  check("density: 1\ndensity: 2\n", 11, {"line 2", "a second value for Density", "line 1 set it already"});
  check("density: 1\nDensity: 2\n", 11, {"a second value for Density"});
  check("wind:\n\tstrength: 1\n", 6, {"a tab in the indentation"});
  check("wind:\n  gust:\n    level: 1\n", 18, {"line 3", "nesting deeper than the wind mapping"});
  check("wind:\n    speed: 1\n  height: 1\n", 21, {"matches neither"});
  check("name: A\n  more: 1\n", 10, {"indented under a key that has a value"});
  check("  name: A\nlayer: B\n", 10, {"line 2", "layer"});
  check("- name: A\n", 0, {"a sequence is not part of the .vxgrass subset"});
  check("name: [a, b]\n", 6, {"a flow collection"});
  check("name: |\n", 6, {"a block scalar"});
  check("name: &a x\n", 6, {"an anchor"});
  check("name: \"open\n", 6, {"does not end on its line"});
  check("name: 'a' b\n", 10, {"text after a quoted value"});
  check("name: a: b\n", 7, {"a second ':'"});
  check("just words\n", 0, {"not a KEY: VALUE line"});
  check("name: a\x01\n", 7, {"a control byte"});
  check("name: \xff\n", 6, {"not UTF-8"});
  check("name: A\n---\n", 8, {"a second document"});
  check("'name': A\n", 0, {"a quoted key"});
  check("name: \"\\q\"\n", 7, {"an escape this reader does not take"});
  check("density: 4\nmaxScale:\n  x: 1\n", 11, {"MaxScale is not a mapping"});
  const std::string long_line = "name: " + std::string(kMaxVxgrassLine, 'a') + "\n";
  check(long_line, 0, {"a line longer than the reader's limit", "at most 65536 bytes"});
  const Error big = data_error([] {
    vx(std::string(kMaxGrassTypeBytes + 1, '#'));
  });
  CHECK_THAT(big.what(), Catch::Contains("too large"));
}

TEST_CASE("TOML and JSON read PascalCase, default what is missing and round-trip", "[grass][toml][json]") {
  const GrassType meadow = read_grass_type(fixture("Meadow.vxgrass"));
  GrassType odd = read_grass_type(fixture("Outskirts.vxgrass"));
  odd.name = "Tab\there \"quoted\" \\ and \xc3\xa4";
  odd.mesh = "blade\n";
  odd.random_yaw = false;
  odd.min_weight = 1e-7f;
  odd.max_slope = 0.785398185f;
  odd.wind.direction_x = -0.0f;
  for (const GrassType& t : {meadow, odd, default_type("Lawn")}) {
    const std::string toml = write_grass_type_toml(t);
    const std::string json = write_grass_type_json(t);
    check_same(decode_grass_type(toml, GrassTypeSyntax::Toml, "t.toml", nullptr), t);
    check_same(decode_grass_type(json, GrassTypeSyntax::Json, "t.json", nullptr), t);
    CHECK(detect_syntax(toml) == GrassTypeSyntax::Toml);
    CHECK(detect_syntax(json) == GrassTypeSyntax::Json);
  }
  CHECK_THAT(write_grass_type_toml(meadow), Catch::Contains("Density = 24.0\n") && Catch::Contains("[Wind]\nDirection = [1.0, 0.3]\n"));
  CHECK_THAT(write_grass_type_json(meadow), Catch::Contains("\"Density\": 24.0,") && Catch::Contains("\"Direction\": [1.0, 0.3],"));

  // Missing keys take GrassType.Of's defaults, in the wind too.
  const GrassType a = decode_grass_type("Name = \"A\"\nDensity = 9\n[Wind]\nStrength = 0.5\n", GrassTypeSyntax::Toml, "a.toml", nullptr);
  GrassType want = default_type("A");
  want.density = 9;
  want.wind.strength = 0.5f;
  check_same(a, want);
  const GrassType b = decode_grass_type("Name = \"A\"\nDensity = 9.0\nWind = { Strength = 0.5 }\n", GrassTypeSyntax::Toml, "a.toml", nullptr);
  check_same(b, want);
  const GrassType c = decode_grass_type("{\"Name\": \"A\", \"Density\": 9, \"Wind\": {\"Strength\": 0.5}}", GrassTypeSyntax::Json, "a.json", nullptr);
  check_same(c, want);

  // Files: the syntax by the extension, else by the content.
  test::TempDir dir;
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"a.toml", write_grass_type_toml(meadow)}, {"a.JSON", write_grass_type_json(meadow)},
           {"a.txt", write_grass_type_toml(meadow)}, {"b.txt", write_grass_type_json(meadow)}}) {
    std::ofstream(dir.file(name)) << text;
    check_same(read_grass_type(dir.file(name)), meadow);
  }
  std::ofstream(dir.file("c.txt")) << "name: C\ndensity: 4\nminScale: 1\nmaxScale: 1\nwind:\n  direction: 1 0\n  height: 1\n";
  CHECK(read_grass_type(dir.file("c.txt")).name == "C");
  CHECK(syntax_of_extension("x/Meadow.VXGRASS") == GrassTypeSyntax::Vxgrass);
  CHECK_FALSE(syntax_of_extension("x.d/Meadow"));
}

TEST_CASE("TOML and JSON: unknown keys and wrong types are errors with line and offset", "[grass][toml][json]") {
  const auto check = [](const std::string& text, GrassTypeSyntax s, size_t offset, std::vector<const char*> words) {
    const Error e = data_error([&] { decode_grass_type(text, s, "t", nullptr); });
    REQUIRE(e.offset());
    CHECK(*e.offset() == offset);
    for (const char* w : words) CHECK_THAT(e.what(), Catch::Contains(w));
  };
  const auto T = GrassTypeSyntax::Toml;
  const auto J = GrassTypeSyntax::Json;
  check("Name = \"A\"\nDensty = 4\n", T, 11, {"line 2", "key 'Densty'", "an unknown key", "'Densty'", "did you mean Density?"});
  check("name = \"A\"\n", T, 0, {"an unknown key", "did you mean Name?", "one of Name, Mesh"});  // case matters in TOML and JSON
  check("Name = \"A\"\nDensity = \"4\"\n", T, 21, {"line 2", "key 'Density'", "a finite number", "the string '4'"});
  check("Density = inf\n", T, 10, {"not finite"});
  check("Density = nan\n", T, 10, {"not finite"});
  check("Density = 1e39\n", T, 10, {"not finite as a 32-bit float"});
  check("RandomYaw = 1\n", T, 12, {"true or false"});
  check("Name = 3\n", T, 7, {"not a string"});
  check("[Wind]\nDirection = [1, 2, 3]\n", T, 19, {"line 2", "Wind.Direction", "an array of 3"});
  check("[Wind]\nDirection = [1, \"x\"]\n", T, 23, {"Wind.Direction[1]"});
  check("[Wind]\nGust = 1\n", T, 7, {"Wind.Gust", "an unknown key"});
  check("Wind = 3\n", T, 7, {"a table"});
  check("Name = \"A\"\nDensity = \n", T, 21, {"line 2", "not valid TOML"});
  check("Name = \"A\"\nDensity = x\n", T, 21, {"line 2", "not valid TOML"});
  check("Name = \"\xc3\xa4\" x\n", T, 12, {"line 1", "not valid TOML"});  // columns are code points

  check("{\"Name\": \"A\",\n \"Densty\": 4}", J, 15, {"line 2", "key 'Densty'", "an unknown key"});
  check("{\"Name\": \"A\",\n \"Density\": \"4\"}", J, 26, {"line 2", "key 'Density'", "a finite number", "\"4\""});
  check("{\"Density\": 1e39}", J, 12, {"too large for a 32-bit float"});
  check("{\"Density\": 1e400}", J, 12, {"out of range"});
  check("{\"Density\": 1, \"Density\": 2}", J, 15, {"a key given twice"});
  check("{\"Wind\": {\"Direction\": [1]}}", J, 23, {"Wind.Direction", "an array of 1"});
  check("{\"Wind\": {\"Gust\": 1}}", J, 10, {"Wind.Gust", "one of Direction, Strength"});
  check("{\"Wind\": {\"Speeed\": 1}}", J, 10, {"did you mean Speed?"});
  check("{\"Wind\": []}", J, 9, {"not an object"});
  check("{\"RandomYaw\": \"yes\"}", J, 14, {"true or false"});
  check("[1, 2]", J, 0, {"a JSON object"});
  check("{\"Name\": \"A\",\n\"Density\": }", J, 25, {"line 2", "not valid JSON"});
  check(std::string(100, '['), J, 32, {"nested deeper"});
  // A key written with an escape is still the key.
  CHECK(decode_grass_type("{\"\\u0044ensity\": 5}", J, "t", nullptr).density == 5);
}

TEST_CASE("grass types: every truncation and extra bytes read or are data errors", "[grass][vxgrass][toml][json]") {
  const std::string meadow = [] {
    std::ifstream f(fixture("Meadow.vxgrass"), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }();
  const GrassType t = parse_grass_type(meadow, GrassTypeSyntax::Vxgrass, "m", nullptr);
  const std::pair<GrassTypeSyntax, std::string> texts[] = {{GrassTypeSyntax::Vxgrass, meadow},
                                                          {GrassTypeSyntax::Toml, write_grass_type_toml(t)},
                                                          {GrassTypeSyntax::Json, write_grass_type_json(t)}};
  for (const auto& [syntax, text] : texts) {
    size_t read = 0;
    for (size_t n = 0; n <= text.size(); ++n) {
      try {
        (void)decode_grass_type(std::string_view(text).substr(0, n), syntax, "cut", nullptr);
        ++read;
      } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Data);
        CHECK(e.offset().value_or(0) <= n);
      }
    }
    CHECK(read > 0);
  }
  // Extra bytes after a whole document.
  CHECK_THROWS_AS(decode_grass_type(write_grass_type_json(t) + "}", GrassTypeSyntax::Json, "x", nullptr), Error);
  CHECK_THROWS_AS(decode_grass_type(write_grass_type_toml(t) + "]", GrassTypeSyntax::Toml, "x", nullptr), Error);
  CHECK_THROWS_AS(decode_grass_type(meadow + "\x01", GrassTypeSyntax::Vxgrass, "x", nullptr), Error);
}
