// play.js: a game against an engine in the browser. The form starts a game
// (POST /api/play), a move on the board is posted to /api/play/{id}/move and
// the answer, after the engine's reply, is drawn. The game's id lives in
// sessionStorage, so a reload continues it.
"use strict";

(function () {
  const section = document.getElementById("play");
  if (!section || !window.EvolvedBoard) return;
  const EB = window.EvolvedBoard;
  const $ = (id) => document.getElementById(id);
  const form = $("new-game");
  const gameSel = form.elements.namedItem("game");
  const opponentSel = form.elements.namedItem("opponent");
  const sideSel = form.elements.namedItem("side");
  const submit = form.querySelector("button[type=submit], button:not([type])");
  const statusEl = $("status");
  const matchEl = $("match");
  const movesEl = $("moves");
  const figuresEl = $("figures");
  const recordEl = $("record");
  const errorEl = $("error");
  const placeholder = $("board-placeholder");
  const board = EB.create($("board") || section, {});

  const KEY = "evolved.play.id";
  let current = null; // {id, state} as the server last sent it
  let busy = false; // a request that changes the game is under way
  let optionsToken = 0; // the latest opponents request; older answers are dropped

  // ---- small helpers ----

  // remember keeps the game's id and game ("chess:ab12…") for a reload.
  function remember(id, game) {
    try {
      if (id) sessionStorage.setItem(KEY, `${game}:${id}`);
      else sessionStorage.removeItem(KEY);
    } catch (err) {
      // storage may be off; the game then simply does not survive a reload
    }
  }

  // remembered returns the remembered game as {id, game}, or null.
  function remembered() {
    let v = null;
    try {
      v = sessionStorage.getItem(KEY);
    } catch (err) {
      return null;
    }
    const m = /^([a-z]+):(.+)$/.exec(v || "");
    return m ? { game: m[1], id: m[2] } : null;
  }

  function showError(message) {
    errorEl.textContent = message || "";
  }

  function setStatus(text, kind) {
    statusEl.textContent = text;
    statusEl.className = kind || "";
    section.dataset.status = kind || "";
  }

  function setBusy(b) {
    busy = b;
    if (submit) submit.disabled = b;
    section.setAttribute("aria-busy", b ? "true" : "false");
  }

  // ---- the form: opponents and sides for the chosen game ----

  function fillSelect(sel, items, keep) {
    const opts = items.map((it) => {
      const o = document.createElement("option");
      o.value = it.value;
      o.textContent = it.label;
      return o;
    });
    sel.replaceChildren(...opts);
    if (keep && items.some((it) => it.value === keep)) sel.value = keep;
  }

  async function loadOptions(game) {
    const token = ++optionsToken;
    const keepOpponent = opponentSel.value;
    const keepSide = sideSel.value;
    opponentSel.disabled = sideSel.disabled = true;
    try {
      const data = await EB.api("GET", `/api/play/opponents?game=${encodeURIComponent(game)}`);
      if (token !== optionsToken) return;
      const opponents = (data && Array.isArray(data.opponents) ? data.opponents : []).map((o) => ({
        value: o.id,
        label: o.name || o.id,
      }));
      const sides = (data && Array.isArray(data.sides) ? data.sides : []).map((s) => ({ value: s, label: EB.capital(s) }));
      fillSelect(opponentSel, opponents, keepOpponent);
      fillSelect(sideSel, sides, keepSide);
      if (opponents.length === 0) showError(`No opponents are available for ${game}.`);
    } catch (err) {
      if (token !== optionsToken) return;
      showError(err.message);
    } finally {
      if (token === optionsToken) opponentSel.disabled = sideSel.disabled = false;
    }
  }

  function chooseGame(game) {
    if (![...gameSel.options].some((o) => o.value === game)) return false;
    gameSel.value = game;
    section.dataset.game = game;
    return true;
  }

  // ---- drawing a game ----

  function resultFor(state) {
    const game = state.board.game;
    if (state.result === "1/2-1/2") return "Draw";
    if (state.result !== "1-0" && state.result !== "0-1") return "Game over";
    const firstWon = state.result === "1-0";
    const personFirst = state.human === EB.firstSide(game);
    return firstWon === personFirst ? "You win" : "You lose";
  }

  function show(data) {
    const state = data.state;
    current = data;
    remember(data.id, state.board.game);
    const b = state.board;
    const legal = !state.over && Array.isArray(state.legal) ? state.legal : [];
    if (placeholder) placeholder.hidden = true;
    // The person's pieces at the bottom: the boards come with Black at the top
    // in all three games (draughts: squares 1-12, Black's start, first).
    board.draw(b, { flip: state.human === "black", legal: legal, onMove: move, disabled: false });

    if (state.over) {
      const r = resultFor(state);
      // "Draw: move limit" after "Draw" would say it twice.
      const why = r === "Draw" ? (state.outcome || "").replace(/^Draw: /, "") : state.outcome;
      setStatus(why ? `${r} — ${why}` : r, "over");
    } else if (legal.length > 0) {
      let s = `Your move (${EB.capital(state.human)}).`;
      if (typeof b.check === "number" && b.check >= 0) s += " Check!";
      setStatus(s, "your-move");
    } else {
      setStatus(`${state.engine || "The engine"} is to move…`, "thinking");
    }
    matchEl.textContent = `You play ${EB.capital(state.human)} against ${state.engine || "the engine"}.`;
    const moves = Array.isArray(state.moves) ? state.moves : [];
    drawMoves(state, moves);
    figuresEl.textContent = state.figures ? `${state.engine || "Engine"}: ${state.figures}` : "";
    recordEl.href = `/api/play/${encodeURIComponent(data.id)}/record`;
    recordEl.textContent = b.game === "draughts" ? "Download PDN" : "Download PGN";
    recordEl.hidden = false;
  }

  // drawMoves fills the move list; the side that made the first move follows
  // from the side to move now and the number of plies.
  function drawMoves(state, moves) {
    const b = state.board;
    const toMoveAtStart = moves.length % 2 === 0 ? b.to_move : EB.otherSide(b.game, b.to_move);
    EB.fillMoves(movesEl, moves, { game: b.game, toMove: toMoveAtStart, current: moves.length });
    movesEl.scrollTop = movesEl.scrollHeight;
  }

  function forget(message) {
    remember(null);
    current = null;
    board.setDisabled(true);
    setStatus(message, "");
  }

  // ---- actions ----

  async function move(option) {
    if (busy || !current) return;
    const id = current.id;
    const before = current;
    showError("");
    setBusy(true);
    board.setDisabled(true);
    // Show the person's move at once; the engine's reply follows.
    drawMoves(
      { board: { game: before.state.board.game, to_move: EB.otherSide(before.state.board.game, before.state.board.to_move) } },
      (before.state.moves || []).concat([option.text])
    );
    setStatus("thinking…", "thinking");
    try {
      const data = await EB.api("POST", `/api/play/${encodeURIComponent(id)}/move`, { move: option.text });
      if (!current || current.id !== id) return; // a new game began meanwhile
      show(data);
    } catch (err) {
      if (!current || current.id !== id) return;
      showError(err.message);
      if (err.status === 404) forget("This game is no longer on the server. Start a new one.");
      else show(before);
    } finally {
      setBusy(false);
    }
  }

  async function newGame(ev) {
    ev.preventDefault();
    if (busy) return;
    const body = { game: gameSel.value, opponent: opponentSel.value, side: sideSel.value };
    if (!body.opponent || !body.side) {
      showError("Choose an opponent and a side first.");
      return;
    }
    const before = current;
    showError("");
    setBusy(true);
    current = null;
    board.setDisabled(true);
    setStatus("thinking…", "thinking");
    try {
      const data = await EB.api("POST", "/api/play", body);
      show(data);
    } catch (err) {
      showError(err.message);
      // The game on the board, if any, goes on.
      if (before) show(before);
      else setStatus("", "");
    } finally {
      setBusy(false);
    }
  }

  async function resume(id) {
    setStatus("loading…", "thinking");
    try {
      const data = await EB.api("GET", `/api/play/${encodeURIComponent(id)}`);
      show(data);
      if (chooseGame(data.state.board.game)) await loadOptions(data.state.board.game);
      return;
    } catch (err) {
      if (err.status === 404) {
        remember(null);
        setStatus("", "");
      } else {
        showError(err.message);
        setStatus("", "");
      }
    }
    await loadOptions(gameSel.value);
  }

  // ---- start ----

  for (const o of gameSel.options) o.textContent = EB.capital(o.value);
  if (section.dataset.game) chooseGame(section.dataset.game);
  gameSel.addEventListener("change", () => {
    section.dataset.game = gameSel.value;
    showError("");
    loadOptions(gameSel.value);
  });
  form.addEventListener("submit", newGame);

  // A reload continues the game of this tab, unless the address asks for
  // another game (/play?game=xiangqi while a chess game is going on).
  const saved = remembered();
  const asked = new URLSearchParams(location.search).get("game");
  if (saved && (!asked || asked === saved.game)) resume(saved.id);
  else loadOptions(gameSel.value);
})();
