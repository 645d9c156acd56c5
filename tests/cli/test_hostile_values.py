"""tests/cli/test_hostile_values.py — hostile values, strings and builtin work (issue 17,
classes 1-3): each must end with a clear error naming its limit, or a value, under a memory
cap. A generous timeout only guards the machine; the checks are on the message and exit code.

    python3 tests/cli/test_hostile_values.py build/cli/alea
"""
import subprocess

from clitest import ALEA, ROOT, check, environment, finish, cap_address_space

MEMORY_CAP = 1 << 30  # 1 GB of address space: the fixed program needs a few hundred MB at most


def capped():
    cap_address_space(MEMORY_CAP)


def run_capped(args, stdin=None):
    p = subprocess.run([ALEA] + args, capture_output=True, text=True, timeout=120, cwd=ROOT,
                       env=environment(), input=stdin, preexec_fn=capped)
    return p.returncode, p.stdout, p.stderr


DOUBLING = "(loop x = {n: 0, v: 1} while x.n < 60 { {n: x.n + 1, v: [x.v, x.v]} }).v"
# The same value, built to 19 levels (524,288 leaves, under max_value_size), then used.
SHARED = "let v = (loop x = {n: 0, v: 1} while x.n < 19 { {n: x.n + 1, v: [x.v, x.v]} }).v in "

CASES = [
    ("doubling-value", ["roll", DOUBLING], "max_value_size"),
    ("doubling-value-json", ["roll", "--json", DOUBLING], "max_value_size"),
    ("doubling-equal", ["roll", f"let v = {DOUBLING} in v == v"], "max_value_size"),
    ("doubling-str", ["roll", f"let v = {DOUBLING} in str(v)"], "max_value_size"),
    ("shared-str", ["roll", SHARED + "len(str(v))"], "max_string_length"),
    # Two equal values that share nothing with each other: comparing them walks both.
    ("shared-equal-unshared", ["roll", SHARED + "let w = (loop x = {n: 0, v: 1} while x.n < 19 "
                               "{ {n: x.n + 1, v: [x.v, x.v]} }).v in len(repeat 40 { v == w })"], "max_steps"),
    ("shared-equal-itself", ["roll", SHARED + "v == v"], None),
    # 10,000 lists of 10,000 items: the value passes max_value_size long before the steps run out.
    ("nested-ranges", ["roll", "repeat 100 { repeat 10000 { range(1, 10000) } }"], "max_value_size"),
    ("string-doubling", ["roll", 'loop s = "a" while len(s) < 1000000000000 { str(s, s) }'],
     "max_string_length"),
    ("builtin-work", ["roll", "let l = range(1, 10000) in len(repeat 10000 { len(repeat 100 "
                      "{ len(sort(reverse(l))) }) })"], "max_steps"),
    ("many-small-rolls", ["roll", "sum(repeat 10000 { d6 })"], None),
]

for name, args, limit in CASES:
    try:
        rc, out, err = run_capped(args)
    except subprocess.TimeoutExpired:
        check(name, False, "did not end")
        continue
    if limit is None:
        check(f"{name} gives a value", rc == 0 and out.strip() != "", f"rc={rc} err={err[-300:]}")
        check(f"{name} prints in bounds", len(out) <= 4_100_000, f"{len(out)} bytes")
    else:
        check(f"{name} fails", rc == 1, f"rc={rc} out={out[-200:]} err={err[-300:]}")
        check(f"{name} names {limit}", f"({limit})" in err, err[-300:])
        check(f"{name} is one diagnostic", err.count("error:") == 1, err[-300:])

# A value under max_value_size that prints as more than max_render_size (524,288 strings of
# 12 bytes with their quotes): cut, with a marker.
WIDE = '(loop x = {n: 0, v: "abcdefghij"} while x.n < 19 { {n: x.n + 1, v: [x.v, x.v]} }).v'
rc, out, err = run_capped(["roll", WIDE])
check("large print ends", rc == 0, err[-300:])
check("large print is cut", len(out) <= 4_100_000, f"{len(out)} bytes")
check("large print says so", "left out" in out and "(max_render_size)" in out, out[-300:])
rc, out, err = run_capped(["roll", "--json", WIDE])
check("large JSON refused", '"SizeLimitExceeded"' in out and "max_render_size" in out, out[-300:])
check("large JSON refused: exit 1, one diagnostic", rc == 1 and err.count("error:") == 1
      and "(max_render_size)" in err, f"rc={rc} err={err[-300:]}")

# The refusal repeats the expression, which may be long: it is still a failure, not a roll.
LONG = 'let padding = "' + "x" * 4000 + '" in repeat 200 { 6d6 }'
rc, out, err = run_capped(["roll", "--json", "--seed", "1", "--limit", "max_render_size=3000", LONG])
check("long expression, JSON refused: exit 1, one diagnostic", rc == 1 and '"ok":false' in out
      and err.count("error:") == 1 and "(max_render_size)" in err, f"rc={rc} err={err[-300:]}")

# A breakdown of many rolls is cut too, saying how many lines were left out.
rc, out, err = run_capped(["roll", "repeat 10000 { note(\"x\", str(range(1, 300))) }"])
check("many notes end", rc in (0, 1), err[-300:])

# The REPL keeps at most max_session_size items: a definition past it is refused,
# the session goes on.
lines = "".join(f"let a{i} = range(1, 10000)\n" for i in range(600)) + "a1[5]\n:quit\n"
try:
    rc, out, err = run_capped(["repl"], stdin=lines)
    text = out + err
    check("repl session bound", "(max_session_size)" in text, text[-400:])
    check("repl goes on after the bound", "\n6\n" in out or out.rstrip().endswith("6"), out[-200:])
except subprocess.TimeoutExpired:
    check("repl session bound", False, "did not end")

finish("test_hostile_values")
