// The replay: the board drawn from the header and the state after each event, the event list in sync,
// keyboard stepping, a turn slider, deep links (?turn=N or ?seq=N) and charts whose turns are clickable.
// Every name from an upload is written with textContent or as an SVG text node, never as markup.
(() => {
  const root = document.getElementById('replay');
  if (!root) return;
  const id = root.dataset.game;
  const carcassonne = root.dataset.ruleset === 'carcassonne';
  const NS = 'http://www.w3.org/2000/svg';
  const board = document.getElementById('board');
  const list = document.getElementById('events');
  const slider = document.getElementById('turn-slider');
  const turnLabel = document.getElementById('turn-label');
  const position = document.getElementById('position');
  const playersBox = document.getElementById('players');
  const api = (path) =>
    fetch(`/api/games/${encodeURIComponent(id)}${path}`).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));

  let header = null;
  let events = [];
  let seq = 0;
  const states = new Map();
  let dynamic = null;

  // --- board geometry: pointy-top hexes in axial coordinates, circumradius 1 (docs/formats/catan.md)
  const SQ3 = Math.sqrt(3);
  const CORNERS = ['N', 'NE', 'SE', 'S', 'SW', 'NW'];
  const SIDES = ['NE', 'E', 'SE', 'SW', 'W', 'NW'];
  const centre = ([q, r]) => [SQ3 * (q + r / 2), 1.5 * r];
  const corner = (hex, i) => {
    const [x, y] = centre(hex.at);
    const a = (Math.PI / 180) * (-90 + 60 * i);
    return [x + Math.cos(a), y + Math.sin(a)];
  };
  const hexes = () => header.board.hexes;
  const vertexXY = (name) => {
    const [h, c] = name.split(':');
    return corner(hexes()[+h], CORNERS.indexOf(c));
  };
  const edgeXY = (name) => {
    const [h, s] = name.split(':');
    const i = SIDES.indexOf(s);
    return [corner(hexes()[+h], i), corner(hexes()[+h], (i + 1) % 6)];
  };
  const TERRAIN = { forest: '#3f8f3f', hills: '#c8643b', pasture: '#a5d46a', fields: '#f2cf4a', mountains: '#9aa5b1', desert: '#e9dbb0' };
  const COLORS = { red: '#d62728', blue: '#1f5fbf', white: '#f4f4f4', orange: '#ff8c00', green: '#2ca02c', brown: '#8c564b' };
  const PALETTE = ['#4477aa', '#ee6677', '#228833', '#ccbb44', '#66ccee', '#aa3377'];
  const colorOf = (name) => {
    const i = header.players.findIndex((p) => p.name === name);
    const c = i >= 0 ? (header.players[i].color || '').toLowerCase() : '';
    return COLORS[c] || PALETTE[Math.max(i, 0) % PALETTE.length];
  };

  // For text on white: a white player's name is written in grey.
  const inkOf = (name) => (colorOf(name) === COLORS.white ? '#777' : colorOf(name));

  const svg = (tag, attrs, parent) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (parent) parent.appendChild(e);
    return e;
  };
  const text = (parent, x, y, content, attrs = {}) => {
    const t = svg('text', { x, y, 'text-anchor': 'middle', 'dominant-baseline': 'central', ...attrs }, parent);
    t.textContent = content;
    return t;
  };

  function drawStatic(finalState) {
    board.replaceChildren();
    if (carcassonne) {
      // The grid grows; frame it by the tiles of the final state so the view never jumps.
      const xs = finalState.tiles.map((t) => t.at[0]), ys = finalState.tiles.map((t) => t.at[1]);
      const minX = Math.min(...xs) - 0.3, minY = Math.min(...ys) - 0.3;
      board.setAttribute('viewBox', `${minX} ${minY} ${Math.max(...xs) + 1.6 - minX} ${Math.max(...ys) + 1.6 - minY}`);
      board.parentElement.classList.add('grid');
      dynamic = svg('g', { class: 'pieces' }, board);
      return;
    }
    const xs = [], ys = [];
    const tiles = svg('g', { class: 'tiles' }, board);
    hexes().forEach((h, i) => {
      const pts = [0, 1, 2, 3, 4, 5].map((k) => corner(h, k));
      pts.forEach(([x, y]) => { xs.push(x); ys.push(y); });
      svg('polygon', { points: pts.map((p) => p.join(',')).join(' '), fill: TERRAIN[h.terrain] || '#ccc', stroke: '#6b5b3e', 'stroke-width': 0.04, 'data-hex': i }, tiles);
      const [x, y] = centre(h.at);
      if (h.number) {
        svg('circle', { cx: x, cy: y, r: 0.32, fill: '#fbf3dc', stroke: '#6b5b3e', 'stroke-width': 0.02 }, tiles);
        text(tiles, x, y, String(h.number), { 'font-size': 0.3, 'font-weight': 'bold', fill: h.number === 6 || h.number === 8 ? '#c0392b' : '#222' });
      }
      text(tiles, x, y + 0.62, String(i), { 'font-size': 0.16, fill: '#0006' });
    });
    for (const hb of header.board.harbours || []) {
      const [[x1, y1], [x2, y2]] = edgeXY(hb.edge);
      const [h] = hb.edge.split(':');
      const [cx, cy] = centre(hexes()[+h].at);
      const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
      const px = mx + (mx - cx) * 0.45, py = my + (my - cy) * 0.45;
      svg('line', { x1, y1, x2: px, y2: py, stroke: '#6b5b3e', 'stroke-width': 0.05 }, board);
      svg('line', { x1: x2, y1: y2, x2: px, y2: py, stroke: '#6b5b3e', 'stroke-width': 0.05 }, board);
      svg('circle', { cx: px, cy: py, r: 0.3, fill: '#fff', stroke: '#1f5fbf', 'stroke-width': 0.03 }, board);
      text(board, px, py - 0.07, hb.ratio === 3 ? '3:1' : '2:1', { 'font-size': 0.17 });
      if (hb.resource) text(board, px, py + 0.11, hb.resource, { 'font-size': 0.12 });
      xs.push(px); ys.push(py);
    }
    const pad = 0.5;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    board.setAttribute('viewBox', `${minX} ${minY} ${Math.max(...xs) + pad - minX} ${Math.max(...ys) + pad - minY}`);
    dynamic = svg('g', { class: 'pieces' }, board);
  }

  // --- Carcassonne: a schematic of each tile (fields green, cities tan, roads white, monasteries red)
  const SIDE = { N: [[0, 0], [1, 0]], E: [[1, 0], [1, 1]], S: [[1, 1], [0, 1]], W: [[0, 1], [0, 0]] };
  const HALF = { NL: [0.25, 0.1], NR: [0.75, 0.1], EL: [0.9, 0.25], ER: [0.9, 0.75], SL: [0.75, 0.9], SR: [0.25, 0.9], WL: [0.1, 0.75], WR: [0.1, 0.25] };
  const sidesOf = (loc) => (loc.startsWith('_') ? ['N', 'E', 'S', 'W'].filter((x) => x !== loc[1]) : loc.split('').filter((c) => SIDE[c]));
  const spotOf = (x, y, f) => {
    if (f.location === 'I') return [x + 0.5, y + 0.5];
    if (f.kind === 'field') {
      const pts = f.location.split('.').map((h) => HALF[h]);
      return [x + pts.reduce((a, p) => a + p[0], 0) / pts.length, y + pts.reduce((a, p) => a + p[1], 0) / pts.length];
    }
    const mids = sidesOf(f.location).map((c) => [(SIDE[c][0][0] + SIDE[c][1][0]) / 2, (SIDE[c][0][1] + SIDE[c][1][1]) / 2]);
    const mx = mids.reduce((a, p) => a + p[0], 0) / mids.length, my = mids.reduce((a, p) => a + p[1], 0) / mids.length;
    return [x + 0.5 + (mx - 0.5) * 0.6, y + 0.5 + (my - 0.5) * 0.6];
  };
  function drawTiles(state) {
    dynamic.replaceChildren();
    for (const t of state.tiles) {
      const [x, y] = t.at;
      const g = svg('g', { class: 'tile', 'data-at': `${x},${y}` }, dynamic);
      svg('rect', { x, y, width: 1, height: 1, fill: '#8bc34a', stroke: '#5d7d35', 'stroke-width': 0.02 }, g);
      for (const f of t.features.filter((f) => f.kind === 'city')) {
        const sides = sidesOf(f.location);
        for (const c of sides) {
          const [[ax, ay], [bx, by]] = SIDE[c];
          const depth = sides.length === 1 ? 0.3 : 0.5;
          const mx = (ax + bx) / 2, my = (ay + by) / 2;
          const ix = mx + (0.5 - mx) * (depth / 0.5), iy = my + (0.5 - my) * (depth / 0.5);
          svg('polygon', { points: `${x + ax},${y + ay} ${x + bx},${y + by} ${x + ix},${y + iy}`, fill: '#c9a86a', stroke: '#8d6e3f', 'stroke-width': 0.015 }, g);
        }
        const [px, py] = spotOf(x, y, f);
        if (f.pennant) svg('rect', { x: px - 0.06, y: py - 0.2, width: 0.12, height: 0.1, fill: '#1f5fbf' }, g);
        if (f.good) text(g, px, py + 0.18, f.good, { 'font-size': 0.1, fill: '#5a2d0c' });
      }
      for (const f of t.features.filter((f) => f.kind === 'road')) {
        for (const c of sidesOf(f.location)) {
          const [[ax, ay], [bx, by]] = SIDE[c];
          svg('line', { x1: x + (ax + bx) / 2, y1: y + (ay + by) / 2, x2: x + 0.5, y2: y + 0.5, stroke: '#f5f5f5', 'stroke-width': 0.08, 'stroke-linecap': 'round' }, g);
        }
      }
      if (t.features.some((f) => f.kind === 'monastery')) {
        svg('rect', { x: x + 0.38, y: y + 0.38, width: 0.24, height: 0.24, fill: '#c0392b', stroke: '#6e1f17', 'stroke-width': 0.02 }, g);
      }
    }
    for (const f of state.figures || []) {
      const [x, y] = f.at;
      const [px, py] = spotOf(x, y, { kind: f.feature, location: f.location });
      const fill = colorOf(f.player);
      let shape;
      if (f.figure === 'builder') shape = svg('rect', { x: px - 0.08, y: py - 0.08, width: 0.16, height: 0.16, fill, stroke: '#111', 'stroke-width': 0.02 }, dynamic);
      else if (f.figure === 'pig') shape = svg('ellipse', { cx: px, cy: py, rx: 0.11, ry: 0.07, fill, stroke: '#111', 'stroke-width': 0.02 }, dynamic);
      else shape = svg('circle', { cx: px, cy: py, r: 0.09, fill, stroke: '#111', 'stroke-width': 0.02 }, dynamic);
      shape.setAttribute('class', 'figure');
      svg('title', {}, shape).textContent = `${f.player}'s ${f.figure} (${f.feature})`;
    }
  }

  function drawPieces(state) {
    if (carcassonne) return drawTiles(state);
    dynamic.replaceChildren();
    for (const r of state.roads || []) {
      const [[x1, y1], [x2, y2]] = edgeXY(r.at);
      const sx = x1 + (x2 - x1) * 0.12, sy = y1 + (y2 - y1) * 0.12, ex = x2 - (x2 - x1) * 0.12, ey = y2 - (y2 - y1) * 0.12;
      svg('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: '#222', 'stroke-width': 0.17, 'stroke-linecap': 'round' }, dynamic);
      svg('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: colorOf(r.owner), 'stroke-width': 0.11, 'stroke-linecap': 'round', class: 'road', 'data-at': r.at }, dynamic);
    }
    for (const b of state.buildings || []) {
      const [x, y] = vertexXY(b.at);
      const s = b.kind === 'city' ? 0.2 : 0.14;
      const shape = b.kind === 'city'
        ? `${x - s},${y + s} ${x - s},${y - s * 0.2} ${x - s * 0.2},${y - s * 0.2} ${x - s * 0.2},${y - s} ${x + s * 0.4},${y - s * 1.4} ${x + s},${y - s} ${x + s},${y + s}`
        : `${x - s},${y + s} ${x - s},${y - s * 0.3} ${x},${y - s * 1.2} ${x + s},${y - s * 0.3} ${x + s},${y + s}`;
      const p = svg('polygon', { points: shape, fill: colorOf(b.owner), stroke: '#222', 'stroke-width': 0.035, class: b.kind, 'data-at': b.at }, dynamic);
      svg('title', {}, p).textContent = `${b.owner}'s ${b.kind} at ${b.at}`;
    }
    const robber = hexes()[state.robber];
    if (robber) {
      const [x, y] = centre(robber.at);
      svg('ellipse', { cx: x + 0.45, cy: y - 0.1, rx: 0.13, ry: 0.22, fill: '#333', stroke: '#000', 'stroke-width': 0.02, class: 'robber' }, dynamic);
      svg('circle', { cx: x + 0.45, cy: y - 0.36, r: 0.09, fill: '#333' }, dynamic);
    }
  }

  // --- events
  const describe = (e) => {
    const cards = (b) => Object.entries(b || {}).map(([k, n]) => `${n} ${k}`).join(', ');
    switch (e.type) {
      case 'roll': return `rolls ${e.dice[0] + e.dice[1]} (${e.dice.join('+')})`;
      case 'build_settlement': return `builds a settlement at ${e.at}`;
      case 'build_city': return `builds a city at ${e.at}`;
      case 'build_road': return `builds a road at ${e.at}`;
      case 'discard': return `discards ${cards(e.cards)}`;
      case 'move_robber': return `moves the robber to hex ${e.hex}` + (e.victim ? ` and steals ${e.stolen || 'nothing'} from ${e.victim}` : '');
      case 'trade': return `trades ${cards(e.give)} with ${e.with} for ${cards(e.get)}`;
      case 'maritime_trade': return `trades ${cards(e.give)} with the bank for ${cards(e.get)}`;
      case 'buy_development': return `buys a development card${e.card && e.card !== 'unknown' ? ` (${e.card})` : ''}`;
      case 'play_knight': return 'plays a knight';
      case 'play_road_building': return 'plays road building';
      case 'play_year_of_plenty': return `plays year of plenty: ${cards(e.take)}`;
      case 'play_monopoly': return `plays monopoly on ${e.resource}`;
      case 'reveal_victory_points': return 'reveals victory point cards';
      case 'end_turn': return 'ends the turn';
      case 'place_tile': return `places ${e.tile} at ${e.at.join(',')} turned ${e.rotation}°`;
      case 'discard_tile': return `discards ${e.tile} (it fits nowhere)`;
      case 'place_figure': return `puts a ${e.figure} on the ${e.feature} (${e.location})`;
      case 'end_game': return 'final scoring';
      case 'use_helper': return `uses ${e.helper}` + (e.swap ? ` and swaps it for ${e.swap}` : ', then turns it over');
      default: return e.type;
    }
  };

  function fillEvents() {
    const frag = document.createDocumentFragment();
    const start = document.createElement('li');
    start.dataset.seq = 0;
    start.textContent = 'Start of the game';
    frag.appendChild(start);
    for (const ev of events) {
      const li = document.createElement('li');
      li.dataset.seq = ev.seq;
      const turn = document.createElement('span');
      turn.className = 'turn';
      turn.textContent = `T${ev.turn}`;
      const who = document.createElement('b');
      who.textContent = ev.event.player || '';
      who.style.color = inkOf(ev.event.player);
      li.append(turn, ' ', who, ' ', describe(ev.event));
      if (ev.event.type === 'end_game') li.classList.add('final');
      frag.appendChild(li);
    }
    list.replaceChildren(frag);
  }

  // --- players panel
  // A player's card: colour, name and score; the caller adds the lines of its game.
  function playerCard(p, state, score) {
    const card = document.createElement('div');
    card.className = 'player' + (state.active === p.name && !state.winner ? ' active' : '') + (state.winner === p.name ? ' winner' : '');
    const head = document.createElement('div');
    head.className = 'head';
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = colorOf(p.name);
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = p.name;
    const vp = document.createElement('span');
    vp.className = 'vp';
    vp.textContent = score;
    head.append(swatch, name, vp);
    card.append(head);
    return card;
  }

  function fillCarcassonnePlayers(state) {
    const frag = document.createDocumentFragment();
    for (const p of state.players) {
      const card = playerCard(p, state, `${p.vp} points`);
      const figures = document.createElement('div');
      figures.className = 'hand';
      const goods = Object.entries(p.goods || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
      figures.textContent = `${p.followers_left} followers at home` + (p.builder_home === false ? ' · builder out' : '') + (p.pig_home === false ? ' · pig out' : '') + (goods.length ? ` · goods: ${goods.join(', ')}` : '');
      card.append(figures);
      frag.appendChild(card);
    }
    const left = document.createElement('div');
    left.className = 'bank';
    left.textContent = `${state.tiles_left} tiles left in the pack`;
    frag.appendChild(left);
    playersBox.replaceChildren(frag);
  }

  function fillPlayers(state) {
    if (carcassonne) return fillCarcassonnePlayers(state);
    const frag = document.createDocumentFragment();
    for (const p of state.players) {
      const card = playerCard(p, state, `${p.vp} VP` + (p.vp !== p.vp_public ? ` (${p.vp_public} public)` : ''));
      const hand = document.createElement('div');
      hand.className = 'hand';
      const parts = Object.entries(p.hand || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
      hand.textContent = `${p.cards_in_hand} cards` + (parts.length ? `: ${parts.join(', ')}` : '');
      const dev = document.createElement('div');
      dev.className = 'dev';
      const held = Object.entries(p.development?.held || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k.replaceAll('_', ' ')} ${n}`);
      const played = Object.entries(p.development?.played || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k.replaceAll('_', ' ')} ${n}`);
      dev.textContent = `development: ${held.length ? held.join(', ') : 'none'}` + (played.length ? ` · played: ${played.join(', ')}` : '');
      card.append(hand, dev);
      if (p.helper) {
        const helper = document.createElement('div');
        helper.className = 'dev';
        helper.textContent = `helper: ${p.helper.name} (${p.helper.side} side)`;
        card.append(helper);
      }
      if (p.awards && p.awards.length) {
        const awards = document.createElement('div');
        awards.className = 'awards';
        awards.textContent = p.awards.map((a) => a.replaceAll('_', ' ')).join(' · ');
        card.append(awards);
      }
      frag.appendChild(card);
    }
    const bank = document.createElement('div');
    bank.className = 'bank';
    bank.textContent = `bank: ${Object.entries(state.bank || {}).map(([k, n]) => `${k} ${n}`).join(', ')} · development deck ${state.development_deck} · robber on hex ${state.robber}`;
    frag.appendChild(bank);
    playersBox.replaceChildren(frag);
  }

  // --- navigation
  const turnAt = (s) => (s === 0 ? 0 : events[s - 1].turn);
  const lastTurn = () => (events.length ? events[events.length - 1].turn : 0);
  // The number of events up to the end of turn t.
  const seqOfTurn = (t) => {
    let lo = 0, hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (events[mid].turn <= t) lo = mid + 1; else hi = mid;
    }
    return lo;
  };

  async function stateAt(s) {
    if (!states.has(s)) states.set(s, api(`/state?seq=${s}`));
    return states.get(s);
  }

  async function go(s, push = true) {
    s = Math.max(0, Math.min(events.length, s));
    seq = s;
    const turn = turnAt(s);
    position.textContent = `event ${s} of ${events.length} · turn ${turn}`;
    position.dataset.seq = s;
    position.dataset.turn = turn;
    slider.value = turn;
    turnLabel.textContent = turn;
    for (const li of list.querySelectorAll('li.current')) li.classList.remove('current');
    const li = list.querySelector(`li[data-seq="${s}"]`);
    if (li) {
      li.classList.add('current');
      li.scrollIntoView({ block: 'nearest' });
    }
    for (const r of document.querySelectorAll('.turn-target.current')) r.classList.remove('current');
    for (const r of document.querySelectorAll(`.turn-target[data-turn="${turn}"]`)) r.classList.add('current');
    if (push) {
      const url = new URL(location.href);
      url.searchParams.delete('seq');
      url.searchParams.delete('turn');
      if (s === seqOfTurn(turn) && s > 0) url.searchParams.set('turn', turn); else url.searchParams.set('seq', s);
      history.replaceState(null, '', url);
    }
    const state = await stateAt(s);
    if (seq !== s) return; // a later step won the race
    drawPieces(state);
    fillPlayers(state);
    root.dataset.shown = s;
  }
  const goTurn = (t) => go(seqOfTurn(Math.max(0, Math.min(lastTurn(), t))));

  // Keys work wherever focus is inside the replay, and clicks give focus back to it.
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input[type=file], select, textarea')) return;
    const turn = turnAt(seq);
    let handled = true;
    if (e.key === 'ArrowRight') e.shiftKey ? goTurn(turn + 1) : go(seq + 1);
    else if (e.key === 'ArrowLeft') e.shiftKey ? goTurn(turn - 1) : go(seq - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(events.length);
    else handled = false;
    if (handled) e.preventDefault();
  });
  root.addEventListener('click', (e) => {
    const target = e.target.closest('.turn-target');
    const item = e.target.closest('#events li');
    if (target) goTurn(+target.dataset.turn);
    else if (item) go(+item.dataset.seq);
    if (!e.target.closest('input')) root.focus({ preventScroll: true });
  });
  document.getElementById('first').addEventListener('click', () => go(0));
  document.getElementById('prev').addEventListener('click', () => go(seq - 1));
  document.getElementById('next').addEventListener('click', () => go(seq + 1));
  document.getElementById('last').addEventListener('click', () => go(events.length));
  slider.addEventListener('input', () => goTurn(+slider.value));
  slider.addEventListener('change', () => root.focus({ preventScroll: true }));

  async function loadCharts() {
    await Promise.all([...document.querySelectorAll('figure.chart')].map(async (fig) => {
      const r = await fetch(`/api/games/${encodeURIComponent(id)}/charts/${fig.dataset.chart}.svg`);
      // The SVG is made by our server, its text escaped; it is inlined so its turns can be clicked.
      fig.innerHTML = r.ok ? await r.text() : '';
    }));
    for (const r of document.querySelectorAll(`.turn-target[data-turn="${turnAt(seq)}"]`)) r.classList.add('current');
  }

  async function start() {
    const [game, evs] = await Promise.all([api(''), api('/events')]);
    header = game.header;
    events = evs.events;
    slider.max = lastTurn();
    drawStatic(carcassonne ? await stateAt(events.length) : null);
    fillEvents();
    const params = new URLSearchParams(location.search);
    if (params.has('turn')) await goTurn(+params.get('turn'));
    else await go(params.has('seq') ? +params.get('seq') : 0, params.has('seq'));
    root.focus({ preventScroll: true });
    root.dataset.ready = 'yes';
    loadCharts().then(() => { root.dataset.charts = 'yes'; });
  }
  start();
})();
