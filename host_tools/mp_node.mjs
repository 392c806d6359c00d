// Run a MicroPython script in the official WebAssembly port (npm) with the repository copied in.
// usage: node host_tools/mp_node.mjs HEAP_BYTES (SCRIPT.py | -c CODE) [ARG ...]
//
// Heap: the GC heap starts at HEAP_BYTES. This build never collects inside a call from
// JavaScript (it can't see the wasm stack); it grows the heap instead and collects when the
// call returns to the top level. So a script that wants a small heap runs in steps: it sets
// the global `_mp_steps` to an iterator, and each next() is one top-level call, with a
// collection after it. The heap's size is sampled at the end of every step, before that
// collection (so it counts the step's garbage too: more than a board with a working GC
// needs). This build collects at the top level only when asked (gc.collect(), a failed
// allocation, or 16 KB allocated since the last collection), so every step asks, else the
// garbage of small steps would pile up into the next. The last line printed is
// "mp_node: heap peak N bytes, live peak L bytes, in use peak U bytes" (U: the most in use at
// the end of a step, its garbage included: what a heap that never grows must hold).
// MP_NODE_TRACE=1 prints the sample number each time the heap grows, to find the step.
// Exit status: 0, 1 on an uncaught Python exception, or the SystemExit code.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [heapArg, script, ...args] = process.argv.slice(2);
const out = (t) => process.stdout.write(t + "\n");
const err = (t) => process.stderr.write(t + "\n");
const mp = await loadMicroPython({
  heapsize: parseInt(heapArg, 10), pystack: 4096, stdout: out, stderr: err, linebuffer: true,
});

// Copy the parts of the repository a board would hold, plus the tests and their data.
const KEEP = /\.(py|jsonl|json)$/;
function copy(rel) {
  const src = path.join(root, rel);
  const st = fs.statSync(src);
  if (st.isDirectory()) {
    if (rel !== "." && rel !== "") mp.FS.mkdirTree("/" + rel);
    for (const name of fs.readdirSync(src)) {
      if (name.startsWith(".") || name === "__pycache__" || name === "node_modules") continue;
      copy(path.join(rel, name));
    }
  } else if (KEEP.test(rel)) {
    mp.FS.writeFile("/" + rel, fs.readFileSync(src));
  }
}
for (const dir of ["firmware", "tests", "host_tools", "boards"]) {
  if (fs.existsSync(path.join(root, dir))) copy(dir);
}
// MP_NODE_MPY=DIR: a tree of .mpy files (mpy-cross output) replacing the sources, as on a board.
const mpyDir = process.env.MP_NODE_MPY;
function copyMpy(dir, rel) {
  for (const name of fs.readdirSync(path.join(dir, rel))) {
    const r = path.join(rel, name);
    if (fs.statSync(path.join(dir, r)).isDirectory()) copyMpy(dir, r);
    else if (name.endsWith(".mpy")) {
      try { mp.FS.unlink("/" + r.replace(/\.mpy$/, ".py")); } catch (e) { /* no source */ }
      mp.FS.writeFile("/" + r, fs.readFileSync(path.join(dir, r)));
    }
  }
}
if (mpyDir) copyMpy(mpyDir, "");
mp.FS.chdir("/");

// This build has no sys.argv and won't take one: scripts read /mp_argv.py (see tests/mp_argv.py).
mp.FS.writeFile("/mp_argv.py", "ARGV = " + JSON.stringify([script, ...args.slice(script === "-c" ? 1 : 0)]) + "\n");
const BOOT = `
import gc, sys
sys.path[:0] = ['', '/', '/firmware/lib']
# [split heap allowance (gc.mem_free() counts the largest heap it may still add), trace, samples,
#  heap peak, live peak, in use peak]: few names, as the app's budget counts this too
_mp = [128 * 1024 * 1024, ${process.env.MP_NODE_TRACE ? "True" : "False"}, 0, 0, 0, 0]
def _mp_sample(live=False):
    a = gc.mem_alloc()
    t = a + gc.mem_free() - _mp[0]
    _mp[2] += 1
    if t > _mp[3]:
        _mp[3] = t
        if _mp[1]:
            print('mp_node: sample %d: heap grew to %d bytes' % (_mp[2], t))
    if live and a > _mp[4]:
        _mp[4] = a
    if a > _mp[5]:
        _mp[5] = a
def _mp_step():
    _mp_sample(True)
    it = _g.get('_mp_steps')
    if it is None:
        return False
    try:
        next(it)
    except StopIteration:
        return False
    _mp_sample()
    gc.collect()  # only asks: the collection runs when this top-level call returns
    return True
`;
let code = 0;
try {
  mp.runPython(BOOT);
  // The main script runs from its source (its module file may have been replaced by .mpy).
  const src = script === "-c" ? args.shift() || "" : fs.readFileSync(path.join(root, script));
  mp.FS.writeFile("/mp_main.py", src);
  const file = script === "-c" ? "-c" : script;
  mp.runPython("_g = {'__name__': '__main__', '__file__': " + JSON.stringify(file) +
    ", '_mp_stepper': True}\nexec(open('/mp_main.py').read(), _g)\n_mp_sample()\ngc.collect()");
  // One step per top-level call; the collection runs as each call returns.
  do { mp.runPython("_mp_more = _mp_step()"); } while (mp.globals.get("_mp_more"));
} catch (e) {
  const msg = String(e.message || e);
  const m = msg.match(/SystemExit: (\d+)\s*$/);
  if (m) code = parseInt(m[1], 10);
  else { err(msg); code = 1; }
}
mp.runPython("_mp_sample(True)\nprint('mp_node: heap peak %d bytes, live peak %d bytes, in use peak %d bytes' % tuple(_mp[3:]))");
process.exitCode = code;
