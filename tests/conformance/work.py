"""The conformance work: the same scripted engine work, run in CPython and in MicroPython.

Every result is printed as one line of canonical JSON (``engine.compat.canonical_json``), so the
two interpreters' outputs can be compared line by line, exactly. The script uses only what the
engine uses (it runs in the browser's MicroPython build under node): ``run(part, shard, shards)``
prints the lines of one part, for every item whose number is ``shard`` modulo ``shards``.

Parts and their sizes (``COUNTS``): full games of computer players (2, 3 and 4 players, muggins on
and off, easy and hard, 121 and 61: every event, every decision, the final saved game and views,
and in half of them each view a player decided from); the show of hands and cribs; discard
options of six-card hands, dealer and pone; shuffled decks, commitments, cuts and deals; every endpoint the pages call, on test vectors
and on whole games played through the endpoints as the game page plays them; and a few
two-player games of the expert (its search is slow in MicroPython, so only a few); and damaged
input (damage.py: saved games, game codes and statistics spoiled in fixed ways), each of which
both interpreters must refuse, or take, alike; QR codes of links and text (engine.qr); the
ristretto255 group; and whole sealed friend games between two sides (engine.sealed_game).
"""

import json

from engine import api, compat, fairdeal, qr
from engine.analysis import discard_options
from engine.compat import canonical_json, sha256_hex
from engine.game import new_game
from engine.players import get_player
from engine.scoring import score_play, score_show, show_total

COUNTS = {"games": 200, "shows": 10000, "discards": 200, "decks": 300, "endpoints": 1, "page_games": 6,
          "expert_games": 4, "rounding": 10, "damaged": 1}
SHOW_CHUNK = 200  # hands per printed line of the show part


def emit(part, index, value):
    """Print one result line: the part, the item number and the value, as canonical JSON."""
    print(canonical_json([part, index, value]))


def digest(value):
    """A short fingerprint of a value's canonical JSON (long results are compared by it)."""
    return sha256_hex(canonical_json(value))[:24]


class Draws:
    """Numbers for the work, from the engine's own generator (the same in every interpreter)."""

    def __init__(self, key):
        self.rng = fairdeal.keyed_generator("conformance|" + key)

    def below(self, n):
        return self.rng.below(n)

    def cards(self, n):
        deck = list(range(52))
        for i in range(n):
            j = i + self.rng.below(52 - i)
            deck[i], deck[j] = deck[j], deck[i]
        return deck[:n]


def fake_seed_source(key):
    """A predictable stand-in for the browser's crypto, so games without a seed repeat exactly."""
    counter = [0]

    def random_bytes(n):
        counter[0] += 1
        return bytes(int(sha256_hex(key + ":" + str(counter[0]))[2 * i:2 * i + 2], 16) for i in range(n))

    return random_bytes


GAME_SHAPES = [(players, muggins, target) for players in (2, 3, 4) for muggins in (False, True)
               for target in (121, 61, 61, 61)]  # a game to 121 is twice as long: one in four
LEVELS = ("easy", "hard")


def game_plan(index):
    """Players, muggins, target and the level of each seat for game number index."""
    players, muggins, target = GAME_SHAPES[index % len(GAME_SHAPES)]
    draws = Draws("game-levels|" + str(index))
    return players, muggins, target, [LEVELS[draws.below(2)] for _ in range(players)]


def expert_plan(index):
    """The levels by seat and the muggins rule of expert game number index (two players, to 61)."""
    other = ("hard", "easy")[index % 2]
    return (["expert", other] if index % 4 < 2 else [other, "expert"]), index % 3 == 1


def expert_game(index):
    """A two-player game to 61 of the expert against hard or easy (it searches: a few games only)."""
    levels, muggins = expert_plan(index)
    return play_game(index, (2, muggins, 61, levels), "conformance-expert-")


