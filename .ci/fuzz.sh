#!/usr/bin/env bash
# Fuzz bgcore's parsers and entry points for a short while under ASan+UBSan, and fail
# on any finding: every harness of tests/fuzz/ (atheris, coverage-guided) in turn,
# two at a time, BGCORE_FUZZ_SECONDS each (default 10: about a minute in all).
#
# Usage: bash .ci/fuzz.sh [--keep] [--built VENV]
#   --keep        leave the sanitized build in place (as .ci/sanitize.sh --keep)
#   --built VENV  fuzz in VENV, which already holds this checkout's sanitized build
#                 (.ci/run: its sanitizer suite built it just before), adding the fuzz
#                 extra; no venv and no build of its own
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
venv="$CI_WORK/fuzz-venv"
if [ "${1:-}" = --keep ]; then keep=(--keep); shift; fi
if [ "${1:-}" = --built ]; then
    [ -n "${2:-}" ] || die "--built needs the venv that holds the sanitized build"
    keep=(--built); venv="$(cd "$2" && pwd)"; shift 2
fi
python="${PYTHON:-python3}"
start=$SECONDS

step "fuzz venv $venv"
if [ "${keep[*]}" != --built ]; then
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --upgrade pip
fi
"$venv/bin/python" -m pip install --quiet -r <("$venv/bin/python" "$CI_ROOT/.ci/extra-requirements.py" fuzz) \
    || die "could not install the fuzz extra (atheris)"

export BGCORE_FUZZ_SECONDS="${BGCORE_FUZZ_SECONDS:-10}"
export BGCORE_FUZZ_JOBS="${BGCORE_FUZZ_JOBS:-2}"
export BGCORE_FUZZ_WORK="${BGCORE_FUZZ_WORK:-$CI_WORK/fuzz}"
# -rP: each harness's closing line (runs, exit code) in the summary, as it passed.
bash "$CI_ROOT/.ci/sanitize.sh" "${keep[@]}" "$venv" -- -rP tests/fuzz/campaign.py \
    || die "fuzzing found something (above), or the sanitized build failed"
echo "OK: fuzzing found nothing in $((SECONDS - start)) s (${BGCORE_FUZZ_SECONDS} s per harness)"
