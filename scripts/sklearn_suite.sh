#!/usr/bin/env bash
# Runs the installed (pinned) scikit-learn's own metrics tests twice: as shipped, and with every
# sklearn.metrics object that assay.metrics defines replaced by assay's in the test modules
# (python/tests/sklearn_suite/assay_swap.py). Fails when a test that passes for scikit-learn does
# not pass for assay, unless python/tests/sklearn_suite/known_differences.txt lists it with its
# reason (and when an entry of that list is no longer a difference). See docs/sklearn-compatibility.md.
#
#   scripts/sklearn_suite.sh          # the test modules that name an object assay replaces
#   scripts/sklearn_suite.sh --all    # every test module of the three packages
#
# PYTHON picks the interpreter (default .venv/bin/python); PYTHONPATH is kept, so a source tree
# can be tested with PYTHONPATH=python (with the compiled assay/_core*.so beside it).
# ASSAY_SKLEARN_SUITE_DIR=dir keeps both runs' logs and JUnit XML reports in dir.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
python=${PYTHON:-$root/.venv/bin/python}
suite=$root/python/tests/sklearn_suite

tests=(sklearn.metrics.tests sklearn.metrics.cluster.tests sklearn.metrics._plot.tests)
select=()
if [[ "${1:-}" == --all ]]; then
  select=(--assay-all-modules)
fi
# The directory that holds the sklearn package: as the rootdir, it makes the test ids
# sklearn/metrics/tests/test_common.py::... (two test_common modules would collide otherwise).
site=$("$python" -c 'import os, sklearn; print(os.path.dirname(sklearn.__path__[0]))')

if [[ -n "${ASSAY_SKLEARN_SUITE_DIR:-}" ]]; then  # keep the logs and JUnit XML reports there
  out=$ASSAY_SKLEARN_SUITE_DIR
  mkdir -p "$out"
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi

run() {  # run NAME [pytest options...]: the JUnit XML in $out/NAME.xml; exit codes 0 and 1 are results
  local name=$1 rc=0 start
  shift
  start=$(date +%s)
  # From an empty directory with our own ini file: neither this repository's pytest settings nor a
  # conftest.py of ours applies, and the rootdir is the same for both runs.
  (cd "$out" && PYTHONPATH="$suite${PYTHONPATH:+:$PYTHONPATH}" "$python" -m pytest -c "$suite/pytest.ini" \
     --rootdir="$site" -p no:cacheprovider -q --tb=no --no-header -o console_output_style=classic \
     -p assay_swap "${select[@]}" "$@" \
     --junitxml="$out/$name.xml" --pyargs "${tests[@]}" >"$out/$name.log" 2>&1) || rc=$?
  tail -n 1 "$out/$name.log"
  echo "($name: $(($(date +%s) - start)) s, pytest exit code $rc)"
  case $rc in
    0|1) ;;
    5) echo "no tests collected: are scikit-learn's test packages installed, and does assay.metrics replace anything?" >&2
       cat "$out/$name.log" >&2; exit 1 ;;
    *) cat "$out/$name.log" >&2; exit 1 ;;
  esac
}

"$python" -c 'import sklearn; print("scikit-learn", sklearn.__version__, "from", sklearn.__path__[0])'
# Both runs load the plugin, which picks the same tests in both; the first leaves scikit-learn's
# objects in place.
echo "== scikit-learn's metrics tests, as shipped"
run shipped --assay-swap=off
echo "== the same tests with assay's functions"
run assay
"$python" "$suite/compare.py" "$out/shipped.xml" "$out/assay.xml" "$suite/known_differences.txt"
