#!/usr/bin/env python3
"""tests/cli/test_pbta.py — the shipped PbtA ruleset (rulesets/pbta-superiority.yaml) from
the command line: the vectors of specs/pbta-superiority.md rolled with --dice and --json (V1-V7,
U1-U9), the superiority state machine S1-S8 across separate invocations sharing a --state file,
a REPL session that rolls a move, raises superiority, spends it and sees it reset (and the same
sequence through --state giving the same results), a state file that survives its writer being
killed again and again, the mistakes a state file can hold, the choice flags, and the exact odds
X1-X12 from `alea stats`, checked against a brute-force enumeration.

tests/rulesets/pbta_superiority_test.cpp checks the vectors in the library; this file checks that
the command line reaches the same results.

Usage: test_pbta.py /path/to/alea   (CTest passes the built binary)
"""
import json
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from fractions import Fraction
from pathlib import Path

from clitest import ALEA, ROOT, check, environment, finish, run

tmp = Path(tempfile.mkdtemp(prefix="alea-pbta-"))


def state_file(name, s=None):
    """A fresh state file; with s, holding S = s."""
    f = tmp / name
    if f.exists():
        f.unlink()
    if s is not None:
        f.write_text(json.dumps({"pbta-superiority": {"superiority": s}}))
    return f


def superiority(f):
    return json.loads(f.read_text()).get("pbta-superiority", {}).get("superiority", 1) if f.exists() else 1


def roll(words, dice=None, state=None, extra=()):
    args = ["roll"] + words + ["--json"] + list(extra)
    if dice:
        args += ["--dice", ",".join(map(str, dice))]
    if state is not None:
        args += ["--state", str(state)]
    rc, out, err = run(args)
    return rc, (json.loads(out) if out.strip().startswith("{") else None), err, args


# ---- 3.1 tiers (V1-V7) -----------------------------------------------------------------------

for vid, dice, stat, total, tier in [("V1", [2, 3], 1, 6, "miss"), ("V2", [3, 3], 1, 7, "partial"),
                                     ("V3", [4, 4], 1, 9, "partial"), ("V4", [4, 5], 1, 10, "full"),
                                     ("V5", [6, 6], -2, 10, "full"), ("V6", [1, 1], 3, 5, "miss"),
                                     ("V7", [6, 6], 3, 15, "full")]:
    rc, doc, err, args = roll(["pbta-superiority.move", f"stat={stat}"], dice)
    ok = rc == 0 and doc and doc["value"]["total"] == total and doc["value"]["tier"] == tier
    check(vid, ok, f"alea {' '.join(args)}: exit {rc} {doc and doc.get('value')} {err}")
    # The tier is named in the trace.
    check(f"{vid} trace", ok and f"{total} → {tier}" in [e["text"] for e in doc["events"]], str(doc and doc["events"]))

rc, out, err = run(["roll", "pbta-superiority.move", "stat=1", "--dice", "3,5"])
check("text output", rc == 0 and out == (
    "pbta_superiority.move(stat: 1)\n  2d6: 3 5\n  tier: partial\n"
    "dice: [3, 5]\nfinal_dice: [3, 5]\nreplaced: none\ntotal: 9\ntier: partial\nsuccess: true\ngm_move: false\n"
    "superiority_used: false\nsuperiority_after: 1\n"), out + err)

# ---- 3.3 moves with the default policy (U1-U9), S from the state file -------------------------

U = [("U1", [2, 4], 0, 5, 9, "partial", True), ("U2", [1, 2], 1, 6, 9, "partial", True),
     ("U3", [3, 4], 0, 3, 7, "partial", False), ("U4", [4, 5], 0, 6, 11, "full", True),
     ("U5", [1, 4], 0, 2, 5, "miss", False), ("U6", [6, 6], 0, 6, 12, "full", False),
     ("U7", [5, 4], 0, 2, 9, "partial", False), ("U8", [3, 3], 0, 4, 7, "partial", True),
     ("U9", [2, 6], -1, 5, 10, "full", True)]