def play_game(index, plan=None, prefix="conformance-game-"):
    """One whole game of computers, each deciding from its own view; muggins claims vary."""
    players, muggins, target, levels = game_plan(index) if plan is None else plan
    seed = None if index % 5 == 4 else prefix + str(index)
    if seed is None:
        fairdeal.use_seed_source(fake_seed_source("game" + str(index)))
    state = new_game(seed=seed, target=target, muggins=muggins, players=players)
    computers = [get_player(levels[s], seed="seat" + str(s) + ":" + str(index)) for s in range(players)]
    misclaims = Draws("claims|" + str(index))
    trail = [state.start_events]
    views = []
    decisions = 0
    # Writing out every view is half a game's work in MicroPython: every view in every other
    # round of the shapes (each shape, level and rule gets both).
    keep_views = plan is not None or index // len(GAME_SHAPES) % 2 == 0
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        if keep_views:
            views.append(digest(view))
        legal = view["legal_actions"]
        action = computers[seat].choose(view, legal)
        if action["type"] in ("count", "claim") and misclaims.below(4) == 0:
            action = legal[misclaims.below(len(legal))]  # a claim short, over or true
        trail.append(state.apply(action))
        decisions += 1
    fairdeal.use_seed_source(None)
    return {"players": players, "muggins": muggins, "target": target, "levels": levels,
            "decisions": decisions, "scores": state.scores, "winner": state.winner, "skunk": state.skunk,
            "events": digest(trail), "views": digest(views), "saved": digest(state.to_dict()),
            "final_view": digest([state.view(s) for s in range(players)])}


def show_chunk(index):
    """Itemised and fast counts of SHOW_CHUNK random hands, as hands and as cribs."""
    draws = Draws("shows|" + str(index))
    lines = []
    for _ in range(SHOW_CHUNK):
        five = draws.cards(5)
        hand, starter = five[:4], five[4]
        for crib in (False, True):
            result = score_show(hand, starter, crib=crib)
            assert show_total(hand, starter, crib) == result.total
            lines.append(result.to_dict())
    return {"hands": SHOW_CHUNK, "totals": [r["total"] for r in lines], "items": digest(lines)}


def discard_item(index):
    """Every discard option of a random six-card hand, for the dealer and for the pone."""
    dealt = Draws("discards|" + str(index)).cards(6)
    return {"cards": dealt, "options": [[o.to_dict() for o in discard_options(dealt, is_dealer)]
                                        for is_dealer in (True, False)]}


def deck_item(index):
    """A seed's commitment, deck, cut for deal and its deals for two, three and four players."""
    seed = sha256_hex("deck|" + str(index))[:32]
    deals = [fairdeal.deal(seed, players, index % players).to_dict() for players in (2, 3, 4)]
    return {"seed": seed, "commitment": fairdeal.commitment(seed), "deck": fairdeal.shuffled_deck(seed),
            "cuts": [fairdeal.cut_for_deal(seed, players).to_dict() for players in (2, 3, 4)],
            "deals": digest(deals), "owners": fairdeal.deal_owners(3, index % 3)}


def endpoint_reply(name, request):
    """An endpoint's reply as a value: a saved game in it as the game's value (its text's key
    order is the interpreter's own), and the interpreter's name left out of ping's."""
    text = request if isinstance(request, str) else json.dumps(request)
    answer = json.loads(api.call(name, text))
    if name == "ping" and answer.get("ok"):
        for key in ("python", "interpreter", "platform"):
            answer["result"].pop(key, None)
    return answer


def comparable(answer):
    """A reply with its saved game (if any) as a value rather than text."""
    result = answer.get("result")
    if isinstance(result, dict) and isinstance(result.get("game"), str):
        result = dict(result)
        result["game"] = json.loads(result["game"])
        answer = dict(answer)
        answer["result"] = result
    return answer


VERSION_1_CODE = "c1.ARQAAwl2MS1leHBlcnQACQEBAAAJAAAAAA0AAAEABwABAAAMAAAAAA4AARsi_qw"  # a game code of version 1
FORGED_CODE = "c1.AhACAA12ZWN0b3JzLWZvcmdlAADp58K4"  # hard's first discard written as another: legal, not its own


def owing_games():
    """Two saved games in which the hard computer has discarded (so a resumed one owes the check
    of that move): its own discard, and another it could have made."""
    from engine.record import computer_action

    state = new_game(seed="vectors-owed", seats=["hard", "person"])
    own = computer_action(state)
    other = [a for a in state.legal_actions() if a != own][0]
    texts = []
    for action in (own, other):
        game = new_game(seed="vectors-owed", seats=["hard", "person"])
        game.apply(action)
        texts.append(game.to_json())
    return texts


