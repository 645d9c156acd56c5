#!/usr/bin/env python3
"""tests/cli/test_strategiya_econ.py — the world and the economy of «Стратегия»
(specs/strategiya.md, rulesets/strategiya.yaml) from the command line: vectors rolled
with --dice and --json (the binary code, a mining job, building, prices, adventures,
magic), a group's own secret sheet given field by field and a faulty one refused, and
the mining job `alea describe strategiya` walks a newcomer through, run step by step, and
every example of these mechanics.

tests/rulesets/strategiya_econ_test.cpp checks these vectors in the library; this file
checks that the command line reaches the same results. test_strategiya_rules.py checks
the character and combat rules, their examples, and the groups of `alea describe`.

Usage: test_strategiya_econ.py /path/to/alea   (CTest passes the built binary)
"""
import json
import re
import shlex

from clitest import check, finish, first_of_each, run

# The one place that names the ruleset.
RULESET = "strategiya"
IDENT = RULESET.replace("-", "_")  # its name in the language


def m(mechanic):
    return f"{RULESET}.{mechanic}"


# (id, the words after `alea roll`, the dice, the fields expected in the JSON value)
VECTORS = [
    ("V16", [m("explore_deposit"), "terrain=forest", "n=3"], [],
     {"via": 9, "final": 2, "resource": "animal hides", "ru": "Шкуры животных", "days": 35, "rate": 20,
      "value": 700, "experience": "on_finish", "skip_turns": 1}),
    # V17: nothing found, so the experience is paid at once: INT 0 + the mountain's 2 (R21, R22).
    ("V17", [m("explore_deposit"), "terrain=mountain", "n=3", "int=0"], [],
     {"via": 9, "final": 9, "found": False, "resource": "none", "experience": "now", "exp_now": 2}),
    ("V189", [m("binary_code"), "table=resources", "terrain=mountain", "n=10"], [], {"via": 8, "final": 1}),
    ("V299", [m("binary_code"), "table=adventures", "terrain=death_zone", "n=10"], [], {"via": 2, "final": 4}),
    ("V14", [m("mine"), "terrain=mountain", "index=1", "strengths=[10]"], [],
     {"per_turn": 10, "turns_needed": 3, "cargo_days": 30, "value": 450, "experience": True}),
    ("V69", [m("work_turns"), "days=15", "strengths=[4]", "tools=1"], [], {"per_turn": 7, "turns": 3}),
    ("V108", [m("mine"), "terrain=water", "index=8", "strengths=[4]", "turns=3"], [],
     {"cargo_days": 12, "value": 12, "experience": False, "outcome": "endless"}),
    ("V15", [m("build"), "object=bridge", "cells=2", "strengths=[3,2]"], [], {"days": 10, "per_turn": 5, "turns": 2}),
    ("V105", [m("build"), "object=dam", "cells=2", "strengths=[5]"], [], {"days": 18, "turns": 4}),
    ("V56", [m("ship_speed"), "builder_ints=[3,2]"], [], {"downstream": 6, "still": 5, "upstream": 4}),
    ("V110", [m("castle"), "builder_ints=[3,2]", "lives=4", "max_lives=15"], [], {"heal_per_turn": 5, "lives_after": 9}),
    ("V47", [m("price"), "goods=sword", "total=15"], [], {"discount_pct": 20, "price": 288}),
    ("V64", [m("price"), "goods=shield", "hidden=true"], [], {"price": 230, "fee": 58, "cost": 288}),
    ("V137", [m("price"), "goods=sword", "total=15", "contract=true"], [], {"list_price": 720, "price": 576}),
    ("V67", [m("resale"), "goods=staff"], [], {"resellable": True, "price": 450}),
    ("V139", [m("takeover"), "goods=tracker", "paid=45", "times=2"], [], {"bids": [90, 180], "price": 180}),
    ("V23", [m("adventure_battle"),
             'teams=[[{name: "Tator", str: 3, spd: 4}, {name: "Ala", spd: 1, int: 5}, '
             '{name: "Clarence", str: 6, items: ["rocket launcher"]}, {name: "Stir", str: 2, spd: 2, int: 2}]]',
             "terrain=forest"], [6, 3, 4],
     {"opponent": 1, "hero": 3, "name": "Clarence", "enemy": {"str": 6, "spd": 0, "int": 0, "lives": 20},
      "first": "hero_first"}),
    ("V115", [m("adventure_enemy"), "str=6", "terrain=death_zone"], [], {"str": 9, "lives": 25}),
    ("V119", [m("adventure_first")], [2], {"roll": 2, "first": "enemy_first"}),
    ("V22", [m("learn_turns"), "spell=curse", "int=0"], [], {"turns": 10}),
    ("V142", [m("learn_turns"), "spell=ward", "int=0"], [], {"turns": 15, "int_after": 1}),
    ("V152", [m("spell"), "spell=healing", "t=7"], [], {"range": 14, "lives_per_turn": 3, "lasts": 4}),
    ("V152 total", [m("spell"), "spell=healing", "t=7", "heal_mode=total"], [], {"lives_per_turn": None, "lives_total": 3}),
    ("V148", [m("spell_affects"), "spell=shackles", "caster_str=3", "target_str=4"], [], {"affected": False}),
    ("V3", [m("setup"), "players=3"], [], {"heroes": [2, 2, 4], "first_round_turns": [1, 1, 0], "info_exchange_every": 10}),
    # A group's own sheet column, given field by field (R47, R48).
    ("own sheet", [m("binary_code"), "table=resources", "terrain=forest", "n=3",
                   "sheet1.resources.forest=[1,2,3,4,5,6,7,8,9,10]"], [], {"via": 3, "final": 8}),
]
PLAIN = {("V118", (m("adventure_pick"), "k=5")): ([6, 4], 4)}

