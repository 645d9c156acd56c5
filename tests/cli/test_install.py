#!/usr/bin/env python3
"""tests/cli/test_install.py — `cmake --install` gives a program that finds its rulesets where it
was installed, and still does after the prefix is moved.

Installs the build tree that holds the alea under test into a temporary prefix, moves the
prefix, and runs the installed program: it lists the five shipped rulesets from
PREFIX/share/alea/rulesets, rolls like the program in the build tree, finds a user's ruleset
through $ALEA_PATH ahead of the shipped ones, and the docs the rulesets cite and the JSON schemas
(PREFIX/share/alea/schema) are installed. Then builds examples/01_roll.cpp against the installed
library, headers and package, with CMake (find_package(alea 0.2 CONFIG)) and with pkg-config, and
runs both; the same for the C API's examples/c/roll.c, built as C99; and a program that loads a
ruleset by name, which the library finds next to itself, or first in $ALEA_PATH.

Usage: test_install.py /path/to/build/cli/alea
"""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from clitest import ALEA, ROOT, check, environment, finish, run

build = Path(ALEA).resolve().parents[1]
tmp = Path(tempfile.mkdtemp(prefix="alea-install-"))
try:
    p = subprocess.run(["cmake", "--install", str(build), "--prefix", str(tmp / "a")],
                       capture_output=True, text=True, timeout=300)
    check("cmake --install", p.returncode == 0, p.stdout[-500:] + p.stderr[-500:])
    # A prefix that is moved (or copied to another machine) keeps working.
    (tmp / "a").rename(tmp / "b")
    prefix = tmp / "b"
    alea = prefix / "bin" / "alea"
    shipped = sorted(x.name for x in (ROOT / "rulesets").glob("*.yaml"))
    check("the shipped rulesets are installed",
          sorted(x.name for x in (prefix / "share" / "alea" / "rulesets").glob("*.yaml")) == shipped)
    schemas = sorted(x.name for x in (ROOT / "schema").glob("*.json"))
    check("the JSON schemas are installed", schemas != [] and
          sorted(x.name for x in (prefix / "share" / "alea" / "schema").glob("*.json")) == schemas,
          str(schemas))
    check("the games' docs are installed", all((prefix / "share" / "doc" / "alea" / "games" / f"{Path(n).stem}.md").is_file()
                                             for n in shipped))

    def installed(args, **env):
        q = subprocess.run([str(alea)] + args, capture_output=True, text=True, timeout=60, cwd=tmp,
                           env=environment(**env))
        return q.returncode, q.stdout, q.stderr

    rc, out, err = installed(["rulesets"])
    check("alea rulesets, installed", rc == 0, err)
    for name in shipped:  # shown relative to the working directory, the prefix's parent
        check(f"{name} is found where it was installed", f"file: b/share/alea/rulesets/{name}" in out, out[:600])
    words = ["roll", "heroes-mythos.check", "dice=3", "red=1", "--seed", "7"]
    rc, out, err = installed(words)
    want = run(words)
    check("the installed program rolls as the built one", rc == 0 and (rc, out) == want[:2], f"{out}{err} / {want}")
    # $ALEA_PATH comes before the shipped rulesets.
    extra = tmp / "mine"
    extra.mkdir()
    (extra / "heroes-mythos.yaml").write_text(
        "schema: 1\nname: heroes-mythos\ntitle: Mine\nsource: a test\nmechanics:\n"
        "  check:\n    doc: always 5\n    body: \"5\"\n    returns: {type: int, doc: five}\n")
    rc, out, err = installed(["roll", "heroes-mythos.check"], ALEA_PATH=str(extra))
    check("ALEA_PATH comes first", rc == 0 and out.strip().endswith("= 5"), out + err)

    # A C++ program built against the installed package, through CMake and through pkg-config:
    # examples/01_roll.cpp, whose output is known.
    expected = (ROOT / "examples" / "01_roll.expected").read_text()
    if "build-san" not in str(build):  # the sanitizer tree installs no library
        consumer = tmp / "consumer"
        q = subprocess.run(["cmake", "-S", str(ROOT / "examples" / "consumer"), "-B", str(consumer),
                            f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"],
                           capture_output=True, text=True, timeout=300, env=environment())
        if q.returncode == 0:
            q = subprocess.run(["cmake", "--build", str(consumer)], capture_output=True, text=True, timeout=600)
        check("find_package(alea 0.2 CONFIG) builds a program", q.returncode == 0, q.stdout[-1500:] + q.stderr[-1500:])
        if (consumer / "roll").is_file():
            q = subprocess.run([str(consumer / "roll")], capture_output=True, text=True, timeout=60)
            check("the program built with CMake runs", q.returncode == 0 and q.stdout == expected, q.stdout + q.stderr)
        # The library finds the rulesets installed with it, by name; $ALEA_PATH comes first.
        if (consumer / "by_name").is_file():
            q = subprocess.run([str(consumer / "by_name")], capture_output=True, text=True, timeout=60, env=environment())
            check("the library finds its shipped rulesets by name",
                  q.returncode == 0 and q.stdout.startswith(f"{prefix}/share/alea/rulesets/heroes-mythos.yaml\n")
                  and "heroes_mythos.check(3, red: 1) = {result: " in q.stdout, q.stdout + q.stderr)
            q = subprocess.run([str(consumer / "by_name")], capture_output=True, text=True, timeout=60,
                               env=environment(ALEA_PATH=str(extra)))
            # (whose check takes no dice, so the roll with arguments is refused)
            check("the library looks in ALEA_PATH first", q.stdout.startswith(f"{extra}/heroes-mythos.yaml\n"),
                  q.stdout + q.stderr)
        # The C example, built as C99 against the installed library; it finds the rulesets itself.
        c_expected = (ROOT / "examples" / "c" / "roll.expected").read_text()
        if (consumer / "c_roll").is_file():
            q = subprocess.run([str(consumer / "c_roll")], capture_output=True, text=True, timeout=60, env=environment())
            check("the C program built with CMake runs", q.returncode == 0 and q.stdout == c_expected, q.stdout + q.stderr)
        else:
            check("the C program built with CMake", False, "no c_roll")
        pc = subprocess.run(["pkg-config", "--cflags", "--libs", "alea"], capture_output=True, text=True,
                            env=environment(PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig")))
        check("pkg-config alea", pc.returncode == 0 and "/include/alea" in pc.stdout and "-lalea" in pc.stdout,
              pc.stdout + pc.stderr)
        q = subprocess.run(["c++", "-std=c++20", "-O1", str(ROOT / "examples" / "01_roll.cpp"), "-o", str(tmp / "roll-pc")]
                           + pc.stdout.split() + [f"-Wl,-rpath,{prefix}/lib"],
                           capture_output=True, text=True, timeout=600)
        check("pkg-config builds a program", q.returncode == 0, q.stderr[-1500:])
        if (tmp / "roll-pc").is_file():
            q = subprocess.run([str(tmp / "roll-pc")], capture_output=True, text=True, timeout=60)
            check("the program built with pkg-config runs", q.returncode == 0 and q.stdout == expected,
                  q.stdout + q.stderr)
        q = subprocess.run(["cc", "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", str(ROOT / "examples" / "c" / "roll.c"),
                            "-o", str(tmp / "c-roll-pc")] + pc.stdout.split() + [f"-Wl,-rpath,{prefix}/lib"],
                           capture_output=True, text=True, timeout=600)
        check("pkg-config builds a C99 program", q.returncode == 0, q.stderr[-1500:])
        if (tmp / "c-roll-pc").is_file():
            q = subprocess.run([str(tmp / "c-roll-pc")], capture_output=True, text=True, timeout=60, env=environment())
            check("the C program built with pkg-config runs", q.returncode == 0 and q.stdout == c_expected,
                  q.stdout + q.stderr)
        check("the C header is installed", (prefix / "include" / "alea" / "alea.h").is_file())
finally:
    shutil.rmtree(tmp, ignore_errors=True)

finish("test_install")