for uid, dice, stat, s, total, tier, used in U:
    f = state_file(f"{uid}.json", s)
    rc, doc, err, args = roll(["pbta-superiority.move", f"stat={stat}"], dice, f)
    v = doc["value"] if doc else {}
    check(uid, rc == 0 and v.get("total") == total and v.get("tier") == tier and v.get("superiority_used") == used,
          f"alea {' '.join(args)}: exit {rc} {v} {err}")
    check(f"{uid} state file", superiority(f) == (1 if used else s), f.read_text())
    check(f"{uid} json state", doc and doc.get("state", {}).get("pbta-superiority", {}).get("superiority", 1)
          == (1 if used else s), str(doc and doc.get("state")))
    # The same S given as an argument instead of a file.
    rc, doc2, err, args = roll(["pbta-superiority.move", f"stat={stat}", f"superiority={s}"], dice)
    check(f"{uid} as an argument", rc == 0 and doc2["value"] == doc["value"], f"{doc2 and doc2['value']} {err}")
# U8: equal dice, the first one is replaced.
rc, doc, err, _ = roll(["pbta-superiority.move", "stat=0", "superiority=4"], [3, 3])
check("U8 first die", rc == 0 and doc["value"]["final_dice"] == [4, 3], str(doc and doc["value"]))

# ---- 3.2 the state machine across separate invocations (S1-S8) --------------------------------

S = [("S1", None, [["pbta-superiority.current"]], 1),
     ("S2", None, [["pbta-superiority.increase"], ["pbta-superiority.increase"]], 3),
     ("S3", 3, [["pbta-superiority.gm_decrease"]], 2),
     ("S4", 5, [["pbta-superiority.use", "roll=[2,4]", "index=0"]], 1),
     ("S5", 5, [["pbta-superiority.end_encounter"]], 1),
     ("S6", 6, [["pbta-superiority.increase"]], 6),
     ("S7", 1, [["pbta-superiority.gm_decrease"]], 1),
     ("S8", 1, [["pbta-superiority.use", "roll=[3,5]", "index=1"]], 1)]
for sid, start, calls, after in S:
    f = state_file(f"{sid}.json", start)
    outs = []
    for words in calls:
        rc, doc, err, args = roll(words, None, f)
        check(f"{sid} {' '.join(words)}", rc == 0, f"exit {rc}: {err}")
        outs.append(doc and doc["value"])
    check(sid, superiority(f) == after, f"S = {superiority(f)}, expected {after}")
    if sid == "S4":
        check("S4 the die shows 5", outs[-1] == {"roll": [5, 4], "replaced": 2, "with": 5, "superiority_after": 1},
              str(outs[-1]))
    if sid == "S8":
        check("S8 the die shows 1", outs[-1]["roll"] == [3, 1], str(outs[-1]))
# A state file is written only when the state changes, and not at all by a roll that fails.
f = state_file("unchanged.json")
rc, _, _, _ = roll(["pbta-superiority.move", "stat=0"], [6, 6], f)
check("no change, no file", rc == 0 and not f.exists(), f"exit {rc}, exists {f.exists()}")
f = state_file("failed.json", 2)
before = f.read_text()
rc, out, err = run(["roll", "pbta_superiority.increase(3) + \"a\"", "--state", str(f)])
check("a failed roll changes nothing", rc == 1 and f.read_text() == before and "TypeMismatch" in err,
      f"exit {rc}: {err}\n{f.read_text()}")
rc, out, err = run(["roll", "pbta-superiority.turn_to", "face=7", "--state", str(f)])
check("out of range changes nothing", rc == 1 and f.read_text() == before and "ArgumentOutOfRange" in err, err)

# ---- a REPL session, and the same through --state ------------------------------------------------

