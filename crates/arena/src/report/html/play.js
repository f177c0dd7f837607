// The play page: the person clicks a piece (its legal targets are shown; moves the judge
// would refuse as a forbidden repetition are marked and warned about), then a target; the
// server judges the move and the engine thinks on the server while the page polls.
(function () {
  var svg = document.getElementById('board'), status = document.getElementById('status');
  var warn = document.getElementById('warn'), list = document.getElementById('moves');
  var nota = document.getElementById('notation'), flip = document.getElementById('flip');
  var id = null, st = null, selected = null, timer = null;
  function api(method, path, body) {
    return fetch(path, {method: method, headers: {'Content-Type': 'application/json'},
      body: body ? JSON.stringify(body) : undefined}).then(function (r) {
      return r.json().then(function (j) { j._status = r.status; return j; });
    });
  }
  function render() {
    if (!st) return;
    var b = XQ.parseFen(st.start_fen);
    st.moves.forEach(function (m) { XQ.apply(b, m); });
    var targets = [], bad = [];
    if (selected !== null && st.legal[XQ.name(selected)]) {
      st.legal[XQ.name(selected)].forEach(function (t) {
        targets.push(XQ.sq(t));
        if (st.forbidden.indexOf(XQ.name(selected) + t) >= 0) bad.push(t);
      });
    }
    XQ.draw(svg, b, {flip: flip.checked, selected: selected, targets: targets,
      last: st.moves.length ? st.moves[st.moves.length - 1] : null, onClick: click});
    warn.textContent = bad.length ? 'Warning: ' + bad.map(function (t) { return XQ.name(selected) + t; }).join(', ') +
      ' would repeat the position with a perpetual check or chase, which the rules forbid.' : (st.message || '');
    var names = nota.value === 'zh' ? st.zh : nota.value === 'wxf' ? st.wxf : st.moves, html = [];
    // A game from a FEN with Black to move numbers Black's first move "1. ...".
    var off = st.start_fen.split(' ')[1] === 'b' ? 1 : 0;
    if (off && names.length) html.push('<br>1. ...');
    for (var i = 0; i < names.length; i++) {
      var k = i + off;
      html.push((k % 2 === 0 ? '<br>' + (k / 2 + 1) + '. ' : ' ') + '<span>' + names[i] + '</span>');
    }
    list.innerHTML = html.join('');
    status.textContent = st.verdict ? 'Game over: ' + st.verdict : st.thinking ? st.player + ' is thinking...' :
      st.your_turn ? 'Your move (' + st.human + ')' : '';
    document.getElementById('pgnlink').href = '/api/games/' + id + '/pgn';
  }
  function click(s) {
    if (!st || !st.your_turn) return;
    var from = selected === null ? null : XQ.name(selected), to = XQ.name(s);
    if (from && st.legal[from] && st.legal[from].indexOf(to) >= 0) {
      // No second move (and no stale "your move") while this one is on its way.
      selected = null; st.your_turn = false; status.textContent = 'Sending ' + from + to + '...';
      api('POST', '/api/games/' + id + '/move', {uci: from + to}).then(function (j) {
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
      human: document.getElementById('side').value,
      fen: new URLSearchParams(location.search).get('fen') || ''}).then(function (j) {
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
