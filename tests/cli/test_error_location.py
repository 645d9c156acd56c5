#!/usr/bin/env python3
"""tests/cli/test_error_location.py — an error inside library code (the stdlib, a shipped
ruleset) is reported where the user's code called it: `alea roll`, `alea run`, `alea stats`,
the REPL, in text and with --json. The library's call sites follow as notes, outermost first,
the original place last; a homebrewer's own ruleset (--rulesets, ALEA_PATH, a file) is the
user's code and keeps its errors.

Usage: test_error_location.py /path/to/alea   (CTest passes the built binary)
"""
import json
import shutil
import tempfile
from pathlib import Path

from clitest import check, environment, finish, run

tmp = Path(tempfile.mkdtemp(prefix="alea-errloc-"))


def headline(err):
    """The first line of a diagnostic."""
    return err.splitlines()[0] if err else ""


def note_lines(err):
    """The note lines, in order, without their snippets."""
    return [line for line in err.splitlines() if ": note: " in line or line.startswith("note: ")]


def locations(notes):
    """The (file, line, column) of each JSON note, None where it has no place."""
    return [None if n["location"] is None else
            (n["location"]["file"], n["location"]["line"], n["location"]["column"]) for n in notes]


SUM_FIELD_NOTES = ["stdlib/lists.alea:76:32: note: 'sum_field' calls 'column' here",
                   "stdlib/lists.alea:71:43: note: the error is here, in 'column'"]

# ---- a stdlib function called badly from the input ----------------------------------
rc, out, err = run(["roll", 'sum_field([{a: 1}], "b")'])
check("stdlib error exits 1", rc == 1, err)
check("stdlib error is at the input",
      headline(err) == "<input>:1:1: error: 'sum_field' failed: the record has no field 'b' [UnknownField]", err)
check("the input's line is shown under it", err.splitlines()[1:3] == [' 1 | sum_field([{a: 1}], "b")',
                                                                       "   | ^~~~~~~~~~~~~~~~~~~~~~~~"], err)
check("the library's calls follow, the error's place last", note_lines(err) == SUM_FIELD_NOTES, err)
check("the error's place keeps its caret",
      err.rstrip("\n").splitlines()[-2:] == [" 71 | fn column(rows, name) = for r in rows { r[name] }",
                                              "    |                                           ^~~~"], err)

rc, out, err = run(["roll", 'sum_field([{a: 1}], "b")', "--json"])
doc = json.loads(out)
e = doc["error"]
check("json: exit 1, not ok", rc == 1 and doc["ok"] is False, out)
check("json: the code stays", e["code"] == "UnknownField", out)
check("json: the message names the function", e["message"] == "'sum_field' failed: the record has no field 'b'", out)
check("json: the location is the input's", e["location"] == {"file": "<input>", "line": 1, "column": 1}, out)
check("json: no flat file/line/column any more", not {"file", "line", "column"} & set(e), out)
check("json: notes with their locations, innermost last",
      [n["message"] for n in e["notes"]] == ["'sum_field' calls 'column' here", "the error is here, in 'column'"]
      and locations(e["notes"]) == [("stdlib/lists.alea", 76, 32), ("stdlib/lists.alea", 71, 43)], out)

# A note without a place has a null location.
rc, out, err = run(["roll", "let strength = 3; strenght + 1", "--json"])
e = json.loads(out)["error"]
check("json: a note without a place", e["notes"] == [{"message": "did you mean 'strength'?", "location": None}]
      and e["location"] == {"file": "<input>", "line": 1, "column": 19}, out)

# ---- a user function in the input calls the stdlib badly ---------------------------------
rc, out, err = run(["roll", 'fn f(x) = sum_field(x, "b"); f([{a: 1}])'])
check("user fn: the primary place is the inner call in the input",
      headline(err) == "<input>:1:11: error: 'sum_field' failed: the record has no field 'b' [UnknownField]", err)
check("user fn: the outer call follows the library's notes",
      note_lines(err) == SUM_FIELD_NOTES + ["<input>:1:30: note: in a call to 'f'"], err)

# An error in the user's own code is where it was.
rc, out, err = run(["roll", "fn f(x) = x / 0; f(1)"])
check("user code: unchanged", headline(err) == "<input>:1:15: error: division by zero [DivisionByZero]"
      and note_lines(err) == ["<input>:1:18: note: in a call to 'f'"], err)

