#!/usr/bin/env python3
"""tests/cli/test_compare.py — `alea stats A B …` and sweeps as a homebrewer runs them: the
comparison table and its differences, labels, shared and own settings, the grid of a sweep as
text, CSV and JSON, the heatmap, --field and --outcome, the charts, errors in a cell, bad usage
and Ctrl-C.

Every number is checked against `alea stats` of the one variant alone, which is tested on its
own in test_stats.py: a comparison or a sweep must report exactly what each cell gives.

Usage: test_compare.py /path/to/alea   (CTest passes the built binary)
"""
import csv
import io
import json
import os
import signal
import subprocess
import tempfile
import xml.etree.ElementTree as ET

from clitest import ALEA, check, environment, finish, run, wait_busy, wait_catching

HM = "heroes-mythos.check"


def expect(args, code):
    rc, so, se = run(args)
    check(" ".join(args)[:80], rc == code, f"exit {rc}, expected {code}; stderr: {se.strip()[:400]}")
    return so, se


def json_of(args, code=0):
    so, _ = expect(args + ["--json"], code)
    try:
        return json.loads(so)
    except ValueError as e:
        check(" ".join(args)[:80], False, f"not JSON ({e}): {so[:300]!r}")
        return {}


def alone(args):
    """alea stats of one variant: its alea.stats/1 document."""
    return json_of(args)


def field_p_true(doc, field):
    """The entry of `true` in a bool field's distribution: {"probability": …, "exact": …}."""
    for e in doc["fields"][field]["distribution"]:
        if e["value"] is True:
            return e
    return {"probability": None, "exact": None}


# ---- two expressions: a column each, and the difference ------------------------------------
so, _ = expect(["stats", "3d6", "4d6kh3"], 0)
lines = so.splitlines()
check("legend names each variant and its method", lines[0].split()[:3] == ["A", "3d6:", "exact"], lines[:2])
mean_row = next((l.split() for l in lines if l.startswith("mean")), None)
check("mean row: each variant's mean and B−A", mean_row == ["mean", "10.5", "12.2446", "+1.7446"], mean_row)
check("histograms side by side", any(l.split()[:3] == ["3", "A", "0.46%"] for l in lines), so[-600:])
check("…a line per variant under each value", any(l.split()[:2] == ["B", "0.08%"] for l in lines), so[-600:])

# One expression written in several words stays one expression.
so, _ = expect(["stats", "3d6", "+", "2"], 0)
check("'3d6 + 2' is one expression", so.startswith("3d6 + 2: exact"), so[:80])
so, se = expect(["stats", "3d6", "oops"], 1)
check("a word that is no expression is the line's error", "unexpected text" in se, se)
# A word is an expression only if every name it reads is given, even one its least roll skips.
_, se = expect(["stats", HM, "dice=2", "if d6 > 1 then oops else 1"], 2)
check("a name read on some rolls only", "'if d6 > 1 then oops else 1' is not a parameter setting" in se, se)
so, _ = expect(["stats", "d20 + bonus", "2d10 + bonus", "bonus=1"], 0)
check("variables read by each expression", "A  d20 + bonus" in so and "B  2d10 + bonus" in so, so[:300])

doc = json_of(["stats", "3d6", "4d6kh3"])
check("alea.compare/1", doc.get("schema") == "alea.compare/1", str(doc)[:200])
vs = doc.get("variants", [])
check("two variants", [v["label"] for v in vs] == ["3d6", "4d6kh3"], str(vs)[:200])
if len(vs) == 2:
    check("each variant's whole distribution", vs[1]["stats"]["schema"] == "alea.stats/1" and
          vs[1]["stats"]["exact_mean"] == alone(["stats", "4d6kh3"])["exact_mean"], str(vs[1]["stats"])[:200])
    check("its measures, with the exact mean", vs[0]["values"]["mean"] == 10.5 and vs[0]["exact"]["mean"] == "21/2",
          str(vs[0])[:300])

# Two long distributions in 200 kB of JSON: each variant's document lists its most likely values in
# its share of the limit and says what it leaves out.
so, _ = expect(["stats", "2d3000", "2d3001", "--json", "--limit", "max_render_size=200000"], 0)
doc = json.loads(so)
vs = doc.get("variants", [])
check("long variants: within the limit", len(so.encode()) <= 200_000, len(so.encode()))
check("long variants: each lists some values and counts the rest",
      len(vs) == 2 and all(v["stats"]["left_out"] is not None and len(v["stats"]["distribution"]) > 100
                           and len(v["stats"]["distribution"]) + v["stats"]["left_out"]["values"] == 5999 + 2 * i
                           for i, v in enumerate(vs)), [v["stats"]["left_out"] for v in vs])

