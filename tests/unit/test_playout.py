"""Random complete games: every rule-level invariant checked after every action.

Each game plays random legal actions (seeded, so a failure replays) and, after every action:
every card is in exactly one place and the hands are the deal of the hand's seed, the count is
never above 31, each score is the sum of the score events, nobody is at the target while the
game goes on, and the game survives a JSON round trip exactly (play continues on the loaded
copy). At the end the winner is at or past the target and everyone else below it.

The default run is 200 two-player games (plus a few three- and four-player games); the slow run
adds 150 more two-player games and 60 each of three and four players.
"""

from __future__ import annotations

import random

import pytest

from engine import fairdeal
from engine.game import SKUNK_LINES, new_game
from engine.record import from_json
from engine.scoring import MAX_COUNT

DEFAULT_GAMES = 200
ROUNDTRIP_EVERY = 7  # steps between saving and loading the game again
FULL_GAMES = 350  # two-player games in all, the default ones included
MORE_PLAYERS_FULL_GAMES = 60


def two_player_options(i: int) -> dict:
    """Vary the rules across games: muggins every other game, the 61-point game every fifth."""
    return {"muggins": i % 2 == 1, "target": 61 if i % 5 == 0 else 121}


class Checker:
    """Plays one random game and checks it after every action."""

    def __init__(self, game_id: str, players: int = 2, roundtrip: bool = True, **options) -> None:
        self.rng = random.Random(f"playout:{game_id}")
        self.state = new_game(seed=f"playout-{game_id}", players=players, **options)
        self.players = players
        self.roundtrip = roundtrip
        self.totals = [0] * players
        self.deals: dict[tuple[str, int], fairdeal.Deal] = {}
        self.dealers: list[int] = []
        self.commitments: dict[int, str] = {}
        self.last_events: list[dict] = []
        self.steps = 0

    def absorb(self, events: list[dict]) -> None:
        for e in events:
            kind = e["type"]
            if kind == "score":
                assert e["points"] > 0, e
                self.totals[e["seat"]] += e["points"]
            elif kind in ("play", "go"):
                assert 0 < e["count"] <= MAX_COUNT, e
            elif kind == "deal":
                self.dealers.append(e["dealer"])
                self.commitments[e["hand_number"]] = e["commitment"]
            elif kind == "hand_end":
                assert fairdeal.verify(e["seed"], self.commitments[e["hand_number"]])
        self.last_events = events

    def deal_of(self, state) -> fairdeal.Deal:
        key = (state.seed, state.dealer)
        if key not in self.deals:
            self.deals[key] = fairdeal.deal(state.seed, self.players, state.dealer)
        return self.deals[key]

    def check_state(self) -> None:
        state = self.state
        n = self.players
        deal = self.deal_of(state)
        # Every card in exactly one place, and the places agree with the deal of the seed.
        placed = [c for h in state.held for c in h] + [c for _, c in state.laid] + list(state.crib)
        if state.starter is not None:
            placed.append(state.starter)
            assert state.starter == deal.starter
        assert len(placed) == len(set(placed)), "a card is in two places"
        dealt = [c for h in deal.hands for c in h] + list(deal.crib)
        assert set(placed) - {deal.starter} == set(dealt), "cards lost or gained"
        for s in range(n):
            own = state.held[s] + [c for t, c in state.laid if t == s] + (state.discards[s] or [])
            assert sorted(own) == sorted(deal.hands[s])
        assert sorted(state.crib) == sorted(list(deal.crib) + [c for d in state.discards if d for c in d])
        # The count never passes 31.
        assert 0 <= state.count() <= MAX_COUNT
        # Scores are the sums of the score events (by seat; partners share a score).
        assert self.totals == [sum(t) for t in state.tally]
        sides = [s % 2 if n == 4 else s for s in range(n)]
        made = [sum(self.totals[t] for t in range(n) if sides[t] == sides[s]) for s in range(n)]
        assert state.scores == [min(points, state.target) for points in made]  # the game ends there
        if not state.is_over:
            assert max(state.scores) < state.target
            assert state.to_act is not None and state.legal_actions()

    def run(self) -> "Checker":
        self.absorb(self.state.start_events)
        self.check_state()
        while not self.state.is_over:
            action = self.rng.choice(self.state.legal_actions())
            self.absorb(self.state.apply(action))
            self.check_state()
            if self.roundtrip and (self.steps % ROUNDTRIP_EVERY == 0 or self.state.is_over):
                # Loading replays the whole game, so every few steps is enough (and the last).
                text = self.state.to_json()
                self.state = from_json(text)
                assert self.state.to_json() == text
            self.steps += 1
            assert self.steps < 2000, "the game does not end"
        self.check_end()
        return self

    def check_end(self) -> None:
        state = self.state
        n = self.players
        assert state.phase == "over" and state.to_act is None and state.legal_actions() == []
        assert [e["type"] for e in self.last_events[-2:]] == ["hand_end", "game_over"]
        scores = state.scores
        winners = state.winners
        assert state.winner in winners
        for s in range(n):
            if s in winners:
                assert scores[s] >= state.target
            else:
                assert scores[s] < state.target
        first = state.cut["dealer"]
        assert self.dealers == [(first + i) % n for i in range(len(self.dealers))]
        single, double = SKUNK_LINES[state.target]
        losing = [scores[s] for s in range(n) if s not in winners]
        worst = min(losing)
        if double is not None and worst < double:
            kind = "double_skunk"
        elif worst < single:
            kind = "skunk"
        else:
            kind = "none"
        assert state.skunk == kind == self.last_events[-1]["skunk"]


def play_games(count: int, offset: int = 0) -> list[Checker]:
    return [Checker(f"2p-{i}", **two_player_options(i)).run() for i in range(offset, offset + count)]


def test_random_games_default():
    games = play_games(DEFAULT_GAMES)
    assert all(g.state.is_over for g in games)
    assert any(g.state.muggins for g in games) and any(g.state.target == 61 for g in games)
    assert {g.state.winner for g in games} == {0, 1}


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_more_players_default(players):
    for i in range(15):
        Checker(f"{players}p-{i}", players=players, muggins=i % 2 == 1).run()


@pytest.mark.slow
def test_random_games_full():
    games = play_games(FULL_GAMES - DEFAULT_GAMES, offset=DEFAULT_GAMES)
    skunks = {g.state.skunk for g in games}
    assert "skunk" in skunks and "none" in skunks


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_random_games_more_players_full(players):
    for i in range(MORE_PLAYERS_FULL_GAMES):
        Checker(f"{players}p-full-{i}", players=players, muggins=i % 2 == 1,
                target=61 if i % 5 == 0 else 121).run()
