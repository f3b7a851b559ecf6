// sente arena report: draws the frames the report embeds (every position was computed
// by sente with its own rules code) and steps through them. Nothing here plays a
// move: a frame holds the boards as text, the move, and what the engine said.
//
// URL hash: #g=<game number>&f=<frame index|last> opens a position; #selftest steps
// every game from its first frame to its last and back, checks that each frame drew
// as many pieces as it holds, and writes the outcome at the top of the page
// (the element with id "selftest").
(function () {
  'use strict';
  var SVG = 'http://www.w3.org/2000/svg';
  var errors = [];
  window.addEventListener('error', function (e) {
    errors.push('uncaught: ' + (e.message || e));
  });

  var data = JSON.parse(document.getElementById('report-data').textContent);
  var games = data.games;
  var state = { g: 0, f: 0 };
  var boxes = document.getElementById('boards');
  var info = document.getElementById('move-info');
  var label = document.getElementById('frame-label');
  var slider = document.getElementById('frame-slider');
  var picker = document.getElementById('game-picker');

  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) {
      if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    }
    if (parent) parent.appendChild(e);
    return e;
  }
  function txt(parent, x, y, s, attrs) {
    var a = { x: x, y: y, 'text-anchor': 'middle', 'font-size': 12, fill: '#333' };
    for (var k in attrs || {}) a[k] = attrs[k];
    var t = el('text', a, parent);
    t.textContent = s;
    return t;
  }
  function figure(caption, width, height) {
    var fig = document.createElement('figure');
    var svg = el('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img' });
    fig.appendChild(svg);
    var cap = document.createElement('figcaption');
    cap.textContent = caption;
    fig.appendChild(cap);
    boxes.appendChild(fig);
    return svg;
  }

  // --- Othello: 8x8 squares from a1 (top-left), X black, O white, - empty.
  function drawOthello(game, frame) {
    var cell = 40, pad = 22, side = pad + 8 * cell + 6;
    var svg = figure(game.boards[0], side, side);
    el('rect', { x: pad, y: pad, width: 8 * cell, height: 8 * cell, fill: '#2e7d4f' }, svg);
    for (var i = 0; i <= 8; i++) {
      el('line', { x1: pad + i * cell, y1: pad, x2: pad + i * cell, y2: pad + 8 * cell, stroke: '#1b4d31' }, svg);
      el('line', { x1: pad, y1: pad + i * cell, x2: pad + 8 * cell, y2: pad + i * cell, stroke: '#1b4d31' }, svg);
    }
    for (i = 0; i < 8; i++) {
      txt(svg, pad + (i + 0.5) * cell, 15, 'abcdefgh'.charAt(i));
      txt(svg, 10, pad + (i + 0.5) * cell + 4, String(i + 1));
    }
    [[2, 2], [6, 2], [2, 6], [6, 6]].forEach(function (p) {
      el('circle', { cx: pad + p[0] * cell, cy: pad + p[1] * cell, r: 3, fill: '#1b4d31' }, svg);
    });
    var b = frame.b[0];
    for (var sq = 0; sq < 64; sq++) {
      var c = b.charAt(sq);
      if (c !== 'X' && c !== 'O') continue;
      el('circle', {
        'class': 'stone ' + (c === 'X' ? 'black' : 'white'),
        cx: pad + (sq % 8 + 0.5) * cell, cy: pad + (Math.floor(sq / 8) + 0.5) * cell, r: 16.5,
        fill: c === 'X' ? '#111' : '#f7f7f7', stroke: '#222', 'stroke-width': 1
      }, svg);
    }
    if (frame.at !== undefined) {
      el('circle', {
        'class': 'mark last', cx: pad + (frame.at % 8 + 0.5) * cell,
        cy: pad + (Math.floor(frame.at / 8) + 0.5) * cell, r: 4.5, fill: '#e53935'
      }, svg);
    }
  }

  // --- Go: size x size cells from the top-left, X black, O white, . empty.
  var LETTERS = 'ABCDEFGHJKLMNOPQRST';
  function starPoints(n) {
    if (n === 9) return [[2, 2], [2, 6], [6, 2], [6, 6], [4, 4]];
    if (n === 7) return [[2, 2], [2, 4], [4, 2], [4, 4], [3, 3]];
    return n % 2 === 1 && n >= 5 ? [[(n - 1) / 2, (n - 1) / 2]] : [];
  }
  function drawGo(caption, n, cells, marks, at, tint) {
    var cell = 34, pad = 34, side = 2 * pad + (n - 1) * cell;
    var svg = figure(caption, side, side);
    el('rect', { x: 0, y: 0, width: side, height: side, fill: tint || '#dcb35c', rx: 4 }, svg);
    for (var i = 0; i < n; i++) {
      var p = pad + i * cell;
      el('line', { x1: pad, y1: p, x2: pad + (n - 1) * cell, y2: p, stroke: '#4a3b1c' }, svg);
      el('line', { x1: p, y1: pad, x2: p, y2: pad + (n - 1) * cell, stroke: '#4a3b1c' }, svg);
      txt(svg, p, 13, LETTERS.charAt(i), { 'font-size': 11 });
      txt(svg, 10, p + 4, String(n - i), { 'font-size': 11 });
    }
    starPoints(n).forEach(function (s) {
      el('circle', { cx: pad + s[1] * cell, cy: pad + s[0] * cell, r: 3, fill: '#4a3b1c' }, svg);
    });
    function xy(k) { return [pad + (k % n) * cell, pad + Math.floor(k / n) * cell]; }
    for (var k = 0; k < n * n; k++) {
      var c = cells.charAt(k);
      if (c !== 'X' && c !== 'O') continue;
      var q = xy(k);
      el('circle', {
        'class': 'stone ' + (c === 'X' ? 'black' : 'white'), cx: q[0], cy: q[1], r: cell * 0.46,
        fill: c === 'X' ? '#151515' : '#fafafa', stroke: '#222', 'stroke-width': 1
      }, svg);
    }
    (marks || []).forEach(function (mk) {
      var q = xy(mk[0]), d = cell * 0.2;
      if (mk[1] === 'r') {
        el('path', {
          'class': 'mark refused', d: 'M' + (q[0] - d) + ',' + (q[1] - d) + 'L' + (q[0] + d) + ',' + (q[1] + d) +
            'M' + (q[0] + d) + ',' + (q[1] - d) + 'L' + (q[0] - d) + ',' + (q[1] + d),
          stroke: '#d32f2f', 'stroke-width': 3
        }, svg);
      } else {
        el('rect', {
          'class': 'mark ' + (mk[1] === 'c' ? 'captured' : 'told'), x: q[0] - d, y: q[1] - d, width: 2 * d, height: 2 * d,
          fill: 'none', stroke: mk[1] === 'c' ? '#d32f2f' : '#6a1b9a', 'stroke-width': 2.5
        }, svg);
      }
    });
    if (at !== undefined && at !== null) {
      var q2 = xy(at), dark = cells.charAt(at) === 'X';
      el('circle', {
        'class': 'mark last', cx: q2[0], cy: q2[1], r: cell * 0.18, fill: 'none',
        stroke: dark ? '#fafafa' : '#e53935', 'stroke-width': 2.5
      }, svg);
    }
  }

  // --- Chaos Clock: the piece on each point 1..12 (0 none), a dial as on a clock face.
  function drawClock(game, frame) {
    var W = 380, H = 430, cx = 190, cy = 185, R = 132;
    var svg = figure(game.boards[0], W, H);
    el('circle', { cx: cx, cy: cy, r: R + 44, fill: '#fbf7ee', stroke: '#8d7b5a', 'stroke-width': 3 }, svg);
    el('circle', { cx: cx, cy: cy, r: R, fill: 'none', stroke: '#d8cbb0', 'stroke-dasharray': '3 5' }, svg);
    var pieces = frame.b[0].split(',').map(Number);
    function pos(p, r) {
      var a = p * Math.PI / 6;
      return [cx + r * Math.sin(a), cy - r * Math.cos(a)];
    }
    for (var p = 1; p <= 12; p++) {
      var q = pos(p, R), lq = pos(p, R + 32);
      el('circle', { cx: q[0], cy: q[1], r: 26, fill: '#fff', stroke: '#cfc3aa', 'stroke-width': 1.5 }, svg);
      txt(svg, lq[0], lq[1] + 4, String(p), { 'font-size': 12, fill: '#8d7b5a', 'font-weight': 600 });
      var n = pieces[p - 1];
      if (!n) continue;
      var odd = n % 2 === 1, fixed = n === p;
      el('circle', {
        'class': 'stone piece ' + (odd ? 'jia' : 'yi'), cx: q[0], cy: q[1], r: 21,
        fill: odd ? '#c0392b' : '#1f6fb4', stroke: fixed ? '#f2b705' : '#333', 'stroke-width': fixed ? 5 : 1
      }, svg);
      txt(svg, q[0], q[1] + 5, String(n), { 'font-size': 15, fill: '#fff', 'font-weight': 700 });
      if (frame.w && frame.w === n) {
        el('circle', { 'class': 'mark walked', cx: q[0], cy: q[1], r: 25, fill: 'none', stroke: '#555', 'stroke-dasharray': '4 3', 'stroke-width': 2 }, svg);
      }
    }
    if (frame.at !== undefined) {
      var lastq = pos(frame.at, R);
      el('circle', { 'class': 'mark last', cx: lastq[0], cy: lastq[1], r: 29, fill: 'none', stroke: '#e53935', 'stroke-width': 3 }, svg);
    }
    txt(svg, cx, cy - 6, frame.m ? 'last: ' + frame.m : 'start', { 'font-size': 14, fill: '#5f6b78' });
    var seat = data.seats;
    var hands = frame.h || [[], []];
    [0, 1].forEach(function (s) {
      var y = 392 + 22 * s;
      txt(svg, 12, y + 4, seat[s].split(' (')[0] + ' hand:', { 'text-anchor': 'start', 'font-size': 12 });
      hands[s].forEach(function (n, i) {
        var x = 118 + i * 26;
        el('circle', { 'class': 'hand', cx: x, cy: y, r: 10, fill: n % 2 ? '#c0392b' : '#1f6fb4' }, svg);
        txt(svg, x, y + 4, String(n), { 'font-size': 11, fill: '#fff', 'font-weight': 700 });
      });
      if (!hands[s].length) txt(svg, 118, y + 4, '–', { 'text-anchor': 'start' });
    });
  }

  function drawPhantom(game, frame) {
    var tints = ['#dcb35c', '#cfd8e6', '#eadfca'];
    for (var i = 0; i < 3; i++) {
      // The try's point: on the referee's board and in the mover's own view.
      var at = i === 0 || (frame.s !== undefined && frame.s + 1 === i) ? frame.at : undefined;
      drawGo(game.boards[i], game.size, frame.b[i], (frame.x || [])[i], at, tints[i]);
    }
  }

  function describe(game, frame, index) {
    info.textContent = '';
    function line(cls, s) {
      var d = document.createElement('div');
      d.className = cls;
      d.textContent = s;
      info.appendChild(d);
      return d;
    }
    if (index === 0) {
      line('move', 'start position');
    } else {
      var who = frame.s === undefined ? '' : data.seats[frame.s].split(' (')[0] + ' ' + game.players[frame.s] + ': ';
      line('move', who + frame.m);
      if (frame.o) line('opening', 'a move of the opening');
    }
    var stat = [];
    if (frame.ms !== undefined) stat.push(frame.ms + ' ms');
    if (frame.sc !== undefined) stat.push('score ' + (frame.sc > 0 ? '+' : '') + frame.sc);
    if (frame.d !== undefined) stat.push('depth ' + frame.d);
    if (frame.n !== undefined) stat.push(frame.n + ' nodes');
    // The record's own annotation, when the results have no per-move data.
    if (frame.c && frame.ms === undefined) stat.push(frame.c);
    if (stat.length) line('stat', stat.join(' · '));
    line('status', frame.t);
    if (game.error && index === game.frames.length - 1) line('error', 'replay stopped: ' + game.error);
  }

  function show(g, f) {
    if (!games.length) return;
    g = Math.max(0, Math.min(games.length - 1, g));
    var game = games[g];
    var last = Math.max(0, game.frames.length - 1);
    f = Math.max(0, Math.min(last, f));
    state.g = g;
    state.f = f;
    boxes.textContent = '';
    picker.value = String(g);
    slider.max = String(last);
    slider.value = String(f);
    var unit = game.kind === 'phantomgo' ? 'try ' : 'move ';
    label.textContent = (f === 0 ? 'start' : unit + f) + ' / ' + last;
    if (!game.frames.length) {
      info.textContent = '';
      var d = document.createElement('div');
      d.className = 'error';
      d.textContent = 'no replay: ' + (game.error || 'no frames');
      info.appendChild(d);
      return;
    }
    var frame = game.frames[f];
    if (game.kind === 'othello') drawOthello(game, frame);
    else if (game.kind === 'go') drawGo(game.boards[0], game.size, frame.b[0], (frame.x || [])[0], frame.at);
    else if (game.kind === 'chaosclock') drawClock(game, frame);
    else if (game.kind === 'phantomgo') drawPhantom(game, frame);
    describe(game, frame, f);
  }

  games.forEach(function (game, i) {
    var o = document.createElement('option');
    o.value = String(i);
    o.textContent = game.title;
    picker.appendChild(o);
  });
  picker.addEventListener('change', function () { show(Number(picker.value), 0); });
  slider.addEventListener('input', function () { show(state.g, Number(slider.value)); });
  function step(d) { show(state.g, state.f + d); }
  document.getElementById('first').addEventListener('click', function () { show(state.g, 0); });
  document.getElementById('prev').addEventListener('click', function () { step(-1); });
  document.getElementById('next').addEventListener('click', function () { step(1); });
  document.getElementById('last').addEventListener('click', function () { show(state.g, 1e9); });
  document.addEventListener('keydown', function (e) {
    var tag = e.target && e.target.tagName;
    if (tag === 'SELECT' || tag === 'TEXTAREA') return;
    if (e.key === 'ArrowRight') step(1);
    else if (e.key === 'ArrowLeft') step(-1);
    else if (e.key === 'Home') show(state.g, 0);
    else if (e.key === 'End') show(state.g, 1e9);
    else if (e.key === 'PageDown') show(state.g + 1, 0);
    else if (e.key === 'PageUp') show(state.g - 1, 0);
    else return;
    e.preventDefault();
  });

  function hashParams() {
    var out = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (!kv) return;
      var value = i < 0 ? '' : kv.slice(i + 1);
      try { value = decodeURIComponent(value); } catch (e) { /* a malformed escape: kept as written */ }
      out[i < 0 ? kv : kv.slice(0, i)] = value;
    });
    return out;
  }
  function fromHash(scroll) {
    var h = hashParams();
    var g = 0;
    if (h.g !== undefined) {
      for (var i = 0; i < games.length; i++) if (String(games[i].game) === h.g) g = i;
    }
    var f = h.f === 'last' ? 1e9 : Number(h.f || 0) || 0;
    show(g, f);
    if (scroll === true && h.g !== undefined) document.getElementById('replay').scrollIntoView();
  }
  // A game's link scrolls to the replay; a page opened at #g=… shows its top.
  window.addEventListener('hashchange', function () { fromHash(true); });

  function selftest() {
    var frames = 0, checked = 0;
    function check(g, f) {
      var frame = games[g].frames[f];
      var drawn = boxes.querySelectorAll('.stone').length;
      if (drawn !== frame.k) {
        errors.push('game ' + games[g].game + ' frame ' + f + ': ' + drawn + ' pieces drawn, ' + frame.k + ' held');
      }
      if (state.f !== f || slider.value !== String(f)) errors.push('game ' + games[g].game + ': frame ' + f + ' not shown');
      frames++;
    }
    for (var g = 0; g < games.length; g++) {
      try {
        var game = games[g];
        if (game.error) errors.push('game ' + game.game + ': ' + game.error);
        var n = game.frames.length;
        if (!n) continue;
        show(g, 0);
        check(g, 0);
        for (var f = 1; f < n; f++) {
          step(1);
          check(g, f);
        }
        for (f = n - 2; f >= 0; f--) {
          step(-1);
          check(g, f);
        }
        // The keys step too.
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
        if (state.f !== n - 1) errors.push('game ' + game.game + ': End did not go to the last frame');
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
        if (n > 1 && state.f !== n - 2) errors.push('game ' + game.game + ': ArrowLeft did not step back');
        checked++;
      } catch (e) {
        errors.push('game ' + games[g].game + ': ' + e);
      }
    }
    show(0, 0);
    var out = document.createElement('pre');
    out.id = 'selftest';
    out.textContent = (errors.length ? 'selftest FAILED' : 'selftest ok') + ': ' + checked + ' games, ' + frames +
      ' frames, ' + errors.length + ' errors' + (errors.length ? '\n' + errors.slice(0, 30).join('\n') : '');
    document.body.insertBefore(out, document.body.firstChild);
  }

  if (location.hash === '#selftest') selftest();
  else fromHash(false);
})();
