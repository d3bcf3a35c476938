"""Capture real session descriptions from Debian's Chromium for tests/unit/test_peer_sdp.py.

    .venv/bin/python tests/unit/peer_sdp_fixtures/capture.py

One page makes a data-channel-only offer with ``iceServers: []``, a second connection answers it,
both gathered completely, and the two SDP texts are written here as chromium-mdns-{offer,answer}.sdp
(host candidates behind mDNS names, as every visitor's browser sends them) and, with Chromium's
mDNS hiding turned off, chromium-ip-{offer,answer}.sdp (the machine's own IPv4 and IPv6 addresses).
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SHOW_IPS = "--disable-features=WebRtcHideLocalIpsWithMdns"
OFFER_AND_ANSWER = """async () => {
  const gathered = (pc) => new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && resolve());
  });
  const a = new RTCPeerConnection({iceServers: []});
  a.createDataChannel("game", {ordered: true});
  await a.setLocalDescription(await a.createOffer());
  await gathered(a);
  const b = new RTCPeerConnection({iceServers: []});
  await b.setRemoteDescription(a.localDescription);
  await b.setLocalDescription(await b.createAnswer());
  await gathered(b);
  const found = {offer: a.localDescription.sdp, answer: b.localDescription.sdp};
  a.close();
  b.close();
  return found;
}"""


def main() -> None:
    with sync_playwright() as playwright:
        for name, extra in (("mdns", []), ("ip", [SHOW_IPS])):
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS + extra)
            page = browser.new_page()
            found = page.evaluate(OFFER_AND_ANSWER)
            browser.close()
            for kind, sdp in found.items():
                (HERE / f"chromium-{name}-{kind}.sdp").write_bytes(sdp.encode("utf-8"))
                print(f"chromium-{name}-{kind}.sdp: {len(sdp)} characters")


if __name__ == "__main__":
    main()
