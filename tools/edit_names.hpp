// Option values shared by the verbs that read edits (edit, foliage): edit-log formats and the
// package versions whose rules apply.
#pragma once

#include "formats/edit/edit_log.hpp"
#include "lib/edit/packed_edit.hpp"
#include "tools/options.hpp"

namespace voxkit::cli {

inline const Names<edit_log::Format> kLogFormats{{"int64", edit_log::Format::Int64},
                                                 {"text", edit_log::Format::Text},
                                                 {"json", edit_log::Format::Json},
                                                 {"vxlog", edit_log::Format::Vxlog}};
inline const Names<edit::Target> kTargets{
    {"0.3", edit::Target::V03}, {"0.6", edit::Target::V06}, {"0.7", edit::Target::V07}};

}  // namespace voxkit::cli
