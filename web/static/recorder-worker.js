// The table recorder's service worker: a recorder page reloaded while the network (or the server) is away
// still opens, from the copy kept here. Network first: online, the page and its scripts always come fresh
// from the server, and the copy is renewed. Only the recorder's pages and the static files are kept; the
// game itself (its log and the entries waiting) is kept by the page (record.mjs).
const CACHE = 'almanac-recorder-1';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('fetch', (e) => {
  const request = e.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const kept = (request.mode === 'navigate' && url.pathname.endsWith('/record')) || url.pathname.startsWith('/static/');
  if (!kept) return;
  e.respondWith((async () => {
    try {
      const answer = await fetch(request);
      if (answer.ok) {
        const copy = answer.clone();
        caches.open(CACHE).then((c) => c.put(request, copy));
      }
      return answer;
    } catch (err) {
      const copy = await caches.match(request, { ignoreVary: true });
      if (copy) return copy;
      throw err;
    }
  })());
});
