"""Computer opponents: always legal, views only, deterministic, and hard really beats easy."""

from __future__ import annotations

import ast
import inspect
import json
import random
import subprocess
import sys
from math import comb
from pathlib import Path

import pytest

import engine.match
import engine.players
from engine.analysis import discard_options
from engine.cards import RANK_OF, VALUE_OF, parse_cards
from engine.game import new_game
from engine.record import from_json
from engine.match import play_match, wilson_interval
from engine.players import PLAYER_NAMES, get_player, owns_crib, peg_points, unseen_cards
from engine.scoring import MAX_COUNT, count_of, score_play, show_total

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
PYTHON = str(VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable))
PLAYERS_SOURCE = Path(engine.players.__file__)


def play_out(names, seed, players=2, check=None, **options):
    """Play one game with computer players by seat; check every action is one of the legal ones."""
    state = new_game(seed=seed, players=players, **options)
    seats = [get_player(name, seed=f"{seed}:{i}") for i, name in enumerate(names)]
    actions = []
    events = list(state.start_events)
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        legal = view["legal_actions"]
        assert legal == state.legal_actions()
        action = seats[seat].choose(view, legal)
        assert any(action is a for a in legal), (action, legal)
        if check:
            check(state, seat, view, action)
        actions.append((seat, action))
        events.extend(state.apply(action))
    return state, actions, events


# ------------------------------------------------------------------------------------------
# The interface


def test_names_and_bad_names():
    assert PLAYER_NAMES == ("easy", "hard", "expert")
    assert get_player("easy").name == "easy" and get_player("hard", seed="x").seed == "x"
    for bad in ("Hard", "master", None, 3):
        with pytest.raises(ValueError, match="no computer opponent"):
            get_player(bad)
    with pytest.raises(ValueError, match="seed"):
        get_player("hard", seed=1.5)


def test_choose_takes_a_view_and_the_legal_actions_only():
    for name in PLAYER_NAMES:
        params = list(inspect.signature(get_player(name).choose).parameters)
        assert params == ["view", "legal_actions"]
    assert list(inspect.signature(get_player).parameters) == ["name", "seed"]


