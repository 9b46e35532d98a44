"""bgcore.nn against a numpy forward pass (every activation, both output
kinds, every encoding, every kernel the processor runs, batches of every
size), finished games, the composite's routing, save/load, ONNX import and
the errors."""

from __future__ import annotations

import io
import itertools
import pickle
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import nn_reference
from bgcore import InvalidPositionError, Position, _nn, encode, nn
from bgcore.errors import NetworkError
from bgcore.selfplay import selfplay_positions
from strategies import random_boards
from test_encode import ref_tesauro198

KERNELS = [k for k in _nn.KERNELS if _nn.KERNELS.index(k) <= _nn.KERNELS.index(_nn.kernel())]
ENCODERS = {
    "tesauro198": ref_tesauro198,
    "wildbg_contact": nn_reference.wildbg_contact,
    "wildbg_race": nn_reference.wildbg_race,
}


def finished_boards() -> list[list[int]]:
    """Finished games of every kind, for either side."""
    boards = []
    for theirs in ({24: 3}, {24: 15}, {10: 15}, {3: 14, 0: 1}, {6: 15}, {19: 2, 12: 13}):
        b = [0] * 26
        for p, n in theirs.items():
            b[p] = -n
        boards.append(b)  # the mover has borne off everything
        boards.append([-v for v in reversed(b)])  # the opponent has
    return boards


BOARDS = np.array(
    [p.board for p in selfplay_positions(400, seed=11)]
    + [p.board for p in selfplay_positions(400, seed=12, policy="heuristic")]
    + finished_boards(),
    dtype=np.int8,
)


