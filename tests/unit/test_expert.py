"""The expert opponent: legal from views only, fixed by its seed, and it plays the board near the end."""

from __future__ import annotations

import random

import engine.expert
import engine.pegging_search
from engine.win_chance import win_chance
from engine.cards import RANK_OF, VALUE_OF, parse_cards
from engine.expert import ExpertPlayer, go_floor
from engine.game import new_game
from engine.pegging_search import Leaf, Search
from engine.players import PLAYER_NAMES, get_player, peg_points, unseen_cards
from engine.scoring import show_total
from tests.unit.test_players import play_out, play_view, swap_hidden


def test_the_expert_is_named_last_so_old_share_codes_keep_their_levels():
    assert PLAYER_NAMES == ("easy", "hard", "expert")
    assert isinstance(get_player("expert", seed=3), ExpertPlayer)
    assert get_player("expert", seed=3).seed == "3"


def test_legal_in_games_of_two_three_and_four():
    for players, names in ((2, ("expert", "hard")), (2, ("easy", "expert")), (3, ("expert", "hard", "easy")),
                           (4, ("expert", "easy", "expert", "hard"))):
        state, actions, _ = play_out(names, f"expert-legal-{players}", players=players, muggins=players == 2,
                                     target=61)
        assert state.is_over and actions


def test_the_choice_depends_on_the_view_alone():
    """Exchange every card the expert cannot see: its choice must not change."""
    state = new_game(seed="expert-hidden")
    players = [get_player("expert", seed=0), get_player("hard", seed=1)]
    checked = 0
    while not state.is_over and state.hand_number <= 2:
        seat = state.to_act
        view = state.view(seat)
        action = players[seat].choose(view, view["legal_actions"])
        if seat == 0 and state.phase in ("discard", "play"):
            swapped = swap_hidden(state, seat)
            assert swapped.view(seat) == view
            assert players[0].choose(swapped.view(seat), view["legal_actions"]) == action
            checked += 1
        state.apply(action)
    assert checked >= 6


def test_same_seed_same_game_and_a_fresh_player_plays_alike():
    first = play_out(("expert", "hard"), "expert-same", target=61)[1]
    assert play_out(("expert", "hard"), "expert-same", target=61)[1] == first
    state = new_game(seed="expert-same", target=61)
    hard = get_player("hard", seed="expert-same:1")
    for seat, action in first:
        view = state.view(seat)
        player = get_player("expert", seed="expert-same:0") if seat == 0 else hard
        assert player.choose(view, view["legal_actions"]) == action
        state.apply(action)


def test_go_floor_reads_the_goes():
    # 10C by the other side, 10D, 3C by the other, 5D, 2H: the 2 followed the 5 without a reply
    view = {"seat": 0, "laid": [[1, 9], [0, 22], [1, 2], [0, 17], [0, 27]], "hand_sizes": [0, 2],
            "to_act": 1}
    assert go_floor(view) == 4  # at 28 it held nothing up to 3
    view = {"seat": 0, "laid": [[1, 9], [0, 22], [1, 2], [0, 17]], "hand_sizes": [1, 2], "to_act": 0}
    assert go_floor(view) == 4  # the turn came back at 28
    view = {"seat": 0, "laid": [[1, 9], [0, 22], [1, 2]], "hand_sizes": [2, 2], "to_act": 0}
    assert go_floor(view) == 1  # nothing known


def test_search_follows_the_rules_of_the_play():
    """Both hands open, the search's best line pegs what the game itself gives for that line."""
    leaf = Leaf(need=(121, 121), shows=(0, 0), pone=0)
    # 5 led into two tens: ten (fifteen: 2), K (25), the other ten does not fit and side 0 has
    # no card: the go to side 0 (1), side 1 leads its ten as the last card (1)
    values = Search(leaf, model=False).card_values((4, 12), (9, 9), (), 0)
    assert values[4] == 1 - 3
    # K led: ten (20), 5 (25), the ten does not fit: the go to side 0, the last ten pegs 1
    assert values[12] == 1 - 1


def test_search_gives_nothing_away_to_a_side_two_short():
    """Both hands open: side 1 holds a ten and needs two; side 0, the pone, whose show of 12
    takes it home, leads the 6, not the 5."""
    leaf = Leaf(need=(10, 2), shows=(12, 0), pone=0)
    for model in (True, False):
        values = Search(leaf, model=model).card_values((4, 5), (9,), (), 0)
        assert values[4] == -60.0 and values[5] == 60.0


