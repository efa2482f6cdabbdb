#!/usr/bin/env bash
# Installs what assay needs to build, test and benchmark: Debian packages (the C++ core's
# dependencies, the reference peers of the C++ tests) with apt-get, then a virtual environment .venv
# with the Python package's build tools and test peers, pinned in python/requirements.txt.
# Idempotent: packages already installed are skipped, and apt is not touched when nothing is missing.
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config ccache
  libboost-math-dev libcli11-dev libfmt-dev nlohmann-json3-dev libfast-float-dev libeigen3-dev libxgboost-dev libtbb-dev
  libgtest-dev libgmock-dev libbenchmark-dev time
  python3 python3-dev python3-venv python3-numpy python3-sklearn python3-scipy python3-pandas python3-statsmodels
  chromium  # headless browser for tests/html (the HTML report rendered, screenshotted, printed)
  r-base-core r-cran-proc  # pROC: tests/stats/generate_proc.R and bench/compare_proc.sh
  r-cran-caret  # caret: tests/report/generate_caret.R
  openjdk-17-jdk-headless  # Java for PySpark (python/tests/test_scale_spark.py, assay.spark on local[2,2]) and its
                           # compiler for assay.spark's JVM pass (python/assay/java/GroupRows.java)
  libopenmpi-dev openmpi-bin  # MPI: mpirun -n N assay report|cv (optional in the build; tests/mpi)
)
# Extra packages for the optional tool chains (fuzzing, sanitizers with clang).
if [[ "${ASSAY_WITH_FUZZ:-0}" == 1 ]]; then packages+=(clang libclang-rt-14-dev); fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} Debian packages already installed"
else
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The Python side: .venv at the repository root, made with the python3 on PATH (3.10 or newer; the
# C++ reference generators use Debian's /usr/bin/python3 and its python3-sklearn instead).
root="$(cd "$(dirname "$0")/.." && pwd)"
if [[ ! -x "$root/.venv/bin/python" ]]; then
  python3 -m venv "$root/.venv"
fi
stamp="$root/.venv/.assay-requirements"
if ! cmp -s "$root/python/requirements.txt" "$stamp"; then
  "$root/.venv/bin/python" -m pip install -q --upgrade pip
  "$root/.venv/bin/python" -m pip install -q -r "$root/python/requirements.txt"
  cp "$root/python/requirements.txt" "$stamp"
fi
echo "install-deps: .venv has $("$root/.venv/bin/python" --version) and python/requirements.txt"
