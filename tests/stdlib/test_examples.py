#!/usr/bin/env python3
"""Checks the documented contract of every public stdlib function.

Usage: test_examples.py ALEA_BINARY

For each `fn name(...)` in stdlib/*.alea whose name does not start with '_',
the comment right above it must start with `# name(`, state the contract and
give exactly one example line of the form `#   EXPR == VALUE`; the example
must hold (`alea roll 'EXPR == VALUE'` prints `= true`). docs/stdlib.md must
list the same public functions, each with its example word for word.
Standard library only.
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FN = re.compile(r"^fn ([A-Za-z_][A-Za-z0-9_]*)\(")
EXAMPLE = re.compile(r"^#   (\S.*)$")
DOC_ROW = re.compile(r"^\| `([A-Za-z_][A-Za-z0-9_]*)\(")


def functions(path):
    """Yields (name, line number, comment lines above) for each fn of a file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        m = FN.match(line)
        if not m:
            continue
        j = i
        while j > 0 and lines[j - 1].startswith("#"):
            j -= 1
        yield m.group(1), i + 1, lines[j:i]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    alea = sys.argv[1]
    failures = []
    public = {}
    for path in sorted((ROOT / "stdlib").glob("*.alea")):
        for name, line, comment in functions(path):
            where = f"stdlib/{path.name}:{line}: {name}"
            if name.startswith("_"):
                continue
            if name in public:
                failures.append(f"{where}: defined again (first in {public[name][0]})")
                continue
            if not comment or not comment[0].startswith(f"# {name}("):
                failures.append(f"{where}: the comment above must start with '# {name}(' and state the contract")
            examples = [m.group(1) for c in comment if (m := EXAMPLE.match(c))]
            if len(examples) != 1:
                failures.append(f"{where}: needs exactly one example line '#   EXPR == VALUE', found {len(examples)}")
                continue
            example = examples[0]
            public[name] = (where, example)
            if " == " not in example:
                failures.append(f"{where}: the example must read 'EXPR == VALUE': {example}")
                continue
            run = subprocess.run([alea, "roll", "--", example], capture_output=True, text=True, timeout=60)
            first = run.stdout.splitlines()[0] if run.stdout else ""
            if run.returncode != 0 or not first.endswith("= true"):
                failures.append(f"{where}: the example does not hold: {example}\n"
                                f"    exit {run.returncode}: {first or run.stderr.strip()}")

    doc = ROOT / "docs" / "stdlib.md"
    text = doc.read_text(encoding="utf-8")
    documented = [m.group(1) for l in text.splitlines() if (m := DOC_ROW.match(l))]
    for name, (where, example) in public.items():
        if name not in documented:
            failures.append(f"{where}: missing from docs/stdlib.md")
        elif example not in text:
            failures.append(f"{where}: docs/stdlib.md does not show its example: {example}")
    for name in documented:
        if name not in public:
            failures.append(f"docs/stdlib.md: lists '{name}', which is not a public stdlib function")
    if len(documented) != len(set(documented)):
        failures.append("docs/stdlib.md: a function is listed twice")

    for f in failures:
        print("FAIL", f)
    print(f"{len(public)} public functions, {len(failures)} problems")
    return 1 if failures or not public else 0


if __name__ == "__main__":
    sys.exit(main())
