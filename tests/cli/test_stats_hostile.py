#!/usr/bin/env python3
"""tests/cli/test_stats_hostile.py — `alea stats` on programs whose odds once
took minutes or gigabytes: each must end with an exact answer, a sampled one
or a clear error naming the limit that stopped it, under a memory cap.

The timeout is a safety net for a hang, not a speed test.

Usage: test_stats_hostile.py /path/to/alea   (CTest passes the built binary)
"""
from fractions import Fraction
import json
import os
import resource
import subprocess
import sys
import time

ALEA = sys.argv[1]
failures = []


def capped(megabytes):
    def limit():
        cap = megabytes * 1024 * 1024
        if "build-san" not in ALEA:  # ASan's shadow memory needs terabytes of address space
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    return limit


def run(args, megabytes=1000, timeout=120):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALEA_")}
    p = subprocess.run([ALEA] + args, capture_output=True, text=True, timeout=timeout, env=env,
                       preexec_fn=capped(megabytes))
    return p.returncode, p.stdout, p.stderr


def check(name, cond, detail=""):
    if not cond:
        failures.append(f"{name}: {detail}")


def expect(args, code, megabytes=1000):
    rc, so, se = run(args, megabytes)
    check(" ".join(args)[:70], rc == code, f"exit {rc}, expected {code}; stderr: {se.strip()[-400:]}")
    return so, se


def first_line(text):
    return text.splitlines()[0] if text else ""


# ---- exact work and memory: sampled instead, the reason names the limit -------------------------
# --max-branches and a time limit out of reach pin the method: with the time alone, a million outcomes
# are exact on a fast machine, and on a loaded one the time runs out before a limit is met.
PINNED = ["--max-branches", "100000", "--time-limit", "3600"]
for expr, limits in [
    ("d1000000+1", ["(max_branches)"]),
    ("d1000000 * d1000000", ["(max_branches)", "(max_odds_work)"]),
    ("1000d1000kh500", ["(max_branches)", "(max_odds_work)", "(max_odds_memory)"]),
    ("500d100kl250", ["(max_branches)", "(max_odds_work)", "(max_odds_memory)"]),
]:
    out, _ = expect(["stats", expr, "--samples", "2000", *PINNED], 0)
    head = first_line(out)
    check(f"{expr} is sampled", "sampled (2000 runs" in head, head)
    check(f"{expr}: the reason names a limit", any(l in head for l in limits), head)

out, _ = expect(["stats", "--max-branches", "1000000000000", "for x in 20d10 { x }", "--samples", "2000"], 0)
head = first_line(out)
check("raised --max-branches: sampled", "sampled (2000 runs" in head, head)
check("raised --max-branches: memory or work bound it", "(max_odds_memory)" in head or "(max_odds_work)" in head,
      head)

# --exact: no answer, exit 1, the limit and how to raise it.
_, err = expect(["stats", "--exact", "--max-branches", "1000000000000", "1000d1000kh500"], 1)
check("--exact names the limit", "no exact answer" in err and "(max_odds_" in err, err)
check("--exact says how to raise it", "note: raise the limit max_odds_" in err, err)

# A die of many faces through chained explosions keeps a distribution for each face and step it
# reaches: each is counted against the memory limit, so the attempt stops at 4 MB, not at half a
# gigabyte (the cap) after seconds.
for expr in ("d50000!!!!!!!!", "4d50000 compound compound compound compound"):
    _, err = expect(["stats", "--exact", "--limit", "max_odds_memory=4000000", expr], 1, megabytes=300)
    check(f"{expr}: names the memory limit", "composing needs more than 4000000 bytes" in err, err)

# A sum of dice too big for its work is refused before it starts: with the dice allowed and
# branches unbounded, 100000d1000 (10^8 totals) stops at once, not after seconds of convolving.
started = time.monotonic()
_, err = expect(["stats", "--exact", "--max-branches", "1000000000000", "--limit", "max_dice=1000000", "100000d1000"], 1)
check("100000d1000: refused at once", time.monotonic() - started < 10, time.monotonic() - started)
check("100000d1000: names the limit", "no exact answer" in err and "(max_odds_" in err, err)

