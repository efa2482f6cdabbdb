#!/usr/bin/env python3
"""The library speaks its own language: no string literal in src/ or include/ names a command-line
option ("--threshold"); messages name parameters with assay::param and cli/ renders them as options.

Exempt: the HTML report's "command that reproduces this page" (src/render/html.cpp), and any literal
on a line whose comment says `names an option on purpose`.

The C++ is tokenised far enough to tell code, comments and literals apart: // and /* */ comments
(a // comment that ends in a backslash goes on), string literals with escapes and encoding prefixes,
raw strings (R"delim(...)delim"), character literals and digit separators (1'000). Literals that are
only separated by blanks or comments are joined first, as the compiler joins them ("--" "label").

Run: python3 library_names_no_cli_options.py <source dir>
Exit status: 0 when no literal names an option, 1 when some do (each printed as file:line: line),
2 when the tree has nothing to check.
"""

import os
import re
import sys

OPTION = re.compile(r"--[a-z][a-z-]*")
MARKER = "names an option on purpose"
EXTENSIONS = (".cpp", ".cc", ".cxx", ".hpp", ".h", ".hh", ".ipp", ".inl")
EXEMPT_FILES = {"src/render/html.cpp"}  # the command line that reproduces the page
ENCODING_PREFIXES = {"u8", "u", "U", "L"}
RAW_PREFIXES = {p + "R" for p in ENCODING_PREFIXES} | {"R"}


class TokenError(Exception):
    pass


def tokenise(text):
    """The literals and comments of a C++ source, in order.

    Yields ("string", pieces), ("comment", first_line, last_line, text) and ("code",) for anything
    else that is not blank (a character literal is code), where `pieces` is the content of a string
    literal as a list of (line, text) pairs, one per source line it spans.
    """
    i, line, n = 0, 1, len(text)

    def content(start, end, first_line):
        out, ln = [], first_line
        for k, part in enumerate(text[start:end].split("\n")):
            out.append((ln + k, part))
        return out

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            start, first = i, line
            while i < n and text[i] != "\n":
                if text[i] == "\\" and text.startswith("\n", i + 1):  # continued onto the next line
                    line += 1
                    i += 2
                    continue
                i += 1
            yield ("comment", first, line, text[start:i])
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise TokenError(f"line {line}: /* comment without */")
            first = line
            line += text.count("\n", i, end)
            yield ("comment", first, line, text[i:end + 2])
            i = end + 2
        elif c.isalpha() or c == "_":
            start = i
            while i < n and (text[i].isalnum() or text[i] == "_"):
                i += 1
            word = text[start:i]
            if i < n and text[i] == '"' and word in RAW_PREFIXES:
                open_paren = text.find("(", i + 1)
                if open_paren < 0 or open_paren - i - 1 > 16:
                    raise TokenError(f'line {line}: raw string without its "delimiter("')
                delimiter = text[i + 1:open_paren]
                close = text.find(")" + delimiter + '"', open_paren + 1)
                if close < 0:
                    raise TokenError(f"line {line}: raw string R\"{delimiter}( not closed")
                yield ("string", content(open_paren + 1, close, line))
                line += text.count("\n", i, close)
                i = close + len(delimiter) + 2
            elif not (i < n and text[i] in "\"'" and word in ENCODING_PREFIXES):
                yield ("code",)  # (after an encoding prefix, the literal is read on the next turn)
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            # a pp-number: 1'000'000, 0x1p-3, 1e+9
            i += 1
            while i < n:
                if text[i] in "eEpP" and i + 1 < n and text[i + 1] in "+-":
                    i += 2
                elif text[i].isalnum() or text[i] in "_.":
                    i += 1
                elif text[i] == "'" and i + 1 < n and (text[i + 1].isalnum() or text[i + 1] == "_"):
                    i += 1
                else:
                    break
            yield ("code",)
        elif c in "\"'":
            start, first = i + 1, line
            i += 1
            while True:
                if i >= n or text[i] == "\n":
                    kind = "string" if c == '"' else "character"
                    raise TokenError(f"line {first}: {kind} literal not closed on its line")
                if text[i] == "\\":
                    if text.startswith("\n", i + 1):
                        line += 1
                    i += 2
                    continue
                if text[i] == c:
                    break
                i += 1
            yield ("string", content(start, i, first)) if c == '"' else ("code",)
            i += 1
        else:
            if not c.isspace():
                yield ("code",)
            i += 1


def literals_and_comments(text):
    """The joined string literals (lists of (line, text) pieces) and the comments of a source."""
    literals, comments = [], []
    joining = False  # the last token was a string literal: a next one is joined to it
    for token in tokenise(text):
        if token[0] == "comment":
            comments.append(token[1:])
            continue
        if token[0] == "code":
            joining = False
            continue
        pieces = token[1]
        if joining and literals:
            literals[-1].extend(pieces)
        else:
            literals.append(list(pieces))
        joining = True
    return literals, comments


def findings_of(text):
    """(line, option) for every option named by a literal of `text` outside an exempt line."""
    literals, comments = literals_and_comments(text)
    exempt = set()
    for first, last, body in comments:
        if MARKER in body:
            exempt.update(range(first, last + 1))
    found = []
    for pieces in literals:
        # the joined text, and where each of its characters stands in the source
        joined, lines = "", []
        for ln, part in pieces:
            joined += part
            lines.extend([ln] * len(part))
        for m in OPTION.finditer(joined):
            ln = lines[m.start()]
            if ln not in exempt:
                found.append((ln, m.group(0)))
    return found


def source_files(root):
    for top in ("src", "include"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(folder, name)


def main(argv):
    if len(argv) != 2:
        print(f"usage: {argv[0]} <source dir>", file=sys.stderr)
        return 2
    root = argv[1]
    files = list(source_files(root))
    if not files:
        print(f"library_names_no_cli_options: no C++ file under {root}/src or {root}/include", file=sys.stderr)
        return 2
    bad = []
    for path in files:
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        if rel in EXEMPT_FILES:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        try:
            found = findings_of(text)
        except TokenError as e:
            print(f"library_names_no_cli_options: {rel}: {e}", file=sys.stderr)
            return 2
        source_lines = text.split("\n")
        for ln in sorted({ln for ln, _ in found}):
            bad.append(f"{rel}:{ln}: {source_lines[ln - 1].strip()}")
    if bad:
        print("library messages that name command-line options (name the parameter with assay::param):")
        print("\n".join(bad))
        return 1
    print(f"library_names_no_cli_options: {len(files)} files, no literal names a command-line option")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
