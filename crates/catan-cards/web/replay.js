// The Catan card game's replay drawing: a table seen from above. At the top, the open row of building
// cards, the Metropolis stack and the two special cards; below, one lane per player with the uncovered
// cards of their tableau (a card's count in its corner) and the backs of the cards in hand.
(() => {
  // Each kind's card colour (the drawing's own); its cost and points are the rules' (`state.cards`), and a
  // resource's colour is the game's declared one (`ctx.itemColor`), as on the charts.
  const FILL = { road: '#a1887f', settlement: '#e6b34a', city: '#90a4ae', knight: '#7986cb', metropolis: '#ab47bc' };
  const KINDS = ['road', 'settlement', 'city', 'metropolis', 'knight'];
  let faces = {};
  const W = 1, H = 1.4; // a card
  const LANE = 2.1; // the height of a player's lane
  const words = (k) => k.replaceAll('_', ' ');

  // One card: its colour, name, cost as dots and points; `count` in the corner when more than one.
  function card(ctx, parent, x, y, kind, { count = 1, dim = false, title } = {}) {
    const { svg, text } = ctx;
    const c = faces[kind];
    const g = svg('g', { class: `card ${kind}`, 'data-card': kind, opacity: dim ? 0.35 : 1 }, parent);
    svg('rect', { x, y, width: W, height: H, rx: 0.08, fill: FILL[kind], stroke: '#3b3325', 'stroke-width': 0.03 }, g);
    text(g, x + W / 2, y + 0.3, words(kind), { 'font-size': kind.length > 8 ? 0.14 : 0.17, 'font-weight': 'bold', fill: '#1d1a14' });
    c.cost.forEach((r, i) => {
      svg('circle', { cx: x + 0.14 + i * 0.18, cy: y + H - 0.16, r: 0.07, fill: ctx.itemColor(r), stroke: '#0005', 'stroke-width': 0.01 }, g);
    });
    if (c.points) text(g, x + W / 2, y + 0.75, `${c.points} VP`, { 'font-size': 0.2, fill: '#1d1a14' });
    if (count > 1) {
      svg('circle', { cx: x + W - 0.08, cy: y + 0.08, r: 0.17, fill: '#fff', stroke: '#3b3325', 'stroke-width': 0.02 }, g);
      text(g, x + W - 0.08, y + 0.08, String(count), { 'font-size': 0.2, 'font-weight': 'bold', class: 'count' });
    }
    if (title) svg('title', {}, g).textContent = title;
    return g;
  }

  function drawBoard(board, _final, ctx) {
    const { svg, text } = ctx;
    const n = ctx.header.players.length;
    const height = 2.2 + n * LANE;
    board.setAttribute('viewBox', `0 0 12 ${height}`);
    board.closest('.board-wrap').classList.add('grid');
    svg('rect', { x: 0.1, y: 0.1, width: 11.8, height: 1.95, rx: 0.12, fill: '#d9d2bf' }, board);
    text(board, 3.2, 0.22, 'the open row', { 'font-size': 0.15, fill: '#0008' });
    ctx.header.players.forEach((p, i) => {
      const y = 2.2 + i * LANE;
      svg('rect', { x: 0.1, y, width: 11.8, height: LANE - 0.1, rx: 0.12, fill: '#f6f3ea', stroke: ctx.colorOf(p.name), 'stroke-width': 0.05 }, board);
      text(board, 0.25, y + 0.25, p.name, { 'text-anchor': 'start', 'font-size': 0.22, 'font-weight': 'bold', fill: ctx.inkOf(p.name) });
    });
  }

  function drawState(layer, state, ctx) {
    const { svg, text } = ctx;
    faces = Object.fromEntries(state.cards.map((f) => [f.kind, f]));
    // The row: five places, a place left empty when the building deck is spent.
    for (let i = 0; i < 5; i++) {
      const x = 0.3 + i * 1.2;
      const kind = state.row[i];
      if (kind) card(ctx, layer, x, 0.4, kind, { title: `${words(kind)} in the open row` });
      else svg('rect', { x, y: 0.4, width: W, height: H, rx: 0.08, fill: 'none', stroke: '#0003', 'stroke-dasharray': '0.08 0.06', 'stroke-width': 0.02 }, layer);
    }
    card(ctx, layer, 6.6, 0.4, 'metropolis', {
      count: state.metropolises_left,
      dim: state.metropolises_left === 0,
      title: `${state.metropolises_left} Metropolis cards left (${state.metropolis_side} side up)`,
    });
    text(layer, 7.1, 0.22, `${state.metropolis_side} side`, { 'font-size': 0.15, fill: '#0008' });
    [['longest_road', state.longest_road], ['largest_army', state.largest_army]].forEach(([award, holder], i) => {
      const x = 8.2 + i * 1.8;
      const g = svg('g', { class: `award ${award}` }, layer);
      svg('rect', { x, y: 0.55, width: 1.6, height: 1.1, rx: 0.1, fill: holder ? ctx.colorOf(holder) : '#eee', stroke: '#3b3325', 'stroke-width': 0.03 }, g);
      svg('rect', { x: x + 0.1, y: 0.65, width: 1.4, height: 0.9, rx: 0.06, fill: '#fffc' }, g);
      text(g, x + 0.8, 0.9, words(award), { 'font-size': 0.17, 'font-weight': 'bold' });
      text(g, x + 0.8, 1.25, holder ? `${holder} · 2 VP` : 'nobody yet', { 'font-size': 0.15 });
    });
    state.players.forEach((p, i) => {
      const y = 2.2 + i * LANE;
      let x = 0.3;
      for (const kind of KINDS) {
        const count = p.tableau[kind] || 0;
        if (count === 0) continue;
        card(ctx, layer, x, y + 0.45, kind, { count, title: `${p.name}: ${count} ${words(kind)}` });
        x += 1.15;
      }
      // The hand, face down: one back per card (shown up to twelve, then a number).
      const backs = Math.min(p.cards_in_hand, 12);
      const hx = 7.0;
      for (let k = 0; k < backs; k++) {
        svg('rect', { x: hx + k * 0.28, y: y + 0.7, width: 0.6, height: 0.85, rx: 0.05, fill: '#8b2e1f', stroke: '#f6f3ea', 'stroke-width': 0.03, class: 'back' }, layer);
      }
      text(layer, hx, y + 0.45, `${p.cards_in_hand} in hand · Robber limit ${p.robber_limit}`, { 'text-anchor': 'start', 'font-size': 0.16, fill: '#0009' });
      if (state.active === p.name) {
        svg('circle', { cx: 11.6, cy: y + 0.3, r: 0.12, fill: ctx.colorOf(p.name), stroke: '#222', 'stroke-width': 0.02, class: 'active' }, layer);
      }
    });
  }

  function playerLines(p) {
    const hand = Object.entries(p.hand || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k} ${n}`);
    const lines = [{ className: 'hand', text: Almanac.count(p.cards_in_hand, 'card') + (hand.length ? `: ${hand.join(', ')}` : '') }];
    const built = KINDS.filter((k) => p.tableau[k] > 0).map((k) => `${words(k)} ${p.tableau[k]}`);
    lines.push({ className: 'dev', text: `tableau: ${built.join(', ')}` });
    if (p.awards && p.awards.length) lines.push({ className: 'awards', text: p.awards.map(words).join(' · ') });
    return lines;
  }

  Almanac.register('catan-cards', {
    drawBoard,
    drawState,
    score: (p) => `${p.vp} VP`,
    playerLines,
    footer: (state) => {
      const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
      const robber = state.phase === 'discard' ? 'the Robber: waiting for discards · ' : '';
      return `${robber}${plural(state.row.length, 'card')} in the open row · ${plural(state.metropolises_left, 'Metropolis card')} left`;
    },
  });
})();
