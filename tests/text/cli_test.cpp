// `assay text` end to end: JSON shape, signature, exit codes and messages for bad input.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct run_result {
  int code;
  std::string out;
};

run_result run(const std::string& args) {
  const std::string cmd = std::string(ASSAY_CLI_PATH) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  std::array<char, 4096> buf{};
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WEXITSTATUS(status), out};
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(TextCli, BleuJsonAndSentence) {
  const auto h = write("h.txt", "the cat sat on the mat\n\nhello world\n");
  const auto r = write("r.txt", "the cat is on the mat\nsomething\nhello world\n");
  auto out = run("text bleu --hyp " + h + " --ref " + r + " --format json");
  ASSERT_EQ(out.code, 0) << out.out;
  auto j = nlohmann::json::parse(out.out);
  EXPECT_TRUE(j.contains("bleu"));
  EXPECT_EQ(j["signature"].get<std::string>().rfind("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|", 0), 0u);
  out = run("text bleu --hyp " + h + " --ref " + r + " --sentence --format json");
  ASSERT_EQ(out.code, 0) << out.out;
  j = nlohmann::json::parse(out.out);
  ASSERT_EQ(j["bleu"].size(), 3u);
  EXPECT_EQ(j["bleu"][1].get<double>(), 0.0);  // the empty hypothesis line
  EXPECT_NEAR(j["bleu"][2].get<double>(), 100.0, 1e-9);
}

TEST(TextCli, MismatchedLinesAndInvalidUtf8) {
  const auto h = write("h2.txt", "a\nb\n");
  const auto r = write("r2.txt", "a\n");
  auto out = run("text chrf --hyp " + h + " --ref " + r);
  EXPECT_EQ(out.code, 3);
  EXPECT_NE(out.out.find("assay text chrf: --ref " + r + " has 1 lines but --hyp " + h + " has 2"), std::string::npos)
      << out.out;
  const auto bad = write("bad.txt", "ok\n\xc3\x28\n");
  out = run("text bleu --hyp " + bad + " --ref " + r);
  EXPECT_EQ(out.code, 3);
  EXPECT_NE(out.out.find(bad + ":2: invalid UTF-8 at byte 1"), std::string::npos) << out.out;
}

TEST(TextCli, BertscoreFromEmbeddings) {
  const auto h = write("h.jsonl", "{\"embeddings\": [[1, 0], [0, 1]]}\n");
  const auto r = write("r.jsonl", "{\"embeddings\": [[1, 0]]}\n");
  const auto out = run("text bertscore --hyp-emb " + h + " --ref-emb " + r + " --format json");
  ASSERT_EQ(out.code, 0) << out.out;
  const auto j = nlohmann::json::parse(out.out);
  EXPECT_DOUBLE_EQ(j["P"].get<double>(), 0.5);  // (1 + 0) / 2
  EXPECT_DOUBLE_EQ(j["R"].get<double>(), 1.0);
}

}  // namespace
