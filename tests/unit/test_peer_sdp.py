"""Compact session descriptions (site_src/app/peer_sdp.py): real Chromium offers and answers
made short and rebuilt, every candidate form, bad codes refused with a clear message, and the same
results in the browser's MicroPython."""

import json
import random
from pathlib import Path

import pytest

from tests.unit.app_python import import_app, needs_node, run_in_micropython

FIXTURES = Path(__file__).resolve().parent / "peer_sdp_fixtures"
URL_SAFE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")

peer_sdp = import_app("peer_sdp")


def fixture(name):
    return (FIXTURES / name).read_bytes().decode("utf-8")


CAPTURED = [(name, name.split("-")[-1][:-4]) for name in sorted(p.name for p in FIXTURES.glob("*.sdp"))]
"""(file, kind) of every captured description (tests/unit/peer_sdp_fixtures/capture.py)."""


def essentials(sdp):
    """What the other side needs of an SDP: (ufrag, pwd, fingerprint, setup, [(address, port, type)])."""
    values, candidates = {}, []
    for line in sdp.splitlines():
        if line.startswith("a=candidate:"):
            words = line.split()
            if words[1] == "1" and words[2].lower() == "udp" and words[7] in ("host", "srflx"):
                candidates.append((int(words[3]), words[4], int(words[5]), words[7]))
        elif line.startswith("a=") and ":" in line:
            name, value = line[2:].split(":", 1)
            values.setdefault(name, value)
    candidates.sort(key=lambda c: -c[0])
    return (values["ice-ufrag"], values["ice-pwd"], values["fingerprint"].upper(), values["setup"],
            [c[1:] for c in candidates])


def canonical(address):
    """IPv6 addresses in one spelling, so a rebuilt description compares with the original."""
    import ipaddress
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address


def same_essentials(a, b):
    ea, eb = essentials(a), essentials(b)
    assert ea[:4] == eb[:4]
    assert [(canonical(x), p, t) for x, p, t in ea[4]] == [(canonical(x), p, t) for x, p, t in eb[4]]


def with_candidates(sdp, lines):
    """The SDP with its candidate lines replaced by ``lines`` (values after "a=candidate:")."""
    kept = [line for line in sdp.split("\r\n") if not line.startswith("a=candidate:")]
    at = next(i for i, line in enumerate(kept) if line.startswith("c="))
    return "\r\n".join(kept[:at + 1] + ["a=candidate:" + line for line in lines] + kept[at + 1:])


def outcome(text, kind):
    """("ok", sdp) or ("error", message): anything but ValueError fails the calling test."""
    try:
        return "ok", peer_sdp.expand_description(text, kind)
    except ValueError as error:
        return "error", str(error)


@pytest.mark.parametrize("name, kind", CAPTURED)
def test_a_captured_description_is_short_url_safe_and_rebuilds_whole(name, kind):
    sdp = fixture(name)
    text = peer_sdp.compact_description(sdp)
    assert 100 <= len(text) <= 350, (len(text), text)
    assert set(text) <= URL_SAFE
    rebuilt = peer_sdp.expand_description(text, kind)
    same_essentials(sdp, rebuilt)
    assert peer_sdp.compact_description(rebuilt) == text
    assert peer_sdp.description_kind(text) == kind
    assert "m=application" in rebuilt and "a=sctp-port:5000" in rebuilt and rebuilt.endswith("\r\n")


def test_captured_fixtures_hold_both_kinds_and_mdns_names():
    assert {kind for _, kind in CAPTURED} == {"offer", "answer"}
    mdns = fixture("chromium-mdns-offer.sdp")
    assert ".local " in mdns and "a=setup:actpass" in mdns
    assert "a=setup:active" in fixture("chromium-mdns-answer.sdp")


def test_an_offer_is_not_a_reply_and_a_reply_is_not_an_offer():
    offer = peer_sdp.compact_description(fixture("chromium-mdns-offer.sdp"))
    answer = peer_sdp.compact_description(fixture("chromium-mdns-answer.sdp"))
    assert outcome(offer, "answer") == ("error", peer_sdp.NOT_ANSWER)
    assert outcome(answer, "offer") == ("error", peer_sdp.NOT_OFFER)
    with pytest.raises(ValueError, match="kind must be"):
        peer_sdp.expand_description(offer, "pranswer")


