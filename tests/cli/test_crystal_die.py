#!/usr/bin/env python3
"""tests/cli/test_crystal_die.py — the shipped Crystal Die ruleset (rulesets/crystal-die.yaml)
from the command line: the vectors of specs/crystal-die.md (C, B, O, U, F) rolled with
--dice and --json, every die shown with its type and colour in the breakdown and the JSON,
die descriptions written on the command line and the mistakes in them (an unknown colour
or type is shown where it was typed), `alea describe` grouping the mechanics, `alea stats`
on a skirmish checked against an enumeration written here, and every example the
ruleset's file lists.

tests/rulesets/crystal_die_test.cpp checks every vector of the spec in the library; this
file checks that the command line reaches the same results.

Usage: test_crystal_die.py /path/to/alea   (CTest passes the built binary)
"""
import itertools
import json
import shlex
from fractions import Fraction

from clitest import check, finish, first_of_each, run

def die(kind, colour, face=None, special=False, shape=None):
    s = f'{{type: "{kind}", colour: "{colour}"'
    if shape:
        s += f', shape: "{shape}"'
    if special:
        s += ", special: true"
    if face is not None:
        s += f", face: {face}"
    return s + "}"


def dice(*items):
    return "[" + ", ".join(items) + "]"


def roll_json(words, faces):
    args = ["roll"] + words + ["--json"]
    if faces:
        args += ["--dice", ",".join(str(f) for f in faces)]
    code, out, err = run(args)
    if code != 0:
        return None, err
    return json.loads(out), err


