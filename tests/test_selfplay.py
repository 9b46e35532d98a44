"""Self-play records and duels, played by the native engine."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import cube_model as model
from bgcore import DuelResult, Position, duel, nets
from bgcore.rules import ROLLS
from bgcore.selfplay import Player, SelfPlay, _cube_games, duel_matches, play
from refused import refused


def successors(pos: Position) -> set[Position]:
    """Every position the opponent may face after any roll of ``pos``."""
    return {child for dice in ROLLS for child in pos.children(dice)}


@pytest.mark.parametrize("policy", ["random", "pubeval", "race"])
def test_records_are_whole_games_in_order(policy: str) -> None:
    data = play(12, policy, seed=3)
    assert isinstance(data, SelfPlay)
    n = len(data.boards)
    assert data.boards.shape == (n, 26) and data.boards.dtype == np.int8
    assert data.game.shape == data.ply.shape == data.player.shape == (n,)
    assert sorted(set(data.game.tolist())) == list(range(12))
    assert (np.diff(data.game) >= 0).all()
    for g in range(12):
        rows = np.flatnonzero(data.game == g)
        assert data.ply[rows].tolist() == list(range(len(rows)))
        assert (data.player[rows] == data.ply[rows] % 2).all()
        positions = [Position.from_array(b) for b in data.boards[rows]]
        assert positions[0] == Position.initial()
        for before, after in itertools.pairwise(positions):
            assert after in successors(before)
        # The last player on roll bears off their last checker and wins.
        last = positions[-1]
        finals = [c for c in successors(last) if c.is_game_over()]
        assert finals, "the game's last position cannot end it"
        winner = int(data.player[rows[-1]])
        points = int(data.results[g])
        assert (points > 0) == (winner == 0)
        assert abs(points) in {int(c.result().outcome) for c in finals}


def test_the_opening_roll_has_no_doubles() -> None:
    """The first move of each game moves the pips of a non-double (3 to 11):
    with doubles allowed some would move 12 to 24."""
    data = play(300, "pubeval", seed=1)
    first = data.boards[data.ply == 1]
    moved = [167 - Position.from_array(b).pip_count()[1] for b in first]
    assert set(moved) <= set(range(3, 12)) and len(set(moved)) > 5


def test_same_seed_same_data_whatever_the_threads() -> None:
    a = play(40, "random", seed=9)
    b = play(40, "random", seed=9, threads=2)
    for field in ("boards", "game", "ply", "player", "results"):
        assert np.array_equal(getattr(a, field), getattr(b, field))
    c = play(40, "random", seed=10)
    assert not np.array_equal(a.results, c.results) or not np.array_equal(a.boards, c.boards)


def test_play_from_a_given_start() -> None:
    board = [0] * 26
    board[1] = 3
    board[24] = -3
    data = play(50, "race", seed=2, start=Position(board))
    assert (data.boards[data.ply == 0] == np.array(board, dtype=np.int8)).all()
    assert set(data.results.tolist()) <= {1, -1}


def test_pubeval_beats_random_in_duplicate_play() -> None:
    result = duel("pubeval", "random", games=1000, seed=2026)
    assert isinstance(result, DuelResult)
    assert result.games == 1000 and sum(result.wins) == 1000
    assert result.wins[0] >= 950
    assert result.points > 1.0 and result.stderr < 0.1


def test_a_deterministic_policy_against_itself_is_an_exact_draw() -> None:
    """Each pair plays the same dice with the colours swapped: the same
    policy on both sides replays the same game, won once by each."""
    result = duel("pubeval", "pubeval", games=200, seed=5)
    assert result.points == 0.0 and result.stderr == 0.0 and result.wins == (100, 100)


def test_duel_sides_are_swapped() -> None:
    a = duel("race", "random", games=301, seed=8)
    b = duel("random", "race", games=301, seed=8)
    assert a.points > 0 > b.points
    assert a.wins[0] > a.wins[1] and b.wins[0] < b.wins[1]
    assert duel("race", "random", games=301, seed=8, threads=2) == a


def test_a_python_policy_duels_a_builtin_one() -> None:
    from bgcore import encode

    mirror = duel(lambda c, o: encode.pubeval(c), "pubeval", games=100, seed=4)
    assert mirror.points == 0.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: play(-1), "games must be >= 0"),
        (lambda: play(3, "strong"), "policy must be one of"),
        (lambda: play(3, seed=-2), "seed must be 0 to"),
        (lambda: duel("random", 3), "policy_b must be one of"),
        (lambda: duel("random", "random", games=0), "games must be >= 1"),
        (lambda: play(3, start=Position([0] * 6 + [-15] + [0] * 19)), "finished game"),
    ],
)
def test_bad_arguments(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("games", [2**63, 10**30])
def test_huge_game_counts_are_refused_fast(games: int) -> None:
    message = r"^games must be at most 2\*\*63 - 1, not "
    refused(lambda: play(games), ValueError, message)
    refused(lambda: duel("race", "random", games=games), ValueError, message)


@pytest.mark.parametrize("threads", [65, 2**40])
def test_huge_thread_counts_are_refused_fast(threads: int) -> None:
    refused(lambda: play(3, threads=threads), ValueError, f"^threads must be 1 to 64, not {threads}$")
    refused(lambda: duel("race", "random", games=3, threads=threads), ValueError, "^threads must be 1 to 64")


def fewest_pips(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    return -(np.clip(children[:, 1:], 0, None) * np.arange(1, 26)).sum(axis=1).astype(float)


def test_a_duel_names_its_policies_and_prints_its_interval() -> None:
    result = duel(fewest_pips, "random", games=400, seed=6)
    assert result.policies == ("fewest_pips", "random")
    low, high = result.points - 1.959963984540054 * result.stderr, result.points + 1.959963984540054 * result.stderr
    points = f"{result.points:+.3f} ± {result.stderr:.3f}"
    assert str(result).splitlines() == [
        "duel of 400 games, fewest_pips against random, on duplicate dice (± standard error)",
        f"  points per game for fewest_pips  {points}   95%: {low:+.3f} to {high:+.3f}",
        f"  games won                        {result.wins[0]}-{result.wins[1]}",
    ]
    assert repr(result) == (
        f"<DuelResult of 400 games, fewest_pips against random: fewest_pips {result.points:+.3f} ± "
        f"{result.stderr:.3f} points per game (95% interval {low:+.3f} to {high:+.3f}), "
        f"won {result.wins[0]}-{result.wins[1]}>"
    )
    # the names do not count in equality: the same games, the same result
    assert result == duel(lambda c, o: fewest_pips(c, o), "random", games=400, seed=6)


# -- the cube -------------------------------------------------------------------------------------------------


def pips(bias: float):  # type: ignore[no-untyped-def]
    """A crude evaluator from the pip counts, ``bias`` in favour of the player on roll, with gammons."""

    def evaluate(boards: np.ndarray) -> np.ndarray:
        b = np.asarray(boards, dtype=np.int64)
        mine = np.clip(b[:, 1:26], 0, None) @ np.arange(1, 26)
        theirs = np.clip(-b[:, 0:25], 0, None) @ np.arange(25, 0, -1)
        win = np.clip(0.5 + bias + (theirs - mine) / 60, 0.02, 0.98)
        p = np.zeros((len(b), 5))
        p[:, 0] = win
        p[:, 1] = 0.3 * win**2
        p[:, 3] = 0.3 * (1 - win) ** 2
        return p

    return evaluate


WILDBG = nets.wildbg()
OPTIMIST, PESSIMIST = pips(0.12), pips(-0.12)


@pytest.mark.parametrize("rules", [dict(jacoby=True, beavers=True), dict(beavers=True), dict()])
def test_money_games_with_the_cube_are_the_models(rules: dict[str, bool]) -> None:
    """A player who doubles on an optimist's numbers against one who answers
    on a pessimist's: doubles, takes, passes and beavers, as bgcore.Game
    plays them with the same decisions, game for game."""
    players = (Player("pubeval", evaluator=OPTIMIST), Player("pubeval", evaluator=PESSIMIST))
    log = model.Log()
    expected = model.money_duel(200, 5, ("pubeval", "pubeval"), (OPTIMIST, PESSIMIST), log, **rules)
    engine = _cube_games(players, 200, 5, 1, rules=(0, 0, 0, 0, int("jacoby" in rules), int("beavers" in rules), 4096))
    assert np.array_equal(engine[:, 0], expected)
    assert log["double"] > 50 and log["take"] + log["beaver"] > 0 and log["pass"] > 0
    assert (log["beaver"] > 0) == ("beavers" in rules)
    result = duel(*players, games=200, seed=5, cube=True, **rules)
    points = expected.copy()
    points[1::2] *= -1
    assert result.points == pytest.approx(points.mean(), abs=1e-12) and result.cube


@pytest.mark.parametrize(("theories", "length"), [((WILDBG, None), 5), ((WILDBG, WILDBG), 3), ((WILDBG, WILDBG), 1)])
def test_matches_with_the_cube_are_the_models(theories: tuple, length: int) -> None:
    """Whole matches, Crawford game included: who won, the net points and
    the games, as bgcore.Match plays them with the same decisions."""
    players = tuple(Player(WILDBG, cube="theory" if t is not None else "none") for t in theories)
    log = model.Log()
    expected = model.matches(30, length, 2, (WILDBG, WILDBG), theories, log)
    assert np.array_equal(_cube_games(players, 30, 2, 1, match_length=length), expected)
    if length > 1:
        assert log["crawford"] > 0 and log["post-crawford"] > 0 and log["double"] > 0
    result = duel_matches(*players, matches=30, length=length, seed=2)
    won = expected[:, 0].copy()
    won[1::2] = 1 - won[1::2]
    assert result.wins == (int(won.sum()), 30 - int(won.sum())) and result.games == int(expected[:, 2].sum())


def test_the_cube_handling_player_beats_the_one_without() -> None:
    theory, none = Player("wildbg"), Player("wildbg", cube="none")
    money = duel(theory, none, games=400, seed=3, cube=True)
    assert money.points > 0.2 and money.points - 3 * money.stderr > 0
    assert duel(none, theory, games=400, seed=3, cube=True).points == -money.points
    matches = duel_matches(theory, none, matches=100, length=5, seed=3)
    assert matches.share > 0.55


def test_cube_duels_are_the_same_whatever_the_threads() -> None:
    a, b = Player("wildbg"), Player("wildbg", cube="none")
    assert duel(a, b, games=101, seed=8, cube=True, threads=2) == duel(a, b, games=101, seed=8, cube=True)
    assert duel_matches(a, b, matches=21, length=3, seed=8, threads=2) == duel_matches(
        a, b, matches=21, length=3, seed=8
    )
    assert duel_matches(a, b, matches=21, length=3, seed=9) != duel_matches(a, b, matches=21, length=3, seed=8)


def test_a_python_cube_evaluator_makes_the_native_ones_decisions() -> None:
    native = duel_matches(Player("wildbg"), Player("pubeval", cube="none"), matches=20, length=3, seed=4)
    python = duel_matches(
        Player("wildbg", evaluator=lambda boards: WILDBG(boards)), Player("pubeval", cube="none"), 20, 3, seed=4
    )
    assert python == native


def test_players_and_cube_results_print() -> None:
    assert repr(Player("wildbg", cube="none")) == "Player('wildbg', cube='none')"
    assert Player("pubeval", evaluator="wildbg").__name__ == "pubeval with wildbg's cube"
    result = duel(Player("wildbg"), Player("wildbg", cube="none"), games=20, seed=1, cube=True)
    assert str(result).startswith("duel of 20 games with the cube, wildbg against wildbg without cube")
    assert repr(result).startswith("<DuelResult of 20 games with the cube, wildbg against wildbg without cube: ")
    matches = duel_matches(Player("wildbg"), Player("wildbg", cube="none"), matches=10, length=3, seed=1)
    lines = str(matches).splitlines()
    assert lines[0] == (
        "duel of 10 3-point matches, wildbg against wildbg without cube, on duplicate dice (± standard error)"
    )
    assert lines[1].split()[:5] == ["matches", "won", "by", "wildbg", f"{matches.share:.1%}"]
    assert lines[-1].split() == ["games", "played", f"{matches.games:,}"]
    assert repr(matches).startswith(
        "<MatchResult of 10 3-point matches, wildbg against wildbg without cube: wildbg won"
    )


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: Player("pubeval"), ValueError, "needs an evaluator for its cube decisions"),
        (lambda: Player("wildbg", cube="sometimes"), ValueError, "cube must be one of 'theory', 'none'"),
        (lambda: Player("wildbg", evaluator=3), ValueError, "needs evaluator="),
        (lambda: duel(Player("wildbg"), "wildbg", games=2), ValueError, "cube=True"),
        (lambda: duel("wildbg", "wildbg", games=2, beavers=True), ValueError, "cube=True"),
        (lambda: duel("pubeval", "wildbg", games=2, cube=True), ValueError, "needs an evaluator"),
        (
            lambda: duel("wildbg", "wildbg", games=2, cube=True, start=Position.initial()),
            ValueError,
            "no start=",
        ),
        (lambda: duel_matches("wildbg", "wildbg", 2, length=26), ValueError, "length must be 1 to 25"),
        (lambda: duel_matches("wildbg", "wildbg", 0), ValueError, "matches must be >= 1"),
    ],
)
def test_bad_cube_duels(call, error: type, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=message):
        call()
