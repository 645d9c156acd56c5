#!/usr/bin/env python3
"""tests/cli/test_variants.py — ruleset variants from the command line (rulesets/README.md §2.9):
`extends:` and what a variant overrides and adds, where its base is found (its own directory,
--rulesets, ALEA_PATH, the shipped rulesets), its errors at their files' lines, and the examples
it inherits, which alea test and alea check run without checking their results.

Usage: test_variants.py /path/to/alea   (CTest passes the built binary)
"""
import json
import tempfile
from pathlib import Path

from clitest import check, environment, expect, finish


# ---- variants: extends ----------------------------------------------------------------
# A variant is a small file that names its base and overrides entries by name (rulesets/README.md
# §2.9); the data files are in tests/cli/variants/ and examples/rulesets/.
VARIANTS = "tests/cli/variants"
CAPPED = "examples/rulesets/heroes-mythos-capped.yaml"
expect(["check", CAPPED], 0, out=f"{CAPPED}: ok\n")
expect(["describe", CAPPED], 0, out_contains=(
    "file: examples/rulesets/heroes-mythos-capped.yaml\n"
    "extends heroes-mythos; overrides: parameter explode_limit (default 1); adds: mechanic push\n"))
so, _ = expect(["describe", "fixed", "--rulesets", VARIANTS, "--json"], 0)
d = json.loads(so)
check("describe --json of a variant", (d.get("extends"), d.get("overrides")) ==
      ("base-ok", ["parameter bonus (default 2)", "mechanic plain", "adds function twice"]), so[:400])
# The base's mechanic, with the variant's default: each 6 adds one die, so four dice are enough.
expect(["roll", "heroes-mythos-capped.check", "dice=2", "--dice", "6,6,6,6", "--rulesets", "examples/rulesets"], 0,
       out_contains=["dice d6: 6! 6! +6 +6\n", "result: 24\n"])
# An overridden mechanic that calls a function the variant adds, with its overridden default.
expect(["roll", "fixed.plain", "--dice", "3", "--rulesets", VARIANTS], 0, out_contains="fixed.plain() = 8\n")
expect(["roll", "fixed.plain", "--dice", "3", "bonus=0", "--rulesets", VARIANTS], 0, out_contains="= 6\n")
# `alea stats BASE.M VARIANT.M` compares the two: the cap lowers the mean, not P(success) much.
so, _ = expect(["stats", "heroes-mythos.check", "heroes-mythos-capped.check", "dice=3", "--rulesets",
                "examples/rulesets", "--json", "--exact"], 0)
d = json.loads(so)
means = [v["exact"]["result mean"] for v in d["variants"]]
check("stats base vs variant", [v["label"] for v in d["variants"]] == ["heroes-mythos.check", "heroes-mythos-capped.check"]
      and means[0] != means[1] and means[1] == "49/4", so[:600])
# The variant's state is its own, under its own name.
with tempfile.TemporaryDirectory() as tmp:
    (Path(tmp) / "pbta-never.yaml").write_text(
        "schema: 1\nname: pbta-never\nextends: pbta-superiority\nparameters:\n  policy: {default: never}\n")
    state = Path(tmp) / "s.json"
    state.write_text("{}")
    expect(["roll", "pbta-never.increase", "--state", str(state), "--rulesets", tmp], 0)
    check("a variant's state", json.loads(state.read_text()) == {"pbta-never": {"superiority": 2}}, state.read_text())
    # A variant written without its first line is told what the line is.
    (Path(tmp) / "no-schema.yaml").write_text("name: no-schema\nextends: pbta-superiority\n")
    expect(["check", str(Path(tmp) / "no-schema.yaml")], 1,
           err_contains=["needs the key 'schema'", "write 'schema: 1' first"])
# Mistakes, each at its file and line: an override of a name the base lacks, in the variant...
expect(["check", f"{VARIANTS}/typo.yaml"], 1, err_contains=[
    f"{VARIANTS}/typo.yaml:5:3: error: typo overrides the parameter 'explode_limt', which heroes-mythos does not have",
    "note: did you mean 'explode_limit'?", "write it under 'add:' (add: {parameters: {explode_limt: …}})"])
expect(["check", f"{VARIANTS}/readd.yaml"], 1, err_contains=
       f"{VARIANTS}/readd.yaml:6:5: error: base-ok already has the mechanic 'plain'; to change it, write it under 'mechanics:'")
expect(["check", f"{VARIANTS}/deeper.yaml"], 1, env=environment(ALEA_PATH="examples/rulesets"), err_contains=
       f"{VARIANTS}/deeper.yaml:6:3: error: deeper overrides the function 'wild', which heroes-mythos-capped does not have")