SESSION = [
    (":dice 2,4", None),
    ("pbta_superiority.move(0)", "miss"),        # S = 1: 2 + 4 = 6, nothing to gain
    ("pbta_superiority.increase(3)", 4),         # S = 4
    (":dice 2,4", None),
    ("pbta_superiority.move(0)", "partial"),     # 4 + 4 = 8: spent, S back to 1
    ("pbta_superiority.current()", 1),
]
script = ":load pbta-superiority\n" + "\n".join(line for line, _ in SESSION) + "\n:state\n"
rc, out, err = run(["--seed", "1"], stdin=script)
check("REPL session runs", rc == 0 and err == "", f"exit {rc}: {err}")
check("REPL: the first move misses", "pbta_superiority.move(0)\n  2d6: 2 4\n  tier: miss\ndice: [2, 4]\n"
      "final_dice: [2, 4]\nreplaced: none\ntotal: 6\ntier: miss\n" in out, out)
check("REPL: superiority raised", "pbta_superiority.increase(3) = 4\n  superiority: 1 → 4\n" in out, out)
check("REPL: superiority spent and reset",
      "pbta_superiority.move(0)\n  2d6: 2 4\n  superiority die: {replaces: 2, with: 4}\n  tier: partial\n"
      "  superiority: 4 → 1\ndice: [2, 4]\nfinal_dice: [4, 4]\nreplaced: 2\ntotal: 8\ntier: partial\n"
      "success: true\ngm_move: false\nsuperiority_used: true\nsuperiority_after: 1\n" in out, out)
check("REPL: :state shows it", "pbta-superiority.superiority = 1   (1 to 6, starts at 1)" in out, out)

# The same sequence, one process per step, the state in a file.
f = state_file("sequence.json")
results = []
for line, _ in SESSION:
    if line.startswith(":dice"):
        continue
    dice = [2, 4] if "move" in line else None
    rc, doc, err, args = roll([line], dice, f)
    check(f"--state step {line}", rc == 0, err)
    v = doc["value"]
    results.append(v["tier"] if isinstance(v, dict) else v)
check("--state gives the REPL's results", results == [x for l, x in SESSION if x is not None], str(results))
check("--state ends at S = 1", superiority(f) == 1, f.read_text())

# The player decides after seeing the dice: :choose makes the last roll again.
script = (":load pbta-superiority\npbta_superiority.increase(4)\n:dice 2,4\npbta_superiority.move(0)\n"
          ":choose use_superiority=false\n:state\n:choose --use-superiority\n:state\n")
rc, out, err = run(["--seed", "1"], stdin=script)
check(":choose keeps S", rc == 0 and "total: 6\ntier: miss\n" in out
      and "pbta-superiority.superiority: 1 → 5\npbta-superiority.superiority = 5" in out, out + err)
check(":choose spends it again", "pbta-superiority.superiority: 5 → 1\npbta-superiority.superiority = 1" in out, out)
rc, out, err = run(["--seed", "1"], stdin="pbta_superiority.increase(4)\n:dice 2,4\npbta_superiority.move(0)\n"
                   ":choose use-superiority=false\n")
check(":choose by the flag's name", rc == 0 and "superiority_used: false\nsuperiority_after: 5\n" in out, out + err)
rc, out, err = run(["--seed", "1"], stdin=":load pbta-superiority\n:choose use_superiority\n")
check(":choose before any roll", "there is no roll to decide on yet" in err, err)
# The REPL with --state reads the file at the start and saves every change.
f = state_file("repl.json", 3)
rc, out, err = run(["--seed", "1", "--state", str(f)], stdin=":state\npbta_superiority.gm_decrease()\n")
check("REPL --state", rc == 0 and "pbta-superiority.superiority = 3" in out and superiority(f) == 2, out + err)

# ---- killing the writer never leaves a broken state file ----------------------------------------

f = state_file("killed.json", 1)
# Each line changes S, so each line rewrites the file: thousands of writes a second.
lines = "".join("pbta_superiority.increase(2)\npbta_superiority.gm_decrease()\npbta_superiority.end_encounter()\n"
                for _ in range(3000))
