"""Rollouts: exact values, calibrated errors, reproducibility, bad input."""

from __future__ import annotations

import math
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache

import numpy as np
import pytest

from bgcore import Game, IllegalActionError, Position, nn, rollout
from bgcore.acey import AceyDeuceyPosition
from bgcore.rollouts import BLOCK, RolloutResult
from refused import refused

# Worker processes start fresh (spawn): forking a process whose native
# threads may hold a lock (the sanitizers' allocator, say) can deadlock the child.
SPAWN = multiprocessing.get_context("spawn")


def ace_race(mine: int, theirs: int) -> Position:
    """Both sides' last checkers on their ace points: every play is forced."""
    board = [0] * 26
    board[1] = mine
    board[24] = -theirs
    return Position(board)


@cache
def ace_race_win(mine: int, theirs: int) -> float:
    """The exact chance that the player on roll wins an ace-point race."""
    p = 0.0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            left = mine - min(4 if d1 == d2 else 2, mine)
            p += (1.0 if left == 0 else 1.0 - ace_race_win(theirs, left)) / 36
    return p


def test_exact_values_of_forced_races() -> None:
    assert ace_race_win(1, 5) == pytest.approx(1.0)
    assert ace_race_win(3, 3) == pytest.approx(1 / 6 + 5 / 6 * 5 / 6)


@pytest.mark.parametrize("stratify", [True, False])
def test_a_forced_race_lands_within_its_errors(stratify: bool) -> None:
    exact = ace_race_win(9, 8)
    r = rollout(ace_race(9, 8), games=2 * BLOCK, policy="random", seed=5, stratify=stratify)
    assert r.games == 2 * BLOCK
    assert abs(r.probabilities[0] - exact) < 3 * r.stderr[0]
    assert r.probabilities[1:] == (0.0, 0.0, 0.0, 0.0)
    assert r.equity == pytest.approx(2 * r.probabilities[0] - 1)
    assert r.equity_stderr == pytest.approx(2 * r.stderr[0])


@pytest.mark.slow
@pytest.mark.parametrize("stratify", [True, False])
def test_errors_are_calibrated_over_many_seeds(stratify: bool) -> None:
    """Over 80 seeds the squared z-scores average about 1: the errors are
    neither too small nor (which stratification would make of plain errors)
    too large."""
    exact = ace_race_win(9, 8)
    z = []
    for seed in range(80):
        r = rollout(ace_race(9, 8), games=BLOCK, policy="random", seed=seed, stratify=stratify)
        z.append((r.probabilities[0] - exact) / r.stderr[0])
    mean_square = float(np.mean(np.square(z)))
    assert 0.6 < mean_square < 1.5, mean_square
    assert abs(float(np.mean(z))) < 3 / math.sqrt(len(z))


def test_stratification_makes_a_two_roll_race_exact() -> None:
    """4 against 4 on the ace points is decided by the first two rolls: each
    full block of games, which covers every pair once, gives the exact value."""
    exact = ace_race_win(4, 4)
    r = rollout(ace_race(4, 4), games=2 * BLOCK, policy="random", seed=1)
    assert r.probabilities[0] == pytest.approx(exact, abs=1e-12)
    assert r.stderr[0] == 0.0
    plain = rollout(ace_race(4, 4), games=2 * BLOCK, policy="random", seed=1, stratify=False)
    assert plain.stderr[0] > 0.005
    assert (
        sum(
            rollout(ace_race(9, 8), games=BLOCK, policy="random", seed=s).stderr[0]
            < rollout(ace_race(9, 8), games=BLOCK, policy="random", seed=s, stratify=False).stderr[0]
            for s in range(5)
        )
        >= 4
    )


@pytest.mark.slow
def test_partial_blocks_are_not_overconfident() -> None:
    exact = ace_race_win(9, 8)
    z = [
        (r.probabilities[0] - exact) / r.stderr[0]
        for r in (rollout(ace_race(9, 8), games=1000, policy="random", seed=s) for s in range(60))
    ]
    assert float(np.mean(np.square(z))) < 1.5


