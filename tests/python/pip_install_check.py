"""The package as pip installs it (tests/CMakeLists.txt: python.pip_install).

    pip_install_check.py SOURCE_DIR BUILD_DIR

Makes a virtual environment with Debian's Python and its packages (--system-site-packages:
pip, setuptools, wheel), runs `pip install --no-build-isolation --no-index SOURCE_DIR` in it
offline, reusing the module already built in BUILD_DIR (ALEA_CMAKE_BUILD_DIR, setup.py), and then,
from a directory outside the source tree, rolls, calls a shipped ruleset's mechanic and checks
that the ruleset came from the installed package. Exits 0 when all of it works.
"""

import os
import subprocess
import sys
import tempfile
import time

SMOKE = r"""
import os, alea
package = os.path.dirname(alea.__file__)
assert "site-packages" in package, package
assert alea.roll("4d6kh3", dice=[4, 4, 6, 3]).value == 14
engine = alea.Engine()
engine.load_ruleset("heroes-mythos")
file = engine.describe("heroes-mythos")["file"]
assert file.startswith(os.path.join(package, "rulesets")), file
assert engine.call("heroes-mythos.check", dice=3, seed=1).value["outcome"]
print("installed alea", alea.__version__, "rolls, with its rulesets in", os.path.dirname(file))
"""


def main():
    source, build = (os.path.abspath(a) for a in sys.argv[1:3])
    with tempfile.TemporaryDirectory(prefix="alea-pip-") as work:
        venv = os.path.join(work, "venv")
        began = time.monotonic()
        # Debian's pip, seen through --system-site-packages, installs into the environment:
        # ensurepip's own copy would only add 5 s.
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv], check=True)
        python = os.path.join(venv, "bin", "python")
        env = dict(os.environ, ALEA_CMAKE_BUILD_DIR=build, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
                   PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTHONPATH", None)
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index", source],
                       check=True, env=env, cwd=work)
        installed = time.monotonic()
        run = subprocess.run([python, "-c", SMOKE], env=env, cwd=work, capture_output=True, text=True)
        sys.stdout.write(run.stdout)
        sys.stderr.write(run.stderr)
        if run.returncode != 0:
            print("pip_install_check: FAIL: the installed package does not work")
            return 1
        print(f"pip_install_check: ok (venv and pip install {installed - began:.1f} s)")
        return 0


if __name__ == "__main__":
    sys.exit(main())
