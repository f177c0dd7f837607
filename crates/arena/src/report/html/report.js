// The game browser of report.html: every embedded game on the board, stepped with buttons or
// the arrow keys, moves in UCI, WXF or Chinese (chess: SAN or UCI) with the per-move comments.
(function () {
  var data = JSON.parse(document.getElementById('games-data').textContent);
  var games = data.games, sel = document.getElementById('game'), nota = document.getElementById('notation');
  var svg = document.getElementById('board'), list = document.getElementById('moves');
  var info = document.getElementById('gameinfo');
  var g = null, ply = 0;
  // The first mover is Red in xiangqi and White in chess.
  function sides(x) { return x.chess ? ['White', 'Black'] : ['Red', 'Black']; }
  if (!games.length) { document.getElementById('browser').textContent = 'No games yet.'; return; }
  games.forEach(function (x, i) {
    var o = document.createElement('option');
    o.value = i; o.textContent = '#' + x.game + ' ' + x.red + ' - ' + x.black + ' ' + x.result + ' (' + x.termination + ')';
    sel.appendChild(o);
  });
  function show() {
    var B = g.chess ? CH : XQ;
    var b = B.parseFen(g.opening);
    for (var i = 0; i < ply; i++) B.apply(b, g.uci[i]);
    svg.setAttribute('data-game', g.chess ? 'chess' : 'xiangqi');
    B.draw(svg, b, {last: ply > 0 ? g.uci[ply - 1] : null, flip: document.getElementById('flip').checked});
    var names = g[nota.value] && g[nota.value].length === g.uci.length ? g[nota.value] : g.uci;
    var html = [];
    // An opening with Black to move numbers Black's first move "1. ...".
    var off = g.opening.split(' ')[1] === 'b' ? 1 : 0;
    // Chess moves are numbered from the opening FEN's move number, as games.pgn has them.
    var base = g.chess ? (+g.opening.split(' ')[5] || 1) : 1;
    if (off && names.length) html.push('<br>' + base + '. ... ');
    for (var j = 0; j < names.length; j++) {
      if ((j + off) % 2 === 0) html.push('<br>' + ((j + off) / 2 + base) + '. ');
      // The comment beside the move, not inside it: the move's own element holds the move alone.
      var sc = g.comments[j] ? '<small class="score"> {' + g.comments[j] + '}</small>' : '';
      html.push('<span data-ply="' + (j + 1) + '"' + (j + 1 === ply ? ' class="cur"' : '') + '>' + names[j] + '</span>' + sc);
    }
    list.innerHTML = html.join('');
    list.querySelectorAll('span').forEach(function (el) {
      el.addEventListener('click', function () { ply = +el.getAttribute('data-ply'); show(); });
    });
    document.getElementById('ply').textContent = ply + ' / ' + g.uci.length;
    info.textContent = g.red + ' (' + sides(g)[0] + ') - ' + g.black + ' (' + sides(g)[1] + ')  ' + g.result + ' ' + g.termination + ', seed ' + g.seed;
  }
  function load() { g = games[+sel.value]; ply = 0; show(); }
  function step(d) { ply = Math.max(0, Math.min(g.uci.length, ply + d)); show(); }
  sel.addEventListener('change', load);
  nota.addEventListener('change', show);
  document.getElementById('flip').addEventListener('change', show);
  document.getElementById('first').onclick = function () { ply = 0; show(); };
  document.getElementById('prev').onclick = function () { step(-1); };
  document.getElementById('next').onclick = function () { step(1); };
  document.getElementById('last').onclick = function () { ply = g.uci.length; show(); };
  document.addEventListener('keydown', function (e) {
    if (e.target.tagName === 'SELECT') return;
    if (e.key === 'ArrowRight') step(1); else if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === 'Home') { ply = 0; show(); } else if (e.key === 'End') { ply = g.uci.length; show(); }
  });
  load();
  // Live view: only when served over HTTP (chuhan serve); a file opened from disk makes no request.
  if (location.protocol === 'http:' && data.live) {
    setInterval(function () {
      fetch(location.pathname + '?stamp=1').then(function (r) { return r.text(); }).then(function (t) {
        if (t.trim() !== data.stamp) location.reload();
      }).catch(function () {});
    }, 3000);
  }
})();