# Labels: one per variant, in order.
so, _ = expect(["stats", "3d6", "4d6kh3", "--label", "plain", "--label", "best 3 of 4"], 0)
check("labels head the columns", "plain" in so.splitlines()[3] and "best 3 of 4" in so.splitlines()[3], so[:300])
so, _ = expect(["stats", "3d6", "--label", "plain"], 0)
check("one variant's label is its report's title", so.startswith("plain: exact"), so[:100])
_, se = expect(["stats", "3d6", "--chart", "at-least", "--svg", "x.svg"], 2)
check("--chart for one distribution is refused", "--chart shapes a comparison's chart" in se, se)
_, se = expect(["stats", "3d6", "4d6kh3", "--label", "plain"], 2)
check("a label short is refused", "1 --label for 2 variants" in se, se)

# ---- mechanics: own settings and shared ones --------------------------------------------------
d2 = field_p_true(alone(["stats", HM, "dice=2"]), "success")
d3 = field_p_true(alone(["stats", HM, "dice=3"]), "success")
d3r1 = field_p_true(alone(["stats", HM, "dice=3", "red=1"]), "success")
doc = json_of(["stats", HM, "dice=2", HM, "dice=3", "--outcome", "success"])
vs = doc.get("variants", [])
check("own settings: A dice=2, B dice=3", [v["label"] for v in vs] == [f"{HM} dice=2", f"{HM} dice=3"], str(vs)[:300])
check("--outcome success: the bool field only", [m["key"] for m in doc.get("measures", [])] == ["P(success)"],
      doc.get("measures"))
if len(vs) == 2:
    check("each cell's exact probability", [v["exact"]["P(success)"] for v in vs] == [d2["exact"], d3["exact"]],
          f"{[v['exact'] for v in vs]} vs {d2}, {d3}")
# Settings after the last variant are everyone's; a variant's own wins.
doc = json_of(["stats", HM, "red=0", HM, "dice=3", "red=1", "--outcome", "success"])
vs = doc.get("variants", [])
if len(vs) == 2:
    check("shared dice=3, own red", [v["exact"]["P(success)"] for v in vs] == [d3["exact"], d3r1["exact"]],
          str(vs)[:300])
    check("labels say the shared setting another variant sets", [v["label"] for v in vs] ==
          [f"{HM} red=0", f"{HM} red=1"], str([v["label"] for v in vs]))

# --field and --outcome, checked against what the mechanic has.
so, _ = expect(["stats", HM, "dice=2", "--field", "result"], 0)
check("--field of one call: that field's distribution", so.startswith("heroes_mythos.check(dice: 2).result: exact")
      and "success" not in so, so[:300])
_, se = expect(["stats", HM, "dice=2", "--field", "reslt"], 2)
check("--field unknown lists the fields", "no such field; the fields are result, success" in se, se)
_, se = expect(["stats", HM, "dice=2", "--outcome", "sucess"], 2)
check("--outcome unknown lists the outcomes", "no such outcome" in se and "outcome=failure" in se, se)
so, _ = expect(["stats", HM, "dice=2", "--outcome", "failure"], 0)
check("--outcome LABEL means FIELD=LABEL", "P(outcome=failure)" in so and "P(success)" not in so, so[:300])

# ---- a sweep: a row per combination ----------------------------------------------------------
doc = json_of(["stats", HM, "dice=1..3", "red=0,1", "--outcome", "success"])
check("alea.sweep/1", doc.get("schema") == "alea.sweep/1", str(doc)[:200])
rows = doc.get("rows", [])
check("3 × 2 rows, the first setting slowest", [(r["settings"]["dice"], r["settings"]["red"]) for r in rows] ==
      [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1)], str(rows)[:300])
if len(rows) == 6:
    check("each row is its cell's exact answer", rows[2]["exact"]["P(success)"] == d2["exact"] and
          rows[5]["exact"]["P(success)"] == d3r1["exact"], f"{rows[2]} {rows[5]}")
so, _ = expect(["stats", HM, "dice=1..3", "red=0,1", "--outcome", "success", "--csv"], 0)
table = list(csv.reader(io.StringIO(so)))
check("CSV: a header and a row per cell", table[0] == ["dice", "red", "variant", "method", "P(success)"] and
      len(table) == 7, table[:2])
if len(table) == 7:
    check("CSV values are the probabilities", abs(float(table[3][4]) - d2["probability"]) < 1e-9, table[3])
so, _ = expect(["stats", HM, "dice=1..3", "red=0,1", "--outcome", "success"], 0)
check("two settings and one measure: a table of them", so.splitlines()[1].split() == ["dice", "\\", "red", "0", "1"]
      and so.splitlines()[4].split()[0] == "3", so[:300])
