/* The card engine's Web Worker: Pyodide running engine/api.py, off the page's main thread.

   It loads the vendored Pyodide (runtime/pyodide/, with the build's trimmed standard library)
   while it fetches the engine's files (listed by the build in app/engine-files.json), writes
   them into Pyodide's file system and imports engine.api. Messages in: {id, name, text}, an
   endpoint name and its JSON request; out: {id, ok, text} with the endpoint's JSON reply, or
   {id, ok: false, error}. Message id 0 says the engine has started (or why it could not). The
   worker never touches the page (static/engine.js talks to it), so it needs no special headers. */
import {loadPyodide} from "../runtime/pyodide/pyodide.mjs";

const site = new URL("../", import.meta.url);
const HOME = "/home/pyodide/";

async function fetchBytes(path) {
  const response = await fetch(new URL(path, site));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function engineFiles() {
  const response = await fetch(new URL("app/engine-files.json", site));
  if (!response.ok) throw new Error(`app/engine-files.json: HTTP ${response.status}`);
  const paths = await response.json();
  return Promise.all(paths.map(async (path) => [path, await fetchBytes(path)]));
}

const boot = (async () => {
  const [pyodide, files] = await Promise.all([
    loadPyodide({indexURL: new URL("runtime/pyodide/", site).href}),
    engineFiles(),
  ]);
  for (const [path, data] of files) {
    const target = HOME + path;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, data);
  }
  return pyodide.pyimport("engine.api").call;
})();

function problem(error) {
  return String((error && error.message) || error);
}

boot.then(
  () => {
    postMessage({id: 0, ok: true, text: ""});
    // The game's modules load on its first call; bring them in while the page waits for a click.
    setTimeout(() => boot.then((call) => call("warm_up", "{}")).catch(() => {}), 0);
  },
  (error) => postMessage({id: 0, ok: false, error: problem(error)}),
);

self.onmessage = async (event) => {
  const {id, name, text} = event.data;
  try {
    const call = await boot;
    postMessage({id, ok: true, text: call(name, text)});
  } catch (error) {
    postMessage({id, ok: false, error: problem(error)});
  }
};
