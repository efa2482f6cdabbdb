// assay: the Porter stemmer (Porter 1980) with the extensions NLTK's PorterStemmer applies in its
// default mode (NLTK_EXTENSIONS), the stemmer Google's rouge-score uses.
#pragma once

#include <string>
#include <string_view>

namespace assay::text {

/// The stem of one word, as nltk.stem.porter.PorterStemmer() (mode NLTK_EXTENSIONS) gives it.
///
/// Definition: M. F. Porter, "An algorithm for suffix stripping", Program 14(3):130-137, 1980.
/// A letter is a vowel if it is a, e, i, o or u, or a y that follows a consonant; every other
/// character (digits included) is a consonant. m, the measure of a stem, is the number of
/// vowel-run-then-consonant-run pairs. Steps 1a, 1b, 1c, 2, 3, 4, 5a and 5b are applied in order;
/// in each rule list the first suffix the word ends with is the only one tried (if its condition
/// fails the step leaves the word). The NLTK extensions, all applied here:
///   - a table of irregular forms (sky/skies -> sky, dying -> die, lying -> lie, tying -> tie,
///     news, inning(s) -> inning, outing(s) -> outing, canning(s) -> canning, howe, proceed,
///     exceed, succeed) is looked up first; words of 1 or 2 characters are returned unchanged;
///   - 1a: a 4-letter word ending in ies becomes ...ie (ties -> tie);
///   - 1b: ied becomes ie in a 4-letter word, else i (and ends step 1b);
///   - *o (stem ends consonant-vowel-consonant, the last not w, x, y) also holds for a 2-letter
///     stem vowel-consonant;
///   - 1c: y -> i when the letter before is a consonant and is not the first letter;
///   - 2: alli -> al first (when m > 0), then step 2 again on the result; bli -> ble (Porter's
///     later correction of abli -> able); fulli -> ful; logi -> log when the stem with its l has m > 0.
/// The word is lowercased (ASCII) first.
[[nodiscard]] std::string porter_stem(std::string_view word);

}  // namespace assay::text
