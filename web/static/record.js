// The table recorder, for any game that says what may happen next (GET /api/games/{id}/next): whose
// decision it is, the kinds of event open to them, and each kind's legal events with their words. A legal
// event the game's drawing can place (its renderer's `placeOf`) is tapped on the board; the others are
// buttons. Nothing is typed and nothing illegal is offered: the rules said what is.
//
// Every entry is kept on the phone (localStorage) until the server has it, sent in order, each naming the
// sequence number it follows (`expected_seq`): an entry made offline waits and is sent when the server
// answers again; an entry another recorder made stale (409) is dropped when it no longer applies, and sent
// again after what was missed when it still does. Nothing is lost and nothing is sent twice.
//
// The page keeps its own copy of the game too, read by the games' rules compiled for the browser
// (`/static/rules.wasm`, crates/browser-rules): the server's log and the entries waiting for it. Each entry
// is judged by it first, so a phone without the network still refuses an illegal entry with the rule's
// words and still shows what may happen next. The server stays the judge of what is stored.
//
// A reload while the server is away opens the page from the service worker's copy (recorder-worker.js)
// and the game from what the phone kept: the log as the server last had it, the entries waiting (each
// with the place in the log it was made for, so that one the server stored before its answer was lost is
// recognised there and never sent twice).
document.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('recorder');
  if (!root) return;
  const id = root.dataset.game;
  const game = Almanac.renderer(root.dataset.ruleset);
  const board = document.getElementById('board');
  const whose = document.getElementById('whose');
  const problem = document.getElementById('problem');
  const waiting = document.getElementById('waiting');
  const choicesBox = document.getElementById('choices');
  const chooser = document.getElementById('chooser');
  const entries = document.getElementById('entries');
  const withdrawButton = document.getElementById('withdraw');
  const ctx = Almanac.context();
  const path = `/api/games/${encodeURIComponent(id)}`;
  const queueKey = `almanac-record:${id}`;
  const logKey = `almanac-record-log:${id}`;
  const summaryKey = `almanac-record-summary:${id}`;
  // The smallest target a finger hits, in CSS pixels (WCAG's 44).
  const TARGET = 44;

  let seq = +root.dataset.seq;
  // The game as the browser's rules hold it (the server's events, then the entries waiting), once loaded.
  let local = null;
  // How many events the browser's game had when it was last shown (-1: the server's answer is shown).
  let shownLocal = -1;
  let recent = [];
  let next = null;
  let layer = null;
  let targets = null;
  let kind = null;
  let sending = false;

  // The entries waiting: each an event and the number of the server's events it was made after.
  const queue = () => JSON.parse(localStorage.getItem(queueKey) || '[]')
    .map((x) => (x && x.event ? x : { event: x, after: null }));
  const keep = (q) => localStorage.setItem(queueKey, JSON.stringify(q));
  // What else the phone keeps for a reload offline; a full storage keeps the page working online.
  const remember = (key, text) => { try { localStorage.setItem(key, text); } catch (_) { localStorage.removeItem(key); } };
  const lineCount = (text) => text.split('\n').filter((l) => l.trim() !== '').length;
  // One event, whatever the order of its fields.
  const canonical = (v) => JSON.stringify(v, (_, x) => (x && typeof x === 'object' && !Array.isArray(x)
    ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x));
  const words = (type) => type.replaceAll('_', ' ');

  async function json(url, options) {
    const r = await fetch(url, options);
    const body = await r.json().catch(() => ({}));
    return { status: r.status, body };
  }

  // What the table sees: the board now, whose decision it is, and the last entries, as the server has them.
  async function refresh() {
    const [state, n, page] = await Promise.all([
      json(`${path}/state`), json(`${path}/next`), json(`${path}/events?from=${Math.max(1, seq - 7)}`),
    ]);
    if (n.status !== 200 || state.status !== 200) throw new Error(n.body.error || state.body.error || 'no answer');
    seq = n.body.seq;
    root.dataset.seq = seq;
    show(state.body, n.body, page.body.events || []);
    shownLocal = -1;
  }

  // The same, as the browser's rules have it with the entries still waiting: while the server is away.
  function showLocal() {
    const n = local.next().ok;
    const rows = local.events(Math.max(1, n.seq - 7)).ok;
    show(local.state().ok, n, rows);
    shownLocal = n.seq;
  }

  function show(state, nextBody, rows) {
    next = nextBody;
    recent = rows;
    // The board drawn again: a board that grows (a grid of tiles) is framed by what lies on it now.
    board.replaceChildren();
    game.drawBoard(board, state, ctx);
    layer = Almanac.svg('g', { class: 'pieces' }, board);
    game.drawState(layer, state, ctx);
    showEntries();
    showChoices();
  }

  // The games' rules in the browser: a WebAssembly module with no glue but this. Text goes in through
  // memory the module gives (`alloc`); each answer is JSON, at the address and length packed in the 64-bit
  // number returned, given back after reading (`free`).
  async function loadRules() {
    const r = await fetch('/static/rules.wasm');
    if (!r.ok) throw new Error(`no rules (${r.status})`);
    const { instance } = await WebAssembly.instantiate(await r.arrayBuffer(), {});
    const x = instance.exports;
    const encoder = new TextEncoder();
    const decoder = new TextDecoder();
    const call = (f, arg) => {
      let packed;
      if (typeof arg === 'string') {
        const bytes = encoder.encode(arg);
        const at = x.alloc(bytes.length);
        new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
        packed = f(at, bytes.length);
      } else {
        packed = arg === undefined ? f() : f(arg);
      }
      const at = Number(packed >> 32n);
      const len = Number(packed & 0xffffffffn);
      const answer = JSON.parse(decoder.decode(new Uint8Array(x.memory.buffer, at, len)));
      x.free(at, len);
      return answer;
    };
    return {
      open: (log) => call(x.open, log),
      push: (line) => call(x.push, line),
      next: () => call(x.next),
      state: () => call(x.state),
      events: (from) => call(x.events, from),
    };
  }

  // The browser's game read again from the server's log, then each entry waiting that still applies: after
  // another recorder's entries, or at the start. What was dropped, in words, to say once it is shown.
  // The server's log, or with the server away the one the phone kept.
  async function resync(why) {
    const r = await fetch(`${path}/log`).catch(() => null);
    let text;
    if (r && r.ok) {
      text = await r.text();
      remember(logKey, text);
    } else if (r && r.status < 500 && r.status !== 429) {
      throw new Error(`no log (${r.status})`);
    } else {
      text = localStorage.getItem(logKey);
      if (text === null) throw new Error('the server is away and this phone kept no log of the game');
    }
    const opened = local.open(text);
    if (opened.error) throw new Error(opened.error);
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const known = lines.length - 1;
    seq = known;
    root.dataset.seq = seq;
    const kept = [];
    const dropped = [];
    for (const { event, after } of queue()) {
      // In the log already at the place it was made for: stored before its answer was lost on the way, or
      // entered the same by another recorder. Never sent again.
      if (after !== null && after < known && canonical(JSON.parse(lines[after + 1])) === canonical(event)) {
        dropped.push(`Already in the game: ${describe(event)}.`);
        continue;
      }
      const a = local.push(JSON.stringify(event));
      if (a.error) dropped.push(`Not entered: ${describe(event)} ${why}: ${a.error}`);
      else kept.push({ event, after: known + kept.length });
    }
    keep(kept);
    return dropped;
  }

  // An entry the server took: the log the phone keeps grows by it (or is dropped when it no longer
  // matches, to be read again when the server answers).
  function stored(event, before) {
    const text = localStorage.getItem(logKey);
    if (text === null) return;
    if (lineCount(text) - 1 === before) remember(logKey, `${text.replace(/\n*$/, '\n')}${JSON.stringify(event)}\n`);
    else localStorage.removeItem(logKey);
  }

  function showEntries() {
    entries.replaceChildren(...recent.slice(-6).map((ev) => {
      const li = document.createElement('li');
      li.dataset.seq = ev.seq;
      li.value = ev.seq; // numbered as the game numbers its entries
      const who = document.createElement('b');
      who.textContent = ev.event.player || '';
      li.append(who, ' ', ev.text);
      // What it derived: what each player received, the points it scored.
      if (ev.production && ev.production.length) li.append(` · ${ev.production.join('; ')}`);
      if (ev.scores && ev.scores.length) li.append(` · ${ev.scores.join(', ')}`);
      if (ev.withdrawn_by) {
        li.classList.add('withdrawn');
        li.append(' · withdrawn');
      }
      if (ev.seq > seq) {
        // Made here, not yet on the server.
        li.classList.add('waiting');
        li.append(' · waits');
      }
      return li;
    }));
    const last = lastInEffect();
    withdrawButton.disabled = !last;
    withdrawButton.textContent = last ? `Withdraw: ${last.event.player || ''} ${last.text}` : 'Withdraw the last entry';
  }

  // The last entry still in effect, and made at most one entry before the last: what may be withdrawn.
  function lastInEffect() {
    const made = recent.filter((ev) => !ev.withdraws);
    const last = [...made].reverse().find((ev) => !ev.withdrawn_by);
    if (!last) return null;
    return made.filter((ev) => ev.seq > last.seq).length < 2 ? last : null;
  }

  // Whose decision it is, each kind of event as a button; a kind whose events have places shows them on
  // the board when chosen, the others list their events.
  function showChoices() {
    clearTargets();
    chooser.hidden = true;
    choicesBox.replaceChildren();
    const open = next.open || [];
    if (!open.length) {
      whose.textContent = 'Nothing may happen next: the game is over.';
      return;
    }
    whose.textContent = open.map((o) => `${o.player}: ${o.types.map(words).join(', ')}`).join(' · ');
    for (const o of open) {
      const group = document.createElement('div');
      group.className = 'decision';
      const name = document.createElement('h2');
      name.textContent = o.player;
      name.style.color = ctx.inkOf(o.player);
      group.append(name);
      for (const type of o.types) {
        const listed = (o.choices || []).find((c) => c.type === type);
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'kind';
        b.dataset.kind = type;
        b.dataset.player = o.player;
        b.textContent = words(type);
        if (!listed) {
          // Open by the rules, but what it holds is the table's to say in a way this page cannot ask yet.
          b.disabled = true;
          b.title = 'Open, but entered through the API for now';
        } else {
          b.addEventListener('click', () => choose(o, listed));
        }
        group.append(b);
      }
      choicesBox.append(group);
    }
    // One decision of one kind (a settlement in the setup, the robber, one player's discard): its places or
    // its form are shown at once.
    const only = open.length === 1 && open[0].types.length === 1 && (open[0].choices || [])[0];
    if (only && ((only.events || []).length > 1 || (only.forms || []).length)) choose(open[0], only);
  }

  // A kind chosen: one event is entered at once; events with places are targets on the board; the rest a
  // list to pick from.
  function choose(open, listed) {
    problem.hidden = true;
    kind = listed.type;
    for (const b of choicesBox.querySelectorAll('button.kind')) {
      b.setAttribute('aria-pressed', b.dataset.kind === kind && b.dataset.player === open.player ? 'true' : 'false');
    }
    const events = (listed.events || []).map((c) => ({ ...c, event: JSON.parse(c.line) }));
    if ((listed.forms || []).length && events.length) {
      // Events a tap enters whole, and forms for the rest (the bank's rate, or several cards at once).
      pick(events, `${open.player}: ${words(kind)}`, () => listed.forms.map((form) => formButton(open, form)));
      return;
    }
    if ((listed.forms || []).length) {
      // Cards to count out (a trade's, a discard's): the form, or first which of them (with whom).
      const forms = listed.forms;
      if (forms.length === 1) fill(open, forms[0]);
      else pickForm(open, forms);
      return;
    }
    if (events.length === 1) {
      enter(events[0].event);
      return;
    }
    const placed = game.placeOf ? events.filter((c) => game.placeOf(c.event, ctx)) : [];
    if (placed.length === events.length) showTargets(events);
    else pick(events, `${open.player}: ${words(kind)}`);
  }

  // Several events: a list of their words to tap.
  function pick(events, title, more = () => []) {
    chooser.replaceChildren();
    const h = document.createElement('h2');
    h.textContent = title;
    chooser.append(h);
    for (const c of events) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'choice';
      b.dataset.line = c.line;
      b.textContent = c.words;
      b.addEventListener('click', () => enter(c.event));
      chooser.append(b);
    }
    chooser.append(...more());
    const cancel = document.createElement('button');
    cancel.type = 'button';
    cancel.className = 'cancel';
    cancel.textContent = 'Cancel';
    cancel.addEventListener('click', () => { chooser.hidden = true; });
    chooser.append(cancel);
    chooser.hidden = false;
  }

  function heading(text) {
    const h = document.createElement('h2');
    h.textContent = text;
    return h;
  }

  function button(className, text, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = className;
    b.textContent = text;
    b.addEventListener('click', onClick);
    return b;
  }

  function cancelButton() {
    return button('cancel', 'Cancel', () => { chooser.hidden = true; });
  }

  // Several forms of one kind (a trade with each other player): which one.
  function pickForm(open, forms) {
    chooser.replaceChildren(heading(`${open.player}: ${words(kind)}`));
    chooser.append(...forms.map((form) => formButton(open, form)), cancelButton());
    chooser.hidden = false;
  }

  function formButton(open, form) {
    const b = button('form', form.words, () => fill(open, form));
    b.dataset.line = form.line;
    // The fields the form's picks set, which its line holds only as a placeholder.
    b.dataset.picked = JSON.stringify([...new Set((form.picks || []).flatMap((p) => p.options.flatMap((o) => Object.keys(JSON.parse(o.set)))))]);
    return b;
  }

  // A pick's option laid over a line (almanac_core::next::Pick): a field set, null taking it away, a list
  // joined to the list there, an object laid over the object there.
  function lay(into, set) {
    for (const [k, v] of Object.entries(set)) {
      if (v === null) delete into[k];
      else if (Array.isArray(into[k]) && Array.isArray(v)) into[k] = [...into[k], ...v];
      else if (into[k] && typeof into[k] === 'object' && v && typeof v === 'object' && !Array.isArray(v)) lay(into[k], v);
      else into[k] = v;
    }
  }

  // A form: first what the table picks (whom, which card, what comes after), one option of each, then
  // each field's cards counted with a stepper (− and +, a finger's size), each card up to what the rules
  // allow; entered when every pick is made and every field holds between its least and most cards.
  function fill(open, form) {
    const counted = form.counts.map((count) => ({ count, cards: Object.fromEntries(count.cards.map((c) => [c.card, c.least])) }));
    const picks = (form.picks || []).map((pick) => ({ pick, chosen: pick.options.length === 1 ? 0 : null }));
    chooser.replaceChildren(heading(`${open.player}: ${form.words}`));
    const enterButton = button('enter-form', 'Enter', () => {
      const event = JSON.parse(form.line);
      for (const { pick, chosen } of picks) lay(event, JSON.parse(pick.options[chosen].set));
      for (const { count, cards } of counted) {
        event[count.field] = Object.fromEntries(Object.entries(cards).filter(([, n]) => n > 0));
      }
      enter(event);
    });
    picks.forEach((entry, i) => {
      const group = document.createElement('fieldset');
      group.className = 'pick';
      group.dataset.pick = i;
      const legend = document.createElement('legend');
      legend.textContent = entry.pick.words;
      group.append(legend);
      const options = entry.pick.options.map((o, k) => {
        const b = button('pick-option', o.words, () => {
          entry.chosen = k;
          options.forEach((x, j) => x.setAttribute('aria-pressed', String(j === k)));
          check();
        });
        b.dataset.set = o.set;
        b.setAttribute('aria-pressed', String(entry.chosen === k));
        return b;
      });
      group.append(...options);
      chooser.append(group);
    });
    const check = () => {
      let ok = picks.every((p) => p.chosen !== null);
      for (const { count, cards, total } of counted) {
        const n = Object.values(cards).reduce((a, b) => a + b, 0);
        total.textContent = count.least === count.most ? `${n} of ${count.most}` : `${n}`;
        ok = ok && n >= count.least && n <= count.most;
      }
      enterButton.disabled = !ok;
    };
    for (const entry of counted) {
      const { count, cards } = entry;
      const group = document.createElement('fieldset');
      group.className = 'count';
      const legend = document.createElement('legend');
      entry.total = document.createElement('output');
      legend.append(`${count.words} `, entry.total);
      group.append(legend);
      for (const { card, least, most } of count.cards) {
        if (most === 0) continue;
        const row = document.createElement('div');
        row.className = 'stepper';
        const value = document.createElement('output');
        value.textContent = least;
        const step = (by) => {
          const n = cards[card] + by;
          if (n < least || n > most) return;
          cards[card] = n;
          value.textContent = n;
          less.disabled = n === least;
          more.disabled = n === most;
          check();
        };
        const less = button('step', '−', () => step(-1));
        const more = button('step', '+', () => step(1));
        for (const [b, by, say] of [[less, '-1', 'one less'], [more, '+1', 'one more']]) {
          b.dataset.field = count.field;
          b.dataset.card = card;
          b.dataset.step = by;
          b.setAttribute('aria-label', `${count.words}: ${say} ${card}`);
        }
        less.disabled = least === most || cards[card] === least;
        more.disabled = least === most;
        const name = document.createElement('span');
        name.textContent = card;
        row.append(name, less, value, more);
        group.append(row);
      }
      chooser.append(group);
    }
    chooser.append(enterButton, cancelButton());
    check();
    chooser.hidden = false;
  }

  // The places of the chosen kind on the board, each a disc a finger hits (44 px across at least); a tap
  // takes the nearest place, and a place with several events (a robber and whom it robs) lists them.
  function showTargets(events) {
    clearTargets();
    const places = new Map();
    for (const c of events) {
      const at = game.placeOf(c.event, ctx);
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
  }

  function clearTargets() {
    if (targets) targets.remove();
    targets = null;
  }

  board.addEventListener('click', (e) => {
    if (!targets) return;
    const point = board.createSVGPoint();
    point.x = e.clientX;
    point.y = e.clientY;
    const at = point.matrixTransform(board.getScreenCTM().inverse());
    let best = null;
    for (const disc of targets.querySelectorAll('circle.target')) {
      const d = Math.hypot(disc.cx.baseVal.value - at.x, disc.cy.baseVal.value - at.y);
      if (d <= disc.r.baseVal.value && (!best || d < best.d)) best = { d, disc };
    }
    if (!best) return;
    const events = best.disc.placeEvents;
    if (events.length === 1) enter(events[0].event);
    else pick(events, `${words(kind)} here`);
  });

  withdrawButton.addEventListener('click', () => {
    const last = lastInEffect();
    if (last) enter({ type: 'withdraw', seq: last.seq });
  });

  // An entry: judged by the browser's rules (refused at once, with the rule's words, when they refuse it),
  // kept on the phone, then sent.
  function enter(event) {
    clearTargets();
    chooser.hidden = true;
    problem.hidden = true;
    if (local) {
      const a = local.push(JSON.stringify(event));
      if (a.error) {
        say(a.error);
        return;
      }
    }
    const q = queue();
    q.push({ event, after: seq + q.length });
    keep(q);
    flush();
  }

  // The server does not answer: the entries wait, the table goes on with the browser's rules.
  function away() {
    root.dataset.offline = 'yes';
    // Shown again only when an entry moved the game on: a retry leaves what the table has open alone.
    if (local && local.next().ok.seq !== shownLocal) showLocal();
    setTimeout(flush, 1000);
  }

  function showWaiting() {
    const n = queue().length;
    waiting.hidden = n === 0;
    waiting.textContent = n === 0 ? '' : `${n} ${n === 1 ? 'entry waits' : 'entries wait'} for the server`;
    root.dataset.waiting = n;
  }

  // Sends the kept entries in order, one at a time, each after the last the server has.
  async function flush() {
    showWaiting();
    if (sending) return;
    sending = true;
    root.dataset.sending = 'yes';
    let sent = 0;
    try {
      while (queue().length) {
        const [{ event }] = queue();
        let r;
        try {
          r = await json(`${path}/events`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ expected_seq: seq, events: [event] }),
          });
        } catch (_) {
          // No answer: the entries wait, and are sent when the server answers again.
          away();
          return;
        }
        root.dataset.offline = 'no';
        if (r.status === 200) {
          keep(queue().slice(1));
          stored(event, seq);
          seq = r.body.seq;
          sent += 1;
        } else if (r.status === 409) {
          // Another recorder was first: see what it entered, and keep this entry only if it still applies.
          if (local) {
            const dropped = await resync('no longer applies after what the other recorder entered');
            await refresh();
            if (dropped.length) say(dropped.join(' '));
          } else {
            await refresh();
            if (!stillOpen(event)) {
              keep(queue().slice(1));
              say(`Not entered: ${describe(event)} no longer applies after what the other recorder entered.`);
            }
          }
          continue;
        } else if (r.status >= 500 || r.status === 429 || r.status === 0) {
          away();
          return;
        } else {
          // Refused by the rules (or the request): stored nothing; the words say why. The browser's game
          // follows the server's again.
          keep(queue().slice(1));
          say(r.body.error || `refused (${r.status})`);
          if (local) {
            const dropped = await resync('follows an entry the server refused');
            if (dropped.length) say(`${r.body.error || ''} ${dropped.join(' ')}`);
          }
          sent += 1;
        }
        showWaiting();
      }
      // What the entries did, and what may happen next now (nothing to ask again when nothing was sent).
      if (sent) await refresh();
    } catch (e) {
      // Kept where a developer (or a test) looks: what stopped the sending.
      root.dataset.fault = String(e && e.stack || e);
      away();
      return;
    } finally {
      sending = false;
      showWaiting();
    }
    root.dataset.synced = seq;
    root.dataset.sending = 'no';
  }

  function say(text) {
    problem.textContent = text;
    problem.hidden = false;
  }

  const describe = (event) => `${event.player || ''} ${words(event.type)}`.trim();

  // Whether an entry is still among what may happen next (its line, or a withdrawal of an entry still
  // withdrawable).
  function stillOpen(event) {
    if (event.type === 'withdraw') {
      const last = lastInEffect();
      return !!last && last.seq === event.seq;
    }
    const line = JSON.stringify(event);
    return (next.open || []).some((o) => (o.choices || []).some((c) =>
      (c.events || []).some((e) => e.line === line) || (c.forms || []).some((f) => filledFrom(f, event))));
  }

  // Whether `event` is form `form` filled: the same in every field the form does not count.
  function filledFrom(form, event) {
    const fixed = JSON.parse(form.line);
    const counted = new Set(form.counts.map((c) => c.field));
    const keys = new Set([...Object.keys(fixed), ...Object.keys(event)]);
    return [...keys].every((k) => counted.has(k) || JSON.stringify(fixed[k]) === JSON.stringify(event[k]));
  }

  window.addEventListener('online', flush);
  // Signing out clears what this phone kept, and waits while entries wait: `session.js`, on every signed-in
  // page.

  // The page and its files kept for a reload offline (the worker renews them whenever they are fetched).
  async function keepForOffline() {
    if (!('serviceWorker' in navigator) || !window.caches) return;
    await navigator.serviceWorker.register('/recorder-worker.js', { scope: '/games/' });
    const files = [location.pathname, '/static/rules.wasm',
      ...[...document.scripts].map((e) => e.src).filter((src) => src),
      ...[...document.querySelectorAll('link[rel="stylesheet"]')].map((e) => e.href)];
    const kept = await caches.open('almanac-recorder-1');
    await kept.addAll(files.filter((f) => new URL(f, location.href).pathname.match(/^\/(static\/|games\/)/)));
    root.dataset.kept = 'yes';
  }

  async function start() {
    // The game's players and their colours: from the server, or as the phone kept them.
    const summary = await json(path).catch(() => null);
    if (summary && summary.status === 200) remember(summaryKey, JSON.stringify(summary.body));
    else if (summary && summary.status < 500) throw new Error(summary.body.error || `no game (${summary.status})`);
    const players = summary && summary.status === 200 ? summary.body : JSON.parse(localStorage.getItem(summaryKey));
    if (!players) throw new Error('the server is away and this phone kept nothing of the game');
    ctx.fill(players);
    // Without the browser's rules (a browser without WebAssembly) the page still records while online.
    let dropped = [];
    try {
      local = await loadRules();
      dropped = await resync('does not apply to the game as the server has it');
      root.dataset.rules = 'yes';
    } catch (_) {
      local = null;
      root.dataset.rules = 'no';
    }
    try {
      await refresh();
    } catch (e) {
      // The server away: the browser's game shows the table, and the entries wait.
      if (!local) throw e;
      root.dataset.offline = 'yes';
      showLocal();
    }
    if (dropped.length) say(dropped.join(' '));
    root.dataset.ready = 'yes';
    flush();
    keepForOffline().catch(() => { root.dataset.kept = 'no'; });
  }
  start().catch(() => {
    whose.textContent = 'The server does not answer: entries made now wait on this phone.';
    root.dataset.ready = 'offline';
  });
});
