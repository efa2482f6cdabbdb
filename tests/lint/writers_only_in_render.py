#!/usr/bin/env python3
"""One home for the output formats: the library's kernels compute and return data, and the text, JSON
and CSV writers live in src/render/. Outside src/render/, no file of src/ or include/

- includes a nlohmann header (nlohmann/json.hpp builds JSON documents), or
- writes to a std::ostream: names std::ostream, std::ostringstream, std::ofstream, std::fstream,
  std::stringstream, std::cout, std::cerr, std::clog (or their wide and basic_ forms), or includes
  <iostream>, <ostream> or <syncstream>.

Nothing is exempt for being a writer not yet moved: every writer is in src/render/.
Exempt from a rule, because the file reads or exchanges data rather than rendering a result: the
COCO JSON reader (src/detection/dataset.cpp) and the reader of BERTScore's embeddings
(src/text/bertscore.cpp) may include nlohmann/json to parse their input; they and the line reader
(src/text/tokenize.cpp) copy their input file through a std::ostringstream; the external learner
(src/validation/external.cpp) may write the data file its child process reads.

Comments and string literals are blanked before the check (digit separators such as 1'000 and raw
strings are understood), so a comment or a message that names std::cout is not a writer. cli/ is
not checked: printing is what the front end is for.

Run: python3 writers_only_in_render.py <source dir>
Exit status: 0 when no writer is outside its home, 1 when some are (each printed as file:line: line),
2 when the tree has nothing to check.
"""

import os
import re
import sys

EXTENSIONS = (".cpp", ".cc", ".cxx", ".hpp", ".h", ".hh", ".ipp", ".inl", ".inc")
FOLDERS = ("src", "include")
HOME = "src/render/"
# Writers still to move into src/render/ (listed to be removed one by one).
NOT_YET_MOVED = ()
# file -> the rules it is exempt from, each with the reason. The readers copy a whole file into
# memory through a std::ostringstream (ss << f.rdbuf(), which also decides how a read error shows);
# one file reader should replace the three copies.
ONE_RULE = {
    "src/detection/dataset.cpp": {"json": "parses COCO JSON input", "stream": "reads its input file"},
    "src/text/bertscore.cpp": {"json": "parses the embeddings' JSON lines", "stream": "reads its input file"},
    "src/text/tokenize.cpp": {"stream": "reads its input file"},
    "src/validation/external.cpp": {"stream": "writes the data file of the external learner's process"},
}

JSON_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]nlohmann/')
STREAM_INCLUDE = re.compile(r"^\s*#\s*include\s*<(iostream|ostream|syncstream)>")
STREAM_NAME = re.compile(r"\bstd\s*::\s*(basic_|w)?(ostream|ostringstream|ofstream|fstream|stringstream|osyncstream"
                         r"|cout|cerr|clog)\b")
# What is not code: raw strings, strings, numbers (whose digit separators look like quotes), character
# literals, comments.
NOT_CODE = re.compile(
    r'(?:u8|u|U|L)?R"(?P<delim>[^()\\\s]{0,16})\((?:.|\n)*?\)(?P=delim)"'
    r'|(?:u8|u|U|L)?"(?:\\.|[^"\\\n])*"'
    r"|\b[0-9][0-9A-Za-z_'.]*"
    r"|'(?:\\.|[^'\\\n])+'"
    r"|//(?:\\\n|[^\n])*"
    r"|/\*(?:.|\n)*?\*/")


def blank(match):
    """The match with every character but the line breaks made a space; a number stays as it is."""
    s = match.group(0)
    if s[0].isdigit():
        return s
    return re.sub(r"[^\n]", " ", s)


def code_only(text):
    return NOT_CODE.sub(blank, text)


def exempt(rel, rule):
    if rel.startswith(HOME) or any(rel == p or (p.endswith("/") and rel.startswith(p)) for p in NOT_YET_MOVED):
        return True
    return rule in ONE_RULE.get(rel, {})


def check_file(path, rel):
    """(line number, line) of every writer in the file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    lines, code = text.split("\n"), code_only(text).split("\n")
    found = []
    for n, (line, c) in enumerate(zip(lines, code), 1):
        # An include's file name is a string literal, so the include rules look at the line itself, once
        # the line is known to be a directive (code starting with #), not text in a comment.
        directive = c.lstrip().startswith("#")
        if directive and JSON_INCLUDE.search(line) and not exempt(rel, "json"):
            found.append((n, line))
        elif ((directive and STREAM_INCLUDE.search(line)) or STREAM_NAME.search(c)) and not exempt(rel, "stream"):
            found.append((n, line))
    return found


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    files = []
    for folder in FOLDERS:
        for dirpath, _, names in os.walk(os.path.join(root, folder)):
            files += [os.path.join(dirpath, n) for n in names if n.endswith(EXTENSIONS)]
    if not files:
        print(f"writers_only_in_render: no C++ file under {root}/src or {root}/include", file=sys.stderr)
        return 2
    bad = []
    for path in sorted(files):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        bad += [f"{rel}:{n}: {line.strip()}" for n, line in check_file(path, rel)]
    if bad:
        print("\n".join(bad))
        print(f"writers_only_in_render: {len(bad)} line(s) write JSON or to a std::ostream outside {HOME} "
              "(return data from the kernel and render it in src/render/)", file=sys.stderr)
        return 1
    print(f"writers_only_in_render: {len(files)} files, no writer outside {HOME}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
