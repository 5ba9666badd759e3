// A form of the table recorder, for an entry whose event is made of choices (GET /api/games/{id}/next
// lists its forms): first what the table picks (whom, which card, what comes after), one option of each,
// then each field's cards counted with a stepper (− and +, a finger's size), each card up to what the rules
// allow; entered when every pick is made and every field holds between its least and most cards. Fields of
// the same cards (a trade's two sides) share one row per card, so the whole form fits the sheet.
//
// `button` and `cancelButton` make the sheet's buttons (record/sheet.mjs); `lay` lays a pick's option over
// the line with the browser's rules; `enter` enters the event made. The parts to show, and `check`, which
// enables Enter when the form is whole (called once shown).
export function formParts(form, { button, cancelButton, lay, enter }) {
  const counted = form.counts.map((count) => ({ count, cards: Object.fromEntries(count.cards.map((c) => [c.card, c.least])) }));
  const picks = (form.picks || []).map((pick) => ({ pick, chosen: pick.options.length === 1 ? 0 : null }));
  const parts = [];
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
    parts.push(group);
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
  // One stepper: − count +, for one card of one field.
  const stepper = (entry, bound) => {
    const { count, cards } = entry;
    const { card, least, most } = bound;
    const cell = document.createElement('div');
    cell.className = 'stepper';
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
    cell.append(less, value, more);
    return cell;
  };
  const legendOf = (entry) => {
    entry.total = document.createElement('output');
    const legend = document.createElement('span');
    legend.className = 'field-name';
    legend.append(`${entry.count.words} `, entry.total);
    return legend;
  };
  const names = (entry) => entry.count.cards.map((c) => c.card).join('\n');
  const sideBySide = counted.length === 2 && names(counted[0]) === names(counted[1]);
  if (sideBySide) {
    // A grid: the card's name, then a stepper per field; a card neither field may take is left out.
    const grid = document.createElement('div');
    grid.className = 'counts two';
    grid.setAttribute('role', 'group');
    grid.append(document.createElement('span'), ...counted.map(legendOf));
    counted[0].count.cards.forEach((bound, i) => {
      const bounds = counted.map((entry) => entry.count.cards[i]);
      if (bounds.every((b) => b.most === 0)) return;
      const name = document.createElement('span');
      name.className = 'card';
      name.textContent = bound.card;
      grid.append(name, ...counted.map((entry, k) => (bounds[k].most === 0
        ? document.createElement('span') : stepper(entry, bounds[k]))));
    });
    parts.push(grid);
  } else {
    for (const entry of counted) {
      const group = document.createElement('div');
      group.className = 'counts one';
      group.setAttribute('role', 'group');
      group.append(document.createElement('span'), legendOf(entry));
      for (const bound of entry.count.cards) {
        if (bound.most === 0) continue;
        const name = document.createElement('span');
        name.className = 'card';
        name.textContent = bound.card;
        group.append(name, stepper(entry, bound));
      }
      parts.push(group);
    }
  }
  const actions = document.createElement('div');
  actions.className = 'actions';
  actions.append(enterButton, cancelButton());
  parts.push(actions);
  return { parts, check };
}
