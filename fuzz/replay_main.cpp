// Replays fuzz corpora without libFuzzer: runs LLVMFuzzerTestOneInput on every file given
// (directories are walked), so ctest checks the corpus with the normal compiler. Each input
// has a time limit (--timeout SECONDS, default 10, as libFuzzer's -timeout): an input that
// runs longer fails the replay, named.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

// The input being replayed, for the alarm handler (which may only write and exit).
std::string g_current;

void on_alarm(int) {
  static const char kMsg[] = "replay: over the time limit on ";
  (void)!write(2, kMsg, sizeof kMsg - 1);
  (void)!write(2, g_current.data(), g_current.size());
  (void)!write(2, "\n", 1);
  _exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  size_t count = 0;
  unsigned timeout = 10;
  signal(SIGALRM, on_alarm);
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--timeout" && i + 1 < argc) {
      timeout = unsigned(std::stoul(argv[++i]));
      continue;
    }
    std::vector<std::filesystem::path> files;
    std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.push_back(p);
    }
    std::sort(files.begin(), files.end());
    for (auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      std::vector<uint8_t> data((std::istreambuf_iterator<char>(in)), {});
      g_current = f.string();
      alarm(timeout);
      LLVMFuzzerTestOneInput(data.data(), data.size());
      alarm(0);
      ++count;
    }
  }
  if (count == 0) {
    std::fprintf(stderr, "replay: no corpus files given\n");
    return 1;
  }
  std::printf("replayed %zu inputs\n", count);
  return 0;
}
