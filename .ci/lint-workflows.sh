#!/usr/bin/env bash
# Validate every GitHub Actions workflow against the workflow JSON schema that
# check-jsonschema vendors (no network needed): a typo in a key or a wrong type
# fails here instead of silently disabling a job on GitHub.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CI_ROOT"

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
[ "${#workflows[@]}" -gt 0 ] || die "no workflow files in .github/workflows"

step "tools venv"
ci_tools_venv

step "check-jsonschema on ${#workflows[@]} workflow file(s)"
"$CI_TOOLS/check-jsonschema" --version
"$CI_TOOLS/check-jsonschema" --builtin-schema vendor.github-workflows "${workflows[@]}" \
    || die "workflow schema validation failed (see above)"
echo "OK: ${workflows[*]} valid"