# ---- the function a `vs` calls ----------------------------------------------------------
# `A vs B by f(x)` is built as lets and a call of f: its errors are where they were. One in
# the user's f is in f, the call at the `by` clause; the stdlib's `contest` (no `by`) is
# library code, reported at the `vs` clause that called it.
rc, out, err = run(["roll", "fn f(a, b) = a / (b - b); d6 vs d6 by f()", "--dice", "2,3"])
check("vs: an error in the user's f is in f", rc == 1 and err.splitlines()[:3] == [
    "<input>:1:18: error: division by zero [DivisionByZero]",
    " 1 | fn f(a, b) = a / (b - b); d6 vs d6 by f()",
    "   |                  ^~~~~~~"], err)
check("vs: the call is the `by` clause", note_lines(err) == ["<input>:1:36: note: in a call to 'f'"], err)
rc, out, err = run(["roll", 'd6 vs "x"', "--dice", "2"])
check("vs: an error in contest is at the `vs` clause", rc == 1 and err.splitlines()[:3] == [
    "<input>:1:4: error: 'contest' failed: the right side of '>' must be a number, got the string \"x\" "
    "[TypeMismatch]",
    ' 1 | d6 vs "x"',
    "   |    ^~~~~~"], err)
check("vs: then contest's calls", note_lines(err) == [
    "stdlib/tiers.alea:45:29: note: 'contest' calls 'higher' here",
    "stdlib/tiers.alea:35:26: note: the error is here, in 'higher'"], err)
rc, out, err = run(["roll", "d6 vs d6 by nope"])
check("vs: an unknown `by` function is at its name", rc == 1 and err.splitlines() == [
    "<input>:1:13: error: unknown function 'nope' [UnknownFunction]",
    " 1 | d6 vs d6 by nope",
    "   |             ^~~~",
    "note: did you mean 'note'?"], err)
rc, out, err = run(["roll", "fn f(a) = a; d6 vs d6 by f(1)"])
check("vs: a `by` function taking too few is counted with the two results",
      rc == 1 and headline(err) == "<input>:1:23: error: 'f' takes 1 argument, got 3 [WrongArgumentCount]", err)

# ---- alea run: the program file is the user's code ---------------------------------------
program = tmp / "prog.alea"
program.write_text('let rows = [{a: 1}]\nsum_field(rows, "b")\n')
rc, out, err = run(["run", str(program)])
check("run: at the program's line", rc == 1 and headline(err) == (
    f"{program}:2:1: error: 'sum_field' failed: the record has no field 'b' [UnknownField]"), err)

# ---- a shipped ruleset's mechanic -------------------------------------------------------
rc, out, err = run(["roll", "pbta-superiority.use", "roll=[2, 4]", "index=2"])
# The mechanic's `requires:` refuses the call at the argument it names, with the rule's sentence.
check("shipped ruleset: at the argument", rc == 1 and headline(err) == (
    "<command line>:1:43: error: 'pbta_superiority.use' failed: the index must name a die of the roll, from 0 "
    "to one less than its length [Refused]"), err)
check("shipped ruleset: the yaml's place is the last note",
      note_lines(err)[-1] == "rulesets/pbta-superiority.yaml:152:16: note: the error is here, in "
                             "'pbta_superiority.use'", err)
rc, out, err = run(["roll", "pbta-superiority.use", "roll=[2, 4]", "index=2", "--json"])
e = json.loads(out)["error"]
check("shipped ruleset json", e["location"] == {"file": "<command line>", "line": 1, "column": 43}
      and e["code"] == "Refused" and locations(e["notes"])[-1] == ("rulesets/pbta-superiority.yaml", 152, 16), out)

