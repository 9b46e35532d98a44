"""Neural networks that evaluate boards, run in C without the GIL.

A :class:`Network` is a chain of dense layers over one of bgcore's built-in
encodings of a board (:mod:`bgcore.encode`: ``"tesauro198"``,
``"wildbg_contact"``, ``"wildbg_race"``), with an activation after each
hidden layer (``"relu"``, ``"hardsigmoid"``, ``"sigmoid"``, ``"tanh"``) and
an output layer of either

- six exclusive outcomes under a softmax (``output="softmax"``): win normal,
  win gammon, win backgammon, lose normal, lose gammon, lose backgammon, as
  wildbg's networks give them; or
- bgcore's five outputs under sigmoids (``output="sigmoid"``), as gnubg's
  and TD-Gammon-style networks give them.

Either way a network is an evaluator (:data:`bgcore.policy.Evaluator`):
called on boards, each seen by its player on roll, it returns float32
``(n, 5)``: that player's win, win gammon, win backgammon, lose gammon and
lose backgammon chances (gammons counting backgammons).  A finished game
(a side with no checker left) is scored by its result, not by the network.
A :class:`Composite` evaluates races with one network and the other
positions with another, as wildbg does (:func:`bgcore.nets.wildbg`).

A network of 198 inputs, 40 sigmoid hidden units and five sigmoid outputs,
with random weights:

>>> import numpy as np
>>> from bgcore import Position
>>> rng = np.random.default_rng(1)
>>> layers = [(rng.normal(0, 0.1, (198, 40)), np.zeros(40)), (rng.normal(0, 0.1, (40, 5)), np.zeros(5))]
>>> net = Network(layers, ["sigmoid"], encoding="tesauro198", output="sigmoid")
>>> net
Network(encoding='tesauro198', sizes=(198, 40, 5), activations=('sigmoid',), output='sigmoid')
>>> p = net(Position.initial().to_array())
>>> p.shape, p.dtype
((5,), dtype('float32'))
>>> net.evaluate([Position.initial(), Position.initial()]).shape
(2, 5)

The weights are ``(inputs, outputs)`` arrays (a layer computes ``x @ w + b``);
the network keeps float32 copies, laid out again for its C kernels.
:meth:`Network.save` and :meth:`Network.load` keep a network in a small
``.npz`` file; :meth:`Network.from_onnx` reads a chain of dense layers from
ONNX (needs the ``nn`` extra: ``pip install 'bgcore-engine[nn]'``).
"""

from __future__ import annotations

import importlib
import os
import zipfile
from collections.abc import Iterable, Sequence
from typing import IO, Any

import numpy as np
import numpy.typing as npt

import bgcore._nn as _nn

from .errors import NetworkError
from .rules import CHECKERS

__all__ = [
    "Network",
    "Composite",
    "NativeEvaluator",
    "ENCODINGS",
    "ACTIVATIONS",
    "OUTPUTS",
    "FORMAT_VERSION",
    "Activation",
]

#: The built-in encodings a network can read, with their numbers of inputs.
ENCODINGS = dict(zip(_nn.ENCODINGS, (198, 202, 186), strict=True))
#: The activations of hidden layers.
ACTIVATIONS = _nn.ACTIVATIONS
#: The output kinds, with the width of the output layer each needs.
OUTPUTS = dict(zip(_nn.OUTPUTS, (6, 5), strict=True))
#: The version of the ``.npz`` format that :meth:`Network.save` writes.
FORMAT_VERSION = 1
#: A hidden layer's activation: its name, or ``("hardsigmoid", alpha, beta)``
#: (``max(0, min(1, alpha * x + beta))``; ``"hardsigmoid"`` alone is ONNX's
#: default, alpha 0.2 and beta 0.5).
Activation = str | tuple[str, float, float]

_MAX_LAYERS = 8  # BG_NN_MAX_LAYERS
_HARDSIGMOID = (0.2, 0.5)
_KIND = "bgcore.nn.Network"


def _activation(value: object, layer: int) -> tuple[str, float, float]:
    """An activation as (name, alpha, beta)."""
    if isinstance(value, str):
        name, params = value, _HARDSIGMOID if value == "hardsigmoid" else (0.0, 0.0)
    elif isinstance(value, tuple) and len(value) == 3 and value[0] == "hardsigmoid":
        name, params = "hardsigmoid", (value[1], value[2])
    else:
        raise NetworkError(f"layer {layer}'s activation must be one of {ACTIVATIONS} or ('hardsigmoid', alpha, beta)")
    if name not in ACTIVATIONS:
        raise NetworkError(f"unknown activation {name!r} (layer {layer}): one of {', '.join(ACTIVATIONS)}")
    try:
        alpha, beta = float(params[0]), float(params[1])
    except (TypeError, ValueError):
        raise NetworkError(f"layer {layer}'s hardsigmoid alpha and beta must be numbers, not {params!r}") from None
    if not (np.isfinite(alpha) and np.isfinite(beta)):
        raise NetworkError(f"layer {layer}'s hardsigmoid alpha and beta must be finite, not {alpha}, {beta}")
    # the kernels compute in float32: keep the values they use
    return name, float(np.float32(alpha)), float(np.float32(beta))


