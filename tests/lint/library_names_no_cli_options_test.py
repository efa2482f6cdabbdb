#!/usr/bin/env python3
"""The lint library_names_no_cli_options.py on its fixtures (tests/lint/fixtures/):

- planted: it fails, and reports exactly the lines that end in `// FLAGGED` (options named in plain,
  escaped, raw, wide and joined literals, after a URL, a '[' or a digit separator; in src/ and
  include/), and none of the others (comments, the exempt src/render/html.cpp, the marked line, cli/).
- clean: it passes on literals and comments a careless reading would misjudge.
- an empty tree: it refuses to check nothing.

Run: python3 library_names_no_cli_options_test.py [Planted|Clean|EmptyTree]
"""

import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LINT = os.path.join(HERE, "library_names_no_cli_options.py")
FIXTURES = os.path.join(HERE, "fixtures")
REPORTED = re.compile(r"^([^:\s]+):(\d+): ")


def run_lint(root):
    return subprocess.run([sys.executable, LINT, root], capture_output=True, text=True, timeout=120)


def flagged_lines(root):
    """'path:line' of every line of the fixture that ends in `// FLAGGED`."""
    want = set()
    for folder, _, files in os.walk(root):
        for name in files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if re.search(r"//\s*FLAGGED\s*$", line):
                        want.add(f"{rel}:{n}")
    return want


class Planted(unittest.TestCase):
    def test_reports_exactly_the_planted_lines(self):
        root = os.path.join(FIXTURES, "planted")
        want = flagged_lines(root)
        self.assertIn("src/planted.cpp:10", want)  # the fixture is what this test thinks it is
        self.assertIn("include/assay/planted.hpp:3", want)
        r = run_lint(root)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        got = {m.group(1) + ":" + m.group(2) for m in map(REPORTED.match, r.stdout.splitlines()) if m}
        self.assertEqual(sorted(got - want), [], "reported, but not planted:\n" + r.stdout)
        self.assertEqual(sorted(want - got), [], "planted, but not reported:\n" + r.stdout)
        # each report shows the line itself
        self.assertIn('src/planted.cpp:10: std::string plain() { return "--label: no column named', r.stdout)


class Clean(unittest.TestCase):
    def test_passes(self):
        r = run_lint(os.path.join(FIXTURES, "clean"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stdout, "library_names_no_cli_options: 2 files, no literal names a command-line option\n")


class EmptyTree(unittest.TestCase):
    def test_refuses_a_tree_without_sources(self):
        r = run_lint(os.path.join(FIXTURES, "no_such_tree"))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("no C++ file under", r.stderr)


if __name__ == "__main__":
    unittest.main()
