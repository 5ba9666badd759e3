// The signed-in page's sign-out form. Signing out clears what this device kept of the club's games (the
// recorder's waiting entries, its copy of a private game's log and summary, the recorder's page and files
// kept for a reload offline), by the page itself: the server's Clear-Site-Data header does the same, but
// browsers heed it only on HTTPS and localhost, and a club's laptop serves phones over plain HTTP on its LAN.
// Not while an entry still waits for the server: it would be lost.
(function () {
  'use strict';
  const KEPT = 'almanac-record';
  const keys = () => Object.keys(localStorage).filter((k) => k.startsWith(KEPT));
  const waiting = () => keys()
    .filter((k) => k.startsWith(`${KEPT}:`))
    .reduce((n, k) => n + (JSON.parse(localStorage.getItem(k) || '[]').length || 0), 0);

  async function forget() {
    for (const k of keys()) localStorage.removeItem(k);
    sessionStorage.clear();
    if (window.caches) {
      for (const name of await caches.keys()) await caches.delete(name);
    }
    if (navigator.serviceWorker) {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    }
  }

  for (const form of document.querySelectorAll('form[action="/signout"]')) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const n = waiting();
      if (n > 0) {
        const said = `${n} ${n === 1 ? 'entry still waits' : 'entries still wait'} for the server: sign out once ${n === 1 ? 'it is' : 'they are'} sent.`;
        // The recorder's line for problems, where the page has one.
        const problem = document.getElementById('problem');
        if (problem) {
          problem.textContent = said;
          problem.hidden = false;
        } else {
          window.alert(said);
        }
        return;
      }
      // Sent whatever the clearing met: the session ends either way.
      forget().catch(() => {}).finally(() => form.submit());
    });
  }
})();
