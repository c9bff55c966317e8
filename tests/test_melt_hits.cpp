// Hits files of `voxkit melt` (CSV and JSON) and hardness lists: what they read, where bad
// input is reported (line, offset, column, expected, found), and write -> read round trips.
#include <catch2/catch.hpp>

#include <string>

#include "formats/ice/melt_hits.hpp"
#include "lib/core/error.hpp"

using namespace voxkit;
using namespace voxkit::ice;

namespace {

// The message of the data error `f` throws.
template <class F>
std::string data_error(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::Data);
    return e.what();
  }
  FAIL("no error");
  return {};
}

}  // namespace

TEST_CASE("melt hits CSV reads amounts and formula inputs, with comments, blanks and CRLF", "[melt][hits]") {
  const std::string text =
      "# a jet\r\n"
      "x, y, z, radius, amount, power, temperature, dt, brake\r\n"
      "\r\n"
      "1,2,3,0.5,1,,,,\r\n"
      "  4.5 , -2 , 1e1 , 2 , , 10, 0.5, 0.02, 1.5\n"
      "7,8,9,1,,1,2,3,\n";
  auto hits = read_hits(text);
  REQUIRE(hits.size() == 3);
  CHECK(hits[0].centre == std::array<double, 3>{1, 2, 3});
  CHECK(hits[0].radius == 0.5);
  CHECK(*hits[0].amount == 1);
  CHECK_FALSE(hits[0].power);
  CHECK(hits[1].centre == std::array<double, 3>{4.5, -2, 10});
  CHECK_FALSE(hits[1].amount);
  CHECK(*hits[1].power == 10);
  CHECK(*hits[1].temperature == 0.5);
  CHECK(*hits[1].dt == 0.02);
  CHECK(*hits[1].brake == 1.5);
  CHECK_FALSE(hits[2].brake);
  CHECK(detect_hits_format(text) == HitsFormat::Csv);
}

TEST_CASE("melt hits CSV columns may come in any order and only those needed", "[melt][hits]") {
  auto hits = read_hits("amount,radius,z,y,x\n0.25,3,1,2,3\n");
  REQUIRE(hits.size() == 1);
  CHECK(hits[0].centre == std::array<double, 3>{3, 2, 1});
  CHECK(hits[0].radius == 3);
  CHECK(*hits[0].amount == 0.25);
  CHECK(read_hits("x,y,z,radius,amount\n").empty());
}