def random_layers(rng: np.random.Generator, sizes: list[int]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Weights of a network of those widths, scaled so that units stay in range."""
    return [
        (rng.normal(0, 1 / np.sqrt(a), (a, b)).astype(np.float32), rng.normal(0, 0.5, b).astype(np.float32))
        for a, b in itertools.pairwise(sizes)
    ]


def reference(net: nn.Network, boards: np.ndarray, checkers: int = 15) -> np.ndarray:
    """The network's outputs by nn_reference: plain-Python inputs, numpy layers."""
    x = np.array([ENCODERS[net.encoding](b.tolist(), checkers) for b in boards], dtype=np.float64).reshape(
        -1, net.sizes[0]
    )
    acts = [
        (a, 0.2, 0.5) if a == "hardsigmoid" else (a, 0.0, 0.0) if isinstance(a, str) else a for a in net.activations
    ]
    out = nn_reference.forward(x, list(zip(net.weights, net.biases, strict=True)), acts, net.output)
    for i, b in enumerate(boards):
        value = nn_reference.game_value(b.tolist(), checkers)
        if value is not None:
            out[i] = value
    return out


@pytest.fixture(params=KERNELS)
def kernels(request: pytest.FixtureRequest):
    _nn.use_kernels(request.param)
    yield request.param
    _nn.use_kernels("auto")


ACTIVATIONS = ["relu", ("hardsigmoid", 1 / 6, 0.5), "hardsigmoid", "sigmoid", "tanh"]


@pytest.mark.parametrize("activation", ACTIVATIONS, ids=str)
@pytest.mark.parametrize("output", ["softmax", "sigmoid"])
def test_random_networks_match_numpy(kernels: str, activation: nn.Activation, output: str) -> None:
    rng = np.random.default_rng(hash((kernels, str(activation), output)) % 2**32)
    for encoding, hidden in (("tesauro198", [80]), ("wildbg_contact", [37, 70]), ("wildbg_race", [129, 16, 33])):
        sizes = [nn.ENCODINGS[encoding], *hidden, nn.OUTPUTS[output]]
        net = nn.Network(random_layers(rng, sizes), [activation] * len(hidden), encoding=encoding, output=output)
        whole = net(BOARDS)
        assert whole.dtype == np.float32 and whole.shape == (len(BOARDS), 5)
        assert np.abs(whole - reference(net, BOARDS)).max() < 1e-5, (encoding, hidden)
        for batch in (1, 2, 3, 5, 6, 7, 20, 256):  # a board's outputs do not depend on its batch
            parts = np.concatenate([net(BOARDS[i : i + batch]) for i in range(0, len(BOARDS), batch)])
            assert np.array_equal(parts, whole), batch


def test_one_layer_and_wide_networks(kernels: str) -> None:
    rng = np.random.default_rng(5)
    for sizes, acts in (([202, 6], []), ([198, 300, 250, 200, 5], ["relu", "tanh", "sigmoid"])):
        output = "softmax" if sizes[-1] == 6 else "sigmoid"
        encoding = "wildbg_contact" if sizes[0] == 202 else "tesauro198"
        net = nn.Network(random_layers(rng, sizes), acts, encoding=encoding, output=output)
        assert np.abs(net(BOARDS) - reference(net, BOARDS)).max() < 1e-5


def test_kernels_agree() -> None:
    """AVX2 and AVX-512 compute the same operations: the same bits."""
    rng = np.random.default_rng(9)
    net = nn.Network(random_layers(rng, [198, 60, 40, 5]), ["tanh", "sigmoid"], encoding="tesauro198", output="sigmoid")
    results = {}
    for k in KERNELS:
        _nn.use_kernels(k)
        results[k] = net(BOARDS)
    _nn.use_kernels("auto")
    if "avx512" in results:
        assert np.array_equal(results["avx2"], results["avx512"])
    for r in results.values():
        assert np.abs(r - results["generic"]).max() < 1e-6


def test_kernel_names() -> None:
    assert _nn.kernel() in _nn.KERNELS
    with pytest.raises(ValueError, match="not supported"):
        _nn.use_kernels("sse9")
    _nn.use_kernels("auto")
    assert _nn.kernel() == KERNELS[-1]


def test_finished_games_are_scored_by_their_result() -> None:
    rng = np.random.default_rng(2)
    net = nn.Network(random_layers(rng, [186, 20, 6]), "relu", encoding="wildbg_race")
    boards = np.array(finished_boards(), dtype=np.int8)
    expected = [nn_reference.game_value(b.tolist()) for b in boards]
    assert net(boards).tolist() == expected
    assert {tuple(e) for e in expected} >= {(1, 0, 0, 0, 0), (1, 1, 0, 0, 0), (1, 1, 1, 0, 0), (0, 0, 0, 1, 1)}
    done, values = _nn.game_values(boards)
    assert done.all() and values.tolist() == expected
    three = np.zeros((1, 26), np.int8)
    three[0, 24] = -3  # hypergammon: the mover bore off three, the opponent none: a gammon
    assert net(three, checkers=3).tolist() == [[1, 1, 0, 0, 0]]


def test_composite_routes_races_and_contact() -> None:
    rng = np.random.default_rng(3)
    contact = nn.Network(random_layers(rng, [202, 30, 6]), "relu", encoding="wildbg_contact")
    race = nn.Network(random_layers(rng, [186, 30, 6]), "relu", encoding="wildbg_race")
    both = nn.Composite(contact, race)
    assert both.contact is contact and both.race is race
    races = np.array([not nn_reference.is_contact(b.tolist()) for b in BOARDS])
    assert 100 < races.sum() < len(BOARDS) - 100
    got = both(BOARDS)
    assert np.array_equal(got[races], race(BOARDS[races]))
    assert np.array_equal(got[~races], contact(BOARDS[~races]))
    assert np.array_equal(np.concatenate([both(BOARDS[i : i + 7]) for i in range(0, len(BOARDS), 7)]), got)
    assert repr(both).startswith("Composite(contact=Network(encoding='wildbg_contact'")
    with pytest.raises(TypeError, match="race must be a Network"):
        nn.Composite(contact, "race")  # type: ignore[arg-type]


def test_threads_give_the_same_result() -> None:
    rng = np.random.default_rng(4)
    net = nn.Network(random_layers(rng, [198, 40, 5]), "sigmoid", encoding="tesauro198", output="sigmoid")
    one = net(BOARDS)
    for threads in (2, 3, 64):
        assert np.array_equal(net(BOARDS, threads=threads), one)
    for threads in (0, 65):
        with pytest.raises(ValueError, match="threads must be 1 to 64"):
            net(BOARDS, threads=threads)


@given(st.lists(random_boards(), min_size=1, max_size=12))
def test_outputs_are_probabilities(boards) -> None:
    for net in (SOFTMAX_NET, SIGMOID_NET):
        p = net(np.array(boards, dtype=np.int8)).astype(np.float64)
        assert ((p >= 0) & (p <= 1)).all()
        if net is SOFTMAX_NET:  # cumulative sums of six outcomes (five sigmoids are free)
            assert (p[:, 0] >= p[:, 1]).all() and (p[:, 1] >= p[:, 2]).all() and (p[:, 3] >= p[:, 4]).all()
            assert (p[:, 3] <= 1 - p[:, 0] + 1e-6).all()


SOFTMAX_NET = nn.Network(random_layers(np.random.default_rng(6), [202, 24, 6]), "tanh", encoding="wildbg_contact")
SIGMOID_NET = nn.Network(
    random_layers(np.random.default_rng(7), [198, 24, 5]), "relu", encoding="tesauro198", output="sigmoid"
)


# --- the Python face ------------------------------------------------------------------


def test_properties_and_evaluate() -> None:
    rng = np.random.default_rng(8)
    layers = random_layers(rng, [198, 10, 7, 5])
    net = nn.Network(layers, ["relu", ("hardsigmoid", 0.25, 0.4)], encoding="tesauro198", output="sigmoid")
    assert net.sizes == (198, 10, 7, 5) and net.encoding == "tesauro198" and net.output == "sigmoid"
    assert net.activations == ("relu", ("hardsigmoid", 0.25, float(np.float32(0.4))))
    assert all(np.array_equal(w, lw) and not w.flags.writeable for w, (lw, _) in zip(net.weights, layers, strict=True))
    assert all(np.array_equal(b, lb) and not b.flags.writeable for b, (_, lb) in zip(net.biases, layers, strict=True))
    start = Position.initial()
    assert net.evaluate(start).shape == (5,)
    assert np.array_equal(net.evaluate(start), net(start.to_array()))
    assert np.array_equal(
        net.evaluate([start, start.flip()]), net(np.stack([start.to_array(), start.flip().to_array()]))
    )
    assert net.evaluate([]).shape == (0, 5)
    hyper = Position.initial("hypergammon")
    assert np.array_equal(net.evaluate(hyper), net(hyper.to_array(), checkers=3))
    with pytest.raises(ValueError, match="different checker counts"):
        net.evaluate([start, hyper])
    with pytest.raises(TypeError, match="Position"):
        net.evaluate(start.to_array())
    # boards of other types are converted as bgcore.encode converts them
    assert np.array_equal(net([start.board]), net(start.to_array()[None]))
    assert np.array_equal(net(np.asfortranarray(BOARDS[:5].astype(np.int64))), net(BOARDS[:5]))


def test_call_errors() -> None:
    boards = BOARDS[:3].copy()
    boards[2, 25] = 5
    with pytest.raises(InvalidPositionError, match="row 2: the player on roll has"):
        SOFTMAX_NET(boards)
    with pytest.raises(InvalidPositionError, match="checkers per side must be 1-15"):
        SOFTMAX_NET(BOARDS[:1], checkers=0)
    with pytest.raises(InvalidPositionError, match="shape"):
        SOFTMAX_NET(np.zeros((2, 25), np.int8))
    with pytest.raises(TypeError, match="no network"):
        _nn.Native()(BOARDS[:1])
    with pytest.raises(RuntimeError, match="bound already"):
        SOFTMAX_NET._bind_pair(SOFTMAX_NET, SOFTMAX_NET)


def test_save_load_round_trip(tmp_path) -> None:
    rng = np.random.default_rng(10)
    net = nn.Network(random_layers(rng, [186, 13, 9, 6]), ["tanh", ("hardsigmoid", 0.3, 0.45)], encoding="wildbg_race")
    path = tmp_path / "net.npz"
    net.save(path)
    back = nn.Network.load(path)
    assert repr(back) == repr(net) and back.activations == net.activations
    assert all(np.array_equal(a, b) for a, b in zip(back.weights, net.weights, strict=True))
    assert np.array_equal(back(BOARDS), net(BOARDS))
    buffer = io.BytesIO()
    net.save(buffer)
    buffer.seek(0)
    assert np.array_equal(nn.Network.load(buffer)(BOARDS), net(BOARDS))
    single = nn.Network(random_layers(rng, [198, 5]), [], encoding="tesauro198", output="sigmoid")
    single.save(path)
    assert np.array_equal(nn.Network.load(path)(BOARDS), single(BOARDS))


def test_pickle() -> None:
    rng = np.random.default_rng(16)
    net = nn.Network(random_layers(rng, [202, 9, 6]), [("hardsigmoid", 0.3, 0.4)], encoding="wildbg_contact")
    race = nn.Network(random_layers(rng, [186, 9, 6]), "relu", encoding="wildbg_race")
    for evaluator in (net, nn.Composite(net, race)):
        back = pickle.loads(pickle.dumps(evaluator))
        assert type(back) is type(evaluator) and repr(back) == repr(evaluator)
        assert np.array_equal(back(BOARDS), evaluator(BOARDS))


def saved(tmp_path, **changes: object):
    """A saved one-layer network's file, with arrays changed or (None) removed."""
    net = nn.Network(
        random_layers(np.random.default_rng(0), [198, 4, 5]), "relu", encoding="tesauro198", output="sigmoid"
    )
    buffer = io.BytesIO()
    net.save(buffer)
    buffer.seek(0)
    with np.load(buffer) as data:
        arrays = {k: data[k] for k in data.files}
    for k, v in changes.items():
        if v is None:
            del arrays[k]
        else:
            arrays[k] = np.asarray(v)
    path = tmp_path / "changed.npz"
    np.savez(path, **arrays)
    return path


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"format_version": 2}, "unknown network format version"),
        ({"format_version": None}, "not a saved bgcore network"),
        ({"kind": "something else"}, "not a saved bgcore network"),
        ({"weights_1": None}, "without the array 'weights_1'"),
        ({"weights_0": np.full((198, 4), np.nan, np.float32)}, "NaN or infinite"),
        ({"weights_0": np.zeros((197, 4), np.float32)}, "197 inputs"),
        ({"biases_1": np.zeros(4, np.float32)}, r"bias has shape \(4,\)"),
        ({"encoding": "gnubg"}, "unknown encoding 'gnubg'"),
        ({"output": "linear"}, "unknown output kind"),
        ({"activations": np.array(["swish"])}, "unknown activation 'swish'"),
        ({"alpha": np.zeros(2)}, "do not match"),
        ({"weights_2": np.zeros((5, 5), np.float32)}, "do not match"),
    ],
)
def test_load_errors(tmp_path, changes: dict[str, object], message: str) -> None:
    with pytest.raises(NetworkError, match=message):
        nn.Network.load(saved(tmp_path, **changes))


