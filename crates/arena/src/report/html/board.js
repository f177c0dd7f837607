// Shared xiangqi board: FEN to an array (index rank*9+file, rank 0 = Red's back rank), UCI
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
