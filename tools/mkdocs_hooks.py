"""mkdocs hooks (``hooks:`` in mkdocs.yml): the pictures the documentation build draws.

The training guide's learning curve (``docs/guides/train-curve.png``) is drawn by
``tools/plot_train.py`` from the run's data (``docs/guides/train-curve.json``) at every
build, so the picture always shows the committed data. It is redrawn only when the data
or the script is newer than the picture, so that ``mkdocs serve`` does not rebuild in a loop.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

TOOLS = Path(__file__).resolve().parent


def on_pre_build(config: Any, **kwargs: Any) -> None:
    docs = Path(config["docs_dir"])
    data, picture = docs / "guides" / "train-curve.json", docs / "guides" / "train-curve.png"
    script = TOOLS / "plot_train.py"
    if picture.exists() and picture.stat().st_mtime >= max(data.stat().st_mtime, script.stat().st_mtime):
        return
    sys.path.insert(0, str(TOOLS))
    try:
        import plot_train
    finally:
        sys.path.remove(str(TOOLS))
    if plot_train.main([str(data), str(picture)]) != 0:
        raise RuntimeError(f"tools/plot_train.py could not draw {picture}")
