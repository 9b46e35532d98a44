"""Network evaluation speed: bgcore's native networks against onnxruntime, side by side.

Run from the repository root (needs the ``nn`` extra)::

    python bench/nn.py [--rounds R] [--positions N] [--shared PATH] [--kernels K]

Positions evaluated per second, boards in and probabilities out, on one
thread, at batches of 1, 20 and 256 boards, for two pairs:

- wildbg: ``bgcore.nets.wildbg()`` (the networks in C) against
  ``nets.wildbg(backend="onnxruntime")`` (wildbg's ONNX files, onnxruntime
  with one intra-op thread; each call checks the boards, splits races from
  contact, encodes the boards with ``bgcore.encode``, runs the session and
  maps the six outputs to five);
- wildbg's contact net alone: ``nets.wildbg().contact`` against the leanest
  path through onnxruntime (``encode.wildbg_contact``, the session, the map
  to five), which takes the least Python around the session: the issue's
  targets are checked on this pair;
- a 198-80-5 network (sigmoid hidden units and outputs, random weights) as a
  ``bgcore.nn.Network`` against the same weights as an ONNX graph in
  onnxruntime (``encode.tesauro198``, then the session).

The boards are N positions with contact from pubeval self-play (int8, so no
conversion is timed); each workload evaluates all of them, batch by batch, in
each of R rounds, the workloads in a rotated order every round so that a busy
machine slows them alike; the table gives medians over the rounds of wall
time, their native/onnxruntime ratio against the targets of bgcore issue 28,
and the ratio of the medians of the process's CPU time (less sensitive to
other programs on a shared machine, which also slow the wall time of
whichever workload runs while they do).  The load average is printed before
and after.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = ["main"]

BATCHES = (1, 20, 256)
# (native / onnxruntime) targets, by pair and batch (issue 28)
TARGETS = {("wildbg contact net", 1): 2.0, ("wildbg contact net", 20): 1.0, ("198-80-5", 1): 3.0, ("198-80-5", 20): 1.5}


def contact_boards(n: int) -> np.ndarray:
    """n positions with contact met in pubeval self-play."""
    from bgcore import encode
    from bgcore.selfplay import play

    games = 100
    while True:
        boards = play(games, "pubeval", seed=28).boards
        boards = boards[~encode.is_race(boards)]
        if len(boards) >= n:
            return np.ascontiguousarray(boards[:n])
        games *= 2


def small_layers(seed: int = 1) -> list[tuple[np.ndarray, np.ndarray]]:
    """The random weights and biases (float32) of the 198-80-5 network."""
    rng = np.random.default_rng(seed)
    w1, b1 = rng.normal(0, 0.1, (198, 80)).astype(np.float32), rng.normal(0, 0.1, 80).astype(np.float32)
    w2, b2 = rng.normal(0, 0.1, (80, 5)).astype(np.float32), rng.normal(0, 0.1, 5).astype(np.float32)
    return [(w1, b1), (w2, b2)]


def small_network(seed: int = 1) -> tuple[object, Callable[[np.ndarray], np.ndarray]]:
    """A 198-80-5 sigmoid Network and the same weights in onnxruntime (boards in)."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from bgcore import encode, nn

    (w1, b1), (w2, b2) = small_layers(seed)
    net = nn.Network([(w1, b1), (w2, b2)], ["sigmoid"], encoding="tesauro198", output="sigmoid")
    graph = helper.make_graph(
        [
            helper.make_node("Gemm", ["x", "w1", "b1"], ["h"]),
            helper.make_node("Sigmoid", ["h"], ["a"]),
            helper.make_node("Gemm", ["a", "w2", "b2"], ["z"]),
            helper.make_node("Sigmoid", ["z"], ["y"]),
        ],
        "td198",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 198])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 5])],
        [numpy_helper.from_array(a, name) for a, name in ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"))],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    onnx.checker.check_model(model)
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])

    def run(boards: np.ndarray) -> np.ndarray:
        out: np.ndarray = session.run(None, {"x": encode.tesauro198(boards)})[0]
        return out

    return net, run


