"""engine.record: saved games are records of actions, replayed on load; damage and edits are refused."""

import json
import random

import pytest

from engine import record, record_format
from engine.game import GameFormatError, new_game
from engine.record import from_json
from engine.players import get_player


def played(seed, until=None, **options):
    """A game of computers (hard against easy), played to the end or until ``until(state)``."""
    options.setdefault("seats", ["person", "hard"][:1] + ["hard"] * (options.get("players", 2) - 1))
    state = new_game(seed=seed, **options)
    players = [get_player("hard", seed=s) for s in range(state.players)]
    while not state.is_over and not (until and until(state)):
        view = state.view(state.to_act)
        state.apply(players[state.to_act].choose(view, view["legal_actions"]))
    return state


@pytest.mark.parametrize("options", [{}, {"muggins": True}, {"target": 61}, {"players": 3},
                                     {"players": 4, "muggins": True}])
def test_a_whole_game_replays_to_the_same_game(options):
    state = played("record-whole", **options)
    text = state.to_json()
    loaded = from_json(text)
    assert loaded.to_json() == text and loaded.scores == state.scores and loaded.winner == state.winner
    assert loaded.history == state.history and loaded.backs == state.backs
    assert text == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))


def test_the_record_text_is_canonical_json_of_the_record():
    state = played("record-canon", until=lambda s: s.hand_number == 3)
    data = state.to_dict()
    assert record_format.record_text(data) == json.dumps(data, sort_keys=True, separators=(",", ":"))
    assert state.to_json() == record_format.record_text(data)


def test_the_tail_is_what_happened_since_a_person_last_acted():
    state = played("record-tail", until=lambda s: s.hand_number == 2 and s.phase == "play" and len(s.laid) == 3)
    _, events, before = record.replay(json.loads(state.to_json()), tail=True)
    assert before is not None and events
    # Replaying from the view before and applying the person's last action onward gives the
    # same events as the replay's tail.
    assert events[0]["type"] in ("discard", "play", "go", "show", "count_turn")
    fresh = new_game(seed="record-tail", seats=["person", "hard"])
    _, opening, nobody = record.replay(json.loads(fresh.to_json()), tail=True)
    assert nobody is None and [e["type"] for e in opening][:2] == ["cut", "deal"]


def test_a_new_game_has_its_own_secret_seed_and_is_not_practice():
    state = new_game(seats=["person", "easy"])
    data = state.to_dict()
    assert data["practice"] is False and len(data["seed"]) == 32
    assert from_json(state.to_json()).base_seed == state.base_seed


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for key in sorted(obj):
            yield from _leaves(obj[key], path + (key,))
    elif isinstance(obj, list):
        for i, item in enumerate(obj):
            yield from _leaves(item, path + (i,))
    yield path


JUNK = [None, -1, 0, 1, 2, 29, 30, 51, 52, 999, 1.5, True, False, "x", "", "person", "hard", [], {},
        [0], {"type": "play", "card": 3}, "0" * 64]


def _mutate(data, rng):
    """One random edit of a record's JSON value: a value replaced, a key dropped or added, a list
    item dropped, doubled or moved."""
    paths = list(_leaves(data))
    path = rng.choice(paths)
    if not path:
        return rng.choice(JUNK)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    kind = rng.randrange(5)
    if kind == 0 or not isinstance(parent, (list, dict)):
        parent[last] = rng.choice(JUNK)
    elif kind == 1:
        if isinstance(parent, dict):
            del parent[last]
        else:
            parent.pop(last)
    elif kind == 2 and isinstance(parent, list):
        parent.insert(last, parent[last])
    elif kind == 3 and isinstance(parent, list) and len(parent) > 1:
        parent.insert(rng.randrange(len(parent)), parent.pop(last))
    else:
        if isinstance(parent, dict):
            parent[rng.choice(["extra", "scores", "backs", "winner"])] = rng.choice(JUNK)
        else:
            parent[last] = rng.choice(JUNK)
    return data


def _games():
    return [played("fuzz-a", until=lambda s: s.hand_number == 3 and s.phase == "play"),
            played("fuzz-b", muggins=True), played("fuzz-c", players=3, target=61),
            played("fuzz-d", players=4, until=lambda s: s.hand_number == 2)]


