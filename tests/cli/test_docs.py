# tests/cli/test_docs.py — runs every example in the documentation and checks its output.
#
# Usage: python3 test_docs.py /path/to/alea   (exit 0 = every example printed what the doc says)
#
# It reads docs/*.md, docs/games/*.md, rulesets/README.md and, if it exists, README.md. An example is a fenced code block whose first line starts with `$ alea `:
#
#     ```
#     $ alea roll '4d6kh3' --dice 6,4,1,3
#     4d6kh3 → 6 4 ~1~ 3 = 13
#     $ alea roll '1 / 0'
#     # exit: 1
#     <input>:1:5: error: division by zero [DivisionByZero]
#      1 | 1 / 0
#        |     ^
#     ```
#
# Each `$ alea …` line is a command: it is split with shlex, `alea` is replaced by
# the binary under test, and it runs from the repository root with a 60 s
# timeout, no shell and no standard input. An optional `# exit: N` line right
# after the command gives the expected exit code (default 0), and `# stdin: TEXT` lines after it
# are its standard input, a line each (for `alea serve`). The lines after
# that, up to the next `$ ` line or the end of the block, are the expected
# output: standard output followed by standard error (the order a terminal shows
# for alea, whose notes and diagnostics come after its result). Lines are
# compared after removing trailing whitespace; blank lines at the end are ignored.
# The seconds a stats document took ("seconds", "exact_seconds") match any number.
import difflib
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = [*sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "games").glob("*.md")),
        ROOT / "rulesets" / "README.md", ROOT / "README.md"]
TIMEOUT = 60  # seconds per command: a hang guard, not a speed test
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")
EXIT = re.compile(r"^# exit: (\d+)$")
STDIN = re.compile(r"^# stdin: (.*)$")


class Example:
    def __init__(self, path, line, command):
        self.path = path
        self.line = line  # 1-based line of the `$ alea` line
        self.command = command
        self.exit = 0
        self.stdin = None  # the lines given on standard input, or None: none
        self.expected = []

    def where(self):
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def code_blocks(path):
    """Yields (first line number, [lines]) for each fenced code block of a Markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m.group(1), m.group(2)
        body, start = [], i + 2
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if close and close.group(2)[0] == fence[0] and len(close.group(2)) >= len(fence) \
                    and not lines[i].strip()[len(close.group(2)):].strip():
                break
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        i += 1  # past the closing fence (or the end of the file)
        yield start, body


def examples(path, problems):
    found = []
    for start, body in code_blocks(path):
        if not body or not body[0].startswith("$ alea "):
            continue
        current = None
        just_started = False  # the previous line was the command: an `# exit: N` may follow
        for offset, text in enumerate(body):
            if text.startswith("$ "):
                current, just_started = None, False
                if not text.startswith("$ alea "):
                    problems.append(f"{path.relative_to(ROOT)}:{start + offset}: a command in an example "
                                    f"block must start with '$ alea ': {text}")
                    continue
                current, just_started = Example(path, start + offset, text[2:]), True
                found.append(current)
                continue
            if current is None:
                continue
            if just_started and EXIT.match(text):
                current.exit = int(EXIT.match(text).group(1))
                continue
            if just_started and STDIN.match(text):
                current.stdin = (current.stdin or []) + [STDIN.match(text).group(1)]
                continue
            else:
                current.expected.append(text)
            just_started = False
    return found


# The seconds a stats document says it took differ on every run: any number matches.
SECONDS = re.compile(r'("(?:exact_)?seconds": )[-+0-9.e]+')


def normalise(lines):
    out = [SECONDS.sub(r"\1#", line.rstrip()) for line in lines]
    while out and not out[-1]:
        out.pop()
    return out


def run(example, alea):
    try:
        argv = shlex.split(example.command)
    except ValueError as e:
        return None, f"cannot split the command: {e}"
    if not argv or argv[0] != "alea":
        return None, "the command does not start with 'alea'"
    argv[0] = alea
    try:
        stdin = None if example.stdin is None else "".join(line + "\n" for line in example.stdin).encode()
        p = subprocess.run(argv, cwd=ROOT, input=stdin, stdin=subprocess.DEVNULL if stdin is None else None,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT} s"
    except OSError as e:
        return None, f"cannot run {alea}: {e}"
    text = p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace")
    return (p.returncode, normalise(text.splitlines())), None


def main():
    if len(sys.argv) != 2:
        print("usage: test_docs.py /path/to/alea", file=sys.stderr)
        return 2
    alea = os.path.abspath(sys.argv[1])
    if not os.access(alea, os.X_OK):
        print(f"FAIL  {alea} is not an executable file")
        return 1

    problems, all_examples = [], []
    for path in DOCS:
        if path.exists():
            all_examples += examples(path, problems)
    for p in problems:
        print(f"FAIL  {p}")
    if not all_examples:
        print("FAIL  no examples found: expected fenced blocks starting with '$ alea ' in docs/language.md")
        return 1

    failed = 0
    for ex in all_examples:
        result, error = run(ex, alea)
        if error:
            failed += 1
            print(f"FAIL  {ex.where()}: $ {ex.command}\n      {error}")
            continue
        code, actual = result
        expected = normalise(ex.expected)
        if code == ex.exit and actual == expected:
            continue
        failed += 1
        print(f"FAIL  {ex.where()}: $ {ex.command}")
        if code != ex.exit:
            print(f"      exit code {code}, expected {ex.exit}")
        if actual != expected:
            diff = difflib.unified_diff(expected, actual, "expected (the doc)", "actual", lineterm="")
            for line in diff:
                print(f"      {line}")
    summary = f"{len(all_examples)} examples, {failed} failed"
    if problems:
        summary += f", {len(problems)} malformed command line{'s' if len(problems) > 1 else ''}"
    print(summary)
    return 1 if failed or problems else 0


if __name__ == "__main__":
    sys.exit(main())
