"""tests/cli/clitest.py — what the command-line tests of the rulesets share: the alea program
CTest passes as the first argument, a run of it with no ALEA_* variables from the caller's
environment, and checks that are counted and reported together at the end.

    from clitest import ROOT, check, finish, run
    rc, out, err = run(["roll", "3d6", "--seed", "1"])
    check("3d6 rolls", rc == 0, err)
    finish("test_example")
"""
import os
import subprocess
import sys
import time
from pathlib import Path

ALEA = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "alea"
# The sanitizer trees (build-san/, and build-tsan/ of scripts/tsan): a run of alea costs about five
# times as much there, and the sanitizers reserve more address space than a memory cap allows.
SANITIZED = "build-san" in ALEA or "build-tsan" in ALEA


def cap_address_space(limit):
    """Caps the calling process's address space at `limit` bytes (call it in a child before exec).
    Not in the sanitizer build: ASan reserves terabytes of shadow memory at start and would
    fail there; its runs are checked for their errors and their end, not their memory."""
    if not SANITIZED:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
ROOT = Path(__file__).resolve().parents[2]
failures = []
_checked = 0


def first_of_each(cases, key):
    """Every case; under ASan+UBSan, the first case of each key(case) only, such as a mechanic.
    For the tables of vectors rolled through the command line: the plain tree checks every
    result, the library's tests (tests/rulesets) run the same vectors under the sanitizers, and
    there the command line's own code needs each mechanic once."""
    if not SANITIZED:
        return list(cases)
    seen = set()
    kept = []
    for case in cases:
        if key(case) not in seen:
            seen.add(key(case))
            kept.append(case)
    return kept


def environment(**extra):
    """The caller's environment without ALEA_* (a user's ALEA_PATH must not change a test), plus extra."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALEA_")}
    env.update(extra)
    return env


def run(args, stdin=None, cwd=ROOT, timeout=60, env=None):
    """Runs alea with args; returns (exit code, stdout, stderr)."""
    p = subprocess.run([ALEA] + list(args), capture_output=True, text=True, timeout=timeout, cwd=cwd,
                       env=env if env is not None else environment(), input=stdin)
    return p.returncode, p.stdout, p.stderr


def cpu_seconds(pid):
    """The CPU time process pid has used so far, in seconds (Linux's /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()  # after the command's name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def wait_busy(pid, seconds=0.2, timeout=60):
    """Waits until process pid has used `seconds` more CPU time than now: it is inside its work
    (a loop, say), however loaded the machine. A sleep would guess; under load it guesses wrong.
    Returns False if the process ended or the timeout passed first."""
    try:
        start = cpu_seconds(pid)
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            if cpu_seconds(pid) - start >= seconds:
                return True
            time.sleep(0.01)
    except (OSError, IndexError, ValueError):  # it ended
        pass
    return False


def wait_catching(pid, sig, timeout=60):
    """Waits until process pid runs alea and has a handler for signal sig (SigCgt in
    /proc/PID/status): a signal sent after this is handled, not fatal. Until its exec, a child of
    Python still has Python's SIGINT handler, which exec then drops. Returns False if it ended or
    the timeout passed."""
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        try:
            running_alea = os.readlink(f"/proc/{pid}/exe") == os.path.realpath(ALEA)
            with open(f"/proc/{pid}/status") as f:
                caught = next(int(line.split()[1], 16) for line in f if line.startswith("SigCgt:"))
        except (OSError, StopIteration, ValueError):
            return False
        if running_alea and caught & (1 << (sig - 1)):
            return True
        time.sleep(0.01)
    return False


def wait_reading_stdin(pid, timeout=60):
    """Waits until process pid is blocked reading its standard input (Linux's /proc: the read
    system call on fd 0, or a wait in pipe_read). Returns False if it ended or the timeout passed."""
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        try:
            with open(f"/proc/{pid}/syscall") as f:
                call = f.read().split()
            with open(f"/proc/{pid}/wchan") as f:
                wchan = f.read()
        except OSError:
            return False
        if call[:2] == ["0", "0x0"] or wchan.endswith("pipe_read"):  # x86-64's read is call 0
            return True
        time.sleep(0.01)
    return False


def check(name, cond, detail=""):
    """Counts a check; a failed one is reported by finish() with its detail."""
    global _checked
    _checked += 1
    if not cond:
        failures.append(f"{name}: {detail}")


def expect(args, code, out=None, out_contains=(), err_contains=(), **kw):
    """Runs alea with args (as run() does) and checks its exit code, its whole standard output
    (`out`) or texts in it, and texts in its standard error; returns (stdout, stderr)."""
    rc, so, se = run(args, **kw)
    label = " ".join(args)[:80]
    check(label, rc == code, f"exit {rc}, expected {code}; stdout: {so.strip()[:300]!r} stderr: {se.strip()[:500]!r}")
    if out is not None:
        check(label, so == out, f"stdout {so!r}, expected {out!r}")
    for s in [out_contains] if isinstance(out_contains, str) else out_contains:
        check(label, s in so, f"stdout {so[:1500]!r} lacks {s!r}")
    for s in [err_contains] if isinstance(err_contains, str) else err_contains:
        check(label, s in se, f"stderr {se[:1500]!r} lacks {s!r}")
    return so, se


def finish(name, summary=""):
    """Prints every failure, or how many checks passed; exits 1 if any failed."""
    if failures:
        print(f"{name}: {len(failures)} of {_checked} checks failed:")
        for f in failures:
            print("  " + f)
        sys.exit(1)
    print(f"{name}: all {_checked} checks passed{summary}")
    sys.exit(0)
