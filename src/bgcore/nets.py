"""Networks that bgcore ships, ready to evaluate positions.

:func:`td` is bgcore's own player, trained from zero by self-play
(:mod:`bgcore.train`).  :func:`wildbg` is Carsten Wenderdel's wildbg: a contact and a race network
trained by wildbg-training (race net 16, contact net 17; Creative Commons CC0
1.0), converted once into :class:`bgcore.nn.Network` files
(``bgcore/data/nets/``, with their licence and provenance) and evaluated in C:

>>> from bgcore import Position, nets
>>> wildbg = nets.wildbg()
>>> p = wildbg.evaluate(Position.initial())
>>> [round(float(x), 2) for x in p]        # win, win gammon, win backgammon, lose gammon, lose backgammon
[0.54, 0.16, 0.01, 0.11, 0.0]

An evaluator takes boards, each seen by its player on roll, as
:data:`bgcore.policy.Evaluator` describes:

>>> wildbg(Position.initial().to_array()).shape
(5,)

``wildbg(backend="onnxruntime", path=...)`` runs wildbg's original ONNX files
through onnxruntime instead (the reference the native networks are tested
against; needs the ``nn`` extra).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any, Literal, overload

import numpy as np
import numpy.typing as npt

import bgcore._nn as _nn
import bgcore.encode as encode

from .nn import Composite, Network, require
from .rules import CHECKERS

__all__ = ["wildbg", "td", "OnnxWildbg", "WILDBG_ONNX_ENV"]

#: The environment variable naming the folder of wildbg's ONNX files
#: (``contact.onnx``, ``race.onnx``) for ``wildbg(backend="onnxruntime")``.
WILDBG_ONNX_ENV = "BGCORE_WILDBG_ONNX"


@overload
def wildbg(*, backend: Literal["native"] = "native", path: None = None) -> Composite: ...
@overload
def wildbg(*, backend: Literal["onnxruntime"], path: str | os.PathLike[str] | None = None) -> OnnxWildbg: ...
def wildbg(*, backend: str = "native", path: str | os.PathLike[str] | None = None) -> Composite | OnnxWildbg:
    """wildbg's networks as one evaluator: the contact network while contact
    remains, the race network in races, finished games scored by their result.

    ``backend="native"`` (the default): the networks shipped with bgcore, in
    C (a :class:`bgcore.nn.Composite`; ``.contact`` and ``.race`` are the two
    :class:`bgcore.nn.Network`).  ``backend="onnxruntime"``: wildbg's ONNX
    files run by onnxruntime (:class:`OnnxWildbg`), read from the folder
    ``path`` or, without it, the one the environment variable
    ``BGCORE_WILDBG_ONNX`` names.
    """
    if backend == "native":
        if path is not None:
            raise ValueError("path= is for backend='onnxruntime': the native networks ship with bgcore")
        folder = resources.files("bgcore") / "data" / "nets"
        networks = []
        for name in ("contact", "race"):
            with (folder / f"wildbg-{name}.npz").open("rb") as f:
                networks.append(Network.load(f))
        return Composite(*networks)
    if backend == "onnxruntime":
        if path is None:
            path = os.environ.get(WILDBG_ONNX_ENV)
            if not path:
                raise FileNotFoundError(
                    f"wildbg's ONNX files: give path= (a folder with contact.onnx and race.onnx) "
                    f"or set {WILDBG_ONNX_ENV}"
                )
        return OnnxWildbg(path)
    raise ValueError(f"backend must be 'native' or 'onnxruntime', not {backend!r}")


def td() -> Network:
    """bgcore's own player: a 198-80-5 network (TD-Gammon's inputs, 80
    sigmoid hidden units, five sigmoid outputs) trained from zero by
    TD(0) self-play with :func:`bgcore.train.train` (``bgcore/data/nets/td.npz``;
    the command and seed that trained it, and its strength against pubeval,
    are in ``bgcore/data/nets/PROVENANCE.md``).

    >>> net = td()
    >>> net.sizes, net.output
    ((198, 80, 5), 'sigmoid')
    """
    with (resources.files("bgcore") / "data" / "nets" / "td.npz").open("rb") as f:
        return Network.load(f)


def _six_to_five(p6: np.ndarray) -> np.ndarray:
    """Six exclusive outcomes (win normal, gammon, backgammon, lose normal,
    gammon, backgammon) to bgcore's five cumulative ones."""
    return np.stack([p6[:, 0] + p6[:, 1] + p6[:, 2], p6[:, 1] + p6[:, 2], p6[:, 2], p6[:, 4] + p6[:, 5], p6[:, 5]], 1)


class OnnxWildbg:
    """wildbg's two ONNX networks run by onnxruntime, as one evaluator (the
    reference for :func:`wildbg`'s native networks).

    ``path``: the folder of ``contact.onnx`` and ``race.onnx``; ``threads``:
    onnxruntime's intra-op threads.  The files' batch dimension, fixed at 1,
    is made symbolic in memory so that a call runs each network once over
    all its boards.  Needs the ``nn`` extra (onnx, onnxruntime).
    """

    def __init__(self, path: str | os.PathLike[str], *, threads: int = 1) -> None:
        onnx = require("onnx", "wildbg(backend='onnxruntime')")
        ort = require("onnxruntime", "wildbg(backend='onnxruntime')")
        folder = Path(path)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        self.sessions: dict[str, Any] = {}
        for name in ("contact", "race"):
            file = folder / f"{name}.onnx"
            if not file.is_file():
                raise FileNotFoundError(f"no {file}: path must be a folder with wildbg's contact.onnx and race.onnx")
            model = onnx.load(os.fspath(file))
            for value in (*model.graph.input, *model.graph.output):
                value.type.tensor_type.shape.dim[0].dim_param = "batch"
            self.sessions[name] = ort.InferenceSession(
                model.SerializeToString(), options, providers=["CPUExecutionProvider"]
            )

    def __call__(self, boards: npt.ArrayLike, *, checkers: int = CHECKERS) -> npt.NDArray[np.float32]:
        """bgcore's five outputs of each board: float32 (n, 5), or (5,) for one."""
        b8, lead = encode._prepare(boards, checkers)
        done, out = _nn.game_values(b8, checkers)
        race = encode.is_race(b8, checkers=checkers) & ~done
        for name, mask, inputs in (
            ("contact", ~(race | done), encode.wildbg_contact),
            ("race", race, encode.wildbg_race),
        ):
            if mask.any():
                session = self.sessions[name]
                x = inputs(b8[mask], checkers=checkers)
                p6 = session.run(None, {session.get_inputs()[0].name: x})[0]
                out[mask] = _six_to_five(p6)
        result: npt.NDArray[np.float32] = out.reshape(*lead, 5)
        return result
