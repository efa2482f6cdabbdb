#!/usr/bin/env python3
"""The C++ functions longer than a limit, and the largest source files: a rough measure of where the
code needs splitting (issue 27 counts both).

A function is a body in braces at namespace or class scope whose head has a parameter list: free
functions, member functions (in a class or out of it), constructors, operators and function-like
macros such as TEST(...) or NB_MODULE(...). Lambdas and local classes are counted in the function
that holds them; a lambda bound to a variable at namespace scope is not a function here. Its length
runs from the line of its name to the line of its closing brace. Braces are matched after comments,
string and character literals (escapes, raw strings) and preprocessor lines are blanked out.

Run: scripts/function_lengths.py [--min-lines 150] [--top 10] [--root DIR] [--max-functions N] [folder...]
(folders relative to the root; by default src cli include python/src). With --max-functions, the exit
status is 1 when more functions than that are over the limit.
"""

import argparse
import os
import re
import sys

EXTENSIONS = (".cpp", ".cc", ".cxx", ".hpp", ".h", ".hh", ".ipp", ".inl")
DEFAULT_FOLDERS = ("src", "cli", "include", "python/src")
ENCODING_PREFIXES = {"u8", "u", "U", "L"}
RAW_PREFIXES = {p + "R" for p in ENCODING_PREFIXES} | {"R"}


