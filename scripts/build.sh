#!/usr/bin/env bash
# Builds and installs assay into .venv with pip: the C++ library, the `assay` command-line tool and
# the Python package, all from one CMake build in build/ (so build/assay is the CLI too). Extra
# arguments go to pip (e.g. -v).
set -euo pipefail
cd "$(dirname "$0")/.."
.venv/bin/python -m pip install -q --no-build-isolation "$@" .
