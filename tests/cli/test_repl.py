# tests/cli/test_repl.py — drives the `alea` REPL in a real pseudo-terminal and through a pipe.
#
# Usage: python3 test_repl.py /path/to/alea   (exit 0 = every check passed)
#
# Every read has a deadline, so a REPL that hangs fails the test instead of
# hanging it. Dice are fixed with :dice and :seed so every output is known.
import fcntl
import os
import pty
import re
import resource
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time

from clitest import ROOT, wait_busy

ALEA = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else "alea"
TIMEOUT = 60.0  # seconds for one expected output: a hang guard, far beyond what any step takes
PROMPT = "alea> "
# Terminal control sequences libedit may write between the characters we look for.
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|\r|\x07")

failures = []
stuck = False  # once one expectation timed out, the rest only wait briefly


def check(condition, what, detail=""):
    if condition:
        print(f"ok    {what}")
    else:
        print(f"FAIL  {what}" + (f"\n{detail}" if detail else ""))
        failures.append(what)


def give_up_waiting(what):
    """A wait that runs out is a failure, checked or not: the REPL did not do what the test
    expects of it next. After one, the rest only wait briefly, so a hung REPL fails fast."""
    global stuck
    print(f"FAIL  waited {0.5 if stuck else TIMEOUT} s in vain for {what}")
    failures.append(what)
    stuck = True


