// assay::error: parameters named in the library's terms (assay::param), rendered by a front end
// with its own names (the CLI's options), and function prefixes a front end can drop.
#include <gtest/gtest.h>

#include <string>

#include "assay/error.hpp"

namespace assay {
namespace {

std::string as_option(std::string_view name) {
  std::string s = "--";
  for (char c : name) s += c == '_' ? '-' : c;
  return s;
}

TEST(ErrorMarks, WhatShowsLibraryNamesAndRenderShowsTheFrontEndsNames) {
  const error e(error_kind::usage,
                in_function("make_report") + param("pos_label") + ": \"x\" is not a class; see " + param("task"));
  EXPECT_EQ(std::string(e.what()), "make_report: pos_label: \"x\" is not a class; see task");
  EXPECT_EQ(e.render(as_option), "--pos-label: \"x\" is not a class; see --task");
  EXPECT_EQ(e.render(as_option, false), "make_report: --pos-label: \"x\" is not a class; see --task");
  EXPECT_EQ(e.render({}), "pos_label: \"x\" is not a class; see task");
  EXPECT_EQ(e.kind(), error_kind::usage);
}

TEST(ErrorMarks, WrappingKeepsTheMarks) {
  const error inner(error_kind::data, "row 3: " + param("impute") + " needed");
  const error outer(inner.kind(), "split 2 (of 5): " + inner.marked());
  EXPECT_EQ(std::string(outer.what()), "split 2 (of 5): row 3: impute needed");
  EXPECT_EQ(outer.render(as_option), "split 2 (of 5): row 3: --impute needed");
  EXPECT_EQ(outer.exit_code(), 3);
}

TEST(ErrorMarks, BytesThatOnlyLookLikeMarksAreKept) {
  // Data (a label) may hold the mark bytes themselves: without a well-formed name between them they
  // are left as they are, never swallowed.
  const std::string odd = std::string("a\x1e") + "Not A Name" + "\x1f" + "b\x1c" + "x";
  const error e(error_kind::data, "label " + odd);
  EXPECT_EQ(std::string(e.what()), "label " + odd);
  EXPECT_EQ(e.render(as_option), "label " + odd);
  const std::string unterminated = std::string("\x1e") + "pos_label";
  EXPECT_EQ(std::string(error(error_kind::data, unterminated).what()), unterminated);
}

}  // namespace
}  // namespace assay
