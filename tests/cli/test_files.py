"""tests/cli/test_files.py — hostile files (issue 17): what is not a regular file, what is too
large, YAML bombs, broken state files, and two writers on one state file.

Every run is under a memory cap (not in a sanitizer build, whose shadow memory needs the
address space) and a generous safety timeout; each must end with a value or a clear error
that names the file, never a signal and never a hang."""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from clitest import ALEA, ROOT, SANITIZED, check, environment, finish  # noqa: E402

MEMORY_CAP = 1 << 30  # 1 GiB of address space: a file read whole, or a bomb expanded, would pass it


def cap_memory():
    if not SANITIZED:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run(args, stdin=None, env=None, cwd=ROOT):
    p = subprocess.run([ALEA] + list(args), capture_output=True, text=True, timeout=120, cwd=cwd,
                       env=env if env is not None else environment(), input=stdin, preexec_fn=cap_memory,
                       errors="replace")
    return p.returncode, p.stdout, p.stderr


def expect(args, code, err_contains=(), out_contains=(), **kw):
    rc, so, se = run(args, **kw)
    label = " ".join(str(a) for a in args)[:90]
    check(label, rc == code, f"exit {rc}, expected {code}; stdout {so[:300]!r} stderr {se[:500]!r}")
    for s in [err_contains] if isinstance(err_contains, str) else err_contains:
        check(label, s in se, f"stderr {se[:800]!r} lacks {s!r}")
    for s in [out_contains] if isinstance(out_contains, str) else out_contains:
        check(label, s in so, f"stdout {so[:800]!r} lacks {s!r}")
    return so, se


HEAD = "schema: 1\nname: {name}\ntitle: t\nsource: s\n"
TAIL = "mechanics:\n  m:\n    doc: d\n    body: '1'\n    returns: {type: int, doc: x}\n"
TALLY = (HEAD.format(name="tally") + "state:\n  n: {type: int, min: 0, max: 1000000, default: 0, doc: a count}\n"
         "mechanics:\n  inc:\n    doc: adds one\n    body: '1'\n    returns: {type: int, doc: one}\n"
         "    changes:\n      n: {add: 1}\n")