TEST_CASE("melt hits CSV errors name the line, the offset, the column, expected and found", "[melt][hits]") {
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount\n1,2,3,-1,1\n"); }),
             Catch::Contains("offset 26: line 2: 'radius' is out of range (expected a finite number > 0, found '-1')"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount\n1,nan,3,1,1\n"); }),
             Catch::Contains("line 2: 'y' is out of range") && Catch::Contains("found 'nan'"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount\n1,2,3,1,1\n1,2,3x,1,1\n"); }),
             Catch::Contains("offset 34: line 3: 'z' is not a number (expected a finite number, found '3x')"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount\n1,2,3,1\n"); }),
             Catch::Contains("line 2: wrong number of fields (expected 5 (as the header), found 4)"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount\n1,,3,1,1\n"); }), Catch::Contains("'y' is empty"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount\n1,2,3,1,-0.1\n"); }),
             Catch::Contains("'amount' is out of range (expected a finite number >= 0"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount,power,temperature,dt\n1,2,3,1,1,1,1,1\n"); }),
             Catch::Contains("line 2: both an amount and the intensity formula's inputs"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount,power,temperature,dt\n1,2,3,1,,1,,1\n"); }),
             Catch::Contains("line 2: no amount"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount,power,temperature,dt,brake\n1,2,3,1,,1,1,1,0\n"); }),
             Catch::Contains("'brake' is out of range (expected a finite number > 0"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,raduis,amount\n"); }),
             Catch::Contains("offset 6: line 1: unknown column in the header (expected one of x, y, z, radius") &&
                 Catch::Contains("found 'raduis'"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,x\n"); }), Catch::Contains("column given twice"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,amount\n"); }), Catch::Contains("the header has no 'radius' column"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,power\n"); }), Catch::Contains("the header has no amount column"));
  CHECK_THAT(data_error([] { read_hits("# only a comment\n\n"); }), Catch::Contains("no header line"));
  CHECK_THAT(data_error([] { read_hits("x,y,z,radius,amount\n1,2,3,1,1e999\n"); }), Catch::Contains("'amount' is"));
}

TEST_CASE("melt hits readers refuse more hits than the cap", "[melt][hits]") {
  const std::string csv = "x,y,z,radius,amount\n1,1,1,1,1\n2,2,2,1,1\n3,3,3,1,1\n";
  CHECK(read_hits(csv, 3).size() == 3);
  CHECK_THAT(data_error([&] { read_hits(csv, 2); }), Catch::Contains("line 4: too many hits (expected at most 2"));
  const std::string json = R"([{"x":1,"y":1,"z":1,"radius":1,"amount":1},{"x":1,"y":1,"z":1,"radius":1,"amount":1}])";
  CHECK_THAT(data_error([&] { read_hits(json, 1); }), Catch::Contains("too many hits"));
}

TEST_CASE("melt hits JSON reads an array of objects with the same names", "[melt][hits]") {
  const std::string text = R"(  [
    {"x": 1, "y": 2, "z": 3, "radius": 0.5, "amount": 1},
    {"x": 4, "y": 5, "z": 6, "radius": 2, "power": 10, "temperature": 0.5, "dt": 0.02, "brake": null}
  ])";
  CHECK(detect_hits_format(text) == HitsFormat::Json);
  auto hits = read_hits(text);
  REQUIRE(hits.size() == 2);
  CHECK(*hits[0].amount == 1);
  CHECK(hits[1].centre == std::array<double, 3>{4, 5, 6});
  CHECK(*hits[1].dt == 0.02);
  CHECK_FALSE(hits[1].brake);
  CHECK(read_hits("[]").empty());
}

TEST_CASE("melt hits JSON errors name the hit, the key, expected and found", "[melt][hits]") {
  CHECK_THAT(data_error([] { read_hits(R"([{"x":1,"y":2,"z":3,"radius":1,"amount":1}, {"x":1,"y":2,"z":3,"radius":-2,"amount":1}])"); }),
             Catch::Contains("hit 2 (element 1): 'radius' is out of range (expected a finite number > 0, found -2)"));
  CHECK_THAT(data_error([] { read_hits(R"([{"x":"1","y":2,"z":3,"radius":1,"amount":1}])"); }),
             Catch::Contains("hit 1 (element 0): 'x' is not a number (expected a finite number, found string)"));
  CHECK_THAT(data_error([] { read_hits(R"([{"x":1,"y":2,"z":3,"amount":1}])"); }), Catch::Contains("no 'radius'"));
  CHECK_THAT(data_error([] { read_hits(R"([{"x":1,"y":2,"z":3,"radius":1,"amount":1,"colour":2}])"); }),
             Catch::Contains("unknown key") && Catch::Contains("found 'colour'"));
  CHECK_THAT(data_error([] { read_hits(R"([{"x":1,"y":2,"z":3,"radius":1}])"); }), Catch::Contains("no amount"));
  CHECK_THAT(data_error([] { read_hits(R"([1])"); }), Catch::Contains("not an object"));
  CHECK_THAT(data_error([] { read_hits(R"([{"x":1,)"); }), Catch::Contains("JSON does not parse"));
  CHECK_THAT(data_error([] { read_hits(R"([{"x":1e400,"y":2,"z":3,"radius":1,"amount":1}])"); }),
             Catch::Contains("out of range"));
  CHECK_THAT(data_error([] { read_hits_json(R"({"x":1})"); }), Catch::Contains("not an array"));
}

TEST_CASE("melt hits written as CSV or JSON read back the same", "[melt][hits]") {
  std::vector<MeltHit> hits(3);
  hits[0].centre = {0.1, -2.5, 1e-7};
  hits[0].radius = 1.0 / 3.0;
  hits[0].amount = 0.6 * 0.02;
  hits[1].centre = {12, 13, 14};
  hits[1].radius = 2;
  hits[1].power = 5;
  hits[1].temperature = 0.1;
  hits[1].dt = 1.0 / 50.0;
  hits[1].brake = 2.25;
  hits[2] = hits[1];
  hits[2].brake.reset();
  CHECK(read_hits(write_hits_csv(hits)) == hits);
  CHECK(read_hits(write_hits_json(hits)) == hits);
  CHECK(read_hits(write_hits_json({})).empty());
}

TEST_CASE("melt hardness lists read numbers > 0 with comments and name the bad sample", "[melt][hits]") {
  CHECK(parse_hardness("1, 1.5\n# deeper\n2 4\t8\n") == std::vector<double>{1, 1.5, 2, 4, 8});
  CHECK_THAT(data_error([] { parse_hardness("1,2\n3,0\n"); }),
             Catch::Contains("offset 6: line 2: bad hardness sample (expected a finite number > 0, found '0')"));
  CHECK_THAT(data_error([] { parse_hardness("1,abc"); }), Catch::Contains("found 'abc'"));
  CHECK_THAT(data_error([] { parse_hardness("# none\n"); }), Catch::Contains("no hardness samples"));
  CHECK_THAT(data_error([] { parse_hardness("1 2 3", 2); }), Catch::Contains("too many hardness samples"));
}
