"""The chance of winning from the points each side needs (engine.win_chance)."""

from engine import win_chance as win_chance_module
from engine.win_chance import DEALER_TOTAL, win_chance


def test_chances_are_probabilities_that_fall_as_a_side_needs_more():
    for d in range(1, 122, 6):
        for p in range(1, 122, 6):
            chance = win_chance(d, p)
            assert 0.0 <= chance <= 1.0
            if d < 121:
                assert win_chance(d + 1, p) <= chance + 1e-12
            if p < 121:
                assert win_chance(d, p + 1) >= chance - 1e-12


def test_no_hand_left_the_dealer_without_a_point():
    # The table is built on the dealer's need falling every hand (engine.win_chance._build).
    assert DEALER_TOTAL[0] == 0


def test_a_side_that_needs_nothing_has_won():
    assert win_chance(0, 10) == 1.0
    assert win_chance(10, 0) == 0.0
    assert win_chance(-3, 5) == 1.0


def test_the_first_dealer_wins_about_fifty_six_games_in_a_hundred():
    assert 0.54 < win_chance(121, 121) < 0.58
    assert 0.52 < win_chance(61, 61) < 0.56  # a shorter game: the deal matters less often


def test_the_pone_counting_first_wins_a_race_of_equal_needs_near_the_end():
    # Needing 8 each: the pone counts first and usually gets there.
    assert win_chance(8, 8) < 0.5
    # The dealer needs little more than a peg: it usually pegs or counts out.
    assert win_chance(3, 30) > 0.99


def test_the_table_is_the_same_worked_out_whole_in_steps_or_as_asked(monkeypatch):
    whole = win_chance_module._build(121)
    monkeypatch.setattr(win_chance_module, "_TABLE", [])
    asked = [(3, 5), (60, 70), (2, 119), (121, 121)]
    win_chance_module.prepare(10**9, upto=2 * 61)
    assert win_chance_module._TABLE[3] == 2 * 61  # never past what it is asked to work out
    for step, (d, p) in enumerate(asked):
        win_chance_module.prepare(5_000 * (step + 1))
        assert win_chance(d, p) == whole[d][p]  # bit for bit: the same sums in the same order
    assert win_chance_module._TABLE[3] == 2 * 121 and win_chance_module._TABLE[0] == whole
