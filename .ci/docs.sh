#!/usr/bin/env bash
# The documentation site: install the `docs` extra, build mkdocs.yml strictly (a broken
# link, a missing page or an unresolved reference fails) into a temporary directory, and
# check that every API page has the objects its module documents.
#
# Run from anywhere, with bgcore installed (built) in the active environment, as
# .ci/run does after the types check:
#     pip install -e ".[test]" && bash .ci/docs.sh
# The site's code examples are doctests of the test suite (pytest collects docs/*.md).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CI_ROOT"

step "docs extra"
python -m pip install --quiet -r <(python .ci/extra-requirements.py docs) \
    || die "could not install the docs extra of pyproject.toml"
python -m mkdocs --version
# mkdocstrings reads the sources under src/ and inspects the extension modules (Dice):
# bgcore must be built.
python -c "import bgcore.dice, bgcore.movegen" || die "bgcore is not built: pip install -e . first"

site="$(mktemp -d)"
trap 'rm -rf "$site"' EXIT

step "mkdocs build --strict"
start=$SECONDS
# NO_MKDOCS_2_WARNING: Material's banner about MkDocs 2, not a warning about this site.
NO_MKDOCS_2_WARNING=1 python -m mkdocs build --strict --config-file mkdocs.yml --site-dir "$site" \
    || die "mkdocs build --strict failed (see the warnings above)"
echo "built in $((SECONDS - start)) s"

step "API pages are not empty"
shopt -s nullglob
pages=(docs/api/*.md)
[ "${#pages[@]}" -gt 0 ] || die "no API pages in docs/api"
checked=0
for page in "${pages[@]}"; do
    grep -q '^:::' "$page" || continue
    checked=$((checked + 1))
    name="$(basename "$page" .md)"
    html="$site/api/$name/index.html"
    [ -f "$html" ] || die "$page was not built ($html missing)"
    # Each ::: block renders a heading; members add more.
    headings="$(grep -o 'class="doc doc-heading"' "$html" | wc -l)"
    [ "$headings" -ge 2 ] || die "$html documents $headings object(s): is its module's API missing?"
    echo "  api/$name: $headings headings"
done
echo "OK: the documentation builds strictly ($checked API pages)"
