#!/usr/bin/env python3
"""tests/cli/test_strategiya_rules.py — the character and combat rules of the shipped
«Стратегия» ruleset (rulesets/strategiya.yaml) from the command line: vectors of
specs/strategiya.md rolled with --dice and --json (movement, experience, attack rolls,
scripted battles, the bow, fleeing, hiding), a hero record given field by field and its
mistakes, exact odds from `alea stats`, a battle's odds sampled, and `alea describe
strategiya`: all its groups in order, the hero's fields, a bow shot resolved from what it
says, and every example of the character and combat mechanics run.

tests/rulesets/strategiya_rules_test.cpp checks these vectors in the library; this file
checks that the command line reaches the same results. test_strategiya_econ.py does the
same for the world and the economy, with the mining job of `alea describe`.

Usage: test_strategiya_rules.py /path/to/alea   (CTest passes the built binary)
"""
import json
import re
import shlex
from fractions import Fraction

from clitest import check, finish, first_of_each, run


# (id, the words after `alea roll`, the dice, the fields expected in the JSON value; a
# plain value is compared whole)
VECTORS = [
    ("V6", ["strategiya.move_allowance", "terrain=swamp", "spd=2"], [], {"cells": 3, "mode": "walk"}),
    ("V53", ["strategiya.move_allowance", "terrain=plain", "spd=2", "mount=horse"], [], {"cells": 6}),
    ("V50", ["strategiya.move_allowance", "terrain=water", "spd=4"], [], {"cells": 0, "mode": "impassable"}),
    ("V70", ["strategiya.move_allowance", "terrain=plain", "cargo_days=30", "str=10"], [], {"cells": 2}),
    ("V19", ["strategiya.move_crossing", "spd=3", "into=plain"], [], {"cells": 2, "turn_ends": True}),
    ("V87", ["strategiya.move_crossing", "spd=8", "into=death_zone", "total=5"], [], {"cells": 1}),
    ("V8", ["strategiya.exp_award", "terrain=mountain", "int=7"], [], 9),
    ("V12", ["strategiya.exp_award", "terrain=water", "int=7"], [], 8),
    ("V12 variant", ["strategiya.exp_award", "terrain=water", "int=7", "water_exp_mod=0"], [], 7),
    ("V18", ["strategiya.exp_award", "terrain=mountain", "int=3", "sharers=2"], [], 3),
    ("V7", ["strategiya.max_lives", "str=9"], [], 25),
    ("V77", ["strategiya.tier", "total=15"], [], {"discount_pct": 20, "dz_cells": 3, "tier": "b_and_c"}),
    ("V42", ["strategiya.rest", "lives=2", "place=city"], [], {"lives": 5, "countdown_cancelled": True}),
    ("V26", ["strategiya.combat_roll", "attacker.str=3"], [5], {"outcome": "hit", "keeps_attack": True, "defender_lives": 7}),
    ("V32", ["strategiya.combat_roll", "attacker.str=3", "attacker.shield=true", "attacker.lives=8"], [1],
     {"outcome": "shield_heal", "attacker_lives": 12, "keeps_attack": False}),
    ("V34", ["strategiya.combat_roll", "attacker.str=4", "defender.str=6", "defender.armour=true"], [6],
     {"outcome": "armour_block", "damage": 0, "defender_lives": 20, "keeps_attack": True}),
    ("V166", ["strategiya.combat_roll", "attacker.str=4", "attacker.two_handed=true", "attacker.mount=dragon",
              "defender.str=6"], [4], {"damage": 12, "defender_lives": 8}),
    ("V30", ["strategiya.combat_damage", "attacker.str=3", "defender.back=true"], [], {"damage": 6}),
    ("V157", ["strategiya.combat_duel", "a.str=4", "b.str=6", "log=true"], [5, 2, 6, 1, 4, 6, 3, 5, 4],
     {"outcome": "b_wins", "rolls": 9, "turns": 5, "a_lives": 0, "b_lives": 8, "potential": 1}),
    ("V161", ["strategiya.combat_duel", "a.str=6", "a.swords=2", "b.str=6", "max_rolls=2"], [5, 3],
     {"outcome": "continues", "b_lives": 2, "holder": "b"}),
    ("V165", ["strategiya.combat_duel", "a.str=4", "b.str=6", "b.armour=true", "b.back=true", "max_rolls=3"],
     [6, 5, 4], {"b_lives": 8, "turns": 2, "used": 1}),
    ("V156", ["strategiya.combat_duel", "a={}", "b={}"], [], {"outcome": "stalemate", "rolls": 0}),
    ("V120", ["strategiya.combat_initiative", 'others=["B", "C"]'], [2, 5], {"order": ["A", "C", "B"]}),
    ("V72", ["strategiya.combat_rolls_per_turn", "heroes=3"], [], 5),
    ("V38", ["strategiya.bow_range", "spd=2", "str=5", "int=3"], [], 10),
    ("V131", ["strategiya.bow_range", "spd=2", "str=5", "int=3", "bow_penalty=true"], [], 8),
    ("V36", ["strategiya.bow_shot", "target_shield=true"], [6, 6, 4], {"outcome": "kill", "kill": True}),
    ("V37", ["strategiya.bow_shot", "target_shield=true", "target_lives=10"], [6, 6, 3],
     {"outcome": "damage", "damage": 6, "target_lives": 4}),
    ("V128", ["strategiya.flee", "heroes=2"], [5, 2],
     {"escaped": [True, False], "outcome": "some_escaped", "attack_passes": True}),
    ("V125", ["strategiya.hide", "hiders=[2, 1]", "seekers=[3]"], [3, 6, 4],
     {"hider_score": 12, "seeker_score": 12, "outcome": "caught"}),
    ("V123", ["strategiya.hide", "hiders=[3]", "seekers=[2]"], [4, 5], {"outcome": "hidden"}),
    ("R89", ["strategiya.dispute"], [5], "second_claim"),
]