def test_load_rejects_other_files(tmp_path) -> None:
    path = tmp_path / "text.npz"
    path.write_text("not a zip")
    with pytest.raises(NetworkError, match="not a saved network"):
        nn.Network.load(path)
    with pytest.raises(FileNotFoundError):
        nn.Network.load(tmp_path / "missing.npz")


W = np.zeros((198, 5), np.float32)
B5 = np.zeros(5, np.float32)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([(W, B5)],), {"encoding": "pubeval", "output": "sigmoid"}, "unknown encoding 'pubeval'"),
        (([(W, B5)],), {"encoding": "tesauro198", "output": "linear"}, "unknown output kind 'linear'"),
        (([(W, B5)],), {"encoding": "tesauro198"}, "needs 6 outputs in the last layer, not 5"),
        (([],), {"encoding": "tesauro198"}, "1 to 8 layers, not 0"),
        (
            ([(np.zeros((198, 4)), np.zeros(4))] + [(np.zeros((4, 4)), np.zeros(4))] * 8,),
            {"encoding": "tesauro198"},
            "not 9",
        ),
        (([(W[:-1], B5)],), {"encoding": "tesauro198", "output": "sigmoid"}, "197 inputs, not the encoding"),
        (([(W, np.zeros(4))],), {"encoding": "tesauro198", "output": "sigmoid"}, r"bias has shape \(4,\)"),
        (([(W[0], B5)],), {"encoding": "tesauro198", "output": "sigmoid"}, "2 dimensions"),
        (([(W * np.nan, B5)],), {"encoding": "tesauro198", "output": "sigmoid"}, "NaN or infinite"),
        (([(W, B5 + np.inf)],), {"encoding": "tesauro198", "output": "sigmoid"}, "NaN or infinite"),
        (([(W, "x")],), {"encoding": "tesauro198", "output": "sigmoid"}, "array of numbers"),
        (([W],), {"encoding": "tesauro198", "output": "sigmoid"}, r"\(weights, bias\) pair"),
        (([(W, B5)], ["relu"]), {"encoding": "tesauro198", "output": "sigmoid"}, "need 0 activations, not 1"),
        (
            ([(np.zeros((198, 4)), np.zeros(4)), (np.zeros((4, 5)), B5)], ["gelu"]),
            {"encoding": "tesauro198", "output": "sigmoid"},
            "unknown activation 'gelu'",
        ),
        (
            ([(np.zeros((198, 4)), np.zeros(4)), (np.zeros((4, 5)), B5)], [("hardsigmoid", np.nan, 0.5)]),
            {"encoding": "tesauro198", "output": "sigmoid"},
            "must be finite",
        ),
        (
            ([(np.zeros((198, 4)), np.zeros(4)), (np.zeros((3, 5)), B5)], "relu"),
            {"encoding": "tesauro198", "output": "sigmoid"},
            "3 inputs, not layer 0's 4 outputs",
        ),
    ],
)
def test_bad_networks(args: tuple, kwargs: dict, message: str) -> None:
    with pytest.raises(NetworkError, match=message):
        nn.Network(*args, **kwargs)


