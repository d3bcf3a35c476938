// Runs Python code in the vendored MicroPython webassembly build (the browser's interpreter)
// under node, with the engine's files and this folder's work.py and damage.py in its file system.
//
//   node tests/conformance/micropython.mjs ROOT CODE [CODE ...]
//
// ROOT is the repository (engine/ and node_modules/ are read from it); each CODE is Python source
// run in turn, in the same interpreter, after `import sys; sys.path` holds the engine. Each is its
// own top-level call: this build's collector frees memory only between such calls (inside one it
// lets the heap grow), so long work is given as several CODEs. Whatever it prints goes to stdout,
// line by line; a Python error goes to stderr and the exit status is 1. No network is used.
import path from "node:path";
import { loadEngine } from "./engine_mp.mjs";

const [root, ...codes] = process.argv.slice(2);
const here = path.join(root, "tests/conformance");
const mp = await loadEngine(root, {
  heapsize: 256 * 1024 * 1024,
  files: { "work.py": path.join(here, "work.py"), "damage.py": path.join(here, "damage.py") },
});
try {
  for (const code of codes) mp.runPython(code);
} catch (error) {
  process.stderr.write(String(error && error.message || error) + "\n");
  process.exit(1);
}
