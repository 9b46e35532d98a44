#!/usr/bin/env python3
"""Print the requirements of pyproject.toml's optional-dependency groups, one a line.

    python .ci/extra-requirements.py ci [test ...] > requirements.txt

The .ci/ scripts install their tools (the `ci` extra) this way, so that pyproject.toml
stays the one list of them, without `pip install ".[ci]"` building bgcore itself just
to get at its extras. Markers are printed as written; pip evaluates them.
"""

from __future__ import annotations

import re
import sys
import tomllib  # Python >= 3.11, as on CI; fails loudly on older interpreters
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def main(extras: list[str]) -> int:
    if not extras:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    with PYPROJECT.open("rb") as f:
        groups = tomllib.load(f)["project"]["optional-dependencies"]
    for extra in extras:
        if extra not in groups:
            print(f"no extra {extra!r} in {PYPROJECT} (have: {', '.join(groups)})", file=sys.stderr)
            return 1
        for requirement in groups[extra]:
            if re.sub(r"[-_.]+", "-", requirement.split("[")[0].strip().lower()) == "bgcore-engine":
                # pip cannot take "bgcore-engine[x]" from a file without the project; not supported.
                print(f"extra {extra!r} refers to bgcore itself: {requirement!r}", file=sys.stderr)
                return 1
            print(requirement)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
