// charts.js draws a population's learning curves as SVG line charts, from
// the JSON at the data-src of each .charts section, and redraws them on
// every live update of that population.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const W = 560, H = 270, M = { left: 62, right: 14, top: 26, bottom: 34 };

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) {
      e.setAttribute(k, attrs[k]);
    }
    if (parent) {
      parent.appendChild(e);
    }
    return e;
  }

  // ticks returns about n round values from lo to hi.
  function ticks(lo, hi, n) {
    const span = hi - lo || 1;
    const raw = span / n;
    const mag = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map(function (f) { return f * mag; }).find(function (s) { return span / s <= n; }) || raw;
    const out = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
      out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
    }
    return out;
  }

  function label(v) {
    return Math.abs(v) >= 1000 || Number.isInteger(v) ? String(Math.round(v)) : v.toPrecision(3).replace(/\.?0+$/, "");
  }

  // low and high return the ends of a point's interval: [x, y, halfWidth]
  // or [x, y, low, high]; the point itself without one.
  function low(p) { return p.length > 3 ? p[2] : p[1] - (p[2] || 0); }
  function high(p) { return p.length > 3 ? p[3] : p[1] + (p[2] || 0); }

  // draw renders series ({name, cls, points: [[x, y, ci?] or [x, y, low,
  // high]], line, dots}) into box, with opts.yLabel along the y axis and
  // opts.xLabel (default "generation") under the x axis.
  function draw(box, series, opts) {
    box.textContent = "";
    const all = [];
    series.forEach(function (s) {
      s.points.forEach(function (p) { all.push(p); });
    });
    const svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": opts.title }, box);
    if (all.length === 0) {
      el("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "note" }, svg).textContent = opts.empty;
      return;
    }
    let x0 = Math.min.apply(null, all.map(function (p) { return p[0]; }));
    let x1 = Math.max.apply(null, all.map(function (p) { return p[0]; }));
    let y0 = opts.yMin !== undefined ? opts.yMin : Math.min.apply(null, all.map(low));
    let y1 = opts.yMax !== undefined ? opts.yMax : Math.max.apply(null, all.map(high));
    if (x1 === x0) { x0 -= 1; x1 += 1; }
    if (y1 === y0) { y0 -= 1; y1 += 1; }
    if (opts.yMin === undefined) {
      const pad = (y1 - y0) * 0.06;
      y0 -= pad; y1 += pad;
    }
    const sx = function (x) { return M.left + (x - x0) / (x1 - x0) * (W - M.left - M.right); };
    const sy = function (y) { return H - M.bottom - (y - y0) / (y1 - y0) * (H - M.top - M.bottom); };
    const axis = el("g", { class: "axis" }, svg);
    ticks(y0, y1, 5).forEach(function (v) {
      el("line", { x1: M.left, x2: W - M.right, y1: sy(v), y2: sy(v), class: "grid" }, axis);
      el("text", { x: M.left - 6, y: sy(v) + 4, "text-anchor": "end" }, axis).textContent = label(v);
    });
    ticks(x0, x1, 6).filter(Number.isInteger).forEach(function (v) {
      el("line", { x1: sx(v), x2: sx(v), y1: H - M.bottom, y2: H - M.bottom + 4 }, axis);
      el("text", { x: sx(v), y: H - M.bottom + 16, "text-anchor": "middle" }, axis).textContent = label(v);
    });
    el("line", { x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom }, axis);
    el("text", { x: (M.left + W - M.right) / 2, y: H - 4, "text-anchor": "middle" }, axis).textContent = opts.xLabel || "generation";
    if (opts.yLabel) {
      const cy = (M.top + H - M.bottom) / 2;
      el("text", { x: 12, y: cy, "text-anchor": "middle", transform: "rotate(-90 12 " + cy + ")", class: "ytitle" }, axis).textContent = opts.yLabel;
    }
    if (opts.zero && y0 < 0 && y1 > 0) {
      el("line", { x1: M.left, x2: W - M.right, y1: sy(0), y2: sy(0) }, axis);
    }
    series.forEach(function (s) {
      const g = el("g", { "data-series": s.name }, svg);
      if (s.line !== false && s.points.length > 1) {
        const d = s.points.map(function (p, i) { return (i ? "L" : "M") + sx(p[0]).toFixed(1) + " " + sy(p[1]).toFixed(1); }).join("");
        el("path", { d: d, class: "series " + s.cls }, g);
      }
      if (s.dots || s.points.length === 1) {
        s.points.forEach(function (p) {
          if (low(p) !== high(p)) {
            el("line", { x1: sx(p[0]), x2: sx(p[0]), y1: sy(low(p)), y2: sy(high(p)), class: "whisker " + s.cls }, g);
          }
          el("circle", { cx: sx(p[0]), cy: sy(p[1]), r: 2.6, class: "dot " + s.cls }, g);
        });
      }
    });
    const legend = el("g", { class: "legend" }, svg);
    let x = M.left + 8;
    series.forEach(function (s) {
      const y = 14;
      el("rect", { x: x, y: y - 7, width: 10, height: 3, class: s.cls }, legend);
      el("text", { x: x + 14, y: y - 2 }, legend).textContent = s.name;
      x += 30 + 6.2 * s.name.length; // about 11px text's advance
    });
  }

  // expected returns the expected score of an Elo difference d.
  function expected(d) {
    return 1 / (1 + Math.pow(10, -d / 400));
  }

  function pts(xs, ys) {
    return xs.map(function (x, i) { return [x, ys[i]]; });
  }

  function render(section, data) {
    const boxes = {};
    section.querySelectorAll("[data-chart]").forEach(function (b) { boxes[b.dataset.chart] = b; });
    if (boxes.fitness) {
      draw(boxes.fitness, [
        { name: "champion", cls: "s1", points: pts(data.generations, data.best) },
        { name: "mean", cls: "s2", points: pts(data.generations, data.mean) },
      ], { title: "fitness by generation", yLabel: "points in the tournament", empty: "no generation played yet" });
    }
    if (boxes.ladder) {
      draw(boxes.ladder, [{ name: "ladder", cls: "s1", points: pts(data.ladder_generations, data.ladder) }],
        { title: "ladder by generation", yLabel: "mean vs earlier champions (−1 to 1)", empty: "no generation played yet", zero: true });
    }
    if (boxes.baselines) {
      const names = Object.keys(data.baselines).sort();
      draw(boxes.baselines, names.map(function (n, i) {
        return { name: n, cls: "s" + (i % 5 + 1), dots: true,
          points: data.baselines[n].map(function (p) {
            // The score's 95% interval, from the Elo difference's. A
            // score of 0 or 1 has no finite Elo (the API gives 0), and
            // games all drawn no spread to measure one by: those get
            // Wilson's interval of the score over the games.
            if (Math.abs(expected(p.elo) - p.score) > 0.005 || !(p.ci > 0)) {
              if (!(p.games > 0)) {
                return [p.generation, 100 * p.score];
              }
              const z2 = 1.959964 * 1.959964, n = p.games;
              const c = (p.score * n + z2 / 2) / (n + z2), h = Math.sqrt(z2 * (p.score * (1 - p.score) * n + z2 / 4)) / (n + z2);
              return [p.generation, 100 * p.score, 100 * Math.max(0, c - h), 100 * Math.min(1, c + h)];
            }
            return [p.generation, 100 * p.score, 100 * expected(p.elo - p.ci), 100 * expected(p.elo + p.ci)];
          }) };
      }), { title: "baseline scores (%)", yLabel: "score (%), 95% interval", empty: "no baseline games yet", yMin: 0, yMax: 100 });
    }
    if (boxes.rating) {
      const scales = {};
      data.ratings.forEach(function (r) {
        const k = r.scale + " " + r.tc;
        (scales[k] = scales[k] || []).push([r.generation, r.elo, r.ci]);
      });
      draw(boxes.rating, Object.keys(scales).sort().map(function (k, i) {
        return { name: k, cls: "s" + (i % 5 + 1), dots: true, points: scales[k] };
      }), { title: "ratings", yLabel: "Elo, 95% interval", empty: "not rated yet (jobs.rating_every, or evolved rate)" });
    }
    section.dataset.drawn = String(data.generations.length);
  }

  async function load(section) {
    try {
      const res = await fetch(section.dataset.src, { credentials: "same-origin" });
      const data = await res.json();
      if (!res.ok) {
        throw new Error(data.error || res.statusText);
      }
      render(section, data);
      delete section.dataset.error;
    } catch (err) {
      section.dataset.error = String(err.message || err);
      // Charts never drawn say why instead of loading forever; drawn
      // ones keep their curves until the next update.
      section.querySelectorAll(".chart-loading").forEach(function (p) {
        p.textContent = "The curves could not be loaded: " + section.dataset.error;
        p.classList.add("chart-error");
      });
    }
    section.removeAttribute("aria-busy");
  }

  // The lab page draws its own curves with the same charts.
  window.EvolvedCharts = { draw: draw };

  function all() {
    document.querySelectorAll(".charts[data-src]").forEach(load);
  }
  document.addEventListener("evolved:update", function (e) {
    document.querySelectorAll(".charts[data-src]").forEach(function (s) {
      if (!s.dataset.game || s.dataset.game === e.detail.game) {
        load(s);
      }
    });
  });
  all();
})();