rng = random.Random(6)


def feed(proc):
    try:
        proc.stdin.write(lines.encode())
        proc.stdin.close()
    except (BrokenPipeError, OSError, ValueError):
        pass


seen = set()
for attempt in range(40):
    p = subprocess.Popen([ALEA, "--seed", "1", "--state", str(f)], stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment(), cwd=tmp)
    # Fed from a thread: the pipe holds less than the script, and the REPL reads
    # it only as fast as it writes the file.
    feeder = threading.Thread(target=feed, args=(p,), daemon=True)
    feeder.start()
    time.sleep(rng.uniform(0.02, 0.25))
    p.send_signal(signal.SIGKILL)
    p.wait()
    feeder.join()
    try:
        doc = json.loads(f.read_text())
        s = doc["pbta-superiority"].get("superiority", 1) if doc else 1
        # Whichever write was the last to finish: a whole state, S a face of the die.
        ok = 1 <= s <= 6 and set(doc.keys()) <= {"pbta-superiority"}
        seen.add(s)
    except (ValueError, KeyError) as e:
        ok = False
        doc = f"{e}: {f.read_text()!r}"
    check(f"after kill {attempt}", ok, str(doc))
check("the kills caught the writer at different states", len(seen) >= 2, str(seen))
# The next write removes what killed writers left behind.
rc, out, err = run(["roll", "pbta-superiority.increase", "--state", str(f)])
leftovers = [p.name for p in tmp.iterdir() if p.name.startswith(".killed.json.")]
check("temporary files of killed writers are removed", rc == 0 and leftovers == [], f"{leftovers} {err}")

# ---- mistakes in a state file ----------------------------------------------------------------

def state_error(name, text, want, exit_code=1):
    f = tmp / name
    if isinstance(text, str):
        f.write_text(text)
    before = f.read_text() if f.is_file() else None
    rc, out, err = run(["roll", "pbta-superiority.increase", "--state", str(f)])
    check(f"state error {name}", rc == exit_code and want in err and out == "", f"exit {rc}: {err}{out}")
    if before is not None:
        check(f"state error {name} leaves the file", f.read_text() == before, f.read_text())


state_error("syntax.json", '{"pbta-superiority": {"superiority": 3,}}\n',
            f"{tmp}/syntax.json:1:40: error: this is not valid JSON: syntax error while parsing object key - "
            "unexpected '}'; expected string literal [StateInvalid]\n"
            " 1 | {\"pbta-superiority\": {\"superiority\": 3,}}\n   |                                        ^")
state_error("range.json", '{"pbta-superiority": {"superiority": 9}}',
            f"{tmp}/range.json: error: pbta-superiority.superiority must be at most 6, got 9 [StateInvalid]")
state_error("type.json", '{"pbta-superiority": {"superiority": "high"}}',
            "pbta-superiority.superiority must be an int, got the string \"high\"")
state_error("counter.json", '{"pbta-superiority": {"superiorty": 2}}',
            "the ruleset pbta-superiority has no state 'superiorty' (did you mean 'superiority'?)")
state_error("ruleset.json", '{"pbta-superority": {"superiority": 2}}',
            "the state has an entry for 'pbta-superority', which is no ruleset (did you mean 'pbta-superiority'?)")
state_error("array.json", '[1, 2]', "the state must be a JSON object, one entry per ruleset")
state_error("empty.json", '', "this is not valid JSON: unexpected end of input")
state_error("float.json", '{"pbta-superiority": {"superiority": 2.5}}', "pbta-superiority.superiority: 2.5 is not a whole number")
rc, out, err = run(["roll", "pbta-superiority.increase", "--json", "--state", str(tmp / "range.json")])
doc = json.loads(out) if rc == 1 and out.startswith("{") else {}
check("a bad state file with --json", doc.get("ok") is False and doc.get("error", {}).get("code") == "StateInvalid"
      and (doc["error"].get("location") or {}).get("file") == str(tmp / "range.json"), out + err)