def subset(want, got):
    """Whether every field of `want` is in `got` with that value (records inside records too)."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and subset(v, got[k]) for k, v in want.items())
    return want == got


SET_9 = dice(die("attack", "red", shape="destroyer"), die("attack", "red", shape="stormtrooper"),
             die("attack", "orange", shape="ballistic"), die("defence", "red", shape="nullifier"),
             die("defence", "orange", shape="barrier"), die("defence", "blue", shape="energizer"),
             die("life", "red", shape="systems_man"), die("life", "orange", shape="fortress"),
             die("life", "white", special=True))
O5 = [f"p1.field={dice(die('life', 'red', 3), die('attack', 'red', 2))}",
      f"p1.reserve={dice(die('attack', 'red'), die('defence', 'red'))}",
      f"p2.field={dice(die('life', 'blue', 4))}",
      f"p2.reserve={dice(die('attack', 'blue'), die('life', 'blue'))}", "first=p1",
      'moves=[{die: 0, side: "opponent", index: 0}, {die: 0, answer: "duel"}, {die: 1, side: "own", index: 1}, '
      '{die: 1, answer: "target"}]']


def held(kind, colour, face):
    return {"type": kind, "colour": colour, "shape": None, "special": False, "face": face}


# (id, the words after `alea roll`, the dice, what the JSON value must hold)
VECTORS = [
    ("C1", ["crystal-die.dice_total"], [], {"shapes": 9, "colours": 8, "ordinary": 72, "special": 8, "total": 80}),
    ("C2", ["crystal-die.set_check", f"dice={SET_9}"], [],
     {"valid": True, "attack": 3, "defence": 3, "life": 3, "problems": []}),
    ("C3", ["crystal-die.set_check",
            "dice=" + dice(*[die("attack", "red")] * 5, *[die("defence", "red")] * 4)], [],
     {"valid": False, "life": 0, "problems": ["no Life die"]}),
    ("C4", ["crystal-die.set_check",
            "dice=" + dice(*[die("attack", "red")] * 3, *[die("defence", "red")] * 3, *[die("life", "red")] * 2)], [],
     {"valid": False, "size": 8, "problems": ["a set has 9 dice, not 8"]}),
    ("C5", ["crystal-die.colour_relation", "a=black", "b=white"], [], "enemy"),
    ("C6", ["crystal-die.colour_relation", "a=white", "b=green"], [], "neutral"),
    ("C7", ["crystal-die.colour_counts", "colour=red"], [],
     {"allies": ["orange", "purple"], "enemies": ["yellow", "blue"], "neutral": ["green", "black", "white"]}),
    ("C8", ["crystal-die.cards_check"], [], {"covers_all": True, "each_once": True}),
    ("B1", ["crystal-die.bonus_check", f"die={die('attack', 'red', 1)}", f"others={dice(die('life', 'orange', 4))}"],
     [], True),
    ("B2", ["crystal-die.bonus_check", f"die={die('attack', 'red', 1)}",
            f"others={dice(die('life', 'yellow', 4), die('defence', 'blue', 2))}"], [], False),
    ("B3", ["crystal-die.bonus_check", f"die={die('attack', 'red', 2)}", f"others={dice(die('life', 'orange', 4))}"],
     [], False),
    ("B4", ["crystal-die.bonus_check", f"die={die('attack', 'red', 2, special=True)}",
            f"others={dice(die('life', 'green', 4))}"], [], True),
    ("B5", ["crystal-die.bonus_check", f"die={die('attack', 'red', 3, special=True)}",
            f"others={dice(die('life', 'orange', 4))}"], [], False),
    ("O1", ["crystal-die.start", "reserve_p1=0", "reserve_p2=0"], [], {"next": "battle", "first": "nobody"}),
    ("O2", ["crystal-die.start", "reserve_p1=3", "reserve_p2=1"], [], {"next": "reserve_attack", "first": "p1"}),
    ("O3", ["crystal-die.start", "reserve_p1=2", "reserve_p2=2"], [2], {"first": "p2", "drawn": True}),
    ("O4", ["crystal-die.after_attack", "reserve_p1=2", "reserve_p2=1", "passes=2"], [], "battle"),
    ("O5", ["crystal-die.reserve_attack"] + O5, [3, 2, 1, 1],
     {"p1": {"field": [held("life", "red", 3), held("attack", "red", 2)], "reserve": [],
             "imprisoned": [held("attack", "red", 3), held("defence", "red", 1)], "abyss": []},
      "p2": {"field": [held("life", "blue", 4)], "reserve": [],
             "imprisoned": [held("attack", "blue", 2), held("life", "blue", 1)], "abyss": []},
      "next_first": "p2"}),
    ("U1", ["crystal-die.duel", f"die={die('attack', 'red')}", f"target={die('life', 'blue', 4)}"], [5],
     {"roll": 5, "won": True, "effect": "abyss"}),
    ("U2", ["crystal-die.duel", f"die={die('attack', 'red')}", f"target={die('life', 'blue', 4)}"], [4],
     {"won": False, "effect": "none"}),
    ("U3", ["crystal-die.duel", f"die={die('attack', 'red', special=True)}", f"target={die('life', 'blue', 4)}"],
     [4], {"won": True}),
    ("U4", ["crystal-die.duel", f"die={die('attack', 'red', special=True)}", f"target={die('life', 'blue', 4)}"],
     [3], {"won": False}),
    ("F1", ["crystal-die.battle_values", "p1.attack=[5,4]", "p2.defence=[3]", "p2.life=[4]"], [],
     {"damage_to_p2": 6, "life_p2": [], "fell_p2": 1}),
    ("F2", ["crystal-die.battle_values", "p2.attack=[2]", "p1.defence=[6,1]"], [], {"damage_to_p1": 0}),
    ("F3", ["crystal-die.battle_values", "p1.attack=[5,4]", "p1.defence=[6,1]", "p1.life=[3]", "p2.attack=[2]",
            "p2.defence=[3]", "p2.life=[4]"], [], {"life_p1": [3], "life_p2": [], "outcome": "p1_wins"}),
    ("F4", ["crystal-die.battle_values", "p1.attack=[6,6]", "p1.life=[2]", "p2.attack=[5]", "p2.life=[3,1]"], [],
     {"life_p1": [], "life_p2": [], "outcome": "draw"}),
    ("F5", ["crystal-die.split_damage", "life=[5,3]", "damage=4"], [], {"life": [2, 2], "abyss": 0}),
    ("F6", ["crystal-die.split_damage", "life=[5,3]", "damage=7"], [], {"life": [1], "abyss": 1}),
    ("F7", ["crystal-die.split_damage", "life=[5,3]", "damage=20"], [], {"life": [], "abyss": 2, "lost": 12}),
    ("F8", ["crystal-die.split_damage", "life=[2,6,3]", "damage=5"], [], {"life": [2, 2, 2]}),
    ("F9", ["crystal-die.split_damage", "life=[6,6]", "damage=1"], [], {"life": [5, 6]}),
    ("F10", ["crystal-die.battle", f"p1.field={dice(die('attack', 'red', 3), die('life', 'red', 3))}",
             f"p1.reserve={dice(die('attack', 'red'))}", f"p1.imprisoned={dice(die('attack', 'red', 6))}",
             f"p2.field={dice(die('defence', 'blue', 1), die('life', 'blue', 5))}"], [],
     {"damage_to_p2": 2, "outcome": "continue"}),
    ("F11", ["crystal-die.regroup", f"player.field={dice(die('life', 'red', 2))}",
             f"player.imprisoned={dice(die('attack', 'red', 5))}"], [],
     {"player": {"reserve": [held("attack", "red", None)], "imprisoned": []}, "retaken": None}),
]

for vid, words, faces, want in first_of_each(VECTORS, lambda v: v[1][0]):
    got, err = roll_json(words, faces)
    if got is None:
        check(vid, False, err)
        continue
    check(vid, subset(want, got["value"]), json.dumps(got["value"])[:600])
    check(f"{vid} uses its dice", len(got["dice"]) == len(faces), json.dumps(got["dice"])[:300])

# ---- every die with its type and colour -------------------------------------------------------

army = dice(die("attack", "red", shape="destroyer"), die("life", "orange"), die("defence", "white", special=True))
code, out, err = run(["roll", "crystal-die.deploy", f"roll={army}", "--dice", "5,4,1"])
check("deploy text", code == 0 and "\n  roll: 5(attack red destroyer) 4(life orange) 1(defence white special)\n" in out,
      out + err)
check("deploy text fields", "attack: 5\n" in out and "defence: 1\n" in out and "life: [4]\n" in out, out)
got, err = roll_json(["crystal-die.deploy", f"roll={army}"], [5, 4, 1])
check("deploy json tags", got is not None and [d["tags"] for d in got["dice"]] == [
    {"type": "attack", "colour": "red", "shape": "destroyer", "special": False},
    {"type": "life", "colour": "orange", "shape": None, "special": False},
    {"type": "defence", "colour": "white", "shape": None, "special": True}], json.dumps(got)[:600] if got else err)
check("deploy json faces", got is not None and [d["face"] for d in got["dice"]] == [5, 4, 1], "")
# The white special 1 beside red (neutral to it) triggers its bonus (R5, R10).
check("deploy json bonus", got is not None and [d["colour"] for d in got["value"]["bonuses"]] == ["white"], "")

# The dice order of --dice: the first player's list, then the second's.
code, out, err = run(["roll", "crystal-die.skirmish", f"p1={dice(die('attack', 'red'), die('life', 'red'))}",
                      f"p2={dice(die('defence', 'blue'), die('life', 'blue'))}", "--dice", "5,3,2,2"])
check("skirmish text", code == 0 and "  p1: 5(attack red) 3(life red)\n  p2: 2(defence blue) 2(life blue)\n" in out
      and "winner: p1\n" in out and "rounds: 1\n" in out, out + err)
# Too few dice: one Life die short.
code, out, err = run(["roll", "crystal-die.skirmish", f"p1={dice(die('attack', 'red'), die('life', 'red'))}",
                      f"p2={dice(die('life', 'blue'))}", "--dice", "5,3"])
check("skirmish too few dice", code == 1 and "[ScriptedDiceExhausted]" in err, err)

# ---- mistakes in die descriptions, shown where they were typed ---------------------------------


def caret_under(err, text):
    """Whether the caret line of the first diagnostic marks `text` in the echoed line."""
    lines = err.splitlines()
    if len(lines) < 3:
        return False
    source, carets = lines[1], lines[2]
    at = source.find(text)
    return at >= 0 and carets.find("^") == at and carets.count("~") == len(text) - 1


code, out, err = run(["roll", "crystal-die.deploy", 'roll=[{type: "attack", colour: "purpel"}]'])
check("unknown colour", code == 1 and err.startswith("<command line>:1:") and
      "the argument 'roll[0].colour' must be one of red, orange, yellow, green, blue, purple, black, white, "
      "got \"purpel\" [ArgumentOutOfRange]" in err and "note: did you mean 'purple'?" in err, err)
check("unknown colour caret", caret_under(err, '"purpel"'), err)
code, out, err = run(["roll", "crystal-die.battle", 'p1.field=[{type: "atack", colour: "red", face: 3}]', 'p2={}'])
check("unknown type", code == 1 and "the argument 'p1.field[0].type' must be one of attack, defence, life, "
      "got \"atack\" [ArgumentOutOfRange]" in err and "did you mean 'attack'?" in err, err)
check("unknown type caret", caret_under(err, '"atack"'), err)
code, out, err = run(["roll", "crystal-die.duel", 'die={type: "attack", color: "red"}',
                      'target={type: "life", colour: "blue", face: 4}'])
check("unknown field", code == 1 and "the argument 'die' is a die, which has no field 'color' [UnknownField]" in err
      and "did you mean 'colour'?" in err, err)
code, out, err = run(["roll", "crystal-die.split_damage", "life=[5,x]", "damage=1"])
check("bad value", code == 1 and "[UnknownName]" in err, err)

# A die given field by field: a bare word is a label, as for any label parameter.
got, err = roll_json(["crystal-die.duel", "die.type=attack", "die.colour=red", "die.special=true", "target.type=life",
                      "target.colour=blue", "target.face=4"], [4])
check("U3 field by field", got is not None and got["value"]["won"] is True
      and got["dice"][0]["tags"] == {"type": "attack", "colour": "red", "shape": None, "special": True},
      json.dumps(got)[:400] if got else err)
code, out, err = run(["roll", "crystal-die.duel", "die.type=attack", "die.colour=purpel", "target.type=life",
                      "target.colour=blue", "target.face=4"])
check("field by field unknown colour", code == 1 and "the argument 'die.colour' must be one of" in err
      and caret_under(err, '"purpel"'), err)

# ---- alea describe ------------------------------------------------------------------------

code, out, err = run(["describe", "crystal-die", "--full"])
check("describe", code == 0 and all(s in out for s in [
    "crystal-die — Crystal Die (Irondie)\n",
    "Types of records the mechanics take and give:\n  die: a record of\n",
    "    colour (label, required, one of red, orange, yellow, green, blue, purple, black, white)\n",
    "Mechanics: components (компоненты)\n", "Mechanics: colours (цвета)\n",
    "Mechanics: deployment (развёртывание войск)\n", "Mechanics: reserve attack (атака резервов)\n",
    "Mechanics: battle (бой)\n", "Mechanics: whole game (игра)\n",
    "  duel_effect (label, default abyss, one of abyss, imprison, per_shape)\n",
]), out[:3000] + err)
code, out, err = run(["describe", "crystal-die.duel"])
check("describe duel", code == 0 and "die (die, required)\n" in out
      and "a die is a record of 5 fields: type, colour, shape, special, face\n" in out
      and "a field_die is a record of 5 fields: type, colour, shape, special, face\n" in out
      and "each field in full: alea describe crystal-die.TYPE, as crystal-die.die (or add --full)\n" in out, out + err)
code, out, err = run(["describe", "crystal-die.duel", "--full"])
check("describe duel --full", code == 0 and "die (die, required)\n" in out and "a die is a record of:\n" in out, out + err)
code, out, err = run(["describe", "crystal-die", "--json"])
doc = json.loads(out) if code == 0 else {}
check("describe json types", [t["name"] for t in doc.get("types", [])] == ["die", "field_die", "shape_abilities", "player", "zones", "move"],
      out[:500])

# Every example of the file runs.
for m in doc.get("mechanics", []):
    for example in m["examples"]:
        code, out, err = run(["roll"] + shlex.split(example))
        check(f"example {example}", code == 0, err)

# ---- alea stats: exact, against an enumeration written here -------------------------------


def winner(f1, a1, f2, a2):
    """The winner of a skirmish (both players roll every die): each battle deals
    max(0, A - D) both ways at once; damage split highest first leaves a side without Life
    dice exactly when the damage so far reaches its Life total (A15); no damage either way,
    or 100 battles, is a draw (A17)."""
    def total(f, a, t):
        return sum(x for x, k in zip(f, a) if k == t)
    to2 = max(0, total(f1, a1, "attack") - total(f2, a2, "defence"))
    to1 = max(0, total(f2, a2, "attack") - total(f1, a1, "defence"))
    life1, life2 = total(f1, a1, "life"), total(f2, a2, "life")
    for rounds in range(1, 101):
        dead1, dead2 = rounds * to1 >= life1, rounds * to2 >= life2
        if dead1 and dead2:
            return "draw"
        if dead2:
            return "p1"
        if dead1:
            return "p2"
        if to1 == 0 and to2 == 0:
            return "draw"
    return "draw"


# The skirmish is composed (roll_each draw by draw): its winner against every sequence of faces,
# counted here one by one, for two dice a side and for three.
for a1, a2 in ((["attack", "life"], ["attack", "life"]), (["attack", "attack", "life"], ["defence", "life", "life"])):
    counts = {"p1": 0, "p2": 0, "draw": 0}
    for faces in itertools.product(range(1, 7), repeat=len(a1) + len(a2)):
        counts[winner(faces[:len(a1)], a1, faces[len(a1):], a2)] += 1
    n = 6 ** (len(a1) + len(a2))
    p1, p2 = "p1=" + dice(*[die(k, "red") for k in a1]), "p2=" + dice(*[die(k, "blue") for k in a2])
    # --exact pins the method: a slow machine would pass the time limit.
    code, out, err = run(["stats", "--json", "--exact", "crystal-die.skirmish", p1, p2])
    st = json.loads(out) if code == 0 else {}
    check(f"stats exact, {len(a1)} dice a side", st.get("method") == "exact" and st.get("exact_method") == "composed",
          out[:300] + err)
    got = {e["value"]: Fraction(e["exact"]) for e in st.get("fields", {}).get("winner", {}).get("distribution", [])}
    for w, c in counts.items():
        check(f"stats winner {w}, {len(a1)} dice a side", got.get(w, Fraction(0)) == Fraction(c, n),
              f"{got.get(w)} != {Fraction(c, n)}")
    # The text names the method and the probability of each winner.
    code, out, err = run(["stats", "--exact", "crystal-die.skirmish", p1, p2])
    check(f"stats text, {len(a1)} dice a side", code == 0 and ": exact (composed)" in out and "winner:\n" in out
          and str(Fraction(counts["p1"], n)) in out, out[:800] + err)

finish("test_crystal_die")
