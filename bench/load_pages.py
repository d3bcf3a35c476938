"""The bench's own pages, added under bench/ to a freshly built site: the floors ``bench load``
measures every page against (a plain worker, the pages' worker, PyScript's worker, PyScript
alone) and the page that times hard's decisions in the engine's worker (bench_load.py's
docstring says what each floor is).
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from site_src.builder import browser_python  # noqa: E402

FLOOR_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Floor: MicroPython in a plain worker, the engine, a deal</title>
<link rel="icon" href="data:,"></head>
<body><p id="status">Loading…</p><script src="floor.js"></script></body>
</html>
"""
FLOOR_JS = """
const worker = new Worker("floor-worker.mjs", {type: "module"});
worker.onmessage = (event) => {
  document.getElementById("status").textContent = event.data;
  if (event.data.startsWith("dealt")) document.documentElement.dataset.dealt = "1";
};
"""
FLOOR_WORKER = """
import {loadMicroPython} from "../../runtime/micropython/micropython.mjs";
try {
  const app = new URL("../../app/", import.meta.url);
  const [mp, pack] = await Promise.all([
    loadMicroPython({url: new URL("../runtime/micropython/micropython.wasm", app).href}),
    fetch(new URL("engine.pack", app)).then((r) => r.arrayBuffer()).then((b) => new Uint8Array(b)),
  ]);
  const end = pack.indexOf(10);  // a pack: a line of JSON [[path, size], ...], then the bytes
  let at = end + 1;
  for (const [path, size] of JSON.parse(new TextDecoder().decode(pack.subarray(0, end)))) {
    const dirs = path.split("/").slice(1, -1);
    dirs.forEach((_, i) => { try { mp.FS.mkdir("/" + dirs.slice(0, i + 1).join("/")); } catch (error) {} });
    mp.FS.writeFile(path, pack.subarray(at, at += size));
  }
  mp.runPython(`import sys
sys.path.insert(0, "/")
from engine import api`);
  mp.runPython(`reply = api.call("new_game", '{"difficulty": "hard", "seed": "bench"}')`);
  const reply = mp.globals.get("reply");
  postMessage((JSON.parse(reply).ok ? "dealt: " : "error: ") + reply.slice(0, 80));
} catch (error) {
  postMessage("error: " + error);
}
"""
PYSCRIPT_FLOOR_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>PyScript floor: the engine's worker through PyScript, a deal</title>
<link rel="icon" href="data:,">
<script type="module" src="../../runtime/pyscript/core.js"></script>
<script type="mpy" worker name="engine" src="./worker.py" config="../engine.toml"></script>
</head>
<body><p>Loading…</p>
<script type="mpy" config="./floor.toml">
import js
from polyscript import workers  # the named workers, as PyScript's own package takes them (the site runs without it)
engine = await js.Reflect.get(workers, "engine")
reply = await engine.call("new_game", '{"difficulty": "hard", "seed": "bench"}')
js.document.documentElement.setAttribute("data-dealt", "1")
</script></body>
</html>
"""
DECIDE_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Hard's decisions in the engine's worker</title>
<link rel="icon" href="data:,">
<script type="module" src="../../runtime/pyscript/core.js"></script>
<script src="../../static/engine.js"></script>
</head>
<body><p>Loading…</p>
<script type="mpy" config="./floor.toml">
import js, json
engine = js.window.cribbageEngine
times = {"discard": [], "play": [], "first_discard": None}
decisions, game = 0, 0
while decisions < __DECISIONS__:
    game += 1
    reply = json.loads(await engine.call("new_game", json.dumps({"difficulty": "hard", "seed": "decide-%d" % game})))
    result = reply["result"]
    while result["awaiting"] != "over" and decisions < __DECISIONS__:
        ask = {"game": result["game"], "difficulty": "hard"}
        if result["awaiting"] == "computer":
            phase = result["view"]["phase"]
            started = js.performance.now()
            result = json.loads(await engine.call("computer_move", json.dumps(ask)))["result"]
            spent = js.performance.now() - started
            if phase in ("discard", "play"):
                if phase == "discard" and times["first_discard"] is None:
                    times["first_discard"] = spent
                times[phase].append(spent)
                decisions += 1
        else:
            view = result["view"]
            if result["awaiting"] == "count":
                ask["action"] = {"type": "count", "points": 0}
            else:
                ask["action"] = view["legal_actions"][0]
            result = json.loads(await engine.call("act", json.dumps(ask)))["result"]
js.document.getElementById("out").textContent = json.dumps(times)
js.document.documentElement.setAttribute("data-dealt", "1")
</script><pre id="out"></pre></body>
</html>
"""
SITE_WORKER_FLOOR_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Site worker floor: the pages' engine worker, a deal</title>
<link rel="icon" href="data:,">
<script src="../../static/engine.js"></script></head>
<body><p id="status">Loading…</p><script src="site-floor.js"></script></body>
</html>
"""
SITE_WORKER_FLOOR_JS = """
window.cribbageEngine.call("new_game", '{"difficulty": "hard", "seed": "bench"}').then((reply) => {
  document.getElementById("status").textContent = reply.slice(0, 80);
  if (JSON.parse(reply).ok) document.documentElement.dataset.dealt = "1";
});
"""
UI_FLOOR_HTML = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>UI floor: PyScript and MicroPython, nothing else</title>
<link rel="icon" href="data:,">
<script type="module" src="../../runtime/pyscript/core.js"></script></head>
<body><p>Loading…</p>
<script type="mpy" config="./floor.toml">
import js
js.document.documentElement.setAttribute("data-ui", "ready")
</script></body>
</html>
"""
FLOOR_TOML = f"""interpreter = "../../runtime/micropython/micropython.mjs"
plugins = {json.dumps(browser_python.plugins(""))}
"""


