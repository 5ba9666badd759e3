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
//
// At a table, with one hand: the events a game gives keys (a roll's total) are a pad in view at the top of
// the turn; whatever a tap opens (a list, a form, a question) opens in a sheet at the bottom of the screen;
// the last entry, with what it derived, stays under whose decision it is. A tap on the board between two
// places, and an entry that ends the game, are asked about once before anything is stored. Every entry
// carries the moment it was made (`time`). Each recorder of a game follows the others over the game's
// stream (`/api/games/{id}/stream`), and an entry another recorder already made, spelt either way, is
// recognised and not stored twice. When the game is over the page shows its end: the standings, the
// points by reason, the win chances where a model exists, and the way to publish and share it.
//
// This module holds what shares one page's state (the game kept, the sheet open, the entries waiting, and
// sending them) through the closures of its `DOMContentLoaded` handler. The parts that stand alone are
// modules in record/: the entries kept on the phone (keeping), the browser's rules (rules), the sheet
// (sheet), a form's picks and counts (form), the board's taps (targets), the end of the game (finish).
import { loadRules } from './record/rules.mjs';
import { keeping, remember, lineCount, canonical } from './record/keeping.mjs';
import { sheet } from './record/sheet.mjs';
import { finishing } from './record/finish.mjs';
import { formParts } from './record/form.mjs';
import { targetsOn, TARGET } from './record/targets.mjs';

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
  const lastEntry = document.getElementById('last');
  const ctx = Almanac.context();
  const path = `/api/games/${encodeURIComponent(id)}`;
  const { queue, keep, logKey, summaryKey } = keeping(id);

  let seq = +root.dataset.seq;
  // The game as the browser's rules hold it (the server's events, then the entries waiting), once loaded.
  let local = null;
  // How many events the browser's game had when it was last shown (-1: the server's answer is shown).
  let shownLocal = -1;
  // What the board and the choices were last drawn from (the state and what may happen next, as JSON): an
  // answer from the server that says the same leaves them alone, and a sheet opened meanwhile stays open.
  let drawn = null;
  let recent = [];
  let next = null;
  let layer = null;
  let kind = null;
  let sending = false;
  const { openSheet, closeSheet, heading, button, cancelButton } = sheet(chooser, () => pointedOff());

  const words = (type) => type.replaceAll('_', ' ');
  // How many of the last entries the page reads: enough to withdraw far back and to show the last few.
  const WINDOW = 40;
  const showFinish = finishing({ root, id, path, json, ctx, say, words });

  async function json(url, options) {
    const r = await fetch(url, options);
    const body = await r.json().catch(() => ({}));
    return { status: r.status, body };
  }

  // What the table sees: the board now, whose decision it is, and the last entries, as the server has them.
  async function refresh() {
    const [state, n, page] = await Promise.all([
      json(`${path}/state`), json(`${path}/next`), json(`${path}/events?from=${Math.max(1, seq - WINDOW)}`),
    ]);
    if (n.status !== 200 || state.status !== 200) throw new Error(n.body.error || state.body.error || 'no answer');
    seq = n.body.seq;
    root.dataset.seq = seq;
    if (drawing(state.body, n.body) === drawn) {
      // The browser's rules drew this already when the entry was made: only the entries' marks change.
      next = n.body;
      recent = page.body.events || [];
      showEntries();
    } else {
      show(state.body, n.body, page.body.events || []);
      shownLocal = -1;
    }
    // Awaited: the finish panel scrolls into view once, and a tap made while it is still coming would land
    // where the page no longer is.
    await showFinish().catch(() => {});
  }

  // The same, as the browser's rules have it with the entries still waiting: while the server is away.
  function showLocal() {
    const n = local.next().ok;
    const rows = local.events(Math.max(1, n.seq - WINDOW)).ok;
    show(local.state().ok, n, rows);
    shownLocal = n.seq;
  }

  // What a drawing is drawn from, as JSON: the server's answers also name the game and whether this viewer
  // records it, which the browser's rules do not say and the drawing does not use.
  const drawing = (state, nextBody) =>
    JSON.stringify([{ ...state, game: undefined }, { ...nextBody, game: undefined, recorder: undefined }]);

  function show(state, nextBody, rows) {
    drawn = drawing(state, nextBody);
    root.dataset.draws = +(root.dataset.draws || 0) + 1;
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
  // Whether `event`, made after the first `after` events of the log `lines` (its header first), is the
  // entry stored there: the same line whenever it was made, or the same entry spelt from the other side
  // (a trade entered by either of its players), which leaves the game in the same state.
  function sameEntry(lines, after, event) {
    const stored = JSON.parse(lines[after + 1]);
    if (canonical(stored) === canonical(event)) return true;
    if (!local || stored.type !== event.type) return false;
    const before = lines.slice(0, after + 1).join('\n');
    const stateAfter = (line) => {
      if (local.open(before).error || local.push(line).error) return null;
      return JSON.stringify(local.state().ok);
    };
    const a = stateAfter(lines[after + 1]);
    return a !== null && a === stateAfter(JSON.stringify(event));
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
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    const known = lines.length - 1;
    // In the log already at the place it was made for: stored before its answer was lost on the way, or
    // entered alike by another recorder. Never sent again.
    const dropped = [];
    const waiting = queue().filter(({ event, after }) => {
      const there = after !== null && after < known && sameEntry(lines, after, event);
      if (there) dropped.push(`Already in the game: ${describe(event)}.`);
      return !there;
    });
    const opened = local.open(text);
    if (opened.error) throw new Error(opened.error);
    seq = known;
    root.dataset.seq = seq;
    const kept = [];
    for (const { event } of waiting) {
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

  // One entry as the table reads it: who, what, and what it derived (what each player received, the
  // points it scored).
  function entryWords(ev, into) {
    const who = document.createElement('b');
    who.textContent = ev.event.player || '';
    into.append(who, ' ', ev.text);
    if (ev.production && ev.production.length) into.append(` · ${ev.production.join('; ')}`);
    if (ev.scores && ev.scores.length) into.append(` · ${ev.scores.join(', ')}`);
    if (ev.withdrawn_by) into.append(' · withdrawn');
    if (ev.seq > seq) into.append(' · waits');
  }

  function showEntries() {
    entries.replaceChildren(...recent.slice(-6).map((ev) => {
      const li = document.createElement('li');
      li.dataset.seq = ev.seq;
      li.value = ev.seq; // numbered as the game numbers its entries
      entryWords(ev, li);
      if (ev.withdrawn_by) li.classList.add('withdrawn');
      // Made here, not yet on the server.
      if (ev.seq > seq) li.classList.add('waiting');
      return li;
    }));
    // The last entry, under whose decision it is: what the table just did, in view.
    const newest = recent[recent.length - 1];
    lastEntry.replaceChildren();
    if (newest) {
      lastEntry.dataset.seq = newest.seq;
      lastEntry.append(`${newest.seq}. `);
      entryWords(newest, lastEntry);
    }
    lastEntry.hidden = !newest;
    const last = lastInEffect();
    withdrawButton.disabled = !last;
    withdrawButton.textContent = last ? `Withdraw: ${last.event.player || ''} ${last.text}` : 'Withdraw the last entry';
  }

  // The last entry still in effect: what may be withdrawn (the rules let a table go back entry by entry as
  // far as it needs).
  function lastInEffect() {
    return [...recent].reverse().find((ev) => !ev.withdraws && !ev.withdrawn_by) || null;
  }

  // Whose decision it is, each kind of event as a button, and the events with keys (a roll's totals) as a
  // pad in view at once; a kind whose events have places shows them on the board when chosen, the others
  // list their events in the sheet.
  function showChoices() {
    clearTargets();
    closeSheet();
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
        const keyed = listed ? (listed.events || []).filter((c) => c.key) : [];
        if (keyed.length) group.append(pad(o, listed, keyed));
        // A kind whose every event is on the pad needs no button of its own.
        if (keyed.length && keyed.length === (listed.events || []).length && !(listed.forms || []).length) continue;
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'kind';
        b.dataset.kind = type;
        b.dataset.player = o.player;
        b.textContent = keyed.length ? `${words(type)}: more` : words(type);
        if (!listed) {
          // Open by the rules, but what it holds is the table's to say in a way this page cannot ask yet.
          b.disabled = true;
          b.title = 'Open, but entered through the API for now';
        } else {
          const rest = keyed.length ? { ...listed, events: listed.events.filter((c) => !c.key) } : listed;
          b.addEventListener('click', () => choose(o, rest));
        }
        group.append(b);
      }
      choicesBox.append(group);
    }
    // One decision of one kind (a settlement in the setup, the robber, one player's discard): its places or
    // its form are shown at once, unless its pad is already in view.
    const only = open.length === 1 && open[0].types.length === 1 && (open[0].choices || [])[0];
    const padded = only && (only.events || []).some((c) => c.key);
    if (only && !padded && ((only.events || []).length > 1 || (only.forms || []).length)) choose(open[0], only);
  }

  // The events with keys of one kind, a key each: one tap enters the event.
  function pad(open, listed, keyed) {
    const box = document.createElement('div');
    box.className = 'pad';
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', `${open.player}: ${words(listed.type)}`);
    for (const c of keyed) {
      const b = button('key', c.key, () => enter(JSON.parse(c.line), c));
      b.dataset.line = c.line;
      b.dataset.kind = listed.type;
      b.dataset.player = open.player;
      b.setAttribute('aria-label', `${open.player} ${c.words}`);
      box.append(b);
    }
    return box;
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
      enter(events[0].event, events[0]);
      return;
    }
    // Events in groups the table names first (the tile drawn): which group, then its events.
    const groups = [...new Set(events.map((c) => c.group).filter((g) => g))];
    if (groups.length > 1) {
      const buttons = groups.map((g) => {
        const first = events.find((c) => c.group === g);
        const b = button('choice group', '', () => offer(open, events.filter((c) => c.group === g)));
        b.dataset.group = g;
        b.dataset.lines = JSON.stringify(events.filter((c) => c.group === g).map((c) => c.line));
        // Drawn, the picture alone (its words its name): every group fits the sheet at once.
        const picture = pictureOf(first);
        if (picture.length) {
          b.append(...picture);
          b.setAttribute('aria-label', g);
          b.title = g;
        } else {
          b.textContent = g;
        }
        return b;
      });
      openSheet(`${open.player}: ${words(kind)} — which?`, ...buttons, cancelButton());
      return;
    }
    offer(open, events);
  }

  // Events of one kind: places on the board, spots on a picture (a figure on a feature of the tile just
  // placed), or a list of their words.
  function offer(open, events) {
    closeSheet();
    const placed = game.placeOf ? events.filter((c) => game.placeOf(c.event, ctx)) : [];
    const spotted = game.spotOf ? events.filter((c) => c.picture && game.spotOf(JSON.parse(c.picture))) : [];
    if (placed.length === events.length) showTargets(events);
    else if (spotted.length === events.length && game.drawChoice) showSpots(open, events);
    else pick(events, `${open.player}: ${words(kind)}`);
  }

  // The picture of the events' place, large in the sheet, with a disc of 44 px at least on each spot an
  // event may take: tapped like the board.
  function showSpots(open, events) {
    const picture = game.drawChoice(JSON.parse(events[0].picture), ctx);
    picture.removeAttribute('aria-hidden');
    picture.setAttribute('class', 'spots');
    picture.setAttribute('role', 'group');
    picture.setAttribute('aria-label', `${open.player}: ${words(kind)}: tap where`);
    openSheet(`${open.player}: ${words(kind)}: tap where`, picture, cancelButton());
    const spots = new Map();
    for (const c of events) {
      const at = game.spotOf(JSON.parse(c.picture));
      const key = `${at.x.toFixed(3)},${at.y.toFixed(3)}`;
      if (!spots.has(key)) spots.set(key, { at, events: [] });
      spots.get(key).events.push(c);
    }
    const vb = picture.viewBox.baseVal;
    const scale = picture.getBoundingClientRect().width / vb.width || 1;
    const radius = (TARGET / 2 + 1) / scale;
    const discs = Almanac.svg('g', { class: 'targets' }, picture);
    for (const spot of spots.values()) {
      const disc = Almanac.svg('circle', { class: 'target', cx: spot.at.x, cy: spot.at.y, r: Math.max(radius, spot.at.r || 0) }, discs);
      disc.dataset.lines = JSON.stringify(spot.events.map((c) => c.line));
      disc.placeEvents = spot.events;
    }
    picture.addEventListener('click', (e) => tapped(picture, discs, e));
  }

  // What the game's drawing shows of an offered event (a tile as it would lie), when it draws one.
  function pictureOf(choice) {
    if (!choice || !choice.picture || !game.drawChoice) return [];
    return [game.drawChoice(JSON.parse(choice.picture), ctx)];
  }

  // Several events: a list of their words to tap.
  function pick(events, title, more = () => []) {
    const choices = events.map((c) => {
      const b = button('choice', '', () => enter(c.event, c));
      b.append(...pictureOf(c), c.words);
      if (c.picture) b.classList.add('pictured');
      b.dataset.line = c.line;
      return b;
    });
    openSheet(title, ...choices, ...more(), cancelButton());
  }

  // Several forms of one kind (a trade with each other player): which one.
  function pickForm(open, forms) {
    openSheet(`${open.player}: ${words(kind)}`, ...forms.map((form) => formButton(open, form)), cancelButton());
  }

  function formButton(open, form) {
    const b = button('form', form.words, () => fill(open, form));
    b.dataset.line = form.line;
    // The fields the form's picks set, which its line holds only as a placeholder.
    b.dataset.picked = JSON.stringify([...new Set((form.picks || []).flatMap((p) => p.options.flatMap((o) => Object.keys(JSON.parse(o.set)))))]);
    return b;
  }

  // A pick's option laid over a line, in place, by the browser's rules (almanac_core::next::lay, the rule's
  // one statement): a page without them cannot fill a form with picks (`fill` says so).
  function lay(into, set) {
    const answer = local.lay(into, set);
    if (answer.error) throw new Error(answer.error);
    for (const k of Object.keys(into)) delete into[k];
    Object.assign(into, answer.ok);
  }
  // A page's test that reads a form to reach an event lays options with it.
  Almanac.lay = lay;

  // A form (record/form.mjs): what the table picks, then each field's cards counted; entered when whole.
  function fill(open, form) {
    if ((form.picks || []).length && !local) {
      const why = document.createElement('p');
      why.textContent = 'This entry takes a browser that runs WebAssembly: the rules in the browser say how its choices make the event.';
      openSheet(`${open.player}: ${form.words}`, why, cancelButton());
      return;
    }
    const { parts, check } = formParts(form, { button, cancelButton, lay, enter });
    openSheet(`${open.player}: ${form.words}`, ...parts);
    check();
  }

  // The places of the chosen kind on the board, and a tap on them (record/targets.mjs): the event a tap
  // plainly means is entered; a tap between places asks which, the places it may mean marked.
  const { showTargets, clearTargets, tapped, pointedOff } = targetsOn(board, {
    placeOf: (event) => game.placeOf(event, ctx),
    entered: (choice) => enter(choice.event, choice),
    ask: (events, plain) => pick(events, plain ? `${words(kind)} here` : `${words(kind)}: which place did you mean?`),
  });

  withdrawButton.addEventListener('click', () => {
    const last = lastInEffect();
    if (last) enter({ type: 'withdraw', seq: last.seq });
  });

  // An entry: judged by the browser's rules (refused at once, with the rule's words, when they refuse it),
  // kept on the phone with the moment it was made, then sent. An entry that ends the game is asked about
  // first (`choice.ends`, from the rules).
  function enter(event, choice, confirmed = false) {
    if (choice && choice.ends && !confirmed) {
      const yes = button('confirm', `Enter: ${event.player || ''} ${choice.words}`.replace('  ', ' '), () => enter(event, choice, true));
      openSheet('This ends the game. Enter it?', yes, cancelButton());
      return;
    }
    clearTargets();
    closeSheet();
    problem.hidden = true;
    const made = { ...event, time: new Date().toISOString() };
    if (local) {
      const a = local.push(JSON.stringify(made));
      if (a.error) {
        say(a.error);
        return;
      }
    }
    const q = queue();
    q.push({ event: made, after: seq + q.length });
    keep(q);
    // The table sees the game move on at once, as the browser's rules have it: the server's answer, when
    // it says the same, draws nothing again.
    if (local) showLocal();
    window.scrollTo(0, 0);
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
    if (followAgain) {
      followAgain = false;
      follow();
    }
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
    const line = canonical(event);
    return (next.open || []).some((o) => (o.choices || []).some((c) =>
      (c.events || []).some((e) => canonical(JSON.parse(e.line)) === line) || (c.forms || []).some((f) => filledFrom(f, event))));
  }

  // Whether `event` is form `form` filled: the same in every field the form does not count.
  function filledFrom(form, event) {
    const fixed = JSON.parse(form.line);
    const counted = new Set(form.counts.map((c) => c.field));
    const keys = new Set([...Object.keys(fixed), ...Object.keys(event)].filter((k) => k !== 'time'));
    return [...keys].every((k) => counted.has(k) || JSON.stringify(fixed[k]) === JSON.stringify(event[k]));
  }

  window.addEventListener('online', flush);

  // The other recorders of the game, followed over its stream: an entry made on another phone is shown
  // here within a moment, without a tap. While this phone sends, its own answer brings the game up to date.
  let catchingUp = false;
  let followAgain = false;
  function follow() {
    if (!window.EventSource) return;
    const source = new EventSource(`${path}/stream`);
    source.onmessage = (m) => {
      const n = JSON.parse(m.data).seq;
      if (n > seq) catchUp();
    };
    source.addEventListener('gone', () => source.close());
    // A stream idle for long is closed by the server; the next entry opens it again.
    source.addEventListener('idle', () => { source.close(); followAgain = true; });
  }

  async function catchUp() {
    if (catchingUp || sending || queue().length) return;
    catchingUp = true;
    try {
      const dropped = local ? await resync('no longer applies after what the other recorder entered') : [];
      await refresh();
      if (dropped.length) say(dropped.join(' '));
      root.dataset.synced = seq;
    } catch (_) {
      // The server away: the stream says so again when it is back.
    } finally {
      catchingUp = false;
    }
  }

  // Signing out clears what this phone kept, and waits while entries wait: `session.js`, on every signed-in
  // page.

  // The page and its files kept for a reload offline (the worker renews them whenever they are fetched).
  async function keepForOffline() {
    if (!('serviceWorker' in navigator) || !window.caches) return;
    await navigator.serviceWorker.register('/recorder-worker.js', { scope: '/games/' });
    // The page, and every file of the site it has loaded: its scripts and the modules they import, the
    // style, the rules.
    const files = [location.pathname, '/static/rules.wasm',
      ...performance.getEntriesByType('resource').map((e) => e.name)];
    const kept = await caches.open('almanac-recorder-1');
    const urls = files.map((f) => new URL(f, location.href))
      .filter((u) => u.origin === location.origin && u.pathname.match(/^\/(static\/|games\/)/));
    await kept.addAll([...new Set(urls.map((u) => u.href))]);
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
    follow();
    flush();
    keepForOffline().catch(() => { root.dataset.kept = 'no'; });
  }
  start().catch(() => {
    whose.textContent = 'The server does not answer: entries made now wait on this phone.';
    root.dataset.ready = 'offline';
  });
});
