#!/usr/bin/env python3
"""tests/cli/test_rulesets.py — rulesets from the command line: `alea rulesets`,
`alea describe`, `alea check`, `alea roll RULESET.MECHANIC key=value…`, the
search path (--rulesets, ALEA_PATH), and the REPL's :load, :rulesets and
:describe through a pipe (tests/cli/test_repl.py drives them on a terminal).

Every Heroes & Mythos test vector of the spec is rolled from the command line;
the vectors are read from tests/rulesets/vectors/heroes-mythos.yaml, so the
C++ and the command-line tests check the same table.

Usage: test_rulesets.py /path/to/alea   (CTest passes the built binary)
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from clitest import ALEA, ROOT, check, environment, expect, failures, run

SHIPPED = ROOT / "rulesets" / "heroes-mythos.yaml"


# ---- alea rulesets ------------------------------------------------------------------

# Every shipped ruleset is listed; Heroes & Mythos is checked in full.
expect(["rulesets"], 0, out_contains="heroes-mythos — Heroes & Mythos d6 System\n  mechanics: check\n"
                                     "  file: rulesets/heroes-mythos.yaml\n")
out, _ = expect(["rulesets", "--json"], 0)
doc = json.loads(out)
check("rulesets --json names its schema", doc.get("schema") == "alea.rulesets/1", out[:200])
doc = doc.get("rulesets", [])
shipped = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
check("rulesets --json", [r["name"] for r in doc] == shipped and all(r["ok"] for r in doc), out)
check("rulesets --json", {"name": "heroes-mythos", "title": "Heroes & Mythos d6 System",
                          "file": "rulesets/heroes-mythos.yaml", "mechanics": ["check"], "ok": True} in doc, out)
# Outside the repository the file is shown by its absolute path.
with tempfile.TemporaryDirectory() as elsewhere:
    expect(["rulesets"], 0, out_contains=f"  file: {SHIPPED}\n", cwd=elsewhere)

# ---- alea describe ------------------------------------------------------------------

expect(["describe", "heroes-mythos"], 0, out_contains=[
    "heroes-mythos — Heroes & Mythos d6 System\n",
    "file: rulesets/heroes-mythos.yaml\n",
    "Parameters of the whole ruleset, settable on each mechanic that reads them:\n  explode_limit (int?, default none, at least 0)\n",
    "  heroes-mythos.check\n      a roll of white dice, with red dice against them",
    "      dice (int, required, at least 1)\n          N, the white dice of the roll (Nd6)\n",
    "      red (int, default 0, at least 0)\n",
    "      difficulty (int, default 10, at least 1)\n",
    "    result, a record:\n",
    "      outcome (label: catastrophe, failure, success)\n          the three ways a roll ends\n",
    "      alea roll heroes-mythos.check dice=3 red=1 --dice 4,5,5,4\n",
])
# The language's spelling of the name works as well.
a, _ = expect(["describe", "heroes_mythos"], 0)
b, _ = expect(["describe", "heroes-mythos"], 0)
check("describe heroes_mythos", a == b, a[:200])
expect(["describe", "heroes-mythos.check"], 0, out_contains=[
    "heroes-mythos.check — a roll of white dice, with red dice against them, compared with a difficulty\n",
    "parameters, in call order:\n  dice (int, required, at least 1)\n",
    "parameters of the whole ruleset that it reads, settable on this call too:\n  explode_limit (int?, default none, at least 0)\n",
    "  extra_successes (int)\n",
    "usage: alea roll heroes-mythos.check dice=… [red=0] [difficulty=10] [explode_limit=none]\n",
    "call it as: alea roll heroes-mythos.check dice=3\n",
    "in the language: heroes_mythos.check(dice: 3)\n",
])
out, _ = expect(["describe", "heroes-mythos", "--json"], 0)
doc = json.loads(out)
check("describe --json", doc["name"] == "heroes-mythos" and doc["parameters"][0]["name"] == "explode_limit"
      and doc["parameters"][0]["default"] is None and doc["parameters"][0]["type"] == "int?"
      and doc["mechanics"][0]["call"] == "heroes_mythos.check"
      and [p["name"] for p in doc["mechanics"][0]["params"]] == ["dice", "red", "difficulty"]
      and doc["mechanics"][0]["result"][4]["outcomes"] == ["catastrophe", "failure", "success"], out[:500])
# A record field bounded by another field says so (RULESET.TYPE shows a record type's fields).
out, _ = expect(["describe", "strategiya.hero"], 0)
check("describe shows a bound by another field", "lives (int?, default none, at least 0, at most its max_lives)" in out,
      out[:800])
# One mechanic is short: a record type it takes is a line naming its fields; --full (or the type's own
# description) has each field in full. A mechanic that takes no record is the same either way.
short, _ = expect(["describe", "strategiya.combat_duel"], 0, out_contains=[
    "parameters, in call order:\n  a (hero, required)\n",
    "a hero is a record of 15 fields: str, spd, int, lives, max_lives, total,\n"
    "  swords, shield, two_handed, armour, bow, staff, mount, back, surrounded\n"
    "each field in full: alea describe strategiya.hero (or add --full)\n",
    "\nexamples:\n  alea roll strategiya.combat_duel a.str=4 b.str=6 log=true"])
full, _ = expect(["describe", "strategiya.combat_duel", "--full"], 0, out_contains=[
    "a hero is a record of:\n  str (int, default 0, at least 0)\n"])
check("describe one mechanic: short", "str (int, default 0" not in short and "record of 15 fields" not in full
      and len(short.splitlines()) + 30 < len(full.splitlines()), short)
a, _ = expect(["describe", "heroes-mythos.check"], 0)
b, _ = expect(["describe", "heroes-mythos.check", "--full"], 0)
check("describe a mechanic that takes no record: --full changes nothing", a == b, b)
expect(["describe", "strategiya.hero"], 0, out_contains=[
    "strategiya.hero — a record type: a hero (герой) as a battle sees him",
    "ruleset: «Стратегия» (Strategiya) (rulesets/strategiya.yaml)\n\na hero is a record of:\n"
    "  str (int, default 0, at least 0)\n",
    "\ntaken by: strategiya.combat_roll, strategiya.combat_damage,"])
expect(["describe", "strategiya.hero", "--full"], 2, "",
       err_contains="alea: strategiya.hero is a record type, shown in full already: leave out --full\n")
expect(["describe", "strategiya.hero", "--json"], 2,
       err_contains="strategiya.hero is a record type: alea describe strategiya --json has its fields, under \"types\"")
expect(["describe", "strategiya.heor"], 1, err_contains=[
    "the ruleset strategiya has no mechanic 'heor' (did you mean 'hero'?)",
    "; its record types: hero, resource_columns, adventure_columns, sheet\n"])
out, _ = expect(["describe", "strategiya.build"], 0)
check("describe shows an optional list and its items' bounds",
      "strengths (list? of int, default none, at least 1 item, each at least 0)" in out, out[:800])
out, _ = expect(["describe", "heroes-mythos.check", "--json"], 0)
doc = json.loads(out)
check("describe mechanic --json", doc["name"] == "check" and doc["ruleset"] == "heroes-mythos"
      and doc["params"][0] == {"type": "int", "min": 1, "max": None, "min_field": None, "max_field": None, "choices": [],
                               "face": None, "min_length": None,
                               "max_length": None, "name": "dice", "required": True, "default": None,
                               "doc": "N, the white dice of the roll (Nd6)"}
      and doc["ruleset_parameters"][0]["name"] == "explode_limit", out[:500])
# A mechanic's refusal (`refusal: {allowed, why}`) names its two fields; one without has no such key.
check("describe --json: no refusal declared, no key", "refusal" not in doc, out[:500])
out, _ = expect(["describe", "dozen-die.jump", "--json"], 0)
check("describe --json: the refusal", json.loads(out).get("refusal") == {"allowed": "allowed", "why": "outcome"},
      out[-800:])
out, _ = expect(["describe", "strategiya", "--json"], 0)
refusals = {m["name"]: m["refusal"] for m in json.loads(out)["mechanics"] if "refusal" in m}
check("describe RULESET --json: each mechanic's refusal", refusals == {"equipment_check": {"allowed": "ok", "why": "problems"}},
      str(refusals))
# Unknown names: exit 1, with a suggestion.
expect(["describe", "heroes-mythos.chek"], 1,
       err_contains="the ruleset heroes-mythos has no mechanic 'chek' (did you mean 'check'?); its mechanics: check")
expect(["describe", "heroes-mythoss"], 1, err_contains="there is no ruleset 'heroes-mythoss' (did you mean 'heroes-mythos'?)")
expect(["describe", "heroes_mythoss.check"], 1, err_contains="(did you mean 'heroes-mythos'?)")
expect(["describe", "nothing-like-it"], 1, err_contains="there is no ruleset 'nothing-like-it'; 'alea rulesets' lists them")
expect(["describe"], 2, err_contains="name is required")

# ---- alea check ---------------------------------------------------------------------

expect(["check", "rulesets/heroes-mythos.yaml"], 0, "rulesets/heroes-mythos.yaml: ok\n")

BROKEN = """\
schema: 1
name: broken
title: A broken ruleset
source: the tests
mechanics:
  check:
    doc: a check
    parms:
      dice: {type: int, doc: white dice}
    body: |
      let x = 3d6 in
      x + * 2
    returns: {type: int, doc: [the, total]}