def _array(value: object, ndim: int, what: str) -> np.ndarray:
    """``value`` as a fresh read-only C-contiguous float32 array of ``ndim`` dimensions."""
    try:
        a = np.array(value, dtype=np.float32, order="C")
    except (TypeError, ValueError):
        raise NetworkError(f"{what} must be an array of numbers") from None
    if a.ndim != ndim:
        raise NetworkError(f"{what} must have {ndim} dimension{'s' if ndim > 1 else ''}, not shape {a.shape}")
    if not np.isfinite(a).all():
        raise NetworkError(f"{what} holds NaN or infinite values")
    a.setflags(write=False)
    return a


class NativeEvaluator(_nn.Native):
    """What :class:`Network` and :class:`Composite` share: called on boards,
    ``evaluator(boards, *, checkers=15, threads=1)``, they return bgcore's
    five outputs of each, float32 ``(n, 5)`` (``(5,)`` for one board);
    ``threads`` native threads share a large batch (at least 64 boards
    each), and no output depends on the threads or the batch."""

    def evaluate(self, positions: Any, *, checkers: int | None = None) -> npt.NDArray[np.float32]:
        """bgcore's five outputs of a :class:`bgcore.Position` (float32 ``(5,)``)
        or of several (``(n, 5)``), each from its player on roll's view."""
        from .position import Position

        single = isinstance(positions, Position)
        items: list[object] = [positions] if single or not isinstance(positions, Iterable) else list(positions)
        if not all(isinstance(p, Position) for p in items):
            raise TypeError("evaluate takes a Position or Positions; call the evaluator itself on boards")
        counts = {p.checkers for p in items if isinstance(p, Position)}
        if checkers is None:
            if len(counts) > 1:
                raise ValueError(f"positions of different checker counts {sorted(counts)}: evaluate them apart")
            checkers = counts.pop() if counts else CHECKERS
        boards = np.array([p.board for p in items if isinstance(p, Position)], dtype=np.int8).reshape(-1, 26)
        out: npt.NDArray[np.float32] = self(boards, checkers=checkers)
        return out[0] if single else out


