// bench_startup: what one voxkit run costs before it does anything, beside coreutils'
// base64 and /bin/true in the same run: the mean wall time of many runs of each, with empty
// input. A shell loop over ten thousand chunk strings pays this ten thousand times.
//
//   bench_startup [--runs N]
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Mean seconds per run of argv, stdin and stdout on /dev/null.
double mean_run(const std::vector<std::string>& argv, int runs) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  const auto t = std::chrono::steady_clock::now();
  for (int r = 0; r < runs; ++r) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
      const int null = open("/dev/null", O_RDWR);
      dup2(null, 0);
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
  struct Case {
    const char* what;
    std::vector<std::string> argv;
  } cases[] = {
      {"/bin/true (the floor: fork and exec)", {"/bin/true"}},
      {"base64 (coreutils), empty input", {"base64"}},
      {"voxkit b64 encode, empty input", {vk, "b64", "encode"}},
      {"voxkit lz4 compress, empty input", {vk, "lz4", "compress"}},
      {"voxkit --help", {vk, "--help"}},
      {"voxkit --version (loads the GDAL plug-in)", {vk, "--version"}},
  };
  std::printf("bench_startup: mean wall time of %d runs each\n", runs);
  double floor = 0, peer = 0;
  for (const Case& c : cases) {
    const double s = mean_run(c.argv, runs);
    if (s < 0) return 1;
    if (floor == 0) floor = s;
    if (peer == 0 && c.argv[0] == "base64") peer = s;
    std::printf("  %-44s %7.2f ms  (x%.1f /bin/true%s)\n", c.what, s * 1e3, s / floor,
                peer > 0 && c.argv[0] == vk ? (", x" + std::to_string(s / peer).substr(0, 4) + " base64").c_str() : "");
  }
  return 0;
}
