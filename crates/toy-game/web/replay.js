// The race's replay drawing: a track up to the goal, each player's token on its square.
(() => {
  Almanac.register('ten-squares', {
    drawBoard(svg, state, ctx) {
      const goal = state.goal;
      svg.setAttribute('viewBox', `0 0 ${goal * 40 + 60} ${state.players.length * 40 + 20}`);
      for (let i = 0; i <= goal; i += 1) {
        ctx.svg('rect', { x: 10 + i * 40, y: 10, width: 36, height: state.players.length * 40, fill: '#eef2f8' }, svg);
        ctx.text(svg, 28 + i * 40, 8 + state.players.length * 40, String(i), { 'font-size': 10 });
      }
    },
    drawState(layer, state, ctx) {
      state.players.forEach((p, k) => {
        ctx.svg('circle', { cx: 28 + p.square * 40, cy: 30 + k * 40, r: 14, fill: ctx.colorOf(p.name), class: 'token' }, layer);
      });
    },
    score: (player) => String(player.square),
    playerLines: (player) => [{ text: `square ${player.square}`, className: '' }],
    footer: (state) => `first to square ${state.goal} wins`,
  });
})();
