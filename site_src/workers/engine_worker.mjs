// The engine's worker: MicroPython running engine_worker.py (beside it) with the engine, answering the page's calls.
//
// site_src/static/engine.js starts it as soon as a page's <head> is read (the page's own UI, in
// PyScript on the main thread, starts alongside). It loads the vendored MicroPython and, at the
// same time, the engine's pack (ENGINE_PACK, named by the build: engine_worker.mpy, the engine's bytecode
// and its data in one download, see site_src/builder/packs.py), writes the pack's files into
// MicroPython's file system, imports engine_worker.py and then answers each message {id, name,
// request} (engine.api's endpoint name and JSON text) with {id, reply} (JSON text) or {id, error}
// when it cannot carry the call at all. Calls run one at a time, in the order they arrive.
//
// If it cannot start, every reply is {id, error, boot: true} whose error is a sentence naming the
// file at fault ("app/engine.pack did not arrive (HTTP 404)"). A worker started again after such a
// failure (engine.js's restart, address ?retry=N) fetches its files afresh, past the browser's cache.
const ENGINE_PACK = "/*ENGINE_PACK*/";  // from app/
const MICROPYTHON = "../runtime/micropython/micropython.mjs";
const MICROPYTHON_WASM = "../runtime/micropython/micropython.wasm";

const here = new URL("./", import.meta.url);
const retry = new URL(import.meta.url).searchParams.get("retry");
const site = new URL("../", here);

class BootError extends Error {}

// A file's address as the page's messages name it: its path from the site's root.
function named(url) {
  const path = new URL(url).pathname;
  return path.startsWith(site.pathname) ? path.slice(site.pathname.length) : path;
}

// An address of the worker's own files, made unique on a retry so no cache answers for it.
function fresh(path) {
  const url = new URL(path, here);
  if (retry) url.searchParams.set("retry", retry);
  return url;
}

async function fetchBytes(url) {
  let response;
  try {
    response = await fetch(url, retry ? {cache: "reload"} : {});
  } catch (error) {
    throw new BootError(`${named(url)} did not arrive (the request failed)`);
  }
  if (!response.ok) throw new BootError(`${named(url)} did not arrive (HTTP ${response.status})`);
  try {
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new BootError(`${named(url)} did not arrive whole`);
  }
}

// A pack: one line of JSON listing [path, size] per file, a newline, then the files' bytes in order.
function unpack(fs, data, url) {
  const damaged = new BootError(`${named(url)} is damaged`);
  const end = data.indexOf(10);
  if (end < 0) throw damaged;
  let listed;
  try {
    listed = JSON.parse(new TextDecoder().decode(data.subarray(0, end)));
  } catch (error) {
    throw damaged;
  }
  if (!Array.isArray(listed)) throw damaged;
  let at = end + 1;
  const made = new Set();
  for (const entry of listed) {
    const [path, size] = Array.isArray(entry) ? entry : [];
    if (typeof path !== "string" || !Number.isInteger(size) || size < 0 || at + size > data.length) throw damaged;
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
  if (at !== data.length) throw damaged;
}

async function startMicroPython() {
  let loadMicroPython;
  try {
    ({loadMicroPython} = await import(fresh(MICROPYTHON).href));
  } catch (error) {
    throw new BootError(`${named(fresh(MICROPYTHON))} did not arrive`);
  }
  const wasm = fresh(MICROPYTHON_WASM);
  try {
    return await loadMicroPython({url: wasm.href, linebuffer: false, stdout: () => {},
                                  stderr: (bytes) => console.error(new TextDecoder().decode(bytes))});
  } catch (error) {
    throw new BootError(`${named(wasm)} did not arrive or did not start`);
  }
}

async function boot() {
  const packUrl = fresh(ENGINE_PACK);
  const [python, pack] = await Promise.all([startMicroPython(), fetchBytes(packUrl)]);
  unpack(python.FS, pack, packUrl);
  try {
    python.runPython("import sys\nsys.path.insert(0, '/')");
    return python.pyimport("engine_worker");
  } catch (error) {
    console.error("Engine worker:", error);
    throw new BootError(`${named(packUrl)} is damaged (the engine does not import)`);
  }
}

const engine = boot();
engine.catch(() => {});  // each call reports a failed start

// Garbage is collected once the worker has been idle a while (engine_worker.idle, which also
// builds the show table if the page's first calls did not need it), not at the end of the call a
// page waits for.
const IDLE_MS = 300;
let idleTimer = null;

onmessage = async ({data: {id, name, request}}) => {
  clearTimeout(idleTimer);
  let worker;
  try {
    worker = await engine;
  } catch (error) {
    const message = error instanceof BootError ? error.message : "the engine did not start";
    console.error("Engine worker could not start:", message);
    postMessage({id, error: message, boot: true});
    return;
  }
  try {
    postMessage({id, reply: worker.call(name, request)});
  } catch (error) {
    console.error("Engine worker:", error);
    postMessage({id, error: String(error && error.message || error)});
  }
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => { try { worker.idle(); } catch (error) { /* the next call collects */ } }, IDLE_MS);
};