# ---- a homebrewer's own ruleset is the user's code ----------------------------------------
homebrew = tmp / "rules"
homebrew.mkdir()
(homebrew / "my-rules.yaml").write_text("""schema: 1
name: my-rules
title: A homebrew ruleset with mistakes
source: a test
functions: |
  fn pick(r) = r.alpah
mechanics:
  check:
    doc: fails in its own function
    params:
      x: {type: int, doc: anything}
    body: |
      pick({alpha: x})
    returns: {type: int, doc: never given}
  look:
    doc: fails in the stdlib
    params:
      key: {type: label, choices: [a, b], doc: the key}
    body: |
      lookup({a: 1}, key)
    returns: {type: int, doc: the entry}
""")
yaml = str(homebrew / "my-rules.yaml")
rc, out, err = run(["roll", "--rulesets", str(homebrew), "my-rules.check", "x=1"])
check("own ruleset: its error stays in it", rc == 1 and headline(err) == (
    f"{yaml}:6:16: error: the record has no field 'alpah' [UnknownField]"), err)
check("own ruleset: the notes as before", note_lines(err) == [
    "note: did you mean 'alpha'?", f"{yaml}:13:7: note: in a call to 'pick'",
    "<command line>:1:1: note: in a call to 'my_rules.check'"], err)
# Its call into the stdlib is a call from the user's code, by --rulesets or ALEA_PATH alike.
for how, args, env in (("--rulesets", ["roll", "--rulesets", str(homebrew), 'my_rules.look(key: "b")'], None),
                       ("ALEA_PATH", ["roll", 'my_rules.look(key: "b")'], environment(ALEA_PATH=str(homebrew)))):
    rc, out, err = run(args, env=env)
    check(f"own ruleset ({how}): a stdlib error is at the ruleset's call", rc == 1 and headline(err).startswith(
        f"{yaml}:20:7: error: 'lookup' failed: assertion failed: ") and note_lines(err) == [
        "stdlib/tables.alea:15:13: note: the error is here, in 'lookup'",
        "<input>:1:1: note: in a call to 'my_rules.look'"], err)

# ---- alea stats ------------------------------------------------------------------------
for extra in ([], ["--sampled", "--samples", "1000"]):
    rc, out, err = run(["stats", 'sum_field([{a: d6}], "b")'] + extra)
    check(f"stats {extra}: at the input", rc == 1 and headline(err) == (
        "<input>:1:1: error: 'sum_field' failed: the record has no field 'b' [UnknownField]")
          and note_lines(err) == SUM_FIELD_NOTES, err)
rc, out, err = run(["stats", 'sum_field([{a: d6}], "b")', "--json"])
e = json.loads(out)["error"]
check("stats json error", rc == 1 and e["location"] == {"file": "<input>", "line": 1, "column": 1}
      and locations(e["notes"]) == [("stdlib/lists.alea", 76, 32), ("stdlib/lists.alea", 71, 43)], out)
# Some runs fail: the first error, in the report and in unresolved.error.
expr = 'let x = d6; if x > 3 then lookup({a: 1}, "b") else x'
rc, out, err = run(["stats", expr])
check("stats: a failing share names the user's call", rc == 0 and
      "<input>:1:27: error: 'lookup' failed: assertion failed:" in out + err, out + err)
rc, out, err = run(["stats", expr, "--json"])
e = json.loads(out)["unresolved"]["error"]
check("stats json unresolved.error", rc == 0 and e["location"] == {"file": "<input>", "line": 1, "column": 27}
      and locations(e["notes"]) == [("stdlib/tables.alea", 15, 13)], out)

# ---- the REPL --------------------------------------------------------------------------
script = ('fn f(x) = sum_field(x, "b")\nf([{a: 1}])\n'
          f":load {yaml}\nmy_rules.check(x: 1)\n"
          ":load pbta-superiority\npbta_superiority.use(roll: [2, 4], index: 2)\n")
rc, out, err = run(["repl"], stdin=script)
lines = err.splitlines()
check("repl: a stdlib error is at the input that called it",
      "<input>:1:11: error: 'sum_field' failed: the record has no field 'b' [UnknownField]" in lines
      and "<input>:1:1: note: in a call to 'f'" in lines, err)
check("repl: a ruleset loaded by its file is the user's",
      f"{yaml}:6:16: error: the record has no field 'alpah' [UnknownField]" in lines, err)
check("repl: a shipped ruleset found by name is library code",
      any(line.startswith("<input>:1:43: error: 'pbta_superiority.use' failed: ") for line in lines)
      and "rulesets/pbta-superiority.yaml:152:16: note: the error is here, in 'pbta_superiority.use'" in lines, err)

shutil.rmtree(tmp, ignore_errors=True)
finish("test_error_location")