class Repl:
    """One `alea` process on a pseudo-terminal."""

    def __init__(self, env, args=("--seed", "1"), memory_cap=None):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the slave end is stdin/stdout/stderr
            try:
                # ASan's shadow memory needs terabytes of address space: no cap in build-san.
                if memory_cap and "build-san" not in ALEA:
                    resource.setrlimit(resource.RLIMIT_AS, (memory_cap, memory_cap))
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 200, 0, 0))
                os.execve(ALEA, [ALEA, *args], env)
            finally:
                os._exit(127)  # only reached if exec failed: never run the tests twice
        self.raw = ""
        self.pos = 0  # expect() searches the cleaned output from here on
        self.status = None

    @property
    def text(self):
        return CONTROL.sub("", self.raw)

    def _read(self, until):
        ready, _, _ = select.select([self.fd], [], [], max(0.0, until - time.monotonic()))
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not data:
            return False
        self.raw += data.decode("utf-8", "replace")
        return True

    def expect(self, pattern, timeout=TIMEOUT):
        """Waits for a regex in the output after the previous match; returns the match or None."""
        regex = re.compile(pattern)
        until = time.monotonic() + (0.5 if stuck else timeout)
        while True:
            m = regex.search(self.text, self.pos)
            if m:
                self.pos = m.end()
                return m
            if time.monotonic() >= until or not self._read(until):
                m = regex.search(self.text, self.pos)
                if m:
                    self.pos = m.end()
                else:
                    give_up_waiting(f"output matching {pattern!r}")
                return m

    def send(self, data):
        os.write(self.fd, data.encode())

    def line(self, text, then=re.escape(PROMPT)):
        """Sends a line; returns the output up to the next prompt (None if it never came)."""
        start = len(self.text)
        self.pos = max(self.pos, start)
        self.send(text + "\r")
        m = self.expect(then)
        return self.text[start : m.start()] if m else None

    def wait(self, timeout=TIMEOUT):
        """Waits for the process to end; returns its exit code (None if killed on timeout)."""
        until = time.monotonic() + (0.5 if stuck else timeout)
        while time.monotonic() < until:
            self._read(min(until, time.monotonic() + 0.1))  # drain, so the child never blocks on output
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
        give_up_waiting("the REPL to end")
        self.kill()
        return None

    def kill(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.status = -9
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def transcript(self):
        return "---- transcript ----\n" + self.text + "\n--------------------"


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return ""


def environment(history):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ALEA_", "XDG_"))}
    env.update(TERM="xterm", ALEA_HISTORY=history, LC_ALL="C.UTF-8")
    return env


def test_session(history):
    """Variables, functions, continuation, errors, commands, seeds, completion, Ctrl-C."""
    r = Repl(environment(history))
    try:
        check(r.expect(re.escape(PROMPT)) is not None, "the prompt appears", r.transcript())

        out = r.line(":dice 6,4,1")
        check(out is not None and "next dice: 6 4 1" in out, ":dice scripts the next faces", r.transcript())
        out = r.line("let x = 3d6")
        check(out is not None and "x = 3d6 → 6 4 1 = 11" in out, "let shows the name and the breakdown",
              r.transcript())
        out = r.line("x + 1")
        check(out is not None and "x + 1 = 12" in out, "a variable set on one line is usable on the next",
              r.transcript())

        out = r.line("fn bonus(s) = s / 2")
        check(out is not None and "defined bonus(s)" in out, "fn reports what it defined", r.transcript())
        out = r.line("bonus(x)")
        check(out is not None and "bonus(x) = 5" in out, "a function defined earlier can be called",
              r.transcript())

        # An unfinished input continues on the next line, under the "... " prompt.
        r.line(":dice 1,2,3")
        out = r.line("3d6 +", then=re.escape("... "))
        check(out is not None, "an incomplete line shows the '... ' prompt", r.transcript())
        out = r.line("2")
        check(out is not None and re.search(r"\[1 2 3\][\s\S]*= 8\n", out) is not None,
              "the continued input is evaluated whole", r.transcript())
        r.line("(1 +", then=re.escape("... "))
        out = r.line("")
        check(out is not None and "ExpectedExpression" in out and "^" in out,
              "an empty continuation line shows what is missing", r.transcript())

        # Errors point at the input with a caret, and change nothing.
        out = r.line("let x = 2 + nope")
        check(out is not None and "<input>:1:13" in out and "unknown name 'nope'" in out
              and re.search(r"\|\s+\^", out) is not None,
              "an error names the place and shows a caret", r.transcript())
        out = r.line("x")
        check(out is not None and "x = 11" in out, "after an error the session is unchanged", r.transcript())
        out = r.line(":frobnicate")
        check(out is not None and "unknown command ':frobnicate'" in out, "an unknown command is an error",
              r.transcript())
        out = r.line(":seed many")
        check(out is not None and "':seed' needs a whole number" in out, "a bad :seed argument is an error",
              r.transcript())

        # The same seed gives the same dice.
        r.line(":seed 5")
        first = r.line("4d6kh3 + d20")
        r.line(":seed 5")
        second = r.line("4d6kh3 + d20")
        check(first is not None and "4d6kh3 + d20" in first and first == second,
              ":seed 5 makes the same roll give the same dice", f"{first!r} vs {second!r}")

        r.line(":trace off")
        r.line(":dice 6,5")
        out = r.line("2d6")
        check(out is not None and re.search(r"(?m)^11$", out) is not None and "→" not in out,
              ":trace off shows only the value", r.transcript())
        r.line(":trace on")

        # Tab completion: a keyword gets a space after it, a function its '('.
        r.line(":dice 6,2,3,1")
        r.send("3d6 expl\t")
        check(r.expect(r"3d6 explode") is not None, "Tab completes 'expl' to 'explode'", r.transcript())
        out = r.line("6")
        check(out is not None and "3d6 explode 6 → 6! 2 3 +1 = 12" in out, "the completed line runs",
              r.transcript())
        r.send("bon\t")
        check(r.expect(r"bonus\(") is not None, "Tab completes a session function with its '('",
              r.transcript())
        out = r.line("4)")
        check(out is not None and "bonus(4) = 2" in out, "the completed call runs", r.transcript())
        r.send(":va\t")
        check(r.expect(r":vars") is not None, "Tab completes a :command", r.transcript())
        out = r.line("")
        check(out is not None and "x = 11" in out and "fn bonus(s)" in out,
              ":vars lists variables and functions", r.transcript())

        # :stats: exact odds with the session's variables and functions, changing nothing.
        out = r.line(":stats 2d6")
        check(out is not None and "2d6: exact (composed)" in out and "mean 7, sd 2.4152" in out
              and re.search(r"(?m)^\s+7\s+16\.67%\s+1/6\s+58\.33%\s+58\.33%\s+█+$", out) is not None,
              ":stats 2d6 shows the exact table", r.transcript())
        out = r.line(":stats x + bonus(d6)")
        check(out is not None and "x + bonus(d6): exact (composed)" in out
              and re.search(r"(?m)^\s+12\s+33\.33%\s+1/3\s", out) is not None,
              ":stats uses the session's variables and functions", r.transcript())
        out = r.line(":stats nope + 1")
        check(out is not None and "unknown name 'nope'" in out, ":stats reports an error in its expression",
              r.transcript())
        # ':sta' is also the start of ':state': Tab completes as far as the two agree.
        r.send(":sta\t")
        check(r.expect(r":stat") is not None, "Tab completes :stat, the start of :stats and :state", r.transcript())
        out = r.line("s d4")
        check(out is not None and "d4: exact (composed)" in out, "the completed :stats runs", r.transcript())
        out = r.line("x")
        check(out is not None and "x = 11" in out, "after :stats the session is unchanged", r.transcript())

        # Ctrl-C drops the line (and an unfinished input) but nothing else.
        r.send("1 + 2")
        r.expect(r"1 \+ 2")
        r.send("\x03")
        check(r.expect(re.escape(PROMPT)) is not None, "Ctrl-C gives a fresh prompt", r.transcript())
        r.line("3d6 +", then=re.escape("... "))
        r.send("\x03")
        r.expect(re.escape(PROMPT))
        out = r.line("x * 2")
        check(out is not None and "x * 2 = 22" in out and "3d6" not in out,
              "after Ctrl-C the variables remain and the unfinished input is gone", r.transcript())

        r.line(":quit", then=r"$")
        check(r.wait() == 0, ":quit ends the REPL with exit code 0", r.transcript())
    finally:
        r.kill()


def test_rulesets(tmp):
    """:load, :rulesets, :describe, mechanics as functions, their completion, and a failed :load."""
    broken = os.path.join(tmp, "broken.yaml")
    with open(broken, "w", encoding="utf-8") as f:
        f.write("schema: 1\nname: broken\ntitle: Broken\nsource: tests\nmechanics:\n"
                "  check: {doc: a check, body: 1 +, returns: {type: int, doc: one}}\n")
    r = Repl(environment(os.path.join(tmp, "rulesets_history")))
    try:
        r.expect(re.escape(PROMPT))
        out = r.line(":help")
        check(out is not None and ":load NAME|FILE" in out and ":rulesets" in out and ":describe" in out
              and ":stats EXPR" in out, ":help lists the ruleset commands and :stats", r.transcript())
        r.line("let x = 7")
        r.send(":load heroes-my\t")
        check(r.expect(r":load heroes-mythos") is not None, "Tab completes a ruleset's name after :load",
              r.transcript())
        out = r.line("")
        check(out is not None and "loaded heroes-mythos — Heroes & Mythos d6 System" in out
              and "heroes_mythos.check(dice, red = 0, difficulty = 10)" in out,
              ":load shows the ruleset's title and mechanics", r.transcript())
        out = r.line(":rulesets")
        check(out is not None and "heroes-mythos — Heroes & Mythos d6 System (loaded)" in out,
              ":rulesets marks the loaded rulesets", r.transcript())

        r.line(":dice 4,5,5,4")
        r.send("heroes_m\t")
        check(r.expect(r"heroes_mythos\.check\(") is not None, "Tab completes a mechanic with its '('",
              r.transcript())
        out = r.line("3, red: 1).result")
        check(out is not None and "heroes_mythos.check(3, red: 1).result = 10" in out and "4 cancelled 4" in out,
              "a loaded mechanic is called as a function", r.transcript())

        out = r.line(":load " + broken)
        check(out is not None and "broken.yaml:6:" in out and "the ruleset was not loaded; nothing changed" in out,
              "a broken ruleset shows its diagnostics", r.transcript())
        out = r.line(":load no-such-game")
        check(out is not None and "there is no ruleset 'no-such-game'" in out, ":load of an unknown name is an error",
              r.transcript())
        r.line(":dice 4,4,2")
        out = r.line("x + heroes_mythos.check(3).result")
        check(out is not None and "= 17" in out, "a failed :load keeps the variables and the rulesets",
              r.transcript())
        out = r.line(":describe heroes-mythos.check")
        check(out is not None and "in the language: heroes_mythos.check(dice: 3)" in out,
              ":describe shows a mechanic", r.transcript())
        r.line(":q", then=r"$")
        check(r.wait() == 0, "the REPL ends normally after loading rulesets", r.transcript())
    finally:
        r.kill()


def test_history(tmp):
    """History is written after every input and recalled with Up after a restart."""
    history = os.path.join(tmp, "state", "alea", "history")  # its directories do not exist yet
    r = Repl(environment(history))
    try:
        r.expect(re.escape(PROMPT))
        out = r.line("7 * 6")
        check(out is not None and "7 * 6 = 42" in out, "a plain expression", r.transcript())
        r.line("1 +", then=re.escape("... "))
        r.line("1")
        # Written before the REPL ends, so a crash or a kill would not lose it.
        saved = read_text(history)
        check("7 * 6\n" in saved and "1 +\\n1\n" in saved,
              "every input is in the history file at once, a multi-line one as one entry", repr(saved))
        r.line("7 * 6")
        r.send("\x04")  # Ctrl-D on an empty line
        check(r.wait() == 0, "Ctrl-D ends the REPL with exit code 0", r.transcript())
    finally:
        r.kill()

    r = Repl(environment(history))
    try:
        r.expect(re.escape(PROMPT))
        r.send("\x1b[A")  # Up
        check(r.expect(r"7 \* 6") is not None, "Up recalls the last input of the previous run",
              r.transcript())
        out = r.line("")
        check(out is not None and "7 * 6 = 42" in out, "the recalled input runs again", r.transcript())
        r.line(":q", then=r"$")
        r.wait()
        entries = read_text(history).splitlines()
        check(entries[-1:] == ["7 * 6"], ":q is not kept in the history", repr(entries))
    finally:
        r.kill()

    # A history file that cannot be used costs one warning, not the session.
    r = Repl(environment(tmp))  # a directory
    try:
        r.expect(re.escape(PROMPT))
        r.line("1 + 1")
        out = r.line("2 + 2")
        check(out is not None and "2 + 2 = 4" in out and r.text.count("warning:") == 1,
              "an unusable history file gives one warning and the REPL goes on", r.transcript())
        r.line(":q", then=r"$")
        r.wait()
    finally:
        r.kill()


def test_interrupt(tmp):
    """Ctrl-C stops a long evaluation or a long print and keeps the session."""
    # Limits high enough that only Ctrl-C ends the loop and the print; memory capped at 2 GiB.
    r = Repl(environment(os.path.join(tmp, "interrupt_history")),
             args=("--seed", "1", "--limit", "max_loop_iterations=1000000000",
                   "--limit", "max_steps=1000000000000", "--limit", "max_collection_size=1000000",
                   "--limit", "max_value_size=10000000", "--limit", "max_render_size=30000000"),
             memory_cap=2 * 1024 ** 3)
    try:
        r.expect(re.escape(PROMPT))
        out = r.line("let a = 5")
        check(out is not None and "a = 5" in out, "a variable before the interruption", r.transcript())
        r.line("fn spin(n) = loop x = 0 while x >= 0 { x + n }")
        start = len(r.text)
        r.pos = max(r.pos, start)
        r.send("let b = spin(1)\r")
        wait_busy(r.pid)  # inside the loop
        r.send("\x03")
        m = r.expect(r"interrupted\r?\n")
        check(m is not None, "Ctrl-C during an evaluation prints 'interrupted'", r.transcript())
        check(r.expect(re.escape(PROMPT)) is not None, "and the prompt comes back", r.transcript())
        out = r.line("a")
        check(out is not None and "a = 5" in out, "the variables survive the interruption", r.transcript())
        out = r.line("b")
        check(out is not None and "b =" not in out and "error" in out,
              "the interrupted let defined nothing", r.transcript())

        # A long print: a big list shown a piece at a time, stopped at Ctrl-C.
        r.line(":trace off")
        start = len(r.text)
        r.pos = max(r.pos, start)
        r.send("repeat 3 { range(1, 1000000) }\r")
        check(r.expect(r"\[\[1, 2, 3") is not None, "a long print starts", r.transcript()[-2000:])
        r.send("\x03")
        # (A renderer that cuts huge values short may have finished first: then the
        # Ctrl-C reaches the prompt instead.)
        m = r.expect(r"(interrupted|\^C)\r?\n")
        check(m is not None, "Ctrl-C during a long print prints 'interrupted'", r.transcript()[-2000:])
        check(r.expect(re.escape(PROMPT)) is not None, "and the prompt comes back after a print",
              r.transcript()[-2000:])
        check(len(r.text) - start < 1_000_000, "the print stopped (20 MB were on their way)",
              f"{len(r.text) - start} characters")
        out = r.line("a + 1")
        check(out is not None and "6" in out, "the session works after an interrupted print",
              r.transcript()[-2000:])
        r.line(":quit", then=r"$")
        check(r.wait() == 0, "the REPL still ends with :quit after interruptions", r.transcript()[-2000:])
    finally:
        r.kill()


def test_history_shared(tmp):
    """Two sessions typing at once into one history file: every entry of both is kept."""
    history = os.path.join(tmp, "shared_history")
    n = 60
    sessions = [Repl(environment(history)), Repl(environment(history))]
    try:
        for r in sessions:
            r.expect(re.escape(PROMPT))
        # Each sends all its lines at once, so the two append side by side.
        for k, r in enumerate(sessions):
            r.send("".join(f"{1000 * (k + 1) + i} + 0\n" for i in range(n)))
        for k, r in enumerate(sessions):
            last = 1000 * (k + 1) + n - 1
            check(r.expect(re.escape(f"{last} + 0 = {last}"), timeout=TIMEOUT) is not None
                  and r.expect(re.escape(PROMPT)) is not None, "a session runs all its lines", r.transcript())
        for r in sessions:
            r.send("\x04")
            check(r.wait() == 0, "a session sharing the history file ends at Ctrl-D", r.transcript()[-2000:])
        entries = read_text(history).splitlines()
        missing = [f"{1000 * (k + 1) + i} + 0" for k in range(2) for i in range(n)
                   if f"{1000 * (k + 1) + i} + 0" not in entries]
        check(not missing, "two sessions sharing a history file lose no entry",
              f"{len(missing)} missing, e.g. {missing[:5]}")
    finally:
        for r in sessions:
            r.kill()


def test_pipe(tmp):
    """Without a terminal: no prompts, no history, the same output; exit code 0."""
    history = os.path.join(tmp, "pipe_history")
    script = ("let x = 2\nx + 3\n:dice 6,5\n2d6\n3d6 +\n\n(1 +\n2)\nfn f(a) = a * 10\nf(x)\n"
              "4d6kh3\n1 +\n")
    runs = []
    for args in (["--seed", "9"], ["--seed", "9", "repl"]):
        try:
            runs.append(subprocess.run([ALEA, *args], input=script, capture_output=True, text=True,
                                       timeout=TIMEOUT, env=environment(history)))
        except subprocess.TimeoutExpired as e:
            check(False, f"alea {' '.join(args)} reading a pipe ends within {TIMEOUT} s", str(e))
            return
    p = runs[0]
    check(p.returncode == 0, "a piped script ends with exit code 0", p.stderr)
    check(PROMPT not in p.stdout and "..." not in p.stdout, "no prompts without a terminal", p.stdout)
    expected = ["x = 2", "x + 3 = 5", "next dice: 6 5", "2d6 → 6 5 = 11", "(1 + 2) = 3",
                "defined f(a)", "f(x) = 20", "4d6kh3 → "]
    check(all(line in p.stdout for line in expected), "a piped script gives the results", p.stdout)
    check(p.stderr.count("ExpectedExpression") == 2, "incomplete input is reported, also at the end",
          p.stderr)
    check(not os.path.exists(history), "a piped script leaves the history alone")
    check(runs[1].returncode == 0 and runs[1].stdout == p.stdout,
          "'alea --seed 9 repl' gives the same output, random dice included", runs[1].stdout)


def run_script(script, history, what, *args):
    """The REPL run on `script` through a pipe: the finished process, or None (a failure) if it hung."""
    try:
        return subprocess.run([ALEA, *args], input=script, capture_output=True, text=True, timeout=TIMEOUT,
                              env=environment(history))
    except subprocess.TimeoutExpired as e:
        check(False, f"{what} ends", str(e))
        return None


def test_calls_and_last(tmp):
    """A mechanic called as on the command line, its record a field to a line, and `_`."""
    script = ("heroes-mythos.check dice=3 red=1\n"       # loads the ruleset, random dice
              ":dice 4,5,5,4\nheroes-mythos.check dice=3 red=1\n"
              "_.result + 1\n"
              ":dice 4,5,5,4\nheroes_mythos.check(3, red: 1)\n"
              "heroes-mythos.check dicee=3\n"
              "heroes-mythos.chek dice=3\n"
              "heroes-mythos.check dice=3 dice=4\n"
              "let r = {result: 3}\nr.result\n"
              "let y = 5\n_\n"
              ":dice 3,4\n2d6\n_ * 2\n"
              "strategiya.combat_rolls_per_turn heroes=3\n")
    p = run_script(script, os.path.join(tmp, "calls_history"), "the calls script", "--seed", "1")
    if p is None:
        return
    out, err = p.stdout, p.stderr
    check("note: loaded the ruleset heroes-mythos" in err, "a call in the command line's form loads its ruleset", err)
    record = ("heroes_mythos.check(dice: 3, red: 1)\n  dice d6: ~4~ 5 5\n  red d6: 4\n  4 cancelled 4\n"
              "  used: [5, 5]\n  extra successes: []\nresult: 10\nsuccess: true\nextra_successes: 0\n"
              "catastrophe: false\noutcome: success\n")
    check(record in out, "heroes-mythos.check dice=3 red=1 rolls the mechanic, shown a field to a line as by "
          "'alea roll'", out)
    check("_.result + 1 = 11" in out, "_ is the last result", out)
    check("heroes_mythos.check(3, red: 1)\n  dice d6: ~4~ 5 5\n" in out and out.count("\nresult: 10\n") == 2,
          "a mechanic called as in the language is shown a field to a line too", out)
    check("has no parameter 'dicee'" in err and "did you mean 'dice'?" in err, "a misspelt parameter is shown", err)
    check("has no mechanic 'chek'" in err and "did you mean 'check'?" in err, "a misspelt mechanic is shown", err)
    check("'dice' is set twice" in err, "a parameter set twice is an error", err)
    check("r.result = 3" in out, "a variable's field is not taken for a ruleset's mechanic", out)
    check("\n_ = 3\n" in out, "a let leaves _ as it was", out)
    check("2d6 → 3 4 = 7\n_ * 2 = 14" in out, "_ follows each new result", out)
    check("\nstrategiya.combat_rolls_per_turn(heroes: 3) = 5\n" in out,
          "a call whose value is not a record keeps its one line", out)
    check(p.returncode == 0, "the script ends with exit code 0", err)


def test_stats_options(tmp):
    """:stats takes the options of `alea stats`, and :compare puts variants side by side, both with
    the session's variables."""
    script = ("let bonus = 5\n"
              ":compare 'd20 + bonus >= 15' '2d10 + bonus >= 15'\n"
              ":stats heroes-mythos.check dice=1..2 --outcome success --csv\n"
              ":stats 3d6 --samples 0\n"
              ":compare\n"
              ":stats d20 + bonus\n"
              ":stats 3d6 --time-limit abc\n"
              f":compare {ROOT}/examples/rulesets/my-game.yaml#check {ROOT}/examples/rulesets/house/my-game.yaml#check "
              "dice=3 --outcome success\n"
              ":stats let a = 10d10kh3 in let b = 10d10kh3 in let c = 10d10kh3 in let d = 10d10kh3 in "
              "let e = 10d10kh3 in let f = 10d10kh3 in a * 100000 + b * 10000 + c * 1000 + d * 100 + e * 10 + f "
              "--time-limit 0.2 --samples 100\n")
    p = run_script(script, os.path.join(tmp, "stats_history"), "the stats script")
    if p is None:
        return
    out, err = p.stdout, p.stderr
    check("\nP(true)  55.00%  64.00%  +9.00 pp\n" in out, ":compare: each variant with the session's bonus, and Δ", out)
    check("dice,variant,method,P(success)\n1,heroes-mythos.check,exact,0.08333333333\n" in out,
          ":stats takes --outcome and --csv, and sweeps", out)
    check(":stats: --samples: Value 0 not in range" in err, "a bad option is the line's error", err)
    check("error: ':compare' needs the variants" in err, ":compare alone says what it needs", err)
    check("d20 + bonus: exact (composed)\nmean 15.5" in out, "without options :stats is as before", out)
    check(":stats: --time-limit: 'abc' is not a time limit" in err, ":stats refuses a bad --time-limit", err)
    check("\nP(success)  62.50%  83.80%  +21.30 pp\n" in out, ":compare: two ruleset files of one name", out)
    check("sampled (100 runs" in out and "— an exact answer takes more than 0.2 s (time_limit)" in out,
          ":stats takes --time-limit, and past it samples", out)
    check(p.returncode == 0, "the stats script ends with exit code 0", err)


def test_reload(tmp):
    """:reload reads the loaded rulesets again from their files; one that no longer loads stays."""
    ruleset = os.path.join(tmp, "tiny.yaml")
    text = ("schema: 1\nname: tiny\ntitle: A tiny ruleset\nsource: the tests\nmechanics:\n  roll:\n    doc: a number\n"
            "    body: |\n      7\n    returns: {type: int, doc: the number}\n")
    with open(ruleset, "w") as f:
        f.write(text)
    r = Repl(environment(os.path.join(tmp, "reload_history")))
    try:
        r.expect(re.escape(PROMPT))
        out = r.line(":reload")
        check(out is not None and "no ruleset is loaded" in out, ":reload with none loaded says so", r.transcript())
        out = r.line(f":load {ruleset}")
        check(out is not None and "loaded tiny" in out, ":load the ruleset", r.transcript())
        out = r.line("tiny.roll()")
        check(out is not None and "= 7" in out, "its mechanic as written", r.transcript())
        with open(ruleset, "w") as f:
            f.write(text.replace("      7", "      8"))
        out = r.line(":reload")
        check(out is not None and f"reloaded tiny ({ruleset})" in out, ":reload reads the file again", r.transcript())
        out = r.line("tiny.roll()")
        check(out is not None and "= 8" in out, "the mechanic as edited", r.transcript())
        with open(ruleset, "w") as f:
            f.write(text.replace("      7", "      8 +"))
        out = r.line(":reload tiny")
        check(out is not None and "tiny was not reloaded; it stays as it was" in out,
              "a ruleset that no longer loads is reported", r.transcript())
        out = r.line("tiny.roll()")
        check(out is not None and "= 8" in out, "…and kept as it was", r.transcript())
        out = r.line(":reload nope")
        check(out is not None and "the ruleset 'nope' is not loaded" in out, ":reload NAME of none loaded",
              r.transcript())
        r.send("\x04")  # Ctrl-D on an empty line
        check(r.wait() == 0, "Ctrl-D ends the reload session", r.transcript())
    finally:
        r.kill()


def test_pipe_interrupt(tmp):
    """A piped script and Ctrl-C: what runs stops, then the script, with exit 130 (not a signal)."""
    history = os.path.join(tmp, "pipe_interrupt_history")
    args = [ALEA, "--seed", "1", "--limit", "max_loop_iterations=1000000000", "--limit", "max_steps=1000000000000"]
    for name, script in (("during an evaluation", "let a = 5\nlet b = loop x = 0 while x >= 0 { x + 1 }\n"),
                         ("while waiting for input", "let a = 5\n")):
        p = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=environment(history))
        p.stdin.write(script)
        p.stdin.flush()  # the pipe stays open: the script has not ended
        # The first input's result says the REPL is reading (and catches Ctrl-C).
        first = p.stdout.readline() if select.select([p.stdout], [], [], TIMEOUT)[0] else ""
        if "loop" in script:
            wait_busy(p.pid)  # inside the loop
        else:
            time.sleep(0.2)  # waiting for more input
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=TIMEOUT)
            out = first + out
        except subprocess.TimeoutExpired:
            p.kill()
            check(False, f"Ctrl-C {name} in a piped script ends it")
            continue
        check(p.returncode == 130, f"Ctrl-C {name} in a piped script exits 130", f"rc={p.returncode} {err}")
        check("a = 5" in out and err.count("interrupted") == 1,
              f"Ctrl-C {name}: the earlier input ran, and 'interrupted' is said once", f"{out!r} {err!r}")


def main():
    if not os.access(ALEA, os.X_OK):
        print(f"usage: {sys.argv[0]} /path/to/alea  ({ALEA} is not executable)")
        return 2
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        test_session(os.path.join(tmp, "session_history"))
        test_history(tmp)
        test_history_shared(tmp)
        test_rulesets(tmp)
        test_interrupt(tmp)
        test_pipe(tmp)
        test_calls_and_last(tmp)
        test_stats_options(tmp)
        test_reload(tmp)
        test_pipe_interrupt(tmp)
    print(f"{len(failures)} failed" if failures else "all passed", f"({time.monotonic() - started:.1f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
