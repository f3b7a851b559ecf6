// The pages' shared code: the board, the server calls, the state loop, the timers.
"use strict";
const TOKEN = location.pathname.split("/")[1];
const api = (path) => "/" + TOKEN + "/api/" + path;
let state = null;
let received = 0;
// Milliseconds from each click or key to its answer on the page, and every reply
// received (read by the tests).
window.senteLatencies = [];
window.senteReplies = [];
// The page's script errors (the tests check there are none).
window.senteErrors = [];
window.addEventListener("error", (e) => window.senteErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.senteErrors.push(String(e.reason)));

function ijOf(i) { return String(Math.floor(i / 9)) + String(i % 9); }
function padded(r, c) { return (9 - r) * 11 + c + 1; }
function gtp(r, c) { return "ABCDEFGHJ"[c] + String(9 - r); }

// Builds a 9×9 board in `el`: logical coordinates on the edges, the padded index and
// the GTP vertex on hover, `onPoint(ij)` on a click.
function makeBoard(el, onPoint) {
  el.innerHTML = "";
  el.classList.add("board");
  const corner = document.createElement("div");
  corner.className = "lab";
  el.appendChild(corner);
  for (let c = 0; c < 9; c++) {
    const l = document.createElement("div");
    l.className = "lab";
    l.textContent = c;
    el.appendChild(l);
  }
  for (let r = 0; r < 9; r++) {
    const l = document.createElement("div");
    l.className = "lab";
    l.textContent = r;
    el.appendChild(l);
    for (let c = 0; c < 9; c++) {
      const p = document.createElement(onPoint ? "button" : "div");
      p.className = "pt";
      const ij = String(r) + String(c);
      p.dataset.ij = ij;
      p.title = ij + " · padded " + padded(r, c) + " · " + gtp(r, c);
      if (onPoint) {
        p.type = "button";
        p.addEventListener("click", () => onPoint(ij));
      }
      el.appendChild(p);
    }
  }
}

// Draws `text` (81 characters X, O, .) with the marks of `marks` ({class: [ij…]}).
function drawBoard(el, text, marks) {
  const pts = el.querySelectorAll(".pt");
  pts.forEach((p, i) => {
    const ch = text[i];
    p.className = "pt" + (ch === "X" ? " b" : ch === "O" ? " w" : "");
    for (const [cls, list] of Object.entries(marks || {})) {
      if (list && list.includes(ijOf(i))) p.classList.add(cls);
    }
  });
}

function clockText(ms) {
  if (ms < 0) return "-" + clockText(-ms);
  const s = Math.floor(ms / 1000);
  const m = Math.floor(s / 60);
  return m + ":" + String(s % 60).padStart(2, "0");
}

function showError(text) {
  const e = document.getElementById("error");
  e.textContent = text || "";
  e.hidden = !text;
}

// Posts an action; the reply is the page's new state, drawn at once.
async function post(action, body, started) {
  const t0 = started || performance.now();
  let reply;
  try {
    const r = await fetch(api(action), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body || {}),
    });
    reply = await r.json();
    if (!r.ok) {
      window.senteReplies.push(reply);
      showError(reply.error || ("error " + r.status));
      window.senteLatencies.push(performance.now() - t0);
      return null;
    }
  } catch (e) {
    showError("the server does not answer: " + e);
    return null;
  }
  showError("");
  accept(reply);
  window.senteLatencies.push(performance.now() - t0);
  return reply;
}

function accept(s) {
  window.senteReplies.push(s);
  if (state && s.instance === state.instance && s.version < state.version) return;
  state = s;
  received = performance.now();
  render(s);
}

// Waits on the server for each change and draws it.
async function loop() {
  for (;;) {
    try {
      const since = state ? "?since=" + state.version + "&instance=" + state.instance : "";
      const r = await fetch(api("state") + since);
      if (r.ok) {
        const s = await r.json();
        document.body.classList.remove("offline");
        if (!state || s.version !== state.version || s.instance !== state.instance) accept(s);
        else window.senteReplies.push(s);
      } else {
        await new Promise((ok) => setTimeout(ok, 1000));
      }
    } catch (e) {
      document.body.classList.add("offline");
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }
}

// The running timer counts on between the server's replies.
function tick() {
  if (state) drawClocks(state, performance.now() - received);
}

// Reads the typed try of the form `formId` and sends it.
function typedTry(formId, inputId, extra) {
  document.getElementById(formId).addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t0 = performance.now();
    const input = document.getElementById(inputId);
    const text = input.value;
    input.value = "";
    post("try", Object.assign({ text }, extra ? extra() : {}), t0);
  });
}

function start() {
  loop();
  setInterval(tick, 250);
}
