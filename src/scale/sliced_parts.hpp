// assay (internal): the sliced state of a part of a file with a look at the held memory after each
// piece (what the out-of-core sliced report checks against its cap). Private to src/scale.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "assay/scale/file_parts.hpp"
#include "assay/scale/sliced_state.hpp"

namespace assay::scale::detail {

/// scale::sliced_state_of_file_part, calling `after_piece(state, piece)` (when set) after each piece
/// was added, with the bytes the piece held while it was parsed (its text and its columns). With
/// `unrefused`, as the public one.
sliced_state sliced_state_of_file_part(const report_request& request, const std::vector<std::string>& by,
                                       const file_part& part, std::size_t piece_bytes,
                                       const std::function<void(const sliced_state&, std::uint64_t)>& after_piece,
                                       io::missing_rows* unrefused = nullptr);

}  // namespace assay::scale::detail