so, _ = expect(["stats", HM, "dice=1..3", "--field", "result"], 0)
check("one setting: the grid", so.splitlines()[0].split() == ["dice", "method", "result", "mean"], so[:200])

# A cell that fails: its row says so, the others stand, exit 1.
so, se = expect(["stats", HM, "dice=0,1", "--outcome", "success"], 1)
check("the failed cell's row", so.splitlines()[1].split()[:2] == ["0", "error"], so)
check("…and why, at the cell", f"{HM} dice=0: the argument 'dice' must be at least 1" in so, so)
check("…in full on stderr", "ArgumentOutOfRange" in se, se)

# ---- an expression's variables, given and swept ------------------------------------------------
so, _ = expect(["stats", "d20 + bonus >= 15", "bonus=3"], 0)
check("a variable from the command line", so.startswith("d20 + bonus >= 15 with bonus=3: exact") and
      "P(true) = 45.00% (9/20)" in so, so[:200])
doc = json_of(["stats", "d20 + bonus >= 15", "2d10 + bonus >= 15", "bonus=0..5"])
rows = doc.get("rows", [])
check("a variable swept for two variants", [(r["settings"]["bonus"], r["variant"], r["exact"]["P(true)"])
                                            for r in rows[-2:]] ==
      [(5, "d20 + bonus >= 15", "11/20"), (5, "2d10 + bonus >= 15", "16/25")], str(rows[-2:])[:300])
so, _ = expect(["stats", "d20 + bonus >= 15", "2d10 + bonus >= 15", "bonus=4,5"], 0)
check("one measure of two variants: a column each and Δ", so.splitlines()[-2:] ==
      ["4      50.00%  55.00%  +5.00 pp", "5      55.00%  64.00%  +9.00 pp"], so)
_, se = expect(["stats", "d20 + bonus >= 15", "bonsu=2"], 2)
check("a variable no expression reads", "the variable 'bonsu' is given but the expression never reads it (did you "
      "mean 'bonus'?)" in se, se)
_, se = expect(["stats", "d20 + bonus", "bonus=d6"], 2)
check("a variable's value rolls no dice", "rolls no dice" in se, se)

# ---- PATH#MECHANIC: a ruleset file beside the one of the same name on the path ----------------
# examples/rulesets/house/my-game.yaml is my-game with difficulty 8 instead of 10; each file gets an
# engine of its own, so the two my-game rulesets are compared.
HOUSE = "examples/rulesets/house/my-game.yaml"
EX = ["--rulesets", "examples/rulesets"]
orig = field_p_true(alone(["stats", "my-game.check"] + EX), "success")
house = field_p_true(alone(["stats", f"{HOUSE}#check"]), "success")
check("a file's mechanic alone", house["exact"] == "181/216" and orig["exact"] != house["exact"], f"{orig} {house}")
doc = json_of(["stats", "my-game.check", f"{HOUSE}#check", "--outcome", "success"] + EX)
vs = doc.get("variants", [])
check("file variant: labels as typed", [v["label"] for v in vs] == ["my-game.check", f"{HOUSE}#check"], str(vs)[:300])
check("file variant: each its own ruleset", [v["exact"]["P(success)"] for v in vs] == [orig["exact"], house["exact"]],
      str(vs)[:300])
# Two files of one name, by path; a sweep of both, as CSV.
so, _ = expect(["stats", "examples/rulesets/my-game.yaml#check", f"{HOUSE}#check", "dice=2..3", "--outcome",
                "success", "--csv"], 0)
rows = list(csv.reader(io.StringIO(so)))
check("two files of one name swept", [r[:3] for r in rows[1:]] ==
      [["2", "examples/rulesets/my-game.yaml#check", "exact"], ["2", f"{HOUSE}#check", "exact"],
       ["3", "examples/rulesets/my-game.yaml#check", "exact"], ["3", f"{HOUSE}#check", "exact"]]
      and float(rows[3][3]) == 0.625 and abs(float(rows[4][3]) - 181 / 216) < 1e-9, so)
# `alea roll` takes it too.
so, _ = expect(["roll", f"{HOUSE}#check", "dice=2", "--dice", "4,4"], 0)
check("roll PATH#MECHANIC: the file's default", "success: true" in so and "grade: pass" in so, so)
# Mistakes name the word: a file not there (with the nearest), a mechanic it lacks, a file with errors.
_, se = expect(["stats", "my-game.check", "examples/rulesets/house/my-gmae.yaml#check"] + EX, 2)
check("a file not there", "'examples/rulesets/house/my-gmae.yaml#check': examples/rulesets/house/my-gmae.yaml is "
      "not there (did you mean examples/rulesets/house/my-game.yaml?)" in se, se)
