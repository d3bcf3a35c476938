// The engine's worker: MicroPython running app/worker.py with the engine, answering the page's calls.
//
// site_src/static/engine.js starts it as soon as a page's <head> is read (the page's own UI, in
// PyScript on the main thread, starts alongside). It loads the vendored MicroPython, writes the
// engine's bytecode into MicroPython's file system (ENGINE_FILES, filled in by the build), imports
// app/worker.py and then answers each message {id, name, request} (engine.api's endpoint name and
// JSON text) with {id, reply} (JSON text) or {id, error} when it cannot carry the call at all.
// Calls run one at a time, in the order they arrive.
import {loadMicroPython} from "../runtime/micropython/micropython.mjs";

const ENGINE_FILES = /*ENGINE_FILES*/[];  // [URL from app/, path in MicroPython's file system]: worker.mpy and the engine

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function writeFile(fs, path, data) {
  let folder = "";
  for (const part of path.split("/").slice(1, -1)) {
    folder += "/" + part;
    try { fs.mkdir(folder); } catch (error) { /* it exists */ }
  }
  fs.writeFile(path, data);
}

async function boot() {
  const here = new URL("./", import.meta.url);
  const [python, files] = await Promise.all([
    loadMicroPython({url: new URL("../runtime/micropython/micropython.wasm", here).href, linebuffer: false,
                     stdout: () => {}, stderr: (bytes) => console.error(new TextDecoder().decode(bytes))}),
    Promise.all(ENGINE_FILES.map(
      async ([source, target]) => [target, await fetchBytes(new URL(source, here))])),
  ]);
  for (const [target, data] of files) writeFile(python.FS, target, data);
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
