#!/usr/bin/env bash
# Builds and runs tests/consumer against assay in one of three ways:
#   run.sh find_package BUILD_DIR   (installs BUILD_DIR to a temporary prefix first)
#   run.sh add_subdirectory
#   run.sh fetchcontent             (clones the committed HEAD of this repository)
set -euo pipefail
mode=$1
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DASSAY_CONSUME="$mode")
case "$mode" in
  find_package)
    cmake --install "$2" --prefix "$work/prefix" >/dev/null
    test -f "$work/prefix/lib/pkgconfig/assay.pc" || { echo "no pkg-config file installed"; exit 1; }
    test -x "$work/prefix/bin/assay" || { echo "no CLI installed"; exit 1; }
    # Internal headers (detail/) are not public API: not installed, and no installed header needs them.
    if find "$work/prefix/include/assay" -type d -name detail | grep -q .; then
      echo "internal headers installed: $(find "$work/prefix/include/assay" -type d -name detail)"; exit 1
    fi
    if grep -rn '#include "assay/\(.*/\)\{0,1\}detail/' "$work/prefix/include/assay"; then
      echo "an installed header includes an internal (detail/) header"; exit 1
    fi
    # The scikit-learn drop-in's public headers are in their own folder, its numpy summation is internal.
    for h in sklearn/ranking.hpp sklearn/label_codes.hpp sklearn/record_codes.hpp; do
      test -f "$work/prefix/include/assay/$h" || { echo "assay/$h not installed"; exit 1; }
    done
    for h in sklearn/detail/numpy_sum.hpp detail/numpy_sum.hpp curves/sklearn_compat.hpp metrics/label_codes.hpp metrics/record_codes.hpp; do
      test ! -e "$work/prefix/include/assay/$h" || { echo "assay/$h installed"; exit 1; }
    done
    args+=(-DCMAKE_PREFIX_PATH="$work/prefix") ;;
  add_subdirectory) args+=(-DASSAY_SOURCE="$src") ;;
  fetchcontent)
    git -C "$src" rev-parse HEAD >/dev/null 2>&1 || { echo "fetchcontent: $src is not a git checkout"; exit 77; }
    args+=(-DASSAY_SOURCE="$src" -DASSAY_GIT_REF="$(git -C "$src" rev-parse HEAD)") ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
cmake -S "$here" -B "$work/build" "${args[@]}" >/dev/null
cmake --build "$work/build" -j "$(nproc)" >/dev/null
"$work/build/consumer"