# ---- total sampling work: the answer of the runs taken, marked ------------------------------------
# A fifth of the default work (about 1,650 runs of 1,000 dice each, not 8,300): the same cut, sooner.
WORK = ["--limit", "max_sample_work=20000000"]
out, _ = expect(["stats", "sum(repeat 1000 { d6 })", "--sampled", *WORK], 0)
check("long runs: cut short", "sampling stopped at max_sample_work after " in out and " of 100,000 samples" in out,
      out[:400])
out, _ = expect(["stats", "sum(repeat 1000 { d6 })", "--sampled", *WORK, "--json", "--threads", "2", "--seed", "5"], 0)
doc = json.loads(out)
check("json: partial", doc["partial"] is True and doc["stopped_by"] == "max_sample_work"
      and doc["samples"] == 100000 and 100 <= doc["runs"] < 100000, {k: doc[k] for k in ("partial", "stopped_by",
                                                                                          "samples", "runs")})
check("json: a mean of the runs taken", abs(doc["mean"] - 3500) < 100, doc["mean"])
again = json.loads(expect(["stats", "sum(repeat 1000 { d6 })", "--sampled", *WORK, "--json", "--threads", "2", "--seed", "5"],
                          0)[0])
check("cut short, still deterministic", again["runs"] == doc["runs"] and again["mean"] == doc["mean"],
      (again["runs"], doc["runs"]))
out, _ = expect(["stats", "3d6", "--sampled", "--samples", "1000", "--json"], 0)
doc = json.loads(out)
check("json: a whole sampling run is not partial", doc["partial"] is False and doc["stopped_by"] is None, doc)

# Fewer than 100 runs within the budget is an error naming max_sample_work: at the default
# budget no run costs that much (max_steps bounds a run), so it is tested through the API
# with a small limit (tests/interpreter/odds_limits_test.cpp).

# ---- the outcomes sampling keeps: max_odds_memory ---------------------------------------------------
# Every run of a list of 200 dice is a new outcome: what sampling keeps stops at the limit, and the
# answer is of the runs taken, marked.
out, _ = expect(["stats", "repeat 200 { d6 }", "--limit", "max_odds_memory=2000000", "--json", "--seed", "3"], 0)
doc = json.loads(out)
check("many outcomes: partial", doc["partial"] is True and doc["stopped_by"] == "max_odds_memory"
      and 100 <= doc["runs"] < 100000, {k: doc[k] for k in ("partial", "stopped_by", "runs")})
out, _ = expect(["stats", "repeat 200 { d6 }", "--limit", "max_odds_memory=2000000"], 0)
check("many outcomes: the text says so", "sampling stopped at max_odds_memory after " in out, out[:400])
# Fewer than 100 runs kept within it: an error naming the limit.
_, err = expect(["stats", "repeat 200 { d6 }", "--limit", "max_odds_memory=20000"], 1)
check("too few outcomes kept: names the limit", "(max_odds_memory)" in err and "[SizeLimitExceeded]" in err, err)
# At the default, the same program ends within the memory cap.
out, _ = expect(["stats", "repeat 200 { d6 }"], 0, megabytes=1000)
check("many outcomes at the default limit: a table", "probability, 95% interval" in out, out[:300])

# A long chain of choices: its weights grow with the chain, and the enumeration counts them.
out, _ = expect(["stats", "d6 explode 6 limit 1000000", "--samples", "2000", *PINNED], 0)
check("long explosion chain: sampled, naming the limit", "sampled (2000 runs" in first_line(out)
      and "(max_odds_work)" in first_line(out), first_line(out))

# A large unique pool: its rounds are counted as work, and sampling ends with an answer.
out, _ = expect(["stats", "sum(900d1000 unique)", "--samples", "20000"], 0)
check("large unique pool: sampled", first_line(out).startswith("sum(900d1000 unique): sampled ("), first_line(out))

# ---- rendering: max_render_size --------------------------------------------------------------------
# Two million values: the text is cut at a line with a marker; the JSON lists the most likely that
# fit and says what it leaves out; the SVG is refused whole.
out, _ = expect(["stats", "d1000000 + d1000000", "--sampled", "--samples", "200000"], 0)
check("long table is cut", len(out.encode()) <= 4_000_200, len(out.encode()))
check("long table says what it left out", out.rstrip().endswith("lines left out: the text passed 4000000 bytes "
                                                                 "(max_render_size)"), out[-300:])