# ...the variant's own code at its lines, the inherited code at the base's.
expect(["check", f"{VARIANTS}/on-bad.yaml"], 1, err_contains=[
    f"{VARIANTS}/on-bad.yaml:7:16: error: unknown name 'nope'", f"{VARIANTS}/base-bad.yaml:10:16: error: unknown name 'bonsu'"])
# A base that is not there, not YAML, holds a key twice, or extends its variant: an error at the `extends:` line.
expect(["check", f"{VARIANTS}/orphan.yaml"], 1, err_contains=
       f"{VARIANTS}/orphan.yaml:3:10: error: there is no ruleset 'no-such-game' to extend in {VARIANTS}")
expect(["check", f"{VARIANTS}/on-syntax.yaml"], 1, err_contains=[
    f"{VARIANTS}/on-syntax.yaml:3:10: error: the ruleset 'base-syntax' cannot be extended: it is not valid YAML",
    f"{VARIANTS}/base-syntax.yaml:5:16: note: here"])
expect(["check", f"{VARIANTS}/on-twice.yaml"], 1, err_contains=[
    f"{VARIANTS}/on-twice.yaml:3:10: error: the ruleset 'base-twice' cannot be extended: the key 'a' appears twice in one mapping",
    f"{VARIANTS}/base-twice.yaml:7:3: note: here"])
expect(["check", f"{VARIANTS}/cycle-a.yaml"], 1, err_contains=[
    f"{VARIANTS}/cycle-b.yaml:3:10: error: the rulesets extend each other in a circle: cycle-a extends cycle-b extends cycle-a",
    f"{VARIANTS}/cycle-a.yaml:3:10: error: the ruleset 'cycle-b' that cycle-a extends has errors"])
# `extends:` finds its base on --rulesets too, after the variant's own directory: far.yaml is in
# elsewhere/, its base in tests/cli/variants/, for every command.
FAR = f"{VARIANTS}/elsewhere/far.yaml"
expect(["check", FAR], 1, err_contains="far.yaml:5:10: error: there is no ruleset 'base-examples' to extend")
expect(["check", FAR, "--rulesets", VARIANTS], 0, out=f"{FAR}: ok\n")
FAR_PATH = ["--rulesets", f"{VARIANTS}/elsewhere", "--rulesets", VARIANTS]
expect(["roll", "far.hit", "--dice", "4"] + FAR_PATH, 0, out_contains="far.hit() = 5\n")
expect(["describe", "far"] + FAR_PATH, 0, out_contains="extends base-examples; overrides: parameter bonus (default 1)")
expect(["test", "far"] + FAR_PATH, 0, out_contains="2 passed, 0 failed")
so, _ = expect(["stats", "far.hit", "--json"] + FAR_PATH, 0)
check("stats of a variant whose base is on --rulesets", json.loads(so).get("exact_mean") == "9/2", so[:300])
so, _ = expect(["serve"] + FAR_PATH, 0, stdin='{"id": 1, "op": "roll", "expr": "far.hit()", "dice": [4]}\n')
check("serve: a variant whose base is on --rulesets", '"value":5' in so.replace(" ", ""), so[:300])
# A variant keeps the examples of the mechanics it inherits, calling it; it runs them but does
# not check their `expect`, written for the base (shifted.hit gives 6, not the 4 it states). A
# mechanic it overrides has its own examples only.
expect(["test", f"{VARIANTS}/shifted.yaml"], 0, out=(
    "PASS shifted.hit (1 example, inherited from base-examples: ran, result not checked)\n"
    "PASS shifted.pool (1 example)\n"
    "2 passed, 0 failed, 0 without examples (2 examples run)\n"))
expect(["check", f"{VARIANTS}/shifted.yaml"], 0)
expect(["describe", f"{VARIANTS}/shifted.yaml"], 0, out_contains=[
    "alea roll shifted.hit --dice 4   # inherited from base-examples\n", "alea roll shifted.pool --dice 3\n"])
so, _ = expect(["test", f"{VARIANTS}/shifted.yaml", "--json"], 0)
check("test --json: inherited examples counted", [(m["mechanic"], m["examples"], m.get("inherited")) for m in
      json.loads(so)["rulesets"][0]["mechanics"]] == [("shifted.hit", 1, 1), ("shifted.pool", 1, 0)], so[:600])
expect(["test", CAPPED], 0, out_contains=
       "PASS heroes-mythos-capped.check (4 examples, inherited from heroes-mythos: ran, results not checked)\n")
# An inherited example that fails to run is an error at its line in the base's file.
expect(["test", f"{VARIANTS}/more-dice.yaml"], 1, out_contains=
       "FAIL more-dice.pool: example at tests/cli/variants/base-examples.yaml:22: ran out of scripted dice")
expect(["check", f"{VARIANTS}/more-dice.yaml"], 1, err_contains=
       "tests/cli/variants/base-examples.yaml:22:9: error: example 'more-dice.pool --dice 5': ran out of scripted dice")

finish("test_variants")