def endpoint_vectors():
    """(endpoint, request) pairs: good and bad input for every endpoint the pages call."""
    hand = "5H 5S 5D JC"
    game = json.loads(api.call("new_game", json.dumps({"difficulty": "hard", "seed": "vectors"})))
    saved = game["result"]["game"]
    shared = json.loads(api.call("share_code", json.dumps({"game": saved})))["result"]["code"]
    owed, forged = owing_games()
    return [
        ("ping", {}), ("ping", {"echo": {"a": [1, 2.5, None, "é"]}}), ("ping", "not json"), ("ping", "[1]"),
        ("ping", '{"echo": "\\ud83d\\ude00 \\ud83c\\udca1 \\u00e9 \\\\ud83d"}'), ("ping", '{"echo": "\\ud83d"}'),
        ("no_such_endpoint", {}),
        ("warm_up", {}), ("warm_up", {"page": "game"}), ("warm_up", {"page": "calculator"}),
        ("score_hand", {"hand": hand, "starter": "5C"}),
        ("score_hand", {"hand": "4H 5H 6H 7H", "starter": "8H", "crib": True}),
        ("score_hand", {"cards": "7C 8D 8S 9H KC"}), ("score_hand", {"cards": ["AC", "2C", "3C", "4C", "5D"]}),
        ("score_hand", {"hand": "5H 5H 5D JC", "starter": "5C"}), ("score_hand", {"hand": "5X 5S 5D JC", "starter": "5C"}),
        ("score_hand", {"hand": hand}), ("score_hand", {"hand": hand, "starter": "5C 6C"}),
        ("score_hand", {"hand": 7, "starter": "5C"}), ("score_hand", {"cards": "7C 8D"}),
        ("score_hand", {"hand": hand, "starter": "5C", "crib": "maybe"}),
        ("discard_options", {"cards": "5H 5S JD QC 2C 9S", "dealer": True}),
        ("discard_options", {"cards": "AC 2D 3H 4S 10C KD", "dealer": "0"}),
        ("discard_options", {"cards": "5H 5S JD QC 2C"}), ("discard_options", {"cards": "5H 5S JD QC 2C 2C"}),
        ("discard_options", {}),
        ("verify_deal", {"seed": "000102030405060708090a0b0c0d0e0f"}),
        ("verify_deal", {"seed": " 000102030405060708090A0B0C0D0E0F ",
                         "commitment": fairdeal.commitment("000102030405060708090a0b0c0d0e0f")}),
        ("verify_deal", {"seed": "000102030405060708090a0b0c0d0e0f", "commitment": "ab" * 32}),
        ("verify_deal", {"seed": "000102030405060708090a0b0c0d0e0f", "players": 3, "dealer": 2}),
        ("verify_deal", {"seed": "xyz"}), ("verify_deal", {"seed": "00"}), ("verify_deal", {"seed": 5}),
        ("verify_deal", {"seed": "000102030405060708090a0b0c0d0e0f", "commitment": "zz"}),
        ("verify_deal", {"seed": "000102030405060708090a0b0c0d0e0f", "players": 5}),
        ("new_game", {"difficulty": "easy", "target": 61, "muggins": True, "seed": "v1"}),
        ("new_game", {"difficulty": "hard", "players": 3, "seed": "v2"}),
        ("new_game", {"difficulty": "hard", "players": 4, "seed": "v3"}),
        ("new_game", {"pass_and_play": True, "names": ["Ann", "Bob"], "seed": "v4"}),
        ("new_game", {"pass_and_play": True, "names": ["Ann", "ANN"], "seed": "v4"}),
        ("new_game", {"pass_and_play": True, "names": ["Ann"], "seed": "v4"}),
        ("new_game", {"difficulty": "wizard"}), ("new_game", {"target": 100}), ("new_game", {"players": 5}),
        ("new_game", {"seed": ""}), ("new_game", {"muggins": "yes"}),
        ("resume_game", {"game": saved}), ("resume_game", {"game": json.dumps(dict(json.loads(saved), target=61))}),
        ("resume_game", {"game": json.dumps(dict(json.loads(saved), scores=[5, 0]))}),
        ("resume_game", {"game": "{}"}), ("resume_game", {"game": "[" * 5000}), ("resume_game", {}),
        ("act", {"game": saved, "action": game["result"]["view"]["legal_actions"][3]}),
        ("act", {"game": saved, "action": {"type": "play", "card": 4}}),
        ("act", {"game": saved, "action": {"type": "discard", "cards": [60, 61]}}),
        ("act", {"game": saved, "action": "discard"}), ("act", {"game": saved}),
        ("computer_move", {"game": saved, "difficulty": "hard"}),
        ("stats_check", {"stats_text": None}), ("stats_check", {"stats_text": "{not json"}),
        ("stats_check", {"stats_text": json.dumps({"games": 1})}), ("stats_check", {"stats_text": 5}),
        ("stats_record", {"game": saved, "difficulty": "hard", "stats": None}),
        ("share_code", {"game": saved}), ("share_code", {"game": "{}"}),
        ("code_seats", {"code": shared}), ("code_seats", {"code": "c1.AQAAAt4"}),
        ("code_seats", {"code": 7}), ("code_seats", {}),
        ("replay_game", {"game": saved}), ("replay_game", {"code": "c1.AQAAAt4"}), ("replay_game", {"code": "c1.AQAAA"}), ("replay_game", {"code": 7}),
        ("replay_game", {"code": shared}), ("replay_game", {"code": VERSION_1_CODE}),
        ("check_code", {"code": shared}), ("check_code", {"code": VERSION_1_CODE}), ("check_code", {"code": FORGED_CODE}),
        ("check_code", {"code": 7}), ("check_code", {}),
        ("resume_game", {"game": owed}), ("check_game", {}), ("check_game", {}), ("check_game", {}),
        ("resume_game", {"game": forged}), ("check_game", {}), ("check_game", {}),
        ("resume_game", {"game": owed}), ("stats_record", {"stats": None, "game": owed}), ("check_game", {}),
        ("daily_seed", {"day": "2026-12-01", "hand": 2}), ("daily_seed", {"day": "2026-02-30"}),
        ("daily_result", {"game": saved}), ("daily_stats", {"days": "junk", "today": "2026-12-02"}),
        ("daily_stats", {"days": {"2026-11-30": {"won": True, "scores": [121, 80], "code": "c1.x"},
                                  "2026-12-01": {"won": False, "scores": [99, 121], "code": "c1.y"},
                                  "2026-12-40": {"won": True, "scores": [121, 0], "code": "c1.z"}},
                         "today": "2026-12-02"}), ("daily_stats", {"days": {}, "today": "soon"}),
        ("new_game", {"difficulty": "hard", "seed": "cribbage-daily:2026-12-01"}),
        ("prepare_hint", {"game": saved}), ("prepare_hint", {"game": saved, "seat": 1}),
        ("hint", {"game": saved}), ("hint", {"game": saved, "seat": 1}), ("hint", {"game": "{}"}),
        ("review_hand", {"game": saved}), ("review_hand", {"game": saved, "hand_number": "1"}),
        ("review_game", {"game": saved}), ("review_game", {}),
    ] + meeting_vectors()