def test_gammons_and_backgammons_are_counted() -> None:
    # The opponent still has all 15 checkers, some in the player's home
    # board: bearing off the last two checkers wins a backgammon at once.
    board = [0] * 26
    board[1] = 2
    board[3] = -13
    board[24] = -2
    r = rollout(Position(board), games=400, policy="pubeval", seed=3)
    assert r.probabilities == (1.0, 1.0, 1.0, 0.0, 0.0)
    assert r.stderr == (0.0, 0.0, 0.0, 0.0, 0.0)
    assert r.equity == 3.0


def test_same_seed_same_result_whatever_the_threads_and_lanes() -> None:
    start = Position.from_position_id("4HPwATDgc/ABMA")
    base = rollout(start, games=BLOCK + 300, policy="pubeval", seed=11)
    for threads, in_flight in ((2, 256), (1, 1), (2, 7), (3, 1000)):
        assert rollout(start, games=BLOCK + 300, seed=11, threads=threads, in_flight=in_flight) == base
    assert rollout(start, games=BLOCK + 300, seed=12) != base


def test_executors_give_the_same_bits() -> None:
    start = Position.from_position_id("4HPwATDgc/ABMA")
    games = 3 * BLOCK + 17
    base = rollout(start, games=games, policy="race", seed=3)
    with ThreadPoolExecutor(2) as pool:
        assert rollout(start, games=games, policy="race", seed=3, executor=pool) == base
    with ProcessPoolExecutor(2, mp_context=SPAWN) as pool:
        assert rollout(start, games=games, policy="race", seed=3, executor=pool) == base


def small_net(seed: int = 0) -> nn.Network:
    """A 198-16-5 sigmoid network with random weights."""
    rng = np.random.default_rng(seed)
    layers = [(rng.normal(0, 0.3, (198, 16)), rng.normal(0, 0.3, 16)), (rng.normal(0, 0.3, (16, 5)), np.zeros(5))]
    return nn.Network(layers, ["sigmoid"], encoding="tesauro198", output="sigmoid")


@pytest.mark.parametrize("policy", ["wildbg", small_net()], ids=["wildbg", "198-16-5"])
def test_a_network_rollout_is_the_same_whatever_the_threads_lanes_and_executors(policy: object) -> None:
    """Networks run on every native thread, each with its own scratch: the
    games do not depend on the threads, the lanes or the process."""
    start = Position.from_position_id("4HPwATDgc/ABMA")
    games = BLOCK + 61
    base = rollout(start, games=games, policy=policy, seed=7)  # type: ignore[arg-type]
    for threads, in_flight in ((2, 256), (1, 1), (3, 5), (2, 1000)):
        again = rollout(start, games=games, policy=policy, seed=7, threads=threads, in_flight=in_flight)  # type: ignore[arg-type]
        assert again == base
    with ThreadPoolExecutor(2) as pool:
        assert rollout(start, games=games, policy=policy, seed=7, threads=2, executor=pool) == base  # type: ignore[arg-type]
    with ProcessPoolExecutor(2, mp_context=SPAWN) as pool:  # the network pickles to the workers
        assert rollout(start, games=games, policy=policy, seed=7, executor=pool) == base  # type: ignore[arg-type]
    assert rollout(start, games=games, policy=policy, seed=8) != base  # type: ignore[arg-type]


