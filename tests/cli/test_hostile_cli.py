"""tests/cli/test_hostile_cli.py — the command line under hostile conditions: output that cannot be
written (a full device, a reader that went away), Ctrl-C during a run, and --limit.

Every run has a memory cap and a generous timeout; the checks are on exit codes and messages,
never on speed.

Usage: python3 test_hostile_cli.py /path/to/alea   (exit 0 = every check passed)
"""
import json
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from clitest import (ALEA, ROOT, cap_address_space, check, environment, finish, run, wait_busy, wait_catching,
                     wait_reading_stdin)

MEMORY_CAP = 2 * 1024 ** 3  # bytes of address space for each alea run
TIMEOUT = 60


def capped():
    cap_address_space(MEMORY_CAP)


def shell(command):
    """Runs a shell pipeline with $ALEA set; returns (exit code of alea, stderr, stdout)."""
    p = subprocess.run(["bash", "-c", command + '; echo "alea exit ${PIPESTATUS[0]}" >&2'],
                       capture_output=True, text=True, timeout=TIMEOUT, cwd=ROOT,
                       env=environment(ALEA=ALEA), preexec_fn=capped)
    lines = p.stderr.rstrip("\n").split("\n")
    code = int(lines[-1].rsplit(" ", 1)[1])
    return code, "\n".join(lines[:-1]), p.stdout


def test_full_device():
    code, err, _ = shell('"$ALEA" roll 3d6 --seed 1 > /dev/full')
    check("a full device is exit 1", code == 1, f"exit {code}: {err}")
    check("a full device says so", err == "alea: cannot write the output: No space left on device", err)
    code, err, _ = shell('"$ALEA" stats 3d6 --json > /dev/full')
    check("stats to a full device is exit 1", code == 1 and "No space left on device" in err, f"{code}: {err}")
    code, err, _ = shell('"$ALEA" --help > /dev/full')
    check("help to a full device is exit 1", code == 1 and "No space left on device" in err, f"{code}: {err}")


def test_closed_pipe():
    for command in ("roll 'repeat 10000 {d6}' --seed 1", "stats 3d6", "describe strategiya",
                    "roll 'repeat 10000 {d6}' --seed 1 --json", "--help", "limits"):
        code, err, out = shell(f'"$ALEA" {command} | head -c 1')
        check(f"alea {command} | head: exit 0", code == 0, f"exit {code}: {err}")
        check(f"alea {command} | head: nothing on stderr", err == "", err)
        check(f"alea {command} | head: the first byte came", len(out) == 1, out)
    # The REPL reading a script, its output closed early.
    code, err, _ = shell('printf "repeat 10000 {d6}\\nrepeat 10000 {d6}\\n" | "$ALEA" --seed 1 | head -c 1')
    check("the REPL | head: exit 0, quietly", code == 0 and err == "", f"exit {code}: {err}")


