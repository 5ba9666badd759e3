// The hex board of the Catan family, shared by every game drawn on Catan's board (its crate prepends this
// file to its own drawing): pointy-top axial hexes of circumradius 1, as in src/geometry.rs; the tiles,
// numbers and harbours of the header; roads, settlements, cities and the robber of a state.
window.CatanBoard = window.CatanBoard || (() => {
  const SQ3 = Math.sqrt(3);
  const CORNERS = ['N', 'NE', 'SE', 'S', 'SW', 'NW'];
  const SIDES = ['NE', 'E', 'SE', 'SW', 'W', 'NW'];
  const TERRAIN = { forest: '#3f8f3f', hills: '#c8643b', pasture: '#a5d46a', fields: '#f2cf4a', mountains: '#9aa5b1', desert: '#e9dbb0' };
  const centre = ([q, r]) => [SQ3 * (q + r / 2), 1.5 * r];
  const corner = (hex, i) => {
    const [x, y] = centre(hex.at);
    const a = (Math.PI / 180) * (-90 + 60 * i);
    return [x + Math.cos(a), y + Math.sin(a)];
  };
  const hexesOf = (ctx) => ctx.header.board.hexes;
  const vertexXY = (ctx, name) => {
    const [h, c] = name.split(':');
    return corner(hexesOf(ctx)[+h], CORNERS.indexOf(c));
  };
  const edgeXY = (ctx, name) => {
    const [h, s] = name.split(':');
    const i = SIDES.indexOf(s);
    const hex = hexesOf(ctx)[+h];
    return [corner(hex, i), corner(hex, (i + 1) % 6)];
  };
  const counted = (obj, rename = (k) => k) =>
    Object.entries(obj || {}).filter(([, n]) => n > 0).map(([k, n]) => `${rename(k)} ${n}`);
  const words = (k) => k.replaceAll('_', ' ');
  function drawBoard(board, _final, ctx) {
    const { svg, text } = ctx;
    const xs = [], ys = [];
    const tiles = svg('g', { class: 'tiles' }, board);
    hexesOf(ctx).forEach((h, i) => {
      const pts = [0, 1, 2, 3, 4, 5].map((k) => corner(h, k));
      pts.forEach(([x, y]) => { xs.push(x); ys.push(y); });
      svg('polygon', { points: pts.map((p) => p.join(',')).join(' '), fill: TERRAIN[h.terrain] || '#ccc', stroke: '#6b5b3e', 'stroke-width': 0.04, 'data-hex': i }, tiles);
      const [x, y] = centre(h.at);
      // A number token (a group, so that a game moving tokens can hide the one it covers).
      if (h.number) {
        const token = svg('g', { class: 'token', 'data-hex': i }, tiles);
        svg('circle', { cx: x, cy: y, r: 0.38, fill: '#fbf3dc', stroke: '#6b5b3e', 'stroke-width': 0.02 }, token);
        text(token, x, y, String(h.number), { 'font-size': 0.36, 'font-weight': 'bold', fill: h.number === 6 || h.number === 8 ? '#c0392b' : '#222' });
      }
      text(tiles, x, y + 0.63, String(i), { 'font-size': 0.2, fill: '#0008' });
    });
    for (const hb of ctx.header.board.harbours || []) {
      const [[x1, y1], [x2, y2]] = edgeXY(ctx, hb.edge);
      const [h] = hb.edge.split(':');
      const [cx, cy] = centre(hexesOf(ctx)[+h].at);
      const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
      const px = mx + (mx - cx) * 0.45, py = my + (my - cy) * 0.45;
      svg('line', { x1, y1, x2: px, y2: py, stroke: '#6b5b3e', 'stroke-width': 0.05 }, board);
      svg('line', { x1: x2, y1: y2, x2: px, y2: py, stroke: '#6b5b3e', 'stroke-width': 0.05 }, board);
      svg('circle', { cx: px, cy: py, r: 0.36, fill: '#fff', stroke: '#1f5fbf', 'stroke-width': 0.03 }, board);
      text(board, px, py - (hb.resource ? 0.09 : 0), hb.ratio === 3 ? '3:1' : '2:1', { 'font-size': 0.22, 'font-weight': 'bold' });
      if (hb.resource) text(board, px, py + 0.14, hb.resource, { 'font-size': 0.14 });
      xs.push(px); ys.push(py);
    }
    const pad = 0.5;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    board.setAttribute('viewBox', `${minX} ${minY} ${Math.max(...xs) + pad - minX} ${Math.max(...ys) + pad - minY}`);
  }

  function drawPieces(layer, state, ctx) {
    const { svg } = ctx;
    for (const r of state.roads || []) {
      const [[x1, y1], [x2, y2]] = edgeXY(ctx, r.at);
      const sx = x1 + (x2 - x1) * 0.12, sy = y1 + (y2 - y1) * 0.12, ex = x2 - (x2 - x1) * 0.12, ey = y2 - (y2 - y1) * 0.12;
      svg('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: '#222', 'stroke-width': 0.17, 'stroke-linecap': 'round' }, layer);
      svg('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: ctx.colorOf(r.owner), 'stroke-width': 0.11, 'stroke-linecap': 'round', class: 'road', 'data-at': r.at }, layer);
    }
    for (const b of state.buildings || []) {
      const [x, y] = vertexXY(ctx, b.at);
      const s = b.kind === 'city' ? 0.2 : 0.14;
      const shape = b.kind === 'city'
        ? `${x - s},${y + s} ${x - s},${y - s * 0.2} ${x - s * 0.2},${y - s * 0.2} ${x - s * 0.2},${y - s} ${x + s * 0.4},${y - s * 1.4} ${x + s},${y - s} ${x + s},${y + s}`
        : `${x - s},${y + s} ${x - s},${y - s * 0.3} ${x},${y - s * 1.2} ${x + s},${y - s * 0.3} ${x + s},${y + s}`;
      const p = svg('polygon', { points: shape, fill: ctx.colorOf(b.owner), stroke: '#222', 'stroke-width': 0.035, class: b.kind, 'data-at': b.at }, layer);
      svg('title', {}, p).textContent = `${b.owner}'s ${b.kind} at ${b.at}`;
    }
    const robber = hexesOf(ctx)[state.robber];
    if (robber) {
      const [x, y] = centre(robber.at);
      svg('ellipse', { cx: x + 0.45, cy: y - 0.1, rx: 0.13, ry: 0.22, fill: '#333', stroke: '#000', 'stroke-width': 0.02, class: 'robber' }, layer);
      svg('circle', { cx: x + 0.45, cy: y - 0.36, r: 0.09, fill: '#333' }, layer);
    }
  }

  // Where an event happened: a corner, a side's middle, or a hex (the robber, a helper's hex).
  function placeOf(event, ctx) {
    if ((event.type === 'build_settlement' || event.type === 'build_city') && event.at) {
      const [x, y] = vertexXY(ctx, event.at);
      return { x, y, r: 0.3 };
    }
    if (event.type === 'build_road' && event.at) {
      const [[x1, y1], [x2, y2]] = edgeXY(ctx, event.at);
      return { x: (x1 + x2) / 2, y: (y1 + y2) / 2, r: 0.4 };
    }
    if (Number.isInteger(event.hex) && hexesOf(ctx)[event.hex]) {
      const [x, y] = centre(hexesOf(ctx)[event.hex].at);
      return { x, y, r: 0.85 };
    }
    return null;
  }

  // What an event would have played or given, as cards to draw beside its words (a better move that has no
  // place on the board): groups of cards, each with what it is, how many, and the colour of its land.
  // Light tints of the lands' colours, so that the words on a card read.
  const CARD_COLOUR = { lumber: '#8fca8f', brick: '#e8a68a', wool: '#cbe7a6', grain: '#f7e08a', ore: '#c6cdd5' };
  const DEVELOPMENT = '#d3c5f0';
  const cards = (bundle) => Object.entries(bundle || {}).filter(([, n]) => n > 0)
    .map(([item, n]) => ({ item: words(item), count: n, colour: CARD_COLOUR[item] || '#b9b2a3' }));
  const card = (item) => [{ item, count: 1, colour: DEVELOPMENT }];
  function pictureOf(event) {
    switch (event.type) {
      case 'maritime_trade': return [{ said: 'gives the bank', cards: cards(event.give) }, { said: 'gets', cards: cards(event.get) }];
      case 'trade': return [{ said: `gives ${event.with}`, cards: cards(event.give) }, { said: 'gets', cards: cards(event.get) }];
      case 'discard': return [{ said: 'discards', cards: cards(event.cards) }];
      case 'play_year_of_plenty': return [{ said: 'plays', cards: card('year of plenty') }, { said: 'takes', cards: cards(event.take) }];
      case 'play_monopoly': return [{ said: 'plays', cards: card('monopoly') }, { said: 'takes every', cards: cards({ [event.resource]: 1 }).map((c) => ({ ...c, count: null })) }];
      case 'play_knight': return [{ said: 'plays', cards: card('knight') }];
      case 'play_road_building': return [{ said: 'plays', cards: card('road building') }];
      case 'buy_development': return [{ said: 'buys', cards: card('development card') }];
      default: return [];
    }
  }

  return { centre, corner, hexesOf, vertexXY, edgeXY, counted, words, drawBoard, drawPieces, placeOf, pictureOf };
})();