FUZZ_EDITS = 5_000


@pytest.mark.slow
def test_fuzzed_saves_are_refused_or_the_very_same_game():
    """5,000 random edits of real saved games (values, keys and list items, and their text):
    each is refused with the engine's format error, or loads as exactly the same game."""
    rng = random.Random(2024)
    texts = [g.to_json() for g in _games()]
    refused = same = 0
    for i in range(FUZZ_EDITS):
        text = texts[i % len(texts)]
        if i % 3 == 2:  # an edit of the text itself
            at = rng.randrange(len(text))
            edited = text[:at] + rng.choice('0123456789"{}[],:aex ') + text[at + 1:]
        else:
            edited = json.dumps(_mutate(json.loads(text), rng))
        try:
            loaded = from_json(edited)
        except GameFormatError:
            refused += 1
            continue
        assert loaded.to_json() == text, f"edit {i} loaded as a different game"
        same += 1
    assert refused + same == FUZZ_EDITS and refused > FUZZ_EDITS * 0.95


def test_edits_with_a_recomputed_check_are_refused_or_whole_games():
    """An editor who recomputes the check still cannot load anything but a whole game: the
    replay refuses what is not one, and what loads is a game whose every score was earned."""
    rng = random.Random(77)
    texts = [g.to_json() for g in _games()]
    refused = 0
    for i in range(1000):
        data = _mutate(json.loads(texts[i % len(texts)]), rng)
        if isinstance(data, dict):
            try:
                data["check"] = record_format.record_check(data)
            except (KeyError, TypeError, ValueError, AttributeError):
                pass
        try:
            loaded = from_json(json.dumps(data))
        except GameFormatError:
            refused += 1
            continue
        again = from_json(loaded.to_json())  # what loaded is a game that saves and loads as itself
        assert again.to_json() == loaded.to_json() and again.scores == loaded.scores
    assert refused > 800


@pytest.mark.parametrize("options", [dict(seats=["person", "hard"]), dict(players=3, seats=["person", "easy", "hard"]),
                                     dict(muggins=True, seats=["person", "person"], names=["A", "B"])])
def test_replay_moves_gives_each_action_with_the_game_before_it(options):
    """The one replay of a game from its seed: each action in order with the game as it stood before
    it (the seat to act, its legal actions), applied once, ending in the very same game."""
    state = new_game(seed="moves-test", target=61, **options)
    rng = random.Random(7)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    seen = []
    for move in record.replay_moves(state):
        assert move.action in move.game.legal_actions()
        seen.append(move.action)
        if len(seen) % 2:
            assert move.apply() is move.apply()  # applied once, whoever applies it
    assert seen == record.all_actions(state)
    replayed = record.restart(state)
    for move in record.replay_moves(state, replayed):
        pass  # the generator applies what the loop did not
    assert replayed.to_json() == state.to_json()


def test_a_seated_computer_decides_from_its_view_only():
    """computer_action is what the table, the records and the codes ask: the same action for the
    same view, whatever was asked before."""
    state = new_game(seed="seated-test", seats=["hard", "easy"])
    first = record.computer_action(state)
    for _ in range(3):
        other = new_game(seed="seated-other", seats=["hard", "easy"])
        record.computer_action(other)
        assert record.computer_action(state) == first
    view = state.view(state.to_act)
    assert first == get_player("hard", seed=record.COMPUTER_SEED).choose(view, view["legal_actions"])


def test_the_computers_moves_are_checked_a_move_a_step_as_they_were_when_asked():
    """check_computers reads the game's moves when it is called, so the game may go on while its
    check is made a step at a time; replay(check=False) leaves that check out, and only that."""
    from engine.record import check_computers, computer_action, replay, replay_moves
    from tests.unit.test_share import seated_game

    state = seated_game(seed="checked-later", level="hard", stop=30)
    owed = sum(1 for move in replay_moves(state) if state.seats[move.game.to_act] != "person")
    steps = check_computers(state)
    while not state.is_over:  # played on meanwhile
        state.apply(computer_action(state) if state.seats[state.to_act] != "person" else state.legal_actions()[0])
    assert owed > 5 and len(list(steps)) == owed
    data = json.loads(state.to_json())
    assert replay(data, check=False)[0].to_json() == replay(data)[0].to_json() == state.to_json()
