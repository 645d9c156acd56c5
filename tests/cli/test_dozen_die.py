#!/usr/bin/env python3
"""tests/cli/test_dozen_die.py — the shipped Dozen Die ruleset (rulesets/dozen-die.yaml)
from the command line: vectors of specs/dozen-die.md rolled with --dice and --json
(T3, T4, M1-M11, terrain moves, falls, saves, jumps, checks), the text output, the
record arguments written field by field (attacker.pool=2 attacker.ST=7), the
mistakes in them, and every example the ruleset's file lists.

tests/rulesets/dozen_die_test.cpp checks every vector of the spec in the library;
this file checks that the command line reaches the same results.

Usage: test_dozen_die.py /path/to/alea   (CTest passes the built binary)
"""
import json
import shlex

from clitest import ROOT, check, finish, first_of_each, run

def melee(an, ast, dn, dst):
    return ["dozen-die.melee", f"attacker.pool={an}", f"attacker.ST={ast}", f"defender.pool={dn}",
            f"defender.ST={dst}"]


# (id, the words after `alea roll`, the dice, the fields expected in the JSON value)
VECTORS = [
    ("T3", melee(2, 7, 1, 7), [5, 1, 5],
     {"hits_on_defender": 1, "hits_on_attacker": 0, "winner": "attacker", "pushed": "defender",
      "to_reserve_attacker": [1], "to_reserve_defender": [5], "spent_attacker": [5]}),
    ("T4 you attack", melee(1, 7, 2, 7), [3, 4, 5],
     {"hits_on_attacker": 2, "hits_on_defender": 0, "winner": "defender", "pushed": "attacker"}),
    ("T4 you defend", melee(2, 7, 1, 7), [4, 5, 3],
     {"hits_on_defender": 2, "hits_on_attacker": 0, "winner": "attacker", "pushed": "defender"}),
    ("M1", melee(2, 7, 1, 6), [5, 8, 3],
     {"attacker_successes": [5], "defender_successes": [3], "hits_on_defender": 1, "hits_on_attacker": 0,
      "to_reserve_attacker": [8], "to_reserve_defender": [3]}),
    ("M2", melee(2, 5, 1, 5), [2, 2, 2], {"hits_on_defender": 2, "hits_on_attacker": 0}),
    ("M3", melee(2, 7, 1, 6), [9, 10, 11],
     {"hits_on_defender": 0, "hits_on_attacker": 0, "winner": "attacker", "pushed": "defender"}),
    ("M3 no push", melee(2, 7, 1, 6) + ["no_hit_push=none"], [9, 10, 11], {"winner": "nobody", "pushed": "nobody"}),
    ("M4", melee(3, 7, 2, 7), [7, 7, 1, 6, 7],
     {"hits_on_defender": 2, "to_reserve_attacker": [1], "to_reserve_defender": [6, 7]}),
    ("M5", melee(1, 14, 1, 11), [12, 11], {"attacker_successes": [], "hits_on_attacker": 1, "hits_on_defender": 0}),
    ("M5 12 counts", melee(1, 14, 1, 11) + ["natural_12_fails=false"], [12, 11], {"hits_on_defender": 1}),
    ("M6", melee(2, 6, 2, 6), [6, 3, 6, 2], {"hits_on_defender": 1, "hits_on_attacker": 0}),
    ("M7", melee(2, 7, 2, 8), [4, 2, 6, 9], {"defender_successes": [6], "hits_on_attacker": 1, "hits_on_defender": 0}),
    ("M8", melee(2, 7, 1, 7), [4, 5, 3], {"hits_on_defender": 2, "hits_on_attacker": 0}),
    ("M9", melee(1, 7, 2, 7), [3, 4, 5], {"hits_on_attacker": 2, "hits_on_defender": 0}),
    ("M10", ["dozen-die.pool_size", "level=3", "available=1"], [], None),
    ("M10 roll", melee(1, 7, 1, 7), [4, 3], {"attacker_dice": [4], "defender_dice": [3]}),
    ("M11", melee(0, 7, 0, 7), [], {"attacker_dice": [], "hits_on_defender": 0, "hits_on_attacker": 0}),
    ("M2 defender wins ties", melee(2, 5, 1, 5) + ["tie_winner=defender"], [2, 2, 2],
     {"hits_on_defender": 0, "hits_on_attacker": 1, "winner": "defender"}),
    ("T14", ["dozen-die.terrain_move", "MV=3", "DX=4", "grade=hard"], [4], {"success": True, "mv": 3}),
    ("T16", ["dozen-die.terrain_move", "MV=3", "DX=4", "grade=hard"], [5], {"success": False, "mv": 1}),
    ("T18", ["dozen-die.terrain_move", "MV=3", "DX=4", "grade=very_hard"], [4], {"success": False, "mv": 0}),
    ("G1", ["dozen-die.terrain_move", "MV=5", "DX=3", "grade=easy"], [11], {"success": False, "mv": 3}),
    ("G4", ["dozen-die.terrain_move", "MV=3", "DX=6", "grade=easy"], [12], {"target": 12, "success": False, "mv": 2}),
    ("G7", ["dozen-die.terrain_move", "MV=3", "DX=4", "grade=hard", "moved=1"], [2], {"mv": 2, "left": 1}),
    ("G8", ["dozen-die.terrain_move", "MV=3", "DX=4", "grade=hard", "moved=1"], [5], {"mv": 1, "left": 0}),
    ("G9", ["dozen-die.terrain_move", "MV=3", "DX=4", "grade=impassable"], [], {"mv": 0, "outcome": "impassable"}),
    ("T28", ["dozen-die.terrain_move", "MV=3", "DX=2", "grade=very_easy"], [], {"mv": 3, "roll": None}),
    ("T19", ["dozen-die.fall_damage", "distance=4", "DX=5", "CO=3"], [2, 4, 5, 8], {"threshold": 5, "hp_lost": 1}),
    ("S2", ["dozen-die.fall_damage", "distance=1", "DX=3", "CO=4"], [], {"dice": [], "hp_lost": 0}),
    ("S3", ["dozen-die.fall_damage", "distance=2", "DX=3", "CO=4"], [4, 5], {"threshold": 4, "hp_lost": 1}),
    ("T20", ["dozen-die.climb", "MV=3", "DX=4", "grade=hard", "height=3", "CO=3"], [9, 2, 5, 8],
     {"falls": True, "fall_dice": [2, 5, 8], "hp_lost": 2}),
    ("T22", ["dozen-die.climb", "MV=3", "DX=3", "grade=easy"], [12], {"success": False, "falls": False}),
    ("S1", ["dozen-die.armour_save", "hits=2", "DX=3", "armour_bonus=1"], [3, 9],
     {"armour_class": 4, "hp_lost": 1, "saved": 1}),
    ("T7", ["dozen-die.armour_save", "hits=2", "DX=3", "armour_bonus=1"], [5, 7], {"hp_lost": 2}),
    ("T8", ["dozen-die.armour_save", "hits=1", "DX=4"], [5], {"hp_lost": 1}),
    ("J2", ["dozen-die.jump", "MV=3", "DX=4", "distance=4"], [], {"allowed": False, "outcome": "too_far"}),
    ("J3", ["dozen-die.jump", "MV=3", "DX=4", "distance=3"], [8], {"falls": True, "outcome": "fall"}),
    ("T25", ["dozen-die.conflict", "level=3", "ability=4", "grade=hard"], [1, 4, 7], {"successes": 2, "success": True}),
    ("K1", ["dozen-die.conflict", "level=2", "ability=4", "grade=very_easy"], [], {"auto": True, "successes": 2}),
    ("A20", ["dozen-die.opposed_conflict", "active.pool=2", "active.target=5", "opponent.pool=1",
             "opponent.target=5"], [5, 1, 5], {"successes": 1, "winner": "active"}),
]
PLAIN = {"M10": 1}  # vectors whose mechanic gives a plain value

