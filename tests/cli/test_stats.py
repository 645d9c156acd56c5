#!/usr/bin/env python3
"""tests/cli/test_stats.py — `alea stats` as a user runs it: the exact table,
known means, JSON, record mechanics, sampling, --exact, --svg and bad usage.

Usage: test_stats.py /path/to/alea   (CTest passes the built binary)
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction
import xml.etree.ElementTree as ET

ALEA = sys.argv[1]
failures = []


def run(args, timeout=60):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALEA_")}
    p = subprocess.run([ALEA] + args, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")


def expect(args, code, timeout=60):
    rc, so, se = run(args, timeout)
    check(" ".join(args)[:70], rc == code, f"exit {rc}, expected {code}; stderr: {se.strip()[:400]}")
    return so, se


def row(text, value):
    """The cells of the table row for `value` (value, percentage, …), or None."""
    for line in text.splitlines():
        cells = line.split()
        if cells and cells[0] == str(value) and len(cells) >= 3:
            return cells
    return None


def untimed(doc):
    """A stats document without the seconds it took, which vary from run to run."""
    return doc and {k: v for k, v in doc.items() if k not in ("exact_seconds", "seconds")}


def json_of(args, name):
    so, _ = expect(args + ["--json"], 0)
    try:
        return json.loads(so)
    except ValueError as e:
        check(name, False, f"not JSON ({e}): {so[:300]!r}")
        return None


def entry(dist, value):
    for e in dist:
        if e["value"] == value:
            return e
    return None


# ---- 3d6: the exact table -----------------------------------------------------------
out, _ = expect(["stats", "3d6"], 0)
lines = out.splitlines()
check("3d6 header", lines and lines[0] == "3d6: exact (composed)", repr(lines[:1]))
check("3d6 mean", "mean 10.5 (exact: 21/2), sd 2.958" in out, out)
check("3d6 percentiles", "percentiles  5%: 6  25%: 8  50%: 10  75%: 13  95%: 15" in out, out)
check("3d6 columns", re.search(r"(?m)^value\s+probability\s+at least\s+at most$", out) is not None, out)
# value, percentage, exact fraction, at least, at most, bar
check("3d6 P(10)", row(out, 10)[:5] == ["10", "12.50%", "1/8", "62.50%", "50.00%"], row(out, 10))
check("3d6 P(3)", row(out, 3)[:5] == ["3", "0.46%", "1/216", "100.00%", "0.46%"], row(out, 3))
check("3d6 P(18)", row(out, 18)[:5] == ["18", "0.46%", "1/216", "0.46%", "100.00%"], row(out, 18))
check("3d6 histogram", row(out, 10)[5] == max((row(out, v)[5] for v in range(3, 19)), key=len)
      and set(row(out, 10)[5]) == {"█"}, row(out, 10))
check("3d6 fits 80 columns", all(len(line) <= 80 for line in lines), max(lines, key=len))

# ---- enumerated when composing does not apply ------------------------------------------
# A division by zero on some roll: each multiset of 3d6 is run once.
out, _ = expect(["stats", "12 / (3d6 - 10)"], 0)
check("enumerated header", out.splitlines()[0] == "12 / (3d6 - 10): exact (56 outcomes)", out.splitlines()[:1])
doc = json_of(["stats", "12 / (3d6 - 10)"], "enumerated json")
if doc:
    check("enumerated json", doc["exact_method"] == "enumerated" and doc["runs"] == 56,
          (doc["exact_method"], doc["runs"]))
    check("enumerated errors", doc["unresolved"]["errors"]["exact"] == "1/8", doc["unresolved"])
# faces() reads the dice in the order rolled: each sequence of 3d6 is run once.
out, _ = expect(["stats", "faces(3d6)"], 0)
check("enumerated in order", out.splitlines()[0] == "faces(3d6): exact (216 outcomes)", out.splitlines()[:1])

# ---- big pools are composed, exactly ------------------------------------------------------
# 200d6 and 500d6: the cells of a sum are work (max_odds_work), not branches (max_branches).
for expr, mean in [("40d6", "140/1"), ("10d10kh3", "2596209171/100000000"), ("12d12<=7", "7/1"),
                   ("200d6", "700/1"), ("500d6", "1750/1")]:
    doc = json_of(["stats", expr], expr)
    if doc:
        check(f"{expr} composed", doc["method"] == "exact" and doc["exact_method"] == "composed",
              (doc["method"], doc["exact_method"], doc["reason"]))
        check(f"{expr} mean", doc["exact_mean"] == mean, doc["exact_mean"])
        check(f"{expr} mean as a number", abs(doc["mean"] - float(Fraction(mean))) <= 1e-12 * float(Fraction(mean)),
              doc["mean"])
        check(f"{expr} adds up", sum(e["probability"] for e in doc["distribution"]) > 1 - 1e-12)

# ---- 4d6kh3: the known mean and sd ---------------------------------------------------
out, _ = expect(["stats", "4d6kh3"], 0)
check("4d6kh3 exact mean in text", "(exact: 15869/1296)" in out, out)
doc = json_of(["stats", "4d6kh3"], "4d6kh3 json")
if doc:
    check("4d6kh3 exact_mean", doc["exact_mean"] == "15869/1296", doc["exact_mean"])
    check("4d6kh3 mean", abs(doc["mean"] - 15869 / 1296) < 1e-12, doc["mean"])
    check("4d6kh3 sd", abs(doc["sd"] - 2.846844) < 5e-7, doc["sd"])
    check("4d6kh3 P(18)", entry(doc["distribution"], 18)["exact"] == "7/432", entry(doc["distribution"], 18))

# ---- the JSON shape -----------------------------------------------------------------
doc = json_of(["stats", "3d6"], "3d6 json")
if doc:
    for key in ["expression", "method", "reason", "runs", "exact_method", "threads", "mean", "sd", "exact_mean",
                "percentiles", "distribution", "fields", "unresolved"]:
        check(f"json has {key}", key in doc, list(doc))
    check("json expression", doc["expression"] == "3d6", doc["expression"])
    check("json method", doc["method"] == "exact" and doc["reason"] is None, doc["method"])
    check("json composed", doc["exact_method"] == "composed" and doc["runs"] > 0, (doc["exact_method"], doc["runs"]))
    check("json distribution", [e["value"] for e in doc["distribution"]] == list(range(3, 19)),
          doc["distribution"])
    e10 = entry(doc["distribution"], 10)
    check("json entry", e10 == {"value": 10, "probability": 0.125, "exact": "1/8", "at_least": 0.625,
                                "at_most": 0.5}, e10)
    check("json probabilities add up", abs(sum(e["probability"] for e in doc["distribution"]) - 1) < 1e-12)
    check("json percentiles", doc["percentiles"] == {"5": 6, "25": 8, "50": 10, "75": 13, "95": 15},
          doc["percentiles"])
    check("json fields", doc["fields"] == {}, doc["fields"])
    check("json unresolved", doc["unresolved"]["probability"] == 0 and doc["unresolved"]["exact"] == "0/1"
          and doc["unresolved"]["cause"] is None, doc["unresolved"])
doc = json_of(["stats", "3d6 >= 12"], "bool json")
if doc:
    check("json booleans", [e["value"] for e in doc["distribution"]] == [False, True]
          and doc["mean"] is None, doc)
doc = json_of(["stats", "d6 explode 6", "--explosion-depth", "2"], "explosion json")
if doc:
    u = doc["unresolved"]
    check("json explosion tail", u["exact"] == "1/216" and u["cause"] == "explosion"
          and u["explosion_depth"] == 2, u)
out, _ = expect(["stats", "d6 explode 6", "--explosion-depth", "2"], 0)
check("text explosion tail",
      "0.46% (1/216) of the runs went past 2 extra dice in an explosion chain and are not counted" in out, out)
# With no depth given, chains are followed deeper until less than 1e-12 of the runs go past them
# (3d6 at 6 extra dice leaves 1.1e-5 out; each die further, a sixth of that). The deeper answer
# takes about a millisecond, far inside the quarter second a deeper attempt may take.
doc = json_of(["stats", "3d6 explode 6"], "explosion json, deeper")
if doc:
    u = doc["unresolved"]
    check("json explosion followed deeper", doc["method"] == "exact" and u["cause"] == "explosion"
          and 0 < u["probability"] <= 1e-12 and u["explosion_depth"] > 6, u)
    # A sum adds each die's chain on its own: no combination of chains is cut as rare, and none is named.
    check("json: no rare combination cut, none named", u["rare_chains"] is None, u)
out, _ = expect(["stats", "3d6 explode 6"], 0)
check("text: no rare combination cut, none named", "went past 18 extra dice in an explosion chain" in out
      and "rarer than" not in out, out[-400:])
# Keeping the highest two looks at the dice together: some combinations of chains are cut as rare.
doc = json_of(["stats", "3d6 explode 6 keep highest 2"], "explosion json, rare combinations")
if doc:
    u = doc["unresolved"]
    check("json: rare combinations cut and named", 0 < u["probability"] <= 1e-12 and u["rare_chains"] == 1e-13, u)
out, _ = expect(["stats", "3d6 explode 6 keep highest 2"], 0)
check("text: rare combinations named", "or into a pool's combination of chains rarer than 1e-13," in out, out[-400:])
doc = json_of(["stats", "3d6 explode 6", "--explosion-depth", "6"], "explosion json, depth given")
if doc:
    u = doc["unresolved"]
    check("json explosion depth as given", u["explosion_depth"] == 6 and u["probability"] > 1e-6
          and u["rare_chains"] is None, u)

# ---- a record mechanic --------------------------------------------------------------
out, _ = expect(["stats", "heroes-mythos.check", "dice=3", "red=1", "--explosion-depth", "4"], 0)
check("record header", out.startswith("heroes_mythos.check(dice: 3, red: 1): exact ("), out[:200])
check("record unresolved", "went past 4 extra dice in an explosion chain" in out, out[:400])
check("record catastrophe", "catastrophe: P(true) = 0\n" in out, out)
check("record sections", all(re.search(rf"(?m)^{f}:", out) for f in
                             ["result", "success", "extra_successes", "catastrophe", "outcome"]), out)
outcome = out[out.index("\noutcome:"):]
check("record outcome labels", [row(outcome, label) is not None for label in ["catastrophe", "failure", "success"]]
      == [True] * 3 and row(outcome, "catastrophe")[1:3] == ["0.00%", "0"], outcome)
doc = json_of(["stats", "heroes-mythos.check", "dice=3", "red=1", "explode_limit=0"], "record json")
if doc:
    fields = doc["fields"]
    check("record fields", list(fields) == ["result", "success", "extra_successes", "catastrophe", "outcome"],
          list(fields))
    check("P(success) = 67/216", entry(fields["success"]["distribution"], True)["exact"] == "67/216",
          fields["success"])
    check("P(catastrophe) = 0", entry(fields["catastrophe"]["distribution"], True) is None,
          fields["catastrophe"])
    check("outcome labels", [e["value"] for e in fields["outcome"]["distribution"]]
          == ["catastrophe", "failure", "success"], fields["outcome"])
    check("outcome never seen", entry(fields["outcome"]["distribution"], "catastrophe")["exact"] == "0/1",
          fields["outcome"])
    check("record field mean", fields["extra_successes"]["exact_mean"] == "11/108", fields["extra_successes"])
out, _ = expect(["stats", "heroes-mythos.check", "dice=3", "red=1", "explode_limit=0"], 0)
check("text P(success)", "success: P(true) = 31.02% (67/216)" in out, out)
# A mistake in the call is reported as `alea roll` reports it.
_, err = expect(["stats", "heroes-mythos.check", "dice=3", "reds=1"], 1)
check("unknown parameter", "has no parameter 'reds'" in err and "did you mean 'red'?" in err, err)
_, err = expect(["stats", "heroes-mythos.check", "dice=3", "oops"], 2)
check("not a setting", err.startswith("alea: stats: 'oops' is not a parameter setting"), err)

# ---- sampling -----------------------------------------------------------------------
sampled = ["stats", "3d6", "--sampled", "--samples", "20000", "--seed", "1", "--threads", "2"]
a, err = expect(sampled, 0)
check("no progress line when stderr is not a terminal", err == "", err)
b, _ = expect(sampled, 0)
check("sampling is deterministic", a == b and a, f"{a!r} vs {b!r}")
check("sampled header", a.startswith("3d6: sampled (20000 runs on 2 threads, seed 1) — sampling was asked for\n"),
      a[:200])
check("sampled intervals", re.search(r"(?m)^\s+10\s+\d+\.\d\d%\s+\d+\.\d\d–\d+\.\d\d%", a) is not None, a)
c, _ = expect(["stats", "3d6", "--sampled", "--samples", "20000", "--seed", "2", "--threads", "2"], 0)
check("another seed, other runs", c != a, c)
doc = json_of(sampled, "sampled json")
if doc:
    check("sampled json", doc["method"] == "sampled" and doc["runs"] == 20000 and doc["threads"] == 2
          and doc["seed"] == 1 and doc["exact_mean"] is None, doc)
    check("sampled by the lowered program", doc["sampler"] == "lowered" and doc["sampler_note"] is None, doc)
    e10 = entry(doc["distribution"], 10)
    check("sampled interval holds 1/8", e10["low"] <= 0.125 <= e10["high"] and "exact" not in e10, e10)
    check("sampled mean near 10.5", abs(doc["mean"] - 10.5) < 0.1, doc["mean"])
# A program the lowered form does not cover is sampled by the evaluator, and the JSON says why.
doc = json_of(["stats", "faces(20d6)[0]", "--samples", "2000", "--threads", "1"], "evaluator json")
if doc:
    check("sampled by the evaluator", doc["method"] == "sampled" and doc["sampler"] == "evaluator"
          and doc["sampler_note"] == "the builtin 'faces'", doc)
# A shipped ruleset's tier scale is lowered; a mechanic that gives a record is
# sampled by the evaluator. Either way a seed and a thread count give the same runs.
tier = ["stats", "pbta_superiority.tier(2d6 + 1)", "--sampled", "--samples", "20000", "--seed", "3", "--threads", "2"]
doc = json_of(tier, "tier json")
if doc:
    check("tier scale lowered", doc["sampler"] == "lowered" and doc["sampler_note"] is None, doc)
    for label, exact in (("miss", 10 / 36), ("partial", 16 / 36), ("full", 10 / 36)):
        e = entry(doc["distribution"], label)
        check(f"tier {label} interval holds {exact:.4f}", e["low"] <= exact <= e["high"], e)
    check("tier sampling is deterministic", untimed(json_of(tier, "tier json again")) == untimed(doc))
record = ["stats", "heroes-mythos.check", "dice=3", "--sampled", "--samples", "3000", "--seed", "4", "--threads", "2"]
doc = json_of(record, "record json")
if doc:
    check("record mechanic sampled by the evaluator", doc["sampler"] == "evaluator"
          and doc["sampler_note"] == "the record that 'heroes_mythos.check' gives", doc)
    check("record sampling is deterministic", untimed(json_of(record, "record json again")) == untimed(doc))
doc = json_of(["stats", "3d6", "--threads", "1"], "exact json")
if doc:
    check("no sampler when exact", doc["method"] == "exact" and doc["sampler"] is None, doc)
# Over the budget, it samples and says why.
out, _ = expect(["stats", "3d6", "--max-branches", "10", "--samples", "2000", "--threads", "1"], 0)
check("over budget samples", out.startswith("3d6: sampled (2000 runs on 1 thread, seed 0) — composing needs "
                                            "more than 10 branches (max_branches); enumerating: an exact answer "
                                            "needs more than 10 runs (max_branches)"), out[:200])

# ---- --exact --------------------------------------------------------------------------
_, err = expect(["stats", "faces(20d6)", "--exact", "--max-branches", "1000"], 1)
check("--exact over budget", "no exact answer: composing does not apply: 'faces' sees the order of the dice or is "
      "not known to the composer; enumerating: an exact answer needs more than 1000 runs (max_branches)" in err
      and "raise --max-branches" in err, err)
# Read by position, a die is any face: every order of the roll is enumerated.
out, _ = expect(["stats", "faces(2d6)[0]", "--exact", "--json"], 0)
doc = json.loads(out)
check("--exact and the order of the dice", doc["exact_method"] == "enumerated" and doc["runs"] == 36 and
      [e["exact"] for e in doc["distribution"]] == ["1/6"] * 6, doc)
expect(["stats", "3d6", "--exact"], 0)

# ---- --time-limit ----------------------------------------------------------------------
# Hopeless in any time (composing it passes max_odds_work after seconds): a small limit is fast
# and gives the same verdict on every machine.
HOPELESS = ("let a = 10d10kh3 in let b = 10d10kh3 in let c = 10d10kh3 in let d = 10d10kh3 in "
            "let e = 10d10kh3 in let f = 10d10kh3 in [a, b, c, d, e, f]")
out, _ = expect(["stats", HOPELESS, "--time-limit", "0.2", "--samples", "100", "--threads", "1"], 0)
check("past --time-limit it samples and says why",
      "sampled (100 runs on 1 thread, seed 0) — an exact answer takes more than 0.2 s (time_limit)"
      in out.partition("\n")[0], out[:300])
_, err = expect(["stats", HOPELESS, "--exact", "--time-limit", "0.2"], 1)
check("--exact --time-limit: an error naming the limit, nothing sampled",
      "no exact answer: an exact answer takes more than 0.2 s (time_limit)" in err
      and "raise --time-limit (now 0.2 s), or leave it out to wait as long as it takes" in err, err)
doc = json_of(["stats", "3d6", "--time-limit", "30"], "a time limit that is plenty")
check("--time-limit within reach: exact", doc and doc["method"] == "exact", doc)
check("--json gives the time limit and the seconds taken",
      doc and doc["time_limit"] == 30 and 0 <= doc["exact_seconds"] <= doc["seconds"] < 30, doc)
doc = json_of(["stats", HOPELESS, "--time-limit", "0.2", "--samples", "100", "--threads", "1"], "hopeless")
check("--json: the exact attempt took its time limit, then sampling took more",
      doc and doc["method"] == "sampled" and doc["time_limit"] == 0.2
      and 0.2 <= doc["exact_seconds"] < doc["seconds"], {k: doc.get(k) for k in ("time_limit", "exact_seconds", "seconds")})
doc = json_of(["stats", "3d6", "--exact"], "--exact alone")
check("--json: --exact alone has no time limit", doc and doc["time_limit"] is None and doc["exact_seconds"] >= 0, doc)
doc = json_of(["stats", "3d6", "--sampled", "--samples", "100"], "--sampled")
check("--json: --sampled makes no exact attempt", doc and doc["time_limit"] is None and doc["exact_seconds"] is None
      and doc["seconds"] > 0, doc)
for bad in ["-1", "abc", "0", "1e99", "nan", "inf", "1.5s"]:
    _, err = expect(["stats", "3d6", "--time-limit", bad], 2)
    check(f"--time-limit {bad} refused", "--time-limit" in err and f"'{bad}' is not a time limit: give seconds, "
          "more than 0 and at most 31536000 seconds (a year)" in err, err)

# ---- errors in the expression ------------------------------------------------------------
_, err = expect(["stats", "3d6 +"], 1)
check("syntax error", "<input>:1:" in err and "^" in err, err)
_, err = expect(["stats", "1 / 0"], 1)
check("every run fails", "division by zero" in err, err)
out, _ = expect(["stats", "6 / (d6 - 1)"], 0)
check("some runs fail", "16.67% (1/6) of the runs ended in an error and are not counted; the first:" in out
      and "DivisionByZero" in out, out)

# ---- --svg ---------------------------------------------------------------------------------
with tempfile.TemporaryDirectory() as tmp:
    svg = os.path.join(tmp, "chart.svg")
    out, _ = expect(["stats", "3d6", "--svg", svg], 0)
    check("--svg still prints the table", out.startswith("3d6: exact"), out[:100])
    try:
        root = ET.parse(svg).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        bars = [r for r in root.iter(ns + "rect") if "bar" in (r.get("class") or "") and r.find(ns + "title") is not None]
        check("svg bars", len(bars) == 16, len(bars))
        check("svg title", any("3d6" in (t.text or "") for t in root.iter(ns + "text")), "no title")
        check("svg leaves no temporary file", os.listdir(tmp) == ["chart.svg"], os.listdir(tmp))
    except (ET.ParseError, OSError) as e:
        check("svg parses as XML", False, str(e))
    svg2 = os.path.join(tmp, "record.svg")
    expect(["stats", "heroes-mythos.check", "dice=2", "explode_limit=0", "--svg", svg2], 0)
    try:
        root = ET.parse(svg2).getroot()
        panels = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "panel"]
        check("svg panel per field", len(panels) == 5, len(panels))
    except (ET.ParseError, OSError) as e:
        check("record svg parses as XML", False, str(e))
    _, err = expect(["stats", "3d6", "--svg", os.path.join(tmp, "no", "such", "dir.svg")], 2)
    check("--svg to a missing directory", "cannot write" in err, err)

# ---- the order values are listed in ---------------------------------------------------------
# Numbers ascending, then false and true, then none, whichever way the answer was
# computed: the listing depends on the values alone, never on the order the engine met them.
mixed = "let a = d6 in let b = d6 in if a > b then let c = a - b in c * 2 else if a == b then none else let e = b in e + a"
ints_then_none = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, None]
for how in (["--exact"], ["--sampled", "--samples", "4000", "--seed", "5"]):
    doc = json_of(["stats", mixed] + how, "mixed " + how[0])
    check("numbers, then none " + how[0], doc and [e["value"] for e in doc["distribution"]] == ints_then_none,
          doc and [e["value"] for e in doc["distribution"]])
doc = json_of(["stats", "if d6 > 4 then none else d4 == 2", "--exact"], "bools and none")
check("false, true, then none", doc and [e["value"] for e in doc["distribution"]] == [False, True, None],
      doc and [e["value"] for e in doc["distribution"]])

# ---- max_odds_memory counts a shared value once ---------------------------------------------
# A spine keeps its names as a list per outcome; the pool in each list is the let's own outcome,
# already counted. Counted twice, this check needs about 113 MB of outcomes; once, 71 MB.
doc = json_of(["stats", "heroes-mythos.check", "dice=7", "explode_limit=3", "--exact",
               "--limit", "max_odds_memory=90000000"], "shared values counted once")
check("a shared pool counts once against max_odds_memory", doc and doc.get("method") == "exact", doc and doc.get("method"))

# ---- bad usage -------------------------------------------------------------------------------
for args in (["stats"], ["stats", "3d6", "--samples", "0"], ["stats", "3d6", "--samples", "x"],
             ["stats", "3d6", "--exact", "--sampled"], ["stats", "3d6", "--threads", "0"],
             ["stats", "3d6", "--bogus"], ["stats", "3d6", "--explosion-depth", "-1"]):
    expect(args, 2)

if failures:
    print("\n".join(f"FAIL  {f}" for f in failures))
    print(f"{len(failures)} failed")
    sys.exit(1)
print("all passed")
