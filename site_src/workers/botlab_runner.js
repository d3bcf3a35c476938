// The bot lab's runner: CPython (Pyodide) playing the visitor's bot, in a worker of the sandboxed
// frame (site_src/app/botlab_sandbox.js), so of an opaque origin: no cache, database, storage,
// channel or readable request of the site's can be reached from here.
//
// It fetches nothing itself (it could not: every address of the site is another origin's to it).
// The page hands over every file once, in the first message, {type: "boot", index, pyodide,
// files}: Pyodide's own files by name (pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm,
// python_stdlib.zip, pyodide-lock.json) and the Python files by their path in Pyodide's file
// system (the engine's source and data, botlab_worker.py). The runner boots Pyodide from those
// bytes, imports botlab_worker and answers {type: "ready", reply} (botlab_worker.ping's JSON
// text) or {type: "failed", error}. Then each {type: "call", id, name, request} (name: start or
// step) is answered {type: "reply", id, reply} (JSON text) or {type: "error", id, error}.
// Why JavaScript: a worker starts from a script, and Pyodide is loaded from one.
"use strict";

const RUNTIME_FILES = {  // Pyodide's files that it asks for by address while it starts
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
};
const HOME = "/home/pyodide/";
const ENTRY = "botlab_worker";
const CALLS = ["start", "step"];

let module = null;

function scriptURL(bytes) {
  return URL.createObjectURL(new Blob([bytes], {type: "text/javascript"}));
}

async function boot({index, pyodide, files}) {
  const {loadPyodide} = await import(scriptURL(pyodide["pyodide.mjs"]));
  const asm = await import(scriptURL(pyodide["pyodide.asm.mjs"]));
  const network = self.fetch;
  // Pyodide asks for its wasm and standard library by address: they are answered from the bytes
  // handed over. Nothing else is fetched.
  self.fetch = async (url) => {
    const name = String(url).startsWith(index) ? String(url).slice(index.length) : null;
    if (name in RUNTIME_FILES && pyodide[name]) {
      return new Response(pyodide[name], {headers: {"Content-Type": RUNTIME_FILES[name]}});
    }
    throw new TypeError(`the bot lab's runner has no file ${url}`);
  };
  let python;
  try {
    python = await loadPyodide({
      indexURL: index, createPyodideModule: asm.default, stdLibURL: index + "python_stdlib.zip",
      lockFileContents: new TextDecoder().decode(pyodide["pyodide-lock.json"]),
      stdout: () => {}, stderr: (text) => console.error(text),
    });
  } finally {
    self.fetch = network;
  }
  for (const [path, bytes] of Object.entries(files)) {
    const target = HOME + path;
    python.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    python.FS.writeFile(target, new Uint8Array(bytes));
  }
  python.runPython(`import sys\nif ${JSON.stringify(HOME)} not in sys.path: sys.path.insert(0, ${JSON.stringify(HOME)})`);
  module = python.pyimport(ENTRY);
  return module.ping("{}");
}

onmessage = async ({data}) => {
  if (data && data.type === "boot" && module === null) {
    try {
      postMessage({type: "ready", reply: await boot(data)});
    } catch (error) {
      console.error("The bot lab's runner failed to start:", error);
      postMessage({type: "failed", error: String(error && error.message || error)});
    }
  } else if (data && data.type === "call") {
    try {
      if (module === null || !CALLS.includes(data.name)) throw new Error(`no call ${data.name} now`);
      postMessage({type: "reply", id: data.id, reply: String(module[data.name](String(data.request)))});
    } catch (error) {
      postMessage({type: "error", id: data.id, error: String(error && error.message || error)});
    }
  }
};