def blank(text):
    """`text` with comments, the contents of literals and preprocessor lines replaced by spaces, line
    breaks kept (so offsets and line numbers stay those of the source)."""
    out = list(text)
    n = len(text)

    def wipe(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    i = 0
    line_start = True  # only blanks since the start of the line
    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":  # a directive, continued by backslashes
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            wipe(i, j)
            i = j
            continue
        line_start = False
        if text.startswith("//", i):
            j = i
            while j < n and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            wipe(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            wipe(i, j)
            i = j
        elif c.isalpha() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            if j < n and text[j] == '"' and text[i:j] in RAW_PREFIXES:
                open_paren = text.find("(", j + 1)
                delimiter = text[j + 1:open_paren] if open_paren >= 0 else ""
                close = text.find(")" + delimiter + '"', open_paren + 1) if open_paren >= 0 else -1
                end = n if close < 0 else close + len(delimiter) + 2
                wipe(j + 1, end - 1)
                i = end
            else:
                i = j
        elif c.isdigit() or (c == "." and i + 1 < n and text[i + 1].isdigit()):
            j = i + 1
            while j < n:
                if text[j] in "eEpP" and j + 1 < n and text[j + 1] in "+-":
                    j += 2
                elif text[j].isalnum() or text[j] in "_.":
                    j += 1
                elif text[j] == "'" and j + 1 < n and (text[j + 1].isalnum() or text[j + 1] == "_"):
                    j += 1
                else:
                    break
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            wipe(i + 1, j)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def matching(text, i, open_c, close_c):
    """The offset of the bracket that closes the one at `i` (len(text) when it is never closed)."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if depth == 0:
                return j
    return len(text)


def top_level(head):
    """`head` with the insides of (), [] and {} replaced by spaces (the brackets kept)."""
    out, depth = [], 0
    for ch in head:
        if ch in "([{":
            out.append(ch if depth == 0 else " ")
            depth += 1
        elif ch in ")]}":
            depth = max(depth - 1, 0)
            out.append(ch if depth == 0 else " ")
        else:
            out.append(ch if depth == 0 else " ")
    return "".join(out)


TEMPLATE = re.compile(r"^\s*template\s*<")
ACCESS = re.compile(r"^\s*(public|private|protected)\s*:(?!:)")
OPERATOR = re.compile(r"\boperator\s*(\(\)|[^\s(]+)")
SCOPE = re.compile(r"^\s*(?:(?:inline|export)\s+)*namespace\b|^\s*extern\s*\"[^\"]*\"\s*$")  # extern "C" {
CLASS = re.compile(r"^\s*(?:typedef\s+)?(class|struct|union|enum)\b")
NAME = re.compile(r"((?:[A-Za-z_]\w*\s*::\s*)*(?:operator@+|~?[A-Za-z_]\w*))\s*$")


def strip_prefixes(head):
    """The head without its leading access specifiers and template parameter lists."""
    while True:
        m = ACCESS.match(head)
        if m:
            head = head[m.end():]
            continue
        m = TEMPLATE.match(head)
        if m:
            head = head[matching(head, m.end() - 1, "<", ">") + 1:]
            continue
        return head


def parameter_list(flat):
    """The offset of the first '(' of `flat` outside template arguments (`std::function<void(int)> f(`),
    or -1."""
    angle = 0
    for k, ch in enumerate(flat):
        if ch == "<":
            angle += 1
        elif ch == ">" and not (k > 0 and flat[k - 1] == "-"):
            angle = max(angle - 1, 0)
        elif ch == "(" and angle == 0:
            return k
    return -1


def classify(head):
    """What a brace opens, from the text before it: 'scope' (a namespace or extern block), 'class'
    (its members are looked at), 'function' (with its name), 'initialiser' (a braced member
    initialiser of a constructor, part of the head) or 'other' (a variable's braced value, an enum).
    A function comes with its name and the offset of the name in `head`."""
    h = strip_prefixes(head)
    if SCOPE.match(h):
        return "scope", None
    # an operator's symbol, hidden (same length, so offsets stay those of h): `operator()(`, `operator=`
    flat = top_level(OPERATOR.sub(lambda m: "operator" + "@" * (m.end() - m.start() - 8), h))
    if CLASS.match(h) and "(" not in flat:
        return ("other" if CLASS.match(h).group(1) == "enum" else "class"), None
    if "(" not in flat or "=" in flat:
        return "other", None
    paren = parameter_list(flat)
    if paren < 0:
        return "other", None
    # a constructor's braced initialiser: `) : a{1}, b{2} {`: the brace follows a name after the colon
    after = flat[flat.find(")", paren) + 1:]
    if re.search(r"(?<!:):(?!:)", after) and re.search(r"[\w>]\s*$", flat):
        return "initialiser", None
    m = NAME.search(flat[:paren])
    if not m:
        return "function", ("?", len(head) - len(h))
    return "function", (re.sub(r"\s+", "", h[m.start(1):m.end(1)]), len(head) - len(h) + m.start(1))


def functions_of(text):
    """(name, first_line, last_line) of every function body of a C++ source."""
    code = blank(text)
    found = []
    line_of = []  # the line of each offset
    ln = 1
    for ch in code:
        line_of.append(ln)
        if ch == "\n":
            ln += 1
    line_of.append(ln)

    def scan(start, end):
        """Looks at the scope code[start:end] (namespace or class body) for functions."""
        head_start = start
        parens = 0  # '(' of the head not yet closed: a brace inside them is an argument's (`n_(T{1})`)
        i = start
        while i < end:
            ch = code[i]
            if ch in ";}":
                head_start = i + 1
                parens = 0
            elif ch == "(":
                parens += 1
            elif ch == ")":
                parens = max(parens - 1, 0)
            elif ch == "{" and parens > 0:
                i = matching(code, i, "{", "}") + 1
                continue
            elif ch == "{":
                kind, name = classify(code[head_start:i])
                close = matching(code, i, "{", "}")
                if kind == "initialiser":
                    i = close + 1
                    continue
                if kind == "function":
                    found.append((name[0], line_of[head_start + name[1]], line_of[min(close, len(code) - 1)]))
                elif kind in ("scope", "class"):
                    scan(i + 1, close)
                i = close + 1
                head_start = i
                parens = 0
                continue
            i += 1

    scan(0, len(code))
    return found


def source_files(root, folders):
    for top in folders:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(EXTENSIONS):
                    yield os.path.join(folder, name)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folders", nargs="*", default=list(DEFAULT_FOLDERS), help="folders under the root")
    ap.add_argument("--root", default=os.path.dirname(here), help="the source tree (default: this script's)")
    ap.add_argument("--min-lines", type=int, default=150, help="list functions longer than this (default 150)")
    ap.add_argument("--top", type=int, default=10, help="how many of the largest files to list (default 10)")
    ap.add_argument("--max-functions", type=int, help="fail when more functions than this are over the limit")
    a = ap.parse_args(argv[1:])
    if a.min_lines < 1 or a.top < 0:
        ap.error(f"--min-lines must be >= 1 and --top >= 0 (given {a.min_lines} and {a.top})")
    files = list(source_files(a.root, a.folders))
    if not files:
        print(f"function_lengths: no C++ file under {a.root} in {', '.join(a.folders)}", file=sys.stderr)
        return 2
    long_functions, sizes, count = [], [], 0
    for path in files:
        rel = os.path.relpath(path, a.root).replace(os.sep, "/")
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        sizes.append((text.count("\n") + (0 if text.endswith("\n") or not text else 1), rel))
        for name, first, last in functions_of(text):
            count += 1
            if last - first + 1 > a.min_lines:
                long_functions.append((last - first + 1, rel, first, name))
    long_functions.sort(key=lambda f: (-f[0], f[1], f[2]))
    sizes.sort(key=lambda s: (-s[0], s[1]))
    print(f"functions over {a.min_lines} lines in {' '.join(a.folders)}: {len(long_functions)} "
          f"(of {count} functions in {len(files)} files)")
    for lines, rel, first, name in long_functions:
        print(f"{lines:6}  {rel}:{first}  {name}")
    print(f"largest source files ({a.top} of {len(files)}):")
    for lines, rel in sizes[:a.top]:
        print(f"{lines:6}  {rel}")
    if a.max_functions is not None and len(long_functions) > a.max_functions:
        print(f"function_lengths: {len(long_functions)} functions are over {a.min_lines} lines; "
              f"at most {a.max_functions} may be", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
