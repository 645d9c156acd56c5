#!/usr/bin/env python3
"""bench/report.py RESULTS.json — the medians of an alea_bench run as tables.

Reads Google Benchmark's JSON output (--benchmark_out). With repetitions it
uses the "median" aggregate of each benchmark and shows its "cv" (coefficient
of variation: stddev / mean of the repetitions) as a hint of noise; without
repetitions it uses the single run.
"""
import json
import sys

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def fmt_time(ns):
    if ns is None:
        return "-"
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_rate(r):
    if r is None:
        return "-"
    if r >= 1e6:
        return f"{r / 1e6:.3g} M/s"
    if r >= 1e3:
        return f"{r / 1e3:.3g} k/s"
    return f"{r:.3g} /s"


def fmt_cv(cv):
    return "-" if cv is None else f"{100 * cv:.1f}%"


def table(headers, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    print(line(headers))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))
    print()


def main():
    with open(sys.argv[1]) as f:
        data = json.load(f)
    medians, cvs, singles, order = {}, {}, {}, []
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        for suffix in ("/real_time", "/manual_time"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
        if name not in order:
            order.append(name)
        kind = b.get("run_type")
        if kind == "aggregate" and b.get("aggregate_name") == "median":
            medians[name] = b
        elif kind == "aggregate" and b.get("aggregate_name") == "cv":
            cvs[name] = b
        elif kind == "iteration":
            singles.setdefault(name, b)

    def get(name):
        return medians.get(name) or singles.get(name)

    def ns(b, key):
        return None if b is None or key not in b else b[key] * TO_NS[b.get("time_unit", "ns")]

    def cv(name, key="real_time"):
        b = cvs.get(name)
        return None if b is None or key not in b else b[key]

    ctx = data.get("context", {})
    load = ctx.get("load_avg", [])
    cpus = ctx.get("num_cpus", 0)
    print()
    print(f"alea_bench on {cpus} CPUs, {ctx.get('date', '')}; "
          f"load average {', '.join(f'{x:.2f}' for x in load) or '?'}")
    print("medians of the repetitions" if medians else "single runs (no repetitions)")
    if load and cpus and load[0] > 0.5 * cpus:
        print(f"NOTE: the load average ({load[0]:.2f}) is high for {cpus} CPUs: other work was running, "
              "the figures are noisy (see the cv columns).")
    print()

    exact = [n for n in order if n.startswith("exact/")]
    if exact:
        print("Exact: compute_stats with default options (wall-clock and CPU time per call)")
        rows = []
        for n in exact:
            b = get(n)
            if b is None:
                continue
            if b.get("error_occurred"):
                rows.append([n[6:], "error", "", "", "", "", b.get("error_message", "")])
                continue
            method = ("SAMPLED" if b.get("exact", 0) < 0.5
                      else "composed" if b.get("composed", 0) >= 0.5 else "enumerated")
            rows.append([n[6:], fmt_time(ns(b, "real_time")), fmt_time(ns(b, "cpu_time")),
                         fmt_cv(cv(n)), method, f"{b.get('runs', 0):.0f}", b.get("label", "")])
        table(["case", "time", "cpu", "cv", "method", "runs", "note"], rows)

    samplers = [n for n in order if n.startswith("sampler/")]
    if samplers:
        print("Sampler: rolls per second, against the bare generator loop drawing the same dice "
              "(timed in the same iterations)")
        rows = []
        for n in samplers:
            b = get(n)
            case_threads = n[len("sampler/"):]
            case, _, threads = case_threads.rpartition("/threads:")
            if b is None or b.get("error_occurred"):
                rows.append([case, threads, "error", "", "", "", "", "", "", b.get("error_message", "") if b else ""])
                continue
            path = "lowered" if b.get("lowered", 0) >= 0.5 else "evaluator"
            rows.append([case, threads, fmt_rate(b.get("rolls_per_s")), fmt_cv(cv(n, "rolls_per_s")),
                         fmt_rate(b.get("bare_rolls_per_s")), fmt_cv(cv(n, "bare_rolls_per_s")),
                         f"{b.get('dice_per_roll', 0):.2f}", f"{100 * b.get('ratio', 0):.1f}%",
                         f"{100 * b.get('cpu_ratio', 0):.1f}%", path])
        table(["case", "threads", "sampler", "cv", "bare loop", "cv", "dice/roll", "sampler/bare",
               "by CPU time", "path"], rows)

    others = [n for n in order if n.startswith(("latency/", "process/"))]
    if others:
        print("Latency (one thread; process: fork/exec + wait, wall-clock)")
        rows = []
        for n in others:
            b = get(n)
            if b is None:
                continue
            key = "real_time" if n.startswith("process/") else "cpu_time"
            value = "error: " + b.get("error_message", "") if b.get("error_occurred") else fmt_time(ns(b, key))
            rows.append([n, value, fmt_cv(cv(n, key))])
        table(["benchmark", "time", "cv"], rows)


if __name__ == "__main__":
    main()
