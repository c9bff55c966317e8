// The blade rotations in vector lanes (lib/grass/rotation_batch.hpp), each build this CPU runs,
// against place(), bit for bit: normals straight up and down, at the 0.9999 limits, zero and
// tiny, every direction at random; yaws in every quadrant; AlignToNormal from none to full;
// every batch length.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "lib/grass/grass_math.hpp"
#include "lib/grass/rotation_batch.hpp"
#include "lib/grass/scatter.hpp"

using namespace voxkit::grass;

namespace {

void check_rotations(detail::RotationLanes lanes) {
  std::mt19937 rng(4122026);
  std::uniform_real_distribution<float> any(-1.0f, 1.0f);
  // Normals: special ones, then random directions and lengths (Ground's are unit, but the
  // rotation normalises whatever it is given).
  std::vector<Ground> grounds;
  auto normal = [&](float x, float y, float z) {
    Ground g;
    g.hit = true, g.px = 1, g.py = 2, g.pz = 3, g.nx = x, g.ny = y, g.nz = z;
    grounds.push_back(g);
  };
  const float up_limit = 0.9999f, tiny = 1e-7f;
  normal(0, 1, 0), normal(0, -1, 0), normal(0, 0, 0), normal(tiny, 0, 0), normal(0, tiny, tiny);
  normal(1, 0, 0), normal(0, 0, -1), normal(-0.0f, 1, -0.0f);
  for (float y : {up_limit, std::nextafter(up_limit, 0.0f), std::nextafter(up_limit, 1.0f), -up_limit,
                  std::nextafter(-up_limit, 0.0f), std::nextafter(-up_limit, -1.0f), 0.0f, 1e-3f, -0.5f, 0.5f}) {
    const float r = std::sqrt(std::max(0.0f, 1.0f - y * y));
    normal(r, y, 0), normal(0, y, -r), normal(-r * 0.6f, y, r * 0.8f);
  }
  for (int k = 0; k < 3000; ++k) {
    const float x = any(rng), y = any(rng), z = any(rng), len = std::sqrt(x * x + y * y + z * z);
    if (k % 3) normal(x / len, y / len, z / len);
    else normal(x, std::fabs(y) * 3.0f, z);  // mostly upward, unnormalised
  }
  GrassType t = default_type("r");
  t.max_slope = 3.2f;
  SurfaceGrid surface;
  surface.spacing = 1.0f, surface.samples_x = surface.samples_z = 2, surface.height.assign(4, 0.0f);
  for (const float align : {0.35f, 1.0f, 0.5f, 1e-4f, 0.0f})
    for (const bool random_yaw : {true, false}) {
      t.align_to_normal = align, t.random_yaw = random_yaw;
      const ScatterSetup s = make_setup(t, 16.0f, 1.0f, surface);
      const size_t n = grounds.size();
      std::vector<uint32_t> hash(n);
      std::vector<float> yaw(n), nx(n), ny(n), nz(n), rot(4 * n);
      for (size_t i = 0; i < n; ++i) {
        hash[i] = cell_hash(int32_t(i) - 7, -3, int32_t(i));
        yaw[i] = random_yaw ? unit(hash[i], kYawStream) * kTau : 0.0f;
        nx[i] = grounds[i].nx, ny[i] = grounds[i].ny, nz[i] = grounds[i].nz;
      }
      detail::rotations_with(lanes, yaw.data(), nx.data(), ny.data(), nz.data(), n, s.align, rot.data());
      size_t differ = 0;
      for (size_t i = 0; i < n; ++i) {
        const Blade b = place(s, grounds[i], hash[i]);
        if (std::memcmp(b.rotation, &rot[4 * i], sizeof b.rotation) != 0) {
          if (differ++ < 5)
            FAIL_CHECK("align " << align << " normal (" << nx[i] << ", " << ny[i] << ", " << nz[i] << ") yaw " << yaw[i]
                                << ": place " << b.rotation[0] << " " << b.rotation[1] << " " << b.rotation[2] << " "
                                << b.rotation[3] << ", lanes " << rot[4 * i] << " " << rot[4 * i + 1] << " "
                                << rot[4 * i + 2] << " " << rot[4 * i + 3]);
        }
      }
      CHECK(differ == 0);
      // Every batch length (the tail is padded with the last blade).
      for (size_t m = 1; m <= 40; ++m) {
        std::vector<float> part(4 * m);
        detail::rotations_with(lanes, yaw.data() + 3, nx.data() + 3, ny.data() + 3, nz.data() + 3, m, s.align,
                               part.data());
        CHECK(std::memcmp(part.data(), rot.data() + 12, part.size() * sizeof(float)) == 0);
      }
    }
}

}  // namespace

TEST_CASE("grass rotations in vector lanes: the bits of place()", "[grass]") {
  if (!detail::rotations_batch_supported()) {
    SUCCEED("this CPU has no AVX2: place() alone runs");
    return;
  }
  for (const auto lanes : {detail::RotationLanes::Avx2, detail::RotationLanes::Avx512}) {
    if (!detail::rotation_lanes_supported(lanes)) continue;
    INFO("build " << (lanes == detail::RotationLanes::Avx2 ? "AVX2" : "AVX-512"));
    check_rotations(lanes);
  }
}
