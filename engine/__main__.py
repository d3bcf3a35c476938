"""Command line for the engine: ``python -m engine <command> ...``.

    python -m engine score 5H 5S 5D JC --starter 5C [--crib] [--json]
    python -m engine deck SEED [--players 2] [--dealer 0] [--json]
    python -m engine cut SEED [--players 2] [--json]
    python -m engine verify SEED COMMITMENT
    python -m engine table [--out PATH] [--check] [--json]
    python -m engine match hard easy [--games 2000] [--seed 7] [--jobs 2] [--json]
    python -m engine match --bot mybot.py hard [--games 100]     # your bot (engine.bots) against hard

Bad input prints one line on stderr and exits with status 2. To add a command, write a
function that takes the subparsers object, adds its parser and sets ``run`` to a handler
``(args) -> int``; decorate it with ``@command``. Handlers raise ValueError for bad input.
"""

import argparse
import json
import os
import sys

from engine import fairdeal
from engine.cards import card_name, cards_name, parse_card, parse_cards
from engine.scoring import score_show

PROG = "python -m engine"
MAX_JOBS = 64  # worker processes a match may start

COMMANDS: list = []  # functions that each add one subcommand's parser


def command(register):
    """Register a subcommand (a function that adds its parser to the subparsers)."""
    COMMANDS.append(register)
    return register


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr, exit status 2."""

    def error(self, message: str):
        """Print the error in one line and exit with status 2."""
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False))


# --------------------------------------------------------------------------------------------
# score


@command
def add_score(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``score`` command: count a hand or crib with its starter."""
    p = subparsers.add_parser("score", help="count a hand or crib as it is said aloud",
                              description="Count four cards with the starter, as players say it.")
    p.add_argument("cards", nargs="+", help="the four cards, e.g. 5H 5S 5D JC (10S, TS, J♦ all work)")
    p.add_argument("--starter", "-s", required=True, help="the starter (cut card), e.g. 5C")
    p.add_argument("--crib", action="store_true", help="count as a crib (only a five-card flush scores)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run_score)


def run_score(args: argparse.Namespace) -> int:
    """Count the hand and print the count and the total."""
    hand = parse_cards(" ".join(args.cards))
    if len(hand) != 4:
        raise ValueError(f"a hand or crib has 4 cards, got {len(hand)}")
    starter = parse_card(args.starter)
    result = score_show(hand, starter, crib=args.crib)
    if args.json:
        data = result.to_dict()
        data["hand_names"] = [card_name(c) for c in result.hand]
        data["starter_name"] = card_name(result.starter)
        _print_json(data)
        return 0
    print(f"{'crib' if args.crib else 'hand'} {cards_name(result.hand)}, starter {card_name(starter)}")
    print(result.spoken)
    for item in result.items:
        print(f"  {item.kind:<8} {cards_name(item.cards):<16} {item.points:>2}")
    print(f"total {result.total}")
    return 0


# --------------------------------------------------------------------------------------------
# deck, cut, verify


def _add_table_options(p: argparse.ArgumentParser, dealer: bool = True) -> None:
    p.add_argument("--players", type=int, default=2, choices=sorted(fairdeal.DEAL_SIZES),
                   help="number of players (default 2)")
    if dealer:
        p.add_argument("--dealer", type=int, default=0, help="the dealer's seat (default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable output")


@command
def add_deck(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``deck`` command: the commitment and the 52 cards of a seed, with their owners."""
    p = subparsers.add_parser("deck", help="show the deck a fair-deal seed makes",
                              description="Print a seed's commitment and its 52 cards in order, "
                                          "marking whose each card was.")
    p.add_argument("seed", help="the seed: 32 hex digits")
    _add_table_options(p)
    p.set_defaults(run=run_deck)


def run_deck(args: argparse.Namespace) -> int:
    """Print the commitment and the shuffled deck with each card's owner."""
    seed = fairdeal.parse_seed(args.seed)
    owners = fairdeal.deal_owners(args.players, args.dealer)
    deck = fairdeal.shuffled_deck(seed)
    if args.json:
        _print_json({
            "seed": seed,
            "commitment": fairdeal.commitment(seed),
            "players": args.players,
            "dealer": args.dealer,
            "cards": [{"position": i + 1, "card": card, "name": card_name(card), "owner": owner}
                      for i, (card, owner) in enumerate(zip(deck, owners))],
        })
        return 0
    print(f"seed        {seed}")
    print(f"commitment  {fairdeal.commitment(seed)}")
    print(f"players     {args.players}, dealer seat {args.dealer}")
    for i, (card, owner) in enumerate(zip(deck, owners)):
        print(f"{i + 1:>3}  {card_name(card):<3}  {owner}")
    return 0


@command
def add_cut(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``cut`` command: the cut for the first deal from a seed."""
    p = subparsers.add_parser("cut", help="show the cut for first deal a seed makes",
                              description="Cut for the first deal: one card per seat from the top "
                                          "of the seed's deck; lowest rank deals, ties cut again.")
    p.add_argument("seed", help="the seed: 32 hex digits")
    _add_table_options(p, dealer=False)
    p.set_defaults(run=run_cut)


def run_cut(args: argparse.Namespace) -> int:
    """Print each cut card and the seat that deals."""
    result = fairdeal.cut_for_deal(args.seed, args.players)
    if args.json:
        _print_json(result.to_dict())
        return 0
    for i, (seat, card) in enumerate(result.cuts):
        print(f"{i + 1:>3}  {card_name(card):<3}  seat {seat}")
    print(f"seat {result.dealer} deals")
    return 0


@command
def add_verify(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``verify`` command: check a revealed seed against its commitment."""
    p = subparsers.add_parser("verify", help="check a seed against a commitment",
                              description="Exit 0 if the seed matches the commitment, 1 if not.")
    p.add_argument("seed", help="the revealed seed: 32 hex digits")
    p.add_argument("commitment", help="the commitment shown before the deal: 64 hex digits")
    p.set_defaults(run=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    """Print whether the seed matches; status 0 if it does, 1 if not (2 for a malformed one)."""
    fairdeal.parse_seed(args.seed)
    fairdeal.parse_commitment(args.commitment)  # bad input is said so, never "no match"
    if fairdeal.verify(args.seed, args.commitment):
        print("match: the seed is the one committed to")
        return 0
    print(f"no match: that seed's commitment is {fairdeal.commitment(args.seed)}")
    return 1


# --------------------------------------------------------------------------------------------
# table, match


@command
def add_table(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``table`` command: compute the crib discard table and the show table and write them."""
    from engine import analysis, scoring

    p = subparsers.add_parser(
        "table", help="compute the crib discard table (average crib of a two-card throw)",
        description="Count the average crib of every two-card throw by rank pair over all 58,800 "
                    "crib deals each, print the 13 x 13 table and write it as JSON; also count the "
                    "points of every five-card rank multiset (the table behind fast counting) and "
                    "write it in its binary form.")
    p.add_argument("--out", default=str(analysis.CRIB_TABLE_PATH),
                   help="where to write the JSON (default: the engine's shipped copy)")
    p.add_argument("--show-out", default=scoring.SHOW_TABLE_PATH,
                   help="where to write the show table (default: the engine's shipped copy)")
    p.add_argument("--check", action="store_true",
                   help="also score every one of the deals one by one and require the same sums (slower)")
    p.add_argument("--json", action="store_true", help="print the JSON document instead of the table")
    p.set_defaults(run=run_table)


def run_table(args: argparse.Namespace) -> int:
    """Count every crib deal of every throw (optionally score each one too), write and print the table."""
    import time

    from engine import analysis

    started = time.perf_counter()
    document = analysis.compute_crib_table()
    counted = time.perf_counter() - started
    scored = None
    if args.check:
        started = time.perf_counter()
        brute = analysis.compute_crib_table(brute=True)
        scored = time.perf_counter() - started
        if brute != document:
            print(f"{PROG} table: scoring every deal one by one disagrees with the count", file=sys.stderr)
            return 1
    from engine import scoring

    try:
        analysis.write_crib_table(args.out, document)
        with open(args.show_out, "wb") as out:
            out.write(scoring.show_table_bytes(scoring.compute_show_table()))
    except OSError as error:
        raise ValueError(f"cannot write {args.out}: {error.strerror or error}") from None
    if args.json:
        print(analysis.crib_table_json(document), end="")
        return 0
    ranks = document["ranks"]
    print("average crib of a two-card throw (rows and columns: the two ranks thrown)")
    print("     " + "".join(f"{r:>6}" for r in ranks))
    for r, row in zip(ranks, document["average"]):
        print(f"{r:>4} " + "".join(f"{v:6.2f}" for v in row))
    pairs = len(ranks) * (len(ranks) + 1) // 2
    print(f"{pairs} rank pairs x {document['deals_per_throw']:,} crib deals, counted in {counted:.2f} s")
    if scored is not None:
        print(f"check: every deal scored one by one in {scored:.2f} s gives the same sums")
    print(f"wrote {args.out} and {args.show_out}")
    return 0


@command
def add_match(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``match`` command: computer against computer, or a bot of yours against one."""
    from engine import players

    p = subparsers.add_parser(
        "match", help="play computer opponents (or your bot) against each other",
        description="Play games between two players (seats and first deal alternate; each pair of "
                    "games uses the same deals) and print the results. A player is a computer "
                    f"opponent ({', '.join(players.PLAYER_NAMES)}) or a bot: a Python file defining "
                    "choose(view, legal_actions), as the bot lab page writes it.")
    p.add_argument("players", nargs="+", metavar="PLAYER",
                   help="the two players, wins counted for the first (with --bot: the opponent only)")
    p.add_argument("--bot", metavar="FILE.py", help="your bot's file: it plays first, against the one PLAYER")
    p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--seed", default="0", help="match seed: the same seed replays the same match")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--target", type=int, default=121, choices=(121, 61), help="game length (default 121)")
    p.add_argument("--muggins", action="store_true", help="play with muggins (players claim their own points, in the play and the show)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run_match)


def match_players(args: argparse.Namespace) -> tuple[str, str]:
    """The two players of a match from the command line (names, or bot files ending .py)."""
    from engine import players

    names = list(args.players)
    if args.bot is not None:
        names.insert(0, args.bot)
    if len(names) != 2:
        raise ValueError("a match has two players: give two, or --bot FILE.py and one opponent"
                         f" (got {len(names)})")
    for name in names:
        if name.endswith(".py"):
            if not os.path.isfile(name):
                raise ValueError(f"no bot file {name}")
        elif name not in players.PLAYER_NAMES:
            raise ValueError(f"no player called {name!r}: choose from {', '.join(players.PLAYER_NAMES)}"
                             " or give a bot's file ending .py")
    return names[0], names[1]


def run_match(args: argparse.Namespace) -> int:
    """Play the match and print its figures."""
    from engine import bots, match

    first, second = match_players(args)
    if args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    if not 1 <= args.jobs <= MAX_JOBS:
        raise ValueError(f"--jobs must be from 1 to {MAX_JOBS}, got {args.jobs}")
    try:
        result = match.play_match(first, second, games=args.games, seed=args.seed,
                                  jobs=args.jobs, target=args.target, muggins=args.muggins)
    except bots.BotError as error:
        print(f"{PROG} match: the bot failed:\n{error.report()}", file=sys.stderr)
        return 1
    if args.json:
        _print_json(result.to_dict())
    else:
        print(result.report())
    return 0


# --------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser with every registered command."""
    parser = OneLineParser(prog=PROG, description="Cribbage engine: counting and fair deals.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in COMMANDS:
        register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = args.run(args)
        sys.stdout.flush()
        return status
    except ValueError as error:
        print(f"{PROG} {args.command}: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into a command that stopped reading, e.g. head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:  # Ctrl-C: a line, not a traceback
        print(f"{PROG} {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