out, err = expect(["stats", "d1000000 + d1000000", "--sampled", "--samples", "200000", "--json"], 0)
doc = json.loads(out)
check("long JSON within the limit", len(out.encode()) <= 4_000_000, len(out.encode()))
listed = doc["distribution"]
check("long JSON: listed and left out are every value, of every run",
      doc["left_out"] is not None and len(listed) > 1000
      and abs(sum(e["probability"] for e in listed) + doc["left_out"]["probability"] - 1) < 1e-9, doc["left_out"])
check("long JSON: the summary is of the whole", 950_000 < doc["mean"] < 1_050_000 and doc["percentiles"]["50"] > 900_000,
      (doc["mean"], doc["percentiles"]))
check("long JSON: no diagnostic", err == "", err)
# An exact table of 199,999 values (2d100000, a triangle) in 100 kB of JSON: the values listed are
# the most likely, those nearest 100,001, in the table's order.
out, _ = expect(["stats", "2d100000", "--json", "--limit", "max_render_size=100000"], 0, megabytes=300)
doc = json.loads(out)
values = [e["value"] for e in doc["distribution"]]
check("cut exact JSON: within the limit, most of it used", 90_000 < len(out.encode()) <= 100_000, len(out.encode()))
check("cut exact JSON: listed and left out make the whole",
      doc["left_out"] is not None and len(values) + doc["left_out"]["values"] == 199_999, doc["left_out"])
if values:
    k = len(values)
    check("cut exact JSON: the most likely, in order",
          values == sorted(values) and max(abs(v - 100_001) for v in values) <= k // 2, (values[0], values[-1], k))
    check("cut exact JSON: each listed value's own fraction",
          all(e["exact"] == str(Fraction(100_000 - abs(e["value"] - 100_001), 10**10)) for e in doc["distribution"]),
          doc["distribution"][0])
    check("cut exact JSON: what is left out",
          abs(doc["left_out"]["probability"] - (1 - sum(e["probability"] for e in doc["distribution"]))) < 1e-12,
          doc["left_out"])
# An exact answer of 47,760 records: the JSON lists the most likely records, and whole the fields
# with few values; one field alone is whole too.
records = ["stats", "{outcome: d4, a: 2d100, b: d60}", "--exact"]
out, err = expect(records + ["--json"], 0)
doc = json.loads(out)
listed = doc["distribution"]
check("records' JSON: the most likely records, the rest counted",
      doc["left_out"] is not None and len(listed) + doc["left_out"]["values"] == 4 * 199 * 60, doc["left_out"])
check("records' JSON: within the limit", len(out.encode()) <= 4_000_000, len(out.encode()))
if listed:
    # A record's probability falls with |a - 101| (a is the sum of two dice): the records listed
    # are the most likely when every record nearer 101 than the farthest listed is listed.
    far = max(abs(e["value"]["a"] - 101) for e in listed)
    nearer = sum(abs(e["value"]["a"] - 101) < far for e in listed)
    check("records' JSON: the most likely", nearer == 4 * 60 * (2 * far - 1), (far, nearer, len(listed)))
check("records' JSON: a field with few values whole", doc["fields"]["outcome"]["left_out"] is None
      and [e["value"] for e in doc["fields"]["outcome"]["distribution"]] == [1, 2, 3, 4], doc["fields"]["outcome"])
out, err = expect(records + ["--json", "--field", "outcome"], 0)
doc = json.loads(out)
check("one field's JSON", doc["method"] == "exact" and [e["value"] for e in doc["distribution"]]
      == [1, 2, 3, 4] and doc["left_out"] is None, out[:400])
# Keys that alone pass the limit: refused whole, with what to do.
out, err = expect(["stats", "sum(repeat 40 { d6 })", "--json", "--limit", "max_render_size=500"], 1)
doc = json.loads(out)
check("long JSON refused", doc["error"]["code"] == "SizeLimitExceeded"
      and "(max_render_size)" in doc["error"]["message"], out[:300])
check("long JSON: one diagnostic", err.count("error:") == 1 and "(max_render_size)" in err, err)
check("long JSON: what to do", "note: raise the limit with --limit max_render_size=BYTES, or, for a record, "
      "report one of its fields with --field NAME" in err, err)
svg = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"alea-stats-hostile-{os.getpid()}.svg")
_, err = expect(["stats", "d1000000 + d1000000", "--sampled", "--samples", "200000", "--svg", svg], 1)
check("long chart refused", "the chart would pass" in err and "(max_render_size)" in err, err)
check("long chart: no file", not os.path.exists(svg), svg)
# An exact table of 199,999 values cut at 100 kB: only the rows that can show are made, and the
# count of lines left out is still of the whole table (5 lines before it, one row per value).
out, _ = expect(["stats", "2d100000", "--limit", "max_render_size=100000"], 0, megabytes=300)
lines = out.splitlines()
left = lines[-1]
check("cut exact table: the marker", left.startswith("… ") and left.endswith(
    " more lines left out: the text passed 100000 bytes (max_render_size)"), left)
