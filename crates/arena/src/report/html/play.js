// The play page: the person clicks a piece (its legal targets are shown; moves the judge
// would refuse as a forbidden repetition are marked and warned about), then a target; the
// server judges the move and the engine thinks on the server while the page polls. Chess
// games use the CH board; a promotion takes the piece chosen beside the board.
(function () {
  var svg = document.getElementById('board'), status = document.getElementById('status');
  var warn = document.getElementById('warn'), list = document.getElementById('moves');
  var nota = document.getElementById('notation'), flip = document.getElementById('flip');
  var id = null, st = null, selected = null, timer = null, B = XQ, shownGame = null;
  // The move list's notations of each game, the first the default.
  var NOTATIONS = {xiangqi: [['wxf', 'WXF'], ['zh', '中文'], ['uci', 'UCI']], chess: [['san', 'SAN'], ['uci', 'UCI']]};
  function setNotations(game) {
    if (shownGame === game) return;
    shownGame = game;
    nota.innerHTML = NOTATIONS[game].map(function (o) { return '<option value="' + o[0] + '">' + o[1] + '</option>'; }).join('');
  }
  // The target squares of the selected piece (a chess promotion is one square, four moves).
  function targetsOf(from) {
    var out = [];
    (st.legal[from] || []).forEach(function (t) { if (out.indexOf(t.slice(0, 2)) < 0) out.push(t.slice(0, 2)); });
    return out;
  }
  function api(method, path, body) {
    return fetch(path, {method: method, headers: {'Content-Type': 'application/json'},
      body: body ? JSON.stringify(body) : undefined}).then(function (r) {
      return r.json().then(function (j) { j._status = r.status; return j; });
    });
  }
  function render() {
    if (!st) return;
    B = st.game === 'chess' ? CH : XQ;
    setNotations(st.game || 'xiangqi');
    var b = B.parseFen(st.start_fen);
    st.moves.forEach(function (m) { B.apply(b, m); });
    var targets = [], bad = [];
    if (selected !== null && st.legal[B.name(selected)]) {
      targetsOf(B.name(selected)).forEach(function (t) {
        targets.push(B.sq(t));
        if (st.forbidden.indexOf(B.name(selected) + t) >= 0) bad.push(t);
      });
    }
    svg.setAttribute('data-game', st.game || 'xiangqi');
    B.draw(svg, b, {flip: flip.checked, selected: selected, targets: targets,
      last: st.moves.length ? st.moves[st.moves.length - 1] : null, onClick: click});
    warn.textContent = bad.length ? 'Warning: ' + bad.map(function (t) { return B.name(selected) + t; }).join(', ') +
      ' would repeat the position with a perpetual check or chase, which the rules forbid.' : (st.message || '');
    var names = nota.value === 'zh' ? st.zh : nota.value === 'wxf' ? st.wxf : nota.value === 'san' ? st.san : st.moves, html = [];
    if (!names || names.length !== st.moves.length) names = st.moves;
    // A game from a FEN with Black to move numbers Black's first move "1. ...".
    var off = st.start_fen.split(' ')[1] === 'b' ? 1 : 0;
    // Chess moves are numbered from the FEN's move number, as the saved PGN has them.
    var base = st.game === 'chess' ? (+st.start_fen.split(' ')[5] || 1) : 1;
    if (off && names.length) html.push('<br>' + base + '. ...');
    for (var i = 0; i < names.length; i++) {
      var k = i + off;
      html.push((k % 2 === 0 ? '<br>' + (k / 2 + base) + '. ' : ' ') + '<span>' + names[i] + '</span>');
    }
    list.innerHTML = html.join('');
    status.textContent = st.verdict ? 'Game over: ' + st.verdict : st.thinking ? st.player + ' is thinking...' :
      st.your_turn ? 'Your move (' + st.human + ')' : '';
    document.getElementById('pgnlink').href = '/api/games/' + id + '/pgn';
  }
  function click(s) {
    if (!st || !st.your_turn) return;
    var from = selected === null ? null : B.name(selected), to = B.name(s);
    if (from && st.legal[from] && targetsOf(from).indexOf(to) >= 0) {
      var rest = st.legal[from].filter(function (t) { return t.slice(0, 2) === to; });
      var uci = from + (rest.length > 1 ? to + document.getElementById('promo').value : rest[0]);
      // No second move (and no stale "your move") while this one is on its way.
      selected = null; st.your_turn = false; status.textContent = 'Sending ' + uci + '...';
      api('POST', '/api/games/' + id + '/move', {uci: uci}).then(function (j) {
        if (j._status !== 200) { st.message = j.error; render(); return; }
        st = j; render(); poll();
      });
      return;
    }
    selected = st.legal[to] ? s : null;
    render();
  }
  function poll() {
    clearTimeout(timer);
    api('GET', '/api/games/' + id).then(function (j) {
      var keep = st && st.message && !j.message ? st.message : null;
      st = j; if (keep && j.thinking) st.message = keep; render();
      if (j.thinking) timer = setTimeout(poll, 300);
    });
  }
  document.getElementById('new').onclick = function () {
    api('POST', '/api/games', {player: document.getElementById('player').value,
      human: document.getElementById('side').value === 'black' ? 'black' : '',
      game: document.getElementById('gamekind').value,
      fen: new URLSearchParams(location.search).get('fen') || '',
      // Chess960: ?chess960=N (a start position), random, or off; absent: the server's default.
      chess960: new URLSearchParams(location.search).get('chess960') || ''}).then(function (j) {
      if (j._status !== 200) { status.textContent = j.error; return; }
      id = j.id; st = j; selected = null; flip.checked = j.human === 'black'; render(); poll();
    });
  };
  document.getElementById('undo').onclick = function () {
    if (id === null) return;
    api('POST', '/api/games/' + id + '/undo').then(function (j) {
      if (j._status !== 200) { st.message = j.error; render(); return; }
      st = j; selected = null; render();
    });
  };
  flip.onchange = render; nota.onchange = render;
})();
