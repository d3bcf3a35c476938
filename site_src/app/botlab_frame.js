// The bot lab's sandbox: the script of the frame the bot lab page makes for the bot, an
// <iframe sandbox="allow-scripts"> (no allow-same-origin: its origin is opaque) whose srcdoc holds
// this script, allowed by its hash in the page's policy. It starts the runner (botlab_runner.js,
// whose text the page hands over with the files it needs) in a worker and relays messages both
// ways: the page's to the runner, the runner's to the page, which checks what it reads.
// Why JavaScript: the frame must run before any Python can, and needs nothing more.
"use strict";

let runner = null;

function buffers(value, found = []) {
  if (value instanceof ArrayBuffer) found.push(value);
  else if (value && typeof value === "object") for (const key of Object.keys(value)) buffers(value[key], found);
  return found;
}

addEventListener("message", ({source, data}) => {
  if (source !== parent || !data || typeof data !== "object") return;
  if (data.type === "boot" && runner === null && typeof data.runner === "string") {
    runner = new Worker(URL.createObjectURL(new Blob([data.runner], {type: "text/javascript"})));
    runner.onmessage = (event) => parent.postMessage(event.data, "*");
    runner.onerror = (event) => {
      event.preventDefault();
      parent.postMessage({type: "failed", error: String(event.message || "the runner failed")}, "*");
    };
    const boot = {type: "boot", index: data.index, pyodide: data.pyodide, files: data.files};
    runner.postMessage(boot, buffers(boot));
  } else if (data.type === "call" && runner !== null) {
    runner.postMessage({type: "call", id: data.id, name: data.name, request: data.request});
  }
});
parent.postMessage({type: "sandbox"}, "*");