if left.startswith("… "):
    missing = int(left.split()[1].replace(",", ""))
    check("cut exact table: shown and left out make the whole", len(lines) - 1 + missing == 5 + 199_999,
          (len(lines) - 1, missing))
    check("cut exact table: the last row shown is whole", lines[-2].split()[0] == str(len(lines) - 5), lines[-2])
# 1.1 million values at the default limits: the rows that cannot show are never made, so the whole
# run stays within 800 MB (making them all took 1.4 GB).
out, _ = expect(["stats", "2d555555"], 0, megabytes=500)
check("a million rows: cut", out.rstrip().endswith("more lines left out: the text passed 4000000 bytes "
                                                   "(max_render_size)"), out[-200:])
# 2.2 million values: the composed distribution fits max_odds_memory (256 MB), but its rows with
# their exact probabilities would not; the answer is sampled, and says why, under 450 MB (holding
# the rows took 900 MB).
out, _ = expect(["stats", "4d555555"], 0, megabytes=450)
check("2.2 million rows: sampled, naming the memory", out.startswith("4d555555: sampled (") and
      "composing needs more than 256000000 bytes of outcomes (max_odds_memory)" in out.splitlines()[0], out[:300])
out, _ = expect(["stats", "3d6", "--json", "--limit", "max_render_size=100000"], 0)
check("a short JSON fits", json.loads(out)["method"] == "exact", out[:200])

# ---- threads ----------------------------------------------------------------------------------------
for args in (["stats", "--threads", "1024", "3d6"], ["stats", "--threads", "1024", "--sampled", "3d6"],
             ["stats", "--threads", "1024", "--sampled", "--samples", "100000", "sum(repeat 20 { d6 })"]):
    out, _ = expect(args, 0, megabytes=2000)
    check(f"{' '.join(args)}: a table", "value  probability" in out, out[:300])
out, _ = expect(["stats", "--threads", "1024", "--sampled", "--json", "--samples", "5000", "3d6"], 0, megabytes=2000)
doc = json.loads(out)
check("threads clamped to 256", doc["threads"] <= 256 and doc["runs"] == 5000, (doc["threads"], doc["runs"]))
# 256 threads in less address space than their stacks take: those that cannot start, or that run
# out of memory once started, are run again by the calling thread, with the same dice. A thread's
# std::bad_alloc once ended the process (2 runs in 30 under caps of 800 to 1900 MB); each run must
# give the answer of a run without the cap, whichever threads ran where.
TIGHT = ["stats", "--threads", "1024", "--sampled", "--json", "--samples", "100000", "--seed", "3",
         "sum(repeat 20 { d6 })"]
whole = json.loads(expect(TIGHT, 0, megabytes=4000)[0])
for megabytes in (800, 1000, 1700) * 3:
    out, _ = expect(TIGHT, 0, megabytes=megabytes)
    doc = json.loads(out) if out.startswith("{") else {}
    check(f"{megabytes} MB for 256 threads: the uncapped answer", doc.get("runs") == 100000 and
          doc.get("distribution") == whole["distribution"], (megabytes, doc.get("runs")))

if failures:
    print("\n".join(f"FAIL  {f}" for f in failures))
    print(f"{len(failures)} failed")
    sys.exit(1)
print("all passed")
