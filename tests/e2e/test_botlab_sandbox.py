"""A hostile bot in the bot lab reaches nothing of the site's.

The bot below runs JavaScript from its Python (Pyodide's ``js`` module) that tries to put its own
script in place of runtime/pyscript/core.js in the service worker's caches, to add an entry
there, to write an IndexedDB database and localStorage, to post on the tabs' BroadcastChannel
(site_src/app/table/store.py's) and to read a file of the site; it prints what happened. The test runs
it with the service worker on (its own browser context over a private copy of the build, as
tests/e2e/test_offline.py does), then checks that every entry of the site's cache still holds
the build's bytes, that no database, key or message appeared, and that the home page and the
replay page run as they should.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from test_botlab import WATCH_STATES
from conftest import ENGINE_TIMEOUT_MS, PageProblems, SiteServer, engine_ready, ui_ready
from test_offline import cache_name, precache, site_copy, wait_for_cache  # noqa: F401 (site_copy is a fixture)

MATCH_TIMEOUT_MS = 240_000
MATCHES = 3
TAKEN = "data-taken-by-bot"

ATTACK_JS = """
(async () => {
  const report = {};
  const evil = "document.documentElement.setAttribute('%(taken)s', 'yes');";
  const script = () => new Response(evil, {headers: {"Content-Type": "text/javascript"}});
  try {
    const names = await caches.keys();
    let written = 0;
    for (const name of names) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        if (request.url.endsWith("/runtime/pyscript/core.js")) { await cache.put(request, script()); written++; }
      }
      await cache.put(new URL("bot-was-here.js", "%(site)s"), script());
    }
    report.caches = "wrote " + written + " in " + names.join(",");
  } catch (error) { report.caches = "refused: " + error.name; }
  try {
    await new Promise((done, failed) => {
      const opening = indexedDB.open("cribbage-bot-was-here");
      opening.onupgradeneeded = () => opening.result.createObjectStore("taken");
      opening.onsuccess = () => {
        const writing = opening.result.transaction("taken", "readwrite");
        writing.objectStore("taken").put("yes", "taken");
        writing.oncomplete = done;
        writing.onerror = () => failed(writing.error);
      };
      opening.onerror = () => failed(opening.error);
    });
    report.indexeddb = "wrote";
  } catch (error) { report.indexeddb = "refused: " + (error && error.name); }
  try { localStorage.setItem("cribbage.bot-was-here", "yes"); report.localstorage = "wrote"; }
  catch (error) { report.localstorage = "refused: " + error.name; }
  try {
    const channel = new BroadcastChannel("cribbage.tabs.v1");
    channel.postMessage({type: "hello", tab: "bot-was-here"});
    report.channel = "posted";
  } catch (error) { report.channel = "refused: " + error.name; }
  try {
    const response = await fetch(new URL("app/botlab_sandbox.json", "%(site)s"));
    report.read = "read " + (await response.text()).length;
  } catch (error) { report.read = "refused: " + error.name; }
  self.attackReport = JSON.stringify(report);
})();
"""

ATTACK_BOT = '''import js

js.eval(%r)
_told = []


def choose(view, legal_actions):
    report = js.eval("self.attackReport || ''")
    if report and not _told:
        _told.append(report)
        print("REPORT " + report)
    return legal_actions[0]
'''


def attack_bot(site: str) -> str:
    """The bot's source, its JavaScript aimed at the site served from ``site``."""
    return ATTACK_BOT % (ATTACK_JS % {"taken": TAKEN, "site": site + "/"})


@pytest.fixture
def server(site_copy):  # noqa: F811
    server = SiteServer(site_copy)
    yield server
    server.close()


@pytest.fixture
def sw_context(browser, server):
    context = browser.new_context(base_url=server.url, service_workers="allow")
    yield context
    context.close()


def built_hash(site, path: str) -> str | None:
    """The SHA-256 (hex) of the built file behind an address's path ("/rules/": rules/index.html)."""
    rel = path.lstrip("/")
    target = site / (rel + "index.html" if rel == "" or rel.endswith("/") else rel)
    return hashlib.sha256(target.read_bytes()).hexdigest() if target.is_file() else None


