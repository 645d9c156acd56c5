#!/usr/bin/env python3
"""tests/cli/test_bad_arguments.py — bad arguments to the shipped mechanics, from the command line.

Reads tests/cli/bad_arguments/<ruleset>.txt, one file per shipped ruleset: blocks separated by
blank lines, each a command (the words after `alea`, split as a shell would), then `exit: N`,
then the first line the error must print on stderr, `<command line>:LINE:COL: error: …`, which
places it at the argument to blame. Nothing may be printed on stdout: a bad argument never gives
a value. Lines starting with `#` are comments.

Every mechanic that `alea describe --json` lists for a ruleset must have at least one case in
its file, so a new mechanic comes with the arguments it refuses.

Usage: test_bad_arguments.py /path/to/alea
"""
import json
import re
import shlex
from concurrent.futures import ThreadPoolExecutor

from clitest import ROOT, check, finish, first_of_each, run

DIR = ROOT / "tests" / "cli" / "bad_arguments"
cases = []
for path in sorted(DIR.glob("*.txt")):
    block = []
    for number, line in enumerate(path.read_text().splitlines() + [""], 1):
        if line.startswith("#"):
            continue
        if line.strip():
            block.append((number, line))
            continue
        if block:
            where = f"{path.name}:{block[0][0]}"
            check(f"{where}: a case is a command, exit: N and the error line",
                  len(block) == 3 and block[1][1].startswith("exit: "), repr(block))
            if len(block) == 3:
                cases.append((path.stem, where, shlex.split(block[0][1]), int(block[1][1][6:]), block[2][1]))
            block = []

rulesets = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
check("a file of bad arguments for each shipped ruleset",
      sorted(p.stem for p in DIR.glob("*.txt")) == rulesets, f"{rulesets}")

# Which mechanics the cases call: `ruleset.mechanic` as a word of the command.
called = set()
for ruleset, where, words, code, first in cases:
    for w in words:
        m = re.fullmatch(r"([a-z0-9-]+)\.([A-Za-z_][A-Za-z0-9_]*)", w)
        if m and m.group(1) == ruleset:
            called.add((ruleset, m.group(2)))
for ruleset in rulesets:
    rc, out, err = run(["describe", "--json", ruleset])
    check(f"describe --json {ruleset}", rc == 0, err)
    if rc != 0:
        continue
    missing = [m["name"] for m in json.loads(out)["mechanics"] if (ruleset, m["name"]) not in called]
    check(f"bad_arguments/{ruleset}.txt has a case for every mechanic", not missing,
          f"{len(missing)} without one: {', '.join(missing)}")

# Under ASan+UBSan the messages are the plain tree's to check: there, the first case of each
# mechanic is enough to walk its error paths.
cases = first_of_each(cases, lambda case: next((w for w in case[2] if w.startswith(case[0] + ".")), case[1]))

with ThreadPoolExecutor(max_workers=2) as pool:
    results = list(pool.map(lambda case: run(case[2]), cases))
for (ruleset, where, words, code, first), (rc, out, err) in zip(cases, results):
    label = f"{where}: {' '.join(words)[:70]}"
    check(label, rc == code, f"exit {rc}, expected {code}: {err.strip()[:400]}")
    check(label, out == "", f"printed a value: {out[:200]!r}")
    got = err.splitlines()[0] if err else ""
    check(label, got == first, f"\n  got      {got}\n  expected {first}")

finish("test_bad_arguments", f" ({len(cases)} cases)")
