# scripts/setup.sh — shared by scripts/alea and scripts/test: installs the Debian
# packages the build needs (only those missing), then configures and builds.
# Sourced, not run. Progress goes to stderr so that stdout stays the program's.

ALEA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Installed without what they only recommend (below), so two packages that came only with
# recommendations are named: make, the generator of the CMake project that test_install builds
# against the installed library, and llvm, whose llvm-symbolizer (on PATH, where the sanitizers
# look for it) names the frames of a sanitizer's report.
ALEA_PACKAGES=(cmake make ninja-build g++ clang llvm libclang-rt-14-dev lld tao-pegtl-dev libfmt-dev
  libyaml-cpp-dev libgtest-dev libgmock-dev libcli11-dev libedit-dev nlohmann-json3-dev
  libbenchmark-dev libpcg-cpp-dev libgmp-dev pkgconf python3 python3-jsonschema
  python3-dev pybind11-dev python3-pybind11 python3-pytest python3-pip python3-setuptools python3-wheel
  python3-venv)

alea_log() { printf 'alea-setup: %s\n' "$*" >&2; }

# The packages of the browser test of the charts (tests/cli/test_charts_browser.py): Debian's
# Chromium, Pillow to read its screenshots, and the font the charts are drawn in. Only scripts/test
# installs them, in the background while it builds.
ALEA_BROWSER_PACKAGES=(chromium python3-pil fonts-dejavu-core)