"""

MINI = """\
schema: 1
name: mini
title: A small ruleset
source: the tests
doc: |
  Roll a d6 plus a bonus.
parameters:
  bonus: {type: int, default: 0, min: -3, max: 3, doc: added to every roll}
mechanics:
  roll:
    doc: a d6 plus the bonus
    group: rolls
    params:
      mood: {type: label, choices: [calm, angry], default: calm, doc: how it is rolled}
    body: |
      let r = d6 + bonus in
      {total: r, mood: mood, high: r >= 4}
    result:
      total: {type: int, doc: the die plus the bonus}
      mood: {type: label, outcomes: [calm, angry], doc: the mood given}
      high: {type: bool, doc: 4 or more}
    examples:
      - mini.roll mood=angry
  twice:
    doc: two dice
    group: tables
    body: 2d6
    returns: {type: int, doc: the total}
"""

with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    (tmp / "broken.yaml").write_text(BROKEN)
    (tmp / "mini.yaml").write_text(MINI)
    (tmp / "good.alea").write_text("fn twice(x) = x * 2\ntwice(3d6)\n")
    (tmp / "bad.alea").write_text("let a = 1\nlet b = a +\n")
    (tmp / "uses.alea").write_text("mini.roll(bonus: 1).total\n")

    # All three mistakes of the broken file, each at its line and column, and exit 1.
    _, err = expect(["check", str(tmp / "broken.yaml")], 1)
    heads = [l for l in err.splitlines() if ": error: " in l]
    check("check broken: the three errors", len(heads) == 3, err)
    where = str(tmp / "broken.yaml")
    for expected in [f"{where}:8:5: error: unknown key 'parms' in the mechanic 'check' [RulesetUnknownKey]",
                     f"{where}:12:11: error: expected an expression after the operator, found '*' [ExpectedExpression]",
                     f"{where}:13:31: error: 'doc' must be text [RulesetFieldType]"]:
        check("check broken", expected in heads, f"{expected!r} not in {heads!r}")
    check("check broken: a suggestion", "note: did you mean 'params'?" in err, err)
    check("check broken: the count", err.rstrip().endswith(f"{where}: 3 errors"), err)
    # Run from the directory, the file is shown as given.
    _, err = expect(["check", "broken.yaml"], 1, cwd=tmp, err_contains="broken.yaml:8:5: error: unknown key 'parms'")
    check("check broken: relative name", err.startswith("broken.yaml:8:5:"), err)
    # Several files: each good one is ok, the exit status is the worst.
    expect(["check", "mini.yaml", "good.alea", "broken.yaml"], 1, "mini.yaml: ok\ngood.alea: ok\n", cwd=tmp)
    expect(["check", "mini.yaml", "good.alea"], 0, "mini.yaml: ok\ngood.alea: ok\n", cwd=tmp)
    expect(["check", "bad.alea"], 1, "", cwd=tmp,
           err_contains="bad.alea:3:1: error: expected an expression after the operator, found end of input")
    # A program may call a ruleset given on the same command line, or one of the path.
    expect(["check", "uses.alea", "mini.yaml"], 0, "uses.alea: ok\nmini.yaml: ok\n", cwd=tmp)
    expect(["check", "uses.alea", "--rulesets", "."], 0, "uses.alea: ok\n", cwd=tmp)
    expect(["check", "uses.alea"], 1, cwd=tmp, err_contains="unknown function 'mini.roll'")
    # A missing file is one line on stderr and exit 1; no file at all is bad usage.
    expect(["check", "missing.yaml"], 1, "", cwd=tmp,
           err_contains="missing.yaml: error: cannot read the file: it does not exist")
    expect(["check", "missing.alea", "mini.yaml"], 1, "mini.yaml: ok\n", cwd=tmp,
           err_contains="missing.alea: error: cannot read the file")
    expect(["check"], 2, err_contains="file is required")

    # ---- the search path --------------------------------------------------------------

    # A broken ruleset in the path is listed, and does not make the listing fail.
    expect(["rulesets", "--rulesets", str(tmp)], 0, out_contains=[
        f"broken (has errors; run: alea check {tmp / 'broken.yaml'})\n",
        f"mini — A small ruleset\n  mechanics: roll, twice\n  file: {tmp / 'mini.yaml'}\n",
        "heroes-mythos — Heroes & Mythos d6 System\n"])
    out, _ = expect(["rulesets", "--json", "--rulesets", str(tmp)], 0)
    by_name = {r["name"]: r for r in json.loads(out)["rulesets"]}
    check("rulesets --json broken", by_name["broken"]["ok"] is False and by_name["broken"]["mechanics"] == []
          and by_name["mini"]["ok"] is True and by_name["mini"]["mechanics"] == ["roll", "twice"], out)
    # --rulesets before the command, and ALEA_PATH with empty entries.
    expect(["--rulesets", str(tmp), "describe", "mini"], 0, out_contains="mini — A small ruleset\n")
    expect(["describe", "mini"], 0, out_contains="mini — A small ruleset\n",
           env=environment(ALEA_PATH=f"::/nonexistent:{tmp}:"))
    expect(["describe", "mini"], 1, err_contains="there is no ruleset 'mini'")
    expect(["rulesets", "--rulesets", str(tmp / "nope")], 2, err_contains="--rulesets")
    expect(["describe", "broken", "--rulesets", str(tmp)], 1, err_contains="error: unknown key 'parms'")

    # A ruleset of several groups is shown short, a line per mechanic; a group, or --full, in full.
    expect(["describe", "mini", "--rulesets", str(tmp)], 0, out_contains=[
        "\nMechanics by group (2):\n  rolls\n    roll   a d6 plus the bonus\n  tables\n    twice  two dice\n"
        "\nParameters of the whole ruleset:\n  bonus\n\nalea describe mini GROUP shows one group's mechanics in full"])
    expect(["describe", "mini", "TABLES", "--rulesets", str(tmp)], 0,
           "mini — A small ruleset\n\nMechanics: tables\n\n  mini.twice\n      two dice\n    returns (int)\n"
           "        the total\n\nalea describe mini.MECHANIC shows one mechanic and how to call it;\n"
           "alea describe mini lists the groups.\n")
    expect(["describe", "mini", "tabels", "--rulesets", str(tmp)], 1, "",
           err_contains="alea: the ruleset mini has no group 'tabels' (did you mean 'tables'?); its groups: rolls; tables\n")
    expect(["describe", "mini.roll", "rolls", "--rulesets", str(tmp)], 2, "",
           err_contains="alea: mini.roll is one mechanic: it has no group 'rolls' to show\n")
    expect(["describe", "mini", "rolls", "--json", "--rulesets", str(tmp)], 2,
           err_contains="--json describes the whole ruleset (alea.describe/1): leave out the group")
    expect(["describe", "mini", "rolls", "--full", "--rulesets", str(tmp)], 2,
           err_contains="--full shows every group: leave out the group, or --full")
    # Groups, labels, a plain result, and label words on the command line.
    expect(["describe", "mini", "--full", "--rulesets", str(tmp)], 0, out_contains=[
        "Parameters of the whole ruleset, settable on each mechanic that reads them:\n  bonus (int, default 0, -3 to 3)\n",
        "Mechanics: rolls\n\n  mini.roll\n      a d6 plus the bonus\n",
        "      mood (label, default calm, one of calm, angry)\n",
        "      mood (label: calm, angry)\n",
        "Mechanics: tables\n\n  mini.twice\n      two dice\n    returns (int)\n        the total\n",
        # With several groups, a table of contents comes first.
        "\nMechanics by group (2, each described below):\n  rolls: roll\n  tables: twice\n\nParameters of"])
    # A ruleset parameter is part of the calls of the mechanics that read it, and of no other.
    expect(["roll", "mini.twice", "bonus=2", "--rulesets", str(tmp)], 1, "", err_contains=[
        "<command line>:1:12: error: mini.twice never reads 'bonus': setting it would change nothing "
        "[UnknownArgument]\n", "note: its parameters: none\n"])
    expect(["roll", "mini.twice(bonus: 2)", "--rulesets", str(tmp)], 1, "",
           err_contains="error: 'mini.twice' has no parameter 'bonus' [UnknownArgument]")
    out, _ = expect(["describe", "mini.twice", "--rulesets", str(tmp)], 0,
                    out_contains="usage: alea roll mini.twice\n")
    check("describe mini.twice: no ruleset parameters", "bonus" not in out, out)
    out, _ = expect(["describe", "mini.twice", "--json", "--rulesets", str(tmp)], 0)
    check("describe mini.twice --json", json.loads(out)["reads"] == [] and json.loads(out)["ruleset_parameters"] == [], out)
    out, _ = expect(["describe", "mini.roll", "--json", "--rulesets", str(tmp)], 0)
    check("describe mini.roll --json", json.loads(out)["reads"] == ["bonus"], out)
    # So is a call the ruleset itself makes, at its argument.
    (tmp / "calls.yaml").write_text(MINI.replace("name: mini", "name: calls") + """\
  both:
    doc: both
    body: |
      roll(mood: "calm").total + twice(bonus: 1)
    returns: {type: int, doc: the total}
