// The replay, for any game: the event list in sync, keyboard stepping, a turn slider, deep links (?turn=N
// or ?seq=N) and charts whose turns are clickable. What is drawn belongs to the game: its crate serves a
// script (/static/rulesets/<id>.js) that calls Almanac.register(id, renderer) with
//   drawBoard(svg, state, ctx)        the parts that never move (given the final state), and the viewBox;
//   drawState(layer, state, ctx)      the pieces after an event, into an emptied layer;
//   score(player)                     the score as shown beside a name;
//   playerLines(player, state, ctx)   [{text, className}] under a player's name;
//   footer(state, ctx)                a line under the players (bank, pack ...);
//   eventClass(event)                 optional: a class for an event's line;
//   notation                          optional: how the event list names places, in words;
//   placeOf(event, ctx)               optional: where on the board an event happened, as {x, y, r} in the
//                                     board's coordinates (the replay rings it, and an event's line points
//                                     at it on hover and focus).
// Every board zooms (buttons, a pinch; a drag pans it when zoomed) and steps on a swipe across it.
// `ctx` gives a drawing the header, `svg` and `text`, `colorOf(name)` and `inkOf(name)` (a player's colour,
// and the same made readable as text), `inkOn(colour)` (text on that fill), and `itemColor(id)` (an item's declared colour): all from the game's
// summary, so that the replay draws what the charts draw. A game's numbers (costs, points, marks) come from
// its state, never written again here.
// `Almanac.count(n, 'card')` says a number with its word ("1 card", "2 cards").
// Every name from an upload is written with textContent or as an SVG text node, never as markup.
window.Almanac = (() => {
  const renderers = {};
  const NS = 'http://www.w3.org/2000/svg';
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
  // "1 card", "2 cards": a number with its word, for people.
  const count = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

  const luminance = (hex) => {
    const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const contrast = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const readable = (hex) => {
    let [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const css = () => '#' + [r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
    while (contrast(css(), '#dce8fa') < 4.6 && r + g + b > 0) [r, g, b] = [r * 0.9, g * 0.9, b * 0.9];
    return css();
  };

  // What a game's drawing may use: the header, shapes, each player's colour and the game's items (their
  // words and colours), all from the game's summary (`fill`): the server's one table of colours, the game's
  // own declarations. The replay and the recorder draw with one.
  const context = () => {
    const ctx = {
      header: null,
      colours: [],
      items: {},
      svg,
      text,
      fill(summary) {
        ctx.header = summary.header;
        ctx.colours = summary.colours || [];
        for (const item of summary.items || []) ctx.items[item.id] = item;
      },
      colorOf(name) {
        const i = ctx.header.players.findIndex((p) => p.name === name);
        return ctx.colours[Math.max(i, 0)] || '#777777';
      },
      itemColor(id) {
        return (ctx.items[id] && ctx.items[id].color) || '#9e9e9e';
      },
      // For text: the player's colour darkened until it reads on the event list's lightest and current-row
      // backgrounds (WCAG's 4.5:1).
      inkOf(name) {
        return readable(ctx.colorOf(name));
      },
      // Text drawn on a fill of this colour: white or near-black, whichever reads better.
      inkOn(hex) {
        return contrast(hex, '#ffffff') >= contrast(hex, '#111111') ? '#ffffff' : '#111111';
      },
    };
    return ctx;
  };
  return {
    register: (id, renderer) => { renderers[id] = renderer; },
    renderer: (id) => renderers[id],
    svg, text, count, context,
  };
})();

document.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('replay');
  if (!root) return;
  const id = root.dataset.game;
  const game = Almanac.renderer(root.dataset.ruleset);
  const board = document.getElementById('board');
  const list = document.getElementById('events');
  const slider = document.getElementById('turn-slider');
  const turnLabel = document.getElementById('turn-label');
  const position = document.getElementById('position');
  const playersBox = document.getElementById('players');
  // On a phone: the event shown and its neighbours, under the board.
  const now = document.getElementById('now');
  const api = (path) =>
    fetch(`/api/games/${encodeURIComponent(id)}${path}`).then((r) => (r.ok ? r.json() : Promise.reject(r.status)));

  // Every event, page by page (the server sends a page at a time and says where the next one starts).
  async function allEvents() {
    const all = [];
    let from = 1;
    while (from) {
      const page = await api(`/events?from=${from}`);
      all.push(...page.events);
      from = page.next;
    }
    return all;
  }

  let events = [];
  let seq = 0;
  // Each seat's chance to win after every event, and the events that moved them most (null: no model).
  let chances = null;
  // Each seat's player across games, by name (from the game's summary).
  const players = {};
  // The names of the seats programs played (bots).
  const bots = new Set();
  const states = new Map();
  let layer = null;

  // What a game's drawing may use (see Almanac.context), filled from the game's summary at the start.
  const ctx = Almanac.context();

  // How long an entry took to make: from the entry before it to this one, where both say when they were
  // made (`time`, which the table recorder writes). A gap longer than PAUSE is a pause, not a think.
  const PAUSE = 10 * 60 * 1000;
  const timeOf = (ev) => (ev && ev.event && typeof ev.event.time === 'string' ? Date.parse(ev.event.time) : NaN);
  function took(k) {
    const [a, b] = [timeOf(events[k - 1]), timeOf(events[k])];
    return Number.isFinite(a) && Number.isFinite(b) && b >= a ? b - a : null;
  }
  function duration(ms) {
    const s = Math.round(ms / 1000);
    if (s < 60) return `${s} s`;
    if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
    return `${Math.floor(s / 3600)} h ${String(Math.floor(s / 60) % 60).padStart(2, '0')} min`;
  }

  // The time at the table, where the entries say when they were made: each player's time per turn (their
  // entries' time over the turns they made entries in) and the longest thinks, each a link to its entry.
  function fillTimes() {
    let box = document.getElementById('times');
    const per = new Map();
    const thinks = [];
    let pauses = 0;
    for (let k = 1; k < events.length; k += 1) {
      const ms = took(k);
      const ev = events[k];
      if (ms === null || !ev.event.player || ev.withdraws || ev.withdrawn_by) continue;
      if (ms > PAUSE) { pauses += 1; continue; }
      const p = per.get(ev.event.player) || { ms: 0, turns: new Set() };
      p.ms += ms;
      p.turns.add(ev.turn);
      per.set(ev.event.player, p);
      thinks.push({ ms, ev });
    }
    if (!per.size) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = document.createElement('section');
      box.id = 'times';
      box.className = 'times';
      list.after(box);
    }
    const h = document.createElement('h2');
    h.textContent = 'Time at the table';
    const rows = document.createElement('ul');
    for (const [name, p] of per) {
      const li = document.createElement('li');
      const who = document.createElement('b');
      who.textContent = name;
      li.append(who, ` ${duration(p.ms / p.turns.size)} a turn (${duration(p.ms)} over ${p.turns.size} ${p.turns.size === 1 ? 'turn' : 'turns'})`);
      rows.append(li);
    }
    const longest = document.createElement('p');
    longest.append('Longest thinks: ');
    thinks.sort((a, b) => b.ms - a.ms).slice(0, 3).forEach(({ ms, ev }, i) => {
      if (i) longest.append(' · ');
      const a = document.createElement('a');
      a.href = `?seq=${ev.seq}`;
      a.className = 'think';
      a.dataset.seq = ev.seq;
      a.textContent = `${ev.event.player} ${duration(ms)} (turn ${ev.turn}, ${ev.text})`;
      a.addEventListener('click', (e) => { e.preventDefault(); go(ev.seq, true); });
      longest.append(a);
    });
    const note = document.createElement('p');
    note.className = 'hint';
    note.textContent = `From when each entry was made, as the table's recorder noted it.${pauses ? ` ${pauses} ${pauses === 1 ? 'pause' : 'pauses'} of more than 10 minutes left out.` : ''}`;
    box.replaceChildren(h, rows, longest, note);
  }

  function fillEvents() {
    const frag = document.createDocumentFragment();
    const start = document.createElement('li');
    start.dataset.seq = 0;
    start.textContent = 'Start of the game';
    frag.appendChild(start);
    for (const [k, ev] of events.entries()) {
      const li = document.createElement('li');
      li.dataset.seq = ev.seq;
      const turn = document.createElement('span');
      turn.className = 'turn';
      turn.textContent = `T${ev.turn}`;
      const who = document.createElement('b');
      who.textContent = ev.event.player || '';
      who.style.color = ctx.inkOf(ev.event.player);
      li.append(turn, ' ', who, ' ', ev.text);
      // A key moment (a 7, an award changing hands, a battle...) is marked, as on the score chart.
      if (ev.moments && ev.moments.length) {
        li.classList.add('key');
        const key = document.createElement('span');
        key.className = 'moments';
        key.textContent = ` · ★ ${ev.moments.join(', ')}`;
        li.append(key);
      }
      if (ev.scores && ev.scores.length) {
        const scored = document.createElement('span');
        scored.className = 'scores';
        scored.textContent = ` · ${ev.scores.join(', ')}`;
        li.append(scored);
      }
      // A withdrawn entry stays in the list (the log is append-only), struck through, and says what took it
      // back; it counts nowhere.
      if (ev.withdrawn_by) {
        li.classList.add('withdrawn');
        const by = document.createElement('span');
        by.className = 'withdrawn-by';
        by.textContent = ` · withdrawn (event ${ev.withdrawn_by})`;
        li.append(by);
      }
      if (ev.withdraws) li.classList.add('withdrawal');
      const ms = took(k);
      if (ms !== null) {
        const t = document.createElement('span');
        t.className = 'took';
        t.textContent = ` · ${duration(ms)}`;
        li.append(t);
      }
      const extra = game.eventClass && game.eventClass(ev.event);
      if (extra) li.classList.add(extra);
      if (game.placeOf && game.placeOf(ev.event, ctx)) li.classList.add('placed');
      frag.appendChild(li);
    }
    list.replaceChildren(frag);
    fillTimes();
  }

  // A player's card: colour, name and score, then the lines of its game.
  function fillPlayers(state) {
    const frag = document.createDocumentFragment();
    for (const p of state.players) {
      const card = document.createElement('div');
      card.className = 'player' + (state.active === p.name && !state.winner ? ' active' : '') + (state.winner === p.name ? ' winner' : '');
      const head = document.createElement('div');
      head.className = 'head';
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = ctx.colorOf(p.name);
      // The name links to the player's page, across games.
      const page = players[p.name];
      const name = document.createElement(page ? 'a' : 'span');
      name.className = 'name';
      name.textContent = p.name;
      if (page) name.href = `/players/${page}`;
      const vp = document.createElement('span');
      vp.className = 'vp';
      vp.textContent = game.score(p);
      head.append(swatch, name);
      // A program's seat, as the record says.
      if (bots.has(p.name)) {
        const bot = document.createElement('span');
        bot.className = 'bot';
        bot.textContent = 'bot';
        head.append(bot);
      }
      // The seat's chance to win at the event shown, where the ruleset has a model.
      const seat = state.players.indexOf(p);
      if (chances && !chances.by_event[seq] && chances.withheld && seq < chances.withheld.until) {
        // A position the model never saw (a half-built set-up): no number, and why.
        const none = document.createElement('span');
        none.className = 'chance withheld';
        none.textContent = 'no chance yet';
        none.title = chances.withheld.why;
        head.append(none);
      } else if (chances && chances.by_event[seq]) {
        const chance = document.createElement('span');
        chance.className = 'chance';
        const spread = chances.spread && chances.spread[seq] ? chances.spread[seq][seat] : null;
        // The chance with its spread where the games behind the model leave one (± a standard error).
        chance.textContent = `${Math.round(chances.by_event[seq][seat] * 100)}%` +
          (spread >= 0.005 ? ` ±${Math.round(spread * 100)}` : '');
        chance.title = `chance to win here, by a model of ${chances.model.games} games` +
          (spread >= 0.005 ? `; give or take ${Math.round(spread * 100)} points (one standard error)` : '');
        head.append(chance);
      }
      head.append(vp);
      card.append(head);
      for (const line of game.playerLines(p, state, ctx)) {
        const div = document.createElement('div');
        div.className = line.className;
        div.textContent = line.text;
        card.append(div);
      }
      frag.appendChild(card);
    }
    const footer = document.createElement('div');
    footer.className = 'bank';
    footer.textContent = game.footer(state, ctx);
    frag.appendChild(footer);
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
      follow(li);
    }
    showNow(s);
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
    if (seq !== s) return; // a later step came first
    layer.replaceChildren();
    game.drawState(layer, state, ctx);
    // Where the last event happened.
    mark(s > 0 ? events[s - 1].event : null, 'last-event');
    showBetter(s);
    fillPlayers(state);
    root.dataset.shown = s;
  }

  // Scrolls the list, never the page, so that its current row is in the list's box: to the middle when it
  // was out of sight, as a move list follows the game.
  function follow(li) {
    const box = list.getBoundingClientRect();
    const row = li.getBoundingClientRect();
    if (box.height === 0) return;
    if (row.top < box.top || row.bottom > box.bottom) {
      list.scrollTop += row.top - box.top - (box.height - row.height) / 2;
    }
  }

  // The strip under a phone's board: the event before (a tap steps back), the event shown, the event after
  // (a tap steps on).
  function showNow(s) {
    if (!now) return;
    const line = (k, className) => {
      const div = document.createElement('div');
      div.className = className;
      const source = list.querySelector(`li[data-seq="${k}"]`);
      if (source) {
        for (const part of source.childNodes) if (!(part.classList && part.classList.contains('note'))) div.append(part.cloneNode(true));
      }
      div.dataset.seq = k;
      return div;
    };
    const parts = [];
    parts.push(s > 0 ? line(s - 1, 'before') : Object.assign(document.createElement('div'), { className: 'before' }));
    parts.push(line(s, 'current'));
    parts.push(s < events.length ? line(s + 1, 'after') : Object.assign(document.createElement('div'), { className: 'after' }));
    now.replaceChildren(...parts);
  }

  // Rings the place of an event on the board (the last event's, or one pointed at in the list).
  let pointer = null;
  function mark(event, className) {
    const place = event && game.placeOf ? game.placeOf(event, ctx) : null;
    if (className === 'pointed') {
      if (pointer) pointer.remove();
      pointer = null;
    }
    if (!place) return;
    const ring = Almanac.svg('circle', { cx: place.x, cy: place.y, r: place.r, class: className }, className === 'pointed' ? board : layer);
    if (className === 'pointed') pointer = ring;
  }
  const eventOf = (li) => (li && +li.dataset.seq > 0 ? events[+li.dataset.seq - 1].event : null);
  list.addEventListener('mouseover', (e) => mark(eventOf(e.target.closest('li')), 'pointed'));
  list.addEventListener('mouseleave', () => mark(null, 'pointed'));
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
    // A link to an event of this game (the coach table's turns to study) steps there without a reload.
    const link = e.target.closest('a[data-seq]');
    if (link) {
      e.preventDefault();
      go(+link.dataset.seq);
      boardInView();
      return;
    }
    const note = e.target.closest('.note-mark');
    const target = e.target.closest('.turn-target');
    const item = e.target.closest('#events li, #now div[data-seq]');
    if (note || target) {
      if (note) go(+note.dataset.seq); else goTurn(+target.dataset.turn);
      boardInView();
    } else if (item) go(+item.dataset.seq);
    if (!e.target.closest('input')) root.focus({ preventScroll: true });
  });
  // After a jump from a chart the board is where the reader looks: back in view if it left. (Beside the
  // charts it is sticky, but only as far as the end of its column.)
  function boardInView() {
    const r = board.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= innerHeight) return;
    if (getComputedStyle(board.closest('.board-wrap')).position === 'sticky') window.scrollBy(0, r.top - 8);
    else board.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }

  document.getElementById('first').addEventListener('click', () => go(0));
  document.getElementById('prev').addEventListener('click', () => go(seq - 1));
  document.getElementById('next').addEventListener('click', () => go(seq + 1));
  document.getElementById('last').addEventListener('click', () => go(events.length));
  slider.addEventListener('input', () => goTurn(+slider.value));
  slider.addEventListener('change', () => root.focus({ preventScroll: true }));

  // Zoom buttons over the board, a pinch, and panning by dragging it when zoomed; at the whole board a
  // swipe across it steps (to the left: on, as a page turns) and the page scrolls as usual.
  const zoom = { level: 1, set: null };
  function zoomControls() {
    const [x0, y0, w0, h0] = board.getAttribute('viewBox').split(' ').map(Number);
    let cx = x0 + w0 / 2, cy = y0 + h0 / 2;
    const show = () => {
      const w = w0 / zoom.level, h = h0 / zoom.level;
      // Kept over the board: a pan stops at its edges.
      cx = Math.max(x0 + w / 2, Math.min(x0 + w0 - w / 2, cx));
      cy = Math.max(y0 + h / 2, Math.min(y0 + h0 - h / 2, cy));
      board.setAttribute('viewBox', `${cx - w / 2} ${cy - h / 2} ${w} ${h}`);
      board.style.touchAction = zoom.level > 1 ? 'none' : 'pan-y';
      board.dataset.zoom = zoom.level.toFixed(2);
    };
    zoom.set = (level) => { zoom.level = Math.max(1, Math.min(level, 12)); show(); };
    const bar = document.createElement('div');
    bar.className = 'zoom';
    for (const [label, name, act] of [['+', 'Zoom in', () => zoom.set(zoom.level * 1.5)],
      ['−', 'Zoom out', () => zoom.set(zoom.level / 1.5)],
      ['⤢', 'The whole board', () => { cx = x0 + w0 / 2; cy = y0 + h0 / 2; zoom.set(1); }]]) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.setAttribute('aria-label', name);
      b.title = name;
      b.addEventListener('click', act);
      bar.append(b);
    }
    document.querySelector('.board-tools').append(bar);
    const pointers = new Map();
    let swipe = null, pinch = null;
    board.addEventListener('pointerdown', (e) => {
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      board.setPointerCapture(e.pointerId);
      swipe = pointers.size === 1 ? [e.clientX, e.clientY] : null;
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { distance: Math.hypot(a[0] - b[0], a[1] - b[1]), level: zoom.level };
      }
    });
    const up = (e) => {
      // A cancelled pointer (the page took the gesture to scroll) steps nothing.
      if (e.type === 'pointerup' && swipe && zoom.level === 1 && pointers.size === 1) {
        const dx = e.clientX - swipe[0], dy = e.clientY - swipe[1];
        if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) go(seq + (dx < 0 ? 1 : -1));
      }
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 0) swipe = null;
    };
    board.addEventListener('pointerup', up);
    board.addEventListener('pointercancel', up);
    board.addEventListener('pointermove', (e) => {
      const last = pointers.get(e.pointerId);
      if (!last) return;
      pointers.set(e.pointerId, [e.clientX, e.clientY]);
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        zoom.set(pinch.level * Math.hypot(a[0] - b[0], a[1] - b[1]) / Math.max(pinch.distance, 1));
        swipe = null;
      } else if (zoom.level > 1 && pointers.size === 1) {
        const scale = w0 / zoom.level / board.clientWidth;
        cx -= (e.clientX - last[0]) * scale;
        cy -= (e.clientY - last[1]) * scale;
        show();
      }
    });
    show();
  }

  // Coaches' notes: each under the event it follows, with a link that opens the replay there.
  async function showNotes() {
    let notes = [];
    try {
      notes = await api('/notes');
    } catch (_) {
      return;
    }
    for (const old of list.querySelectorAll('.note')) old.remove();
    notesShown = notes;
    markNotes();
    for (const n of notes) {
      const li = list.querySelector(`li[data-seq="${n.seq}"]`);
      if (!li) continue;
      const note = document.createElement('div');
      note.className = 'note';
      note.id = `note-${n.id}`;
      note.textContent = `✎ ${n.club}: ${n.text} `;
      const link = document.createElement('a');
      link.href = `?seq=${n.seq}#note-${n.id}`;
      link.textContent = 'link';
      link.addEventListener('click', (e) => e.stopPropagation());
      note.append(link);
      li.append(note);
    }
  }

  // The owning club's form for a note on the event shown (the page has it only for them).
  function noteForm() {
    const form = document.getElementById('note-form');
    if (!form) return;
    form.hidden = false;
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const text = form.elements.text.value;
      const r = await fetch(`/api/games/${encodeURIComponent(id)}/notes`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ seq, text }),
      });
      const status = document.getElementById('note-status');
      if (r.ok) {
        form.elements.text.value = '';
        status.textContent = 'Note added.';
        await showNotes();
      } else {
        status.textContent = (await r.json()).error || 'The note was not added.';
      }
    });
  }

  // A coach's note marked on each chart with turns, at its event's turn: its words on hover, a click opens it.
  let notesShown = [];
  function markNotes() {
    for (const old of document.querySelectorAll('.note-mark')) old.remove();
    for (const n of notesShown) {
      const turn = turnAt(Math.min(n.seq, events.length));
      for (const target of document.querySelectorAll(`figure.chart .turn-target[data-turn="${turn}"]`)) {
        const x = +target.getAttribute('x') + +target.getAttribute('width') / 2;
        const y = +target.getAttribute('y') + 7;
        const mark = Almanac.svg('circle', { cx: x, cy: y, r: 6, class: 'note-mark', 'data-seq': n.seq }, target.parentNode);
        Almanac.svg('title', {}, mark).textContent = `turn ${turn}, a note by ${n.club}: ${n.text}`;
      }
    }
  }

  async function loadCharts() {
    await Promise.all([...document.querySelectorAll('figure.chart')].map(async (fig) => {
      const r = await fetch(`/api/games/${encodeURIComponent(id)}/charts/${fig.dataset.chart}.svg`);
      // The SVG is made by our server, its text escaped; it is inlined so its turns can be clicked. The
      // <noscript> image (for pages without scripts) goes; a caption (what a model learnt from) stays.
      if (!r.ok) return;
      const caption = fig.querySelector('figcaption');
      fig.innerHTML = await r.text();
      if (caption) fig.append(caption);
    }));
    for (const r of document.querySelectorAll(`.turn-target[data-turn="${turnAt(seq)}"]`)) r.classList.add('current');
    markNotes();
  }

  // Each decision judged, marked in the list as a chess site marks moves (?! an inaccuracy, ? a mistake, ??
  // a blunder; the thresholds are said in the coach table's hint); the best alternative of the current one
  // is drawn on the board, with its words under it. A trade between players is two decisions at one entry:
  // the mover's and the partner's (accepting against declining).
  const decisions = new Map();
  const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
  const percent = (x) => `${Math.round(x * 100)}%`;
  function markDecisions() {
    for (const d of chances.decisions || []) {
      decisions.set(d.seq, [...(decisions.get(d.seq) || []), d]);
      const li = list.querySelector(`li[data-seq="${d.seq}"]`);
      if (!li) continue;
      if (MARKS[d.mark] || !li.dataset.mark) li.dataset.mark = d.mark;
      if (!MARKS[d.mark]) continue;
      const badge = document.createElement('span');
      badge.className = `decision-mark ${d.mark}`;
      badge.textContent = ` ${MARKS[d.mark]} ${d.mark}`;
      badge.title = `${d.player} lost ${d.points.toFixed(1)} (of an even two-player game's points): ${percent(d.chosen)} where ` +
        `${percent(d.best)} was there (${d.best_words})`;
      li.append(badge);
    }
  }
  function showBetter(s) {
    for (const old of board.querySelectorAll('.better-move')) old.remove();
    const said = document.getElementById('better');
    // The costliest marked decision of the entry.
    const d = (decisions.get(s) || []).filter((x) => MARKS[x.mark]).sort((a, b) => b.points - a.points)[0];
    if (!d) {
      said.hidden = true;
      said.textContent = '';
      return;
    }
    said.hidden = false;
    said.textContent = `${MARKS[d.mark]} ${d.mark}: ${d.player} ${d.best_words} instead: ${percent(d.chosen)} → ${percent(d.best)}`;
    let better = null;
    try { better = JSON.parse(d.best_line); } catch (e) { better = null; }
    const place = better && game.placeOf ? game.placeOf(better, ctx) : null;
    if (place) Almanac.svg('circle', { cx: place.x, cy: place.y, r: place.r, class: 'better-move' }, board);
    // What has no place on the board (cards played, given or taken) is drawn as cards beside the words.
    const groups = better && !place && game.pictureOf ? game.pictureOf(better, ctx).filter((g) => g.cards.length) : [];
    if (groups.length) said.append(picture(groups));
  }
  function picture(groups) {
    const shown = document.createElement('span');
    shown.className = 'picture';
    for (const g of groups) {
      const words = document.createElement('span');
      words.className = 'picture-words';
      words.textContent = g.said;
      shown.append(words);
      for (const c of g.cards) {
        const drawn = document.createElement('span');
        drawn.className = 'card';
        drawn.dataset.item = c.item;
        drawn.style.background = c.colour;
        drawn.textContent = c.count == null ? c.item : `${c.count} ${c.item}`;
        shown.append(drawn);
      }
    }
    return shown;
  }

  // The events where a chance moved most, marked in the list as key moments are.
  function markTurningPoints() {
    for (const t of chances.turning_points) {
      const li = list.querySelector(`li[data-seq="${t.seq}"]`);
      if (!li) continue;
      li.classList.add('turning');
      const said = document.createElement('span');
      said.className = 'turning-point';
      said.textContent = ` · ↯ ${t.player}'s chance ${Math.round(t.before * 100)}% → ${Math.round(t.after * 100)}%`;
      li.append(said);
    }
  }

  // A game still being played follows its table: each entry announced (Server-Sent Events) is fetched and
  // listed, the charts drawn again, and a spectator at the end moves on to it.
  function followLive() {
    if (root.dataset.live !== 'yes' || !window.EventSource) return;
    const source = new EventSource(`/api/games/${encodeURIComponent(id)}/stream`);
    let busy = Promise.resolve();
    source.onmessage = (m) => {
      const n = JSON.parse(m.data).seq;
      busy = busy.then(async () => {
        if (n <= events.length) return;
        const atEnd = seq === events.length;
        // From the one before the last known: a withdrawal marks an earlier entry withdrawn.
        let from = Math.max(1, events.length - 1);
        const fresh = [];
        while (from) {
          const page = await api(`/events?from=${from}`);
          fresh.push(...page.events);
          from = page.next;
        }
        if (!fresh.length) return;
        events.splice(fresh[0].seq - 1, events.length, ...fresh);
        for (const k of [...states.keys()]) if (k > fresh[0].seq - 1) states.delete(k);
        slider.max = lastTurn();
        fillEvents();
        await go(atEnd ? events.length : seq, atEnd);
        root.dataset.followed = events.length;
        loadCharts();
      }).catch(() => {});
    };
  }

  async function start() {
    // The coach table's swatches take their player's colour (the page's policy allows no inline style).
    for (const swatch of document.querySelectorAll('[data-colour]')) swatch.style.background = swatch.dataset.colour;
    const [summary, evs] = await Promise.all([api(''), allEvents()]);
    ctx.fill(summary);
    for (const p of summary.players || []) {
      if (p.player) players[p.name] = p.player;
      if (p.bot) bots.add(p.name);
    }
    events = evs;
    slider.max = lastTurn();
    board.replaceChildren();
    game.drawBoard(board, await stateAt(events.length), ctx);
    layer = Almanac.svg('g', { class: 'pieces' }, board);
    if (game.notation) document.getElementById('notation').textContent = game.notation;
    else document.querySelector('details.notation').remove();
    zoomControls();
    fillEvents();
    await showNotes();
    noteForm();
    const params = new URLSearchParams(location.search);
    if (params.has('turn')) await goTurn(+params.get('turn'));
    else await go(params.has('seq') ? +params.get('seq') : 0, params.has('seq'));
    root.focus({ preventScroll: true });
    root.dataset.ready = 'yes';
    if (root.dataset.chances === 'yes') {
      api('/chances').then((c) => {
        chances = c;
        markTurningPoints();
        markDecisions();
        go(seq, false);
        root.dataset.chancesShown = 'yes';
      }).catch(() => {});
    }
    loadCharts().then(() => { root.dataset.charts = 'yes'; });
    followLive();
  }
  start();
});
