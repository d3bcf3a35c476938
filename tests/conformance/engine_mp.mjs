// The vendored MicroPython webassembly build (the browser's interpreter) under node, with the
// engine's files in its file system at /lib/engine and /lib on sys.path. Used by this folder's
// micropython.mjs (the conformance test) and by bench/bench_expert.py.
//
//   const mp = await loadEngine(root, {heapsize, files});
//
// ROOT is the repository (engine/ and node_modules/ are read from it); ``heapsize`` (bytes) is
// the interpreter's heap, the build's own if not given; ``files`` maps names under /lib to paths
// to copy there. Printed lines go to stdout and stderr, line by line. No network is used.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

export async function loadEngine(root, { heapsize, files = {} } = {}) {
  const build = path.join(root, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs");
  const { loadMicroPython } = await import(pathToFileURL(build).href);
  const options = {
    stdout: (line) => process.stdout.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  };
  if (heapsize) options.heapsize = heapsize;
  const mp = await loadMicroPython(options);

  function copyTree(from, to) {
    mp.FS.mkdir(to);
    for (const name of fs.readdirSync(from).sort()) {
      const source = path.join(from, name);
      if (fs.statSync(source).isDirectory()) {
        if (name !== "__pycache__") copyTree(source, `${to}/${name}`);
      } else if (!name.endsWith(".pyc")) {
        mp.FS.writeFile(`${to}/${name}`, fs.readFileSync(source));
      }
    }
  }

  mp.FS.mkdir("/lib");
  copyTree(path.join(root, "engine"), "/lib/engine");
  for (const [name, source] of Object.entries(files)) mp.FS.writeFile(`/lib/${name}`, fs.readFileSync(source));
  // Garbage collected as in the engine's worker (site_src/workers/engine_worker.py: GC_EVERY), not
  // after every 16 KB as the build would, so the benches' times are the worker's.
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\nimport gc\ngc.threshold(8 * 1024 * 1024)");
  return mp;
}