""")
    expect(["check", "calls.yaml"], 1, cwd=tmp, err_contains=
           "calls.yaml:32:40: error: 'twice' never reads 'bonus': setting it here would change nothing")
    expect(["describe", "mini.roll", "--rulesets", str(tmp)], 0, out_contains=[
        "group: rolls\n", "usage: alea roll mini.roll [mood=calm] [bonus=0]\n",
        "call it as: alea roll mini.roll mood=angry\n", "in the language: mini.roll(mood: \"angry\")\n"])
    expect(["roll", "mini.roll", "mood=angry", "bonus=2", "--dice", "3", "--rulesets", str(tmp)], 0,
           "mini.roll(mood: \"angry\", bonus: 2)\n  d6: 3\ntotal: 5\nmood: angry\nhigh: true\n")
    # A mechanic with a plain result prints the usual breakdown.
    expect(["roll", "mini.twice", "--dice", "3,4"], 0, "mini.twice() = 7\n  2d6: 3 4\n",
           env=environment(ALEA_PATH=str(tmp)))
    expect(["roll", "mini.roll", "bonus=9", "--rulesets", str(tmp)], 1,
           err_contains="<command line>:1:18: error: the parameter 'bonus' must be at most 3, got 9")
    expect(["roll", "broken.check", "dice=1", "--rulesets", str(tmp)], 1,
           err_contains="error: unknown key 'parms' in the mechanic 'check'")
    out, _ = expect(["roll", "broken.check", "dice=1", "--json", "--rulesets", str(tmp)], 1,
                    err_contains="broken.yaml:8:5: error: unknown key 'parms'")
    check("json broken ruleset", json.loads(out)["error"]["code"] == "RulesetUnknownKey", out)
    expect(["roll", "mini.roll(bonus: 1).total", "--dice", "5", "--rulesets", str(tmp)], 0,
           "mini.roll(bonus: 1).total = 6\n  d6: 5\n")

    # A ruleset of the same name earlier in the path hides the shipped one.
    shadow = tmp / "shadow"
    shadow.mkdir()
    (shadow / "heroes-mythos.yaml").write_text(
        SHIPPED.read_text(encoding="utf-8").replace("title: Heroes & Mythos d6 System", "title: Shadowed"),
        encoding="utf-8")
    out, _ = expect(["rulesets", "--rulesets", str(shadow)], 0,
                    out_contains=f"heroes-mythos — Shadowed\n  mechanics: check\n  file: {shadow / 'heroes-mythos.yaml'}\n")
    check("shadowed", "Heroes & Mythos d6 System" not in out, out)
    expect(["describe", "heroes-mythos"], 0, out_contains="heroes-mythos — Shadowed\n",
           env=environment(ALEA_PATH=str(shadow)))
    # --rulesets comes before ALEA_PATH.
    expect(["describe", "heroes-mythos", "--rulesets", str(ROOT / "rulesets")], 0,
           out_contains="heroes-mythos — Heroes & Mythos d6 System\n", env=environment(ALEA_PATH=str(shadow)))

    # A refusal names fields of the record result; `allowed` a bool one.
    (tmp / "refuses.yaml").write_text(MINI.replace("name: mini", "name: refuses").replace(
        "    examples:\n      - mini.roll mood=angry\n",
        "    refusal: {allowed: total, why: mod}\n"))
    _, err = expect(["check", "refuses.yaml"], 1, cwd=tmp)
    check("refusal: a bool field", "'allowed' names a bool field (true: the action is allowed), and 'total' is int" in err, err)
    check("refusal: a field of the result", "'mod' is not a field of the mechanic's result; its fields: total, mood, high"
          in err and "note: did you mean 'mood'?" in err, err)

    # ---- the REPL, through a pipe --------------------------------------------------------

    script = ("let x = 3\n:load heroes-mythoss\n:load broken.yaml\nx + 1\n:load heroes-mythos\n:rulesets\n"
              ":dice 4,5,5,4\nheroes_mythos.check(3, red: 1).result\n:describe heroes-mythos.check\n"
              ":describe mini\n:describe mini rolls\n:describe strategiya.combat_duel --full\n"
              ":describe strategiya.hero\n:dice 2\nmini.roll().total\n")
    rc, out, err = run(["--seed", "1", "--rulesets", "."], stdin=script, cwd=tmp)
    check("repl pipe exit", rc == 0, err)
    check("repl :load unknown", "error: there is no ruleset 'heroes-mythoss' (did you mean 'heroes-mythos'?)" in err, err)
    check("repl :load broken", "broken.yaml:8:5: error: unknown key 'parms'" in err
          and "error: the ruleset was not loaded; nothing changed" in err, err)
    check("repl after a failed :load", "x + 1 = 4\n" in out, out)
    check("repl :load", "loaded heroes-mythos — Heroes & Mythos d6 System\n"
          "  heroes_mythos.check(dice, red = 0, difficulty = 10)\n" in out, out)
    check("repl :rulesets", "heroes-mythos — Heroes & Mythos d6 System (loaded)\n" in out
          and "mini — A small ruleset\n" in out, out)
    check("repl mechanic call", "heroes_mythos.check(3, red: 1).result = 10\n  dice d6: ~4~ 5 5\n" in out, out)
    check("repl :describe", "in the language: heroes_mythos.check(dice: 3)\n" in out
          and "Mechanics by group (2):\n" in out and "Mechanics: rolls\n" in out, out)
    check("repl :describe RULESET.MECHANIC --full, RULESET.TYPE",
          out.count("a hero is a record of:\n  str (int, default 0, at least 0)\n") == 2
          and "\ntaken by: strategiya.combat_roll," in out, out)
    # A ruleset the input calls is loaded from the path, with a note.
    check("repl loads what it calls", "mini.roll().total = 2\n" in out
          and "note: loaded the ruleset mini (mini.yaml)" in err, out + err)


# ---- YAML aliases: a short file must not stand for an endless or a huge one -----------------

ALIAS_HEAD = "schema: 1\nname: {name}\ntitle: t\nsource: s\nconstants:\n"
ALIAS_TAIL = "mechanics:\n  m:\n    doc: d\n    body: '1'\n    returns: {type: int, doc: x}\n"
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    (tmp / "cycle.yaml").write_text(ALIAS_HEAD.format(name="cycle") + "  a: &a [1, *a]\n" + ALIAS_TAIL)
    laughs = "".join(f"  {n}: &{n} [{', '.join(['*' + p] * 10)}]\n" for p, n in zip("abcdef", "bcdefg"))
    (tmp / "laughs.yaml").write_text(ALIAS_HEAD.format(name="laughs") + "  a: &a [1,2,3,4,5,6,7,8,9,10]\n" + laughs
                                     + ALIAS_TAIL)
    # A self-referencing alias was a stack overflow; ten aliases of ten aliases, gigabytes.
    expect(["check", str(tmp / "cycle.yaml")], 1,
           err_contains=["cycle.yaml:6:6: error: lists and mappings nest too deep here: an alias may refer to itself "
                         "[RulesetInvalidValue]"])
    expect(["check", str(tmp / "laughs.yaml")], 1,
           err_contains=["error: the file's aliases expand to too many values here [RulesetInvalidValue]",
                         "hold 200000 values, aliases expanded"])
    expect(["roll", "cycle.m", "--rulesets", str(tmp)], 1, err_contains=["cycle.yaml:6:6: error: lists and mappings"])


# ---- Heroes & Mythos: every vector of the spec, from the command line ----------------

def vectors():
    """The vectors of tests/rulesets/vectors/heroes-mythos.yaml, as dictionaries.

    The file is read with a few regular expressions (the tests use the standard library only):
    each entry is `- id:`, `call:`, `dice:`, an `expect:` block of `field: 'value'` lines and
    `exploded:`, as tests/rulesets/vectors_test.cpp documents the format."""
    text = (ROOT / "tests" / "rulesets" / "vectors" / "heroes-mythos.yaml").read_text(encoding="utf-8")
    ints = lambda s: [int(x) for x in s.split(",") if x.strip()]
    out = []
    for chunk in re.split(r"\n  - ", text)[1:]:
        entry = {"expect": {}}
        for line in chunk.splitlines():
            if m := re.fullmatch(r"id: (\w+)", line.strip()):
                entry["id"] = m[1]
            elif m := re.fullmatch(r"\s*call: '(.*)'", line):
                entry["call"] = m[1]
            elif m := re.fullmatch(r"\s*(dice|exploded): \[([0-9, ]*)\]", line):
                entry[m[1]] = ints(m[2])
            elif m := re.fullmatch(r"\s{6}(\w+): '(.*)'", line):
                entry["expect"][m[1]] = m[2]
        call = re.fullmatch(r"heroes_mythos\.check\(dice: (\d+), red: (\d+), difficulty: (\d+), "
                            r"explode_limit: (none|\d+)\)", entry.get("call", ""))
        if not call or "dice" not in entry:
            raise ValueError(f"cannot read the vector {chunk[:200]!r}")
        e = entry["expect"]
        out.append({"id": entry["id"], "dice": int(call[1]), "red": int(call[2]), "difficulty": int(call[3]),
                    "limit": call[4], "faces": entry["dice"], "exploded": entry.get("exploded", []),
                    "result": int(e["result"]), "success": e["success"] == "true",
                    "extra": int(e["extra_successes"]), "catastrophe": e["catastrophe"] == "true"})
    return out


table = vectors()
check("the vector table", len(table) == 32 and table[0]["id"] == "T1" and table[-1]["id"] == "D23",
      f"read {len(table)} vectors: {[v['id'] for v in table]}")
for v in table:
    args = ["roll", "heroes-mythos.check", f"dice={v['dice']}", f"red={v['red']}",
            f"difficulty={v['difficulty']}", f"explode_limit={v['limit']}",
            "--dice", ",".join(map(str, v["faces"]))]
    rc, out, err = run(args + ["--json"])
    if rc != 0:
        check(v["id"], False, f"exit {rc}: {err}")
        continue
    doc = json.loads(out)
    value = doc["value"]
    got = (value["result"], value["success"], value["extra_successes"], value["catastrophe"])
    want = (v["result"], v["success"], v["extra"], v["catastrophe"])
    check(v["id"], got == want, f"{' '.join(args)}: got {got}, expected {want}")
    outcome = "catastrophe" if v["catastrophe"] else "success" if v["success"] else "failure"
    check(v["id"] + " outcome", value["outcome"] == outcome, out)
    exploded = [d["face"] for d in doc["dice"] if d["origin"] == "exploded"]
    check(v["id"] + " explosions", exploded == v["exploded"], f"{exploded} in {out[:300]}")
    # The text form: the call, its dice, then one field to a line.
    rc, text, err = run(args)
    fields = (f"result: {v['result']}\nsuccess: {str(v['success']).lower()}\nextra_successes: {v['extra']}\n"
              f"catastrophe: {str(v['catastrophe']).lower()}\noutcome: {outcome}\n")
    check(v["id"] + " text", rc == 0 and text.endswith(fields) and text.startswith("heroes_mythos.check(dice: "),
          f"{text!r} {err!r}")

# The breakdown of T4 in full: the red 4 cancels the white 4.
expect(["roll", "heroes-mythos.check", "dice=3", "red=1", "--dice", "4,5,5,4"], 0,
       "heroes_mythos.check(dice: 3, red: 1)\n  dice d6: ~4~ 5 5\n  red d6: 4\n  4 cancelled 4\n"
       "  used: [5, 5]\n  extra successes: []\nresult: 10\nsuccess: true\nextra_successes: 0\n"
       "catastrophe: false\noutcome: success\n")
# The language's spelling of the ruleset works on the command line too.
expect(["roll", "heroes_mythos.check", "dice=3", "--dice", "4,4,2"], 0, out_contains="result: 10\n")
# --json is render_json's document, the expression being the call.
out, _ = expect(["roll", "heroes-mythos.check", "dice=3", "--seed", "7", "--json"], 0)
doc = json.loads(out)
check("json call", doc["expression"] == "heroes_mythos.check(dice: 3)" and doc["seed"] == 7 and doc["ok"], out)
# A random roll is reproducible with its seed.
a, _ = expect(["roll", "heroes-mythos.check", "dice=5", "red=2", "--seed", "11"], 0)
b, _ = expect(["roll", "heroes-mythos.check", "dice=5", "red=2", "--seed", "11"], 0)
check("seeded mechanic", a == b and "outcome: " in a, f"{a!r} vs {b!r}")
# An expression may call a mechanic: the ruleset it names is loaded from the path.
expect(["roll", "heroes_mythos.check(3, red: 1).success", "--dice", "4,5,5,4"], 0,
       out_contains="heroes_mythos.check(3, red: 1).success = true\n")

# So may a program.
expect(["run", "-", "--dice", "4,4,2"], 0, out_contains="heroes_mythos.check(3).result = 10\n",
       stdin="heroes_mythos.check(3).result\n")

# ---- mistakes on the command line ----------------------------------------------------

# A mistake in the name=value words is shown in the command line as typed, with exit 1.
expect(["roll", "heroes-mythos.check", "dice=3", "white=3"], 1, "", err_contains=[
    "<command line>:1:28: error: heroes-mythos.check has no parameter 'white' [UnknownArgument]\n"
    " 1 | heroes-mythos.check dice=3 white=3\n"
    "   |                            ^~~~~\n"
    "note: its parameters: dice, red, difficulty, explode_limit\n"])
expect(["roll", "heroes-mythos.check", "dice=3", "reds=1"], 1, err_contains="note: did you mean 'red'?")
out, err = expect(["roll", "heroes-mythos.check", "dics=3", "--json"], 1)
doc = json.loads(out)
check("json unknown parameter", doc["ok"] is False and doc["error"]["code"] == "UnknownArgument"
      and doc["error"]["location"]["column"] == 21 and doc["error"]["notes"][0]["message"] == "did you mean 'dice'?"
      and doc["error"]["notes"][0]["location"] is None, out)
expect(["roll", "heroes-mythos.check", "dice=3", "3"], 2,
       err_contains="'3' is not a parameter setting; after heroes-mythos.check write name=value words")
expect(["roll", "heroes-mythos.check", "dice=3", "red"], 2, err_contains="'red' is not a parameter setting")
expect(["roll", "heroes-mythos.check", "dice=3", "red="], 2, err_contains="'red=' is not a parameter setting")
expect(["roll", "heroes-mythos.check", "dice=3", "dice=4"], 2, err_contains="'dice' is set twice")
expect(["roll", "heroes-mythos.check"], 1, err_contains=[
    "<command line>:1:1: error: heroes-mythos.check needs a value for 'dice': add dice=… [MissingArgument]",
    "note: dice: N, the white dice of the roll (Nd6)"])
expect(["roll", "heroes-mythos.chek", "dice=3"], 1, err_contains=[
    "<command line>:1:15: error: the ruleset heroes-mythos has no mechanic 'chek' [UnknownFunction]",
    "note: did you mean 'check'?\nnote: its mechanics: check\n"])
expect(["roll", "heroes-mythoss.check", "dice=3"], 1, err_contains=[
    "<command line>:1:1: error: there is no ruleset 'heroes-mythoss' [RulesetNotFound]",
    "note: did you mean 'heroes-mythos'?"])
expect(["roll", "heroes-mythos.check", "dice=0"], 1,
       err_contains="<command line>:1:27: error: the argument 'dice' must be at least 1, got 0 [ArgumentOutOfRange]")
expect(["roll", "heroes-mythos.check", "dice=3", "--min", "--max"], 2, err_contains="exclude each other")
out, _ = expect(["roll", "--help"], 0)
check("roll help", "alea roll RULESET.MECHANIC dice=3" in out and "alea describe RULESET.MECHANIC" in out, out)
for cmd, example in [("rulesets", "alea rulesets --rulesets"), ("describe", "alea describe RULESET.MECHANIC"),
                     ("check", "alea check my-game.yaml"), ("test", "alea test my-game.yaml")]:
    out, _ = expect([cmd, "--help"], 0)
    check(f"{cmd} help", example in out and "--rulesets" in out, out)
out, _ = expect(["describe", "--help"], 0)
check("describe help: a mechanic --full, a record type", "alea describe RULESET.MECHANIC --full\n" in out
      and "alea describe RULESET.TYPE\n" in out, out)
out, _ = expect(["--help"], 0)
check("help", all(w in out for w in ("rulesets", "describe", "check", "test", "ALEA_PATH")), out)

# ---- examples that test the ruleset: alea check and alea test -----------------------------------

MY_GAME = "examples/rulesets/my-game.yaml"      # every example passes
FAILING = "tests/cli/selftest/failing.yaml"     # examples that load, and fail when run
BAD = "tests/cli/selftest/bad-examples.yaml"    # examples the loader refuses
expect(["check", MY_GAME], 0, f"{MY_GAME}: ok\n")
expect(["test", MY_GAME], 0, "PASS my-game.check (3 examples)\nPASS my-game.total (2 examples)\n"
       "PASS my-game.rank (1 example)\nSKIP my-game.untested (no examples)\n"
       "3 passed, 0 failed, 1 without examples (6 examples run)\n")
# Each failure at its example: a mismatch (at its `expect`, naming the field of a partial record),
# dice run out or left over, an expect of unscripted dice, a mistake in the call.
_, err = expect(["check", FAILING], 1)
heads = [l for l in err.splitlines() if ": error: " in l]
for expected in [
        f"{FAILING}:19:17: error: example 'failing.check dice=3 --dice 4,5,1': expected success: false, "
        "got success: true [ExampleFailed]",
        f"{FAILING}:20:15: error: example 'failing.check dice=3 --dice 4,5': ran out of scripted dice: this roll "
        "needs 3 d6, and only 2 were given; give at least 1 more [ScriptedDiceExhausted]",
        f"{FAILING}:30:17: error: example 'failing.total dice=2 --dice 6,6': expected 11, got 12 [ExampleFailed]",
        f"{FAILING}:31:15: error: example 'failing.total dice=1 --dice 6,6': 1 scripted die was not used (6): the "
        "roll took 1 of the 2 given [ScriptedDiceUnused]",
        f"{FAILING}:34:17: error: example 'failing.total dice=2': its result depends on 2 dice not scripted: give "
        "the faces with --dice, or leave out 'expect' [ExampleFailed]",
        f"{FAILING}:35:9: error: example 'failing.total dices=2': failing.total has no parameter 'dices' "
        "[UnknownArgument]"]:
    check("check failing examples", expected in heads, f"{expected!r} not in {heads!r}")
check("check failing examples: where the dice ran out", f"{FAILING}:12:19: note: found here" in err, err)
check("check failing examples: the count", err.rstrip().endswith(f"{FAILING}: 7 errors"), err)
out, err = expect(["test", FAILING], 1)
check("test failing", out == f"FAIL failing.check: example at {FAILING}:19: expected success: false, got success: "
      f"true (and 1 more)\nFAIL failing.total: example at {FAILING}:30: expected 11, got 12 (and 4 more)\n"
      "PASS failing.fine (1 example)\n1 passed, 2 failed, 0 without examples (7 examples run)\n", out)
check("test failing: the reports on stderr", f"{FAILING}:31:15: error: example" in err, err)
out, _ = expect(["test", FAILING, "--json"], 1)
doc = json.loads(out)
check("test --json", doc["schema"] == "alea.test/1" and doc["ok"] is False and (doc["passed"], doc["failed"],
      doc["skipped"], doc["examples"]) == (1, 2, 0, 7) and [(m["mechanic"], m["ok"], len(m["diagnostics"]))
      for m in doc["rulesets"][0]["mechanics"]] == [("failing.check", False, 2), ("failing.total", False, 5),
      ("failing.fine", True, 0)] and doc["rulesets"][0]["mechanics"][0]["diagnostics"][0]["location"]
      == {"file": FAILING, "line": 19, "column": 17}, out[:1500])
out, _ = expect(["check", FAILING, "--json"], 1)
check("check --json: the examples' errors", [d["code"] for d in json.loads(out)["files"][0]["diagnostics"]]
      == ["ExampleFailed", "ScriptedDiceExhausted", "ExampleFailed", "ScriptedDiceUnused", "ExampleFailed",
          "UnknownArgument", "MissingArgument"], out[:1500])
# What the loader checks without running anything: the keys, and the expected value against the result.
_, err = expect(["check", BAD], 1)
heads = [l for l in err.splitlines() if ": error: " in l]
check("bad examples", heads == [
    f"{BAD}:16:9: error: unknown key 'expcet' in an example [RulesetUnknownKey]",
    f"{BAD}:18:18: error: the result of bad-examples.check has no field 'reslt' (did you mean 'result'?) "
    "[RulesetInvalidValue]",
    f"{BAD}:20:25: error: the expected 'grade' must be one of pass, fail, got \"passed\" [RulesetInvalidValue]",
    f"{BAD}:22:17: error: bad-examples.check gives a record: expect a mapping of some of its fields, as in "
    "{result: …} [RulesetInvalidValue]"], err)
out, err = expect(["test", BAD], 1, "FAIL tests/cli/selftest/bad-examples.yaml: the ruleset has errors\n"
                  "0 passed, 0 failed, 0 without examples (0 examples run); a ruleset did not load\n")
check("test bad: the errors", f"{BAD}:16:9: error: unknown key 'expcet'" in err, err)
# A name on the path; one that is not there; the options an example may not use.
expect(["test", "my-game", "--rulesets", "examples/rulesets"], 0, out_contains="PASS my-game.check (3 examples)\n")
expect(["test", "nowhere"], 1, "FAIL nowhere: no such ruleset\n"
       "0 passed, 0 failed, 0 without examples (0 examples run); a ruleset did not load\n",
       err_contains="alea: test: there is no ruleset 'nowhere'")
expect(["test"], 2, err_contains="ruleset is required")
with tempfile.TemporaryDirectory() as tmp:
    odd = Path(tmp) / "odd.yaml"
    odd.write_text(MINI.replace("name: mini", "name: odd").replace(
        "      - mini.roll mood=angry\n", "      - odd.roll --state x.json\n      - 2d6\n      - odd.roll --dice 4 --frob\n"))
    _, err = expect(["check", str(odd)], 1)
    for expected in ["example 'odd.roll --state x.json': --state has no place in an example",
                     "example '2d6': an example calls a mechanic: RULESET.MECHANIC name=value…",
                     "example 'odd.roll --dice 4 --frob': unknown option '--frob'"]:
        check("check odd examples", expected in err, err)
# Literals checked against the types they declare: a constant's `type`, a table's `cells`.
TYPED = """\
schema: 1
name: typed
title: Declared types
source: the tests
constants:
  max_dice: {value: 12, type: int, min: 1, max: 10, doc: the most dice}
  mood: {value: calm, type: label, choices: [calm, angry]}