def test_every_candidate_form_survives_and_the_rest_is_left_out():
    base = fixture("chromium-ip-offer.sdp")
    lines = [
        "1 1 udp 2122260223 10.0.0.7 50000 typ host generation 0 network-cost 50",
        "2 1 udp 2122194687 2001:db8::1 50001 typ host generation 0",
        "3 1 udp 2122129151 ::ffff:192.0.2.9 50002 typ host generation 0",
        "4 1 udp 2113937151 0f6b2a54-7b8e-4d0c-9f8e-123456789abc.local 50003 typ host generation 0",
        "5 1 udp 2113937000 Printer-7.local 50004 typ host generation 0",
        "6 1 udp 1686052607 203.0.113.5 61000 typ srflx raddr 0.0.0.0 rport 0 generation 0",
        "7 1 tcp 1518280447 10.0.0.7 9 typ host tcptype active generation 0",  # TCP: left out
        "8 2 udp 2122260222 10.0.0.7 50005 typ host generation 0",  # RTCP component: left out
        "9 1 udp 41885439 198.51.100.1 3478 typ relay raddr 203.0.113.5 rport 61000",  # relay: left out
        "10 1 udp 2122260223 10.0.0.7 50000 typ host generation 0",  # the first again: once is enough
        "11 1 udp 2122260223 not_a_host!.local 50006 typ host generation 0",  # no such name: left out
        "12 1 udp 2122260223 10.0.0.8 0 typ host generation 0",  # port 0: left out
    ]
    sdp = with_candidates(base, lines)
    text = peer_sdp.compact_description(sdp)
    assert len(text) <= 350, len(text)
    rebuilt = peer_sdp.expand_description(text, "offer")
    found = [(canonical(a), p, t) for a, p, t in essentials(rebuilt)[4]]
    assert found == [("10.0.0.7", 50000, "host"), ("2001:db8::1", 50001, "host"),
                     ("::ffff:c000:209", 50002, "host"),
                     ("0f6b2a54-7b8e-4d0c-9f8e-123456789abc.local", 50003, "host"),
                     ("Printer-7.local", 50004, "host"), ("203.0.113.5", 61000, "srflx")]
    assert "typ srflx raddr 0.0.0.0 rport 0" in rebuilt


def test_candidates_go_highest_priority_first_and_at_most_eight():
    lines = ["%d 1 udp %d 10.0.0.%d %d typ host" % (i, 2000000000 + i, i, 40000 + i) for i in range(1, 13)]
    text = peer_sdp.compact_description(with_candidates(fixture("chromium-ip-offer.sdp"), lines))
    ports = [p for _, p, _ in essentials(peer_sdp.expand_description(text, "offer"))[4]]
    assert ports == [40012 - i for i in range(peer_sdp.MAX_CANDIDATES)]


def test_long_host_names_cannot_make_a_code_too_long_to_read_back():
    name = "a" * 60 + "." + "b" * 60 + ".local"
    lines = ["%d 1 udp %d %s %d typ host" % (i, 2000000000 - i, name.replace("a", "c", i), 40000 + i)
             for i in range(8)]
    text = peer_sdp.compact_description(with_candidates(fixture("chromium-mdns-offer.sdp"), lines))
    assert len(text) <= 350, len(text)
    assert [p for _, p, _ in essentials(peer_sdp.expand_description(text, "offer"))[4]] == [40000]


def test_a_description_without_candidates_still_compacts():
    text = peer_sdp.compact_description(with_candidates(fixture("chromium-mdns-answer.sdp"), []))
    rebuilt = peer_sdp.expand_description(text, "answer")
    assert "a=candidate" not in rebuilt and "m=application 9 " in rebuilt