for vid, words, dice, want in first_of_each(VECTORS, lambda v: v[1][0]):
    args = ["roll"] + words + ["--json"] + (["--dice", ",".join(map(str, dice))] if dice else [])
    rc, out, err = run(args)
    if rc != 0:
        check(vid, False, f"alea {shlex.join(args)}: exit {rc}: {err}")
        continue
    value = json.loads(out)["value"]
    for field, expected in want.items():
        check(f"{vid} {field}", value.get(field, "missing") == expected,
              f"alea {shlex.join(args)}: {field} = {value.get(field, 'missing')!r}, expected {expected!r}")
    check(f"{vid} dice", [d["face"] for d in json.loads(out)["dice"]] == dice, out)
    check(f"{vid} note", "not used" not in err, err)

for (vid, words), (dice, want) in PLAIN.items():
    rc, out, err = run(["roll", *words, "--json", "--dice", ",".join(map(str, dice))])
    check(vid, rc == 0 and json.loads(out)["value"] == want, out + err)

# ---- the text output of a lookup, and mistakes ---------------------------------------------------

rc, out, err = run(["roll", m("binary_code"), "table=resources", "terrain=forest", "n=3"])
check("text", rc == 0 and out == (f'{IDENT}.binary_code(table: "resources", terrain: "forest", n: 3)\n'
                                  "table: resources\nterrain: forest\nn: 3\nvia: 9\nfinal: 2\n"), out + err)
# A sheet column that is not a permutation of 1..10 is refused, pointing into the ruleset.
rc, out, err = run(["roll", m("binary_code"), "table=resources", "terrain=forest", "n=3",
                    "sheet1.resources.forest=[1,2,3,4,5,6,7,8,9,9]"])
check("bad sheet", rc == 1 and f"rulesets/{RULESET}.yaml:" in err and "[Refused]" in err
      and "is not a permutation of 1..10 (R47): missing [10], extra [9]" in err and "^" in err, err)
