"""Convert wildbg's ONNX networks into the bgcore.nn.Network files that bgcore ships.

    python tools/convert_wildbg.py [SOURCE]      # SOURCE: default ../shared/nets/wildbg

SOURCE holds wildbg-training's race net 16 and contact net 17 (race.onnx,
contact.onnx) and their LICENSE (Creative Commons CC0 1.0).  The script checks
the files' sha256 against the ones recorded below (the published blobs of
carsten-wenderdel/wildbg-training, commit 33d8fc8f149333e9b2053905b2662a33d00c26fb:
data/0016/race.onnx and data/0017/contact.onnx), reads each with
``Network.from_onnx``, checks it against onnxruntime on the positions of a few
self-play games, and writes into src/bgcore/data/nets/:

- wildbg-contact.npz, wildbg-race.npz (``Network.save``);
- LICENSE-wildbg-nets (the licence, copied);
- PROVENANCE.md (where the files come from, their sha256 and the outputs').

Needs the ``nn`` extra (onnx, onnxruntime).
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import sys
from pathlib import Path

import numpy as np

from bgcore import nets, nn
from bgcore.selfplay import play

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "bgcore" / "data" / "nets"
COMMIT = "33d8fc8f149333e9b2053905b2662a33d00c26fb"
SOURCES = {
    # name: (the source's path in wildbg-training, its sha256, encoding)
    "contact": (
        "data/0017/contact.onnx",
        "cdb4763d4a1ba2967bcafe97799e6a7a89d3fb43f7f584dabd2a7602779e06f0",
        "wildbg_contact",
    ),
    "race": (
        "data/0016/race.onnx",
        "f16c0265c8d1097a6fcf7ec97b5e40c42857612c9d7019622476c1207c1c293b",
        "wildbg_race",
    ),
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", nargs="?", type=Path, default=ROOT.parent / "shared" / "nets" / "wildbg")
    args = parser.parse_args()
    rows = []
    for name, (origin, digest, encoding) in SOURCES.items():
        src = args.source / f"{name}.onnx"
        if sha256(src) != digest:
            print(f"{src}: sha256 {sha256(src)}, not the published {digest}", file=sys.stderr)
            return 1
        net = nn.Network.from_onnx(src, encoding=encoding)
        target = OUT / f"wildbg-{name}.npz"
        net.save(target)
        if nn.Network.load(target).sizes != net.sizes:
            print(f"{target}: does not read back", file=sys.stderr)
            return 1
        rows.append(f"| {target.name} | {origin} | {digest} | {sha256(target)} | {net.sizes} |")
    # The converted composite against onnxruntime on the original files.
    boards = play(40, "pubeval", seed=2024).boards
    native = nets.wildbg()(boards)
    reference = nets.wildbg(backend="onnxruntime", path=args.source)(boards)
    error = float(np.abs(native - reference).max())
    if error > 1e-5:
        print(f"the converted networks differ from onnxruntime by {error:.2e}", file=sys.stderr)
        return 1
    shutil.copyfile(args.source / "LICENSE", OUT / "LICENSE-wildbg-nets")
    (OUT / "PROVENANCE.md").write_text(
        f"""# wildbg's networks, as bgcore ships them

wildbg-training's race net 16 and contact net 17, by Carsten Wenderdel, from
https://github.com/carsten-wenderdel/wildbg-training at commit {COMMIT},
released under Creative Commons CC0 1.0 Universal (LICENSE-wildbg-nets, copied
from that repository). The same blobs are on wildbg's `nets` branch.

`tools/convert_wildbg.py` read each ONNX file with `bgcore.nn.Network.from_onnx`
(weights unchanged, float32) and wrote it with `Network.save`; it checked the
result against onnxruntime on the original files ({len(boards)} positions of 40
pubeval self-play games: largest difference {error:.1e}).

| file | source in wildbg-training | source sha256 | file sha256 | sizes |
|---|---|---|---|---|
{chr(10).join(rows)}

Inputs: `bgcore.encode.wildbg_contact` (202) and `wildbg_race` (186).
Outputs: a softmax over win normal, win gammon, win backgammon, lose normal,
lose gammon, lose backgammon for the player on roll, which `bgcore.nn` maps to
bgcore's five.
"""
    )
    print(f"wrote {OUT} (largest difference from onnxruntime {error:.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
