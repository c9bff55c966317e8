// Replays fuzz corpora without libFuzzer: runs LLVMFuzzerTestOneInput on every file given
// (directories are walked), so ctest checks the corpus with the normal compiler.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv) {
  size_t count = 0;
  for (int i = 1; i < argc; ++i) {
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
      LLVMFuzzerTestOneInput(data.data(), data.size());
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