# alea_install_packages [PACKAGE...]: installs those missing of the given packages (default: the
# build's, ALEA_PACKAGES), without what they only recommend: for chromium 24 packages, not 113;
# for the build's, from an empty system, 206 packages and 212 MB to download, not 326 and 301 MB
# (llvm-14-dev, libz3-dev, numpy and image libraries among them, none of which the build uses).
# The package lists are updated once per shell and its children.
alea_install_packages() {
  local missing=() wanted=("$@")
  [ ${#wanted[@]} -eq 0 ] && wanted=("${ALEA_PACKAGES[@]}")
  for p in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  alea_log "installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  if [ -z "${ALEA_APT_UPDATED:-}" ]; then
    $sudo apt-get update -qq >&2 || return 1
    export ALEA_APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || return 1
}

# Build flags of the two trees scripts/test builds. The plain tree, build/ (g++), is also the one
# scripts/alea runs from: -O2, without debug information. A stack trace or a profile still names
# each function (the symbols stay); file and line need line tables, which took 8 % of the tree's
# compile time (-g1: a command-line batch 43 s against 39 s), full debug information (-g) about
# 30 % (dsl/parser.cpp: 42 s against 25 s). For them, configure a tree of your own with
# -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O2 -g1 -DNDEBUG'; a debugger's build is -DCMAKE_BUILD_TYPE=Debug.
# Both trees are unity builds: CMake compiles each library's sources in batches of sixteen, one
# compiler run per batch, which parses the shared headers and instantiates their templates once
# a batch, not once a file. In batches of eight the plain tree built in 221 s against 305 s file
# by file, the sanitizer tree in 40 % less time; sixteen took 11-14 % less compiler time again
# (the command-line library under ASan: 225 s against 252 s; two batches of the interpreter:
# 110 s against 129 s). The test files are batched too (tests/CMakeLists.txt).
ALEA_UNITY_ARGS=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16)
ALEA_PLAIN_ARGS=(-DALEA_BUILD_TESTS=ON "${ALEA_UNITY_ARGS[@]}" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG")
# The sanitizer tree, build-san/ (clang, ASan+UBSan), where scripts/test runs the tests and
# replays the fuzz corpus, is built at -O1, as ASan advises, and without debug information: its
# reports name each frame's function (UBSan's also give file, line and column), and the line
# tables took 8-12% of its compile time. It has no examples: they are built and run in the plain
# tree. It is not built for libFuzzer: the coverage instrumentation that fuzzing needs took 11-13%
# of its compile time, and the suite only replays inputs.
# Each names both sanitizer options: a tree configured before keeps the options it is not given.
ALEA_CLANG_ARGS=(-DALEA_BUILD_EXAMPLES=OFF "${ALEA_UNITY_ARGS[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo)
ALEA_SAN_ARGS=(-DALEA_SANITIZE=ON -DALEA_FUZZ=OFF -DALEA_BUILD_TESTS=ON "${ALEA_CLANG_ARGS[@]}"
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g0 -DNDEBUG")
# The fuzzing tree, build-fuzz/ (scripts/fuzz): the same with libFuzzer's coverage
# instrumentation and line tables, so that a finding's stack gives file and line; no tests.
ALEA_FUZZ_ARGS=(-DALEA_FUZZ=ON -DALEA_SANITIZE=OFF -DALEA_BUILD_TESTS=OFF "${ALEA_CLANG_ARGS[@]}"
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG")

# alea_build_san TARGET: builds TARGET in the sanitizer tree, build-san/.
alea_build_san() {
  CC=clang CXX=clang++ alea_build "$ALEA_ROOT/build-san" "$1" "${ALEA_SAN_ARGS[@]}"
}
# alea_build_fuzz TARGET: builds TARGET in the fuzzing tree, build-fuzz/.
alea_build_fuzz() {
  CC=clang CXX=clang++ alea_build "$ALEA_ROOT/build-fuzz" "$1" "${ALEA_FUZZ_ARGS[@]}"
}

# alea_build DIR TARGET [cmake args...]: configures DIR (again when the arguments change), then
# builds TARGET incrementally. The first build shows its progress; later ones stay quiet unless
# they fail.
alea_build() {
  local dir="$1" target="$2"; shift 2
  local args="$*"
  if [ ! -f "$dir/CMakeCache.txt" ] || [ "$(cat "$dir/.alea-cmake-args" 2>/dev/null)" != "$args" ]; then
    [ -f "$dir/CMakeCache.txt" ] || alea_log "configuring and building $dir (the first build takes a few minutes)"
    cmake -S "$ALEA_ROOT" -B "$dir" -G Ninja "$@" >&2 || return 1
    printf '%s' "$args" >"$dir/.alea-cmake-args"
    cmake --build "$dir" --target "$target" -- -j"$(nproc)" >&2 || return 1
    return 0
  fi
  local log
  log="$(mktemp)"
  if ! cmake --build "$dir" --target "$target" -- -j"$(nproc)" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

# alea_fuzz NAME ARTIFACTS LIBFUZZER-FLAGS...: runs build-fuzz's fuzz_NAME on a copy of
# fuzz/corpus/NAME and fuzz/regressions/NAME (libFuzzer writes new inputs into its corpus, and
# the repository's must not change), with the harness's dictionary. A crash, leak, timeout or
# trap is written to ARTIFACTS/NAME-…; the log's last lines go to stderr. Returns its status.
alea_fuzz() {
  local name="$1" artifacts="$2" work rc=0
  shift 2
  work="$(mktemp -d)"
  mkdir -p "$work/corpus" "$artifacts"
  cp "$ALEA_ROOT/fuzz/corpus/$name/"* "$ALEA_ROOT/fuzz/regressions/$name/"* "$work/corpus/" 2>/dev/null || true
  # Every harness reads the language's tokens (fuzz/dsl.dict); a harness with a dictionary of its
  # own adds it (fuzz/ruleset.dict: YAML's tokens, anchors and aliases).
  cat "$ALEA_ROOT/fuzz/dsl.dict" >"$work/dict"
  [ -f "$ALEA_ROOT/fuzz/$name.dict" ] && cat "$ALEA_ROOT/fuzz/$name.dict" >>"$work/dict"
  "$ALEA_ROOT/build-fuzz/fuzz/fuzz_$name" -dict="$work/dict" -rss_limit_mb=2048 \
    -artifact_prefix="$artifacts/$name-" -print_final_stats=1 "$@" "$work/corpus" >"$work/log" 2>&1 || rc=$?
  grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$work/log" |
    sed "s/^/fuzz_$name: /" >&2 || true
  if [ $rc -ne 0 ]; then
    tail -n 60 "$work/log" >&2
    alea_log "fuzz_$name failed: the input is in $artifacts/; minimise it and add it to fuzz/regressions/$name/ (fuzz/README.md)"
  fi
  rm -rf "$work"
  return $rc
}