def numpy_race(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Fewest pips left, as a Python policy (module level: picklable)."""
    mine = np.where(children[:, 1:] > 0, children[:, 1:], 0).astype(np.int64)
    return -(mine * np.arange(1, 26)).sum(axis=1).astype(np.float64)


def test_a_python_policy_sees_every_game_in_flight() -> None:
    calls = []

    def policy(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        assert children.dtype == np.int8 and children.shape[1] == 26
        assert offsets[0] == 0 and offsets[-1] == len(children) and (np.diff(offsets) > 0).all()
        calls.append(len(offsets) - 1)
        return numpy_race(children, offsets)

    r = rollout(Position.initial(), games=500, policy=policy, seed=2, in_flight=100)
    assert max(calls) == 100
    assert r == rollout(Position.initial(), games=500, policy=numpy_race, seed=2, threads=2)
    with ProcessPoolExecutor(2, mp_context=SPAWN) as pool:
        assert rollout(Position.initial(), games=500, policy=numpy_race, seed=2, executor=pool) == r


def test_a_python_policy_plays_its_best_scored_child() -> None:
    """Scores that favour the last child (or the first of equal ones) give
    different games than the built-in random policy, and the same each time."""
    first = rollout(Position.initial(), games=200, policy=lambda c, o: np.zeros(len(c)), seed=1)
    last = rollout(Position.initial(), games=200, policy=lambda c, o: np.arange(len(c), dtype=float), seed=1)
    assert first != last
    assert first == rollout(Position.initial(), games=200, policy=lambda c, o: np.zeros(len(c)), seed=1)


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        (lambda c, o: np.zeros(len(c) + 1), "one score per child"),
        (lambda c, o: np.full(len(c), np.nan), "NaN or infinite"),
        (lambda c, o: 1 / 0, "division by zero"),
    ],
)
def test_a_failing_policy_raises(policy, message: str) -> None:
    with pytest.raises((ValueError, ZeroDivisionError), match=message):
        rollout(Position.initial(), games=50, policy=policy, threads=2)


def constant(p: tuple[float, ...]):
    def evaluator(boards: np.ndarray) -> np.ndarray:
        assert boards.dtype == np.int8 and boards.shape[1] == 26
        return np.tile(p, (len(boards), 1))

    return evaluator


def test_truncated_games_take_the_evaluators_view() -> None:
    p = (0.7, 0.2, 0.05, 0.1, 0.01)
    start = Position.initial()
    at_once = rollout(start, games=100, truncate=0, evaluator=constant(p))
    assert at_once.probabilities == pytest.approx(p)
    assert at_once.stderr == pytest.approx((0, 0, 0, 0, 0), abs=1e-6)
    after_one = rollout(start, games=100, truncate=1, evaluator=constant(p))  # player 1 on roll
    assert after_one.probabilities == pytest.approx((0.3, 0.1, 0.01, 0.2, 0.05))
    after_two = rollout(start, games=100, truncate=2, evaluator=constant(p), threads=2)
    assert after_two.probabilities == pytest.approx(p)


def test_truncation_only_touches_unfinished_games() -> None:
    # Every game ends on the first ply: the evaluator is never needed.
    r = rollout(ace_race(2, 8), games=100, truncate=1, evaluator=constant((0.0,) * 5))
    assert r.probabilities == (1.0, 0.0, 0.0, 0.0, 0.0)


def test_a_bad_evaluator_raises() -> None:
    with pytest.raises(ValueError, match=r"shape \(\d+, 5\)"):
        rollout(Position.initial(), games=10, truncate=2, evaluator=lambda b: np.zeros(len(b)))
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\]"):
        rollout(Position.initial(), games=10, truncate=2, evaluator=constant((2.0, 0, 0, 0, 0)))


def test_a_game_at_a_match_score_gives_its_mwc() -> None:
    game = Game(match_length=5, score=(2, 3), dice=7)
    game.roll()
    game.play(game.legal_moves()[0])
    r = rollout(game, games=600, seed=4)
    assert r.mwc == pytest.approx(game.mwc(r.probabilities), abs=1e-12)
    assert 0 < r.mwc_stderr < 0.05
    money = Game(dice=7)
    money.roll()
    money.play(money.legal_moves()[0])
    assert rollout(money, games=100).mwc is None


def test_the_result_pickles_and_prints() -> None:
    r = rollout(ace_race(3, 3), games=100, policy="random")
    assert pickle.loads(pickle.dumps(r)) == r
    text = str(r)
    assert "rollout of 100 games, random for both sides, seed 0" in text and "equity" in text
    assert isinstance(r, RolloutResult)


def test_progress_shows_a_bar(capsys: pytest.CaptureFixture[str]) -> None:
    rollout(ace_race(5, 5), games=BLOCK * 3, policy="random", progress=True)
    err = capsys.readouterr().err
    assert "rollout" in err and "game" in err and "equity" in err


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"games": 0}, ValueError, "games must be >= 1"),
        ({"games": 1.5}, ValueError, "games must be an int"),
        ({"seed": -1}, ValueError, "seed must be 0 to"),
        ({"seed": 2**64}, ValueError, "seed must be 0 to"),
        ({"threads": 0}, ValueError, "threads must be 1 to 64"),
        ({"policy": "gnubg"}, ValueError, "policy must be one of"),
        ({"truncate": 3}, ValueError, "needs evaluator="),
        ({"evaluator": constant((0.5, 0, 0, 0, 0))}, ValueError, "give truncate="),
        ({"truncate": -1, "evaluator": constant((0.5, 0, 0, 0, 0))}, ValueError, "truncate must be >= 0"),
        ({"in_flight": 0}, ValueError, "in_flight must be >= 1"),
    ],
)
def test_bad_arguments(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        rollout(Position.initial(), **kwargs)


def test_bad_starts() -> None:
    with pytest.raises(TypeError, match="Position or a Game"):
        rollout("4HPwATDgc/ABMA")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="finished game"):
        rollout(Position([0] * 6 + [-15] + [0] * 18 + [0]))
    game = Game(dice=1)
    with pytest.raises(IllegalActionError, match="has not begun"):
        rollout(game)
    game.roll()
    with pytest.raises(IllegalActionError, match="before the roll"):
        rollout(game)


@pytest.mark.parametrize(
    ("options", "counts"),
    [
        ({}, (2.0, 1.0, 1.0, -1.0, -1.0)),
        ({"jacoby": True}, (2.0, 0.0, 0.0, 0.0, 0.0)),  # the cube centred: gammons count single
        ({"variant": "tabla"}, (2.0, 1.0, 0.0, -1.0, 0.0)),  # a backgammon ("mars") counts 2
        ({"match_length": 5, "score": (2, 3)}, None),  # at the score's gammon prices
    ],
)
def test_a_games_equity_counts_each_result_as_the_game_scores_it(
    options: dict[str, object], counts: tuple[float, ...] | None
) -> None:
    from bgcore import met

    game = Game(dice=7, **options)  # type: ignore[arg-type]
    game.roll()
    game.play(game.legal_moves()[0])
    r = rollout(game, games=1296, seed=4)
    same_games = rollout(game.position, games=1296, seed=4)  # counted as plain money play
    assert r.probabilities == same_games.probabilities
    assert r.equity == pytest.approx(game.cubeless_equity(r.probabilities), abs=1e-12)
    assert 0 < r.equity_stderr < 0.1
    if counts is not None:
        assert r.equity == pytest.approx(float(np.dot(counts, r.probabilities)) - 1.0, abs=1e-12)
    else:
        assert r.mwc == pytest.approx(met.eq_to_mwc(r.equity, game), abs=1e-12)
    if options:  # the games had gammons (and tabla's backgammons): the counts differ
        assert r.equity != pytest.approx(same_games.equity, abs=1e-6)


# --- hostile counts, refused fast; the result's name and summary; the bar at any width ---------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 2**63}, r"^games must be at most 2\*\*63 - 1, not 9223372036854775808$"),
        ({"games": 10**30}, r"^games must be at most 2\*\*63 - 1, not "),
        ({"in_flight": 2**31}, r"^in_flight must be at most 65,536, not 2147483648$"),
        ({"in_flight": 2**16 + 1}, r"^in_flight must be at most 65,536, not 65537$"),
        ({"truncate": 2**31, "evaluator": constant((0.5, 0, 0, 0, 0))}, r"^truncate must be at most 2\*\*31 - 1 plies"),
        (
            {"truncate": 10**30, "evaluator": constant((0.5, 0, 0, 0, 0))},
            r"^truncate must be at most 2\*\*31 - 1 plies",
        ),
        ({"threads": 2**40}, r"^threads must be 1 to 64, not 1099511627776$"),
        ({"seed": 2**64}, r"^seed must be 0 to 18446744073709551615, not 18446744073709551616$"),
        ({"seed": -(2**70)}, r"^seed must be 0 to 18446744073709551615, not "),
    ],
)
def test_huge_counts_are_refused_fast(kwargs: dict, message: str) -> None:
    refused(lambda: rollout(Position.initial(), **kwargs), ValueError, message)


def test_the_largest_counts_are_taken() -> None:
    from bgcore.rollouts import MAX_IN_FLIGHT, MAX_TRUNCATE

    evaluator = constant((0.5, 0, 0, 0, 0))
    many = rollout(
        ace_race(2, 2), games=10, policy="race", in_flight=MAX_IN_FLIGHT, truncate=MAX_TRUNCATE, evaluator=evaluator
    )
    assert many == rollout(ace_race(2, 2), games=10, policy="race", truncate=1000, evaluator=evaluator)


def test_a_match_longer_than_the_equity_table_is_refused_before_any_game() -> None:
    from bgcore.errors import MatchEquityError
    from bgcore.met import MAX_AWAY

    long_match = Game(match_length=MAX_AWAY + 1, dice=3)
    long_match.roll()
    long_match.play(long_match.legal_moves()[0])
    history = list(long_match.history)
    refused(lambda: rollout(long_match, games=10**6, policy="race"), MatchEquityError, f"up to {MAX_AWAY} points")
    assert list(long_match.history) == history  # nothing changed
    covered = Game(match_length=MAX_AWAY, dice=3)
    covered.roll()
    covered.play(covered.legal_moves()[0])
    assert rollout(covered, games=10, policy="race").mwc is not None


def numpy_pips(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    return -(np.clip(children[:, 1:], 0, None) * np.arange(1, 26)).sum(axis=1).astype(float)


def test_the_result_says_which_policy_made_it() -> None:
    start = ace_race(4, 4)
    assert rollout(start, games=100, policy="race").policy == "race"
    assert rollout(start, games=100).policy == "pubeval"
    assert rollout(start, games=100, policy=numpy_pips).policy == "numpy_pips"
    from functools import partial

    assert rollout(start, games=100, policy=partial(numpy_pips)).policy == "partial"
    assert rollout(AceyDeuceyPosition.initial(), games=2, policy="random").policy == "random"


def test_the_result_prints_its_policy_games_and_95_percent_interval() -> None:
    r = rollout(ace_race(5, 4), games=3000, policy="race", seed=4)
    low, high = r.equity - 1.959963984540054 * r.equity_stderr, r.equity + 1.959963984540054 * r.equity_stderr
    text = str(r)
    assert text.splitlines()[0] == "rollout of 3,000 games, race for both sides, seed 4 (± standard error)"
    assert f"{r.equity:+8.5f} ± {r.equity_stderr:.5f}   95%: {low:+.5f} to {high:+.5f}" in text
    assert repr(r) == (
        f"<RolloutResult of 3,000 games, race, seed 4: equity {r.equity:+.5f} ± {r.equity_stderr:.5f} "
        f"(95% interval {low:+.5f} to {high:+.5f})>"
    )
    game = Game(match_length=5, dice=7)
    game.roll()
    game.play(game.legal_moves()[0])
    at_score = rollout(game, games=200, policy="race")
    assert at_score.mwc is not None and at_score.mwc_stderr is not None
    lo, hi = (
        at_score.mwc - 1.959963984540054 * at_score.mwc_stderr,
        at_score.mwc + 1.959963984540054 * at_score.mwc_stderr,
    )
    assert f"(95% interval {lo:.5f} to {hi:.5f})>" in repr(at_score) and "\n" not in repr(at_score)
    assert f"95%: {lo:.5f} to {hi:.5f}" in str(at_score)


def test_the_progress_line_keeps_the_total_at_any_width() -> None:
    from bgcore.rollouts import _progress_line

    fields = {"equity": "+0.1234 ± 0.0056", "rate": "123,456"}
    for width in range(8, 140):
        line, bar = _progress_line(width, 123_456, 1_000_000, fields, 83.0)
        assert "123,456/1,000,000" in line
        assert len(line) + (bar + 2 if bar else 0) <= max(width, len("123,456/1,000,000"))
    wide, bar = _progress_line(120, 123_456, 1_000_000, fields, 83.0)
    assert wide == "rollout 123,456/1,000,000 games  equity +0.1234 ± 0.0056  123,456 games/s  0:01:23 left"
    assert bar == 30


@pytest.mark.parametrize("columns", [24, 40, 80, 200])
def test_the_progress_bar_on_a_narrow_terminal(
    columns: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws as on a terminal
    monkeypatch.setenv("COLUMNS", str(columns))
    rollout(ace_race(5, 5), games=BLOCK * 3, policy="random", progress=True)
    err = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", capsys.readouterr().err)  # the cursor's moves
    lines = [line for line in re.split(r"[\r\n]", err) if line.strip()]
    assert lines and all(len(line) < columns for line in lines)
    assert "3,888/3,888" in lines[-1]