for vid, words, dice, want in first_of_each(VECTORS, lambda v: v[1][0]):
    args = ["roll"] + words + ["--json"] + (["--dice", ",".join(map(str, dice))] if dice else [])
    rc, out, err = run(args)
    if rc != 0:
        check(vid, False, f"alea {' '.join(args)}: exit {rc}: {err}")
        continue
    doc = json.loads(out)
    value = doc["value"]
    if vid in PLAIN:
        check(vid, value == PLAIN[vid], f"got {value!r}")
    else:
        for field, expected in want.items():
            check(f"{vid} {field}", value.get(field, "missing") == expected,
                  f"alea {' '.join(args)}: {field} = {value.get(field, 'missing')!r}, expected {expected!r}")
    # Exactly the scripted dice are rolled.
    check(f"{vid} dice", [d["face"] for d in doc["dice"]] == dice, f"rolled {[d['face'] for d in doc['dice']]}")
    check(f"{vid} note", "not used" not in err, err)

# ---- the text output ------------------------------------------------------------------------

rc, out, err = run(["roll"] + melee(2, 7, 1, 5) + ["--dice", "5,8,3"])
check("melee text", rc == 0 and out == (
    "dozen_die.melee(attacker: {pool: 2, ST: 7}, defender: {pool: 1, ST: 5})\n"
    "  pool d12 under ST except (natural_fail()): 5* ~8~\n  pool d12 under ST except (natural_fail()): 3*\n"
    "attacker_dice: [5, 8]\ndefender_dice: [3]\nattacker_successes: [5]\ndefender_successes: [3]\n"
    "hits_on_defender: 1\nhits_on_attacker: 0\nwinner: attacker\npushed: defender\n"
    "to_reserve_attacker: [8]\nto_reserve_defender: [3]\nspent_attacker: [5]\nspent_defender: []\n"), out + err)