def test_players_module_never_imports_the_game():
    tree = ast.parse(PLAYERS_SOURCE.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
    assert not any("game" in name or "GameState" in name for name in imported), imported


def test_bad_calls_are_clear_errors():
    state = new_game(seed="bad")
    view = state.view(0)
    player = get_player("hard")
    with pytest.raises(ValueError, match="view"):
        player.choose(state, view["legal_actions"])  # the state itself is refused
    with pytest.raises(ValueError, match="no legal actions"):
        player.choose(state.view(1), [])


def test_peg_points_equals_score_play():
    rng = random.Random(5)
    for _ in range(3000):
        cards, count = [], 0
        for card in rng.sample(range(52), 8):
            if count + VALUE_OF[card] > MAX_COUNT:
                break
            cards.append(card)
            count += VALUE_OF[card]
            assert peg_points([RANK_OF[c] for c in cards], count) == score_play(cards).total
    for text in ("4H 4S 4D 4C", "5H 5S 5D", "AS 2S 3S 4S 5S 6S 7S", "2 8 6 7 5", "4 6 6 5", "KH QH JH"):
        cards = parse_cards(" ".join(t if len(t) > 1 and t[-1] in "HSDC" else t + s
                                     for t, s in zip(text.split(), "HSDCHSDCHS")))
        assert peg_points([RANK_OF[c] for c in cards], count_of(cards)) == score_play(cards).total


# ------------------------------------------------------------------------------------------
# Always legal, whatever the seats, roles and rules


@pytest.mark.parametrize("names", [("hard", "easy"), ("easy", "hard"), ("hard", "hard"), ("easy", "easy")])
@pytest.mark.parametrize("muggins", [False, True])
def test_two_player_games_are_always_legal(names, muggins):
    for i in range(6):
        state, actions, _ = play_out(names, f"legal-{names}-{muggins}-{i}", muggins=muggins,
                                     target=61 if i % 3 == 0 else 121)
        assert state.winner in (0, 1)
        assert {a["type"] for _, a in actions} >= ({"discard", "play", "count"} if muggins else {"discard", "play"})


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("muggins", [False, True])
def test_three_and_four_player_games_are_always_legal(players, muggins):
    rng = random.Random(players)
    for i in range(4):
        names = [rng.choice(PLAYER_NAMES) for _ in range(players)]
        state, actions, _ = play_out(names, f"multi-{players}-{muggins}-{i}", players=players, muggins=muggins)
        assert state.is_over
        assert all(len(a["cards"]) == 1 for _, a in actions if a["type"] == "discard")


def test_computer_counts_its_own_hand_correctly():
    for names in (("hard", "easy"), ("easy", "hard")):
        state, _, events = play_out(names, f"count-{names}", muggins=True)
        shows = [e for e in events if e["type"] == "show"]
        assert shows and all(e["claimed"] == e["total"] for e in shows)
        assert not any(e["type"] == "score" and e["reason"] == "muggins" for e in events)


# ------------------------------------------------------------------------------------------
# Views only


def test_decisions_from_a_plain_json_copy_of_the_view_are_the_same():
    def check(state, seat, view, action):
        copy = json.loads(json.dumps(view))
        again = get_player(names[seat], seed=f"{seed}:{seat}").choose(copy, copy["legal_actions"])
        assert again == action

    for names in (("hard", "easy"), ("easy", "hard")):
        seed = f"json-{names}"
        play_out(names, seed, check=check, muggins=True)


def stock(state):
    """Cards nobody holds and nobody can see: not dealt to a hand, the crib or the starter."""
    used = {c for hand in state.held for c in hand} | {c for _, c in state.laid} | set(state.crib)
    used |= {c for d in state.discards if d for c in d}
    used.add(int(state._deal.starter))  # not turned up yet in the discard, but not spare either
    return sorted(set(range(52)) - used)


def swap_hidden(state, seat):
    """A copy of the game in which every card `seat` cannot see is exchanged for another."""
    other = 1 - seat
    copy = from_json(state.to_json())
    spare = stock(copy)
    random.Random(seat).shuffle(spare)
    swap = {c: spare.pop() for c in copy.held[other] + (copy.discards[other] or [])}
    copy.held[other] = sorted(swap.get(c, c) for c in copy.held[other])
    if copy.discards[other]:
        copy.discards[other] = sorted(swap.get(c, c) for c in copy.discards[other])
    copy.crib = sorted(swap.get(c, c) for c in copy.crib)
    return copy


def test_a_view_holds_no_hidden_card_and_the_choice_depends_on_nothing_else():
    """Exchange every card a seat cannot see: its view, and so its choice, must not change."""
    checked = 0
    for names in (("hard", "easy"), ("easy", "hard"), ("hard", "hard")):
        seed = f"hidden-{names}"
        state = new_game(seed=seed)
        players = [get_player(n, seed=i) for i, n in enumerate(names)]
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            if state.phase in ("discard", "play"):
                swapped = swap_hidden(state, seat)
                if state.held[1 - seat]:
                    assert swapped.held[1 - seat] != state.held[1 - seat]
                assert swapped.view(seat) == view
                assert players[seat].choose(swapped.view(seat), view["legal_actions"]) == \
                    players[seat].choose(view, view["legal_actions"])
                checked += 1
            state.apply(players[seat].choose(view, view["legal_actions"]))
    assert checked > 100


def test_a_view_never_shows_the_other_hand_before_the_show():
    state = new_game(seed="peek")
    players = [get_player("hard", 0), get_player("easy", 1)]
    while not state.is_over:
        for seat in (0, 1):
            view = state.view(seat)
            if view["phase"] in ("discard", "play"):
                hidden = set(state.held[1 - seat]) | set(state.discards[1 - seat] or ())
                visible = set(view["hand"]) | set(view["played"]) | set(view["discards"] or ())
                visible |= {c for _, c in view["laid"]} | set(view["crib"] or ()) | {view["starter"]}
                assert not hidden & visible
                assert set(view["hand"]) == set(state.held[seat])
        seat = state.to_act
        view = state.view(seat)
        state.apply(players[seat].choose(view, view["legal_actions"]))


# ------------------------------------------------------------------------------------------
# Deterministic


def test_same_seed_same_decisions():
    for names in (("hard", "easy"), ("easy", "easy")):
        first = play_out(names, "same", muggins=True)[1]
        again = play_out(names, "same", muggins=True)[1]
        assert first == again


def test_no_memory_between_calls():
    """A fresh player for every decision plays exactly like one kept for the whole game."""
    kept = play_out(("easy", "hard"), "fresh")[1]
    state = new_game(seed="fresh")
    fresh = []
    names = ("easy", "hard")
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        action = get_player(names[seat], seed=f"fresh:{seat}").choose(view, view["legal_actions"])
        fresh.append((seat, action))
        state.apply(action)
    assert fresh == kept


def test_easy_seed_matters():
    a = play_out(("easy", "easy"), "seeded")[1]
    state = new_game(seed="seeded")
    players = [get_player("easy", seed="other-0"), get_player("easy", seed="other-1")]
    b = []
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        action = players[seat].choose(view, view["legal_actions"])
        b.append((seat, action))
        state.apply(action)
    assert a != b


# ------------------------------------------------------------------------------------------
# How hard plays


TEMPLATE = new_game(seed="template").view(1)


def play_view(hand, current="", seat=1, dealer=0, starter="KD", opp_cards=4, scores=(0, 0), played=""):
    """A play-phase view for seat 1 (the pone unless dealer=1): only the fields a view has."""
    hand = parse_cards(hand)
    cur = [[1 - seat, c] for c in parse_cards(current)] if current else []
    view = json.loads(json.dumps(TEMPLATE))
    view.update(seat=seat, dealer=dealer, pone=1 - dealer, scores=list(scores), hand=hand,
                phase="play", discards=[], played=parse_cards(played) if played else [],
                starter=parse_cards(starter)[0], laid=cur, current=cur, count=count_of(c for _, c in cur),
                go=[], hand_sizes=[opp_cards, len(hand)] if seat == 1 else [len(hand), opp_cards])
    view["legal_actions"] = [{"type": "play", "card": c} for c in hand
                             if view["count"] + VALUE_OF[c] <= MAX_COUNT]
    return view


def hard_card(view):
    return get_player("hard").choose(view, view["legal_actions"])["card"]


def test_hard_leads_low_not_a_five():
    assert hard_card(play_view("5H 10S 4C 9D")) == parse_cards("4C")[0]
    assert hard_card(play_view("5H 5S 10C KD")) in parse_cards("10C KD")
    assert hard_card(play_view("4H 4S 9C KD")) in parse_cards("4H 4S")  # lead from the pair


def test_hard_takes_fifteen_and_thirty_one():
    assert hard_card(play_view("5H 6S 4C 9D", current="KS")) == parse_cards("5H")[0]
    assert hard_card(play_view("AH 6S 3C", current="KS QD 5H")) == parse_cards("6S")[0]


def spot(hand, led, starter, scores, opp_cards=3):
    """Seat 1 to answer the card led by seat 0, holding hand."""
    view = play_view("AC", scores=scores, opp_cards=opp_cards)
    view.update(hand=list(hand), starter=starter, current=[[0, led]], laid=[[0, led]],
                count=VALUE_OF[led], hand_sizes=[opp_cards, len(hand)])
    view["legal_actions"] = [{"type": "play", "card": c} for c in hand]
    return view


def test_hard_pegs_out_when_it_can():
    rng = random.Random(9)
    tried = 0
    while tried < 150:
        cards = rng.sample(range(52), 5)
        hand, led, starter = cards[:3], cards[3], cards[4]
        need = rng.choice((1, 2, 3))
        view = spot(hand, led, starter, scores=(0, 121 - need))
        points = {c: peg_points([RANK_OF[led], RANK_OF[c]], VALUE_OF[led] + VALUE_OF[c]) for c in hand}
        if max(points.values()) < need:
            continue
        tried += 1
        assert points[hard_card(view)] >= need


def test_hard_pone_near_home_gives_the_dealer_least_chance_to_peg_out():
    """The pone's count will take it home: it lays the card least likely to let the dealer peg out."""
    rng = random.Random(4)
    tried = 0
    while tried < 150:
        cards = rng.sample(range(52), 6)
        hand, starter, led = cards[:4], cards[4], cards[5]
        own = show_total(hand, starter)
        if any(peg_points([RANK_OF[led], RANK_OF[c]], VALUE_OF[led] + VALUE_OF[c]) >= own for c in hand):
            continue  # it could peg out at once instead
        view = spot(hand, led, starter, scores=(119, 121 - own))
        unseen = unseen_cards(view)
        by_rank = [sum(1 for c in unseen if RANK_OF[c] == r) for r in range(13)]

        def peg_out_chance(card):
            seq = [RANK_OF[led], RANK_OF[card]]
            total = VALUE_OF[led] + VALUE_OF[card]
            bad = sum(by_rank[r] for r in range(13) if by_rank[r] and total + min(r + 1, 10) <= MAX_COUNT
                      and peg_points(seq + [r], total + min(r + 1, 10)) >= 2)
            return 1 - comb(len(unseen) - bad, 3) / comb(len(unseen), 3)

        chances = {a["card"]: peg_out_chance(a["card"]) for a in view["legal_actions"]}
        tried += 1
        assert chances[hard_card(view)] <= min(chances.values()) + 0.005


def test_hard_pone_near_home_gives_away_as_little_as_it_can():
    """With its count to take it home, the pone plays to keep the dealer's pegging down."""
    rng = random.Random(8)
    tried = differs = 0
    while tried < 150:
        cards = rng.sample(range(52), 6)
        hand, starter, led = cards[:4], cards[4], cards[5]
        own = show_total(hand, starter)
        if any(peg_points([RANK_OF[led], RANK_OF[c]], VALUE_OF[led] + VALUE_OF[c]) >= own for c in hand):
            continue
        view = spot(hand, led, starter, scores=(90, 121 - own))
        unseen = unseen_cards(view)
        by_rank = [sum(1 for c in unseen if RANK_OF[c] == r) for r in range(13)]

        def expected_reply(card):
            """The dealer's expected best reply in points (plus the go when the pone cannot answer)."""
            seq = [RANK_OF[led], RANK_OF[card]]
            total = VALUE_OF[led] + VALUE_OF[card]
            rest = [c for c in hand if c != card]
            values = []
            for r in range(13):
                after = total + min(r + 1, 10)
                if by_rank[r] and after <= MAX_COUNT:
                    go = after < MAX_COUNT and all(after + VALUE_OF[c] > MAX_COUNT for c in rest)
                    values.append((peg_points(seq + [r], after) + go, by_rank[r]))
            values.sort(reverse=True)
            expected, seen, none = 0.0, 0, 1.0
            for value, n in values:
                seen += n
                after = comb(len(unseen) - seen, 3) / comb(len(unseen), 3)
                expected += value * (none - after)
                none = after
            return expected

        replies = {c: expected_reply(c) for c in hand}
        chosen = hard_card(view)
        tried += 1
        assert replies[chosen] <= min(replies.values()) + 0.5
        normal = spot(hand, led, starter, scores=(90, 121 - own - 30))
        differs += hard_card(normal) != chosen
    assert differs >= 5


def test_hard_discards_by_the_analysis():
    for i in range(20):
        state = new_game(seed=f"discard-{i}")
        for seat in (0, 1):
            view = state.view(seat)
            if seat != state.to_act:
                continue
            action = get_player("hard").choose(view, view["legal_actions"])
            best = discard_options(view["hand"], owns_crib(view))[0]
            assert action["cards"] == sorted(best.throw)
            state.apply(action)


def test_hard_pone_near_home_keeps_the_hand_most_likely_to_count_out():
    for i in range(30):
        state = new_game(seed=f"home-{i}")
        pone = state.pone
        if state.to_act != pone:
            state.apply(get_player("easy").choose(state.view(state.to_act), state.legal_actions()))
        view = state.view(pone)
        if view["phase"] != "discard" or view["to_act"] != pone:
            continue
        need = 10
        view["scores"] = [121 - need] * 2
        action = get_player("hard").choose(view, view["legal_actions"])
        options = discard_options(view["hand"], False)
        chosen = next(o for o in options if sorted(o.throw) == action["cards"])
        best_chance = max(o.chance_at_least(need - 1) for o in options)
        assert chosen.chance_at_least(need - 1) >= best_chance - 0.1


# ------------------------------------------------------------------------------------------
# Matches


def test_wilson_interval():
    lo, hi = wilson_interval(1700, 2000)
    assert lo < 0.85 < hi and hi - lo < 0.04
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_match_is_the_same_with_one_or_two_jobs():
    one = play_match("hard", "easy", games=6, seed="jobs", jobs=1)
    two = play_match("hard", "easy", games=6, seed="jobs", jobs=2)
    assert one.tally == two.tally
    data = one.to_dict()
    assert data["games"] == 6 and data["wins"] == one.wins and data["win_rate"] == one.wins / 6
    assert sum(data["skunks"]) + sum(data["double_skunks"]) <= 6
    hands = data["hands"]
    assert hands > 0 and all(pph["total"] > 0 for pph in data["points_per_hand"])


def test_match_command_json():
    done = subprocess.run([PYTHON, "-m", "engine", "match", "hard", "easy", "--games", "4", "--seed", "7",
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["games"] == 4 and 0 <= data["wins"] <= 4 and data["win_rate"] == data["wins"] / 4
    assert data["players"] == ["hard", "easy"] and len(data["interval"]) == 2
    assert {"pegging", "hand", "crib"} <= set(data["points_per_hand"][0])


def test_match_command_text_and_bad_input():
    done = subprocess.run([PYTHON, "-m", "engine", "match", "easy", "hard", "--games", "2"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "95% interval" in done.stdout and "games/s" in done.stdout
    bad = subprocess.run([PYTHON, "-m", "engine", "match", "hard", "easy", "--games", "0"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    bad = subprocess.run([PYTHON, "-m", "engine", "match", "hard", "master"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.slow
def test_hard_beats_easy_in_at_least_85_percent_of_400_games():
    result = play_match("hard", "easy", games=400, seed=7, jobs=2)
    assert result.games == 400
    assert result.win_rate >= 0.85, result.report()
