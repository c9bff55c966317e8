// GDAL's error messages, routed: while a GdalMessages is alive, the messages GDAL reports on
// this thread are kept by it (GDAL prints nothing), so that the voxkit::Error a reader
// throws can say what GDAL found wrong. Messages nobody took are passed on as warnings to
// diag::warn, prefixed with the file, when it goes. Messages on other threads go to
// diag::warn straight away. Only for formats/ sources.
#pragma once

#include <string>
#include <vector>

namespace voxkit::gdal {

class GdalMessages {
 public:
  // `source` is the file being read, as messages show it.
  explicit GdalMessages(std::string source);
  ~GdalMessages();
  GdalMessages(const GdalMessages&) = delete;
  GdalMessages& operator=(const GdalMessages&) = delete;

  // GDAL has reported a failure (CE_Failure, CE_Fatal) since the last take.
  bool failed() const { return failures_ > 0; }
  // GDAL has reported a failure or a warning (a tag it ignored, say) since the last take.
  bool complained() const { return !kept_.empty() || dropped_ > 0; }
  // The messages so far as one text ("GDAL: A; B (and 3 more)"), forgetting them;
  // `fallback` when there are none.
  std::string take(const std::string& fallback = "GDAL gave no reason");

 private:
  void add(bool failure, const char* msg);
  std::string source_;
  std::vector<std::string> kept_;
  size_t dropped_ = 0, failures_ = 0;
  friend struct GdalHandler;
};

}  // namespace voxkit::gdal