# The fields may come in any order, and a side may be given whole.
rc, out2, err = run(["roll", "dozen-die.melee", "defender.ST=5", "attacker.ST=7", "defender.pool=1",
                     "attacker.pool=2", "--dice", "5,8,3"])
check("fields in any order", rc == 0 and out2.splitlines()[1:] == out.splitlines()[1:]
      and out2.startswith("dozen_die.melee(defender: {ST: 5, pool: 1}, attacker: {ST: 7, pool: 2})\n"), out2 + err)
rc, out3, err = run(["roll", "dozen-die.melee", "attacker={pool: 2, ST: 7}", "defender.pool=1", "defender.ST=5",
                     "--dice", "5,8,3"])
check("a side whole", rc == 0 and out3.splitlines()[1:] == out.splitlines()[1:], out3 + err)
# A natural 12 shows as a failed die.
rc, out, err = run(["roll", "dozen-die.check", "target=12", "--dice", "12"])
check("natural 12", rc == 0 and "  dice d12 under target except (natural_fail()): ~12~\n" in out and "success: false\n" in out, out + err)
# A seeded melee is reproducible.
a = run(["roll"] + melee(3, 7, 2, 6) + ["--seed", "5"])
b = run(["roll"] + melee(3, 7, 2, 6) + ["--seed", "5"])
check("seeded melee", a == b and a[0] == 0 and "winner: " in a[1], f"{a!r} {b!r}")
# The language's spelling works too, and an expression may call the mechanic.
rc, out, err = run(["roll", "dozen_die.melee({pool: 2, ST: 7}, {pool: 1, ST: 5}).hits_on_defender", "--dice", "5,8,3"])
check("expression", rc == 0 and out.startswith("dozen_die.melee({pool: 2, ST: 7}, {pool: 1, ST: 5}).hits_on_defender = 1\n"),
      out + err)
