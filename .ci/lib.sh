# Shared helpers for the .ci/ scripts; sourced, not run: `source "$(dirname "$0")/lib.sh"`.
# Each script stays standalone: whatever it needs it sets up through these.

# The repository root, whatever directory a script is called from.
CI_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Scratch space for the scripts' venvs and temporary trees: build/ is git-ignored and
# is not packed into the sdist.
CI_WORK="$CI_ROOT/build/ci"

# Loud, greppable failure: the message goes to stderr and the script exits 1.
die() {
    echo "FAIL: $*" >&2
    exit 1
}

step() {
    echo
    echo "=== $* ==="
}

# ci_tools_venv: make (or reuse) a venv holding the `ci` extra of pyproject.toml
# (build, twine, auditwheel, check-jsonschema) and set CI_TOOLS to its bin/ directory.
# It is rebuilt whenever the extra's requirement list changes; bgcore itself is not
# installed there.
ci_tools_venv() {
    local python="${PYTHON:-python3}"
    local venv="$CI_WORK/tools"
    local reqs
    reqs="$("$python" "$CI_ROOT/.ci/extra-requirements.py" ci)" || die "could not read the ci extra from pyproject.toml"
    if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/ci-requirements.txt" 2>/dev/null)" != "$reqs" ]; then
        echo "creating the tools venv $venv"
        rm -rf "$venv"
        "$python" -m venv "$venv"
        "$venv/bin/python" -m pip install --quiet --upgrade pip
        printf '%s\n' "$reqs" > "$venv/ci-requirements.new"
        "$venv/bin/python" -m pip install --quiet -r "$venv/ci-requirements.new"
        mv "$venv/ci-requirements.new" "$venv/ci-requirements.txt"
    fi
    CI_TOOLS="$venv/bin"
}
