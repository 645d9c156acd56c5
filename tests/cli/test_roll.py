#!/usr/bin/env python3
"""tests/cli/test_roll.py — `alea roll` and `alea run` as a user runs them:
output, exit codes, diagnostics on stderr, JSON, and hostile input.

Usage: test_roll.py /path/to/alea   (CTest passes the built binary)
"""
import json
import subprocess
import sys

ALEA = sys.argv[1]
failures = []


def run(args, stdin=None, timeout=60):
    p = subprocess.run([ALEA] + args, input=stdin, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")


def expect(args, code, out=None, err_contains=None, stdin=None):
    rc, so, se = run(args, stdin)
    label = " ".join(args)[:60]
    check(label, rc == code, f"exit {rc}, expected {code}; stderr: {se.strip()[:300]}")
    if out is not None:
        check(label, so == out, f"stdout {so!r}, expected {out!r}")
    if err_contains is not None:
        check(label, err_contains in se, f"stderr {se!r} lacks {err_contains!r}")
    return so, se


# The examples, with scripted dice.
expect(["roll", "4d6kh3", "--dice", "4,4,6,3"], 0, "4d6kh3 → 4 4 6 ~3~ = 14\n")
expect(["roll", "3d6 explode 6", "--dice", "6,4,1,3"], 0, "3d6 explode 6 → 6! 4 1 +3 = 14\n")
# Several words are one expression.
expect(["roll", "3d6", "+", "2", "--dice", "1,2,3"], 0, "3d6 + 2 → [1 2 3] + 2 = 8\n")
# A seed gives the same roll every time.
a, _ = expect(["roll", "10d10!kh3", "--seed", "12"], 0)
b, _ = expect(["roll", "10d10!kh3", "--seed", "12"], 0)
check("seed", a == b and a, f"{a!r} vs {b!r}")
# Min and max dice give the bounds.
expect(["roll", "3d6 + 1", "--min"], 0, "3d6 + 1 → [1 1 1] + 1 = 4\n")
expect(["roll", "3d6 + 1", "--max"], 0, "3d6 + 1 → [6 6 6] + 1 = 19\n")
# Scripted dice left over are an error, for a mechanic and with --json too; so is running short.
expect(["roll", "1d6", "--dice", "3,4"], 1, "", "<input>:1:1: error: 1 scripted die was not used (4): the roll "
       "took 1 of the 2 given [ScriptedDiceUnused]\n 1 | 1d6\n   | ^~~\nnote: give only the 1 it takes\n")
expect(["roll", "1 + 2", "--dice", "3"], 1, "", "note: it rolls no dice: leave out --dice")
expect(["roll", "heroes-mythos.check", "dice=2", "--dice", "3,4,5,6"], 1, "",
       "<command line>:1:1: error: 2 scripted dice were not used (5, 6): the roll took 2 of the 4 given")
rc, out, err = run(["roll", "3d6 explode 6", "--dice", "6,6,1,2,3,4", "--json"])
doc = json.loads(out)
check("unused dice --json", rc == 1 and doc["ok"] is False and doc["error"]["code"] == "ScriptedDiceUnused"
      and doc["error"]["message"] == "1 scripted die was not used (4): the roll took 5 of the 6 given", out)
expect(["roll", "heroes-mythos.check", "dice=3", "--dice", "3"], 1, "",
       "'heroes_mythos.check' failed: ran out of scripted dice: this roll needs 3 d6, and only 1 was given; "
       "give at least 2 more [ScriptedDiceExhausted]")

# Malformed input: a one-line error with position and caret on stderr, exit 1.
cases = [
    ("(1d6 + 3", "<input>:1:9: error: expected ')', found end of input [UnclosedDelimiter]"),
    ("3d", "<input>:1:3: error: expected the number of sides after 'd'"),
    ("1d20kx", "<input>:1:6: error: unknown dice modifier 'x' [UnexpectedText]"),
    ("4d6 frobnicate 3", "<input>:1:5: error: unexpected text after the expression, found 'frobnicate'"),
    ("9999999d9999999", "<input>:1:9: error: a die may have at most 1000000 sides, got 9999999 (max_sides) [InvalidDie]"),
    ("9999999d6", "<input>:1:1: error: this roll needs 9999999 dice; at most 10000 may be rolled at once (max_dice)"),
    ("1d1 explode 1", "<input>:1:5: error: every face of a d1 explodes on =1, so this would never stop"),
    ("(" * 5000 + "1" + ")" * 5000, "error: expression is nested more than 200 levels deep (max_nesting) [NestingTooDeep]"),
]
for expr, first in cases:
    _, err = expect(["roll", expr], 1)
    lines = err.splitlines()
    check(expr[:30], len(lines) >= 3 and first in lines[0], f"stderr {err[:400]!r}")
    check(expr[:30], any(set(l.split("|", 1)[-1].strip()) <= set("^~") and "^" in l for l in lines[1:3]),
          f"no caret line in {err[:400]!r}")

# A megabyte of input is refused at once (through a file, as argv cannot hold it).
_, err = expect(["run", "-"], 1, stdin="1+" * 500_000 + "1")
check("1MB", "input is 1000001 bytes long; the limit is 100000 bytes (max_input_bytes) [InputTooLong]" in err, err[:300])

# Programs from a file; errors name the file.
expect(["run", "-", "--dice", "2,5"], 0, "half(2d6) → half([2 5]) = 3\n", stdin="fn half(x) = x / 2\nhalf(2d6)\n")
_, err = expect(["run", "-"], 1, stdin="let a = 1\nlet b = a +\n")
check("file error", err.startswith("<stdin>:3:1: error: expected an expression after the operator, found end of input"), err)
_, err = expect(["run", "/nonexistent/file.alea"], 2, err_contains="cannot read '/nonexistent/file.alea'")

# --json is one parseable document, for success and for errors.
out, _ = expect(["roll", "3d6!", "--dice", "6,4,1,3", "--json"], 0)
doc = json.loads(out)
check("json value", doc["value"] == 14 and doc["ok"] is True, out)
check("json dice", [d["face"] for d in doc["dice"]] == [6, 4, 1, 3] and doc["dice"][3]["origin"] == "exploded", out)
out, _ = expect(["roll", "10d10", "--seed", "3", "--json"], 0)
check("json seed", json.loads(out)["seed"] == 3, out)
out, err = expect(["roll", "3d6 +", "--json"], 1)
doc = json.loads(out)
check("json error", doc["ok"] is False and doc["error"]["code"] == "ExpectedExpression"
      and doc["error"]["location"] == {"file": "<input>", "line": 1, "column": 6}, out)

# Usage errors exit 2 with a reason; --help exits 0.
expect(["roll"], 2, err_contains="give an expression")
expect(["roll", "3d6", "--sed", "3"], 2, err_contains="--sed")
expect(["roll", "3d6", "--dice", "6,x"], 2, err_contains="'x' is not a whole number")
expect(["roll", "3d6", "--min", "--max"], 2, err_contains="exclude each other")
expect(["frobnicate"], 2)
out, _ = expect(["--help"], 0)
check("help", "roll" in out and "Exit codes" in out, out)
out, _ = expect(["roll", "--help"], 0)
check("roll help", "--seed" in out and "--dice" in out and "--json" in out, out)
# Both name an expression's NAME=VALUE variables, with an example (docs/stats.md §7 for stats).
check("roll help: variables", "alea roll 'd20 + bonus' bonus=5" in out, out)
out, _ = expect(["stats", "--help"], 0)
check("stats help: variables", "alea stats 'd20 + bonus >= 15' bonus=3 " in out
      and "alea stats 'd20 + bonus >= 15' bonus=3..7 " in out
      and "NAME=VALUE words after an expression set its variables" in out, out)
# Both name FILE#MECHANIC, a mechanic of a ruleset file (docs/stats.md §7).
check("stats help: a ruleset file", "mine/RULESET.yaml#MECHANIC" in out and "FILE#MECHANIC" in out, out)
check("roll help: a ruleset file", "alea roll mine/RULESET.yaml#MECHANIC" in run(["roll", "--help"])[1])

# `alea help` is `alea --help`; a misspelt command gets the nearest one, as git's do (exit 2).
out, _ = expect(["help"], 0)
check("alea help", out == run(["--help"])[1], out[:200])
out, _ = expect(["help", "stats"], 0)
check("alea help stats", out == run(["stats", "--help"])[1], out[:200])
for words, message in [
        (["rol", "3d6"], "alea: 'rol' is not an alea command. The most similar command is 'roll'\n"),
        (["--seed", "3", "sats"], "alea: 'sats' is not an alea command. The most similar command is 'stats'\n"),
        (["help", "rol"], "alea: 'rol' is not an alea command. The most similar command is 'roll'\n"),
        (["frobnicate"], "alea: 'frobnicate' is not an alea command. See 'alea help'\n"),
        (["3d6"], "alea: '3d6' is not an alea command. See 'alea help'; to roll an expression: alea roll '3d6'\n")]:
    rc, so, se = run(words)
    check(" ".join(words), rc == 2 and so == "" and se == message, f"exit {rc}: {so!r} {se!r}")

# Variables from the command line: trailing name=value words; each shown by its name.
expect(["roll", "d20 + bonus", "bonus=5", "--dice", "14"], 0, "d20 + bonus → [14] + bonus:5 = 19\n")
expect(["roll", "bonus * n", "n=2", "bonus=-1"], 0, "bonus * n → bonus:-1 * n:2 = -2\n")
out, _ = expect(["roll", "d20 + bonus", "bonus=2 + 3", "--dice", "14", "--json"], 0)
doc = json.loads(out or "{}")
check("json variables", doc.get("variables") == {"bonus": 5} and doc.get("value") == 19, out)
for words, message in [
        (["d20", "bonus=5"], "the variable 'bonus' is given but the expression never reads it (it reads no variables)"),
        (["d20 + bonus", "bonos=5"], "the variable 'bonos' is given but the expression never reads it (did you mean 'bonus'?)"),
        (["d20 + x", "3x=5"], "'3x=5' is not NAME=VALUE with a variable name"),
        (["d20 + x", "x=d4"], "'x=d4': a variable's value rolls no dice: write the dice in the expression"),
        (["d20 + x", "x=1", "x=2"], "'x=2': the variable 'x' is given twice")]:
    expect(["roll", *words, "--dice", "3"], 2, "", err_contains=message)

# --format for chat, --color for a terminal (never when piped, unless asked).
expect(["roll", "4d6kh3", "--dice", "6,4,1,3", "--format", "markdown"], 0, "`4d6kh3` → **6** 4 ~~1~~ 3 = **13**\n")
expect(["roll", "5d10>=8", "--dice", "9,2,8,10,1", "--format", "discord"], 0,
       "`5d10>=8` → 9\\* 2 8\\* **10\\*** **1** = **3**\n")
expect(["roll", "repeat 2 { d6 }", "--dice", "3,5", "--format", "markdown"], 0,
       "`repeat 2 { d6 }` = **[3, 5]**\n- `d6`: 3\n- `d6`: 5\n")
expect(["roll", "4d6kh3", "--dice", "6,4,1,3", "--color", "always"], 0,
       "4d6kh3 → \x1b[32m6\x1b[0m 4 \x1b[2;9m~1~\x1b[0m 3 = \x1b[1m13\x1b[0m\n")
expect(["roll", "4d6kh3", "--dice", "6,4,1,3"], 0, "4d6kh3 → 6 4 ~1~ 3 = 13\n")
expect(["roll", "3d6", "--json", "--format", "markdown"], 2, err_contains="--json and --format markdown exclude each other")
expect(["roll", "3d6", "--format", "discord", "--color", "always"], 2,
       err_contains="--color always colours the text breakdown, not --format discord")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("test_roll: all checks passed")
