// Shared boards of report.html and the play page: XQ for xiangqi, CH (below) for chess.
// XQ: FEN to an array (index rank*9+file, rank 0 = Red's back rank), UCI
// moves applied without rules (the server and the judge own legality), and an SVG drawing.
var XQ = (function () {
  var NAMES = {r: '車', n: '馬', b: '象', a: '士', k: '將', c: '砲', p: '卒',
               R: '俥', N: '傌', B: '相', A: '仕', K: '帥', C: '炮', P: '兵'};
  function parseFen(fen) {
    var b = new Array(90).fill(null);
    var rows = fen.split(' ')[0].split('/');
    for (var i = 0; i < rows.length && i < 10; i++) {
      var rank = 9 - i, file = 0;
      for (var ch of rows[i]) {
        if (ch >= '0' && ch <= '9') { file += +ch; continue; }
        var c = ch === 'h' ? 'n' : ch === 'H' ? 'N' : ch === 'e' ? 'b' : ch === 'E' ? 'B' : ch;
        b[rank * 9 + file] = c; file++;
      }
    }
    return b;
  }
  function sq(s) { return (s.charCodeAt(1) - 48) * 9 + (s.charCodeAt(0) - 97); }
  function apply(b, uci) { var f = sq(uci.slice(0, 2)), t = sq(uci.slice(2, 4)); b[t] = b[f]; b[f] = null; }
  function name(s) { return String.fromCharCode(97 + s % 9) + Math.floor(s / 9); }
  // Draws `b` into the <svg> element `svg`; opts: flip, last (uci), selected (square),
  // targets (squares), onClick(square).
  function draw(svg, b, opts) {
    opts = opts || {};
    var S = 46, M = 30, W = M * 2 + S * 8, H = M * 2 + S * 9;
    var x = function (f) { return M + S * (opts.flip ? 8 - f : f); };
    var y = function (r) { return M + S * (opts.flip ? r : 9 - r); };
    var out = ['<rect x="0" y="0" width="' + W + '" height="' + H + '" fill="#e8c98a"/>'];
    for (var r = 0; r < 10; r++) out.push('<line x1="' + x(0) + '" y1="' + y(r) + '" x2="' + x(8) + '" y2="' + y(r) + '" stroke="#553"/>');
    for (var f = 0; f < 9; f++) {
      if (f === 0 || f === 8) { out.push('<line x1="' + x(f) + '" y1="' + y(0) + '" x2="' + x(f) + '" y2="' + y(9) + '" stroke="#553"/>'); continue; }
      out.push('<line x1="' + x(f) + '" y1="' + y(0) + '" x2="' + x(f) + '" y2="' + y(4) + '" stroke="#553"/>');
      out.push('<line x1="' + x(f) + '" y1="' + y(5) + '" x2="' + x(f) + '" y2="' + y(9) + '" stroke="#553"/>');
    }
    [[3, 0, 5, 2], [5, 0, 3, 2], [3, 7, 5, 9], [5, 7, 3, 9]].forEach(function (p) {
      out.push('<line x1="' + x(p[0]) + '" y1="' + y(p[1]) + '" x2="' + x(p[2]) + '" y2="' + y(p[3]) + '" stroke="#553"/>');
    });
    if (opts.last) {
      [opts.last.slice(0, 2), opts.last.slice(2, 4)].forEach(function (s) {
        var i = sq(s);
        out.push('<rect x="' + (x(i % 9) - S / 2) + '" y="' + (y(Math.floor(i / 9)) - S / 2) + '" width="' + S + '" height="' + S + '" fill="#9c6" opacity="0.5"/>');
      });
    }
    for (var i = 0; i < 90; i++) {
      var p = b[i], cx = x(i % 9), cy = y(Math.floor(i / 9));
      if (p) {
        var red = p === p.toUpperCase();
        out.push('<g data-sq="' + name(i) + '"><circle cx="' + cx + '" cy="' + cy + '" r="20" fill="#fff8e8" stroke="' + (opts.selected === i ? '#06c' : red ? '#b00' : '#222') + '" stroke-width="' + (opts.selected === i ? 4 : 2) + '"/>' +
          '<text x="' + cx + '" y="' + (cy + 7) + '" font-size="20" text-anchor="middle" fill="' + (red ? '#b00' : '#222') + '">' + NAMES[p] + '</text></g>');
      }
      if (opts.targets && opts.targets.indexOf(i) >= 0) {
        out.push('<circle class="target" data-sq="' + name(i) + '" cx="' + cx + '" cy="' + cy + '" r="8" fill="#06c" opacity="0.6"/>');
      }
      if (opts.onClick) out.push('<rect class="hit" data-sq="' + name(i) + '" x="' + (cx - S / 2) + '" y="' + (cy - S / 2) + '" width="' + S + '" height="' + S + '" fill="transparent"/>');
    }
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.innerHTML = out.join('');
    if (opts.onClick) {
      svg.querySelectorAll('rect.hit').forEach(function (el) {
        el.addEventListener('click', function () { opts.onClick(sq(el.getAttribute('data-sq'))); });
      });
    }
  }
  return {parseFen: parseFen, apply: apply, draw: draw, sq: sq, name: name};
})();
// Shared chess board, the same interface as XQ: FEN to an array (index rank*8+file, rank 0 =
// White's back rank), UCI moves applied with castling (e1g1, or king takes own rook in
// Chess960 mode), en passant and promotion but no legality, and an SVG drawing.
var CH = (function () {
  // The solid glyphs for both sides, filled white or black, so that both sets look alike.
  var GLYPH = {k: '\u265a', q: '\u265b', r: '\u265c', b: '\u265d', n: '\u265e', p: '\u265f'};
  function parseFen(fen) {
    var b = new Array(64).fill(null);
    var rows = fen.split(' ')[0].split('/');
    for (var i = 0; i < rows.length && i < 8; i++) {
      var rank = 7 - i, file = 0;
      for (var ch of rows[i]) {
        if (ch >= '0' && ch <= '9') { file += +ch; continue; }
        if (file < 8) b[rank * 8 + file] = ch;
        file++;
      }
    }
    return b;
  }
  function sq(s) { return (s.charCodeAt(1) - 49) * 8 + (s.charCodeAt(0) - 97); }
  function name(s) { return String.fromCharCode(97 + s % 8) + (Math.floor(s / 8) + 1); }
  function apply(b, uci) {
    var f = sq(uci.slice(0, 2)), t = sq(uci.slice(2, 4)), p = b[f], q = b[t];
    if (!p) return;
    var white = p === p.toUpperCase(), kind = p.toLowerCase();
    var rank = Math.floor(f / 8), df = t % 8 - f % 8;
    var ownRook = q && q.toLowerCase() === 'r' && (q === q.toUpperCase()) === white;
    if (kind === 'k' && (ownRook || Math.abs(df) === 2)) {
      // Castling: the rook is the one taken (Chess960 notation) or the corner one.
      var kingSide = df > 0, rookFrom = ownRook ? t : rank * 8 + (kingSide ? 7 : 0);
      var rook = b[rookFrom];
      b[f] = null; b[rookFrom] = null;
      b[rank * 8 + (kingSide ? 6 : 2)] = p;
      b[rank * 8 + (kingSide ? 5 : 3)] = rook;
      return;
    }
    if (kind === 'p' && df !== 0 && !q) b[rank * 8 + t % 8] = null;
    b[t] = uci.length > 4 ? (white ? uci[4].toUpperCase() : uci[4].toLowerCase()) : p;
    b[f] = null;
  }
  // Draws `b` into the <svg> element `svg`; opts: flip, last (uci), selected (square),
  // targets (squares), onClick(square).
  function draw(svg, b, opts) {
    opts = opts || {};
    var S = 56, M = 24, W = M * 2 + S * 8;
    var x = function (f) { return M + S * (opts.flip ? 7 - f : f); };
    var y = function (r) { return M + S * (opts.flip ? r : 7 - r); };
    var out = ['<rect x="0" y="0" width="' + W + '" height="' + W + '" fill="#dcc9a8"/>'];
    var lit = {};
    if (opts.last) { lit[sq(opts.last.slice(0, 2))] = 1; lit[sq(opts.last.slice(2, 4))] = 1; }
    for (var i = 0; i < 64; i++) {
      var f = i % 8, r = Math.floor(i / 8);
      var fill = lit[i] ? ((f + r) % 2 ? '#cdd26a' : '#aaa23a') : ((f + r) % 2 ? '#f0d9b5' : '#b58863');
      out.push('<rect class="square" x="' + x(f) + '" y="' + y(r) + '" width="' + S + '" height="' + S + '" fill="' + fill + '"/>');
    }
    for (var k = 0; k < 8; k++) {
      out.push('<text x="' + (x(k) + S / 2) + '" y="' + (W - 7) + '" font-size="13" text-anchor="middle" fill="#333">' + String.fromCharCode(97 + k) + '</text>');
      out.push('<text x="' + (M / 2) + '" y="' + (y(k) + S / 2 + 5) + '" font-size="13" text-anchor="middle" fill="#333">' + (k + 1) + '</text>');
    }
    for (var j = 0; j < 64; j++) {
      var p = b[j], cx = x(j % 8) + S / 2, cy = y(Math.floor(j / 8)) + S / 2;
      if (p) {
        var white = p === p.toUpperCase();
        out.push('<g data-sq="' + name(j) + '" data-piece="' + p + '">' +
          (opts.selected === j ? '<rect x="' + (cx - S / 2 + 2) + '" y="' + (cy - S / 2 + 2) + '" width="' + (S - 4) + '" height="' + (S - 4) + '" fill="none" stroke="#06c" stroke-width="4"/>' : '') +
          '<text x="' + cx + '" y="' + (cy + 15) + '" font-size="44" text-anchor="middle" fill="' + (white ? '#fff' : '#111') +
          '" stroke="' + (white ? '#111' : '#000') + '" stroke-width="1.2">' + GLYPH[p.toLowerCase()] + '</text></g>');
      }
      if (opts.targets && opts.targets.indexOf(j) >= 0) {
        out.push('<circle class="target" data-sq="' + name(j) + '" cx="' + cx + '" cy="' + cy + '" r="' + (p ? 24 : 9) + '" fill="' + (p ? 'none' : '#06c') + '" stroke="#06c" stroke-width="' + (p ? 4 : 0) + '" opacity="0.6"/>');
      }
      if (opts.onClick) out.push('<rect class="hit" data-sq="' + name(j) + '" x="' + (cx - S / 2) + '" y="' + (cy - S / 2) + '" width="' + S + '" height="' + S + '" fill="transparent"/>');
    }
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + W);
    svg.innerHTML = out.join('');
    if (opts.onClick) {
      svg.querySelectorAll('rect.hit').forEach(function (el) {
        el.addEventListener('click', function () { opts.onClick(sq(el.getAttribute('data-sq'))); });
      });
    }
  }
  // The board field of a FEN (the tests compare it with the engine's).
  function toBoard(b) {
    var rows = [];
    for (var r = 7; r >= 0; r--) {
      var row = '', gap = 0;
      for (var f = 0; f < 8; f++) {
        var p = b[r * 8 + f];
        if (!p) { gap++; continue; }
        if (gap) { row += gap; gap = 0; }
        row += p;
      }
      rows.push(gap ? row + gap : row);
    }
    return rows.join('/');
  }
  return {parseFen: parseFen, apply: apply, draw: draw, sq: sq, name: name, toBoard: toBoard};
})();
