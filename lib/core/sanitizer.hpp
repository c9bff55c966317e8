// Whether this build runs under AddressSanitizer (GCC's macro or Clang's feature test): the
// allocators that keep or carve blocks of their own hand out exact blocks then, so that every
// overrun is seen.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define VOXKIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VOXKIT_ASAN 1
#endif
#endif

namespace voxkit {
#if defined(VOXKIT_ASAN)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
}  // namespace voxkit