def lean_contact(wildbg_ort: object) -> Callable[[np.ndarray], np.ndarray]:
    """wildbg's contact net through onnxruntime with the least Python around it."""
    from bgcore import encode, nets

    session = wildbg_ort.sessions["contact"]  # type: ignore[attr-defined]
    name = session.get_inputs()[0].name

    def run(boards: np.ndarray) -> np.ndarray:
        p6 = session.run(None, {name: encode.wildbg_contact(boards)})[0]
        five: np.ndarray = nets._six_to_five(p6)
        return five

    return run


def per_second(f: Callable[[np.ndarray], object], boards: np.ndarray, batch: int) -> Callable[[], tuple[float, float]]:
    """A timed round: every board through f, batch by batch; positions per
    second of wall time and of the process's CPU time."""
    chunks = [boards[i : i + batch] for i in range(0, len(boards) - batch + 1, batch)]
    count = batch * len(chunks)

    def one_round() -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        for chunk in chunks:
            f(chunk)
        return count / (time.perf_counter() - wall), count / (time.process_time() - cpu)

    return one_round


def add_shared_argument(parser: argparse.ArgumentParser) -> None:
    """``--shared``: the folder of wildbg's ONNX files."""
    parser.add_argument(
        "--shared",
        type=Path,
        default=Path(os.environ.get("BGCORE_WILDBG_ONNX", "../shared/nets/wildbg")),
        help="the folder of wildbg's ONNX files (default $BGCORE_WILDBG_ONNX or ../shared/nets/wildbg)",
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=21, help="timed rounds (default 21)")
    parser.add_argument("--positions", type=int, default=5120, help="contact positions (default 5120)")
    add_shared_argument(parser)
    parser.add_argument(
        "--kernels", default="auto", help="the native kernels at most: generic, avx2, avx512 or auto (default)"
    )
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.positions < max(BATCHES):
        parser.error(f"--rounds must be >= 1 and --positions >= {max(BATCHES)}")

    from bgcore import _nn, nets

    _nn.use_kernels(args.kernels)
    boards = contact_boards(args.positions)
    wildbg, wildbg_ort = nets.wildbg(), nets.wildbg(backend="onnxruntime", path=args.shared)
    small, small_ort = small_network()
    pairs = {
        "wildbg": (wildbg, wildbg_ort),
        "wildbg contact net": (wildbg.contact, lean_contact(wildbg_ort)),
        "198-80-5": (small, small_ort),
    }
    for native, reference in pairs.values():  # the same answers, before any timing
        assert np.abs(native(boards[:256]) - reference(boards[:256])).max() < 1e-5  # type: ignore[operator]
    rounds = {
        (pair, side, batch): per_second(f, boards, batch)  # type: ignore[arg-type]
        for pair, fs in pairs.items()
        for side, f in zip(("native", "onnxruntime"), fs, strict=True)
        for batch in BATCHES
    }
    rates: dict[tuple[str, str, int], list[tuple[float, float]]] = {key: [] for key in rounds}
    keys = list(rounds)
    load_before = os.getloadavg()
    for key in keys:  # warm up
        rounds[key]()
    for r in range(args.rounds):
        for key in keys[r % len(keys) :] + keys[: r % len(keys)]:
            rates[key].append(rounds[key]())
    load_after = os.getloadavg()

    print(f"Python {platform.python_version()}, {platform.machine()} {platform.system()}, {os.cpu_count()} CPUs")
    print(f"native kernels: {_nn.kernel()}; {len(boards):,} contact positions; medians of {args.rounds} rounds")
    print(f"load average before: {load_before[0]:.2f}, after: {load_after[0]:.2f} (1 min)")
    print()
    print("| network | batch | native pos/s | onnxruntime pos/s | ratio | ratio, CPU time | target |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for pair in pairs:
        for batch in BATCHES:
            native, reference = (
                [statistics.median(r[k] for r in rates[(pair, side, batch)]) for k in (0, 1)]
                for side in ("native", "onnxruntime")
            )
            target = TARGETS.get((pair, batch))
            ratio = native[0] / reference[0]
            verdict = f">= {target:g}x: {'met' if ratio >= target else 'NOT met'}" if target else ""
            print(
                f"| {pair} | {batch} | {native[0]:,.0f} | {reference[0]:,.0f} | {ratio:.2f}x | "
                f"{native[1] / reference[1]:.2f}x | {verdict} |"
            )


if __name__ == "__main__":
    main()
