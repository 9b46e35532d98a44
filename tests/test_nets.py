"""bgcore.nets: wildbg's networks as bgcore ships them, against wildbg's
original ONNX files run by onnxruntime (the oracle), and the files'
provenance.

The ONNX files are not in the package: they are read from the folder that
BGCORE_WILDBG_ONNX names or, by default, ``../shared/nets/wildbg`` beside the
repository (where CI clones it).  Without them these tests skip, or fail
when BGCORE_REQUIRE_ORACLE=1.  They are marked slow: the wheels' own test
runs (``-m "not slow"``, in a container without the files) leave them to the
full suite, which tests the same sources.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import nn_reference
from bgcore import Position, encode, nets, nn
from bgcore.selfplay import play, selfplay_positions

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get(nets.WILDBG_ONNX_ENV) or ROOT.parent / "shared" / "nets" / "wildbg")
DATA = resources.files("bgcore") / "data" / "nets"


@pytest.fixture(scope="module")
def onnx_folder() -> Path:
    """The folder of wildbg's ONNX files, and onnxruntime."""
    missing = [f for f in ("contact.onnx", "race.onnx") if not (SHARED / f).is_file()]
    reason = f"wildbg's ONNX files are not in {SHARED}" if missing else None
    for module in ("onnx", "onnxruntime"):
        try:
            __import__(module)
        except ImportError:
            reason = reason or f"no {module} (the nn extra)"
    if reason:
        if os.environ.get("BGCORE_REQUIRE_ORACLE") == "1":
            pytest.fail(f"{reason}, and BGCORE_REQUIRE_ORACLE=1")
        pytest.skip(reason)
    return SHARED


def oracle_boards() -> np.ndarray:
    """Over 10,000 positions: pubeval self-play (many races and bear-offs) and
    random play (odd positions, men on the bar), finished games too."""
    boards = [play(120, "pubeval", seed=17).boards]
    boards.append(np.array([p.board for p in selfplay_positions(3000, seed=18)], dtype=np.int8))
    boards.append(np.array([p.board for p in selfplay_positions(1000, seed=19, policy="heuristic")], dtype=np.int8))
    finished = [[0] * 24 + [-5, 0], [0, 5] + [0] * 24]  # the mover has won, has lost
    boards.append(np.array(finished, dtype=np.int8))
    return np.concatenate(boards)


@pytest.mark.slow
def test_native_wildbg_equals_onnxruntime(onnx_folder: Path) -> None:
    boards = oracle_boards()
    races = encode.is_race(boards)
    assert len(boards) >= 10_000 and races.sum() > 1000 and (~races).sum() > 5000
    native = nets.wildbg()
    reference = nets.wildbg(backend="onnxruntime", path=onnx_folder)
    got, expected = native(boards), reference(boards)
    assert np.abs(got - expected).max() <= 1e-5
    for batch in (1, 20):  # small batches too (one call per board for the first 300)
        part = np.concatenate([native(boards[i : i + batch]) for i in range(0, 300, batch)])
        assert np.array_equal(part, got[:300])
        ref_part = np.concatenate([reference(boards[i : i + batch]) for i in range(0, 300, batch)])
        assert np.abs(ref_part - expected[:300]).max() <= 1e-6


@pytest.mark.slow
def test_onnxruntime_backend(onnx_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start = Position.initial()
    reference = nets.wildbg(backend="onnxruntime", path=str(onnx_folder))
    assert reference(start.to_array()).shape == (5,)
    monkeypatch.setenv(nets.WILDBG_ONNX_ENV, str(onnx_folder))
    assert np.array_equal(nets.wildbg(backend="onnxruntime")(start.to_array()), reference(start.to_array()))
    done = [0] * 26
    done[24] = -15  # the mover bore off all 15, the opponent none: a gammon (no backgammon)
    assert reference(done).tolist() == nn_reference.game_value(done) == [1, 1, 0, 0, 0]
    monkeypatch.delenv(nets.WILDBG_ONNX_ENV)
    with pytest.raises(FileNotFoundError, match=nets.WILDBG_ONNX_ENV):
        nets.wildbg(backend="onnxruntime")
    with pytest.raises(FileNotFoundError, match=r"contact\.onnx and race\.onnx"):
        nets.wildbg(backend="onnxruntime", path=ROOT)


def test_onnxruntime_backend_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    with pytest.raises(ImportError, match=r"needs the onnxruntime package: pip install 'bgcore-engine\[nn\]'"):
        nets.wildbg(backend="onnxruntime", path=SHARED)


def test_wildbg_networks() -> None:
    wildbg = nets.wildbg()
    assert isinstance(wildbg, nn.Composite)
    assert wildbg.contact.sizes == (202, 300, 250, 200, 6) and wildbg.contact.encoding == "wildbg_contact"
    assert wildbg.race.sizes == (186, 300, 250, 200, 6) and wildbg.race.encoding == "wildbg_race"
    assert wildbg.contact.activations == (("hardsigmoid", float(np.float32(1 / 6)), 0.5),) * 3
    assert wildbg.race.activations == ("relu",) * 3
    assert wildbg.contact.output == wildbg.race.output == "softmax"
    with pytest.raises(ValueError, match="path= is for backend='onnxruntime'"):
        nets.wildbg(path=SHARED)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="backend must be"):
        nets.wildbg(backend="torch")  # type: ignore[call-overload]


def test_wildbg_plays_sensibly() -> None:
    """A position a side is far ahead in, from both sides."""
    board = [0] * 26
    board[1], board[2], board[12] = 2, 2, -15  # the mover bears off four; the opponent is not home yet
    p = nets.wildbg()(board)
    assert p[0] > 0.99 and p[1] > 0.9
    q = nets.wildbg()(Position(board).flip().to_array())
    assert q[0] < 0.01 and q[3] > 0.9


def test_shipped_files_match_their_provenance() -> None:
    provenance = (DATA / "PROVENANCE.md").read_text()
    for name in ("wildbg-contact.npz", "wildbg-race.npz"):
        digest = hashlib.sha256((DATA / name).read_bytes()).hexdigest()
        assert re.search(rf"\| {re.escape(name)} \|[^\n]*\| {digest} \|", provenance), name
    licence = (DATA / "LICENSE-wildbg-nets").read_text()
    assert "CC0 1.0 Universal" in licence


def test_wildbg_ends_truncated_rollouts() -> None:
    """The evaluator contract the engine calls: a truncated rollout of the
    opening scored by wildbg agrees with wildbg's own view of it."""
    from bgcore import rollout

    result = rollout(Position.initial(), games=1296, truncate=2, evaluator=nets.wildbg(), seed=1)
    direct = nets.wildbg().evaluate(Position.initial())
    assert np.abs(np.array(result.probabilities) - direct).max() < 0.02


def test_td_is_the_network_its_provenance_describes() -> None:
    """The shipped TD player: its file's digest and training command are
    noted, the command parses as ``bgcore train``'s, and it beats pubeval."""
    from bgcore import duel
    from bgcore.cli import build_parser

    provenance = (DATA / "PROVENANCE.md").read_text()
    digest = hashlib.sha256((DATA / "td.npz").read_bytes()).hexdigest()
    assert re.search(rf"\| td\.npz \|[^\n]*\| {digest} \|", provenance)
    command = re.search(r"`(bgcore train [^`]+)`", provenance)
    assert command is not None
    args = build_parser().parse_args(command.group(1).split()[1:])
    net = nets.td()
    assert net.sizes == (198, *args.hidden, 5) and net.encoding == args.encoding
    assert duel(net, "pubeval", games=2000, seed=3).points > 0.3
