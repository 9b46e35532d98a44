#!/usr/bin/env bash
# Types and lint: mypy --strict on the package, stubtest on the extension
# modules' stubs, ruff's lint and format checks.
#
# Run from the repository root, with bgcore installed (built) in the active
# environment and the `lint` extra's tools there too:
#     pip install -e ".[lint]" && bash .ci/types.sh
set -euo pipefail

# Work from the repository root, wherever this script is called from.
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== mypy --strict (files and settings: pyproject.toml [tool.mypy])"
mypy --strict

echo "== stubs: every extension module has one (stubtest skips a module without)"
for pyx in src/bgcore/*.pyx; do
    [ -f "${pyx%.pyx}.pyi" ] || { echo "no stub ${pyx%.pyx}.pyi for $pyx" >&2; exit 1; }
done

echo "== stubtest"
python -m mypy.stubtest bgcore --allowlist stubtest-allowlist.txt

echo "== ruff check"
ruff check src tests bench

echo "== ruff format --check"
ruff format --check src tests bench
