// The games page: upload a log with the form, then open its replay (or show why it was rejected).
(() => {
  const form = document.getElementById('upload');
  const result = document.getElementById('upload-result');
  if (!form) return;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const file = form.elements.log.files[0];
    if (!file) return;
    result.textContent = 'Uploading…';
    const response = await fetch('/api/games?format=' + encodeURIComponent(form.elements.format.value), {
      method: 'POST',
      // A file, whatever its name says: the server reads its format.
      headers: { 'Content-Type': 'application/octet-stream' },
      body: await file.arrayBuffer(),
    });
    const body = await response.json().catch(() => ({ error: response.statusText }));
    if (response.ok) {
      // A log stored before opens its game, which says so.
      location.href = '/games/' + encodeURIComponent(body.id) + (body.existing ? '?stored=before' : '');
    } else {
      // textContent: the message may quote the file.
      result.textContent = body.line ? `${file.name}:${body.line}: ${body.error}` : `${file.name}: ${body.error}`;
      result.className = 'error';
    }
  });
})();
