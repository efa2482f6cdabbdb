#!/usr/bin/env bash
# Everything a fresh machine needs: the Debian packages and .venv (scripts/install-deps.sh), then
# the build (scripts/build.sh). Afterwards .venv/bin/assay is the CLI and .venv/bin/python has
# `import assay`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