_, se = expect(["stats", "my-game.check", f"{HOUSE}#chek"] + EX, 2)
check("a mechanic the file lacks", f"'{HOUSE}#chek': {HOUSE} has no mechanic 'chek' (did you mean 'check'?)" in se, se)
_, se = expect(["roll", f"{HOUSE}#"], 2)
check("no mechanic after '#'", "name a mechanic of the file after '#'" in se, se)
so, se = expect(["stats", "my-game.check", "tests/cli/variants/base-bad.yaml#roll", "--outcome", "success"] + EX, 1)
check("a file with errors: its place, and the word", "tests/cli/variants/base-bad.yaml:10:16: error: unknown name "
      "'bonsu'" in se and "note: 'tests/cli/variants/base-bad.yaml#roll' names this file" in se, se)

# ---- bad usage ---------------------------------------------------------------------------------
for args, says in [
    ([HM, "dice=3..1"], "the range 3..1 goes down"),
    ([HM, "dice=1,,2"], "has an empty item"),
    (["3d6", "4d6", "dice=3"], "the variable 'dice' is given but no expression reads it"),
    (["dice=3", HM], "comes before the mechanic"),
    ([HM, "dice=1..3", "red=0,1", "--svg", "x.svg"], None),  # refused below, before computing
    (["3d6", "4d6", "--chart", "at-least"], "give --svg FILE too"),
]:
    if says is None:
        continue
    _, se = expect(["stats"] + args, 2)
    check(f"{args}: says why", says in se, se)
_, se = expect(["stats", HM, "dice=1..2", "red=0,1", "--svg", "x.svg", "--label", "a", HM, "--label", "b"], 2)
check("a heatmap of two variants is refused before any work", "a heatmap of two for one variant" in se, se)

# ---- charts ----------------------------------------------------------------------------------------
with tempfile.TemporaryDirectory() as tmp:
    def svg(args, name):
        path = os.path.join(tmp, name)
        expect(["stats"] + args + ["--svg", path], 0)
        try:
            return ET.parse(path).getroot()
        except (ET.ParseError, OSError) as e:
            check(name, False, str(e))
            return ET.Element("svg")
    NS = "{http://www.w3.org/2000/svg}"
    root = svg(["3d6", "4d6kh3"], "compare.svg")
    texts = [t.text for t in root.iter(NS + "text")]
    check("overlay: a curve per variant", len(list(root.iter(NS + "polyline"))) == 2, texts)
    check("…a legend naming them, the axes titled", {"3d6", "4d6kh3", "value", "probability"} <= set(texts), texts)
    root = svg(["3d6", "4d6kh3", "--chart", "at-least"], "least.svg")
    tips = [t.text for t in root.iter(NS + "title")]
    check("at-least: P(value ≥ 3) is 100%", "3d6 at 3: 100.00%" in tips and "3d6 at 18: 0.46%" in tips, tips[:5])
    root = svg([HM, "dice=1..3", "red=0,1", "--outcome", "success"], "heat.svg")
    cells = [t.text for t in root.iter(NS + "title") if t.text and t.text.startswith("dice=")]
    check("heatmap: a cell per pair", len(cells) == 6 and f"dice=2, red=0: {d2['probability'] * 100:.2f}%" in cells, cells)
    root = svg([HM, "dice=1..3", "--outcome", "success", "--field", "result"], "sweep.svg")
    check("a sweep of one setting: a panel per measure", len(list(root.iter(NS + "polyline"))) == 2,
          [t.text for t in root.iter(NS + "text")][:8])

# ---- Ctrl-C keeps the rows done ------------------------------------------------------------------
p = subprocess.Popen([ALEA, "stats", HM, "dice=6", HM, "dice=7", "--sampled", "--samples", "1000000000000",
                      "--threads", "1", "--outcome", "success"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment())
# Once it handles Ctrl-C and has sampled for a second of CPU (a ruleset loads in 0.07 s; a run of
# dice=6 takes about 30 µs), the first cell is under way, with far more than the 100 runs a
# partial answer needs.
check("Ctrl-C: alea catches it", wait_catching(p.pid, signal.SIGINT), "")
check("…and is sampling", wait_busy(p.pid, 1.0), "")
p.send_signal(signal.SIGINT)
try:
    so, se = p.communicate(timeout=60)
except subprocess.TimeoutExpired:
    p.kill()
    so, se = p.communicate()
check("Ctrl-C: exit 130", p.returncode == 130, f"{p.returncode}: {se[:300]}")
check("…the cell under way kept, marked", "sampled, interrupted after" in so, so[:300])
check("…and the rows not done said", "interrupted after 1 of 2 cells" in so, so[-300:])

finish("test_compare")
