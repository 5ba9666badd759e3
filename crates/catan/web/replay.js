// Catan's replay drawing: the shared hex board (board.js, prepended) and the players' hands.
(() => {
  const { counted, words, drawBoard, drawPieces, placeOf, pictureOf } = window.CatanBoard;
  function playerLines(p) {
    const lines = [];
    const hand = counted(p.hand);
    lines.push({ className: 'hand', text: Almanac.count(p.cards_in_hand, 'card') + (hand.length ? `: ${hand.join(', ')}` : '') });
    const held = counted(p.development?.held, words);
    const played = counted(p.development?.played, words);
    lines.push({ className: 'dev', text: `development: ${held.length ? held.join(', ') : 'none'}` + (played.length ? ` · played: ${played.join(', ')}` : '') });
    if (p.helper) lines.push({ className: 'dev', text: `helper: ${p.helper.name} (${p.helper.side} side)` });
    if (p.awards && p.awards.length) lines.push({ className: 'awards', text: p.awards.map(words).join(' · ') });
    return lines;
  }

  Almanac.register('catan', {
    drawBoard,
    drawState: drawPieces,
    placeOf,
    pictureOf,
    notation: 'Places: hexes are numbered as the small grey numbers on the board; 9:S is the south corner of ' +
      'hex 9 (a settlement or city), 4:NE the north-east side of hex 4 (a road). A corner or side shared by ' +
      'several hexes may be named from any of them.',
    score: (p) => `${p.vp} VP` + (p.vp !== p.vp_public ? ` (${p.vp_public} public)` : ''),
    playerLines,
    footer: (state) =>
      `bank: ${state.bank ? Object.entries(state.bank).map(([k, n]) => `${k} ${n}`).join(', ') : 'unlimited'} · development deck ${state.development_deck} · robber on hex ${state.robber}`,
  });
})();
