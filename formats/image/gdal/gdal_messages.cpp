// GDAL's message handler for formats/: kept per thread, passed on to diag::warn.
#include "formats/image/gdal/gdal_messages.hpp"

#include <cpl_error.h>

#include <mutex>

#include "formats/core/diagnostics.hpp"

namespace voxkit::gdal {
namespace {

constexpr size_t kMaxKept = 6;  // a damaged file can make GDAL report every block

// Messages outside any GdalMessages (GDAL's own threads): warnings, never raw stderr lines.
void CPL_STDCALL default_handler(CPLErr cls, CPLErrorNum, const char* msg) {
  if (cls == CE_Debug || cls == CE_None) return;
  diag::warn(std::string("GDAL: ") + (msg ? msg : ""));
}

}  // namespace

struct GdalHandler {
  static void CPL_STDCALL handle(CPLErr cls, CPLErrorNum, const char* msg) {
    if (cls == CE_Debug || cls == CE_None) return;
    auto* self = static_cast<GdalMessages*>(CPLGetErrorHandlerUserData());
    self->add(cls == CE_Failure || cls == CE_Fatal, msg);
  }
};

GdalMessages::GdalMessages(std::string source) : source_(std::move(source)) {
  static std::once_flag once;
  std::call_once(once, [] { CPLSetErrorHandler(default_handler); });
  CPLErrorReset();
  CPLPushErrorHandlerEx(GdalHandler::handle, this);
}

GdalMessages::~GdalMessages() {
  CPLPopErrorHandler();
  if (complained()) diag::warn(source_ + ": " + take());
}

void GdalMessages::add(bool failure, const char* msg) {
  failures_ += failure;
  std::string text = msg ? msg : "";
  // GDAL often names the file itself, and then says the same without the name.
  const std::string named = source_ + ": ";
  if (text.compare(0, named.size(), named) == 0) text.erase(0, named.size());
  for (const auto& k : kept_)
    if (k == text) return;
  if (kept_.size() < kMaxKept) {
    kept_.push_back(std::move(text));
  } else {
    ++dropped_;
  }
}

std::string GdalMessages::take(const std::string& fallback) {
  if (!complained()) return fallback;
  std::string out = "GDAL: ";
  for (size_t i = 0; i < kept_.size(); ++i) out += (i ? "; " : "") + kept_[i];
  if (dropped_) out += " (and " + std::to_string(dropped_) + " more)";
  kept_.clear();
  dropped_ = failures_ = 0;
  return out;
}

}  // namespace voxkit::gdal