tables:
  ranks:
    doc: a rank by level
    cells: {type: label, choices: [novice, adept, master]}
    rows: [novice, adpet, master]
  costs:
    doc: what each thing costs
    cells: {type: int, min: 0}
    rows: {sword: 3, shield: -1, bow: many}
mechanics:
  rank:
    doc: a rank
    params:
      level: {type: int, min: 0, max: 2, doc: the level}
    body: ranks[level]
    returns: {type: label, choices: [novice, adept, master], doc: the rank}
"""
with tempfile.TemporaryDirectory() as tmp:
    typed = Path(tmp) / "typed.yaml"
    typed.write_text(TYPED)
    _, err = expect(["check", "typed.yaml"], 1, cwd=tmp)
    heads = [l for l in err.splitlines() if ": error: " in l]
    check("declared types", heads == [
        "typed.yaml:6:21: error: the constant 'max_dice' must be at most 10, got 12 [RulesetInvalidValue]",
        "typed.yaml:12:20: error: the row 1 of the table 'ranks' must be one of novice, adept, master, got \"adpet\" "
        "[RulesetInvalidValue]",
        "typed.yaml:16:30: error: the row 'shield' of the table 'costs' must be at least 0, got -1 [RulesetInvalidValue]",
        "typed.yaml:16:39: error: the row 'bow' of the table 'costs' must be an int, got the string \"many\" "
        "[RulesetInvalidValue]"], err)
    typed.write_text(TYPED.replace("value: 12", "value: 8").replace("adpet", "adept").replace(
        "shield: -1, bow: many", "shield: 1, bow: 2"))
    expect(["check", "typed.yaml"], 0, "typed.yaml: ok\n", cwd=tmp)
    # A YAML mistake is shown where it starts: the '{' left open, not the next line where it is noticed.
    typed.write_text(TYPED.replace("{value: calm, type: label, choices: [calm, angry]}", "{value: calm, type: label"))
    expect(["check", "typed.yaml"], 1, cwd=tmp, err_contains=[
        "typed.yaml:7:9: error: this is not valid YAML: this '{' is never closed with '}' [RulesetSyntax]",
        "typed.yaml:8:7: note: the YAML reader noticed it here"])

# Every shipped ruleset's examples pass (test_json_schema.py runs `alea test` by name, --json).
shipped_files = [f"rulesets/{n}.yaml" for n in shipped]
expect(["check"] + shipped_files, 0, "".join(f"{f}: ok\n" for f in shipped_files))

# ---- arguments as data: files of records (`name=@FILE#ENTRY`, --with FILE) ---------------------
BRAWL = """schema: 1
name: brawl
title: A brawl
source: tests
types:
  fighter:
    doc: a fighter
    fields:
      pool: {type: int, min: 1, max: 10, doc: the dice}
      colour: {type: label, choices: [red, blue], doc: the colour}
      bonus: {type: int, default: 0, doc: added}
