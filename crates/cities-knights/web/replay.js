// The replay drawing of Cities & Knights: the family's hex board (board.js of the base game, prepended),
// with knights (level, active), city walls, metropolises, the merchant, swapped number tokens and the
// barbarian ship's track above the island; each player's commodities, improvements and progress cards.
(() => {
  const B = window.CatanBoard;
  const TRACK = { trade: '#fbc02d', politics: '#1e88e5', science: '#43a047' };
  // Where the barbarian track is drawn: a strip added above the board by drawBoard.
  let track = null;

  function drawBoard(board, final, ctx) {
    B.drawBoard(board, final, ctx);
    const [x, y, w, h] = board.getAttribute('viewBox').split(' ').map(Number);
    track = { x: x + 0.4, y: y - 0.4, step: Math.min(0.8, (w - 0.8) / 8) };
    board.setAttribute('viewBox', `${x} ${y - 1} ${w} ${h + 1}`);
  }

  function drawState(layer, state, ctx) {
    const { svg, text } = ctx;
    const hexes = B.hexesOf(ctx);
    // Number tokens the Inventor moved, each drawn over the token it replaced, which is hidden.
    const moved = (i) => state.numbers && state.numbers[i] && state.numbers[i] !== hexes[i].number;
    for (const token of layer.ownerSVGElement.querySelectorAll('.tiles .token')) {
      token.style.display = moved(+token.dataset.hex) ? 'none' : '';
    }
    (state.numbers || []).forEach((n, i) => {
      if (moved(i)) {
        const [x, y] = B.centre(hexes[i].at);
        svg('circle', { cx: x, cy: y, r: 0.38, fill: '#fff3b0', stroke: '#6b5b3e', 'stroke-width': 0.03 }, layer);
        text(layer, x, y, String(n), { 'font-size': 0.36, 'font-weight': 'bold', fill: n === 6 || n === 8 ? '#c0392b' : '#222' });
      }
    });
    for (const b of state.buildings || []) {
      if (!b.wall) continue;
      const [x, y] = B.vertexXY(ctx, b.at);
      const wall = svg('rect', { x: x - 0.3, y: y - 0.3, width: 0.6, height: 0.6, rx: 0.05, fill: '#d7ccc8', stroke: '#5d4037', 'stroke-width': 0.04, class: 'wall' }, layer);
      svg('title', {}, wall).textContent = `${b.owner}'s city wall at ${b.at}`;
    }
    B.drawPieces(layer, state, ctx);
    for (const b of state.buildings || []) {
      if (!b.metropolis) continue;
      const [x, y] = B.vertexXY(ctx, b.at);
      const m = svg('polygon', { points: `${x},${y - 0.5} ${x + 0.12},${y - 0.28} ${x - 0.12},${y - 0.28}`, fill: TRACK[b.metropolis], stroke: '#222', 'stroke-width': 0.02, class: 'metropolis' }, layer);
      svg('title', {}, m).textContent = `${b.owner}'s ${b.metropolis} metropolis at ${b.at}`;
    }
    for (const k of state.knights || []) {
      const [x, y] = B.vertexXY(ctx, k.at);
      const colour = ctx.colorOf(k.owner);
      const g = svg('g', { class: `knight${k.active ? ' active' : ''}`, 'data-at': k.at }, layer);
      // The knight's level as its number (1 basic, 2 strong, 3 mighty): stars would not read at a phone's size.
      svg('circle', { cx: x, cy: y, r: 0.2, fill: k.active ? colour : '#fff', stroke: k.active ? '#222' : colour, 'stroke-width': 0.05 }, g);
      text(g, x, y, String(k.level), { 'font-size': 0.26, 'font-weight': 'bold', fill: k.active ? ctx.inkOn(colour) : '#222' });
      svg('title', {}, g).textContent = `${k.owner}'s ${['', 'basic', 'strong', 'mighty'][k.level]} knight at ${k.at} (${k.active ? 'active' : 'passive'})`;
    }
    if (state.merchant) {
      const [x, y] = B.centre(hexes[state.merchant.hex].at);
      const m = svg('polygon', { points: `${x - 0.5},${y + 0.05} ${x - 0.38},${y - 0.3} ${x - 0.26},${y + 0.05}`, fill: ctx.colorOf(state.merchant.owner), stroke: '#222', 'stroke-width': 0.03, class: 'merchant' }, layer);
      svg('title', {}, m).textContent = `${state.merchant.owner}'s merchant on hex ${state.merchant.hex}`;
    }
    if (track) {
      const g = svg('g', { class: 'barbarians' }, layer);
      for (let i = 0; i <= state.barbarian_spaces; i++) {
        const last = i === state.barbarian_spaces;
        svg('circle', { cx: track.x + i * track.step, cy: track.y, r: 0.16, fill: last ? '#c0392b' : '#b3d4f0', stroke: '#34495e', 'stroke-width': 0.03 }, g);
      }
      const sx = track.x + state.barbarians * track.step;
      svg('polygon', { points: `${sx - 0.2},${track.y - 0.05} ${sx + 0.2},${track.y - 0.05} ${sx + 0.12},${track.y + 0.12} ${sx - 0.12},${track.y + 0.12}`, fill: '#222', class: 'ship' }, g);
      text(g, track.x + (state.barbarian_spaces + 1) * track.step + 0.9, track.y,
        `barbarians ${state.barbarian_strength} · knights ${state.defence}`, { 'font-size': 0.22 });
      svg('title', {}, g).textContent = `the barbarian ship: ${state.barbarians} of ${state.barbarian_spaces} spaces; ${state.attacks} attack(s) so far`;
    }
  }

  function playerLines(p) {
    const lines = [];
    const hand = B.counted(p.hand);
    lines.push({ className: 'hand', text: Almanac.count(p.cards_in_hand, 'card') + (hand.length ? `: ${hand.join(', ')}` : '') });
    const levels = Object.entries(p.improvements || {}).map(([t, n]) => `${t} ${n}`);
    lines.push({ className: 'dev', text: `improvements: ${levels.join(' · ')}` });
    lines.push({ className: 'dev', text: `progress: ${p.progress.length ? p.progress.map(B.words).join(', ') : 'none'}` });
    const points = [];
    if (p.defenders) points.push(`defender of Catan ${p.defenders}`);
    for (const c of p.progress_points || []) points.push(c);
    if (p.walls) points.push(`walls ${p.walls}`);
    points.push(`active knights ${p.strength}`);
    lines.push({ className: 'awards', text: points.join(' · ') });
    return lines;
  }

  // Where an event happened: the base board's places, and the knights' intersections.
  function placeOf(event, ctx) {
    const corner = event.to || (['build_wall', 'build_knight', 'promote_knight', 'activate_knight'].includes(event.type) && event.at) || event.knight;
    if (corner) {
      const [x, y] = B.vertexXY(ctx, corner);
      return { x, y, r: 0.3 };
    }
    return B.placeOf(event, ctx);
  }

  Almanac.register('cities-knights', {
    drawBoard,
    drawState,
    placeOf,
    notation: 'Places: hexes are numbered as the small grey numbers on the board; 9:S is the south corner of ' +
      'hex 9 (a settlement, city or knight), 4:NE the north-east side of hex 4 (a road). Knights are rings: ' +
      'filled when active, one star per level. The ship above the island sails towards the red space.',
    score: (p) => `${p.vp} VP`,
    playerLines,
    footer: (state) =>
      `bank: ${Object.entries(state.bank).map(([k, n]) => `${k} ${n}`).join(', ')} · progress decks: ` +
      `${Object.entries(state.decks).map(([k, n]) => `${k} ${n}`).join(', ')} · robber on hex ${state.robber}` +
      ` · barbarians ${state.barbarians}/${state.barbarian_spaces}`,
  });
})();
