// The places a tap enters on the table recorder's drawings: on the board, each place the chosen kind of
// event may take, a disc a finger hits (TARGET px across at least); a place with several events (a robber
// and whom it robs) holds them all. A tap enters the place it hit when it is plain which: inside one disc
// only, and nearer its centre than half its radius. A tap between places (inside two discs, or near a
// disc's edge, where a place the rules refuse may lie) asks first, the places it may mean marked.
//
// `placeOf` gives an event's place on the board (the game's drawing); `entered` is told the event a tap
// plainly means, `ask` the events a tap may mean (and whether it hit one place plainly).

/// The smallest target a finger hits, in CSS pixels (WCAG's 44).
export const TARGET = 44;

export function targetsOn(board, { placeOf, entered, ask }) {
  let targets = null;

  // The places of `events` on the board, with the board brought into view.
  function showTargets(events) {
    clearTargets();
    const places = new Map();
    for (const c of events) {
      const at = placeOf(c.event);
      const key = `${at.x.toFixed(3)},${at.y.toFixed(3)}`;
      if (!places.has(key)) places.set(key, { at, events: [] });
      places.get(key).events.push(c);
    }
    // The frame takes in every place offered (a tile beside the grid lies outside the grid's own frame).
    const vb = board.viewBox.baseVal;
    let [x0, y0, x1, y1] = [vb.x, vb.y, vb.x + vb.width, vb.y + vb.height];
    for (const { at } of places.values()) {
      const r = at.r || 0.5;
      [x0, y0, x1, y1] = [Math.min(x0, at.x - r), Math.min(y0, at.y - r), Math.max(x1, at.x + r), Math.max(y1, at.y + r)];
    }
    board.setAttribute('viewBox', `${x0} ${y0} ${x1 - x0} ${y1 - y0}`);
    const box = board.getBoundingClientRect();
    const scale = Math.min(box.width / (x1 - x0), box.height / (y1 - y0)) || 1;
    const radius = (TARGET / 2 + 1) / scale; // a pixel more than half of 44, for rounding
    targets = Almanac.svg('g', { class: 'targets' }, board);
    for (const place of places.values()) {
      const disc = Almanac.svg('circle', {
        class: 'target', cx: place.at.x, cy: place.at.y, r: Math.max(radius, place.at.r || 0),
      }, targets);
      disc.dataset.lines = JSON.stringify(place.events.map((c) => c.line));
      disc.placeEvents = place.events;
    }
    board.scrollIntoView({ block: 'nearest' });
  }

  function clearTargets() {
    if (targets) targets.remove();
    targets = null;
  }

  // The places a tap between places marked lose their marks (the question it asked was closed).
  function pointedOff() {
    if (targets) for (const d of targets.querySelectorAll('.pointed')) d.classList.remove('pointed');
  }

  // A tap on a drawing with discs (`svg`, the discs in `discs`): the event it plainly means entered, or
  // the question asked.
  function tapped(svg, discs, e) {
    const point = svg.createSVGPoint();
    point.x = e.clientX;
    point.y = e.clientY;
    const at = point.matrixTransform(svg.getScreenCTM().inverse());
    const hit = [...discs.querySelectorAll('circle.target')]
      .map((disc) => ({ disc, d: Math.hypot(disc.cx.baseVal.value - at.x, disc.cy.baseVal.value - at.y) }))
      .filter(({ disc, d }) => d <= disc.r.baseVal.value)
      .sort((a, b) => a.d - b.d);
    if (!hit.length) return;
    const plain = hit.length === 1 && hit[0].d <= hit[0].disc.r.baseVal.value / 2;
    const events = hit.flatMap(({ disc }) => disc.placeEvents);
    if (plain && events.length === 1) {
      entered(events[0]);
      return;
    }
    for (const { disc } of hit) disc.classList.add('pointed');
    ask(events, plain);
  }

  board.addEventListener('click', (e) => {
    if (targets) tapped(board, targets, e);
  });

  return { showTargets, clearTargets, tapped, pointedOff };
}