def meeting_vectors():
    """(endpoint, request) pairs for notes through a meeting point: sealed, opened out of order
    and twice, changed, of the other seat, and a long message of every kind of character."""
    key, tie = "Q" * 21 + "A", "fr1.reply"
    texts = ["{\"t\":\"seal-act\"}", "\u00e9\U0001F0A1\U0001F600 " * 900, "nice hand!"]
    notes = json.loads(api.call("meet_seal", json.dumps({"key": key, "tie": tie, "seat": 1, "number": 1,
                                                        "texts": texts})))["result"]["notes"]
    reply = json.loads(api.call("meet_seal", json.dumps({"key": key, "tie": "", "seat": 1, "number": 0,
                                                        "texts": ["fr1.reply"]})))["result"]["notes"]
    changed = notes[0][:-3] + ("a" if notes[0][-3] != "a" else "b") + notes[0][-2:]
    return [
        ("meet_key", {}), ("meet_seal", {"key": key, "tie": tie, "seat": 0, "number": 3, "texts": ["x"]}),
        ("meet_seal", {"key": "short", "tie": tie, "seat": 0, "number": 0, "texts": ["x"]}),
        ("meet_seal", {"key": key, "tie": tie, "seat": 0, "number": 0, "texts": [""]}),
        ("meet_open", {"key": key, "tie": None, "seat": 1, "box": None, "notes": list(reversed(notes)) + reply}),
        ("meet_open", {"key": key, "tie": tie, "seat": 1, "box": None, "notes": reply + notes[::-1] + notes}),
        ("meet_open", {"key": key, "tie": tie, "seat": 0, "box": None, "notes": notes}),
        ("meet_open", {"key": key, "tie": tie, "seat": 1, "box": None, "notes": [changed, "n1.1.zz", "junk", 7]}),
        ("meet_open", {"key": key, "tie": tie, "seat": 1, "box": {"next": "x"}, "notes": []}),
    ]


