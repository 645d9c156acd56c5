#!/usr/bin/env python3
"""Checks that stdlib functions fail as their contracts say.

Usage: test_failures.py ALEA_BINARY

A program cannot catch an error, so the failures promised by the contracts in
stdlib/*.alea (a missing table entry, a roll past a table, ...) are checked
here: each expression must exit 1 with an AssertionFailed error whose message
holds the given text, reported at the caller's line (the error is in the
stdlib, so it is shown where the input called it, with the stdlib's place as
the last note). Standard library only.
"""
import subprocess
import sys

CASES = [
    ('lookup({plains: 1, forest: 2}, "forst")',
     'assertion failed: {lookup: "the table has no entry for this key", key: "forst"}'),
    ('lookup({plains: 1}, 3)', 'key: 3}'),
    ('lookup({}, "a")', 'key: "a"}'),
    ('cell({road: {walk: 1}}, "road", "ride")', 'key: "ride"}'),
    ('cell({road: {walk: 1}}, "river", "walk")', 'key: "river"}'),
    ('entry(["a", "b", "c"], 4)', '{entry: "no item has this number", n: 4, items: 3}'),
    ('entry(["a", "b", "c"], 0)', 'n: 0, items: 3}'),
    ('entry([], 1)', 'n: 1, items: 0}'),
    ('band(0, [[1, "miss"], [3, "hit"]])', '{band: "x is below the first band", x: 0}'),
    ('band(3, [])', 'x: 3}'),
    ('row_for(9, [{from: 1, to: 2}, {from: 3, to: 6}])', '{row_for: "no row holds x", x: 9}'),
    ('row_for(1, [])', 'x: 1}'),
    ('degree(12, 10, 0)', '{degree: "the step must be 1 or more", step: 0}'),
    ('tier_of(8, [7, 10], ["miss", "hit"])',
     '{tier_of: "labels needs one item more than thresholds", thresholds: 2, labels: 2}'),
    ('permute([3, 1, 2], 4)', '{permute: "the permutation has no item with this number", i: 4, items: 3}'),
    ('permute([3, 1, 2], 0)', 'i: 0, items: 3}'),
    ('permute([], 1)', 'i: 1, items: 0}'),
    ('compose([1, 4], [2, 1, 3])', '{permute: "the permutation has no item with this number", i: 4, items: 3}'),
    ('invert([3, 3, 1])', '{invert: "not a permutation", missing: [2], extra: [3]}'),
    ('invert([0, 1])', 'missing: [2], extra: [0]}'),
]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    alea = sys.argv[1]
    failures = 0
    for expr, message in CASES:
        run = subprocess.run([alea, "roll", "--", expr], capture_output=True, text=True, timeout=60)
        lines = run.stderr.splitlines()
        notes = [line for line in lines if ": note: " in line]
        ok = (run.returncode == 1 and len(lines) > 1 and "[AssertionFailed]" in run.stderr and message in run.stderr
              and lines[0].startswith(f"<input>:1:1: error: '{expr[:expr.index('(')]}' failed: ")
              and lines[1] == f" 1 | {expr}"
              and notes and notes[-1].startswith("stdlib/") and ": note: the error is here, in '" in notes[-1])
        if not ok:
            failures += 1
            print(f"FAIL {expr}\n  wanted exit 1, AssertionFailed and: {message}\n"
                  f"  got exit {run.returncode}:\n{run.stderr}{run.stdout}")
    print(f"{len(CASES)} failures checked, {failures} wrong")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
