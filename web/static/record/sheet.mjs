// The sheet at the bottom of the recorder's screen, where whatever a tap opens is shown, and the buttons in
// it. `chooser` is the sheet's element; `closed` is told when it closes (the board's places lose their
// marks).
export function sheet(chooser, closed) {
  // In view without scrolling.
  function openSheet(title, ...content) {
    chooser.replaceChildren(heading(title), ...content);
    chooser.hidden = false;
    chooser.scrollTop = 0;
    document.body.classList.add('sheet-open');
  }

  function closeSheet() {
    chooser.hidden = true;
    document.body.classList.remove('sheet-open');
    closed();
  }

  function heading(text) {
    const h = document.createElement('h2');
    h.id = 'chooser-title';
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
    return button('cancel', 'Cancel', closeSheet);
  }

  return { openSheet, closeSheet, heading, button, cancelButton };
}
