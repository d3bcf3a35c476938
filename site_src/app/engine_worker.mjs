// The engine's worker: MicroPython running app/worker.py with the engine, answering the page's calls.
//
// site_src/static/engine.js starts it as soon as a page's <head> is read (the page's own UI, in
// PyScript on the main thread, starts alongside). It loads the vendored MicroPython and, at the
// same time, the engine's pack (ENGINE_PACK, named by the build: worker.mpy, the engine's bytecode
// and its data in one download, see site_src/builder/packs.py), writes the pack's files into
// MicroPython's file system, imports app/worker.py and then answers each message {id, name,
// request} (engine.api's endpoint name and JSON text) with {id, reply} (JSON text) or {id, error}
// when it cannot carry the call at all. Calls run one at a time, in the order they arrive.
import {loadMicroPython} from "../runtime/micropython/micropython.mjs";

const ENGINE_PACK = "/*ENGINE_PACK*/";  // from app/

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// A pack: one line of JSON listing [path, size] per file, a newline, then the files' bytes in order.
function unpack(fs, data) {
  const end = data.indexOf(10);
  if (end < 0) throw new Error("the engine's pack has no index");
  let at = end + 1;
  const made = new Set();
  for (const [path, size] of JSON.parse(new TextDecoder().decode(data.subarray(0, end)))) {
    let folder = "";
    for (const part of path.split("/").slice(1, -1)) {
      folder += "/" + part;
      if (!made.has(folder)) {
        made.add(folder);
        try { fs.mkdir(folder); } catch (error) { /* it exists */ }
      }
    }
    fs.writeFile(path, data.subarray(at, at + size));
    at += size;
  }
  if (at !== data.length) throw new Error("the engine's pack is cut short or too long");
}

async function boot() {
  const here = new URL("./", import.meta.url);
  const [python, pack] = await Promise.all([
    loadMicroPython({url: new URL("../runtime/micropython/micropython.wasm", here).href, linebuffer: false,
                     stdout: () => {}, stderr: (bytes) => console.error(new TextDecoder().decode(bytes))}),
    fetchBytes(new URL(ENGINE_PACK, here)),
  ]);
  unpack(python.FS, pack);
  python.runPython("import sys\nsys.path.insert(0, '/')");
  return python.pyimport("worker");
}

const engine = boot();

onmessage = async ({data: {id, name, request}}) => {
  try {
    const worker = await engine;
    postMessage({id, reply: worker.call(name, request)});
  } catch (error) {
    console.error("Engine worker:", error);
    postMessage({id, error: String(error && error.message || error)});
  }
};
