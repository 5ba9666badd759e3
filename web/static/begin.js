// Begin a game at the table: the game and how it begins (a board from the rulebook, or one drawn from a
// seed), the players in seat order (names completed from the players the club has met), the title, date
// and place. The server writes the header (POST /api/tables) and the recorder opens on the new game.
document.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('start');
  if (!root) return;
  const games = JSON.parse(document.getElementById('recordable').textContent);
  const form = document.getElementById('begin');
  const ruleset = document.getElementById('ruleset');
  const beginning = document.getElementById('beginning');
  const seeded = document.getElementById('seeded');
  const seed = document.getElementById('seed');
  const seats = document.getElementById('seats');
  const known = document.getElementById('known-players');
  const problem = document.getElementById('problem');
  const date = document.getElementById('date');

  const game = () => games.find((g) => g.ruleset === ruleset.value);
  const chosen = () => game().beginnings.find((b) => b.id === beginning.value);
  // A seed the table has not seen: any whole number will do, the same one gives the same board.
  const newSeed = () => { seed.value = Math.floor(Math.random() * 1e9); };

  // The table's own board: what lies where (place -> kind -> piece), on the layout for this many players.
  const laying = document.getElementById('laying');
  const boardSvg = document.getElementById('laying-board');
  const kindsBar = document.getElementById('piece-kinds');
  const piecesBar = document.getElementById('pieces');
  const left = document.getElementById('laying-left');
  const SVG = 'http://www.w3.org/2000/svg';
  // Board units to pixels: a harbour place (1.5 units across) as large as a fingertip.
  const UNIT = 31;
  let layout = null;
  let laid = {};
  let kindId = null;
  let pieceId = null;

  const layoutFor = () => {
    const b = chosen();
    const n = seats.querySelectorAll('input.seat').length;
    return (b.layouts || []).find((l) => n >= l.seats[0] && n <= l.seats[1])
      || (b.layouts || []).find((l) => n < l.seats[0]) || null;
  };
  const kindOf = (id) => layout.kinds.find((k) => k.id === id);
  const used = (kind, piece) => Object.values(laid).filter((p) => p[kind] === piece).length;

  function showBoard() {
    const next = layoutFor();
    laying.hidden = !next;
    if (next !== layout) { laid = {}; kindId = next ? next.kinds[0].id : null; pieceId = null; }
    layout = next;
    if (!layout) return;
    drawPalette();
    drawPlaces();
  }

  function drawPalette() {
    kindsBar.replaceChildren(...layout.kinds.map((k) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice piece-kind';
      b.dataset.kind = k.id;
      b.textContent = k.words;
      b.setAttribute('aria-pressed', String(k.id === kindId));
      b.addEventListener('click', () => { kindId = k.id; pieceId = null; drawPalette(); });
      return b;
    }));
    piecesBar.replaceChildren(...kindOf(kindId).pieces.map((p) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice piece';
      b.dataset.kind = kindId;
      b.dataset.piece = p.id;
      const n = p.count - used(kindId, p.id);
      if (n < 0) b.classList.add('over');
      if (p.colour) {
        const swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = p.colour;
        b.append(swatch);
      }
      b.append(`${p.words} · ${n} left`);
      b.setAttribute('aria-pressed', String(p.id === pieceId));
      b.addEventListener('click', () => { pieceId = p.id; drawPalette(); });
      return b;
    }));
    // A place is still to lay while it has no piece of the first kind lying there.
    const empty = layout.places.filter((pl) => {
      const first = layout.kinds.find((k) => k.on === pl.kind);
      return first && !(laid[pl.id] || {})[first.id];
    }).length;
    left.textContent = empty ? `${empty} places still to lay` : 'Every place has its piece: check the tokens and harbours, then begin.';
  }

  function drawPlaces() {
    const xs = layout.places.flatMap((p) => p.outline.map((c) => c[0]));
    const ys = layout.places.flatMap((p) => p.outline.map((c) => c[1]));
    const [x0, y0] = [Math.min(...xs) - 0.1, Math.min(...ys) - 0.1];
    const [w, h] = [Math.max(...xs) + 0.1 - x0, Math.max(...ys) + 0.1 - y0];
    boardSvg.setAttribute('viewBox', `${x0} ${y0} ${w} ${h}`);
    boardSvg.setAttribute('width', String(Math.round(w * UNIT)));
    boardSvg.setAttribute('height', String(Math.round(h * UNIT)));
    boardSvg.replaceChildren(...layout.places.map((pl) => {
      const g = document.createElementNS(SVG, 'g');
      g.setAttribute('class', 'place');
      g.setAttribute('role', 'button');
      g.setAttribute('tabindex', '0');
      g.dataset.place = pl.id;
      const here = laid[pl.id] || {};
      const kinds = layout.kinds.filter((k) => k.on === pl.kind);
      const fill = kinds.filter((k) => k.fills).map((k) => k.pieces.find((p) => p.id === here[k.id])).find((p) => p);
      const shape = document.createElementNS(SVG, 'polygon');
      shape.setAttribute('points', pl.outline.map((c) => c.join(',')).join(' '));
      shape.setAttribute('fill', fill ? fill.colour : (kinds.some((k) => k.fills) ? '#ffffff' : '#e3f0fb'));
      shape.setAttribute('stroke', '#4a4a4a');
      shape.setAttribute('stroke-width', '0.04');
      g.append(shape);
      const written = kinds.filter((k) => !k.fills).map((k) => k.pieces.find((p) => p.id === here[k.id])).filter((p) => p);
      const cx = pl.outline.reduce((s, c) => s + c[0], 0) / pl.outline.length;
      const cy = pl.outline.reduce((s, c) => s + c[1], 0) / pl.outline.length;
      // What is written on the place, a word to a line.
      const rows = written.flatMap((p) => p.short.split(' ').map((word) => [word, p.colour || '#1a1a1a']));
      const size = rows.length > 1 ? 0.3 : 0.42;
      rows.forEach(([word, colour], i) => {
        const t = document.createElementNS(SVG, 'text');
        t.setAttribute('x', String(cx));
        t.setAttribute('y', String(cy + (i - (rows.length - 1) / 2) * size * 1.1));
        t.setAttribute('text-anchor', 'middle');
        t.setAttribute('dominant-baseline', 'central');
        t.setAttribute('font-size', String(size));
        t.setAttribute('font-weight', 'bold');
        t.setAttribute('fill', colour);
        t.textContent = word;
        g.append(t);
      });
      const said = kinds.map((k) => (k.pieces.find((p) => p.id === here[k.id]) || {}).words).filter((w) => w);
      g.setAttribute('aria-label', `${pl.words}: ${said.length ? said.join(', ') : 'nothing yet'}`);
      const lay = () => layPiece(pl);
      g.addEventListener('click', lay);
      g.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); lay(); } });
      return g;
    }));
  }

  function layPiece(place) {
    const kind = kindOf(kindId);
    if (kind.on !== place.kind) {
      // A place of another kind: the palette turns to the pieces that lie there.
      const there = layout.kinds.find((k) => k.on === place.kind);
      if (!there) return;
      kindId = there.id;
      pieceId = null;
      drawPalette();
      left.textContent = `Choose the ${there.words.toLowerCase()} for ${place.words}.`;
      return;
    }
    if (!pieceId) { left.textContent = `Choose a ${kind.words.toLowerCase()} first.`; return; }
    const here = laid[place.id] || (laid[place.id] = {});
    if (here[kindId] === pieceId) delete here[kindId]; else here[kindId] = pieceId;
    drawPalette();
    drawPlaces();
    boardSvg.querySelector(`[data-place="${CSS.escape(place.id)}"]`)?.focus();
  }

  function addSeat(name) {
    const li = document.createElement('li');
    const input = document.createElement('input');
    input.type = 'text';
    input.setAttribute('list', 'known-players');
    input.setAttribute('aria-label', `Seat ${seats.children.length + 1}`);
    input.className = 'seat';
    input.value = name || '';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'cancel';
    remove.textContent = 'Remove';
    remove.setAttribute('aria-label', `Remove seat ${seats.children.length + 1}`);
    remove.addEventListener('click', () => { li.remove(); showBoard(); });
    li.append(input, remove);
    seats.append(li);
    if (layout || chosen().layouts?.length) showBoard();
    return input;
  }

  async function showGame() {
    beginning.replaceChildren(...game().beginnings.map((b) => {
      const o = document.createElement('option');
      o.value = b.id;
      o.textContent = `${b.words} (${b.seats[0]}–${b.seats[1]} players)`;
      return o;
    }));
    showBeginning();
    // The club's own players, to complete a seat's name: those of its games of this game first (most often
    // seated first), then those of its other games.
    known.replaceChildren();
    const clubPlayers = JSON.parse(document.getElementById('club-players').textContent);
    const names = [...(clubPlayers[ruleset.value] || []),
      ...Object.entries(clubPlayers).filter(([r]) => r !== ruleset.value).flatMap(([, n]) => n)];
    for (const name of new Set(names)) {
      const o = document.createElement('option');
      o.value = name;
      known.append(o);
    }
  }

  function showBeginning() {
    const b = chosen();
    seeded.hidden = !b.seeded;
    if (b.seeded && seed.value === '') newSeed();
    while (seats.children.length < b.seats[0]) addSeat();
    showBoard();
  }

  ruleset.addEventListener('change', showGame);
  beginning.addEventListener('change', showBeginning);
  document.getElementById('reseed').addEventListener('click', newSeed);
  document.getElementById('add-seat').addEventListener('click', () => addSeat().focus());
  date.value = new Date().toISOString().slice(0, 10);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    problem.hidden = true;
    const start = {
      ruleset: ruleset.value,
      beginning: beginning.value,
      seed: chosen().seeded ? Number(seed.value) : 0,
      players: [...seats.querySelectorAll('input.seat')].map((i) => i.value.trim()).filter((n) => n !== ''),
      title: document.getElementById('title').value,
      date: date.value,
      location: document.getElementById('location').value,
    };
    if (layout) start.laid = laid;
    const r = await fetch('/api/tables', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(start),
    }).catch(() => null);
    const body = r ? await r.json().catch(() => ({})) : {};
    if (!r || !r.ok) {
      // The first line says what is wrong; each line after it is one mistake.
      const [said, ...mistakes] = (body.error || 'The server does not answer: try again in a moment.').split('\n');
      const p = document.createElement('p');
      p.textContent = said;
      problem.replaceChildren(p);
      if (mistakes.length) {
        const ul = document.createElement('ul');
        ul.replaceChildren(...mistakes.map((m) => { const li = document.createElement('li'); li.textContent = m; return li; }));
        problem.append(ul);
      }
      problem.hidden = false;
      problem.scrollIntoView({ block: 'center' });
      return;
    }
    location.href = `/games/${encodeURIComponent(body.id)}/record`;
  });

  showGame();
  root.dataset.ready = 'yes';
});
