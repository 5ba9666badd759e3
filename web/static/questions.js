// The question builder: when another metric (or game) is chosen, "Of" lists what that metric takes for that
// game (from /api/questions/catalogue); the page without scripts lists what the metric in its address takes.
(() => {
  const form = document.querySelector('form.question');
  if (!form) return;
  const metric = form.elements.metric;
  const game = form.elements.ruleset;
  const of = form.elements.arg;
  let catalogue = null;
  const option = (value, label) => {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    return o;
  };
  async function relist() {
    catalogue = catalogue || (await fetch('/api/questions/catalogue').then((r) => r.json()).catch(() => null));
    if (!catalogue) return;
    const m = catalogue.metrics.find((x) => x.id === metric.value);
    if (!m) return;
    const kept = of.value;
    of.replaceChildren(option('', m.arg === 'item' ? 'everything' : '(nothing more)'));
    if (m.arg !== 'none') {
      const games = m.args.filter(([id]) => game.value === 'all' || id === game.value || m.arg === 'turn' || m.arg === 'score');
      const seen = new Set();
      for (const [id, choices] of m.arg === 'turn' || m.arg === 'score' ? games.slice(0, 1) : games) {
        const listed = choices.filter(([value]) => value !== '' && !seen.has(id + value));
        listed.forEach(([value]) => seen.add(id + value));
        if (games.length > 1 && m.arg !== 'turn' && m.arg !== 'score') {
          const group = document.createElement('optgroup');
          group.label = (game.querySelector(`option[value="${id}"]`) || {}).textContent || id;
          listed.forEach(([value, label]) => group.append(option(value, label)));
          if (listed.length) of.append(group);
        } else {
          listed.forEach(([value, label]) => of.append(option(value, label)));
        }
      }
    }
    of.value = [...of.options].some((o) => o.value === kept) ? kept : '';
    of.closest('label').hidden = m.arg === 'none';
  }
  metric.addEventListener('change', relist);
  game.addEventListener('change', relist);
})();
