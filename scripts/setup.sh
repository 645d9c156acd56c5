# scripts/setup.sh — shared by scripts/alea and scripts/test: installs the Debian
# packages the build needs (only those missing), then configures and builds.
# Sourced, not run. Progress goes to stderr so that stdout stays the program's.

ALEA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ALEA_PACKAGES=(cmake ninja-build g++ clang libclang-rt-14-dev tao-pegtl-dev libfmt-dev
  libyaml-cpp-dev libgtest-dev libgmock-dev libcli11-dev libedit-dev nlohmann-json3-dev
  libbenchmark-dev libpcg-cpp-dev libgmp-dev python3)

alea_log() { printf 'alea-setup: %s\n' "$*" >&2; }

alea_install_packages() {
  local missing=()
  for p in "${ALEA_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  alea_log "installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq >&2 || return 1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2 || return 1
}

# alea_build DIR TARGET [cmake args...]: configures DIR once, then builds TARGET incrementally.
# The first build shows its progress; later ones stay quiet unless they fail.
alea_build() {
  local dir="$1" target="$2"; shift 2
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    alea_log "configuring and building $dir (the first build takes a few minutes)"
    cmake -S "$ALEA_ROOT" -B "$dir" -G Ninja "$@" >&2 || return 1
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
