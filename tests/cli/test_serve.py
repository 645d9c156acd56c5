"""tests/cli/test_serve.py — `alea serve` driven as a bot would drive it: requests as JSON lines
on its standard input, replies read from its standard output, with concurrent requests, cancels,
time limits and hostile payloads.

What a user would notice is checked: the reply to a roll is the document `alea roll --json` prints
for the same roll; every request gets exactly one reply with its id; with --jobs N a request that
cannot end does not hold up the others, and a cancel ends it; a request past its time limit ends
with TimeLimitExceeded; a bad request gets a BadRequest reply and the server goes on answering.
No check depends on speed: a request that must run long is one that cannot end by itself (its
limits raised), and it ends only when cancelled or timed out.

Usage: python3 test_serve.py /path/to/alea   (exit 0 = every check passed)
"""
import json
import os
import queue
import signal
import subprocess
import threading

from clitest import ALEA, ROOT, SANITIZED, cap_address_space, check, environment, finish, run

MEMORY_CAP = 2 * 1024 ** 3
TIMEOUT = 120  # seconds for any one reply: far beyond what any request here needs
# A request that cannot end by itself: sampling whose work limit the server raised out of reach.
ENDLESS = {"op": "stats", "expr": "3d6", "sampled": True, "samples": 10 ** 15}
ENDLESS_LIMITS = ["--limit", "max_sample_work=1000000000000000000"]