rc, out, err = run(["roll", m("sheet_check"), "sheet=2", "sheet2.resources.forest=[1,2,3,4,5,6,7,8,9,9]", "--json"])
value = json.loads(out)["value"] if rc == 0 else {}
check("sheet_check", value.get("valid") is False and "resources.forest: missing [10], extra [9]" in value.get("problems", []),
      out + err)
rc, out, err = run(["roll", m("price"), "goods=excalibur"])
check("unknown goods", rc == 1 and "must be one of mercenary, assassin, hunter" in err and "[ArgumentOutOfRange]" in err, err)
rc, out, err = run(["roll", m("mine"), "terrain=forst", "index=2", "strengths=[4]"])
check("unknown terrain", rc == 1 and "must be one of mountain, swamp, forest, plain, water, death_zone" in err, err)

# ---- describe: the groups, and the mining job a newcomer can follow ------------------------------

rc, out, err = run(["describe", RULESET])
check("describe", rc == 0, err)
check("describe Russian terms", all(t in out for t in ["двоичный код", "секретный лист", "полезные ископаемые"]), out[:800])
# The mining job of the ruleset's doc: each step's command runs and gives what the doc says.
mining = out[out.find("A mining job"):]
steps = re.findall(r"^\s+\d\. alea roll (.*)$", mining[:mining.find("\n\n")], re.M)
check("mining job steps", len(steps) == 3, steps)
if len(steps) == 3:
    rc, out1, err = run(["roll"] + shlex.split(steps[0]) + ["--json"])
    v = json.loads(out1)["value"] if rc == 0 else {}
    check("mining step 1", (v.get("via"), v.get("final"), v.get("resource"), v.get("days"), v.get("rate"), v.get("value"))
          == (9, 2, "animal hides", 35, 20, 700), out1 + err)
    check("mining step 1 in the doc", "sheet 1 sends 3 to 9, sheet 2 sends 9 to 2" in out
          and "35 days of work at 20 $ a day, 700 $ in all" in out, out[:1500])
    rc, out2, err = run(["roll"] + shlex.split(steps[1]) + ["--json"])
    v = json.loads(out2)["value"] if rc == 0 else {}
    check("mining step 2", (v.get("per_turn"), v.get("turns"), v.get("cargo_days"), v.get("value"))
          == (7, 5, 35, 700), out2 + err)
    check("mining step 2 in the doc", "works 7 days a turn: 5 turns" in out and "35 cargo days" in out, out[:1500])
    rc, out3, err = run(["roll"] + shlex.split(steps[2]) + ["--json"])
    check("mining step 3", rc == 0 and json.loads(out3)["value"] == 3, out3 + err)
    check("mining step 3 in the doc", "his INT 3 + the forest's 0 = 3" in out, out[:2500])
rc, out, err = run(["describe", m("mine")])
check("describe mine", rc == 0 and all(s in out for s in [
    "group: deposits and work (добыча)", "strengths (list of int, required, at least 1 item, each at least 0)",
    f"usage: alea roll {m('mine')} terrain=… index=… strengths=… [tools=0]",
    f"in the language: {IDENT}.mine("]), out + err)

# ---- every example of the world-and-economy mechanics runs ------------------------------------------
# (test_strategiya_rules.py runs the others, and checks all 15 groups in order.)
GROUPS = {"set-up (расклад)", "binary code (двоичный код)", "deposits and work (добыча)", "adventures (приключения)",
          "city and shops (город)", "magic (магия)", "building (строительство)"}
rc, out, err = run(["describe", RULESET, "--json"])
mechanics = [mech for mech in json.loads(out)["mechanics"] if mech["group"] in GROUPS] if rc == 0 else []
check("mechanics", len(mechanics) == 28, [mech["name"] for mech in mechanics])
for mech in mechanics:
    for example in mech["examples"]:
        rc, out, err = run(["roll"] + shlex.split(example))
        check(f"example {example}", rc == 0, f"exit {rc}: {err}")
        check(f"example {example}: unused dice", "not used" not in err, err)

finish("test_strategiya_econ", f" ({len(VECTORS)} vectors)")
