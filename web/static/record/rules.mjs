// The games' rules compiled for the browser (`/static/rules.wasm`, crates/browser-rules), as the recorder
// calls them: each function takes text and answers `{ok: …}` or `{error: "…"}` (the module's interface).
export async function loadRules() {
  const r = await fetch('/static/rules.wasm');
  if (!r.ok) throw new Error(`no rules (${r.status})`);
  const { instance } = await WebAssembly.instantiate(await r.arrayBuffer(), {});
  const x = instance.exports;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const call = (f, arg) => {
    let packed;
    if (typeof arg === 'string') {
      const bytes = encoder.encode(arg);
      const at = x.alloc(bytes.length);
      new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
      packed = f(at, bytes.length);
    } else {
      packed = arg === undefined ? f() : f(arg);
    }
    const at = Number(packed >> 32n);
    const len = Number(packed & 0xffffffffn);
    const answer = JSON.parse(decoder.decode(new Uint8Array(x.memory.buffer, at, len)));
    x.free(at, len);
    return answer;
  };
  return {
    open: (log) => call(x.open, log),
    push: (line) => call(x.push, line),
    next: () => call(x.next),
    state: () => call(x.state),
    events: (from) => call(x.events, from),
    lay: (line, set) => call(x.lay, JSON.stringify([line, set])),
  };
}