with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    os.mkfifo(tmp / "fifo")
    (tmp / "dir").mkdir()
    with open(tmp / "sparse", "wb") as f:
        f.truncate(10 << 30)  # 10 GB, no block written
    os.symlink(tmp / "sparse", tmp / "sparse-link")
    os.symlink("/dev/zero", tmp / "zero")
    os.symlink("/dev/urandom", tmp / "urandom")
    hostile = {  # name → what the error says
        "dir": "is a directory",
        "fifo": "is a FIFO (a named pipe), not a file",
        "zero": "is a device, not a file",
        "urandom": "is a device, not a file",
        "sparse": "is 10737418240 bytes; at most 4000000 may be read (max_file_bytes)",
        "sparse-link": "is 10737418240 bytes; at most 4000000 may be read (max_file_bytes)",
    }

    # ---- files that are not files: as a ruleset, a program and a state file ----------------
    for name, why in hostile.items():
        f = tmp / name
        # As a ruleset: each NAME.yaml alone in a directory of the search path.
        d = tmp / f"path-{name}"
        d.mkdir()
        os.symlink(f, d / "hostile.yaml")
        expect(["check", str(d / "hostile.yaml")], 1, err_contains=why)
        expect(["describe", str(d / "hostile.yaml")], 1, err_contains=why)
        if name.startswith("sparse"):
            # A regular file on the path is tried, refused, and listed as broken.
            expect(["roll", "hostile.m", "--rulesets", str(d)], 1, err_contains=why)
            expect(["rulesets"], 0, env=environment(ALEA_PATH=str(d)),
                   out_contains=["hostile (has errors; run: alea check", "heroes-mythos — "])
        else:
            # What is no regular file is no ruleset of the path.
            expect(["roll", "hostile.m", "--rulesets", str(d)], 1, err_contains="unknown name 'hostile'")
            expect(["rulesets"], 0, env=environment(ALEA_PATH=str(d)), out_contains="heroes-mythos — ")
        # As a program.
        expect(["run", str(f)], 1 if name.startswith("sparse") else 2, err_contains=why)
        # As a state file, for a roll and for stats.
        expect(["roll", "1", "--state", str(f)], 1, err_contains=f"error: cannot read the state file: it {why}")
        expect(["stats", "pbta-superiority.move", "stat=1", "--state", str(f)], 1,
               err_contains=f"cannot read the state file: it {why}")
        # As a file of records (docs/party.md), named by an argument or by --with.
        expect(["roll", "strategiya.combat_damage", f"attacker=@{f}#ivan"], 1,
               err_contains=f"error: cannot read the file of records '{f}': it {why} [FileUnreadable]")
        expect(["stats", "strategiya.combat_damage", "attacker=ivan", "--with", str(f)], 1,
               err_contains=f"error: cannot read the file of records '{f}': it {why} [FileUnreadable]")

    # A program on standard input obeys the same cap.
    expect(["run", "-"], 1, stdin="1 + " * 1_100_000 + "1",
           err_contains="<stdin>: error: cannot read standard input: it is more than 4000000 bytes")
    expect(["run", "-"], 0, stdin="1 + 2", out_contains="3")

    # ---- YAML bombs: each refused at its line by every reader ---------------------------------
    (tmp / "bombs").mkdir()
    (tmp / "bombs" / "cycle.yaml").write_text(HEAD.format(name="cycle") + "constants:\n  a: &a [1, *a]\n" + TAIL)
    laughs = "".join(f"  {n}: &{n} [{', '.join(['*' + p] * 10)}]\n" for p, n in zip("abcdef", "bcdefg"))
    (tmp / "bombs" / "laughs.yaml").write_text(HEAD.format(name="laughs") + "constants:\n"
                                               "  a: &a [1,2,3,4,5,6,7,8,9,10]\n" + laughs + TAIL)
    rows = "".join(f"      - {i}\n" for i in range(20_000))
    (tmp / "bombs" / "table.yaml").write_text(HEAD.format(name="table") + "tables:\n  t:\n    doc: d\n    rows:\n"
                                              + rows + TAIL)
    (tmp / "huge.yaml").write_text(HEAD.format(name="huge") + "tables:\n  t:\n    doc: d\n    rows:\n"
                                   + "".join(f"      - {i}\n" for i in range(1_000_000)) + TAIL)
    (tmp / "bombs" / "good.yaml").write_text(HEAD.format(name="good") + TAIL)
    bombs = {
        "cycle": "cycle.yaml:6:6: error: lists and mappings nest too deep here: an alias may refer to itself",
        "laughs": "error: the file's aliases expand to too many values here [RulesetInvalidValue]",
        "table": "table.yaml:9:7: error: this list has 20000 items; a list or record holds at most 10000 "
                 "(max_collection_size) [RulesetInvalidValue]",
    }
    for name, why in bombs.items():
        f = tmp / "bombs" / f"{name}.yaml"
        expect(["check", str(f)], 1, err_contains=why)
        expect(["describe", str(f)], 1, err_contains=why)
        expect(["roll", f"{name}.m", "--rulesets", str(tmp / "bombs")], 1, err_contains=why)
        expect(["roll", f"{name}.m"], 1, env=environment(ALEA_PATH=str(tmp / "bombs")), err_contains=why)
    expect(["check", str(tmp / "huge.yaml")], 1, err_contains="at most 4000000 may be read (max_file_bytes)")
    # The same bombs as files of records.
    (tmp / "party-cycle.yaml").write_text("ivan: &a [1, *a]\n")
    (tmp / "party-laughs.yaml").write_text("a: &a [1,2,3,4,5,6,7,8,9,10]\n" + laughs.replace("  ", ""))
    for name, why in {"cycle": "party-cycle.yaml:1:7: error: lists and mappings nest too deep here (max_value_depth)",
                      "laughs": "error: the file's aliases expand to too many values here [SizeLimitExceeded]"}.items():
        expect(["roll", "strategiya.combat_damage", f"attacker=@{tmp / f'party-{name}.yaml'}#ivan"], 1,
               err_contains=why)
    # A broken file on the path is listed as such; the listing goes on.
    so, _ = expect(["rulesets"], 0, env=environment(ALEA_PATH=str(tmp / "bombs")),
                   out_contains=["cycle (has errors; run: alea check", "laughs (has errors;", "table (has errors;",
                                 "good — t\n", "heroes-mythos — "])
    so, _ = expect(["rulesets", "--json"], 0, env=environment(ALEA_PATH=str(tmp / "bombs")))
    doc = json.loads(so).get("rulesets", []) if so.startswith("{") else []
    check("rulesets --json lists the bombs as not ok",
          {r["name"]: r["ok"] for r in doc if r["name"] in ("cycle", "laughs", "table", "good")}
          == {"cycle": False, "laughs": False, "table": False, "good": True}, so[:500])

    # ---- state files: out-of-range numbers are errors at their place ---------------------------
    (tmp / "big.json").write_text('{"pbta-superiority": {\n  "superiority": 1e400}}\n')
    place = f"{tmp}/big.json:2:18: error: the number 1e400 is out of range; a state holds whole numbers of 64 bits"
    expect(["roll", "pbta-superiority.move", "stat=1", "--state", str(tmp / "big.json")], 1, err_contains=place)
    expect(["stats", "pbta-superiority.move", "stat=1", "--state", str(tmp / "big.json")], 1, err_contains=place)
    (tmp / "x.json").write_text('{"x": 1e400}')
    expect(["roll", "1", "--state", str(tmp / "x.json")], 1, err_contains=f"{tmp}/x.json:1:7: error: the number 1e400")
    # The REPL reports it and carries on without the file.
    rc, so, se = run(["--state", str(tmp / "x.json")], stdin="1 + 1\n",
                     env=environment(ALEA_HISTORY=str(tmp / "history")))
    check("repl with a state of 1e400", rc in (0, 1) and "the number 1e400 is out of range" in se
          and rc >= 0, f"exit {rc}; {so[:300]!r} {se[:500]!r}")

    # ---- two writers on one state file: no increment is lost ---------------------------------
    (tmp / "tally").mkdir()
    (tmp / "tally" / "tally.yaml").write_text(TALLY)
    state = tmp / "tally.json"
    per_writer, writers = 25, 3

    def writer(_):
        ok = 0
        for _ in range(per_writer):
            rc, _, _ = run(["roll", "tally.inc", "--state", str(state), "--rulesets", str(tmp / "tally")])
            ok += rc == 0
        return ok

    with ThreadPoolExecutor(writers) as pool:
        succeeded = sum(pool.map(writer, range(writers)))
    final = json.loads(state.read_text())["tally"]["n"] if state.exists() else 0
    check("every reported increment is kept", final == succeeded and succeeded > 0,
          f"{succeeded} runs succeeded, the counter is {final}")

    # ---- a REPL and a command sharing one state file: the REPL reads it again ------------------
    # The REPL takes the file's lock and reads it again around each input, so the increments
    # of a command run between two inputs are kept, not overwritten by the REPL's old copy.
    shared = tmp / "shared.json"

    def count():
        try:
            return json.loads(shared.read_text())["tally"]["n"]
        except (OSError, ValueError, KeyError):
            return None

    repl = subprocess.Popen([ALEA, "--state", str(shared), "--rulesets", str(tmp / "tally")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env=environment(ALEA_HISTORY=str(tmp / "history")))
    try:
        repl.stdin.write("tally.inc()\n")
        repl.stdin.flush()
        for _ in range(200):  # until the REPL has written its first increment
            if count() == 1:
                break
            time.sleep(0.05)
        for _ in range(2):
            expect(["roll", "tally.inc", "--state", str(shared), "--rulesets", str(tmp / "tally")], 0)
        repl.stdin.write("tally.inc()\n")
        repl.stdin.close()
        repl.wait(timeout=60)
    finally:
        repl.kill()
    check("the REPL keeps what a command wrote between its inputs", count() == 4,
          f"the counter is {count()}, expected 1 + 2 + 1; stderr {repl.stderr.read()[:500]!r}")

finish("test_files")
