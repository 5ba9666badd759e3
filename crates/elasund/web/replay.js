// Elasund's replay drawing: the city grid seen from above, the sea and the ship (or the pirate) on the
// west, the wall strips north, east and south with the two gates, the buildings, permits (value, owner),
// wall tiles and towers, the church, and the trade track along the bottom with its marks.
(() => {
  const ROWS = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];
  const FILL = { small_hut: '#d7ccc8', large_hut: '#d7ccc8', house: '#ffe0b2', workshop: '#ffe0b2', well: '#b3e5fc', market_stalls: '#c8e6c9', inn: '#f8bbd0', shop: '#fff59d', hall: '#d1c4e9' };
  const LABEL = { small_hut: 'hut', large_hut: 'hut', house: 'house', workshop: 'workshop', well: 'well', market_stalls: 'stalls', inn: 'inn', shop: 'shop', hall: 'hall' };
  const words = (k) => k.replaceAll('_', ' ');
  // Column c, row index r: the square's north-west corner (the sea lane is x 0-1, the north wall y 0-1).
  const xy = (c, r) => [c, r + 1];
  const parse = (name) => {
    const [c, row] = name.split(':').map(Number);
    return [c, ROWS.indexOf(row)];
  };
  const lastCol = (ctx) => 2 * ctx.header.players.length + 1;
  // A wall site's rectangle.
  function siteRect(ctx, name) {
    const [side, n] = name.split(':');
    const last = lastCol(ctx);
    if (side === 'north') return [n, 0.2, 1, 0.8];
    if (side === 'south') return [n, 11, 1, 0.8];
    return [last + 1, ROWS.indexOf(Number(n)) + 1, 0.8, 1];
  }

  function drawBoard(board, final, ctx) {
    // The track's marks are the rules' (the state's `track`): squares that take VP markers.
    const marks = new Set(final.track.map((m) => m.square));
    const { svg, text } = ctx;
    const last = lastCol(ctx);
    board.setAttribute('viewBox', `-0.6 -0.2 ${last + 3} 14.2`);
    svg('rect', { x: -0.6, y: -0.2, width: 1.6, height: 14.2, fill: '#9ecae1' }, board);
    text(board, 0.2, 0.5, 'sea', { 'font-size': 0.3, fill: '#0006' });
    ROWS.forEach((row, r) => {
      text(board, -0.3, r + 1.5, String(row), { 'font-size': 0.35, 'font-weight': 'bold', fill: '#08306b' });
      for (let c = 1; c <= last; c++) {
        const [x, y] = xy(c, r);
        const church = c === 3 && row === 8;
        svg('rect', { x, y, width: 1, height: 1, fill: church ? '#cfc3e6' : '#f3ead6', stroke: '#b9a98a', 'stroke-width': 0.02 }, board);
        const mills = c === 1 ? 1 : (c === 6 || c === 8) && (row === 2 || row === 12) ? 2 : 0;
        for (let k = 0; k < mills; k++) {
          svg('path', { d: `M ${x + 0.12 + k * 0.2} ${y + 0.88} l 0.08 -0.2 l 0.08 0.2 z`, fill: '#6d8', stroke: '#274', 'stroke-width': 0.01, class: 'windmill' }, board);
        }
        if (church) text(board, x + 0.5, y + 0.5, '✝', { 'font-size': 0.5, fill: '#5e35b1', class: 'church-site' });
      }
    });
    // The gates at the ends of the north and south strips, the wall sites between.
    for (const y of [0.2, 11]) {
      svg('rect', { x: last, y, width: 1.8, height: 0.8, fill: '#8d6e63', stroke: '#4e342e', 'stroke-width': 0.03, class: 'gate' }, board);
      for (let c = 3; c < last; c++) svg('rect', { x: c + 0.05, y: y + 0.1, width: 0.9, height: 0.6, fill: 'none', stroke: '#a1887f', 'stroke-width': 0.02, 'stroke-dasharray': '0.05 0.05' }, board);
    }
    for (let r = 1; r < 9; r++) svg('rect', { x: last + 1.1, y: r + 1.05, width: 0.6, height: 0.9, fill: 'none', stroke: '#a1887f', 'stroke-width': 0.02, 'stroke-dasharray': '0.05 0.05' }, board);
    // The trade track along the bottom.
    for (let k = 0; k <= 11; k++) {
      const x = 1 + k * ((last + 0.5) / 12);
      svg('rect', { x, y: 12.2, width: (last + 0.5) / 12 - 0.05, height: 0.7, fill: marks.has(k) ? '#ffe082' : '#eeeeee', stroke: '#999', 'stroke-width': 0.02 }, board);
      text(board, x + 0.2, 12.4, String(k), { 'font-size': 0.22 });
    }
    text(board, 0.2, 12.55, 'trade', { 'font-size': 0.22, fill: '#0008' });
  }

  function drawState(layer, state, ctx) {
    const { svg, text } = ctx;
    const last = lastCol(ctx);
    for (const b of state.buildings || []) {
      const [c, r] = parse(b.at);
      const [x, y] = xy(c, r);
      const g = svg('g', { class: 'building', 'data-kind': b.kind, 'data-at': b.at }, layer);
      svg('rect', { x: x + 0.06, y: y + 0.06, width: b.width - 0.12, height: b.height - 0.12, rx: 0.08, fill: FILL[b.kind], stroke: ctx.colorOf(b.owner), 'stroke-width': 0.1 }, g);
      // The name across a wide building, up a tall one, shrunk only where neither fits it.
      const label = LABEL[b.kind];
      const long = label.length * 0.6 * 0.26;
      if (long <= b.width - 0.15 || b.height <= b.width) {
        text(g, x + b.width / 2, y + 0.35, label, { 'font-size': Math.min(0.26, (b.width - 0.15) / (label.length * 0.6)) });
      } else {
        const cx = x + 0.35, cy = y + b.height / 2;
        text(g, cx, cy, label, { 'font-size': Math.min(0.26, (b.height - 0.2) / (label.length * 0.6)), transform: `rotate(-90 ${cx} ${cy})` });
      }
      for (let k = 0; k < b.markers; k++) svg('rect', { x: x + 0.15 + k * 0.25, y: y + b.height - 0.35, width: 0.18, height: 0.18, fill: ctx.colorOf(b.owner), stroke: '#222', 'stroke-width': 0.02, class: 'marker' }, g);
      svg('title', {}, g).textContent = `${b.owner}'s ${words(b.kind)} at ${b.at}`;
    }
    for (const p of state.permits || []) {
      const [c, r] = parse(p.at);
      const [x, y] = xy(c, r);
      const g = svg('g', { class: 'permit', 'data-at': p.at }, layer);
      svg('circle', { cx: x + 0.5, cy: y + 0.5, r: 0.3, fill: '#fff', stroke: ctx.colorOf(p.owner), 'stroke-width': 0.1 }, g);
      text(g, x + 0.5, y + 0.5, String(p.value), { 'font-size': 0.32, 'font-weight': 'bold' });
      svg('title', {}, g).textContent = `${p.owner}'s permit of value ${p.value} on ${p.at}`;
    }
    // The church site's mark goes under the church tiles laid on it.
    const site = layer.ownerSVGElement.querySelector('.church-site');
    if (site) site.style.display = (state.church || []).some((t) => t.at === '3:8') ? 'none' : '';
    for (const t of state.church || []) {
      const [c, r] = parse(t.at);
      const [x, y] = xy(c, r);
      const g = svg('g', { class: 'church', 'data-at': t.at }, layer);
      svg('rect', { x: x + 0.03, y: y + 0.03, width: 0.94, height: 0.94, fill: '#7e57c2', stroke: '#4527a0', 'stroke-width': 0.04 }, g);
      text(g, x + 0.5, y + 0.4, '✝', { 'font-size': 0.4, fill: '#fff' });
      if (t.marker) svg('rect', { x: x + 0.38, y: y + 0.66, width: 0.24, height: 0.24, fill: ctx.colorOf(t.marker), stroke: '#fff', 'stroke-width': 0.02, class: 'marker' }, g);
      svg('title', {}, g).textContent = `church tile ${t.tile} on ${t.at}`;
    }
    for (const w of state.walls || []) {
      const [x, y, width, height] = siteRect(ctx, w.at).map(Number);
      const g = svg('g', { class: `wall${w.tower ? ' tower' : ''}`, 'data-at': w.at }, layer);
      svg('rect', { x: x + 0.05, y, width: width - 0.1, height, fill: ctx.colorOf(w.owner), stroke: '#3e2723', 'stroke-width': 0.04 }, g);
      text(g, x + width / 2, y + height / 2, w.tower ? '♜' : String(w.number), { 'font-size': 0.35, fill: '#fff' });
      svg('title', {}, g).textContent = `${w.owner}'s wall tile ${w.number} on ${w.at}${w.tower ? ' (a tower)' : ''}`;
    }
    if (state.ship != null) {
      const r = ROWS.indexOf(state.ship);
      const g = svg('g', { class: state.pirate ? 'ship pirate' : 'ship' }, layer);
      svg('path', { d: `M 0.1 ${r + 1.55} l 0.8 0 l -0.15 0.25 l -0.5 0 z M 0.5 ${r + 1.15} l 0 0.4 l 0.3 -0.1 z`, fill: state.pirate ? '#111' : '#6d4c41' }, g);
      svg('title', {}, g).textContent = state.pirate ? `the pirate on row ${state.ship}` : `the ship on row ${state.ship}`;
    }
    // The trade track: each player's pawn, and the markers on the marks.
    const step = (last + 0.5) / 12;
    state.players.forEach((p, i) => {
      const x = 1 + p.trade * step + 0.12 + (i % 2) * 0.22;
      const y = 12.62 + Math.floor(i / 2) * 0.0;
      svg('circle', { cx: x, cy: y + (i > 1 ? 0.18 : 0), r: 0.1, fill: ctx.colorOf(p.name), stroke: '#222', 'stroke-width': 0.02, class: 'pawn' }, layer);
    });
    for (const m of state.track || []) {
      m.players.forEach((name, k) => {
        const x = 1 + m.square * step + 0.45;
        svg('rect', { x: x + (k % 2) * 0.14 - 0.1, y: 12.25 + Math.floor(k / 2) * 0.14, width: 0.12, height: 0.12, fill: ctx.colorOf(name), stroke: '#222', 'stroke-width': 0.01, class: 'marker' }, layer);
      });
    }
  }

  function playerLines(p) {
    const influence = Object.entries(p.influence || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
    return [
      { className: 'hand', text: `${p.gold} gold · influence: ${influence.length ? influence.join(', ') : 'none'}` },
      { className: 'dev', text: `permits at home: ${p.permits_at_home.length ? p.permits_at_home.join(', ') : 'none'}` },
      { className: 'awards', text: `markers left ${p.markers_left} · trade ${p.trade} · walls ${p.walls_built} (${p.towers} towers)` },
    ];
  }

  function placeOf(event) {
    const at = event.at || event.to;
    if (at && /^\d:\d+$/.test(at)) {
      const [c, r] = parse(at);
      const [x, y] = xy(c, r);
      return { x: x + 0.5, y: y + 0.5, r: 0.6 };
    }
    return null;
  }

  Almanac.register('elasund', {
    drawBoard,
    drawState,
    placeOf,
    notation: 'Places: a square is its column from the sea and its row, named by the dice sum on the left ' +
      '(3:8 is the church site); wall sites are north:<column>, south:<column> and east:<row>.',
    score: (p) => `${p.vp} VP`,
    playerLines,
    footer: (state) =>
      `bank: ${state.gold} gold · influence deck ${state.influence_deck}, discards ${state.influence_discards} · ` +
      `church tiles left ${state.church_tiles_left} · ` +
      Object.entries(state.stacks).map(([k, n]) => `${words(k)} ${n}`).join(', '),
  });
})();
