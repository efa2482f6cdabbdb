#!/usr/bin/python3
"""Expected records of CSV texts with LF, CRLF and lone-CR (classic Mac OS) line ends, as Python's
csv module reads them, for tests/io/csv_line_ends_test.cpp. Run with Debian's /usr/bin/python3:

    /usr/bin/python3 tests/io/make_csv_line_ends.py > tests/io/csv_line_ends.json

Each text is read with csv.reader(io.StringIO(text, newline='')), which is how Python reads a file
opened with newline='' (the documented way to open a CSV file): the line iterator splits at LF, CRLF
and lone CR, and the parser ends a record at an unquoted CR or LF and keeps them inside quotes.
For each non-empty record we keep its fields and the physical line on which it starts (Python's
reader.line_num after the previous record, blank [] records included, plus one). Empty records
(blank lines) are left out: assay skips blank lines. Every text is rectangular (every record has
the header's number of fields) and has no quote problems, so assay must read all of it.
"""
import csv
import io
import json
import platform
import random
import sys

HAND = [
    "a,b\rc,d\r",
    "a,b\rc,d",
    "a,b\r\r\nc,d\r\n",
    "a,b\n\r\nc,d\r",
    "h\r\r\rx\r",
    '"x\ry",1\r"p",q\r',
    'h1,h2\r"a\r\nb",c\rd,e',
    'h1,h2\r"a\rb\nc\r\nd",e\r\r1,2\n',
    'h1,h2\r"a"\rb,c\r',
    'h1,h2\r\n"a",\r\n,"b"\r',
    '\r\r\nh\rx\r\ny\nz',
    'a,b\r1,"2\r"\r3,4',
]


def field(rng):
    alphabet = ["a", "b", "1", "x y", ",", '"', "\r", "\n", "\r\n", ""]
    s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
    if s == "" or any(c in s for c in ',"\r\n') or rng.random() < 0.2:
        return '"' + s.replace('"', '""') + '"'
    return s


def random_text(rng):
    cols = rng.randint(1, 3)
    ends = ["\n", "\r\n", "\r"]
    out = []
    for _ in range(rng.randint(1, 6)):
        while rng.random() < 0.2:
            out.append(rng.choice(ends))  # a blank line
        fields = [field(rng) for _ in range(cols)]
        if cols == 1 and fields[0] == "":
            fields[0] = "z"
        out.append(",".join(fields) + rng.choice(ends))
    text = "".join(out)
    if rng.random() < 0.3:
        text = text.rstrip("\r\n") if not text.endswith('"\r') else text  # no line end at the end
    return text


def read(text):
    reader = csv.reader(io.StringIO(text, newline=""))
    records, lines, prev = [], [], 0
    for rec in reader:
        if rec:
            records.append(rec)
            lines.append(prev + 1)
        prev = reader.line_num
    return records, lines


def main():
    rng = random.Random(20261126)
    texts = list(HAND) + [random_text(rng) for _ in range(400)]
    cases = []
    for text in texts:
        records, lines = read(text)
        if not records or any(len(r) != len(records[0]) for r in records):
            continue  # ragged: not a case for this test
        cases.append({"text": text, "records": records, "lines": lines})
    json.dump({"generator": "tests/io/make_csv_line_ends.py",
               "peer": f"Python {platform.python_version()} csv module (csv.reader, newline='')",
               "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