@pytest.mark.parametrize("change", [
    lambda s: s.replace("m=application", "m=audio"),
    lambda s: s + "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n",
    lambda s: s.replace("a=fingerprint:sha-256", "a=fingerprint:sha-1"),
    lambda s: "\r\n".join(line for line in s.split("\r\n") if not line.startswith("a=fingerprint")),
    lambda s: "\r\n".join(line for line in s.split("\r\n") if not line.startswith("a=ice-pwd")),
    lambda s: s.replace("a=setup:actpass", "a=setup:holdconn"),
    lambda s: s.replace("a=mid:0", "a=mid:data"),
    lambda s: s.replace("a=ice-ufrag:", "a=ice-ufrag:bad~"),
    lambda s: s * 30,
    lambda s: "",
])
def test_a_description_that_is_not_a_data_channel_is_refused(change):
    with pytest.raises(ValueError) as raised:
        peer_sdp.compact_description(change(fixture("chromium-mdns-offer.sdp")))
    assert str(raised.value).startswith(peer_sdp.NOT_DATA_CHANNEL)


def test_a_code_broken_over_lines_or_padded_with_spaces_still_reads():
    text = peer_sdp.compact_description(fixture("chromium-mdns-offer.sdp"))
    messy = "  " + "\n".join(text[i:i + 40] for i in range(0, len(text), 40)) + " \r\n"
    assert peer_sdp.expand_description(messy, "offer") == peer_sdp.expand_description(text, "offer")


def test_bad_codes_get_short_clear_messages():
    good = peer_sdp.compact_description(fixture("chromium-mdns-offer.sdp"))
    assert outcome("", "offer") == ("error", peer_sdp.NOT_A_CODE)
    assert outcome("hello there", "offer") == ("error", peer_sdp.NOT_A_CODE)
    assert outcome("https://example.com/#x", "offer") == ("error", peer_sdp.NOT_A_CODE)
    assert outcome(None, "offer") == ("error", peer_sdp.NOT_A_CODE)
    assert outcome(b"1oa", "offer") == ("error", peer_sdp.NOT_A_CODE)
    assert outcome("A" * 5000, "offer") == ("error", peer_sdp.TOO_LONG)
    assert outcome("1" + good[1:], "offer") == ("error", peer_sdp.WRONG_VERSION)  # version 1: one text per message
    assert outcome(good[:-10], "offer") == ("error", peer_sdp.DAMAGED)
    assert outcome(good.replace(".", "..", 1), "offer") == ("error", peer_sdp.DAMAGED)
    for message in (peer_sdp.NOT_A_CODE, peer_sdp.DAMAGED, peer_sdp.TOO_LONG, peer_sdp.WRONG_VERSION,
                    peer_sdp.NOT_OFFER, peer_sdp.NOT_ANSWER):
        assert len(message) < 90 and message.endswith(".") and "\n" not in message


def test_a_code_of_any_version_is_known_as_one_so_an_old_one_gets_the_version_message():
    good = peer_sdp.compact_description(fixture("chromium-mdns-offer.sdp"))
    assert good.startswith(peer_sdp.VERSION + "o")
    for text in (good, "1" + good[1:], "1aa.x", "2ap"):
        assert peer_sdp.is_code_start(text), text
    for text in ("", "1", "hello", "fi1.abc", "o1", None, "1x"):
        assert not peer_sdp.is_code_start(text), text


@pytest.mark.parametrize("name, kind", CAPTURED)
def test_every_truncation_and_every_changed_character_is_refused(name, kind):
    good = peer_sdp.compact_description(fixture(name))
    for end in range(len(good)):
        assert outcome(good[:end], kind)[0] == "error", end
    rng = random.Random(name)
    alphabet = peer_sdp.B64 + "."
    for at in range(len(good)):
        other = rng.choice([c for c in alphabet if c != good[at]])
        assert outcome(good[:at] + other + good[at + 1:], kind)[0] == "error", at


def test_random_text_is_refused_with_a_value_error():
    rng = random.Random(30)
    alphabets = [peer_sdp.B64 + ".", peer_sdp.B64 + ".\n ~+/=%é\x00\ud800", "1oac.AB-_"]
    for _ in range(3000):
        chars = rng.choice(alphabets)
        text = "".join(rng.choice(chars) for _ in range(rng.randrange(0, 400)))
        if rng.random() < 0.3:
            text = "1" + rng.choice("oa") + rng.choice("acp") + "." + text
        assert outcome(text, rng.choice(("offer", "answer")))[0] == "error"


def signed(body):
    """A code with this body and a correct check: the parser's inner layers see it."""
    return body + "." + peer_sdp._check(body)


