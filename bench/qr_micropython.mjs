// Times engine.qr in the vendored MicroPython webassembly build under node, loaded as the
// engine's worker loads it (the default heap), with the engine's source in its file system.
//
//   node bench/qr_micropython.mjs ROOT CODE
//
// CODE is Python run after engine/ is importable; what it prints goes to stdout.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [root, code] = process.argv.slice(2);
const build = path.join(root, "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs");
const { loadMicroPython } = await import(pathToFileURL(build).href);
const mp = await loadMicroPython({
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
mp.FS.mkdir("/engine");
for (const name of fs.readdirSync(path.join(root, "engine")).sort()) {
  if (name.endsWith(".py")) mp.FS.writeFile(`/engine/${name}`, fs.readFileSync(path.join(root, "engine", name)));
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/')\n" + code);
} catch (error) {
  process.stderr.write(String(error && error.message || error) + "\n");
  process.exit(1);
}
