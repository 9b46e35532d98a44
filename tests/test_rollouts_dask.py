"""Rollouts on a real Dask cluster: a LocalCluster with two worker processes."""

from __future__ import annotations

import pytest

from bgcore import Position, rollout
from bgcore.rollouts import BLOCK

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


@pytest.mark.slow
def test_a_rollout_on_a_cluster_equals_the_local_one(client) -> None:
    start = Position.from_position_id("4HPwATDgc/ABMA")
    games = 4 * BLOCK + 100
    local = rollout(start, games=games, policy="pubeval", seed=21)
    remote = rollout(start, games=games, policy="pubeval", seed=21, executor=client)
    assert remote == local
    workers = client.run(lambda: __import__("os").getpid())
    assert len(set(workers.values())) == 2  # two processes really ran


@pytest.mark.slow
def test_truncated_rollouts_with_an_evaluator_on_a_cluster(client) -> None:
    from test_rollouts import constant

    start = Position.initial()
    kwargs = dict(games=BLOCK + 5, seed=2, truncate=4, evaluator=constant((0.6, 0.2, 0.01, 0.1, 0.0)))
    assert rollout(start, executor=client, **kwargs) == rollout(start, threads=2, **kwargs)


@pytest.mark.slow
def test_a_network_rollout_on_a_cluster_equals_the_local_one(client) -> None:
    from test_rollouts import small_net

    start = Position.from_position_id("4HPwATDgc/ABMA")
    for policy in (small_net(3), "wildbg"):  # a Network pickles; a name loads the net on each worker
        kwargs = dict(games=2 * BLOCK + 50, policy=policy, seed=4, truncate=9, evaluator="wildbg")
        assert rollout(start, executor=client, **kwargs) == rollout(start, threads=2, **kwargs)


@pytest.mark.slow
def test_a_cubeful_rollout_on_a_cluster_equals_the_local_one(client) -> None:
    from bgcore import Game
    from bgcore.ids import MatchId

    for match_id in (MatchId(jacoby=True), MatchId(match_length=7, score=(3, 4))):
        game = Game.from_ids("LR7hAQOMrw+CAA", match_id.encode(), beavers=not match_id.match_length)
        kwargs = dict(games=2 * BLOCK + 50, policy="wildbg", seed=6, cube=True)
        assert rollout(game, executor=client, **kwargs) == rollout(game, threads=2, **kwargs)