def prepare_site(folder: Path, decisions: int) -> tuple[Path, list]:
    """Build the site into ``folder`` and add the bench pages (the decisions page timing
    ``decisions`` of hard's decisions); returns (site, pages)."""
    site = build.build(folder / "dist", quiet=True)
    (site / "bench").mkdir()
    engine_files = []  # PyScript's worker takes files one by one: the engine's pack written out
    for path, data in browser_python.engine_worker_files(site):
        if path.startswith("/engine/"):
            (site / "bench" / path[1:]).parent.mkdir(parents=True, exist_ok=True)
            (site / "bench" / path[1:]).write_bytes(data)
            engine_files.append(path[len("/engine/"):])
    (site / "bench" / "engine.toml").write_text("\n".join(
        ['interpreter = "../runtime/micropython/micropython.mjs"', "sync_main_only = true",
         'plugins = ["!error"]', "", "[files]", *(f'"./engine/{f}" = "./engine/{f}"' for f in engine_files)])
        + "\n", encoding="utf-8")
    extra = {
        "floor": {"index.html": FLOOR_HTML, "floor.js": FLOOR_JS, "floor-worker.mjs": FLOOR_WORKER},
        "site-worker-floor": {"index.html": SITE_WORKER_FLOOR_HTML, "site-floor.js": SITE_WORKER_FLOOR_JS},
        "pyscript-floor": {"index.html": PYSCRIPT_FLOOR_HTML, "floor.toml": FLOOR_TOML,
                           "worker.py": (ROOT / "site_src" / "workers" / "engine_worker.py").read_text(encoding="utf-8")
                           + '\n__export__ = ["call"]\n'},
        "ui-floor": {"index.html": UI_FLOOR_HTML, "floor.toml": FLOOR_TOML},
        "decide": {"index.html": DECIDE_HTML.replace("__DECISIONS__", str(decisions)), "floor.toml": FLOOR_TOML},
    }
    for name, files in extra.items():
        (site / "bench" / name).mkdir(parents=True)
        for file, text in files.items():
            (site / "bench" / name / file).write_text(text, encoding="utf-8")
    return site, build.load_pages()
