// lab.js: the lab page. A tab per chess-lab method shares one form whose
// fields are evolved meta's flags; Start posts them to /api/lab/runs and
// the run panel follows the run (polling its JSON every second while it
// is queued or running): iteration, best cost, games/s, ETA, the cost
// curve, the current best line and a board that steps through it. The
// Chess960 tab runs the arrangement search and draws its curve and best
// arrangement. The URL's ?run=N (&store=main) names the run shown.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const EB = window.EvolvedBoard;
  const form = $("meta-form");
  if (!form || !EB) return;
  const c960Form = $("c960-form");
  const notice = $("lab-notice");
  let method = "aco";
  let options = null;
  let shown = null; // {id, store}
  let pollTimer = null;
  let replay = null;
  let ply = 0;
  const board = EB.create($("board"), {});
  const c960Board = EB.create($("c960-board"), {});

  function setNotice(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  async function getJSON(url, init) {
    let res;
    try {
      res = await fetch(url, Object.assign({ credentials: "same-origin", headers: { Accept: "application/json" } }, init || {}));
    } catch (err) {
      throw new Error(`could not reach the server: ${err.message}`);
    }
    let data = null;
    try {
      data = await res.json();
    } catch (err) {
      data = null;
    }
    if (!res.ok) throw new Error((data && data.error) || `the server answered ${res.status}`);
    return data;
  }

  // --- tabs ---------------------------------------------------------------
  function selectTab(name) {
    document.querySelectorAll("[data-tab]").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.tab === name)));
    $("chess960-tab").hidden = name !== "chess960";
    $("meta-tab").hidden = name === "chess960";
    if (name !== "chess960") {
      method = name;
      form.querySelectorAll("fieldset[data-method]").forEach((f) => { f.hidden = f.dataset.method !== name; });
    }
    document.body.dataset.tab = name;
  }
  document.querySelectorAll("[data-tab]").forEach((b) => b.addEventListener("click", () => selectTab(b.dataset.tab)));

  // --- the form -----------------------------------------------------------
  function field(name) { return form.elements.namedItem(name); }

  function opponentSpec() {
    const kind = field("opponent-kind").value;
    if (kind === "random") return "random";
    if (kind === "material" || kind === "pst") return `${kind}:${field("opp-depth").value}`;
    if (kind === "mcts") return `mcts:${field("opp-playouts").value}`;
    const path = kind.slice("engine:".length);
    return `uci:${path}:Skill Level=${field("opp-skill").value}:Threads=1:${field("opp-limit").value}=${field("opp-limit-value").value}`;
  }

  function showOpponentFields() {
    const kind = field("opponent-kind").value;
    const k = kind.startsWith("engine:") ? "engine" : kind;
    form.querySelectorAll("[data-for-kind]").forEach((l) => { l.hidden = !l.dataset.forKind.split(" ").includes(k); });
    $("opponent-spec").value = opponentSpec();
  }
  form.addEventListener("input", () => { $("opponent-spec").value = opponentSpec(); });
  field("opponent-kind").addEventListener("change", showOpponentFields);

  // fillDefaults fills the form with the CLI's defaults, as
  // /api/lab/options gives them: the page has none of its own.
  function fillDefaults(d, weights) {
    for (const k of ["turns", "iterations", "seed", "ants", "dissipation", "tolerance", "population", "keep", "t0", "drop"]) {
      const f = field(k);
      if (f && d[k] !== undefined) f.value = d[k];
    }
    for (const pair of String(weights).split(",")) {
      const [piece, value] = pair.split("=");
      if (field("w-" + piece)) field("w-" + piece).value = value;
    }
  }

  // settingLabel returns the meta form's label of a setting's key (its
  // text before the input, up to a comma or a parenthesis: "Move history",
  // "Tolerance"), or the key itself when the form has none.
  function settingLabel(key) {
    // The stored keys whose inputs have other names: the checkbox, and the
    // weights' fieldset (its legend names them).
    const input = document.querySelector(`#meta-form [name="${{ memo_opponent: "memo", weights: "w-p" }[key] || key}"]`);
    let text = "";
    if (input && key === "weights") {
      text = input.closest("fieldset").querySelector("legend").textContent;
    } else if (input && input.closest("label")) {
      const label = input.closest("label");
      text = label.firstChild.nodeType === Node.TEXT_NODE && label.firstChild.textContent.trim() ? label.firstChild.textContent : label.textContent;
    }
    return text.split(/[,(]/)[0].trim() || key;
  }

  // settings returns the body of a run's request: evolved meta's flags.
  function settings() {
    const num = (name) => Number(field(name).value);
    const s = {
      method: method,
      opponent: opponentSpec(),
      turns: num("turns"),
      iterations: num("iterations"),
      seed: num("seed"),
      memo: field("memo").checked,
    };
    if (field("workers").value !== "") s.workers = num("workers");
    if (field("fen").value.trim() !== "") s.fen = field("fen").value.trim();
    if (field("from").value.trim() !== "") s.from = field("from").value.trim();
    const w = ["p", "n", "b", "r", "q", "k"].map((p) => `${p}=${field("w-" + p).value}`).join(",");
    if (!options || w !== options.weights) s.weights = w;
    if (method === "aco") Object.assign(s, { ants: num("ants"), dissipation: num("dissipation"), tolerance: num("tolerance") });
    if (method === "ga") Object.assign(s, { population: num("population"), keep: num("keep") });
    if (method === "sa") Object.assign(s, { t0: num("t0"), drop: num("drop") });
    return s;
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("form-error").textContent = "";
    $("start").disabled = true;
    try {
      const run = await getJSON("/api/lab/runs", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(settings()),
      });
      show(run.id, "lab");
      loadRuns();
    } catch (err) {
      $("form-error").textContent = err.message;
    } finally {
      $("start").disabled = options ? !options.can_start : false;
    }
  });

  // --- the run panel ------------------------------------------------------
  function seconds(s) {
    if (!isFinite(s) || s <= 0) return "—";
    if (s < 90) return `${s.toFixed(1)} s`;
    if (s < 5400) return `${(s / 60).toFixed(1)} min`;
    return `${(s / 3600).toFixed(1)} h`;
  }

  function show(id, store) {
    shown = { id: id, store: store || "lab" };
    const q = new URLSearchParams({ run: String(id) });
    if (shown.store !== "lab") q.set("store", shown.store);
    history.replaceState(null, "", `${location.pathname}?${q}`);
    replay = null;
    poll();
  }

  async function poll() {
    clearTimeout(pollTimer);
    if (!shown) return;
    const want = shown;
    let run;
    try {
      run = await getJSON(`/api/lab/runs/${want.id}${want.store === "main" ? "?store=main" : ""}`);
    } catch (err) {
      $("run-panel").hidden = false;
      $("run-failure").textContent = err.message;
      return;
    }
    if (shown !== want) return;
    render(run);
    if (run.state === "queued" || run.state === "running") {
      pollTimer = setTimeout(poll, 1000);
    } else {
      loadRuns();
    }
  }

  function render(run) {
    lastRun = run;
    const panel = $("run-panel");
    panel.hidden = false;
    panel.dataset.run = String(run.id);
    panel.dataset.state = run.state;
    const p = run.progress;
    panel.dataset.iteration = String(p.iteration);
    $("run-title").textContent = `Run ${run.id}${run.store === "main" ? " (served database)" : ""}: ${run.method} against ${run.opponent}`;
    $("run-state").textContent = run.state;
    $("run-iteration").textContent = `${p.iteration} of ${p.iterations}`;
    $("run-best").textContent = p.iteration > 0 ? String(p.best_cost) : "—";
    $("run-games").textContent = `${p.games} (${p.wins} won by the learner)`;
    $("run-rate").textContent = p.games_per_second > 0 ? p.games_per_second.toFixed(0) : "—";
    $("run-eta").textContent = run.state === "running" ? seconds(p.eta_seconds) : "—";
    $("run-spec").textContent = run.spec;
    $("run-progress").max = Math.max(1, p.iterations);
    $("run-progress").value = p.iteration;
    $("run-failure").textContent = run.failure || "";
    $("stop").hidden = !(run.store === "lab" && (run.state === "queued" || run.state === "running"));
    const st = run.settings || {};
    const shownValue = (v) => Array.isArray(v) ? v.join(" ") : typeof v === "number" && !Number.isInteger(v) ? String(Number(v.toPrecision(4))) : String(v);
    // The settings by the form's own labels, less those the title and the
    // facts above show already (method, opponent).
    $("run-settings").textContent = Object.keys(st).filter((k) => k !== "method" && k !== "opponent").sort()
      .map((k) => `${settingLabel(k)} ${shownValue(st[k])}`).join(" · ");
    const c = run.curve;
    if (window.EvolvedCharts) {
      window.EvolvedCharts.draw($("run-chart"), [
        { name: "best so far", cls: "s1", points: c.iteration.map((x, i) => [x, c.best[i]]) },
        { name: "iteration mean", cls: "s2", points: c.iteration.map((x, i) => [x, c.mean[i]]) },
      ], { title: "cost by iteration", xLabel: "iteration", yLabel: "cost (learner's material)", empty: "no iteration stored yet" });
    }
    $("run-line").textContent = run.line || "no game played yet";
    const r = run.replay;
    const changed = !replay || !r || r.moves.length !== replay.moves.length || r.moves.join(" ") !== replay.moves.join(" ");
    if (r && changed) {
      const atEnd = !replay || ply === replay.moves.length;
      replay = { boards: r.boards, moves: r.moves };
      const b0 = r.boards[0];
      EB.fillMoves($("moves"), r.moves, { game: "chess", toMove: b0.to_move, fen: b0.fen, buttons: true });
      go(atEnd && replay.moves.length > 0 ? 0 : Math.min(ply, r.moves.length));
    }
  }

  function go(n) {
    if (!replay) return;
    const total = replay.moves.length;
    ply = Math.max(0, Math.min(total, n));
    board.draw(replay.boards[ply], {});
    $("ply").textContent = `move ${ply} of ${total}`;
    $("run-panel").dataset.ply = String(ply);
    $("first").disabled = $("prev").disabled = ply === 0;
    $("next").disabled = $("last").disabled = ply === total;
    $("moves").querySelectorAll("li").forEach((li) => li.classList.toggle("current", Number(li.dataset.ply) === ply));
  }
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(ply - 1));
  $("next").addEventListener("click", () => go(ply + 1));
  $("last").addEventListener("click", () => go(replay ? replay.moves.length : 0));
  $("moves").addEventListener("click", (ev) => {
    const li = ev.target instanceof Element ? ev.target.closest("li[data-ply]") : null;
    if (li) go(Number(li.dataset.ply));
  });

  $("stop").addEventListener("click", async () => {
    if (!shown) return;
    $("stop").disabled = true;
    try {
      const run = await getJSON(`/api/lab/runs/${shown.id}/stop`, { method: "POST", headers: { Accept: "application/json" } });
      render(run);
    } catch (err) {
      $("run-failure").textContent = err.message;
    } finally {
      $("stop").disabled = false;
      poll();
    }
  });

  // reuse fills the form with a stored run's settings (as the run stored
  // them: the history in UCI, the weights spelt out) and shows its tab.
  function reuse(run) {
    const st = run.settings || {};
    selectTab(run.method);
    const set = (name, v) => { if (v !== undefined && field(name)) field(name).value = v; };
    for (const k of ["turns", "iterations", "seed", "ants", "dissipation", "tolerance", "population", "keep", "t0"]) set(k, st[k]);
    set("drop", 0); // the stored drop is the one the run used; 0 recomputes it from t0 and iterations
    set("fen", st.fen || "");
    set("from", Array.isArray(st.from) ? st.from.join(" ") : "");
    field("memo").checked = !!st.memo_opponent;
    for (const pair of String(st.weights || "").split(",")) {
      const [piece, value] = pair.split("=");
      set("w-" + piece, value);
    }
    const spec = String(st.opponent || run.opponent);
    const kind = field("opponent-kind");
    let m;
    if ((m = /^(material|pst):(\d+)$/.exec(spec))) { kind.value = m[1]; set("opp-depth", m[2]); }
    else if ((m = /^mcts:(\d+)$/.exec(spec))) { kind.value = "mcts"; set("opp-playouts", m[1]); }
    else if (spec === "random") kind.value = "random";
    else if (spec.startsWith("uci:")) {
      const parts = spec.slice(4).split(":");
      kind.value = `engine:${parts[0]}`;
      for (const kv of parts.slice(1)) {
        const [k, v] = kv.split("=");
        if (k === "Skill Level") set("opp-skill", v);
        if (["depth", "movetime", "nodes"].includes(k)) { set("opp-limit", k); set("opp-limit-value", v); }
      }
    }
    showOpponentFields();
    if (opponentSpec() !== spec) $("form-error").textContent = `The form cannot set the opponent ${spec}; it shows ${opponentSpec()}.`;
    form.scrollIntoView({ block: "start" });
  }
  let lastRun = null;
  $("reuse").addEventListener("click", () => { if (lastRun) reuse(lastRun); });

  // --- the runs -----------------------------------------------------------
  async function loadRuns() {
    let data;
    try {
      data = await getJSON("/api/lab/runs");
    } catch (err) {
      setNotice(err.message);
      return;
    }
    const body = $("runs").querySelector("tbody");
    const rows = data.runs.map((r) => {
      const tr = document.createElement("tr");
      tr.dataset.run = String(r.id);
      tr.dataset.store = r.store;
      const cells = [r.id, r.store === "lab" ? "lab database" : "served database", r.method, r.opponent, r.seed, r.iterations,
        r.iterations > 0 ? r.best_cost : "—", r.seconds ? r.seconds.toFixed(0) : "—", r.state, new Date(r.created).toLocaleString()];
      cells.forEach((v, i) => {
        const td = document.createElement("td");
        if (i === 0) {
          const a = document.createElement("a");
          a.href = `/lab?run=${r.id}${r.store === "main" ? "&store=main" : ""}`;
          a.textContent = String(v);
          a.addEventListener("click", (ev) => { ev.preventDefault(); show(r.id, r.store); });
          td.appendChild(a);
        } else {
          td.textContent = String(v);
        }
        if ([0, 4, 5, 6, 7].includes(i)) td.className = "num";
        tr.appendChild(td);
      });
      tr.title = r.params;
      return tr;
    });
    body.replaceChildren(...rows);
    $("runs-empty").hidden = rows.length > 0;
  }

  // --- Chess960 -----------------------------------------------------------
  function c960Field(name) { return c960Form.elements.namedItem(name); }
  // fillC960Defaults fills the Chess960 form with the method's defaults,
  // `evolved chess960`'s, as /api/lab/options gives them.
  function fillC960Defaults() {
    const d = options && options.chess960 && options.chess960[c960Field("method").value];
    if (!d) return;
    for (const [k, v] of Object.entries(d)) {
      const f = c960Field(k);
      if (f && k !== "method" && !f.closest("label[hidden]")) f.value = v;
    }
  }
  c960Field("method").addEventListener("change", () => {
    const m = c960Field("method").value;
    c960Form.querySelectorAll("[data-c960]").forEach((l) => { l.hidden = l.dataset.c960 !== m; });
    fillC960Defaults();
  });
  c960Form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("c960-error").textContent = "";
    const m = c960Field("method").value;
    const num = (n) => Number(c960Field(n).value);
    const body = { method: m, seed: num("seed"), population: num("population"), mutation: num("mutation") };
    if (m === "classic") Object.assign(body, { iterations: num("iterations"), elitism: num("elitism") });
    else Object.assign(body, { budget: num("budget"), tournament: num("tournament"), retries: num("retries") });
    let res;
    try {
      res = await getJSON("/api/lab/chess960", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
    } catch (err) {
      $("c960-error").textContent = err.message;
      return;
    }
    let series, xLabel;
    if (res.generations) {
      const dots = [];
      res.generations.forEach((g) => g.fitness.forEach((f) => dots.push([g.iteration, f])));
      series = [
        { name: "individuals", cls: "s3", line: false, dots: true, points: dots },
        { name: "best", cls: "s1", points: res.generations.map((g) => [g.iteration, g.best]) },
        { name: "mean", cls: "s2", points: res.generations.map((g) => [g.iteration, g.mean]) },
      ];
      xLabel = "iteration";
    } else {
      series = [
        { name: "evaluated", cls: "s3", line: false, dots: true, points: res.evaluations.map((e) => [e.n, e.fitness]) },
        { name: "best so far", cls: "s1", points: res.evaluations.map((e) => [e.n, e.best]) },
      ];
      xLabel = "fitness evaluation";
    }
    window.EvolvedCharts.draw($("c960-chart"), series, { title: "Chess960 search", xLabel: xLabel, yLabel: "fitness (0 = RNBQKBNR)", yMin: 0 });
    $("c960-chart").dataset.drawn = String(series[1].points.length);
    c960Board.draw(res.board, {});
    const found = res.found_at > 0 ? `the optimum found at evaluation ${res.found_at}` : "the optimum not reached";
    $("c960-best").textContent = `${res.glyphs} ${res.best} (number ${res.number}), fitness ${res.fitness}, after ${res.used} evaluations: ${found}.`;
  });

  // --- start --------------------------------------------------------------
  async function init() {
    try {
      options = await getJSON("/api/lab/options");
    } catch (err) {
      setNotice(err.message);
      return;
    }
    fillDefaults(options.defaults, options.weights);
    fillC960Defaults();
    field("workers").max = options.limits.max_workers;
    field("workers").placeholder = String(options.limits.max_workers);
    field("iterations").max = options.limits.max_iterations;
    const kind = field("opponent-kind");
    (options.engines || []).forEach((e) => {
      const o = document.createElement("option");
      o.value = `engine:${e.path}`;
      o.textContent = `${e.name} (UCI engine)`;
      kind.appendChild(o);
    });
    showOpponentFields();
    if (!options.can_start) {
      setNotice(options.why_not);
      $("start").disabled = true;
      $("c960-run").disabled = true;
    }
    const q = new URLSearchParams(location.search);
    if (/^\d+$/.test(q.get("run") || "")) show(Number(q.get("run")), q.get("store") === "main" ? "main" : "lab");
    loadRuns();
    document.body.dataset.labReady = "true";
  }
  selectTab("aco");
  init();
})();
