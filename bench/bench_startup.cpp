// bench_startup: what one voxkit run costs before it does anything, beside coreutils'
// base64, /bin/true and an empty program linked with voxkit's shared libraries (what loading
// them costs) in the same run: the mean wall time of many runs of each, on 1 KB of input and
// on none. A shell loop over ten thousand chunk strings pays this ten thousand times.
//
//   bench_startup [--runs N]
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

// Mean seconds per run of argv, stdin from `input` (/dev/null when empty), stdout on /dev/null.
double mean_run(const std::vector<std::string>& argv, int runs, const std::string& input) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  const auto t = std::chrono::steady_clock::now();
  for (int r = 0; r < runs; ++r) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
      const int null = open("/dev/null", O_RDWR);
      const int in = input.empty() ? null : open(input.c_str(), O_RDONLY);
      dup2(in, 0);
      dup2(null, 1);
      dup2(null, 2);
      execvp(a[0], a.data());
      _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) == 127) {
      std::fprintf(stderr, "bench_startup: %s did not run\n", a[0]);
      return -1;
    }
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count() / runs;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 200;
  for (int k = 1; k < argc; ++k) {
    if (std::strcmp(argv[k], "--runs") == 0 && k + 1 < argc) runs = std::atoi(argv[++k]);
  }
  const std::string vk = VOXKIT_BINARY;
  // 1 KB of bytes, as one chunk string of a batch would be.
  const std::string kb = "/tmp/voxkit_bench_startup_1k.bin";
  {
    std::string bytes(1024, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = char(i * 131 + 7);
    FILE* f = std::fopen(kb.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
      std::fprintf(stderr, "bench_startup: cannot write %s\n", kb.c_str());
      return 1;
    }
  }
  struct Case {
    const char* what;
    std::vector<std::string> argv;
    std::string input;
  } cases[] = {
      {"/bin/true (the floor: fork and exec)", {"/bin/true"}, ""},
      {"an empty program linked as voxkit is", {STARTUP_FLOOR}, ""},
      {"base64 (coreutils), 1 KB", {"base64"}, kb},
      {"voxkit b64 encode, 1 KB", {vk, "b64", "encode"}, kb},
      {"base64 (coreutils), empty input", {"base64"}, ""},
      {"voxkit b64 encode, empty input", {vk, "b64", "encode"}, ""},
      {"voxkit lz4 compress, empty input", {vk, "lz4", "compress"}, ""},
      {"voxkit --help", {vk, "--help"}, ""},
      {"voxkit --version (loads the GDAL plug-in)", {vk, "--version"}, ""},
  };
  std::printf("bench_startup: mean wall time of %d runs each\n", runs);
  double floor = 0, b64_1k = 0;
  std::map<std::string, double> peer;  // base64's time by input
  for (const Case& c : cases) {
    const double s = mean_run(c.argv, runs, c.input);
    if (s < 0) return 1;
    if (floor == 0) floor = s;
    if (c.argv[0] == "base64") peer[c.input] = s;
    const double p = peer.count(c.input) ? peer[c.input] : 0;
    std::printf("  %-44s %7.2f ms  (x%.1f /bin/true%s)\n", c.what, s * 1e3, s / floor,
                p > 0 && c.argv[0] == vk ? (", x" + std::to_string(s / p).substr(0, 4) + " base64").c_str() : "");
    if (c.argv[0] == vk && c.input == kb && b64_1k == 0) b64_1k = s;
  }
  // The target, 5 ms a run where coreutils' base64 takes 1 ms, as a ratio: exec costs differ
  // several times between machines (and between a bare machine and a virtual one).
  const double ratio = b64_1k / peer[kb], target = 5.0;
  std::printf("target: voxkit b64 encode within %.0fx base64 on 1 KB (5 ms where base64 takes 1 ms): x%.2f, %s\n",
              target, ratio, ratio <= target ? "met" : "NOT met");
  return 0;
}
