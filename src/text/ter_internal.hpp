// Internal to src/text: TER's normalisation as one string (ter_tokenize splits it).
#pragma once

#include <string>
#include <string_view>

#include "assay/text/ter.hpp"

namespace assay::text::detail {

/// The text sacreBLEU's TER tokenizer returns before splitting: right-stripped, lower-cased unless
/// case-sensitive, normalised and without punctuation as `o` says (words may be separated by
/// several spaces).
std::string ter_normalize(std::string_view line, const ter_options& o);

}  // namespace assay::text::detail