(tmp / "adir").mkdir(exist_ok=True)
state_error("adir", None, "adir: error: cannot read the state file: it is a directory")
rc, out, err = run(["roll", "pbta-superiority.increase", "--state", str(tmp / "no-such-dir" / "s.json")])
check("unwritable state file", rc == 1 and "cannot write the state file" in err, err)

# ---- choices from the command line ----------------------------------------------------------

f = state_file("choice.json", 3)
rc, doc, err, _ = roll(["pbta-superiority.move", "stat=0"], [3, 4], f, ["--use-superiority"])
check("--use-superiority", rc == 0 and doc["value"]["superiority_used"] and superiority(f) == 1, f"{err} {doc}")
f = state_file("choice2.json", 5)
rc, doc, err, _ = roll(["pbta-superiority.move", "stat=0"], [2, 4], f, ["--no-use-superiority"])
check("--no-use-superiority", rc == 0 and not doc["value"]["superiority_used"] and superiority(f) == 5, f"{err}")
rc, doc, err, _ = roll(["pbta-superiority.move", "stat=0", "superiority=5"], [2, 4], None,
                       ["--choose", "use_superiority=false"])
check("--choose NAME=VALUE", rc == 0 and doc["value"]["tier"] == "miss", err)
rc, doc, err, _ = roll(["pbta_superiority.move(0, superiority: 3)"], [3, 4], None,
                       ["--choose", "pbta-superiority.use_superiority"])
check("--choose RULESET.NAME on an expression", rc == 0 and doc["value"]["superiority_used"], err)
for extra, want in [(["--choose", "use_superority"], "there is no choice 'use_superority' (did you mean 'use_superiority'?)"),
                    (["--choose", "use_superiority=maybe"], "'maybe' is not a value for the choice 'use_superiority' (bool)"),
                    (["--choose", "use_superiority=3"], "the choice 'use_superiority' must be bool, got the number 3"),
                    (["--use-superiority", "--no-use-superiority"], "is decided twice"),
                    (["--use-superority"], "unknown option '--use-superority' (the rulesets used here add --use-superiority)")]:
    rc, doc, err, args = roll(["pbta-superiority.move", "stat=0"], [3, 4], None, extra)
    check(f"choice error {extra}", rc == 2 and want in err, f"exit {rc}: {err}")
# A choice the mechanic never reads is refused, whichever way it is given, and nothing changes.
f = state_file("unread.json", 3)
for call, extra, want in [
        (["pbta-superiority.increase"], ["--use-superiority"],
         "--use-superiority: pbta-superiority.increase never reads the choice 'use_superiority' of pbta-superiority"),
        (["pbta-superiority.increase"], ["--choose", "use_superiority=false"],
         "--use-superiority: pbta-superiority.increase never reads the choice 'use_superiority'"),
        (["pbta_superiority.increase() + 1"], ["--no-use-superiority"],
         "--use-superiority: this roll never reads the choice 'use_superiority' of pbta-superiority")]:
    rc, doc, err, args = roll(call, [], f, extra)
    check(f"unread choice {extra}", rc == 2 and want in err and superiority(f) == 3, f"exit {rc}: {err}")
# A roll that leaves scripted dice over fails, and the state file is left as it was.
rc, doc, err, _ = roll(["pbta-superiority.increase"], [4], f)
check("unused dice keep the state", rc == 1 and doc["error"]["code"] == "ScriptedDiceUnused" and superiority(f) == 3,
      f"exit {rc}: {err} {doc}")
rc, out, err = run(["stats", "pbta-superiority.increase", "--use-superiority"])
check("stats: unread choice", rc == 2 and "pbta-superiority.increase never reads the choice" in err, err)

# ---- what-ifs and the state commands ---------------------------------------------------------

