// Carcassonne's replay drawing: a schematic of each placed tile (fields green, cities tan, roads white,
// monasteries red, pennants and goods) with the figures on it, and what each player has at home.
(() => {
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

  // The grid grows; frame it by the tiles of the final state so the view never jumps.
  function drawBoard(board, final) {
    const xs = final.tiles.map((t) => t.at[0]), ys = final.tiles.map((t) => t.at[1]);
    const minX = Math.min(...xs) - 0.3, minY = Math.min(...ys) - 0.3;
    board.setAttribute('viewBox', `${minX} ${minY} ${Math.max(...xs) + 1.6 - minX} ${Math.max(...ys) + 1.6 - minY}`);
    board.parentElement.classList.add('grid');
  }

  function drawState(layer, state, ctx) {
    const { svg, text } = ctx;
    for (const t of state.tiles) {
      const [x, y] = t.at;
      const g = svg('g', { class: 'tile', 'data-at': `${x},${y}` }, layer);
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
      const fill = ctx.colorOf(f.player);
      let shape;
      if (f.figure === 'builder') shape = svg('rect', { x: px - 0.08, y: py - 0.08, width: 0.16, height: 0.16, fill, stroke: '#111', 'stroke-width': 0.02 }, layer);
      else if (f.figure === 'pig') shape = svg('ellipse', { cx: px, cy: py, rx: 0.11, ry: 0.07, fill, stroke: '#111', 'stroke-width': 0.02 }, layer);
      else shape = svg('circle', { cx: px, cy: py, r: 0.09, fill, stroke: '#111', 'stroke-width': 0.02 }, layer);
      shape.setAttribute('class', 'figure');
      svg('title', {}, shape).textContent = `${f.player}'s ${f.figure} (${f.feature})`;
    }
  }

  function playerLines(p) {
    const goods = Object.entries(p.goods || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
    const home = `${p.followers_left} followers at home` + (p.builder_home === false ? ' · builder out' : '') + (p.pig_home === false ? ' · pig out' : '');
    return [{ className: 'hand', text: home + (goods.length ? ` · goods: ${goods.join(', ')}` : '') }];
  }

  Almanac.register('carcassonne', {
    drawBoard,
    drawState,
    score: (p) => `${p.vp} points`,
    playerLines,
    footer: (state) => `${state.tiles_left} tiles left in the pack`,
    eventClass: (e) => (e.type === 'end_game' ? 'final' : undefined),
  });
})();
