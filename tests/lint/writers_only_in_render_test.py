#!/usr/bin/env python3
"""The lint writers_only_in_render.py on its fixtures (tests/lint/fixtures/writers/):

- planted: it fails, and reports exactly the lines that end in `// FLAGGED` (nlohmann includes in
  either spelling, stream headers, std::ostream and its kin in src/ and include/, the external learner
  and the line reader building JSON, files beside the exempt ones, src/curves/curve_report.cpp whose
  writers have moved, src/report/), and none of the others (comments, string and raw literals, digit
  separators, src/render/, the COCO reader parsing JSON and copying its file, cli/).
- clean: it passes on a kernel whose writer-like words are all in comments and literals.
- an empty tree: it refuses to check nothing.

Run: python3 writers_only_in_render_test.py [Planted|Clean|EmptyTree]
"""

import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LINT = os.path.join(HERE, "writers_only_in_render.py")
FIXTURES = os.path.join(HERE, "fixtures", "writers")
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
        # the fixture is what this test thinks it is
        self.assertIn("src/kernel.cpp:7", want)
        self.assertIn("include/assay/kernel.hpp:2", want)
        self.assertIn("src/detection/matching.cpp:3", want)
        r = run_lint(root)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        got = {m.group(1) + ":" + m.group(2) for m in map(REPORTED.match, r.stdout.splitlines()) if m}
        self.assertEqual(sorted(got - want), [], "reported, but not planted:\n" + r.stdout)
        self.assertEqual(sorted(want - got), [], "planted, but not reported:\n" + r.stdout)
        # each report shows the line itself, and the failure says where writers belong
        self.assertIn("src/kernel.cpp:30: void say(double v) { std::cout << v << '\\n'; }", r.stdout)
        self.assertIn("outside src/render/", r.stderr)


class Clean(unittest.TestCase):
    def test_passes(self):
        r = run_lint(os.path.join(FIXTURES, "clean"))
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stdout, "writers_only_in_render: 2 files, no writer outside src/render/\n")


class EmptyTree(unittest.TestCase):
    def test_refuses_a_tree_without_sources(self):
        r = run_lint(os.path.join(FIXTURES, "no_such_tree"))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("no C++ file under", r.stderr)


if __name__ == "__main__":
    unittest.main()