CACHE_CONTENTS = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", await (await cache.match(request)).arrayBuffer()));
      found[name + " " + new URL(request.url).pathname] = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    }
  }
  return found;
}"""

STORAGE = "() => JSON.stringify(Object.fromEntries(Object.keys(localStorage).sort().map(k => [k, localStorage.getItem(k)])))"


def test_a_bot_cannot_touch_the_site(sw_context, server, site_copy, site_pages):  # noqa: F811
    slugs = {page.slug for page in site_pages}
    if not {"index", "bot-lab", "replay"} <= slugs:
        pytest.skip("the home page, the bot lab and the replay page are not all built")
    cache = "cribbage-" + cache_name(site_copy)

    home = sw_context.new_page()
    watch = PageProblems(home)
    watch.allow(r"request failed: .*/favicon-32\.png \(net::ERR_ABORTED\)")
    home.goto("/")
    ui_ready(home)
    wait_for_cache(home, cache, len(precache(site_copy)))
    home.evaluate("""() => {
      window.heard = [];
      new BroadcastChannel("cribbage.tabs.v1").onmessage = (event) => window.heard.push(JSON.stringify(event.data));
    }""")

    lab = sw_context.new_page()
    lab_watch = PageProblems(lab)
    lab_watch.allow(r"CORS policy|app/botlab_sandbox\.json")  # the bot's attempt to read a file of the site
    lab.goto("/bot-lab/")
    ui_ready(lab)
    engine_ready(lab)
    bot = attack_bot(server.url)
    lab.evaluate("(code) => { document.getElementById('bot-source').code = code; }", bot)
    lab.wait_for_function("(code) => localStorage.getItem('cribbage.botlab.code') === code", arg=bot)
    stored = lab.evaluate(STORAGE)
    lab.fill("#match-games", "20")
    lab.select_option("#match-opponent", "easy")
    printed = ""
    for _ in range(MATCHES):  # the attempts run between the worker's calls: a match or more
        lab.evaluate(WATCH_STATES)
        lab.click("#match-run")
        lab.wait_for_function("() => window.labStates.some(s => s === 'done' || s === 'failed')",
                              timeout=MATCH_TIMEOUT_MS)
        assert lab.get_attribute("#lab", "data-match") == "done", lab.inner_text("#lab")
        printed = lab.inner_text("#bot-output-text")
        if "REPORT " in printed:
            break
    assert "REPORT " in printed, "the bot's attempts did not finish: " + printed
    report = json.loads(printed.split("REPORT ", 1)[1].splitlines()[0])
    print("\nwhat the bot could do:", report)
    for attempt in ("caches", "indexeddb", "localstorage", "read"):
        assert report[attempt].startswith("refused"), f"{attempt}: {report[attempt]}"

    # The site's cache: one cache, each entry holding the bytes the build wrote there.
    contents = lab.evaluate(CACHE_CONTENTS)
    assert contents, "the site's cache is empty"
    for key, digest in contents.items():
        name, path = key.split(" ", 1)
        assert name == cache, f"a cache the build did not make: {key}"
        assert built_hash(site_copy, path) == digest, f"{path} in the cache is not the build's"
    assert "cribbage-bot-was-here" not in lab.evaluate("() => indexedDB.databases().then(all => all.map(d => d.name))")
    assert lab.evaluate(STORAGE) == stored
    assert not [m for m in home.evaluate("() => window.heard") if "bot-was-here" in m]

    # Every page still runs as built: the home page, and a game of the match in the replay page.
    lab.click("#match-replays summary")
    lab.wait_for_selector("#match-replay-list a[data-game='1']", timeout=10_000)
    replay_url = lab.get_attribute("#match-replay-list a[data-game='1']", "href")
    home.reload()
    ui_ready(home)
    engine_ready(home)
    assert home.get_attribute("html", TAKEN) is None
    replay = sw_context.new_page()
    replay_watch = PageProblems(replay)
    replay.goto(lab.evaluate("(href) => new URL(href, location.href).href", replay_url))
    replay.wait_for_selector("#replay[data-state='ready'], #replay[data-state='error']", state="attached",
                             timeout=ENGINE_TIMEOUT_MS)
    assert replay.get_attribute("#replay", "data-state") == "ready", replay.inner_text("#replay-message")
    assert replay.get_attribute("html", TAKEN) is None
    assert replay.evaluate("() => navigator.serviceWorker.controller !== null")
    for check in (watch, lab_watch, replay_watch):
        check.check()
