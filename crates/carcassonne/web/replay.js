// Carcassonne's replay drawing: each placed tile (fields green, cities tan reaching the whole width of
// each city side, so a city across tiles reads as one shape; roads white; monasteries as chapels; pennants
// and goods as coloured marks) with the figures on it, and what each player has at home.
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

  const ORDER = ['N', 'E', 'S', 'W'];
  // A city's outline on its tile: the whole of each city side, and between two city sides either the
  // corner they share or, past a side that is not the city's, a curve in towards the middle.
  function cityPath(x, y, sides) {
    const inner = (c, depth) => {
      const [[ax, ay], [bx, by]] = SIDE[c];
      const mx = (ax + bx) / 2, my = (ay + by) / 2;
      return [x + mx + (0.5 - mx) * depth, y + my + (0.5 - my) * depth];
    };
    if (sides.length === 1) {
      const [[ax, ay], [bx, by]] = SIDE[sides[0]];
      const [cx, cy] = inner(sides[0], 0.75);
      return `M${x + ax},${y + ay} L${x + bx},${y + by} Q${cx},${cy} ${x + ax},${y + ay}Z`;
    }
    let d = '';
    for (const c of ORDER) {
      const [[ax, ay], [bx, by]] = SIDE[c];
      if (sides.includes(c)) d += `${d ? 'L' : 'M'}${x + ax},${y + ay} L${x + bx},${y + by} `;
      else {
        const [ix, iy] = inner(c, 0.55);
        d += `${d ? '' : `M${x + ax},${y + ay} `}Q${ix},${iy} ${x + bx},${y + by} `;
      }
    }
    return d + 'Z';
  }

  // The grid grows; frame it by the tiles of the final state so the view never jumps.
  function drawBoard(board, final) {
    const xs = final.tiles.map((t) => t.at[0]), ys = final.tiles.map((t) => t.at[1]);
    const minX = Math.min(...xs) - 0.3, minY = Math.min(...ys) - 0.3;
    board.setAttribute('viewBox', `${minX} ${minY} ${Math.max(...xs) + 1.6 - minX} ${Math.max(...ys) + 1.6 - minY}`);
    board.closest('.board-wrap').classList.add('grid');
  }

  function drawState(layer, state, ctx) {
    const { svg } = ctx;
    for (const t of state.tiles) {
      const [x, y] = t.at;
      const g = svg('g', { class: 'tile', 'data-at': `${x},${y}` }, layer);
      drawTile(g, x, y, t.features, ctx);
    }
    drawFigures(layer, state, ctx);
  }

  // One tile's ground, cities, goods, roads and monastery, its top left corner at (x, y).
  function drawTile(g, x, y, features, ctx) {
    const { svg } = ctx;
    svg('rect', { x, y, width: 1, height: 1, fill: '#8bc34a', stroke: '#5d7d35', 'stroke-width': 0.02 }, g);
    for (const f of features.filter((f) => f.kind === 'city')) {
      svg('path', { d: cityPath(x, y, sidesOf(f.location)), fill: '#d2b07a', stroke: '#8d6e3f', 'stroke-width': 0.012 }, g);
    }
    for (const f of features.filter((f) => f.kind === 'city')) {
      const [px, py] = spotOf(x, y, f);
      if (f.pennant) svg('path', { d: `M${px - 0.1},${py - 0.26} h0.2 v0.1 l-0.1,0.06 l-0.1,-0.06z`, fill: '#1f5fbf', stroke: '#fff', 'stroke-width': 0.015 }, g);
      if (f.good) {
        const mark = svg('circle', { cx: px + 0.2, cy: py + 0.2, r: 0.07, fill: ctx.itemColor(f.good), stroke: '#fff', 'stroke-width': 0.02 }, g);
        svg('title', {}, mark).textContent = f.good;
      }
    }
    for (const f of features.filter((f) => f.kind === 'road')) {
      for (const c of sidesOf(f.location)) {
        const [[ax, ay], [bx, by]] = SIDE[c];
        svg('line', { x1: x + (ax + bx) / 2, y1: y + (ay + by) / 2, x2: x + 0.5, y2: y + 0.5, stroke: '#f5f5f5', 'stroke-width': 0.08, 'stroke-linecap': 'round' }, g);
      }
    }
    if (features.some((f) => f.kind === 'monastery')) {
      // A chapel, in no player's colour.
      const chapel = svg('path', { d: `M${x + 0.33},${y + 0.66} v-0.22 l0.17,-0.14 l0.17,0.14 v0.22z`, fill: '#f3ead8', stroke: '#5d4037', 'stroke-width': 0.025 }, g);
      svg('title', {}, chapel).textContent = 'monastery';
      svg('path', { d: `M${x + 0.5},${y + 0.38} v0.2 M${x + 0.44},${y + 0.45} h0.12`, stroke: '#5d4037', 'stroke-width': 0.025 }, g);
    }
  }

  // A placement a recorder offers, as the tile would lie (its `picture`: the features turned): a tile of
  // its own in a picture one tile wide.
  function drawChoice(picture, ctx) {
    const box = ctx.svg('svg', { viewBox: '-0.04 -0.04 1.08 1.08', class: 'choice-picture', 'aria-hidden': 'true' });
    drawTile(ctx.svg('g', {}, box), 0, 0, picture.features, ctx);
    return box;
  }

  function drawFigures(layer, state, ctx) {
    const { svg } = ctx;
    for (const f of state.figures || []) {
      const [x, y] = f.at;
      const [px, py] = spotOf(x, y, { kind: f.feature, location: f.location });
      const fill = ctx.colorOf(f.player);
      let shape;
      // Figures a third of a tile tall, outlined in white so that they stand out on any ground.
      const outline = { stroke: '#fff', 'stroke-width': 0.03 };
      if (f.figure === 'builder') shape = svg('rect', { x: px - 0.12, y: py - 0.12, width: 0.24, height: 0.24, fill, ...outline }, layer);
      else if (f.figure === 'pig') shape = svg('ellipse', { cx: px, cy: py, rx: 0.16, ry: 0.1, fill, ...outline }, layer);
      else {
        const m = `M${px},${py - 0.16} a0.06,0.06 0 1 1 0.001,0 l0.07,0.07 l0.07,0.02 l-0.04,0.06 l-0.05,0 l0.06,0.17 h-0.09 l-0.04,-0.08 l-0.04,0.08 h-0.09 l0.06,-0.17 l-0.05,0 l-0.04,-0.06 l0.07,-0.02 z`;
        shape = svg('path', { d: m, fill, ...outline, 'stroke-linejoin': 'round' }, layer);
      }
      shape.setAttribute('class', 'figure');
      svg('title', {}, shape).textContent = `${f.player}'s ${f.figure} (${f.feature})`;
    }
  }

  function playerLines(p) {
    const goods = Object.entries(p.goods || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
    const out = (n, one) => (n ? ` · ${n > 1 ? `${n} ${one}s` : one} out` : '');
    const home = `${p.followers_left} followers at home` + out(p.builders_out, 'builder') + out(p.pigs_out, 'pig');
    return [{ className: 'hand', text: home + (goods.length ? ` · goods: ${goods.join(', ')}` : '') }];
  }

  Almanac.register('carcassonne', {
    drawBoard,
    drawState,
    drawChoice,
    // Where on a recorder's picture of a tile a figure would stand (the picture is one tile wide).
    spotOf: (picture) => {
      if (!picture.spot) return null;
      const [x, y] = spotOf(0, 0, picture.spot);
      return { x, y, r: 0 };
    },
    placeOf: (event) => (event.type === 'place_tile' && Array.isArray(event.at) ? { x: event.at[0] + 0.5, y: event.at[1] + 0.5, r: 0.72 } : null),
    notation: 'Places: a tile at [x, y] lies x tiles east and y tiles south of the start tile; a figure stands ' +
      'on a side (N, E, S, W), a half side in a field (NL is the left half of the north side, seen from ' +
      'inside), or in the middle (I).',
    score: (p) => Almanac.count(p.vp, 'point'),
    playerLines,
    footer: (state) => `${Almanac.count(state.tiles_left, 'tile')} left in the pack`,
    eventClass: (e) => (e.type === 'end_game' ? 'final' : undefined),
  });
})();
