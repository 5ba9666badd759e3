// The end of a game on the recorder's own page: the standings with the points by reason, the win chances
// where the game's ruleset has a model, and publishing and sharing the replay. What the recorder
// shares with it: its element (`root`), the game's id and API path, its JSON fetch, the colours
// (`ctx`), how it says a problem and an event type in words. Returns `showFinish`, which shows the end once
// the game has a winner (and hides it again when an entry withdrawn takes the win back).
export function finishing({ root, id, path, json, ctx, say, words }) {
  const finish = document.getElementById('finish');
  let finishShown = false;
  async function showFinish() {
    const summary = await json(path);
    if (summary.status !== 200 || !summary.body.winner) {
      finish.hidden = true;
      finishShown = false;
      return;
    }
    if (finishShown) return;
    finishShown = true;
    const [stats, chances] = await Promise.all([json(`${path}/stats`), json(`${path}/chances`)]);
    const reasons = Object.fromEntries(((stats.body && stats.body.players) || []).map((p) => [p.name, p.vp_by_reason || {}]));
    const standings = document.getElementById('standings');
    const players = [...summary.body.players].sort((a, b) => b.vp - a.vp || a.seat - b.seat);
    standings.replaceChildren(...players.map((p) => {
      const li = document.createElement('li');
      const name = document.createElement('b');
      name.textContent = p.name;
      name.style.color = ctx.inkOf(p.name);
      li.append(name, ` ${p.vp} ${p.vp === 1 ? 'point' : 'points'}`, p.name === summary.body.winner ? ' · wins' : '');
      const by = Object.entries(reasons[p.name] || {}).filter(([, n]) => n);
      if (by.length) {
        const small = document.createElement('span');
        small.className = 'reasons';
        small.textContent = by.map(([reason, n]) => `${words(reason)} ${n}`).join(', ');
        li.append(document.createElement('br'), small);
      }
      return li;
    }));
    const chance = document.getElementById('finish-chances');
    chance.replaceChildren();
    if (chances.status === 200 && chances.body.by_event) drawChances(chance, chances.body, players);
    else chance.textContent = 'No win-chance curve: this server has no model for this game yet.';
    showShare(root.dataset.published === 'yes');
    finish.hidden = false;
    finish.scrollIntoView({ block: 'start' });
  }

  // Each seat's chance to win after each entry, one line per player in their colour, with what the model
  // learnt from.
  function drawChances(into, chances, players) {
    const rows = chances.by_event;
    const w = 320;
    const h = 120;
    const svg = Almanac.svg('svg', { viewBox: `0 0 ${w} ${h}`, class: 'chances', role: 'img',
      'aria-label': 'Each player\'s chance to win, entry by entry' }, into);
    const names = summaryNames(players);
    for (let seat = 0; seat < names.length; seat += 1) {
      // The set-up's positions have no chance (`withheld`): the lines begin after it.
      const points = rows.map((row, i) => (row ? `${(i / Math.max(1, rows.length - 1)) * w},${h - (row[seat] || 0) * h}` : null))
        .filter((p) => p !== null).join(' ');
      Almanac.svg('polyline', { points, fill: 'none', stroke: ctx.colorOf(names[seat]), 'stroke-width': 2 }, svg);
    }
    const caption = document.createElement('p');
    caption.className = 'caption';
    caption.textContent = (chances.model && chances.model.learnt_from
      ? `Win chances by a model ${chances.model.learnt_from}.` : 'Win chances, entry by entry.') +
      (chances.withheld ? ` ${chances.withheld.why}` : '');
    into.append(caption);
  }

  const summaryNames = (players) => [...players].sort((a, b) => a.seat - b.seat).map((p) => p.name);

  // Publishing (a private game is the club's alone) and the link to the replay, to share.
  function showShare(published) {
    const link = document.getElementById('share-link');
    const form = document.getElementById('publish');
    const state = document.getElementById('share-state');
    link.href = `/games/${encodeURIComponent(id)}`;
    link.textContent = new URL(link.href, location.href).href;
    form.hidden = published;
    document.getElementById('share').hidden = !published || !navigator.share;
    state.textContent = published
      ? 'Published: anyone with the link sees the replay.'
      : 'Private to your club: publish it, and anyone with the link sees the replay.';
  }

  document.getElementById('publish').addEventListener('submit', async (e) => {
    e.preventDefault();
    const form = e.target;
    const r = await fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)), redirect: 'manual' })
      .catch(() => null);
    // The form answers with a redirect to the replay (opaque here); anything else is a problem page.
    if (r && (r.type === 'opaqueredirect' || r.ok)) {
      root.dataset.published = 'yes';
      showShare(true);
    } else {
      say('Not published: the server did not answer. Try again.');
    }
  });

  document.getElementById('share').addEventListener('click', () => {
    const link = document.getElementById('share-link');
    navigator.share({ title: document.title, url: link.href }).catch(() => {});
  });

  return showFinish;
}
