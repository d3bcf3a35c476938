"""A direct connection between two browsers with no server: RTCPeerConnection with no ICE
servers, the offer and answer carried as compact codes (site_src/app/peer_sdp.py), on a built
page under the site's strictest Content-Security-Policy; and site_src/app/peer_link.py itself
driven in two pages (tests/e2e/peer_probe) under the policy of a page that runs Python."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from site_src.builder import security
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, PageProblems, ui_ready

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(__file__).resolve().parent / "peer_probe"
OPEN_TIMEOUT_MS = 20_000
PEER_ARGS = [arg + ", EXCLUDE *.local" if arg.startswith("--host-resolver-rules=") else arg for arg in CHROMIUM_ARGS]
"""The tests' browser flags, but letting mDNS names resolve: with no ICE server Chromium gives its
host candidates as <uuid>.local names, and the rule that fails every other host would fail them
too (no connection at all). Every request is still checked to stay on 127.0.0.1."""

sys.path.insert(0, str(ROOT / "site_src" / "app"))
try:
    import peer_sdp  # noqa: E402
finally:
    sys.path.remove(str(ROOT / "site_src" / "app"))

# Plain WebRTC in the page: what peer_link.py's JavaScript does, step by step, for the test to time.
OPEN_SIDE = """async ([role, remote]) => {
  const gathered = (pc) => new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && resolve());
  });
  const pc = window.__pc = new RTCPeerConnection({iceServers: []});
  window.__got = [];
  const bind = (channel) => {
    window.__channel = channel;
    channel.onmessage = (event) => window.__got.push(event.data);
    channel.onopen = () => { window.__openAt = performance.now(); };
  };
  if (role === "offer") {
    bind(pc.createDataChannel("cribbage", {ordered: true}));
    await pc.setLocalDescription(await pc.createOffer());
  } else {
    pc.ondatachannel = (event) => bind(event.channel);
    await pc.setRemoteDescription({type: "offer", sdp: remote});
    await pc.setLocalDescription(await pc.createAnswer());
  }
  await gathered(pc);
  return pc.localDescription.sdp;
}"""
APPLY_ANSWER = """async (sdp) => {
  window.__appliedAt = performance.now();
  await window.__pc.setRemoteDescription({type: "answer", sdp});
}"""
OPENED = "() => window.__channel && window.__channel.readyState === 'open'"


def static_path(site_pages) -> str:
    """A page of the site that runs no Python: the strictest policy the build writes."""
    for page in site_pages:
        if page.template == "page":
            return "/" + page.path
    pytest.skip("no static page built")


@pytest.fixture(scope="module")
def peer_browser(playwright):
    """Debian's Chromium with PEER_ARGS."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=PEER_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def two_pages(peer_browser, browser_context_args, base_url):
    """Two pages in two browser contexts (two profiles: separate certificates, mDNS names),
    each watched for problems and for requests off 127.0.0.1."""
    contexts = [peer_browser.new_context(**{**browser_context_args, "base_url": base_url}) for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    watches = [PageProblems(page) for page in pages]
    requests = []
    for page in pages:
        page.on("request", lambda request: requests.append(request.url))
    yield pages, watches
    for context in contexts:
        context.close()
    for watch in watches:
        watch.check()
    off_site = [url for url in requests if not url.startswith(("http://127.0.0.1:", "data:", "blob:"))]
    assert not off_site, off_site


def test_two_pages_of_the_site_connect_with_compact_codes_and_no_ice_server(two_pages, site_pages):
    (inviter, friend), _ = two_pages
    path = static_path(site_pages)
    for page in (inviter, friend):
        page.goto(path)
    assert "default-src 'none'" in inviter.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")

    offer = peer_sdp.compact_description(inviter.evaluate(OPEN_SIDE, ["offer", None]))
    answer = peer_sdp.compact_description(friend.evaluate(OPEN_SIDE, ["answer", peer_sdp.expand_description(offer, "offer")]))
    print(f"\ncompact offer {len(offer)} characters, answer {len(answer)}: {offer} / {answer}")
    assert len(offer) <= 350 and len(answer) <= 350

    inviter.evaluate(APPLY_ANSWER, peer_sdp.expand_description(answer, "answer"))
    inviter.wait_for_function(OPENED, timeout=OPEN_TIMEOUT_MS, polling=5)
    took = inviter.evaluate("window.__openAt - window.__appliedAt")
    print(f"answer applied -> channel open: {took:.0f} ms")
    friend.wait_for_function(OPENED, timeout=OPEN_TIMEOUT_MS)

    inviter.evaluate("window.__channel.send('15 for 2 from the inviter')")
    friend.wait_for_function("() => window.__got.length === 1")
    friend.evaluate("window.__channel.send('and a pair from the friend')")
    inviter.wait_for_function("() => window.__got.length === 1")
    assert friend.evaluate("window.__got") == ["15 for 2 from the inviter"]
    assert inviter.evaluate("window.__got") == ["and a pair from the friend"]


def test_chromium_takes_every_candidate_form_the_format_rebuilds(page, problems, base_url, site_pages):
    """Rebuilt offers with IPv4, IPv6, mDNS, other host names and srflx candidates, and a rebuilt
    answer, all go through setRemoteDescription."""
    page.goto(static_path(site_pages))
    offer_sdp = page.evaluate(OPEN_SIDE, ["offer", None])
    real = peer_sdp.compact_description(offer_sdp).split(".")
    records = bytes([0, 10, 0, 0, 7, 0xC3, 0x50]                                   # host 10.0.0.7:50000
                    + [1] + [0x20, 0x01, 0x0d, 0xb8] + [0] * 11 + [1, 0xC3, 0x51]  # host [2001:db8::1]:50001
                    + [2] + list(range(16)) + [0xC3, 0x52]                          # host <uuid>.local:50002
                    + [3, 7] + list(b"pc.home") + [0xC3, 0x53]                      # host pc.home:50003
                    + [4, 203, 0, 113, 5, 0xEE, 0x48])                              # srflx 203.0.113.5:61000
    body = ".".join(real[:4] + [peer_sdp._b64_encode(records)])
    code = body + "." + peer_sdp._check(body)
    sdp = peer_sdp.expand_description(code, "offer")
    assert sdp.count("a=candidate:") == 5
    result = page.evaluate("""async (sdp) => {
        const pc = new RTCPeerConnection({iceServers: []});
        await pc.setRemoteDescription({type: "offer", sdp});
        await pc.setLocalDescription(await pc.createAnswer());
        const got = pc.remoteDescription.sdp;
        pc.close();
        return got;
    }""", sdp)
    assert result.count("a=candidate:") == 5

    friend = page.evaluate("""async (sdp) => {
        const pc = new RTCPeerConnection({iceServers: []});
        await pc.setRemoteDescription({type: "offer", sdp});
        await pc.setLocalDescription(await pc.createAnswer());
        const answer = pc.localDescription.sdp;
        pc.close();
        return answer;
    }""", peer_sdp.expand_description(peer_sdp.compact_description(offer_sdp), "offer"))
    answer = peer_sdp.expand_description(peer_sdp.compact_description(friend), "answer")
    page.evaluate("(sdp) => window.__pc.setRemoteDescription({type: 'answer', sdp})", answer)
    assert page.evaluate("window.__pc.signalingState") == "stable"


@pytest.fixture(scope="module")
def probe_url(built_site, tmp_path_factory, serve_folder):
    """The probe page next to the build's runtime, app and static folders, under the policy the
    build gives a page that runs Python."""
    root = tmp_path_factory.mktemp("peer-probe-site")
    for name in ("runtime", "app", "engine", "static"):
        (root / name).symlink_to(built_site / name, target_is_directory=True)
    shutil.copytree(PROBE, root / "probe")
    html = (root / "probe" / "index.html").read_text(encoding="utf-8")
    (root / "probe" / "index.html").write_text(security.with_csp(html, "peer probe"), encoding="utf-8")
    return serve_folder(root) + "/probe/"


def connect(inviter, friend, url):
    """Open the probe in both pages and connect them through PeerLink; returns (offer, answer)."""
    for page in (inviter, friend):
        page.goto(url)
        ui_ready(page)
    inviter.click("#offer")
    inviter.wait_for_function("() => document.getElementById('code').textContent.length > 0", timeout=OPEN_TIMEOUT_MS)
    offer = inviter.inner_text("#code")
    friend.fill("#input", offer)
    friend.click("#answer")
    friend.wait_for_function("() => document.getElementById('code').textContent.length > 0", timeout=OPEN_TIMEOUT_MS)
    answer = friend.inner_text("#code")
    inviter.fill("#input", answer)
    inviter.click("#accept")
    return offer, answer


def states(page) -> list[str]:
    return page.inner_text("#states").splitlines()


def test_peer_link_connects_two_pages_and_carries_messages_both_ways(two_pages, probe_url):
    (inviter, friend), _ = two_pages
    offer, answer = connect(inviter, friend, probe_url)
    assert 100 <= len(offer) <= 350 and 100 <= len(answer) <= 350, (offer, answer)
    assert peer_sdp.description_kind(offer) == "offer" and peer_sdp.description_kind(answer) == "answer"
    for page in (inviter, friend):
        page.wait_for_selector("html[data-peer='open']", state="attached", timeout=OPEN_TIMEOUT_MS)
    print(f"\nPeerLink: offer {len(offer)}, answer {len(answer)} characters; "
          f"answer applied -> open {inviter.inner_text('#timing')} ms")
    assert states(inviter) == ["connecting|", "open|"] and states(friend) == ["connecting|", "open|"]
    inviter.wait_for_function("() => document.getElementById('waited').textContent.length > 0")
    assert inviter.inner_text("#waited") == "True|open"

    inviter.fill("#input", '{"type": "chat", "text": "good luck <b>&amp;</b>"}')
    inviter.click("#send")
    friend.wait_for_function("() => document.getElementById('messages').textContent.length > 0")
    friend.fill("#input", "nice hand ♥")
    friend.click("#send")
    inviter.wait_for_function("() => document.getElementById('messages').textContent.length > 0")
    assert friend.inner_text("#messages").strip() == '{"type": "chat", "text": "good luck <b>&amp;</b>"}'
    assert inviter.inner_text("#messages").strip() == "nice hand ♥"
    assert inviter.inner_text("#sent") == "True"

    # Texts sent together go in one message of the channel, and arrive one by one, in order.
    friend.evaluate("""() => { const send = RTCDataChannel.prototype.send; window.__frames = [];
      RTCDataChannel.prototype.send = function (data) { window.__frames.push(String(data)); return send.call(this, data); }; }""")
    friend.fill("#input", '{"n":1}|{"n":2}|{"n":3}')
    friend.click("#send-together")
    inviter.wait_for_function("() => document.getElementById('messages').textContent.includes('{\"n\":3}')")
    assert friend.evaluate("window.__frames") == ['{"n":1}\n{"n":2}\n{"n":3}']
    assert inviter.inner_text("#messages").splitlines() == ["nice hand ♥", '{"n":1}', '{"n":2}', '{"n":3}']
    friend.fill("#input", "one|two\nlines")  # a text that holds a newline is not sent; the rest is
    friend.click("#send-together")
    friend.wait_for_function("() => document.getElementById('sent').textContent === 'False'")
    inviter.wait_for_function("() => document.getElementById('messages').textContent.includes('one')")
    assert friend.evaluate("window.__frames")[-1] == "one"
    # Texts too long to share one message go in as few as fit, each whole.
    friend.evaluate("() => { document.getElementById('input').value = ['p', 'q', 'r'].map((c) => c.repeat(30000)).join('|'); }")
    friend.click("#send-together")
    inviter.wait_for_function("() => document.getElementById('messages').textContent.includes('r'.repeat(30000))")
    assert [len(frame) for frame in friend.evaluate("window.__frames")[-2:]] == [60001, 30000]

    # A message past the limit is dropped before it reaches Python; the link stays open.
    friend.click("#send-huge")
    inviter.wait_for_function("() => document.getElementById('errors').textContent.length > 0")
    assert inviter.inner_text("#errors").strip() == "A message from the other device was too large and was ignored."
    friend.fill("#input", "still here")
    friend.click("#send")
    inviter.wait_for_function("() => document.getElementById('messages').textContent.includes('still here')")
    assert inviter.inner_text("#messages").splitlines() == ["nice hand ♥", '{"n":1}', '{"n":2}', '{"n":3}', "one",
                                                              "p" * 30000, "q" * 30000, "r" * 30000, "still here"]

    # PeerLink.send itself refuses a message past the limit.
    inviter.evaluate("(n) => { document.getElementById('input').value = 'y'.repeat(n); }", 64 * 1024 + 1)
    inviter.click("#send")
    inviter.wait_for_function("() => document.getElementById('sent').textContent === 'False'")

    inviter.click("#close")
    friend.wait_for_selector("html[data-peer='closed']", state="attached", timeout=OPEN_TIMEOUT_MS)
    assert states(friend)[-1] == "closed|The other device closed the connection."
    assert states(inviter)[-1] == "closed|"


def test_bad_codes_get_their_message_and_the_link_can_still_connect(two_pages, probe_url):
    (inviter, friend), _ = two_pages
    for page in (inviter, friend):
        page.goto(probe_url)
        ui_ready(page)
    inviter.click("#offer")
    inviter.wait_for_function("() => document.getElementById('code').textContent.length > 0", timeout=OPEN_TIMEOUT_MS)
    offer = inviter.inner_text("#code")

    friend.fill("#input", offer[:-5])
    friend.click("#answer")
    friend.wait_for_function("() => document.getElementById('problem').textContent.length > 0")
    assert friend.inner_text("#problem") == peer_sdp.DAMAGED
    assert friend.get_attribute("html", "data-peer") == "none"  # nothing started

    friend.fill("#input", "\n" + offer[:50] + "\n" + offer[50:] + "  ")  # broken over lines: still good
    friend.click("#answer")
    friend.wait_for_function("() => document.getElementById('code').textContent.length > 0", timeout=OPEN_TIMEOUT_MS)
    answer = friend.inner_text("#code")

    inviter.fill("#input", offer)  # its own invitation pasted back by mistake
    inviter.click("#accept")
    inviter.wait_for_function("() => document.getElementById('problem').textContent.length > 0")
    assert inviter.inner_text("#problem") == peer_sdp.NOT_ANSWER
    inviter.fill("#input", answer)
    inviter.click("#accept")
    for page in (inviter, friend):
        page.wait_for_selector("html[data-peer='open']", state="attached", timeout=OPEN_TIMEOUT_MS)


def test_an_answer_that_cannot_reach_the_inviter_fails_with_a_sentence(two_pages, probe_url):
    (inviter, friend), _ = two_pages
    inviter.goto(probe_url + "?timeout=2000")
    friend.goto(probe_url)
    for page in (inviter, friend):
        ui_ready(page)
    inviter.click("#offer")
    inviter.wait_for_function("() => document.getElementById('code').textContent.length > 0", timeout=OPEN_TIMEOUT_MS)
    friend.fill("#input", inviter.inner_text("#code"))
    friend.click("#answer")
    friend.wait_for_function("() => document.getElementById('code').textContent.length > 0", timeout=OPEN_TIMEOUT_MS)
    fields = friend.inner_text("#code").split(".")
    # The friend's own code with its candidates replaced by one address nobody answers on.
    body = ".".join(fields[:4] + [peer_sdp._b64_encode(bytes([0, 192, 0, 2, 250, 0, 9]))])
    inviter.fill("#input", body + "." + peer_sdp._check(body))
    friend.click("#close")  # nor does the friend answer checks from the inviter
    inviter.click("#accept")
    inviter.wait_for_selector("html[data-peer='failed']", state="attached", timeout=OPEN_TIMEOUT_MS)
    assert states(inviter) == ["connecting|", "failed|No direct connection could be made: the two devices may "
                                               "not be on the same network."]


def test_an_allowed_stun_server_that_cannot_be_reached_still_gives_an_invitation(two_pages, probe_url):
    """The host resolves nowhere here (the tests' resolver rule): gathering ends without it, the
    offer still carries the host candidates, the two pages still connect, and the site's policy
    (connect-src 'self') does not stand in the way."""
    (inviter, friend), _ = two_pages
    offer, _ = connect(inviter, friend, probe_url + "?stun=" + "stun:stun.example.org:3478")
    assert peer_sdp.expand_description(offer, "offer").count(" typ host") >= 1
    for page in (inviter, friend):
        page.wait_for_selector("html[data-peer='open']", state="attached", timeout=OPEN_TIMEOUT_MS)