def test_well_signed_nonsense_reaches_the_inner_checks_and_is_refused_or_rebuilt():
    rng = random.Random(31)
    good = peer_sdp.compact_description(fixture("chromium-ip-offer.sdp")).split(".")
    rebuilt = 0
    for _ in range(4000):
        fields = list(good[:5])
        which = rng.randrange(5)
        if which == 4 or rng.random() < 0.5:  # candidate records: random bytes, often almost right
            data = bytearray(rng.randrange(256) for _ in range(rng.randrange(0, 60)))
            if rng.random() < 0.5 and data:
                data[0] = rng.choice((0, 1, 2, 3, 4, 5, 6, 7))
            fields[4] = peer_sdp._b64_encode(bytes(data))
        if which < 4:
            fields[which] = "".join(rng.choice(peer_sdp.B64) for _ in range(rng.randrange(0, 70)))
        if rng.random() < 0.2:
            fields.insert(rng.randrange(len(fields)), "")
        status, sdp = outcome(signed(".".join(fields)), "offer")
        if status == "ok":
            rebuilt += 1
            assert sdp.startswith("v=0\r\n") and "a=setup:actpass\r\n" in sdp
            for line in sdp.split("\r\n"):
                assert all(" " <= c <= "~" for c in line), line
    assert rebuilt > 0  # some random records are real candidates


def test_every_head_letter_combination_is_checked():
    good = peer_sdp.compact_description(fixture("chromium-mdns-answer.sdp")).split(".")
    for kind in "oax":
        for setup in "acpx":
            text = signed(".".join([peer_sdp.VERSION + kind + setup] + good[1:5]))
            status, found = outcome(text, "offer" if kind == "o" else "answer")
            valid = (kind == "o" and setup == "a") or (kind == "a" and setup in "cp")
            assert status == ("ok" if valid else "error"), (kind, setup, found)


@needs_node
def test_micropython_gives_the_same_codes_descriptions_and_messages():
    sdps = {name: fixture(name) for name, _ in CAPTURED}
    extra = with_candidates(fixture("chromium-ip-offer.sdp"), [
        "1 1 udp 2122260223 10.0.0.7 50000 typ host", "2 1 udp 2122194687 2001:db8::1 50001 typ host",
        "3 1 udp 2122129151 ::ffff:192.0.2.9 50002 typ host", "4 1 udp 2000 Printer-7.local 50004 typ host",
        "5 1 udp 1686052607 203.0.113.5 61000 typ srflx raddr 0.0.0.0 rport 0",
        "6 1 udp 1686052607 203.0.113.6 61000 typ srflx raddr 0.0.0.0 rport 0"])
    sdps["extra-offer.sdp"] = extra
    good = peer_sdp.compact_description(extra)
    bad = ["", "hello", good[:-1], "1" + good[1:], good.replace("2oa", "2aa", 1), "A" * 2000,
           signed("2oa.abcd.abcdefghijklmnopqrstuvwxyz.AAAA.AAAA")]
    program = (
        "sdps = json.loads(" + repr(json.dumps(sdps)) + ")\n"
        "for name in sorted(sdps):\n"
        "    text = peer_sdp.compact_description(sdps[name])\n"
        "    kind = name.split('-')[-1][:-4]\n"
        "    print(json.dumps([name, text, peer_sdp.expand_description(text, kind)]))\n"
        "for text in json.loads(" + repr(json.dumps(bad)) + "):\n"
        "    try:\n"
        "        peer_sdp.expand_description(text, 'offer')\n"
        "        print(json.dumps(['bad', text[:20], 'ok']))\n"
        "    except ValueError as error:\n"
        "        print(json.dumps(['bad', text[:20], str(error)]))\n"
    )
    printed = run_in_micropython("peer_sdp", program)
    expected = []
    for name in sorted(sdps):
        text = peer_sdp.compact_description(sdps[name])
        expected.append([name, text, peer_sdp.expand_description(text, name.split("-")[-1][:-4])])
    for text in bad:
        expected.append(["bad", text[:20], outcome(text, "offer")[1] if outcome(text, "offer")[0] == "error" else "ok"])
    assert printed == expected