# A label of a list, quoted for the shell.
rc, out, err = run(["roll", "dozen-die.path_grade", 'grades=["very_easy", "hard"]'])
check("path_grade", rc == 0 and out.strip().endswith("= hard"), out + err)

# ---- mistakes in record arguments -------------------------------------------------------------

def expect_error(args, code, *parts):
    rc, out, err = run(["roll"] + args)
    check(" ".join(args)[:70], rc == code and all(p in err for p in parts),
          f"exit {rc} (expected {code}); stderr {err!r} lacks one of {parts!r}")


# One argument given both whole and field by field, or a field twice: bad usage, exit 2.
expect_error(["dozen-die.melee", "attacker={pool: 1, ST: 3}", "attacker.pool=2", "defender.pool=1", "defender.ST=5"], 2,
             "alea: roll: 'attacker' is set both as a whole (attacker=…) and field by field (attacker.pool=…); "
             "write one or the other")
expect_error(["dozen-die.melee", "attacker.pool=2", "attacker=3"], 2, "'attacker' is set both as a whole")
expect_error(["dozen-die.melee", "attacker.pool=2", "attacker.pool=3"], 2, "'attacker.pool' is set twice")
expect_error(["dozen-die.melee", "attacker.=2"], 2, "'attacker.=2' is not a parameter setting")
expect_error(["dozen-die.melee", "attacker..pool=2"], 2, "is not a parameter setting")
# A side without one of its fields, or with a field it does not have: exit 1, under the word.
expect_error(["dozen-die.melee", "attacker.pool=1", "defender.pool=1", "defender.ST=5"], 1,
             "error: dozen-die.melee needs the field 'ST' of the side 'attacker': add attacker.ST=… [MissingArgument]",
             "note: ST: the melee skill value")
expect_error(["dozen-die.melee", "attacker.pool=1", "attacker.STR=3", "defender.pool=1", "defender.ST=5"], 1,
             "<command line>:1:42: error: a side of dozen-die.melee has no field 'STR' [UnknownArgument]\n"
             " 1 | dozen-die.melee attacker.pool=1 attacker.STR=3 defender.pool=1 defender.ST=5\n"
             "   |                                          ^~~\n",
             "note: did you mean 'ST'?", "note: each side gives: pool, ST")
expect_error(["dozen-die.melee", "defender.pool=1", "defender.ST=5"], 1,
             "dozen-die.melee needs the side 'attacker': add attacker.pool=… attacker.ST=… [MissingArgument]")
expect_error(["dozen-die.melee", "attackr.pool=2", "attacker.ST=3", "defender.pool=1", "defender.ST=5"], 1,
             "has no parameter 'attackr' [UnknownArgument]", "note: did you mean 'attacker'?")
# A field out of its range is the language's error.
expect_error(melee(-1, 7, 1, 5), 1, "'attacker.pool' must be at least 0, got -1 [ArgumentOutOfRange]")
# A dotted name on a parameter that is not a record.
expect_error(["dozen-die.check", "target.x=3"], 1, "the argument 'target' must be an int")

# ---- describe, and every example of the file runs -----------------------------------------------

rc, out, err = run(["describe", "dozen-die.melee"])
check("describe melee", rc == 0 and all(s in out for s in [
    "each side (attacker, defender) is a record of:\n  pool (int, required, at least 0)\n",
    "usage: alea roll dozen-die.melee attacker.pool=… attacker.ST=… defender.pool=… defender.ST=… ",
    "in the language: dozen_die.melee(attacker: {pool: 2, ST: 7}, defender: {pool: 1, ST: 7})\n"]), out + err)
rc, out, err = run(["describe", "dozen-die.melee", "--json"])
doc = json.loads(out) if rc == 0 else {}
check("describe melee --json", doc.get("sides") == ["attacker", "defender"]
      and [f["name"] for f in doc.get("side_fields", [])] == ["pool", "ST"], out[:500])
