#!/usr/bin/env bash
# Build what users get and test it the way they get it:
#   1. a wheel (pip wheel --no-deps), checked by auditwheel (must be manylinux-eligible)
#      and twine; an sdist, checked by twine; both must ship LICENSE;
#   2. a FRESH venv with only that wheel and the test extra's dependencies installed;
#   3. the test suite but its slow cross-checks (-m "not slow") run against that install
#      from a directory outside the checkout, with the same pytest command cibuildwheel
#      uses ([tool.cibuildwheel] test-command),
#      and a plugin (.ci/installed_check.py) that fails the run unless bgcore was
#      imported from the fresh venv's site-packages.
# Usage: bash .ci/wheel.sh   (PYTHON=... picks the interpreter; default python3)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CI_ROOT"
PYTHON="${PYTHON:-python3}"
start=$SECONDS

step "tools venv"
ci_tools_venv

step "build the wheel"
# A stale build/lib* or build/temp* from another build (a sanitized one, say) could be
# reused by setuptools as "up to date": start clean. dist/ may hold older versions.
rm -rf build/lib.* build/temp.* build/bdist.*
rm -f dist/bgcore_engine-*.whl dist/bgcore_engine-*.tar.gz
"$CI_TOOLS/python" -m pip wheel --no-deps -w dist .
shopt -s nullglob
wheels=(dist/bgcore_engine-*.whl)
[ "${#wheels[@]}" -eq 1 ] || die "expected one wheel in dist/, found ${#wheels[@]}: ${wheels[*]}"
wheel="$CI_ROOT/${wheels[0]}"
echo "wheel: $wheel"

step "auditwheel show"
# auditwheel wraps its text, so join the lines before looking for the tag. A wheel that
# links a non-manylinux library, or uses too-new symbols, gets a linux_* tag (or none).
audit="$("$CI_TOOLS/auditwheel" show "$wheel" 2>&1)" || { echo "$audit"; die "auditwheel show failed"; }
echo "$audit"
audit_flat="$(tr -s '[:space:]' ' ' <<<"$audit")"
tag="$(sed -nE 's/.*is consistent with the following platform tag: "([^"]+)".*/\1/p' <<<"$audit_flat")"
case "$tag" in
    manylinux_*) echo "OK: auditwheel: eligible for $tag" ;;
    "") die "auditwheel show printed no platform tag (output above)" ;;
    *) die "auditwheel: the wheel is only consistent with '$tag', not a manylinux tag" ;;
esac

step "build the sdist"
"$CI_TOOLS/python" -m build --sdist --outdir dist .
sdists=(dist/bgcore_engine-*.tar.gz)
[ "${#sdists[@]}" -eq 1 ] || die "expected one sdist in dist/, found ${#sdists[@]}"
sdist="$CI_ROOT/${sdists[0]}"

step "twine check (wheel and sdist)"
"$CI_TOOLS/twine" check --strict "$wheel" "$sdist" || die "twine check failed"

step "LICENSE shipped in both"
# The declared licence (License-Expression: MIT) must come with its text.
"$CI_TOOLS/python" - "$wheel" "$sdist" <<'PY' || die "LICENSE missing from a distribution"
import sys, tarfile, zipfile
wheel, sdist = sys.argv[1:]
in_wheel = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".dist-info/licenses/LICENSE")]
in_sdist = [n for n in tarfile.open(sdist).getnames() if n.count("/") == 1 and n.endswith("/LICENSE")]
print("wheel:", in_wheel, "\nsdist:", in_sdist)
sys.exit(0 if in_wheel and in_sdist else 1)
PY

step "fresh venv with the wheel and the test extra"
venv="$CI_WORK/wheel-test-venv"
rm -rf "$venv"
"$PYTHON" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
# The wheel file itself, with its [test] extra: the source tree is never installed here.
"$venv/bin/python" -m pip install "${wheel}[test]"
site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')"

# gnubg has wheels on x86_64 Linux for CPython < 3.14 (see the test extra): there a
# missing oracle is a failure, not a skip. The caller may set it either way.
if [ -z "${BGCORE_REQUIRE_ORACLE+set}" ] && [ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ] \
    && "$venv/bin/python" -c 'import sys; sys.exit(sys.version_info >= (3, 14))'; then
    export BGCORE_REQUIRE_ORACLE=1
fi
echo "BGCORE_REQUIRE_ORACLE=${BGCORE_REQUIRE_ORACLE-<unset>}"

step "test suite against the installed wheel"
# An empty directory outside the checkout: neither it nor src/ is on sys.path.
testdir="$CI_WORK/wheel-test-cwd"
rm -rf "$testdir" && mkdir -p "$testdir"
# cibuildwheel's own test command from pyproject.toml, {project} -> this checkout.
mapfile -d '' test_cmd < <("$CI_TOOLS/python" - "$CI_ROOT" <<'PY'
import shlex, sys, tomllib
root = sys.argv[1]
with open(f"{root}/pyproject.toml", "rb") as f:
    command = tomllib.load(f)["tool"]["cibuildwheel"]["test-command"]
sys.stdout.write("\0".join(shlex.split(command.replace("{project}", root))) + "\0")
PY
)
[ "${#test_cmd[@]}" -gt 0 ] && [ "${test_cmd[0]}" = python ] \
    || die "unexpected [tool.cibuildwheel] test-command: ${test_cmd[*]}"
echo "from $testdir: ${test_cmd[*]} -p installed_check"
rc=0
(
    cd "$testdir"
    # python is the fresh venv's; PYTHONPATH holds only .ci/ (for the check plugin).
    export PATH="$venv/bin:$PATH" VIRTUAL_ENV="$venv" PYTHONPATH="$CI_ROOT/.ci" BGCORE_EXPECT_PREFIX="$site"
    python -c 'import bgcore, sys; print("bgcore.__file__ =", bgcore.__file__); print("sys.path =", sys.path)'
    "${test_cmd[@]}" -p installed_check
) || rc=$?
[ "$rc" -ne 5 ] || die "pytest collected no tests against the installed wheel"
[ "$rc" -eq 0 ] || die "the test suite failed against the installed wheel (pytest exit code $rc)"

echo
echo "OK: wheel.sh passed in $((SECONDS - start)) s ($wheel, $tag)"