mechanics:
  hit:
    doc: a fighter's total
    params:
      attacker: {type: fighter, doc: the fighter}
      stat: {type: int, default: 0, doc: added too}
    body: '{colour: attacker.colour, total: attacker.pool + attacker.bonus + stat}'
    result:
      colour: {type: label, outcomes: [red, blue], doc: the colour}
      total: {type: int, doc: the sum}
"""
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    (tmp / "brawl.yaml").write_text(BRAWL)
    (tmp / "party.yaml").write_text("ivan:\n  pool: 3\n  colour: red\n  bonus: +1\nolga: {pool: 2, colour: blue}\n")
    (tmp / "more.json").write_text('{"olga": {"pool": 4, "colour": "red"},\n "petr": {"pool": 5, "colour": "blue"}}\n')
    (tmp / "one.yaml").write_text("pool: 6\ncolour: blue\n")
    (tmp / "bad.yaml").write_text("ivan:\n  pool: 3\n  colour: green\nolga:\n  pool: 2\n  colour: red\n  bonsu: 1\n"
                                  "petr:\n  pool: 11\n  colour: red\nanna:\n  colour: red\n")
    (tmp / "broken.yaml").write_text("ivan: {pool: 3\n")
    (tmp / "list.yaml").write_text("- 1\n- 2\n")
    brawl = ["--rulesets", str(tmp)]

    def hit(*words, code=0, **kw):
        return expect(["roll", "brawl.hit", *words, *brawl], code, cwd=tmp, **kw)

    # By reference, relative to the current directory: JSON or YAML, an entry or the whole file.
    hit("attacker=@party.yaml#ivan", out_contains="colour: red\ntotal: 4\n")
    hit("attacker=@more.json#petr", "stat=+2", out_contains="colour: blue\ntotal: 7\n")
    hit("attacker=@one.yaml", out_contains="colour: blue\ntotal: 6\n")
    expect(["stats", "brawl.hit", f"attacker=@{tmp / 'party.yaml'}#olga", *brawl], 0,
           out_contains="brawl.hit(attacker: {pool: 2, colour: \"blue\"}): exact")
    # By name, from --with files; a name in two of them must be given by reference.
    hit("attacker=ivan", "--with", "party.yaml", out_contains="total: 4\n")
    _, err = hit("attacker=ivan", "--with", "party.yaml", "--with", "one.yaml", out_contains="total: 4\n")
    check("an unused --with file is noted", err == "note: no argument came from --with one.yaml\n", err)
    hit("attacker=petr", "--with", "party.yaml", "--with", "more.json", out_contains="total: 5\n")
    hit("attacker=olga", "--with", "party.yaml", "--with", "more.json", code=1,
        err_contains="error: 'olga' is an entry of party.yaml and of more.json: name one with attacker=@FILE#olga")
    hit("attacker=ivna", "--with", "party.yaml", code=1, err_contains=[
        "error: no --with file has an entry 'ivna' for attacker", "note: did you mean 'ivan'?",
        "note: the entries: ivan, olga"])
    expect(["stats", "brawl.hit", "attacker=ivan", "--with", "party.yaml", *brawl], 0, cwd=tmp, out_contains="total: mean 4, sd 0")
    # Bare words inside a record typed on the command line, and +1.
    hit("attacker={pool: 2, colour: blue}", "stat=+1", out_contains="colour: blue\ntotal: 3\n")
    hit("attacker.pool=+2", "attacker.colour=red", out_contains="total: 2\n")
    # Mistakes in the file are shown at their line and column of the file.
    hit("attacker=@bad.yaml#ivan", code=1, err_contains=[
        "bad.yaml:3:11: error: the argument 'attacker.colour' must be one of red, blue, got \"green\"",
        "note: attacker comes from there, for brawl.hit"])
    hit("attacker=@bad.yaml#olga", code=1, err_contains=[
        "bad.yaml:7:3: error: the argument 'attacker' is a fighter, which has no field 'bonsu'",
        "note: did you mean 'bonus'?"])
    hit("attacker=@bad.yaml#petr", code=1,
        err_contains="bad.yaml:9:9: error: the argument 'attacker.pool' must be at most 10, got 11")
    hit("attacker=@bad.yaml#anna", code=1,
        err_contains="bad.yaml:11:1: error: the argument 'attacker' is a fighter, which needs the field 'pool'")
    hit("attacker=@bad.yaml#ana", code=1, err_contains=[
        "error: bad.yaml has no entry 'ana'", "note: did you mean 'anna'?", "note: its entries: ivan, olga, petr, anna"])
    hit("attacker=@missing.yaml#ivan", code=1,
        err_contains="<command line>:1:20: error: cannot read the file of records 'missing.yaml': it does not exist")
    hit("attacker=@broken.yaml#ivan", code=1, err_contains="broken.yaml:2:1: error: this is not valid YAML or JSON")
    hit("attacker=@list.yaml#ivan", code=1, err_contains="list.yaml:1:1: error: the file must be a mapping of named entries")
    hit("attacker=ivan", "--with", "missing.yaml", code=1, err_contains="cannot read the file of records 'missing.yaml'")
    hit("attacker=@#ivan", code=1, err_contains="'@' names a file of records: write attacker=@FILE#ENTRY")
    # The REPL's call form reads a file of records, and bare words in a record, the same way.
    expect(["--rulesets", "."], 0, stdin="brawl.hit attacker=@party.yaml#ivan\nbrawl.hit attacker={pool: 2, colour: blue}\n",
           cwd=tmp, env=environment(ALEA_HISTORY=str(tmp / "history")), out_contains=["total: 4", "total: 2"])
    # A state file may keep named characters, each available by name with --state; a roll that
    # changes the state keeps them.
    (tmp / "table.json").write_text('{"characters": {\n  "vera": {"pool": 4, "colour": "blue"},\n'
                                    '  "bad": {"pool": 0, "colour": "red"}}}\n')
    hit("attacker=vera", "--state", "table.json", out_contains="colour: blue\ntotal: 4\n")
    hit("attacker=ivan", "--state", "table.json", "--with", "party.yaml", out_contains="total: 4\n")
    hit("attacker=bad", "--state", "table.json", code=1,
        err_contains="table.json:3:19: error: the argument 'attacker.pool' must be at least 1, got 0")
    hit("attacker=vra", "--state", "table.json", code=1, err_contains=[
        "error: no character of the state has an entry 'vra' for attacker", "note: did you mean 'vera'?"])
    expect(["stats", "brawl.hit", "attacker=vera", "--state", "table.json", *brawl], 0, cwd=tmp,
           out_contains="total: mean 4, sd 0")
    # The REPL with --state finds them by name too.
    expect(["--rulesets", ".", "--state", "table.json"], 0, stdin="brawl.hit attacker=vera\n", cwd=tmp,
           env=environment(ALEA_HISTORY=str(tmp / "history")), out_contains="colour: blue\ntotal: 4\n")
    expect(["state", "show", "table.json", *brawl], 0, cwd=tmp,
           out="characters, each a record argument by its name with --state table.json: bad, vera\n")
    expect(["roll", "pbta-superiority.increase", "n=3", "--state", "table.json"], 0, cwd=tmp)
    kept = json.loads((tmp / "table.json").read_text())
    check("a roll keeps the state's characters", kept.get("pbta-superiority") == {"superiority": 4}
          and kept.get("characters", {}).get("vera") == {"pool": 4, "colour": "blue"}, str(kept))
    # `alea state set-character` keeps an entry of a file of records as a character.
    expect(["state", "set-character", "table.json", "olga", "@party.yaml#olga"], 0, cwd=tmp,
           out='table.json: the character olga is {pool: 2, colour: "blue"}\n')
    hit("attacker=olga", "--state", "table.json", out_contains="colour: blue\ntotal: 2\n")
    kept = json.loads((tmp / "table.json").read_text())
    check("set-character keeps the rest", kept.get("pbta-superiority") == {"superiority": 4}
          and set(kept.get("characters", {})) == {"bad", "olga", "vera"}, str(kept))
    expect(["state", "set-character", "table.json", "petr", "@party.yaml#petr"], 1, cwd=tmp,
           err_contains="party.yaml: error: there is no entry 'petr'; its entries: ivan, olga")
    expect(["state", "set-character", "table.json", "petr", "party.yaml"], 2, cwd=tmp,
           err_contains="give the character as @FILE#ENTRY")
    (tmp / "odd.json").write_text('{"characters": [1, 2]}\n')
    hit("attacker=vera", "--state", "odd.json", code=1,
        err_contains='odd.json:1:16: error: the state\'s "characters" must be an object of named characters')
    # A name twice, or a name that is not text, is a mistake of the file wherever it is.
    (tmp / "dup.yaml").write_text("ivan: {pool: 1, colour: red}\nivan: {pool: 2, colour: red}\n"
                                  "olga: {pool: 1, pool: 2}\n")
    hit("attacker=@dup.yaml#olga", code=1, err_contains=[
        "dup.yaml:2:1: error: the entry 'ivan' appears twice in the file",
        "dup.yaml:3:17: error: the field 'pool' appears twice in this record"])
    (tmp / "key.yaml").write_text("ivan: {[1]: 2}\n")
    hit("attacker=@key.yaml#ivan", code=1, err_contains="key.yaml:1:8: error: a field's name must be text")
    # A file of records is bounded as any file alea reads.
    (tmp / "deep.yaml").write_text("ivan: " + "[" * 200 + "]" * 200 + "\n")
    hit("attacker=@deep.yaml#ivan", code=1, err_contains="deep.yaml:1:")
    (tmp / "wide.yaml").write_text("ivan: [" + ", ".join(["1"] * 10_001) + "]\n")
    hit("attacker=@wide.yaml#ivan", code=1, err_contains="this list has 10001 items")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"test_rulesets: all checks passed ({len(table)} vectors)")