for vid, words, dice, want in first_of_each(VECTORS, lambda v: v[1][0]):
    args = ["roll"] + words + ["--json"] + (["--dice", ",".join(map(str, dice))] if dice else [])
    rc, out, err = run(args)
    if rc != 0:
        check(vid, False, f"alea {' '.join(args)}: exit {rc}: {err}")
        continue
    doc = json.loads(out)
    value = doc["value"]
    if not isinstance(want, dict):
        check(vid, value == want, f"alea {' '.join(args)}: got {value!r}, expected {want!r}")
    else:
        for field, expected in want.items():
            check(f"{vid} {field}", value.get(field, "missing") == expected,
                  f"alea {' '.join(args)}: {field} = {value.get(field, 'missing')!r}, expected {expected!r}")
    # Exactly the scripted dice are rolled.
    check(f"{vid} dice", [d["face"] for d in doc["dice"]] == dice, f"rolled {[d['face'] for d in doc['dice']]}")
    check(f"{vid} note", "not used" not in err, err)

# V157 die by die, from the text output's log.
rc, out, err = run(["roll", "strategiya.combat_duel", "a.str=4", "b.str=6", "log=true", "--json",
                    "--dice", "5,2,6,1,4,6,3,5,4"])
log = json.loads(out)["value"]["log"] if rc == 0 else []
check("V157 log", [(e["turn"], e["by"], e["a_lives"], e["b_lives"]) for e in log] == [
    (1, "a", 15, 16), (1, "a", 15, 16), (2, "b", 9, 16), (2, "b", 9, 16), (3, "a", 9, 12), (3, "a", 9, 8),
    (4, "a", 9, 8), (4, "b", 3, 8), (5, "b", 0, 8)], log)

# ---- a hero record given field by field: its mistakes ---------------------------------------------


def expect_error(args, code, *parts):
    rc, out, err = run(["roll"] + args)
    check(" ".join(args)[:70], rc == code and all(p in err for p in parts),
          f"exit {rc} (expected {code}); stderr {err!r} lacks one of {parts!r}")


expect_error(["strategiya.combat_roll", "attacker.strr=3"], 1,
             "<command line>:1:33: error: the argument 'attacker' of strategiya.combat_roll is a hero, which has no "
             "field 'strr' [UnknownArgument]\n 1 | strategiya.combat_roll attacker.strr=3\n"
             "   |                                 ^~~~\n",
             "note: did you mean 'str'?", "note: the fields of a hero: str, spd, int, lives, max_lives, total, swords,")
expect_error(["strategiya.combat_duel", "a.str=1"], 1,
             "error: strategiya.combat_duel needs the hero 'b': add b.FIELD=… for its fields, or b={} for all "
             "their defaults [MissingArgument]", "note: the fields of a hero: str, spd,")
