// Begin a game at the table: the game and how it begins (a board from the rulebook, or one drawn from a
// seed), the players in seat order (names completed from the players the club has met), the title, date
// and place. The server writes the header (POST /api/tables) and the recorder opens on the new game.
document.addEventListener('DOMContentLoaded', () => {
  const root = document.getElementById('start');
  if (!root) return;
  const games = JSON.parse(document.getElementById('recordable').textContent);
  const form = document.getElementById('begin');
  const ruleset = document.getElementById('ruleset');
  const beginning = document.getElementById('beginning');
  const seeded = document.getElementById('seeded');
  const seed = document.getElementById('seed');
  const seats = document.getElementById('seats');
  const known = document.getElementById('known-players');
  const problem = document.getElementById('problem');
  const date = document.getElementById('date');

  const game = () => games.find((g) => g.ruleset === ruleset.value);
  const chosen = () => game().beginnings.find((b) => b.id === beginning.value);
  // A seed the table has not seen: any whole number will do, the same one gives the same board.
  const newSeed = () => { seed.value = Math.floor(Math.random() * 1e9); };

  function addSeat(name) {
    const li = document.createElement('li');
    const input = document.createElement('input');
    input.type = 'text';
    input.setAttribute('list', 'known-players');
    input.setAttribute('aria-label', `Seat ${seats.children.length + 1}`);
    input.className = 'seat';
    input.value = name || '';
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.className = 'cancel';
    remove.textContent = 'Remove';
    remove.setAttribute('aria-label', `Remove seat ${seats.children.length + 1}`);
    remove.addEventListener('click', () => { li.remove(); });
    li.append(input, remove);
    seats.append(li);
    return input;
  }

  async function showGame() {
    beginning.replaceChildren(...game().beginnings.map((b) => {
      const o = document.createElement('option');
      o.value = b.id;
      o.textContent = `${b.words} (${b.seats[0]}–${b.seats[1]} players)`;
      return o;
    }));
    showBeginning();
    // The names of the players the club has met in this game, to complete a seat's name.
    known.replaceChildren();
    const r = await fetch(`/api/leaderboard?ruleset=${encodeURIComponent(ruleset.value)}&bots=yes`).catch(() => null);
    const leaders = r && r.ok ? await r.json() : [];
    for (const l of leaders) {
      const o = document.createElement('option');
      o.value = l.name;
      known.append(o);
    }
  }

  function showBeginning() {
    const b = chosen();
    seeded.hidden = !b.seeded;
    if (b.seeded && seed.value === '') newSeed();
    while (seats.children.length < b.seats[0]) addSeat();
  }

  ruleset.addEventListener('change', showGame);
  beginning.addEventListener('change', showBeginning);
  document.getElementById('reseed').addEventListener('click', newSeed);
  document.getElementById('add-seat').addEventListener('click', () => addSeat().focus());
  date.value = new Date().toISOString().slice(0, 10);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    problem.hidden = true;
    const start = {
      ruleset: ruleset.value,
      beginning: beginning.value,
      seed: chosen().seeded ? Number(seed.value) : 0,
      players: [...seats.querySelectorAll('input.seat')].map((i) => i.value.trim()).filter((n) => n !== ''),
      title: document.getElementById('title').value,
      date: date.value,
      location: document.getElementById('location').value,
    };
    const r = await fetch('/api/tables', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(start),
    }).catch(() => null);
    const body = r ? await r.json().catch(() => ({})) : {};
    if (!r || !r.ok) {
      problem.textContent = body.error || 'The server does not answer: try again in a moment.';
      problem.hidden = false;
      return;
    }
    location.href = `/games/${encodeURIComponent(body.id)}/record`;
  });

  showGame();
  root.dataset.ready = 'yes';
});
