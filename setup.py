"""Builds the extension module alea._alea with CMake, for pip (pyproject.toml, docs/python.md).

The module is the CMake target alea_python (python/CMakeLists.txt). It is built in a build tree
of its own under setuptools' build directory, configured with only what the module needs; or,
when ALEA_CMAKE_BUILD_DIR names a tree CMake has already configured (the test suite's build/),
in that tree, where it is usually built already: nothing is compiled twice. The module and the
shipped rulesets (rulesets/*.yaml, loaded by name) are then copied into the package.
"""

import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        tree = os.environ.get("ALEA_CMAKE_BUILD_DIR")
        if tree:
            tree = os.path.abspath(tree)
            if not os.path.isfile(os.path.join(tree, "CMakeCache.txt")):
                raise RuntimeError(f"ALEA_CMAKE_BUILD_DIR={tree} is not a configured CMake build tree")
        else:
            tree = os.path.abspath(os.path.join(self.build_temp, "cmake"))
            subprocess.check_call([
                "cmake", "-S", ROOT, "-B", tree, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG", "-DALEA_BUILD_TESTS=OFF", "-DALEA_BUILD_EXAMPLES=OFF",
                "-DALEA_BUILD_PYTHON=ON", f"-DPython_EXECUTABLE={sys.executable}",
            ])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.check_call(["cmake", "--build", tree, "--target", "alea_python", "--", f"-j{jobs}"])
        built = glob.glob(os.path.join(tree, "python", "alea", "_alea*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one module _alea*.so in {tree}/python/alea, found {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)
        # The build tree's module carries line tables (-g1) for stack traces; the installed one
        # need not, and is then a tenth of the size.
        if shutil.which("strip"):
            subprocess.check_call(["strip", "--strip-debug", target])
        rulesets = os.path.join(os.path.dirname(target), "rulesets")
        os.makedirs(rulesets, exist_ok=True)
        for f in glob.glob(os.path.join(ROOT, "rulesets", "*.yaml")):
            shutil.copyfile(f, os.path.join(rulesets, os.path.basename(f)))


setup(
    ext_modules=[Extension("alea._alea", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # setuptools' own build directory, away from CMake's build/ (scripts/setup.sh's tree).
    options={"build": {"build_base": "build-python"}, "egg_info": {"egg_base": "build-python"}},
)
