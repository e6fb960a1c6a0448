// replay.js: the replay page of one stored game. It fetches the replay JSON
// named by <section id="replay" data-src>, draws its positions with
// board.js and steps through them with the buttons, the move list and the
// arrow, Home and End keys. The URL's fragment (#12) names the ply shown.
"use strict";

(function () {
  const section = document.getElementById("replay");
  if (!section || !window.EvolvedBoard) return;
  const EB = window.EvolvedBoard;
  const $ = (id) => document.getElementById(id);
  const buttons = { first: $("first"), prev: $("prev"), next: $("next"), last: $("last"), flip: $("flip") };
  const plyEl = $("ply");
  const movesEl = $("moves");
  const errorEl = $("error");
  const board = EB.create($("board") || section, {});

  let replay = null; // play.Replay
  let ply = 0;
  let flip = false;

  function showError(message) {
    if (errorEl) errorEl.textContent = message;
    if (plyEl) plyEl.textContent = "";
  }

  function plyFromHash() {
    const m = /^#(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : 0;
  }

  function go(n, fromHash) {
    if (!replay) return;
    const total = replay.moves.length;
    n = Math.max(0, Math.min(total, n));
    ply = n;
    board.draw(replay.boards[n], { flip: flip });
    if (plyEl) plyEl.textContent = `move ${n} of ${total}`;
    section.dataset.ply = String(n);
    buttons.first.disabled = buttons.prev.disabled = n === 0;
    buttons.next.disabled = buttons.last.disabled = n === total;
    for (const b of movesEl.querySelectorAll("button[aria-current]")) {
      b.removeAttribute("aria-current");
      b.closest("li").classList.remove("current");
    }
    const cur = movesEl.querySelector(`button[data-ply="${n}"]`);
    if (cur) {
      cur.setAttribute("aria-current", "step");
      cur.closest("li").classList.add("current");
      keepInView(cur.closest("li"));
    } else if (n === 0) {
      movesEl.scrollTop = 0;
    }
    if (!fromHash) {
      const url = n > 0 ? `#${n}` : location.pathname + location.search;
      history.replaceState(null, "", url);
    }
  }

  // keepInView scrolls the move list (never the page) so that item shows.
  function keepInView(item) {
    const top = item.offsetTop - movesEl.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < movesEl.scrollTop) movesEl.scrollTop = top - 4;
    else if (bottom > movesEl.scrollTop + movesEl.clientHeight) movesEl.scrollTop = bottom - movesEl.clientHeight + 4;
  }

  function start(data) {
    const r = data && data.replay;
    if (!r || !Array.isArray(r.boards) || r.boards.length === 0) {
      showError("The server sent no positions for this game.");
      return;
    }
    const moves = Array.isArray(r.moves) ? r.moves : [];
    replay = { boards: r.boards, moves: moves.slice(0, r.boards.length - 1) };
    const b0 = replay.boards[0];
    EB.fillMoves(movesEl, replay.moves, { game: b0.game, toMove: b0.to_move, fen: b0.fen, buttons: true });
    buttons.flip.disabled = false;
    go(plyFromHash(), true);
  }

  async function load() {
    const src = section.dataset.src;
    if (!src) {
      showError("This page names no game to replay.");
      return;
    }
    let data;
    try {
      data = await EB.api("GET", src);
    } catch (err) {
      showError(err.message);
      return;
    }
    start(data);
  }

  buttons.first.addEventListener("click", () => go(0));
  buttons.prev.addEventListener("click", () => go(ply - 1));
  buttons.next.addEventListener("click", () => go(ply + 1));
  buttons.last.addEventListener("click", () => go(replay ? replay.moves.length : 0));
  buttons.flip.addEventListener("click", () => {
    flip = !flip;
    buttons.flip.setAttribute("aria-pressed", flip ? "true" : "false");
    go(ply);
  });
  movesEl.addEventListener("click", (ev) => {
    const li = ev.target instanceof Element ? ev.target.closest("li[data-ply]") : null;
    if (li) go(Number(li.dataset.ply));
  });
  document.addEventListener("keydown", (ev) => {
    if (!replay || ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    const t = ev.target;
    if (t instanceof Element && t.closest("input, textarea, select, [contenteditable]")) return;
    let n;
    switch (ev.key) {
      case "ArrowLeft": n = ply - 1; break;
      case "ArrowRight": n = ply + 1; break;
      case "Home": n = 0; break;
      case "End": n = replay.moves.length; break;
      default: return;
    }
    ev.preventDefault();
    go(n);
  });
  window.addEventListener("hashchange", () => go(plyFromHash(), true));

  load();
})();