# A counter given as an argument is a what-if: the call runs from it, the file is left as it was.
f = state_file("whatif.json", 2)
rc, doc, err, _ = roll(["pbta-superiority.increase", "superiority=5"], None, f)
check("what-if", rc == 0 and doc["value"] == 6 and doc["state"]["pbta-superiority"]["superiority"] == 6
      and doc["what_if"] == ["pbta-superiority.superiority"] and superiority(f) == 2
      and f"note: pbta-superiority.superiority is given as an argument: a what-if, so {f} is left as it was" in err,
      f"exit {rc}: {err} {doc}")
rc, doc, err, _ = roll(["pbta_superiority.move(0, superiority: 6).total"], [1, 2], f)
check("what-if in an expression", rc == 0 and doc["value"] == 8 and superiority(f) == 2, f"exit {rc}: {err} {doc}")
rc, doc, err, _ = roll(["pbta-superiority.increase"], None, f)
check("a mechanic's changes still count", rc == 0 and superiority(f) == 3 and "what_if" not in doc, f"{err} {doc}")
# `alea state set` and `alea state show` change and read it on purpose, checked against the ruleset.
rc, out, err = run(["state", "set", str(f), "pbta-superiority.superiority=5"])
check("state set", rc == 0 and out == "pbta-superiority.superiority: 3 → 5\n" and superiority(f) == 5, out + err)
rc, out, err = run(["state", "show", str(f)])
check("state show", rc == 0 and out.startswith("pbta-superiority.superiority = 5   (1 to 6, starts at 1)"), out + err)
for words, code, want in [(["pbta-superiority.superiority=9"], 1, "pbta-superiority.superiority must be at most 6, got 9"),
                          (["pbta-superiority.superority=2"], 2, "keeps no counter 'superority' (did you mean 'superiority'?)"),
                          (["nothing-here.x=1"], 2, "there is no ruleset 'nothing-here'"),
                          (["superiority"], 2, "is not RULESET.COUNTER=VALUE")]:
    rc, out, err = run(["state", "set", str(f)] + words)
    check(f"state set {words}", rc == code and want in err and superiority(f) == 5, f"exit {rc}: {err}")
rc, out, err = run(["state", "show", str(tmp / "none-yet.json")])
check("state show: no file", rc == 0 and "holds no state: every counter is at its default" in out, out + err)

# ---- the exact odds (X1-X12) ---------------------------------------------------------------------

X = {(0, 1): ("5/12", "5/12", "1/6", "0"), (0, 2): ("13/36", "17/36", "1/6", "1/18"),
     (0, 3): ("1/4", "7/12", "1/6", "1/6"), (0, 4): ("1/9", "5/9", "1/3", "17/36"),
     (0, 5): ("1/36", "5/12", "5/9", "13/18"), (0, 6): ("0", "1/4", "3/4", "5/6"),
     (1, 1): ("5/18", "4/9", "5/18", "0"), (1, 2): ("2/9", "1/2", "5/18", "1/18"),
     (1, 3): ("1/9", "1/2", "7/18", "5/18"), (1, 4): ("1/36", "5/12", "5/9", "19/36"),
     (1, 5): ("0", "1/4", "3/4", "25/36"), (1, 6): ("0", "1/9", "8/9", "13/18")}


def brute_force(stat, s):
    """The 36 ordered rolls of 2d6 with the spec's raise_tier policy, written out here."""
    tier = lambda t: 0 if t <= 6 else 1 if t <= 9 else 2
    p = [Fraction(0)] * 4
    for a in range(1, 7):
        for b in range(1, 7):
            plain, swapped = a + b + stat, max(a, b) + s + stat
            use = tier(swapped) > tier(plain)
            p[tier(swapped if use else plain)] += Fraction(1, 36)
            p[3] += Fraction(1, 36) if use else 0
    return tuple(p)