rc, out, err = run(["describe", "dozen-die", "--full"])
check("describe dozen-die", rc == 0 and all(f"Mechanics: {g}\n" in out for g in
                                            ["checks", "movement", "melee", "characters"]), out[:500] + err)
rc, out, err = run(["describe", "dozen-die", "--json"])
mechanics = json.loads(out)["mechanics"] if rc == 0 else []
check("mechanics", len(mechanics) >= 15, out[:300])
for m in mechanics:
    check(f"{m['name']} has a doc and examples", m["doc"] and 1 <= len(m["examples"]) <= 2, m)
    for example in m["examples"]:
        words = shlex.split(example)
        rc, out, err = run(["roll"] + words)
        check(f"example {example}", rc == 0, f"exit {rc}: {err}")
        check(f"example {example}: unused dice", "not used" not in err, err)

# ---- rulesets/README.md §5.1 shows the shipped file and a command that works -------------------

readme = (ROOT / "rulesets" / "README.md").read_text(encoding="utf-8")
section = readme[readme.index("### 5.1 Dozen Die"):readme.index("### 5.2 ")]
shipped = (ROOT / "rulesets" / "dozen-die.yaml").read_text(encoding="utf-8")
for line in ["    body: pool d12 under ST except (natural_fail()) vs opposed by melee_result(tie_winner)",
             "  fn natural_fail() = if natural_12_fails then 12 else none",
             "  fn rolls(p) = {rolled: rolled(p), successes: faces(p)}",
             "    let a_hits = for x in a.successes { if x > dm or (x == dm and first == \"attacker\") then [x] else [] } in"]:
    check("README §5.1 excerpt", line in section and line.strip().removeprefix("body: ") in shipped, line)
command = next(l for l in section.splitlines() if l.startswith("alea roll dozen-die.melee"))
rc, out, err = run(shlex.split(command)[1:])
check("README §5.1 command", rc == 0 and "hits_on_defender: 1\n" in out and "to_reserve_attacker: [8]\n" in out
      and "spent_attacker: [5]\n" in out, out + err)

# A refusal (the mechanic's `refusal:`) prints the sentence that says why, not the record; --json
# keeps the record. An outcome that is no refusal reads as its label and its sentence.
rc, out, err = run(["roll", "dozen-die.reaction_allowed", "rate=twice", "used_this_round=2"])
check("reaction refused: the sentence", rc == 0 and out == "dozen_die.reaction_allowed(rate: \"twice\", used_this_round: 2)"
      "\nrefused: it has made all the reactions its rate allows this round (R36)\n", out + err)
rc, out, err = run(["roll", "dozen-die.reaction_allowed", "rate=twice", "used_this_round=1"])
check("reaction allowed: the record", rc == 0 and out.endswith("allowed: true\nreason: ok\n"), out + err)
rc, out, err = run(["roll", "dozen-die.jump", "MV=3", "DX=4", "distance=9"])
check("jump refused: the sentence", rc == 0 and out.endswith(
    "\nrefused: the gap is wider than MV, and nobody jumps farther than one move (R3, R15)\n"), out + err)
rc, out, err = run(["describe", "dozen-die.jump"])
check("describe: the refusal", "refused when allowed is false: outcome says why" in out, out[-800:] + err)
rc, out, err = run(["roll", "dozen-die.reaction_allowed", "rate=twice", "used_this_round=2", "--json"])
check("reaction refused: --json", rc == 0 and json.loads(out)["value"]["reason"] == "round_limit", out + err)
rc, out, err = run(["describe", "dozen-die.reaction_allowed", "--json"])
reason = json.loads(out)["result"][1] if rc == 0 else {}
check("describe: outcome sentences", reason.get("outcome_docs", [None])[:2] == ["", "a player does not react to an "
      "order of his own, nor of an NPC he activated (R31)"] and len(reason["outcome_docs"]) == len(reason["outcomes"]),
      out[:300] + err)

finish("test_dozen_die", f" ({len(VECTORS)} vectors)")
