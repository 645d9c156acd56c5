#!/usr/bin/env python3
"""tests/cli/test_bad_arguments.py — bad arguments to the shipped mechanics, from the command line.

Reads tests/cli/bad_arguments.txt: blocks separated by blank lines, each a command (the words
after `alea`, split as a shell would), then `exit: N`, then the first line the error must print
on stderr, `<command line>:LINE:COL: error: …`, which places it at the argument to blame. Nothing
may be printed on stdout: a bad argument never gives a value. Lines starting with `#` are comments.

Usage: test_bad_arguments.py /path/to/alea
"""
import shlex

from clitest import ROOT, check, finish, run

cases = []
block = []
for number, line in enumerate((ROOT / "tests" / "cli" / "bad_arguments.txt").read_text().splitlines() + [""], 1):
    if line.startswith("#"):
        continue
    if line.strip():
        block.append((number, line))
        continue
    if block:
        check(f"bad_arguments.txt:{block[0][0]}: a case is a command, exit: N and the error line",
              len(block) == 3 and block[1][1].startswith("exit: "), repr(block))
        if len(block) == 3:
            cases.append((block[0][0], shlex.split(block[0][1]), int(block[1][1][6:]), block[2][1]))
        block = []

check("bad_arguments.txt has cases", len(cases) >= 10, str(len(cases)))
for number, words, code, first in cases:
    rc, out, err = run(words)
    label = f"bad_arguments.txt:{number}: {' '.join(words)[:70]}"
    check(label, rc == code, f"exit {rc}, expected {code}: {err.strip()[:400]}")
    check(label, out == "", f"printed a value: {out[:200]!r}")
    got = err.splitlines()[0] if err else ""
    check(label, got == first, f"\n  got      {got}\n  expected {first}")

finish("test_bad_arguments")
