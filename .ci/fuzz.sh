#!/usr/bin/env bash
# Fuzz bgcore's parsers and entry points for a short while under ASan+UBSan, and fail
# on any finding: every harness of tests/fuzz/ (atheris, coverage-guided) in turn,
# two at a time, BGCORE_FUZZ_SECONDS each (default 10: about a minute in all).
#
# Usage: bash .ci/fuzz.sh [--keep]
#   --keep   leave the sanitized build in place (as .ci/sanitize.sh --keep): .ci/run
#            passes it because its sanitizer suite rebuilds right after.
#
# The venv is build/ci/fuzz-venv (made here, with the test and fuzz extras). The
# sanitized build, the preloaded runtimes and the sanitizer options are
# .ci/sanitize.sh's: it runs tests/fuzz/campaign.py, whose harness processes inherit
# its environment, and it fails on any sanitizer report they leave. The grown corpora
# and the findings (crash-*, timeout-*, oom-* inputs) go to build/ci/fuzz/; a finding
# is printed with its input and the command that replays it. docs/guides/fuzzing.md
# tells how to fuzz longer.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

keep=()
if [ "${1:-}" = --keep ]; then keep=(--keep); shift; fi
venv="$CI_WORK/fuzz-venv"
python="${PYTHON:-python3}"
start=$SECONDS

step "fuzz venv $venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -r <("$venv/bin/python" "$CI_ROOT/.ci/extra-requirements.py" fuzz) \
    || die "could not install the fuzz extra (atheris)"

export BGCORE_FUZZ_SECONDS="${BGCORE_FUZZ_SECONDS:-10}"
export BGCORE_FUZZ_JOBS="${BGCORE_FUZZ_JOBS:-2}"
export BGCORE_FUZZ_WORK="${BGCORE_FUZZ_WORK:-$CI_WORK/fuzz}"
# -rP: each harness's closing line (runs, exit code) in the summary, as it passed.
bash "$CI_ROOT/.ci/sanitize.sh" "${keep[@]}" "$venv" -- -rP tests/fuzz/campaign.py \
    || die "fuzzing found something (above), or the sanitized build failed"
echo "OK: fuzzing found nothing in $((SECONDS - start)) s (${BGCORE_FUZZ_SECONDS} s per harness)"
