// board.js draws a play.Board (see the web contract) as an inline SVG and lets a
// person pick one of a list of legal moves by clicking two cells. It defines one
// global, EvolvedBoard, which also holds the JSON request (api) of the pages
// that draw boards; board.css styles what it draws. No inline styles: the
// site's Content-Security-Policy forbids them, so every look is a CSS class.
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const S = 60; // one square (chess, draughts) or the gap between two points (xiangqi)

  // Chess: the solid glyph filled in the side's colour; White's outline glyph
  // drawn over its white fill gives the familiar inner lines. U+FE0E asks for
  // the text (not emoji) presentation.
  const TEXT = "\uFE0E";
  const CHESS_SOLID = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
  const CHESS_OUTLINE = { k: "♔", q: "♕", r: "♖", b: "♗", n: "♘", p: "♙" };
  const CHESS_NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
  const XIANGQI = {
    K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
    k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
  };
  const GAME_NAMES = { chess: "Chess", draughts: "Draughts", xiangqi: "Xiangqi" };

  function svg(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v !== undefined && v !== null) e.setAttribute(k, String(v));
      }
    }
    if (parent) parent.appendChild(e);
    return e;
  }

  function text(parent, x, y, str, cls) {
    const t = svg("text", { x: x, y: y, class: cls }, parent);
    t.textContent = str;
    return t;
  }

  function isUpper(s) {
    return s !== s.toLowerCase();
  }

  // geometry returns where things go for a board: the view box, each display
  // position's centre and the margins that hold the coordinates.
  function geometry(board) {
    const files = board.files;
    const ranks = board.ranks;
    if (board.game === "xiangqi") {
      const pad = 0.62 * S; // the wood around the outer lines, room for edge pieces
      const coord = 20; // the coordinates, outside the wood
      const left = coord + pad;
      const top = pad + 4;
      return {
        points: true,
        width: left + (files - 1) * S + pad + 4,
        height: top + (ranks - 1) * S + pad + coord,
        x: (c) => left + c * S,
        y: (r) => top + r * S,
        wood: { x: coord, y: 4, w: (files - 1) * S + 2 * pad, h: (ranks - 1) * S + 2 * pad },
      };
    }
    // Chess: a frame wide enough for the coordinates; draughts: a thin one.
    const pad = board.game === "chess" ? 20 : 7;
    return {
      points: false,
      width: 2 * pad + files * S,
      height: 2 * pad + ranks * S,
      pad: pad,
      x: (c) => pad + c * S + S / 2,
      y: (r) => pad + r * S + S / 2,
    };
  }

  class Board {
    constructor(container, options) {
      this.options = Object.assign({ flip: false, legal: [], onMove: null, disabled: false }, options || {});
      this.board = null;
      this.opts = Object.assign({}, this.options);
      this.selected = -1;
      this.root = document.createElement("div");
      this.root.className = "eb-board";
      this.host = document.createElement("div");
      this.host.className = "eb-svg-host";
      this.chooser = document.createElement("div");
      this.chooser.className = "eb-chooser";
      this.chooser.hidden = true;
      this.chooser.setAttribute("role", "group");
      this.chooser.setAttribute("aria-label", "Choose the move");
      this.root.append(this.host, this.chooser);
      container.appendChild(this.root);
      this.choices = [];
      this.host.addEventListener("click", (ev) => this.onClick(ev));
      this.chooser.addEventListener("click", (ev) => this.onChoose(ev));
      // A click anywhere else on the page drops a half-made move.
      document.addEventListener("click", (ev) => {
        // (composedPath, not contains: a click on the board redraws it, so its
        // target has left the document by the time the click reaches here.)
        if (!ev.composedPath().includes(this.root)) this.clearSelection();
      });
      document.addEventListener("keydown", (ev) => {
        if (ev.key === "Escape") this.clearSelection();
      });
    }

    // draw shows a board. opts (all optional, defaulting to create's options):
    // flip, legal (the MoveOptions the person may play), onMove(option), disabled.
    draw(board, opts) {
      this.board = board;
      this.opts = Object.assign({}, this.options, opts || {});
      if (!Array.isArray(this.opts.legal)) this.opts.legal = [];
      this.selected = -1;
      this.hideChooser();
      this.render();
    }

    // setDisabled stops (or allows again) moves without redrawing the position.
    setDisabled(disabled) {
      this.opts.disabled = !!disabled;
      if (disabled) {
        this.selected = -1;
        this.hideChooser();
      }
      this.render();
    }

    clearSelection() {
      if (this.selected < 0 && this.chooser.hidden) return;
      this.selected = -1;
      this.hideChooser();
      this.render();
    }

    interactive() {
      return !this.opts.disabled && typeof this.opts.onMove === "function" && this.opts.legal.length > 0;
    }

    // cellAt is the cell index drawn at display row r, column c.
    cellAt(r, c) {
      const b = this.board;
      if (this.opts.flip) return (b.ranks - 1 - r) * b.files + (b.files - 1 - c);
      return r * b.files + c;
    }

    render() {
      const b = this.board;
      if (!b) return;
      const g = geometry(b);
      const legal = this.interactive() ? this.opts.legal : [];
      const froms = new Set(legal.map((m) => m.from));
      const targets = new Set(legal.filter((m) => m.from === this.selected).map((m) => m.to));
      const last = new Set(Array.isArray(b.last) ? b.last : []);
      const lastEnds = Array.isArray(b.last) && b.last.length > 0 ? [b.last[0], b.last[b.last.length - 1]] : [];

      const root = svg("svg", {
        viewBox: `0 0 ${g.width} ${g.height}`,
        class: `eb eb-${b.game}`,
        role: "img",
        "aria-label": describe(b),
      });
      this.root.dataset.game = b.game;
      this.root.dataset.fen = b.fen || "";
      this.root.dataset.flip = this.opts.flip ? "true" : "false";
      this.root.classList.toggle("eb-disabled", !!this.opts.disabled);
      this.root.classList.toggle("eb-interactive", legal.length > 0);
      if (this.opts.disabled) this.root.setAttribute("aria-busy", "true");
      else this.root.removeAttribute("aria-busy");

      if (g.points) drawXiangqiGrid(root, g, b);
      else svg("rect", { x: 0, y: 0, width: g.width, height: g.height, rx: 5, class: "eb-frame" }, root);

      const cells = svg("g", { class: "eb-cells" }, root);
      for (let r = 0; r < b.ranks; r++) {
        for (let c = 0; c < b.files; c++) {
          const i = this.cellAt(r, c);
          const x = g.x(c);
          const y = g.y(r);
          const piece = b.cells[i] || "";
          const label = (b.labels && b.labels[i]) || "";
          const cls = ["eb-cell"];
          if (froms.has(i)) cls.push("is-movable");
          if (i === this.selected) cls.push("is-selected");
          if (targets.has(i)) cls.push("is-target");
          if (last.has(i)) cls.push("is-last");
          if (i === b.check) cls.push("is-check");
          const cell = svg("g", { class: cls.join(" "), "data-cell": i, "data-label": label }, cells);
          if (piece) cell.setAttribute("data-piece", piece);

          // The square (or, for xiangqi, the point's clickable area).
          if (g.points) {
            svg("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, class: "eb-hit", fill: "transparent", "pointer-events": "all" }, cell);
          } else {
            const dark = b.game === "draughts" ? label !== "" : (r + c) % 2 === 1;
            svg("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, class: dark ? "eb-sq eb-dark" : "eb-sq eb-light" }, cell);
          }
          if (last.has(i)) {
            const end = lastEnds.includes(i) ? "" : " eb-via";
            if (g.points) svg("rect", { x: x - S * 0.46, y: y - S * 0.46, width: S * 0.92, height: S * 0.92, rx: 6, class: "eb-last" + end }, cell);
            else svg("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, class: "eb-last" + end }, cell);
          }
          if (i === this.selected) {
            if (g.points) svg("rect", { x: x - S * 0.46, y: y - S * 0.46, width: S * 0.92, height: S * 0.92, rx: 6, class: "eb-sel" }, cell);
            else svg("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, class: "eb-sel" }, cell);
          }
          if (b.game === "draughts" && label) text(cell, x - S / 2 + 3, y - S / 2 + 3, label, "eb-num");
          if (i === b.check) svg("circle", { cx: x, cy: y, r: S * 0.47, class: "eb-check-glow" }, cell);
          if (piece) drawPiece(cell, b.game, piece, x, y);
          if (i === b.check) svg("circle", { cx: x, cy: y, r: S * 0.46, class: "eb-check" }, cell);
          if (targets.has(i)) {
            if (piece) svg("circle", { cx: x, cy: y, r: S * 0.45, class: "eb-target eb-capture" }, cell);
            else svg("circle", { cx: x, cy: y, r: S * 0.14, class: "eb-target" }, cell);
          }
        }
      }
      drawCoordinates(root, g, b, this);

      this.host.replaceChildren(root);
    }

    onClick(ev) {
      if (!this.board || !this.interactive()) return;
      const t = ev.target instanceof Element ? ev.target.closest("[data-cell]") : null;
      if (!t) {
        this.clearSelection();
        return;
      }
      const cell = Number(t.getAttribute("data-cell"));
      const legal = this.opts.legal;
      if (this.selected >= 0 && cell !== this.selected) {
        const picks = legal.filter((m) => m.from === this.selected && m.to === cell);
        if (picks.length === 1) {
          this.pick(picks[0]);
          return;
        }
        if (picks.length > 1) {
          this.showChooser(picks);
          return;
        }
      }
      this.hideChooser();
      if (cell === this.selected) this.selected = -1;
      else if (legal.some((m) => m.from === cell)) this.selected = cell;
      else this.selected = -1;
      this.render();
    }

    showChooser(options) {
      this.chooser.replaceChildren();
      const p = document.createElement("span");
      p.className = "eb-chooser-prompt";
      p.textContent = "Which move?";
      this.chooser.appendChild(p);
      this.choices = options.slice();
      for (const [n, m] of this.choices.entries()) {
        const btn = document.createElement("button");
        btn.type = "button";
        btn.className = "choice";
        btn.dataset.text = m.text;
        const glyph = promotionGlyph(this.board, m.text);
        if (glyph) {
          const s = document.createElement("span");
          s.className = "eb-choice-glyph";
          s.setAttribute("aria-hidden", "true");
          s.textContent = glyph;
          btn.appendChild(s);
        }
        btn.appendChild(document.createTextNode(m.text));
        btn.dataset.index = String(n);
        this.chooser.appendChild(btn);
      }
      const cancel = document.createElement("button");
      cancel.type = "button";
      cancel.className = "choice-cancel";
      cancel.textContent = "Cancel";
      this.chooser.appendChild(cancel);
      this.chooser.hidden = false;
      const first = this.chooser.querySelector("button.choice");
      if (first) first.focus({ preventScroll: true });
    }

    hideChooser() {
      this.choices = [];
      this.chooser.hidden = true;
      this.chooser.replaceChildren();
    }

    onChoose(ev) {
      const btn = ev.target instanceof Element ? ev.target.closest("button") : null;
      if (!btn) return;
      const option = this.choices[Number(btn.dataset.index)];
      if (btn.classList.contains("choice") && option && this.interactive()) {
        this.pick(option);
      } else {
        this.clearSelection();
      }
    }

    pick(option) {
      this.selected = -1;
      this.hideChooser();
      this.render();
      this.opts.onMove(option);
    }
  }

  function describe(b) {
    const name = GAME_NAMES[b.game] || b.game;
    const side = b.to_move ? b.to_move.charAt(0).toUpperCase() + b.to_move.slice(1) : "";
    let s = `${name} position`;
    if (side) s += `, ${side} to move`;
    if (typeof b.check === "number" && b.check >= 0) s += ", in check";
    if (b.fen) s += `. FEN: ${b.fen}`;
    return s;
  }

  function promotionGlyph(board, moveText) {
    if (!board || board.game !== "chess") return "";
    const m = /=([QRBN])/i.exec(moveText);
    if (!m) return "";
    const white = board.to_move !== "black";
    const k = m[1].toLowerCase();
    return (white ? CHESS_OUTLINE[k] : CHESS_SOLID[k]) + TEXT;
  }

  function drawPiece(parent, game, code, x, y) {
    if (game === "chess") {
      const k = code.toLowerCase();
      if (!CHESS_SOLID[k]) return;
      const white = isUpper(code);
      const g = svg("g", { class: `eb-piece eb-chess-piece ${white ? "eb-white" : "eb-black"}` }, parent);
      const title = svg("title", null, g);
      title.textContent = `${white ? "white" : "black"} ${CHESS_NAMES[k]}`;
      const ty = y + S * 0.035;
      if (white) {
        text(g, x, ty, CHESS_SOLID[k] + TEXT, "eb-glyph eb-fill");
        text(g, x, ty, CHESS_OUTLINE[k] + TEXT, "eb-glyph eb-line");
      } else {
        text(g, x, ty, CHESS_SOLID[k] + TEXT, "eb-glyph eb-solid");
      }
      return;
    }
    if (game === "draughts") {
      const black = code.toLowerCase() === "b";
      const king = isUpper(code);
      const g = svg("g", { class: `eb-piece eb-disc ${black ? "eb-black" : "eb-white"}${king ? " eb-king" : ""}` }, parent);
      const title = svg("title", null, g);
      title.textContent = `${black ? "black" : "white"} ${king ? "king" : "man"}`;
      const r = S * 0.38;
      svg("circle", { cx: x + 1.5, cy: y + 3, r: r, class: "eb-shadow" }, g);
      svg("circle", { cx: x, cy: y, r: r, class: "eb-body" }, g);
      svg("circle", { cx: x, cy: y, r: r * 0.72, class: "eb-ring" }, g);
      svg("circle", { cx: x, cy: y, r: r * 0.45, class: "eb-ring eb-ring-inner" }, g);
      if (king) {
        const u = S * 0.14;
        const pts = [
          [-1.3, 0.75], [-1.45, -0.6], [-0.7, 0.05], [0, -0.95], [0.7, 0.05], [1.45, -0.6], [1.3, 0.75],
        ].map(([px, py]) => `${(x + px * u).toFixed(1)},${(y + py * u).toFixed(1)}`).join(" ");
        svg("circle", { cx: x, cy: y, r: r * 0.72, class: "eb-crown-bg" }, g);
        svg("polygon", { points: pts, class: "eb-crown" }, g);
      }
      return;
    }
    if (game === "xiangqi") {
      const glyph = XIANGQI[code];
      if (!glyph) return;
      const red = isUpper(code);
      const g = svg("g", { class: `eb-piece eb-xq-piece ${red ? "eb-red" : "eb-black"}` }, parent);
      const title = svg("title", null, g);
      title.textContent = `${red ? "red" : "black"} ${glyph}`;
      svg("circle", { cx: x + 1.5, cy: y + 2.5, r: S * 0.44, class: "eb-shadow" }, g);
      svg("circle", { cx: x, cy: y, r: S * 0.44, class: "eb-body" }, g);
      svg("circle", { cx: x, cy: y, r: S * 0.36, class: "eb-ring" }, g);
      text(g, x, y + S * 0.02, glyph, "eb-glyph");
    }
  }

  // drawXiangqiGrid draws the wood, the lines, the river, the palaces and the
  // marks on the cannons' and soldiers' points. The board looks the same from
  // both sides, so flipping changes nothing here.
  function drawXiangqiGrid(root, g, b) {
    const files = b.files;
    const ranks = b.ranks;
    svg("rect", { x: g.wood.x, y: g.wood.y, width: g.wood.w, height: g.wood.h, rx: 8, class: "eb-wood" }, root);
    const lines = svg("g", { class: "eb-lines" }, root);
    const x0 = g.x(0);
    const x1 = g.x(files - 1);
    const y0 = g.y(0);
    const y1 = g.y(ranks - 1);
    const river = Math.floor(ranks / 2) - 1; // the river lies between display rows 4 and 5
    for (let r = 0; r < ranks; r++) {
      svg("line", { x1: x0, y1: g.y(r), x2: x1, y2: g.y(r) }, lines);
    }
    for (let c = 1; c < files - 1; c++) {
      svg("line", { x1: g.x(c), y1: y0, x2: g.x(c), y2: g.y(river) }, lines);
      svg("line", { x1: g.x(c), y1: g.y(river + 1), x2: g.x(c), y2: y1 }, lines);
    }
    // Palaces: the middle three files, three rows at each end.
    const pl = g.x(3);
    const pr = g.x(5);
    for (const [a, z] of [[0, 2], [ranks - 3, ranks - 1]]) {
      svg("line", { x1: pl, y1: g.y(a), x2: pr, y2: g.y(z) }, lines);
      svg("line", { x1: pr, y1: g.y(a), x2: pl, y2: g.y(z) }, lines);
    }
    // Point marks: cannons (files 1 and 7, rows 2 and 7), soldiers (even files, rows 3 and 6).
    const marks = [];
    for (const r of [2, ranks - 3]) for (const c of [1, files - 2]) marks.push([r, c]);
    for (const r of [3, ranks - 4]) for (let c = 0; c < files; c += 2) marks.push([r, c]);
    const d = 4;
    const l = 9;
    let path = "";
    for (const [r, c] of marks) {
      const x = g.x(c);
      const y = g.y(r);
      for (const sx of [-1, 1]) {
        if ((c === 0 && sx < 0) || (c === files - 1 && sx > 0)) continue;
        for (const sy of [-1, 1]) {
          const px = x + sx * d;
          const py = y + sy * d;
          path += `M${px + sx * l},${py}H${px}V${py + sy * l}`;
        }
      }
    }
    svg("path", { d: path, class: "eb-marks" }, lines);
    svg("rect", { x: x0, y: y0, width: x1 - x0, height: y1 - y0, class: "eb-border" }, lines);
    svg("rect", { x: x0 - 5, y: y0 - 5, width: x1 - x0 + 10, height: y1 - y0 + 10, class: "eb-border-outer" }, lines);
    // The river's words: 楚河 on the left half, 漢界 on the right, read from the side at the bottom.
    const ry = (g.y(river) + g.y(river + 1)) / 2;
    const q = (x1 - x0) / 4;
    text(root, x0 + q, ry, "楚 河", "eb-river");
    text(root, x1 - q, ry, "漢 界", "eb-river");
  }

  // drawCoordinates writes the files under the board and the ranks to its left,
  // taken from the cells' labels so they follow a flip (chess and xiangqi only:
  // draughts numbers its squares instead).
  function drawCoordinates(root, g, b, view) {
    if (b.game !== "chess" && b.game !== "xiangqi") return;
    if (!Array.isArray(b.labels)) return;
    const grp = svg("g", { class: "eb-coords", "aria-hidden": "true" }, root);
    const bottom = b.ranks - 1;
    const yFiles = g.points ? g.wood.y + g.wood.h + 11 : g.height - g.pad / 2;
    const xRanks = g.points ? g.wood.x - 10 : g.pad / 2;
    for (let c = 0; c < b.files; c++) {
      const label = b.labels[view.cellAt(bottom, c)] || "";
      if (label) text(grp, g.x(c), yFiles, label.charAt(0), "eb-coord");
    }
    for (let r = 0; r < b.ranks; r++) {
      const label = b.labels[view.cellAt(r, 0)] || "";
      if (label) text(grp, xRanks, g.y(r), label.slice(1), "eb-coord");
    }
  }

  // firstSide is the side that moves first in a game from its standard start.
  function firstSide(game) {
    if (game === "draughts") return "black";
    if (game === "xiangqi") return "red";
    return "white";
  }

  // otherSide is the side that is not side.
  function otherSide(game, side) {
    const first = firstSide(game);
    return side === first ? (game === "draughts" ? "white" : "black") : first;
  }

  function capital(s) {
    return s ? s.charAt(0).toUpperCase() + s.slice(1) : "";
  }

  // fillMoves writes moves (one per ply) into list as one <li> per ply, the
  // first side's moves numbered, two plies to a row (board.css). o: game,
  // toMove (the side to move before the first of them), fen (the start, for
  // its move number), buttons (each move a <button data-ply> that goes to
  // the position after it), current (the ply shown, 0 for the start).
  function fillMoves(list, moves, o) {
    const first = firstSide(o.game);
    const firstMoves = !o.toMove || o.toMove === first;
    let n = 1;
    if (o.fen && o.game !== "draughts") {
      const field = String(o.fen).trim().split(/\s+/)[5];
      if (/^\d+$/.test(field || "") && Number(field) > 0) n = Number(field);
    }
    const items = [];
    moves.forEach((move, i) => {
      const byFirst = (i % 2 === 0) === firstMoves;
      const li = document.createElement("li");
      li.dataset.ply = String(i + 1);
      if (!byFirst) li.className = i === 0 ? "by-second second-first" : "by-second";
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = byFirst ? `${n}.` : `${n}…`;
      li.appendChild(num);
      let m;
      if (o.buttons) {
        m = document.createElement("button");
        m.type = "button";
        m.dataset.ply = String(i + 1);
      } else {
        m = document.createElement("span");
      }
      m.className = "move";
      m.textContent = move;
      li.appendChild(m);
      if (o.current === i + 1) {
        li.classList.add("current");
        if (o.buttons) m.setAttribute("aria-current", "step");
      }
      if (!byFirst) n++;
      items.push(li);
    });
    list.replaceChildren(...items);
  }

  // api sends a request to the site's API and returns the JSON answer; a
  // failure throws an Error with the server's {"error": …} message and the
  // HTTP status. The pages that draw boards load their games through it.
  async function api(method, url, body) {
    const init = { method: method, headers: { Accept: "application/json" } };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(url, init);
    } catch (err) {
      throw new Error(`Could not reach the server: ${err.message}`);
    }
    let data = null;
    try {
      data = await res.json();
    } catch (err) {
      data = null;
    }
    if (!res.ok) {
      const err = new Error((data && data.error) || `The server answered ${res.status} ${res.statusText}`.trim());
      err.status = res.status;
      throw err;
    }
    return data;
  }

  window.EvolvedBoard = {
    // create makes a board inside container. options: flip, legal, onMove(option),
    // disabled; each may be overridden by draw's opts.
    create(container, options) {
      return new Board(container, options);
    },
    describe: describe,
    fillMoves: fillMoves,
    firstSide: firstSide,
    otherSide: otherSide,
    capital: capital,
    api: api,
  };
})();