# --- ONNX -----------------------------------------------------------------------------

ONNX_OPS = {"relu": "Relu", "hardsigmoid": "HardSigmoid", "sigmoid": "Sigmoid", "tanh": "Tanh"}


def to_onnx(net: nn.Network, *, matmul: bool = False, opset: int = 14):
    """The network as an ONNX graph: Gemm layers (transB on every other one)
    or MatMul and Add, the activations, Softmax or Sigmoid."""
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits, x = [], [], "input"
    for i, (w, b) in enumerate(zip(net.weights, net.biases, strict=True)):
        y = f"dense{i}"
        if matmul:
            inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
            nodes += [
                helper.make_node("MatMul", [x, f"w{i}"], [f"mm{i}"]),
                helper.make_node("Add", [f"b{i}", f"mm{i}"], [y]),
            ]
        elif i % 2 == 0:
            inits += [numpy_helper.from_array(np.ascontiguousarray(w.T), f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
            nodes.append(helper.make_node("Gemm", [x, f"w{i}", f"b{i}"], [y], name=f"gemm{i}", transB=1))
        else:
            inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b[None], f"b{i}")]
            nodes.append(helper.make_node("Gemm", [x, f"w{i}", f"b{i}"], [y], name=f"gemm{i}"))
        x = y
        if i < len(net.activations):
            act = net.activations[i]
            name = act if isinstance(act, str) else act[0]
            attrs = {"alpha": act[1], "beta": act[2]} if isinstance(act, tuple) else {}
            nodes.append(helper.make_node(ONNX_OPS[name], [x], [f"act{i}"], **attrs))
            x = f"act{i}"
    last = "Softmax" if net.output == "softmax" else "Sigmoid"
    nodes.append(helper.make_node(last, [x], ["probabilities"], **({"axis": 1} if last == "Softmax" else {})))
    graph = helper.make_graph(
        nodes,
        "net",
        [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", net.sizes[0]])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["batch", net.sizes[-1]])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model)
    return model


def run_onnx(model, x: np.ndarray) -> np.ndarray:
    ort = pytest.importorskip("onnxruntime")
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    out: np.ndarray = session.run(None, {"input": x.astype(np.float32)})[0]
    return out


@pytest.mark.parametrize("matmul", [False, True])
def test_from_onnx_round_trip(tmp_path, matmul: bool) -> None:
    rng = np.random.default_rng(12)
    for net in (
        nn.Network(
            random_layers(rng, [202, 20, 15, 11, 6]),
            [("hardsigmoid", 1 / 6, 0.5), "relu", "tanh"],
            encoding="wildbg_contact",
        ),
        nn.Network(random_layers(rng, [198, 17, 5]), ["sigmoid"], encoding="tesauro198", output="sigmoid"),
    ):
        model = to_onnx(net, matmul=matmul)
        onnx = pytest.importorskip("onnx")
        path = tmp_path / "net.onnx"
        onnx.save(model, path)
        for source in (path, str(path), model, model.SerializeToString()):
            back = nn.Network.from_onnx(source)
            assert repr(back) == repr(net)
            assert all(np.array_equal(a, b) for a, b in zip(back.weights, net.weights, strict=True))
            assert all(np.array_equal(a, b) for a, b in zip(back.biases, net.biases, strict=True))
        got = net(BOARDS)
        x = getattr(encode, net.encoding)(BOARDS)
        p = run_onnx(model, x)
        p5 = p if net.output == "sigmoid" else nn_reference.six_to_five(p)
        live = np.array([nn_reference.game_value(b.tolist()) is None for b in BOARDS])
        assert np.abs(got[live] - p5[live]).max() < 1e-5


def test_from_onnx_scales_gemm_and_names_encodings() -> None:
    rng = np.random.default_rng(13)
    net = nn.Network(random_layers(rng, [186, 8, 6]), "relu", encoding="wildbg_race")
    model = to_onnx(net)
    from onnx import helper, numpy_helper

    model.graph.node[0].attribute.extend([helper.make_attribute("alpha", 2.0), helper.make_attribute("beta", 0.5)])
    back = nn.Network.from_onnx(model)
    assert np.array_equal(back.weights[0], net.weights[0] * 2) and np.array_equal(back.biases[0], net.biases[0] * 0.5)
    assert back.encoding == "wildbg_race"
    assert nn.Network.from_onnx(to_onnx(net), encoding="wildbg_race").encoding == "wildbg_race"
    odd = nn.Network(random_layers(rng, [198, 8, 6]), "relu", encoding="tesauro198")
    model = to_onnx(odd)
    model.graph.initializer[0].CopyFrom(numpy_helper.from_array(np.zeros((8, 100), np.float32), "w0"))
    with pytest.raises(NetworkError, match="no encoding has 100 inputs"):
        nn.Network.from_onnx(model)


def edited(model, index: int, node):
    onnx = pytest.importorskip("onnx")
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    copy.graph.node[index].CopyFrom(node)
    return copy


def test_from_onnx_errors() -> None:
    net = nn.Network(random_layers(np.random.default_rng(14), [202, 8, 6]), "relu", encoding="wildbg_contact")
    model = to_onnx(net)
    import onnx
    from onnx import helper

    leaky = helper.make_node("LeakyRelu", ["dense0"], ["act0"], name="leaky")
    with pytest.raises(NetworkError, match=r"ONNX node 'leaky' \(LeakyRelu\) is not supported"):
        nn.Network.from_onnx(edited(model, 1, leaky))
    softmax = helper.make_node("Softmax", ["dense1"], ["probabilities"], axis=0, name="sm")
    with pytest.raises(NetworkError, match=r"'sm' \(Softmax\): a softmax over axis 0"):
        nn.Network.from_onnx(edited(model, 3, softmax))
    transposed = helper.make_node("Gemm", ["input", "w0", "b0"], ["dense0"], transA=1, name="g")
    with pytest.raises(NetworkError, match="transA is not supported"):
        nn.Network.from_onnx(edited(model, 0, transposed))
    twice = helper.make_node("Gemm", ["dense0", "w1", "b1"], ["act0"], name="second")
    with pytest.raises(NetworkError, match=r"'second' .*two dense layers in a row"):
        nn.Network.from_onnx(edited(model, 1, twice))
    dynamic = helper.make_node("Gemm", ["input", "input", "b0"], ["dense0"], name="dyn")
    with pytest.raises(NetworkError, match=r"'dyn'.*weights must be an initializer"):
        nn.Network.from_onnx(edited(model, 0, dynamic))
    unfinished = onnx.ModelProto()
    unfinished.CopyFrom(model)
    del unfinished.graph.node[3]
    unfinished.graph.node[2].output[0] = "probabilities"
    with pytest.raises(NetworkError, match="ends without Softmax or Sigmoid"):
        nn.Network.from_onnx(unfinished)
    five = nn.Network(
        random_layers(np.random.default_rng(15), [202, 8, 5]), "relu", encoding="wildbg_contact", output="sigmoid"
    )
    softmax = helper.make_node("Softmax", ["dense1"], ["probabilities"], axis=-1)
    with pytest.raises(NetworkError, match="output='softmax' needs 6 outputs in the last layer, not 5"):
        nn.Network.from_onnx(edited(to_onnx(five), 3, softmax))
    with pytest.raises(TypeError, match="model must be"):
        nn.Network.from_onnx(3.5)


def test_from_onnx_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "onnx", None)
    needs = r"Network.from_onnx needs the onnx package: pip install 'bgcore-engine\[nn\]'"
    with pytest.raises(ImportError, match=needs):
        nn.Network.from_onnx("net.onnx")