for (stat, s), spec in X.items():
    xid = f"X{list(X).index((stat, s)) + 1}"
    rc, out, err = run(["stats", "pbta-superiority.move", f"stat={stat}", f"superiority={s}", "--json"])
    if rc != 0:
        check(xid, False, f"exit {rc}: {err}")
        continue
    doc = json.loads(out)
    fields = doc["fields"]
    tiers = {e["value"]: Fraction(e["exact"]) for e in fields["tier"]["distribution"]}
    used = {e["value"]: Fraction(e["exact"]) for e in fields["superiority_used"]["distribution"]}
    got = (tiers.get("miss", 0), tiers.get("partial", 0), tiers.get("full", 0), used.get(True, 0))
    check(f"{xid} exact", doc["method"] == "exact", doc["method"])
    check(f"{xid} spec", got == tuple(Fraction(x) for x in spec), f"{got} vs the spec {spec}")
    check(f"{xid} brute force", got == brute_force(stat, s), f"{got} vs {brute_force(stat, s)}")
# Without superiority: plain 2d6 + 1.
rc, out, err = run(["stats", "pbta-superiority.move", "stat=1", "superiority=6", "use_superiority=false", "--json"])
tiers = {e["value"]: e["exact"] for e in json.loads(out)["fields"]["tier"]["distribution"]} if rc == 0 else {}
check("2d6+1 without superiority", tiers == {"miss": "5/18", "partial": "4/9", "full": "5/18"}, f"{tiers} {err}")
# The state of a character file, and the player's decision, as the starting point of every run.
f = state_file("stats.json", 4)
rc, out, err = run(["stats", "pbta-superiority.move", "stat=1", "--state", str(f), "--json"])
tiers = {e["value"]: e["exact"] for e in json.loads(out)["fields"]["tier"]["distribution"]} if rc == 0 else {}
check("stats --state", tiers == {"miss": "1/36", "partial": "5/12", "full": "5/9"} and superiority(f) == 4,
      f"{tiers} {err}")
rc, out, err = run(["stats", "pbta-superiority.move", "stat=1", "--state", str(f), "--no-use-superiority"])
check("stats --no-use-superiority", rc == 0 and out.startswith(
    "pbta_superiority.move(stat: 1, superiority: 4, use_superiority: false): exact") and "miss      27.78%  5/18" in out,
    out + err)
rc, out, err = run(["stats", "2d6", "--state", str(f)])
check("stats --state needs a mechanic", rc == 2 and "apply to a mechanic" in err, err)
rc, out, err = run(["stats", "pbta-superiority.move", "stat=1", "superiority=4"])
check("stats text", rc == 0 and "tier:\nvalue    probability\nmiss       2.78%  1/36" in out
      and "superiority_used: P(true) = 52.78% (19/36)" in out, out + err)

# ---- describe and the examples of the file ------------------------------------------------------

rc, out, err = run(["describe", "pbta-superiority", "--full"])
check("describe shows the state", rc == 0 and "State kept between rolls" in out and "superiority (int, starts at 1, "
      "1 to 6, a change stops at the bounds)" in out and "use_superiority (bool, flag --use-superiority)" in out
      and "partial (7–9)" in out, out + err)
rc, out, err = run(["describe", "pbta-superiority.move"])
check("describe shows the change", "changes the state:\n  superiority: reset to its start, when "
      "result.superiority_used" in out, out)
# The calls of the file's examples, as `alea describe --json` lists them.
rc, out, err = run(["describe", "pbta-superiority", "--json"])
ruleset_examples = [e for m in (json.loads(out)["mechanics"] if rc == 0 else []) for e in m["examples"]]
check("the file has examples", len(ruleset_examples) >= 8, str(ruleset_examples))
for ex in ruleset_examples:
    f = state_file("example.json", 3)
    rc, out, err = run(["roll"] + ex.split() + ["--seed", "7", "--state", str(f)])
    # Nothing on stderr but the what-if note of an example that gives the counter.
    expected_err = "note: pbta-superiority.superiority is given as an argument" if "superiority=" in ex else ""
    check(f"example {ex}", rc == 0 and (err.startswith(expected_err) if expected_err else err == ""), f"exit {rc}: {err}")

shutil.rmtree(tmp, ignore_errors=True)
finish("test_pbta")