def test_interrupt():
    args = [ALEA, "roll", "loop x = 0 while true { x }", "--limit", "max_loop_iterations=1000000000",
            "--limit", "max_steps=1000000000000"]
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                         env=environment(), preexec_fn=capped)
    check("the run starts its loop", wait_catching(p.pid, signal.SIGINT) and wait_busy(p.pid),
          "no SIGINT handler, or no CPU used, within 60 s")
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        check("a run stops at Ctrl-C", False, "still running")
        return
    check("Ctrl-C during roll: exit 130", p.returncode == 130, f"exit {p.returncode}: {err}")
    check("Ctrl-C during roll: an Interrupted error", "error: interrupted [Interrupted]" in err, err)
    check("Ctrl-C during roll: nothing on stdout", out == "", out)

    # A second Ctrl-C kills at once. `run -` waiting for its program on standard input
    # cannot poll the flag: the first Ctrl-C leaves it waiting, the second ends it.
    p = subprocess.Popen([ALEA, "run", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=ROOT, env=environment(), preexec_fn=capped)
    check("`run -` waits for its program, catching Ctrl-C",
          wait_catching(p.pid, signal.SIGINT) and wait_reading_stdin(p.pid), "not so within 60 s")
    p.send_signal(signal.SIGINT)
    time.sleep(0.5)
    check("the first Ctrl-C only asks to stop", p.poll() is None, f"exit {p.returncode}")
    p.send_signal(signal.SIGINT)
    try:
        p.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
    check("the second Ctrl-C kills", p.returncode == -signal.SIGINT, f"exit {p.returncode}")


def test_limits():
    code, out, err = run(["roll", "repeat 20000 { 1 } == []"])
    check("the default loop limit holds", code == 1 and "(max_loop_iterations)" in err, err)
    code, out, err = run(["roll", "loop x = 0 while x < 20000 { x + 1 }", "--limit",
                          "max_loop_iterations=20000"])
    check("--limit raises a limit", code == 0 and out.rstrip().endswith("= 20000"), f"{code}: {out}{err}")
    code, out, err = run(["roll", "loop x = 0 while x < 200 { x + 1 }", "--limit=max_loop_iterations=100"])
    check("--limit lowers a limit", code == 1 and "(max_loop_iterations)" in err, f"{code}: {out}{err}")
    code, out, err = run(["roll", "d6", "--limit", "max_dice=0"])
    check("--limit rejects zero", code == 2 and err.startswith(
        "alea: --limit max_dice: '0' is not a positive whole number"), err)
    code, out, err = run(["roll", "d6", "--limit", "max_dice=lots"])
    check("--limit rejects a word", code == 2 and "'lots' is not a positive whole number" in err, err)
    code, out, err = run(["roll", "d6", "--limit", "max_dic=5"])
    check("--limit names the unknown limit and the nearest",
          code == 2 and "no limit 'max_dic' (did you mean 'max_dice'?)" in err and "max_steps" in err, err)
    code, out, err = run(["roll", "d6", "--limit", "max_dice"])
    check("--limit without = says how", code == 2 and "give NAME=VALUE" in err, err)
    for args in (["stats", "4d6", "--limit", "max_dice=3"], ["run", "-", "--limit", "max_dice=3"]):
        code, out, err = run(args, stdin="4d6")
        check(f"alea {args[0]} honours --limit", code == 1 and "(max_dice)" in err, f"{code}: {out}{err}")
    code, out, err = run(["--limit", "max_dice=3", "--seed", "1"], stdin="4d6\n")
    check("the REPL honours --limit", "(max_dice)" in err, f"{code}: {out}{err}")
    code, out, err = run(["repl", "--limit", "max_dice=3", "--seed", "1"], stdin="4d6\n")
    check("alea repl honours --limit", "(max_dice)" in err, f"{code}: {out}{err}")
    code, out, err = run(["check", "-", "--limit", "max_dice=3"], stdin="4d6")
    check("alea check takes --limit", code == 0 and "ok" in out, f"{code}: {out}{err}")
    for args in (["limits"], ["roll", "d6", "--limit", "help"]):
        code, out, err = run(args)
        check(f"alea {' '.join(args)} lists every limit", code == 0 and
              all(n in out for n in ("max_dice", "10000", "max_steps", "1000000", "max_value_depth")), out)
    code, out, err = run(["--help"])
    check("--help says where the limits are", "alea limits" in out and "--limit" in out, out)


test_full_device()
test_closed_pipe()
test_interrupt()
test_limits()
# A file with twenty thousand errors: the report is the first hundred, and says how many more.
with tempfile.TemporaryDirectory(prefix="alea-errors-") as tmp:
    many = Path(tmp) / "many.yaml"
    many.write_text("schema: 1\nname: many\ntitle: M\nsource: s\nmechanics: {"
                    + ", ".join(f"k{i}: 1" for i in range(20000)) + "}\n")
    code, out, err = run(["check", str(many)])
    check("check of 20,000 errors: exit 1", code == 1, str(code))
    check("check of 20,000 errors: the report is bounded", len(err) < 200_000, f"{len(err)} bytes")
    check("check of 20,000 errors: it says how many it left out", "19900 more errors after this one" in err, err[-400:])
    code, out, err = run(["check", "--json", str(many)])
    shown = json.loads(out)["files"][0]["diagnostics"] if out.startswith("{") else []
    check("check --json of 20,000 errors: 100 shown", len(shown) == 100, str(len(shown)))

finish("test_hostile_cli")