class Network(NativeEvaluator):
    """A feed-forward network over one of bgcore's encodings, evaluated in C.

    ``layers``: ``(weights, bias)`` pairs, weights of shape ``(inputs,
    outputs)``, the first layer's inputs those of ``encoding``
    (:data:`ENCODINGS`), each layer's inputs the previous one's outputs, the
    last layer's outputs 6 for ``output="softmax"`` and 5 for
    ``output="sigmoid"`` (:data:`OUTPUTS`); at most 8 layers.
    ``activations``: one per hidden layer (all layers but the last), or one
    name for all of them.  Anything else raises :class:`bgcore.errors.NetworkError`.

    Calling the network evaluates boards (see the module's documentation and
    :meth:`bgcore.nn.Composite.__call__`): ``net(boards, checkers=15)``.
    """

    def __init__(
        self,
        layers: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]],
        activations: Sequence[Activation] | str = "relu",
        *,
        encoding: str,
        output: str = "softmax",
    ) -> None:
        if encoding not in ENCODINGS:
            raise NetworkError(f"unknown encoding {encoding!r}: one of {', '.join(ENCODINGS)}")
        if output not in OUTPUTS:
            raise NetworkError(f"unknown output kind {output!r}: one of {', '.join(OUTPUTS)}")
        layers = list(layers)
        if not 1 <= len(layers) <= _MAX_LAYERS:
            raise NetworkError(f"a network has 1 to {_MAX_LAYERS} layers, not {len(layers)}")
        if isinstance(activations, str):
            activations = [activations] * (len(layers) - 1)
        acts = [_activation(a, i) for i, a in enumerate(activations)]
        if len(acts) != len(layers) - 1:
            raise NetworkError(f"{len(layers)} layers need {len(layers) - 1} activations, not {len(acts)}")
        weights, biases = [], []
        width = ENCODINGS[encoding]
        for i, pair in enumerate(layers):
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise NetworkError(f"layer {i} must be a (weights, bias) pair")
            w = _array(pair[0], 2, f"layer {i}'s weights")
            b = _array(pair[1], 1, f"layer {i}'s bias")
            if w.shape[0] != width:
                what = f"the encoding {encoding!r}'s" if i == 0 else f"layer {i - 1}'s"
                raise NetworkError(f"layer {i}'s weights have {w.shape[0]} inputs, not {what} {width} outputs")
            if w.shape[1] < 1 or b.shape != (w.shape[1],):
                raise NetworkError(f"layer {i}'s bias has shape {b.shape}, not ({w.shape[1]},)")
            width = w.shape[1]
            weights.append(w)
            biases.append(b)
        if width != OUTPUTS[output]:
            raise NetworkError(f"output={output!r} needs {OUTPUTS[output]} outputs in the last layer, not {width}")
        self._encoding = encoding
        self._output = output
        self._weights = tuple(weights)
        self._biases = tuple(biases)
        self._activations = tuple(acts)
        names, alphas, betas = [a[0] for a in acts], [a[1] for a in acts], [a[2] for a in acts]
        self._bind(encoding, output, weights, biases, names, alphas, betas)

    # --- what it is ---------------------------------------------------------

    @property
    def encoding(self) -> str:
        """The encoding of its inputs (:func:`bgcore.encode.tesauro198`, ...)."""
        return self._encoding

    @property
    def output(self) -> str:
        """``"softmax"`` (six exclusive outcomes) or ``"sigmoid"`` (bgcore's five)."""
        return self._output

    @property
    def sizes(self) -> tuple[int, ...]:
        """The widths: the inputs, then each layer's outputs."""
        return (self._weights[0].shape[0], *(w.shape[1] for w in self._weights))

    @property
    def activations(self) -> tuple[Activation, ...]:
        """The hidden layers' activations: names, and ``("hardsigmoid", alpha, beta)``
        (alpha and beta as float32 values, as the kernels use them)."""
        return tuple((n, a, b) if n == "hardsigmoid" else n for n, a, b in self._activations)

    @property
    def weights(self) -> tuple[np.ndarray, ...]:
        """Each layer's weights, float32 ``(inputs, outputs)``, read-only."""
        return self._weights

    @property
    def biases(self) -> tuple[np.ndarray, ...]:
        """Each layer's bias, float32 ``(outputs,)``, read-only."""
        return self._biases

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its arrays and settings (for processes and Dask workers)."""
        layers = list(zip(self._weights, self._biases, strict=True))
        return (_network, (layers, list(self.activations), self._encoding, self._output))

    def __repr__(self) -> str:
        return (
            f"Network(encoding={self._encoding!r}, sizes={self.sizes}, activations={self.activations}, "
            f"output={self._output!r})"
        )

    # --- files ------------------------------------------------------------------

    def save(self, file: str | os.PathLike[str] | IO[bytes]) -> None:
        """Write the network to a ``.npz`` file (format :data:`FORMAT_VERSION`).

        The arrays ``format_version``, ``kind``, ``encoding``, ``output``,
        ``activations``, ``alpha`` and ``beta`` (per hidden layer; alpha and
        beta are the hardsigmoid's, 0 for other activations), and
        ``weights_<i>``, ``biases_<i>`` for each layer; no pickled objects.
        """
        arrays: dict[str, np.ndarray] = {
            "format_version": np.array(FORMAT_VERSION),
            "kind": np.array(_KIND),
            "encoding": np.array(self._encoding),
            "output": np.array(self._output),
            "activations": np.array([a[0] for a in self._activations], dtype=str).reshape(-1),
            "alpha": np.array([a[1] for a in self._activations], dtype=np.float64).reshape(-1),
            "beta": np.array([a[2] for a in self._activations], dtype=np.float64).reshape(-1),
        }
        for i, (w, b) in enumerate(zip(self._weights, self._biases, strict=True)):
            arrays[f"weights_{i}"] = w
            arrays[f"biases_{i}"] = b
        np.savez_compressed(file, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, file: str | os.PathLike[str] | IO[bytes]) -> Network:
        """Read a network written by :meth:`save`.

        A file of another format version, or one whose arrays do not make a
        network, raises :class:`bgcore.errors.NetworkError`.
        """
        try:
            with np.load(file, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (zipfile.BadZipFile, ValueError, EOFError) as exc:
            raise NetworkError(f"not a saved network (.npz): {exc}") from None
        if str(arrays.get("kind", "")) != _KIND or "format_version" not in arrays:
            raise NetworkError("not a saved bgcore network (no kind 'bgcore.nn.Network' and format_version)")
        version = arrays["format_version"]
        if version.shape != () or version.dtype.kind not in "iu" or int(version) != FORMAT_VERSION:
            raise NetworkError(f"unknown network format version {version!r} (this bgcore reads {FORMAT_VERSION})")
        try:
            names, alpha, beta = (arrays[k].reshape(-1) for k in ("activations", "alpha", "beta"))
            count = len(names) + 1
            layers = [(arrays[f"weights_{i}"], arrays[f"biases_{i}"]) for i in range(count)]
            encoding, output = str(arrays["encoding"]), str(arrays["output"])
        except KeyError as exc:
            raise NetworkError(f"a saved network without the array {exc}") from None
        if f"weights_{count}" in arrays or len(alpha) != len(names) or len(beta) != len(names):
            raise NetworkError("a saved network whose layers and activations do not match")
        acts: list[Activation] = [
            ("hardsigmoid", float(a), float(b)) if n == "hardsigmoid" else str(n)
            for n, a, b in zip(names, alpha, beta, strict=True)
        ]
        return cls(layers, acts, encoding=encoding, output=output)

    @classmethod
    def from_onnx(cls, model: str | os.PathLike[str] | bytes | Any, *, encoding: str | None = None) -> Network:
        """A network from an ONNX model (a file name, its bytes or an
        ``onnx.ModelProto``): a chain of dense layers (``Gemm``, or ``MatMul``
        then ``Add``) with ``Relu``, ``HardSigmoid``, ``Sigmoid`` or ``Tanh``
        between them, ending in ``Softmax`` over six outputs or ``Sigmoid``
        over five.  ``encoding``: by default the one with as many inputs as
        the first layer.  Needs the ``onnx`` package (the ``nn`` extra); a
        graph of another shape raises :class:`bgcore.errors.NetworkError`
        naming the node.
        """
        layers, activations, output = _read_onnx(model)
        if encoding is None:
            inputs = layers[0][0].shape[0]
            found = [name for name, width in ENCODINGS.items() if width == inputs]
            if not found:
                raise NetworkError(f"no encoding has {inputs} inputs: give encoding=")
            encoding = found[0]
        return cls(layers, activations, encoding=encoding, output=output)


class Composite(NativeEvaluator):
    """Two networks as one evaluator: ``race`` for the races (no contact
    left, :func:`bgcore.encode.is_race`), ``contact`` for the other boards,
    and finished games scored by their result.

    Called as ``composite(boards, checkers=15)``: float32 ``(n, 5)``, or
    ``(5,)`` for one board.
    """

    def __init__(self, contact: Network, race: Network) -> None:
        for name, net in (("contact", contact), ("race", race)):
            if not isinstance(net, Network):
                raise TypeError(f"{name} must be a Network, not {type(net).__name__}")
        self._contact = contact
        self._race = race
        self._bind_pair(contact, race)

    @property
    def contact(self) -> Network:
        """The network of positions with contact."""
        return self._contact

    @property
    def race(self) -> Network:
        """The network of races."""
        return self._race

    def __reduce__(self) -> tuple[Any, ...]:
        return (Composite, (self._contact, self._race))

    def __repr__(self) -> str:
        return f"Composite(contact={self._contact!r}, race={self._race!r})"


def _network(
    layers: list[tuple[np.ndarray, np.ndarray]], activations: list[Activation], encoding: str, output: str
) -> Network:
    """A Network from what its ``__reduce__`` gives."""
    return Network(layers, activations, encoding=encoding, output=output)


# --- ONNX -----------------------------------------------------------------------------

_ONNX_ACTIVATIONS = {"Relu": "relu", "HardSigmoid": "hardsigmoid", "Sigmoid": "sigmoid", "Tanh": "tanh"}
_CHAIN = (
    "a network is a chain of Gemm (or MatMul and Add) layers with Relu, HardSigmoid, Sigmoid or Tanh "
    "between them, ending in Softmax (6 outputs) or Sigmoid (5)"
)


def require(module: str, feature: str) -> Any:
    """Import ``module`` (``onnx``, ``onnxruntime``) for ``feature``, or raise
    an ImportError that names the ``nn`` extra."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"{feature} needs the {module} package: pip install 'bgcore-engine[nn]'") from None


def _label(node: Any) -> str:
    return f"ONNX node {node.name or '(unnamed)'!r} ({node.op_type})"


def _attributes(onnx: Any, node: Any) -> dict[str, Any]:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _read_onnx(model: Any) -> tuple[list[tuple[np.ndarray, np.ndarray]], list[Activation], str]:
    """The layers (weights (inputs, outputs), bias), hidden activations and
    output kind of a chain of dense layers in ONNX."""
    onnx = require("onnx", "Network.from_onnx")
    from onnx import numpy_helper

    if isinstance(model, (str, os.PathLike)):
        proto = onnx.load(os.fspath(model))
    elif isinstance(model, (bytes, bytearray)):
        proto = onnx.load_from_string(bytes(model))
    elif isinstance(model, onnx.ModelProto):
        proto = model
    else:
        raise TypeError(f"model must be a file name, bytes or an onnx.ModelProto, not {type(model).__name__}")
    graph = proto.graph
    consts = {t.name: numpy_helper.to_array(t).astype(np.float64) for t in graph.initializer}
    nodes = []
    for node in graph.node:
        if node.op_type == "Constant" and "value" in _attributes(onnx, node):
            consts[node.output[0]] = numpy_helper.to_array(_attributes(onnx, node)["value"]).astype(np.float64)
        else:
            nodes.append(node)
    inputs = [i.name for i in graph.input if i.name not in consts]
    if len(inputs) != 1 or len(graph.output) != 1:
        raise NetworkError(f"an ONNX network has one input and one output, not {len(inputs)} and {len(graph.output)}")
    users: dict[str, list[Any]] = {}
    for node in nodes:
        for name in set(node.input):
            users.setdefault(name, []).append(node)

    def next_node(tensor: str) -> Any:
        found = users.get(tensor, [])
        if len(found) != 1:
            raise NetworkError(f"the ONNX tensor {tensor!r} feeds {len(found)} nodes, not one: {_CHAIN}")
        return found[0]

    def const(node: Any, name: str, what: str) -> np.ndarray:
        if name not in consts:
            raise NetworkError(f"{_label(node)}: its {what} must be an initializer or a Constant")
        return consts[name]

    layers: list[tuple[np.ndarray, np.ndarray]] = []
    activations: list[Activation] = []
    tensor, final = inputs[0], graph.output[0].name
    while True:
        node = next_node(tensor)
        op, attrs = node.op_type, _attributes(onnx, node)
        dense = op in ("Gemm", "MatMul")
        if dense == (len(layers) > len(activations)):
            raise NetworkError(f"{_label(node)}: {'two dense layers in a row' if dense else 'not after a dense layer'}")
        if op == "Gemm":
            if attrs.get("transA", 0):
                raise NetworkError(f"{_label(node)}: transA is not supported")
            w = const(node, node.input[1], "weights")
            w = (w.T if attrs.get("transB", 0) else w) * attrs.get("alpha", 1.0)
            c = const(node, node.input[2], "bias") if len(node.input) > 2 and node.input[2] else np.zeros(1)
            if c.size not in (1, w.shape[-1]):
                raise NetworkError(f"{_label(node)}: a bias of shape {c.shape} for {w.shape[-1]} outputs")
            layers.append((w, np.broadcast_to(c.reshape(-1) * attrs.get("beta", 1.0), w.shape[-1:])))
            tensor = node.output[0]
        elif op == "MatMul":
            w = const(node, node.input[1], "weights")
            tensor = node.output[0]
            bias = np.zeros(w.shape[-1:])
            after = users.get(tensor, [])
            if len(after) == 1 and after[0].op_type == "Add" and tensor != final:
                add = after[0]
                other = add.input[1] if add.input[0] == tensor else add.input[0]
                c = const(add, other, "bias")
                if c.size not in (1, w.shape[-1]):
                    raise NetworkError(f"{_label(add)}: a bias of shape {c.shape} for {w.shape[-1]} outputs")
                bias, tensor = np.broadcast_to(c.reshape(-1), w.shape[-1:]), add.output[0]
            layers.append((w, bias))
        elif op in ("Softmax", "Sigmoid") and node.output[0] == final:
            if op == "Softmax" and attrs.get("axis", -1) not in (1, -1):
                raise NetworkError(f"{_label(node)}: a softmax over axis {attrs['axis']}, not the outputs")
            return layers, activations, "softmax" if op == "Softmax" else "sigmoid"
        elif op in _ONNX_ACTIVATIONS:
            name = _ONNX_ACTIVATIONS[op]
            if name == "hardsigmoid":
                activations.append((name, attrs.get("alpha", 0.2), attrs.get("beta", 0.5)))
            else:
                activations.append(name)
            tensor = node.output[0]
        else:
            raise NetworkError(f"{_label(node)} is not supported: {_CHAIN}")
        if tensor == final:
            raise NetworkError(f"{_label(node)}: the graph ends without Softmax or Sigmoid: {_CHAIN}")
