// Runs Python code in the vendored MicroPython webassembly build (the browser's interpreter)
// under node, with the engine's files and this folder's work.py and damage.py in its file system.
//
//   node tests/conformance/micropython.mjs ROOT CODE
//
// ROOT is the repository (engine/ and node_modules/ are read from it); CODE is Python source to
// run after `import sys; sys.path` holds the engine. Whatever it prints goes to stdout, line by
// line; a Python error goes to stderr and the exit status is 1. No network is used.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [root, code] = process.argv.slice(2);
const build = path.join(root, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs");
const { loadMicroPython } = await import(pathToFileURL(build).href);
const mp = await loadMicroPython({
  heapsize: 256 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

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
for (const name of ["work.py", "damage.py"]) {
  mp.FS.writeFile(`/lib/${name}`, fs.readFileSync(path.join(root, "tests/conformance", name)));
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\n" + code);
} catch (error) {
  process.stderr.write(String(error && error.message || error) + "\n");
  process.exit(1);
}
