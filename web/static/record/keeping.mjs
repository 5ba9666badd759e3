// What the recorder keeps on the phone until the server has it, and how it compares entries.

// The phone's keeping of game `id`: the entries waiting (each an event and the number of the server's events
// it was made after), and, for a reload offline, the log as the server last had it and the game's players.
export function keeping(id) {
  const queueKey = `almanac-record:${id}`;
  const queue = () => JSON.parse(localStorage.getItem(queueKey) || '[]')
    .map((x) => (x && x.event ? x : { event: x, after: null }));
  const keep = (q) => localStorage.setItem(queueKey, JSON.stringify(q));
  return { queue, keep, logKey: `almanac-record-log:${id}`, summaryKey: `almanac-record-summary:${id}` };
}

// What else the phone keeps for a reload offline; a full storage keeps the page working online.
export const remember = (key, text) => { try { localStorage.setItem(key, text); } catch (_) { localStorage.removeItem(key); } };
export const lineCount = (text) => text.split('\n').filter((l) => l.trim() !== '').length;
// One event, whatever the order of its fields and whenever it was made.
export const canonical = (v) => JSON.stringify(v, (k, x) => (x && typeof x === 'object' && !Array.isArray(x)
  ? Object.fromEntries(Object.keys(x).filter((f) => f !== 'time').sort().map((f) => [f, x[f]])) : x));