expect_error(["strategiya.combat_roll", "attacker.swords=3"], 1,
             "the argument 'attacker.swords' must be at most 2, got 3 [ArgumentOutOfRange]")
expect_error(["strategiya.combat_roll", "attacker.mount=camel"], 1,
             "the argument 'attacker.mount' must be one of none, horse, griffin, dragon, got "
             "\"camel\" [ArgumentOutOfRange]")
expect_error(["strategiya.move_allowance", "terrain=lake"], 1, "must be one of mountain, swamp, forest")
expect_error(["strategiya.hide", "hiders=[]", "seekers=[1]"], 1, "each side needs a hero")

# ---- odds -------------------------------------------------------------------------------------------


def outcome_odds(args):
    rc, out, err = run(["stats"] + args + ["--json"], timeout=120)
    if rc != 0:
        return None, f"exit {rc}: {err}"
    doc = json.loads(out)
    # "fields" maps each field of the result to its distribution.
    return doc, {e["value"]: e for e in doc["fields"]["outcome"]["distribution"]}


doc, odds = outcome_odds(["strategiya.combat_roll", "attacker.str=3", "attacker.swords=1"])  # V169
check("V169", doc and doc["method"] == "exact" and odds["sword_hit"]["exact"] == "1/6"
      and odds["hit"]["exact"] == "1/2" and odds["pass"]["exact"] == "1/3", odds)
doc, odds = outcome_odds(["strategiya.bow_shot", "target_shield=true"])  # V173
check("V173", doc and doc["method"] == "exact" and odds["kill"]["exact"] == "1/72", odds)
doc, odds = outcome_odds(["strategiya.hide", "hiders=[2, 1]", "seekers=[3]"])  # V176
check("V176", doc and odds["hidden"]["exact"] == "17/36", odds)
# V179: a battle has no bound (odds: sampled); alea stats composes its loop as a chain, exact but
# for the runs still looping once they are under 1e-15, and agrees with the closed form to that tail.
doc, odds = outcome_odds(["strategiya.combat_duel", "a.str=5", "b.str=5"])
if doc:
    wins, tail = odds["a_wins"], doc["unresolved"]["still_looping"]
    check("V179 composed", doc["method"] == "exact" and doc["exact_method"] == "composed"
          and doc["unresolved"]["cause"] == "loop" and 0 < float(Fraction(tail["exact"])) <= 1e-15
          and abs(Fraction(wins["exact"]) - Fraction(46, 81)) <= Fraction(tail["exact"]), (doc["unresolved"], wins))
else:
    check("V179 composed", False, odds)
# Asked for, it is still sampled, and the sample agrees.
doc, odds = outcome_odds(["strategiya.combat_duel", "a.str=5", "b.str=5", "--sampled", "--samples", "2000",
                          "--seed", "3", "--threads", "2"])
if doc:
    wins = odds["a_wins"]
    check("V179 sampled", doc["method"] == "sampled" and wins["low"] <= 46 / 81 <= wins["high"], (doc["reason"], wins))
else:
    check("V179 sampled", False, odds)
# With log=true every duel is its own outcome; max_rolls keeps them few enough to compose
# within the default memory budget: each round runs on the evaluator once per face of its die.
rc, out, err = run(["stats", "strategiya.combat_duel", "a.str=2", "b.str=3", "log=true", "max_rolls=6", "--exact"],
                   timeout=120)
check("V157 odds with the log", rc == 0 and ": exact (composed)\n" in out
      and re.search(r"\nb_wins +4\.69% +3/64 ", out) is not None, out[:600] + err)
rc, out, err = run(["roll", "strategiya.combat_duel_odds", "a.str=5", "b.str=5"])
check("V179 exact", rc == 0 and "a_wins: 46/81\n" in out, out + err)

# ---- describe: groups, the hero type's fields, and a bow shot resolved from what it says -----------

rc, out, err = run(["describe", "strategiya", "--full"])
# Every group, in the order of the spec's chapters (2.1-2.15).
check("describe groups", rc == 0 and re.findall(r"^Mechanics: (.*)$", out, re.M) == [
    "set-up (расклад)", "skills and potential (навыки и потенциал)",
    "lives, wounds and healing (жизни, ранения, лечение)", "movement (передвижение)", "experience (опыт)",
    "battle (битва)", "bow (лук)", "fleeing and hiding (побег, скрываться)", "binary code (двоичный код)",
    "deposits and work (добыча)", "adventures (приключения)", "city and shops (город)", "magic (магия)",
    "building (строительство)", "disputes (спорные моменты)"], re.findall(r"^Mechanics: (.*)$", out, re.M))