class Server:
    """One `alea serve` process; replies are read on a thread, so a test can wait for one."""

    def __init__(self, *args):
        self.p = subprocess.Popen([ALEA, "serve", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=ROOT, env=environment(),
                                  preexec_fn=lambda: cap_address_space(MEMORY_CAP))
        self.replies = queue.Queue()
        self.lines = []  # every reply line, in the order written
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.p.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(line)
            self.replies.put(json.loads(line) if line.startswith("{") else {"unreadable": line})
        self.replies.put(None)

    def send(self, request):
        data = request if isinstance(request, bytes) else (json.dumps(request) + "\n").encode()
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def reply(self):
        try:
            return self.replies.get(timeout=TIMEOUT)
        except queue.Empty:
            return {"timeout": True}

    def close(self):
        """Ends the input; returns (exit code, stderr)."""
        self.p.stdin.close()
        try:
            code = self.p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.p.kill()
            code = "hung"
        return code, self.p.stderr.read().decode("utf-8", "replace")


def ask(server, request):
    server.send(request)
    return server.reply()


def code_of(reply):
    r = reply.get("result") or {}
    return (r.get("error") or {}).get("code")


# ---- 1. a roll and a distribution are the documents the commands print -----------------------

s = Server()
r = ask(s, {"id": 1, "op": "roll", "expr": "4d6kh3", "seed": 42})
rc, out, err = run(["roll", "4d6kh3", "--seed", "42", "--json"])
check("roll: the reply holds alea roll --json's document", r.get("result") == json.loads(out), f"{r}\n{out}")
check("roll: id, op and ok", (r.get("id"), r.get("op"), r.get("ok"), r.get("schema")) == (1, "roll", True, "alea.reply/1"),
      str(r))
r = ask(s, {"id": "s", "op": "stats", "expr": "3d6"})
rc, out, err = run(["stats", "3d6", "--json"])
untimed = lambda d: {k: v for k, v in d.items() if k not in ("exact_seconds", "seconds")}  # they vary by run
check("stats: the reply holds alea stats --json's document", untimed(r.get("result", {})) == untimed(json.loads(out)),
      f"{r}\n{out}")
check("stats: with the seconds it took", r.get("result", {}).get("seconds", -1) >= 0, str(r)[:300])
check("stats: P(10) is 27/216 = 1/8", any(e.get("value") == 10 and e.get("exact") == "1/8"
                                         for e in r["result"].get("distribution", [])), str(r)[:400])
# time_limit as --time-limit: past it, sampled with the reason, or with "exact" an error naming it.
HOPELESS = ("let a = 10d10kh3 in let b = 10d10kh3 in let c = 10d10kh3 in let d = 10d10kh3 in "
            "let e = 10d10kh3 in let f = 10d10kh3 in [a, b, c, d, e, f]")
r = ask(s, {"id": "t", "op": "stats", "expr": HOPELESS, "time_limit": 0.2, "samples": 100})
check("stats: past time_limit, sampled and says why", r.get("ok") and r["result"]["method"] == "sampled"
      and r["result"]["reason"] == "an exact answer takes more than 0.2 s (time_limit)", str(r)[:400])
r = ask(s, {"id": "u", "op": "stats", "expr": HOPELESS, "time_limit": 0.2, "exact": True})
check("stats: exact past time_limit, an error naming it", not r.get("ok") and "(time_limit)" in str(r)
      and 'raise "time_limit" (now 0.2 s)' in str(r), str(r)[:600])
r = ask(s, {"id": 3, "op": "roll", "expr": "3d6 explode 6", "dice": [6, 4, 1, 3]})
check("roll with scripted dice", r["ok"] and r["result"]["value"] == 14, str(r))
r = ask(s, {"id": 4, "op": "roll", "expr": "3d6", "dice": [1, 2]})
check("scripted dice too few: an error reply", not r["ok"] and r["result"]["ok"] is False, str(r))
r = ask(s, {"id": 5, "op": "roll", "expr": "d6", "dice": [1, 2]})
check("scripted dice left over: ScriptedDiceUnused", code_of(r) == "ScriptedDiceUnused", str(r))

# ---- 2. rulesets: a mechanic, state in and out, loading, describing, checking ----------------

r = ask(s, {"id": 10, "op": "roll", "expr": "heroes_mythos.check(dice: 3, red: 1)", "seed": 7})
rc, out, err = run(["roll", "heroes-mythos.check", "dice=3", "red=1", "--seed", "7", "--json"])
check("a shipped ruleset's mechanic, loaded when named", r.get("ok") and
      r["result"]["value"] == json.loads(out)["value"] and r["result"]["dice"] == json.loads(out)["dice"], f"{r}\n{out}")
state = {"pbta-superiority": {"superiority": 2}}
r = ask(s, {"id": 11, "op": "roll", "expr": "pbta_superiority.increase(n: 3)", "state": state})
check("state in and out", r.get("ok") and r["result"].get("state") == {"pbta-superiority": {"superiority": 5}}, str(r))
r = ask(s, {"id": 12, "op": "roll", "expr": "pbta_superiority.increase(n: 3)", "state": {"pbta-superiority": {"nope": 1}}})
check("a state that does not fit: StateInvalid", code_of(r) == "StateInvalid", str(r))
move = {"op": "roll", "expr": "pbta_superiority.move(stat: 1)", "seed": 1, "state": {"pbta-superiority": {"superiority": 3}}}
r = ask(s, {"id": 121, **move, "choices": {"pbta-superiority": {"use_superiority": True}}})
check("choices: the player's decision is used", r.get("ok") and r["result"]["value"].get("superiority_used") is True,
      str(r)[:300])
r = ask(s, {"id": 122, **move, "choices": {"pbta-superiority": {"nope": True}}})
check("choices: one the roll never reads is BadRequest", code_of(r) == "BadRequest" and "nope" in str(r), str(r)[:300])
r = ask(s, {"id": 13, "op": "roll", "expr": "1", "state": {"nowhere": {"x": 1}}})
check("a state of an unknown ruleset: StateInvalid", code_of(r) == "StateInvalid", str(r))
tiny = ("schema: 1\nname: tiny\ntitle: Tiny\nsource: a test\nmechanics:\n  check:\n    doc: d\n"
        "    params: {n: {type: int, doc: n}}\n    body: \"n + 1\"\n    returns: {type: int, doc: n plus one}\n")
r = ask(s, {"id": 14, "op": "load", "yaml": tiny, "name": "tiny.yaml"})
check("load: the reply describes the ruleset loaded", r.get("ok") and r["result"].get("schema") == "alea.describe/1"
      and r["result"].get("name") == "tiny", str(r)[:400])
r = ask(s, {"id": 15, "op": "roll", "expr": "tiny.check(n: 4)", "seed": 1})
check("a loaded ruleset's mechanic is callable", r.get("ok") and r["result"]["value"] == 5, str(r))
r = ask(s, {"id": 16, "op": "load", "yaml": tiny.replace("n + 1", "n +"), "name": "tiny.yaml"})
check("a broken ruleset: an error at its line", not r["ok"] and
      ((r["result"]["error"].get("location") or {}).get("file")) == "tiny.yaml", str(r))
r = ask(s, {"id": 17, "op": "roll", "expr": "tiny.check(n: 4)", "seed": 1})
check("a failed load leaves the ruleset loaded before", r.get("ok") and r["result"]["value"] == 5, str(r))
r = ask(s, {"id": 18, "op": "describe", "ruleset": "heroes-mythos", "mechanic": "check"})
rc, out, err = run(["describe", "heroes-mythos.check", "--json"])
check("describe: alea describe --json's document", r.get("result") == json.loads(out), str(r)[:300])
r = ask(s, {"id": 19, "op": "check", "expr": "4d6 kh3"})
check("check: the error with its place", not r["ok"] and r["result"]["files"][0]["diagnostics"][0]["location"]["column"] == 5,
      str(r))
r = ask(s, {"id": 20, "op": "roll", "expr": "4d6 kh3 + 2"})
err = r["result"].get("error") or {}
check("a syntax error: code, line and column", (err.get("code"), (err.get("location") or {}).get("column")) ==
      ("UnexpectedText", 5), str(r))
code, stderr = s.close()
check("the end of input ends the server: exit 0", code == 0, f"{code} {stderr[-300:]}")
check("nothing on standard error", stderr == "", stderr[-300:])

# ---- 3. hostile requests: each gets a BadRequest (or its limit's) reply; the server goes on ----

s = Server("--max-request-bytes", "4096")
hostile = [
    (b"this is not JSON\n", "not JSON"),
    (b"\xff\xfe{\"id\": 1}\n", "not UTF-8"),
    (("[" * 100000 + "]" * 100000 + "\n").encode(), "nested 100000 deep"),
    (b"[1, 2, 3]\n", "not an object"),
    (b'{"op": "roll", "expr": "d6"}\n', "no id"),
    (b'{"id": {"a": 1}, "op": "roll", "expr": "d6"}\n', "an object as the id"),
    (b'{"id": 1, "op": "fly"}\n', "an unknown op"),
    (b'{"id": 1, "op": "roll", "expr": "d6", "sed": 4}\n', "an unknown field"),
    (b'{"id": 1, "op": "roll", "expr": 6}\n', "expr not a string"),
    (b'{"id": 1, "op": "roll", "expr": "d6", "seed": -1}\n', "a negative seed"),
    (b'{"id": 1, "op": "roll", "expr": "d6", "seed": 1e400}\n', "a seed too large for a number"),
    (b'{"id": 1, "op": "roll", "expr": "d6", "seed": 1, "dice": [1]}\n', "seed and dice"),
    (b'{"id": 1, "op": "roll", "expr": "d6", "dice": [1.5]}\n', "a fraction of a face"),
    (b'{"id": 1, "op": "roll", "expr": "d6", "limits": {"max_steps": 99999999999}}\n', "a limit raised"),
    (b'{"id": 1, "op": "roll", "expr": "d6", "limits": {"max_stepz": 5}}\n', "an unknown limit"),
    (b'{"id": 1, "op": "roll", "expr": "d6", "timeout_ms": 0}\n', "a zero time limit"),
    (b'{"id": 1, "op": "stats", "expr": "d6", "time_limit": -1}\n', "a negative time_limit"),
    (b'{"id": 1, "op": "stats", "expr": "d6", "time_limit": "abc"}\n', "time_limit not a number"),
    (b'{"id": 1, "op": "stats", "expr": "d6", "time_limit": 1e99}\n', "a time_limit past a year"),
    (b'{"id": 1, "op": "check", "file": "/etc/passwd"}\n', "a file without --allow-files"),
    (b'{"id": 1, "op": "load", "ruleset": "../../etc/passwd"}\n', "a path as a ruleset name"),
    (b'{"id": 1, "op": "describe", "ruleset": "rulesets/dozen-die.yaml"}\n', "describe a file without --allow-files"),
    (b'{"id": 1, "op": "check", "expr": "1", "yaml": "x"}\n', "two of expr, yaml, file"),
    (b'{"id": 1, "op": "cancel"}\n', "a cancel without a target"),
    ((b'{"id": 1, "op": "roll", "expr": "' + b"1+" * 5000 + b'1"}\n'), "a line over --max-request-bytes"),
]
for payload, what in hostile:
    s.send(payload)
    r = s.reply()
    check(f"hostile ({what}): a BadRequest reply", code_of(r) == "BadRequest" and r.get("ok") is False, str(r)[:300])
r = ask(s, {"id": 2, "op": "roll", "expr": "1000000d6"})
check("a roll over max_dice: its limit's error", code_of(r) == "DiceLimitExceeded", str(r)[:300])
r = ask(s, {"id": 3, "op": "roll", "expr": "repeat 100 { 6d6 }", "seed": 1, "limits": {"max_dice": 50}})
check("a request's own lower limit applies", code_of(r) == "DiceLimitExceeded", str(r)[:300])
r = ask(s, {"id": 4, "op": "roll", "expr": "\u0000 d6 \ud83c\udfb2"})
check("a NUL and an emoji in an expression: an error reply", r.get("ok") is False and code_of(r) is not None, str(r)[:300])
r = ask(s, {"id": 5, "op": "roll", "expr": "d6", "seed": 1})
check("after all of that, the server still answers", r.get("ok") is True and r.get("id") == 5, str(r))
code, stderr = s.close()
check("hostile: exit 0 at the end of input", code == 0, f"{code} {stderr[-300:]}")
check("hostile: one reply a line, every one JSON", all(line.startswith("{") for line in s.lines), "")

# Files, when allowed: only regular files, up to max_file_bytes.
s = Server("--allow-files", "--limit", "max_file_bytes=100000")
r = ask(s, {"id": 1, "op": "check", "file": "/dev/zero"})
check("--allow-files: a device is refused", code_of(r) == "FileUnreadable", str(r)[:300])
r = ask(s, {"id": 2, "op": "check", "file": "rulesets/heroes-mythos.yaml"})
check("--allow-files: a ruleset file checked", r.get("ok") is True, str(r)[:300])
r = ask(s, {"id": 3, "op": "load", "yaml": "x" * 100001})
check("a ruleset text over max_file_bytes: SizeLimitExceeded", code_of(r) == "SizeLimitExceeded", str(r)[:300])
s.close()

# Loading without end: the YAML loaded, in all, is bounded by --max-loaded-bytes.
s = Server("--max-loaded-bytes", str(2 * len(tiny) + 20))  # room for two
results = []
for i in range(6):
    results.append(ask(s, {"id": i, "op": "load", "yaml": tiny.replace("name: tiny", f"name: tiny{i}")}))
check("--max-loaded-bytes: the first loads succeed", all(r.get("ok") for r in results[:2]), str(results[:2])[:300])
check("--max-loaded-bytes: then SizeLimitExceeded", code_of(results[-1]) == "SizeLimitExceeded", str(results[-1])[:300])
r = ask(s, {"id": 9, "op": "load", "yaml": tiny.replace("name: tiny", "name: tiny0").replace("n + 1", "n + 2")})
check("replacing a ruleset loaded gives its bytes back", r.get("ok") is True, str(r)[:300])
s.close()

# ---- 4. concurrency: --jobs, out-of-order replies, cancel, time limits ------------------------

s = Server("--jobs", "4", *ENDLESS_LIMITS)
s.send({"id": "endless", **ENDLESS})
count = 40 if SANITIZED else 200
for i in range(count):
    s.send({"id": i, "op": "roll", "expr": "4d6kh3", "seed": i})
got = {}
for _ in range(count):
    r = s.reply()
    got[r.get("id")] = r
check("--jobs 4: every roll answered while a request that cannot end runs",
      sorted(k for k in got if isinstance(k, int)) == list(range(count)), str(sorted(got, key=str))[:300])
check("--jobs 4: the endless request has not answered", "endless" not in got, "")
rc, out, err = run(["roll", "4d6kh3", "--seed", "17", "--json"])
check("--jobs 4: a roll's reply is the CLI's document for its seed", got.get(17, {}).get("result") == json.loads(out),
      str(got.get(17))[:300])
s.send({"id": "c", "op": "cancel", "target": "endless"})
replies = [s.reply(), s.reply()]
by_id = {r.get("id"): r for r in replies}
check("cancel: its own reply is ok", by_id.get("c", {}).get("ok") is True, str(replies)[:400])
cancelled = by_id.get("endless", {})
check("cancel: the cancelled request answers, marked interrupted",
      cancelled.get("result", {}).get("stopped_by") == "interrupted" or code_of(cancelled) == "Interrupted",
      str(cancelled)[:400])
r = ask(s, {"id": "c2", "op": "cancel", "target": "endless"})
check("cancelling a request already answered: an error", r.get("ok") is False and code_of(r) == "BadRequest", str(r))
s.send({"id": "dup", **ENDLESS})
r = ask(s, {"id": "dup", "op": "roll", "expr": "d6"})
check("an id in use by a request not answered yet: BadRequest", code_of(r) == "BadRequest", str(r)[:300])
s.send({"id": "c3", "op": "cancel", "target": "dup"})
s.reply(), s.reply()
code, stderr = s.close()
check("--jobs 4: exit 0 at the end of input", code == 0, f"{code} {stderr[-300:]}")
check("--jobs 4: one reply to each request", len(s.lines) == count + 6, str(len(s.lines)))

# Without --jobs, one at a time: the replies come in the order of the requests.
s = Server()
for i in range(20):
    s.send({"id": i, "op": "roll", "expr": "d20", "seed": i})
order = [s.reply().get("id") for _ in range(20)]
check("without --jobs: replies in the order of the requests", order == list(range(20)), str(order))
s.close()

# The time limit: a roll that cannot end by itself, stopped at timeout_ms.
s = Server("--limit", "max_steps=1000000000000000", "--limit", "max_loop_iterations=1000000000000")
r = ask(s, {"id": 1, "op": "roll", "expr": "loop x = 0 until x < 0 { x + 1 }", "timeout_ms": 200})
check("timeout_ms: a roll past it ends TimeLimitExceeded", code_of(r) == "TimeLimitExceeded", str(r)[:300])
s.close()
s = Server(*ENDLESS_LIMITS)
r = ask(s, {"id": 1, **ENDLESS, "timeout_ms": 200})
check("timeout_ms: sampling past it answers with the samples drawn, stopped by timeout_ms",
      r.get("ok") is True and r["result"].get("stopped_by") == "timeout_ms" and r["result"]["runs"] > 0, str(r)[:300])
r = ask(s, {"id": 2, "op": "roll", "expr": "d6", "timeout_ms": 100000000})
check("timeout_ms past the server's --timeout: BadRequest", code_of(r) == "BadRequest", str(r)[:300])
s.close()

# Ctrl-C: the running request ends Interrupted, the server exits 130.
s = Server(*ENDLESS_LIMITS)
s.send({"id": 1, **ENDLESS})
s.send({"id": 2, "op": "roll", "expr": "d6", "seed": 1})  # waiting behind it
r0 = ask(s, {"id": 0, "op": "cancel", "target": 999})  # answered at once: the server reads while it works
check("a cancel is answered while another request runs", r0.get("id") == 0 and r0.get("ok") is False, str(r0))
s.p.send_signal(signal.SIGINT)
a, b = s.reply(), s.reply()
check("Ctrl-C: the running request answers, interrupted", a.get("id") == 1 and
      (a.get("result", {}).get("stopped_by") == "interrupted" or code_of(a) == "Interrupted"), str(a)[:300])
check("Ctrl-C: the waiting request answers Interrupted", b.get("id") == 2 and code_of(b) == "Interrupted", str(b)[:300])
try:
    code = s.p.wait(timeout=TIMEOUT)
except subprocess.TimeoutExpired:
    s.p.kill()
    code = "hung"
check("Ctrl-C: exit 130", code == 130, str(code))

# A reader that goes away: the server stops, it does not hang.
p = subprocess.Popen([ALEA, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     cwd=ROOT, env=environment())
p.stdout.close()
try:
    p.stdin.write(b'{"id": 1, "op": "roll", "expr": "d6"}\n' * 1000)
    p.stdin.close()
except BrokenPipeError:
    pass
try:
    code = p.wait(timeout=TIMEOUT)
except subprocess.TimeoutExpired:
    p.kill()
    code = "hung"
check("standard output closed: alea serve ends with exit 1", code == 1, str(code))

finish("test_serve")