def test_near_the_end_a_play_is_worth_the_chance_of_winning_after_it():
    """Nobody gets home this hand: the end of the play is valued by its chance of winning (engine.win_chance)."""
    leaf = Leaf(need=(40, 45), shows=(8, 3), pone=0)
    assert not leaf.is_far
    values = [leaf.value(p0, p1) for p0, p1 in ((0, 3), (0, 0), (3, 0))]
    assert -60.0 < values[0] < values[1] < values[2] < 60.0
    # Side 0, the pone of this hand, deals the next, needing 32 to the other side's 42.
    assert leaf.value(0, 0) == 60.0 * (2 * win_chance(32, 42) - 1)
    # The same hand seen from the other side is worth the opposite.
    mirror = Leaf(need=(45, 40), shows=(3, 8), pone=1)
    for p0, p1 in ((0, 0), (2, 5), (6, 1)):
        assert abs(leaf.value(p0, p1) + mirror.value(p1, p0)) < 1e-9
    far = Leaf(need=(121, 121), shows=(8, 8), pone=0)
    assert far.is_far


def test_pegs_out_when_it_can():
    rng = random.Random(9)
    tried = 0
    while tried < 25:
        cards = rng.sample(range(52), 5)
        hand, led, starter = cards[:3], cards[3], cards[4]
        need = rng.choice((1, 2, 3))
        view = play_view("AC", scores=(0, 121 - need), opp_cards=3)
        view.update(hand=list(hand), starter=starter, current=[[0, led]], laid=[[0, led]],
                    count=VALUE_OF[led], hand_sizes=[3, len(hand)])
        view["legal_actions"] = [{"type": "play", "card": c} for c in hand]
        points = {c: peg_points([RANK_OF[led], RANK_OF[c]], VALUE_OF[led] + VALUE_OF[c]) for c in hand}
        if max(points.values()) < need:
            continue
        tried += 1
        card = get_player("expert", seed=tried).choose(view, view["legal_actions"])["card"]
        assert points[card] >= need


def test_home_at_the_show_it_keeps_the_other_side_from_pegging_two():
    """The pone whose count takes it home, the dealer two short and holding one card: it leads
    the card no reply can score two on.

    The first count: QS, KD, 6C, 4D (30), the pone says go, AH makes 31. The pone holds 2S and
    KC and leads; the dealer's last card can pair a king or make fifteen with a five (unseen:
    two kings, four fives), while every other two is seen (thrown, cut). After the reply the
    pone lays its last card and the play is over, so the 2 is safe and the king may lose.
    """
    view = play_view("2S KC", dealer=0, seat=1, opp_cards=1, starter="2H", played="QS 6C")
    view["discards"] = parse_cards("2C 2D")
    laid = [[s, c] for s, c in zip((1, 0, 1, 0, 0), parse_cards("QS KD 6C 4D AH"))]
    view.update(laid=laid, current=[], count=0, go=[], to_act=1)
    own = show_total(parse_cards("QS 6C 2S KC"), view["starter"])
    view["scores"] = [119, 121 - own]
    assert own > 0 and len(unseen_cards(view)) == 52 - 10
    for seed in range(6):
        assert get_player("expert", seed=seed).choose(view, view["legal_actions"])["card"] == \
            parse_cards("2S")[0]


def test_discards_near_the_best_are_priced_by_the_play_they_make():
    """The expert throws what hard throws, or a keep within PEG_MARGIN of hard's best in hand
    and crib that pegs more; off (no weight), it throws exactly what hard throws."""
    from engine.analysis import discard_options
    differ = 0
    for i in range(30):
        state = new_game(seed=f"expert-discard-{i}")
        for _ in (0, 1):
            seat = state.to_act
            view = state.view(seat)
            hard = get_player("hard", seed=i)
            expert = get_player("expert", seed=i)
            chosen = expert.choose(view, view["legal_actions"])
            best = hard.choose(view, view["legal_actions"])
            values = {tuple(sorted(o.throw)): hard.discard_value(view, o)
                      for o in discard_options(view["hand"], view["dealer"] == seat)}
            assert values[tuple(chosen["cards"])] >= max(values.values()) - engine.expert.PEG_MARGIN
            differ += chosen != best
            expert.peg_weight = 0.0
            assert expert.choose(view, view["legal_actions"]) == best
            state.apply(best)
    assert 0 < differ < 30
