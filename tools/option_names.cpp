// The flags that set what lib/ and formats/ errors are about: their messages say it in the
// library's terms and carry a hint key (Error::set_hint); the CLI names the flag.
#include <map>
#include <string>

#include "tools/context.hpp"

namespace voxkit::cli {

namespace {

// Hint key -> how a user of the CLI sets it: a flag, with its value where the message needs it.
const std::map<std::string, std::string, std::less<>> kOptionNames{
    {"any-depth", "--any-depth"},
    {"asset-name", "--asset-name"},
    {"base-depth", "--max-depth"},
    {"base-dir", "--base-dir DIR"},
    {"blades-per-cell", "--blades-per-cell"},
    {"border", "--border"},
    {"capacity", "--capacity"},
    {"cell-size", "--cell-size"},
    {"cells", "--cells"},
    {"clip-hole", "--clip-hole"},
    {"closed", "--closed"},
    {"convention", "--convention"},
    {"explain", "--explain X,Z"},
    {"force", "-f"},
    {"force-backup", "--force-backup"},
    {"format", "--to"},
    {"from", "--from"},
    {"grid", "--grid"},
    {"grid-current", "--grid current"},
    {"gzip-level", "--level"},
    {"hole", "--hole"},
    {"hole-resolution", "--hole-resolution"},
    {"hysteresis", "--hysteresis"},
    {"in-place", "--in-place"},
    {"input", "--from KIND"},
    {"keep-rooms", "--keep-rooms"},
    {"nodata-fill", "--nodata-fill min|value:N|nearest"},
    {"output", "-o FILE"},
    {"range", "--range"},
    {"raw-size", "--raw-size"},
    {"regions", "--regions"},
    {"reset-all-if-no-rooms", "--reset-all-if-no-rooms to do it anyway"},
    {"resident-lists", "--no-resident leaves them out"},
    {"script-guid", "--script-guid"},
    {"t-srs", "--t-srs"},
    {"terrain-pos", "--terrain-pos"},
    {"terrain-size", "--terrain-size"},
    {"voxel-size", "--voxel-size"},
    {"world", "--world-xml"},
    {"zone-out", "--zone-out"},
    {"to", "--to"},
    {"form", "--form"},
    {"chunks", "--chunks NX,NY,NZ"},
};

}  // namespace

void name_options(Error& e) {
  const auto hints = e.hints();  // a copy: naming one changes the error
  for (const auto& h : hints) {
    const auto it = kOptionNames.find(h.key);
    if (it != kOptionNames.end()) e.name_option(h, it->second);
  }
}

}  // namespace voxkit::cli
