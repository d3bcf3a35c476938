/* The card engine's Web Worker: Pyodide running engine/api.py, off the page's main thread.

   It loads the vendored Pyodide (runtime/pyodide/, with the build's trimmed standard library)
   while it fetches the engine's files (listed by the build in app/engine-files.json), writes
   them into Pyodide's file system and imports engine.api. Messages in: {id, name, text}, an
   endpoint name and its JSON request; out: {id, ok, text} with the endpoint's JSON reply, or
   {id, ok: false, error}. Message id 0 says the engine has started, and how (or why it could
   not). The worker never touches the page (static/engine.js talks to it), so it needs no
   special headers.

   Starting Pyodide is most of the wait. When the page is one the site's service worker serves
   (a returning visitor, who can play offline), the worker keeps a snapshot of Pyodide's memory
   once the engine is imported, in Cache Storage under the engine's version; later visits start
   from it, which skips the interpreter's own start-up. A snapshot that fails to load is
   dropped and Pyodide starts afresh. Nothing in the snapshot is secret or per-game: games draw
   their seeds from the browser's crypto at the time they start. */
import {loadPyodide} from "../runtime/pyodide/pyodide.mjs";

const site = new URL("../", import.meta.url);
const indexURL = new URL("runtime/pyodide/", site).href;
const HOME = "/home/pyodide/";
const SNAPSHOTS = "engine-snapshots";
const keepSnapshot = self.name === "engine keep-snapshot";  // set by static/engine.js

async function fetchBytes(path) {
  const response = await fetch(new URL(path, site));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function engineListing() {
  const response = await fetch(new URL("app/engine-files.json", site));
  if (!response.ok) throw new Error(`app/engine-files.json: HTTP ${response.status}`);
  return response.json();
}

function snapshotKey(version) {
  return new URL(`app/engine-snapshot-${version}.bin`, site).href;
}

async function readSnapshot(version) {
  try {
    if (!keepSnapshot || !self.caches) return null;
    const found = await (await caches.open(SNAPSHOTS)).match(snapshotKey(version));
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch (error) {
    return null;
  }
}

async function dropSnapshots(except) {
  const cache = await caches.open(SNAPSHOTS);
  for (const request of await cache.keys()) {
    if (request.url !== except) await cache.delete(request);
  }
}

async function start() {
  const listing = engineListing();
  const files = listing.then((found) => Promise.all(found.files.map(async (path) => [path, await fetchBytes(path)])));
  files.catch(() => {});  // (awaited below)
  const saved = keepSnapshot ? await readSnapshot((await listing).version) : null;
  let pyodide = null;
  let from = "fresh";
  if (saved) {
    try {
      pyodide = await loadPyodide({indexURL, _loadSnapshot: saved});
      from = "snapshot";
    } catch (error) {
      pyodide = null;
      await dropSnapshots(null).catch(() => {});
    }
  }
  if (!pyodide) pyodide = await loadPyodide({indexURL, _makeSnapshot: keepSnapshot});
  for (const [path, data] of await files) {
    const target = HOME + path;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, data);
  }
  const call = pyodide.pyimport("engine.api").call;
  return {pyodide, call, from, version: (await listing).version};
}

async function keep(engine) {
  // The modules the pages' first calls need, then (once per engine version) the snapshot.
  engine.call("warm_up", "{}");
  if (!keepSnapshot || engine.from === "snapshot" || !self.caches) return;
  const key = snapshotKey(engine.version);
  const snapshot = engine.pyodide.makeMemorySnapshot();
  await dropSnapshots(key);
  await (await caches.open(SNAPSHOTS)).put(key, new Response(snapshot, {
    headers: {"Content-Type": "application/octet-stream"},
  }));
}

const boot = start();

function problem(error) {
  return String((error && error.message) || error);
}

boot.then(
  (engine) => {
    postMessage({id: 0, ok: true, text: engine.from});
    setTimeout(() => keep(engine).catch(() => {}), 0);
  },
  (error) => postMessage({id: 0, ok: false, error: problem(error)}),
);

self.onmessage = async (event) => {
  const {id, name, text} = event.data;
  try {
    const engine = await boot;
    postMessage({id, ok: true, text: engine.call(name, text)});
  } catch (error) {
    postMessage({id, ok: false, error: problem(error)});
  }
};