# Its table of contents: a newcomer finds the bow and the mining job's mechanics by group.
check("describe contents", "\nMechanics by group (54, each described below):\n" in out
      and "\n  bow (лук): bow_range, bow_shot\n" in out
      and "\n  deposits and work (добыча): explore_deposit, deposit, resource_list,\n      work_turns, mine\n" in out,
      out[out.find("Mechanics by group"):][:1500])
types = out[out.find("\nTypes of records"):][:3000]
check("describe hero type", types.startswith("\nTypes of records the mechanics take and give:\n  hero: a record of\n")
      and "\n    str (int, default 0, at least 0)\n" in types
      and "\n    mount (label, default none, one of none, horse, griffin, dragon)\n" in types, types)
check("describe hero params", "\n      attacker (hero, default {})\n" in out
      and "\n      first (list of hero, required)\n" in out, out[out.find("strategiya.combat_roll"):][:800])
check("describe odds", "odds: it has no bound: alea stats composes its loops" in out, "")
# A newcomer reads the doc: the range is SPD + STR + INT, and the shot's dice are given in order.
shown = [l.strip() for l in out.splitlines() if l.strip().startswith("alea roll strategiya.bow_") and "->" in l]
for line in shown:
    command, _, expected = line.partition("->")
    words = shlex.split(command)[1:]
    rc2, out2, err2 = run(words)
    result = out2.strip().splitlines()
    want = expected.strip().split()[0]
    check(f"describe says: {line}", rc2 == 0 and any(r.endswith(f"= {want}") or r == f"outcome: {want}"
                                                      for r in result), out2 + err2)
check("describe shows the bow", len(shown) == 2, shown)
rc, out, err = run(["describe", "strategiya.combat_roll", "--full"])
check("describe combat_roll --full", rc == 0 and all(s in out for s in [
    "attacker (hero, default {})\n", "a hero is a record of:\n", "str (int, default 0, at least 0)\n", "mount (label, default none, one of none, horse, griffin, dragon)\n",
    "usage: alea roll strategiya.combat_roll [attacker.FIELD=…] [defender.FIELD=…]",
    "in the language: strategiya.combat_roll(attacker: {str: 4}, defender: {str: 3})\n"]), out + err)
rc, out, err = run(["describe", "strategiya", "--json"])
mechanics = json.loads(out)["mechanics"] if rc == 0 else []
check("mechanics", len(mechanics) == 54, [m["name"] for m in mechanics])
roll = next((m for m in mechanics if m["name"] == "combat_roll"), {})
hero = next((t for t in (json.loads(out)["types"] if rc == 0 else []) if t["name"] == "hero"), {})
check("json fields", roll.get("params", [{}])[0].get("type") == "hero"
      and [f["name"] for f in hero.get("fields", [])][:3] == ["str", "spd", "int"], (roll, hero))
# The groups of the world and economy, whose examples test_strategiya_econ.py runs (each
# file runs its own, to keep each one short: every call loads the whole ruleset).
ECON_GROUPS = {"set-up (расклад)", "binary code (двоичный код)", "deposits and work (добыча)",
               "adventures (приключения)", "city and shops (город)", "magic (магия)", "building (строительство)"}
for m in mechanics:
    check(f"{m['name']} has a doc, a group and examples", m["doc"] and m["group"] and 1 <= len(m["examples"]) <= 2, m)
    if m["group"] in ECON_GROUPS:
        continue
    for example in m["examples"]:
        words = shlex.split(example)
        rc, out, err = run(["roll"] + words)
        check(f"example {example}", rc == 0, f"exit {rc}: {err}")
        check(f"example {example}: unused dice", "not used" not in err, err)
# Every mechanic's doc names its rule, and the groups carry the Russian term.
check("rules named", all(re.search(r"\bR\d+", m["doc"]) for m in mechanics),
      [m["name"] for m in mechanics if not re.search(r"\bR\d+", m["doc"])])

finish("test_strategiya_rules", f" ({len(VECTORS)} vectors)")
