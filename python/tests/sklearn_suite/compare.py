"""Compares two JUnit XML reports of scikit-learn's metrics tests: run as shipped, and run with
assay's functions swapped in (assay_swap.py). Exits 1 when a test that passes for scikit-learn
does not pass for assay and is not in the list of known differences, or when an entry of that
list no longer describes a difference (it fails for scikit-learn too, passes for assay, or matches
no test), so that the list stays short and true.

    python compare.py SHIPPED.xml ASSAY.xml KNOWN_DIFFERENCES.txt

The list: one test a line, ``test id  # reason``, where the test id is
``module::name[parameters]`` as printed here; ``module::name[*]`` stands for every
parametrisation of the test. Lines starting with # and blank lines are ignored.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from collections import Counter


def outcomes(path):
    """{test id: ('passed' | 'failed' | 'skipped', message)} of a JUnit XML report. A test with a
    failure or an error (in setup, call or teardown) has failed."""
    result = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        test_id = f"{case.get('classname', '')}::{case.get('name', '')}"
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, message = "failed", child.get("message") or (child.text or "").strip()
                break
            if child.tag == "skipped":
                outcome, message = "skipped", child.get("message", "")
        if result.get(test_id, ("passed",))[0] == "failed":
            continue  # a teardown error reported after a failure: keep the first
        result[test_id] = (outcome, message)
    return result


def read_known(path):
    """[(pattern, reason)] of the list of known differences."""
    known = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            pattern, sep, reason = line.partition("  # ")
            if not sep or not reason.strip():
                sys.exit(f"{path}:{number}: an entry needs its reason: 'test id  # reason'")
            known.append((pattern.strip(), reason.strip()))
    return known


def matches(pattern, test_id):
    if pattern.endswith("[*]"):
        stem = pattern[:-3]
        return test_id == stem or test_id.startswith(stem + "[")
    return test_id == pattern


def summary(results):
    counts = Counter(outcome for outcome, _ in results.values())
    return f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped"


def main(shipped_path, assay_path, known_path):
    shipped, swapped, known = outcomes(shipped_path), outcomes(assay_path), read_known(known_path)
    print(f"scikit-learn as shipped: {summary(shipped)}")
    print(f"with assay's functions:  {summary(swapped)}")
    lost = {t: swapped.get(t, ("missing", "not run with assay"))
            for t, (outcome, _) in shipped.items() if outcome == "passed" and swapped.get(t, ("",))[0] != "passed"}
    used = Counter()
    unexpected = []
    for test_id, (outcome, message) in sorted(lost.items()):
        pattern = next((p for p, _ in known if matches(p, test_id)), None)
        if pattern is None:
            unexpected.append((test_id, outcome, message))
        else:
            used[pattern] += 1
    print(f"passing for scikit-learn, not for assay: {len(lost)} "
          f"({sum(used.values())} of them known differences, {len(unexpected)} not)")
    stale = [(p, r) for p, r in known if not used[p]]
    for test_id, outcome, message in unexpected:
        first = message.strip().splitlines()[0][:300] if message.strip() else ""
        print(f"FAILS WITH ASSAY ({outcome}): {test_id}\n    {first}")
    for pattern, reason in stale:
        print(f"STALE ENTRY (no test passing for scikit-learn fails with assay): {pattern}  # {reason}")
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