def endpoint_items():
    """The replies of every test vector, in order."""
    fairdeal.use_seed_source(fake_seed_source("vectors"))
    replies = [[name, comparable(endpoint_reply(name, request))] for name, request in endpoint_vectors()]
    fairdeal.use_seed_source(None)
    return replies


ROUNDING_VALUES = (12.125, -12.125, 0.125, 2.5, 0.5, 1234567.8125, 0.0009765625, 7.95649, 2.675, -0.0)
"""Exact halves among them, where MicroPython's own fixed-point formatting rounds up and CPython to even."""


def rounding_item(index):
    """compat.round_to of one value to 0-10 decimals."""
    value = ROUNDING_VALUES[index]
    return [compat.float_text(compat.round_to(value, digits)) for digits in range(11)]


def page_game(index):
    """A whole game through the endpoints, as the game page plays it: the person takes the first
    legal action (claims the count in muggins), the computer answers; every reply is kept."""
    players = (2, 3, 4)[index % 3]
    level = LEVELS[index % 2]
    request = {"difficulty": level, "target": (121, 61)[index // 3 % 2], "muggins": index % 4 == 1,
               "players": players}
    if index % 3 == 2:
        fairdeal.use_seed_source(fake_seed_source("page" + str(index)))
    else:
        request["seed"] = "page-game-" + str(index)
    reply = endpoint_reply("new_game", request)
    replies = [comparable(reply)]
    steps = 0
    while reply["ok"] and reply["result"]["awaiting"] != "over" and steps < 400:
        result = reply["result"]
        ask = {"game": result["game"], "difficulty": level}
        if result["awaiting"] == "computer":
            reply = endpoint_reply("computer_move", ask)
        else:
            view = result["view"]
            if index % 4 == 0 and result["awaiting"] in ("discard", "play"):
                hinted = endpoint_reply("hint", {"game": result["game"]})
                replies.append(comparable(hinted))
                if hinted["ok"]:
                    ask["game"] = hinted["result"]["game"]
            if result["awaiting"] == "count":
                counting = view["counting"]
                points = score_show(counting["cards"], counting["starter"], counting["show"] == "crib").total
                ask["action"] = {"type": "count", "points": max(0, points - index % 3)}
            elif result["awaiting"] == "claim":  # a card's points in the play: over, true or short
                points = score_play([c for _, c in view["current"]]).total
                ask["action"] = {"type": "claim", "points": max(0, points + 1 - steps % 3)}
            else:
                ask["action"] = view["legal_actions"][steps % len(view["legal_actions"])]
            reply = endpoint_reply("act", ask)
        replies.append(comparable(reply))
        steps += 1
    fairdeal.use_seed_source(None)
    last = reply["result"] if reply["ok"] else reply
    stats = endpoint_reply("stats_record", {"game": last.get("game"), "difficulty": level, "stats": None})
    code = endpoint_reply("share_code", {"game": last.get("game")})
    review = endpoint_reply("review_game", {"game": last.get("game")})
    told = endpoint_reply("replay_game", {"code": code["result"]["code"]}) if code.get("ok") else code
    return {"steps": steps, "outcome": last.get("outcome"), "replies": digest(replies), "stats": stats,
            "code": code, "replay": digest(told), "review": digest(review)}


QR_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
QR_CASES = (("", "L"), ("link", 300, "M"), ("link", 700, "M"), ("Crib: 15-2 et un double — à toi ! 🂡 クリベッジ", "Q"),
            ("é" * 400 + "x" * 200, "H"), ("link", 2000, "L"), ("x" * 2332, "M"))
COUNTS["qr"] = len(QR_CASES)


def qr_item(index):
    """The QR code of a text (invitation-like links of 300, 700 and 2,000 characters, non-ASCII
    text, 1,000 bytes at level H; one too long): version, mask, digests of its rows, SVG and path."""
    case = QR_CASES[index]
    if case[0] == "link":
        draws = Draws("qr|" + str(index))
        text = "https://example.test/#friend=" + "".join([QR_ALPHABET[draws.below(64)] for _ in range(case[1] - 29)])
    else:
        text = case[0]
    level = case[-1]
    try:
        version, mask, rows = qr.qr_encode(text, level)
    except ValueError as error:
        return {"refused": str(error)}
    return {"version": version, "mask": mask, "rows": digest(rows), "svg": digest(qr.qr_svg(text, level, label=text[:40])),
            "path": digest(list(qr.qr_path(text, level)))}


def friend_game(index):
    """A whole friend game between two pages through the friend endpoints (messages both ways,
    moves drawn from each page's own choices, muggins in one game in two), then hostile messages
    sent to one page: every reply's digest and every refusal's words."""
    secrets = ["%032x" % (index * 2 + 1), "%032x" % (index * 2 + 2)]
    made = endpoint_reply("friend_invite", {"name": "Ann", "target": 61, "muggins": index % 2 == 1,
                                            "secret": secrets[0], "signal": None})["result"]
    reply = endpoint_reply("friend_accept", {"invite": made["invite"], "name": "Bob", "secret": secrets[1]})["result"]
    pages = [{"seat": seat, "game": None, "table": None} for seat in (0, 1)]
    out = [digest(made), digest(reply)]

    def call(seat, name, **request):
        request.update({"invite": made["invite"], "reply": reply["reply"], "seat": seat, "secret": secrets[seat]})
        answer = endpoint_reply(name, request)
        out.append(digest(answer))
        return answer.get("result")

    def deliver(messages, seat):
        back = []
        for message in messages:
            got = call(seat, "friend_receive", message=message, game=pages[seat]["game"])
            if got and got["table"]:
                pages[seat]["game"], pages[seat]["table"] = got["table"]["game"], got["table"]
            back.extend(got["send"] if got else [])
        return back

    begun = call(0, "friend_begin")
    pages[0]["game"], pages[0]["table"] = begun["game"], begun
    deliver(call(0, "friend_hello", game=pages[0]["game"])["send"], 1)
    draws = Draws("friend|" + str(index))
    for _ in range(400):
        if pages[0]["table"]["view"]["is_over"]:
            break
        for seat in (0, 1):
            table = pages[seat]["table"]
            if table is None or table["awaiting"] in ("friend", "over"):
                continue
            legal = table["view"]["legal_actions"]
            kind = table["awaiting"]
            action = {"type": kind, "points": draws.below(6)} if kind in ("count", "claim") else legal[draws.below(len(legal))]
            moved = call(seat, "friend_move", game=pages[seat]["game"], action=action)
            pages[seat]["game"], pages[seat]["table"] = moved["game"], moved
            deliver(deliver(moved["send"], 1 - seat), seat)
    gid = made["id"]
    for hostile in ('{"t":"act","id":"' + gid + '","n":0,"a":{"type":"play","card":0}}', "{not json",
                    '{"t":"chat","id":"' + gid + '","text":"<b>x</b>\u202e"}', '{"t":"run","id":"' + gid + '"}',
                    '{"t":"sync","id":"' + gid + '","code":"c1.AAAA"}'):
        call(1, "friend_receive", message=hostile, game=pages[1]["game"])
    out.append(pages[0]["game"] == pages[1]["game"])
    return out


COUNTS["friend_games"] = 2


RISTRETTO_REFUSED = ("00" * 31, "00" * 33, "ff" * 31 + "7f", "01" + "00" * 31,
                     "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
                     "3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e", "ec" + "ff" * 30 + "7f")
COUNTS["ristretto"] = 4


def ristretto_item(index):
    """engine.ristretto: multiples of the generator and sums (0); every card point decoded, locked by
    a scalar and unlocked by its inverse (1); points of uniform bytes and scalars of bytes (2);
    refused encodings' messages and the outcome of decoding pseudo-random bytes (3)."""
    from engine import ristretto as rs

    def scalar(label):
        return rs.scalar_from_bytes(bytes.fromhex(sha256_hex("ristretto|" + label) * 2))

    def enc(point):
        return rs.encode(point).hex()

    if index == 0:
        big = [scalar(str(i)) for i in range(6)] + [rs.ORDER - 1, rs.ORDER, -7, 2**252, 16**63 + 9]
        a, b = rs.mul(big[0], rs.BASE), rs.mul(big[1], rs.BASE)
        return {"small": [enc(rs.mul(k, rs.BASE)) for k in range(16)], "big": [enc(rs.mul(k, rs.BASE)) for k in big],
                "sum": enc(rs.add(a, b)), "neg": enc(rs.neg(a)), "twice": enc(rs.mul(3, rs.add(a, a))),
                "equal": [rs.equal(rs.add(a, b), rs.mul(big[0] + big[1], rs.BASE)), rs.equal(a, b)]}
    if index == 1:
        lock = scalar("lock")
        unlock = rs.inverse_scalar(lock)
        locked = [rs.mul(lock, rs.decode(rs.encode(c))) for c in rs.CARD_POINTS[:6]]
        return {"cards": digest([enc(c) for c in rs.CARD_POINTS]), "locked": [enc(c) for c in locked],
                "unlocked": [rs.card_of(rs.mul(unlock, c)) for c in locked], "unlock": unlock,
                "of": [rs.card_of(c) for c in rs.CARD_POINTS], "none": rs.card_of(rs.BASE)}
    if index == 2:
        inputs = [bytes.fromhex(sha256_hex("uniform|" + str(i)) + sha256_hex("uniform|" + str(i) + "|")) for i in range(8)]
        return {"points": [enc(rs.from_uniform_bytes(data)) for data in inputs + [bytes(64), b"\xff" * 64]],
                "scalars": [rs.scalar_from_bytes(data[:n]) for data in inputs[:3] for n in (0, 1, 31, 32, 33, 64)]}
    outcomes = []
    for text in RISTRETTO_REFUSED:
        try:
            outcomes.append(enc(rs.decode(bytes.fromhex(text))))
        except ValueError as error:
            outcomes.append(str(error))
    for i in range(40):
        data = bytes.fromhex(sha256_hex("decode|" + str(i)))
        data = data[:31] + bytes([data[31] & 127]) if i % 2 else data
        try:
            outcomes.append(enc(rs.decode(data)))
        except ValueError as error:
            outcomes.append(str(error))
    for bad in (0, rs.ORDER):
        try:
            rs.inverse_scalar(bad)
        except ValueError as error:
            outcomes.append(str(error))
    return outcomes


def sealed_game(index):
    """A whole sealed friend game to 61 between two sides in one interpreter (engine/sealed_game.py):
    a digest of every message each side sent, the final scores and the finished game's code; then
    a kept game taken up again, and a tampered opening refused with its words. An odd index's
    inviter reads its first six from the reply's openings (seeds.reply_opens)."""
    from engine.sealed import SealError
    from engine.sealed_game import SealedGame, from_dict, public_seed
    from engine.seeds import derive_seed, reply_opens

    seed = "conformance-sealed-" + str(index)
    own = [derive_seed(seed, "s0"), derive_seed(seed, "s1")]
    commits = [fairdeal.commitment(s) for s in own]
    early = index % 2 == 1
    public = public_seed(derive_seed(seed, "a"), derive_seed(seed, "b"), early)
    opens = [reply_opens(own[1]) if early else None, None]
    sides = [SealedGame(i, ["Ann", "Bob"], 61, index % 2 == 1, public, own[i], commits, opens[i]) for i in (0, 1)]
    draws = Draws("sealed|" + str(index))
    sent, queues, out = [[], []], [[], []], []
    hand = 1
    for step in range(20000):
        if sides[0].state is not None and sides[0].state.hand_number != hand:
            hand = sides[0].state.hand_number
            yield None  # a hand's worth of work: the rest in another top-level call (MicroPython's memory)
        moved = False
        for i in (0, 1):
            for message in sides[i].take_messages():
                sent[i].append(canonical_json(message))
                queues[1 - i].append(json.loads(canonical_json(message)))
                moved = True
        if step == 40:
            sides[1] = from_dict(json.loads(canonical_json(sides[1].to_dict())))
            sides[0] = from_dict(json.loads(canonical_json(sides[0].to_dict())))
        for i in (0, 1):
            if queues[i]:
                sides[i].receive(queues[i].pop(0))
                moved = True
        if moved or sides[0].work() or sides[1].work():
            continue
        for i in (0, 1):
            state = sides[i].state
            if state is not None and not state.is_over and state.to_act == i and not sides[i].pending:
                legal = state.legal_actions()
                sides[i].act(legal[draws.below(len(legal))])
                moved = True
                break
        if not moved:
            break
    out.append([digest(sent[0]), digest(sent[1]), len(sent[0]), len(sent[1])])
    out.append([sides[0].state.scores, sides[1].state.scores, sides[0].final.to_json() == sides[1].final.to_json()])
    out.append(digest(sides[0].final.to_json()))
    fresh = SealedGame(1, ["Ann", "Bob"], 61, False, public, own[1], commits)
    try:
        fresh.receive({"s": "deck", "k": 1, "commit": commits[0], "deck": "00" * 52 * 32})
        fresh.work()
        out.append("taken")
    except SealError as error:
        out.append(str(error))
    yield out


COUNTS["sealed_games"] = 2
STEPPED = ("sealed_games",)
"""Parts whose items are generators: each yields None between pieces of its work, then its output.
MicroPython runs each piece in a top-level call of its own (``start`` and ``step``): its
collector frees memory only between such calls, and a whole sealed game would outgrow the heap."""
_STEPPING = []  # [part, index, generator] of the items ``start`` began


def _finished(generator):
    for result in generator:
        if result is not None:
            return result
    raise AssertionError("a stepped item gave no output")


def start(part, shard=0, shards=1):
    """Begin the items of a stepped part for this shard (``step`` goes on with them)."""
    for index in range(shard, COUNTS[part], shards):
        _STEPPING.append([part, index, PARTS[part](index)])


def step():
    """One piece of the first stepped item begun; its output printed once it is done."""
    if not _STEPPING:
        return
    part, index, generator = _STEPPING[0]
    result = next(generator)
    if result is not None:
        _STEPPING.pop(0)
        emit(part, index, result)


def sealed_page_hand(index):
    """A sealed friend game's first deal through the page's calls (engine/friend_sealed.py): both
    tables, a digest of every text the pages kept and sent, and a message refused with its words."""
    from engine import friend, friend_sealed
    from engine.seeds import derive_seed

    seed = "conformance-sealed-page-" + str(index)
    secrets = [derive_seed(seed, "a"), derive_seed(seed, "b")]
    invite = friend.make_invite("Ann", 61, index % 2 == 1, secrets[0])
    reply = friend.make_reply(friend.read_invite(invite), "Bob", secrets[1])
    pages = [friend_sealed.begin({"invite": invite, "reply": reply, "seat": 0, "secret": secrets[0],
                                  "seal_secret": derive_seed(seed, "s0")}),
             friend_sealed.begin({"invite": invite, "reply": reply, "seat": 1, "inviter_secret": secrets[0],
                                  "seal_secret": derive_seed(seed, "s1")})]
    queues, tables, texts = [[], []], [None, None], []
    for _ in range(160):  # the shuffles and the proof of the first deck go in steps
        for i in (0, 1):
            texts.append(pages[i]["game"])
            texts.extend(pages[i]["send"])
            queues[1 - i].extend(pages[i]["send"])
            pages[i]["send"] = []
            if pages[i]["table"] is not None:
                tables[i] = pages[i]["table"]
                pages[i]["table"] = None
        if tables[0] is not None and tables[1] is not None:
            break
        i = 0 if queues[0] else 1
        if queues[i]:
            pages[i] = friend_sealed.receive({"game": pages[i]["game"], "message": queues[i].pop(0)})
        else:
            i = 0 if pages[0]["work"] else 1
            pages[i] = friend_sealed.work({"game": pages[i]["game"]})
    out = [[t["awaiting"], t["view"]["hand"], sorted(t["cards"]), [e["type"] for e in t["events"]]] for t in tables]
    out.append([digest(texts), len(texts)])
    try:
        friend_sealed.receive({"game": pages[0]["game"], "message": '{"t": "seal"}'})
        out.append("taken")
    except friend.FriendError as error:
        out.append(str(error))
    return out


COUNTS["sealed_pages"] = 2


PARTS = {"games": play_game, "shows": show_chunk, "discards": discard_item, "decks": deck_item,
         "page_games": page_game, "expert_games": expert_game, "rounding": rounding_item, "qr": qr_item,
         "friend_games": friend_game, "ristretto": ristretto_item,
         "sealed_games": sealed_game, "sealed_pages": sealed_page_hand}


def damaged_item(label, name, request):
    """What a damaged input (damage.py) got: refused with a message, or taken (a digest of the
    reply), with a digest of the input itself."""
    answer = comparable(endpoint_reply(name, request))
    taken = digest(answer["result"]) if answer["ok"] else None
    return [label, digest(request), answer["ok"], taken, None if answer["ok"] else answer["error"]]


def run(part, shard=0, shards=1):
    """Print the lines of one part (see COUNTS), for the items of this shard."""
    if part == "endpoints":
        if shard == 0:
            for i, item in enumerate(endpoint_items()):
                emit(part, i, item)
        return
    if part == "damaged":
        import damage

        for i, (label, name, request) in enumerate(damage.damaged_inputs()):
            if i % shards == shard:
                emit(part, i, damaged_item(label, name, request))
        return
    work = PARTS[part]
    count = COUNTS[part] // SHOW_CHUNK if part == "shows" else COUNTS[part]
    for index in range(shard, count, shards):
        emit(part, index, _finished(work(index)) if part in STEPPED else work(index))
