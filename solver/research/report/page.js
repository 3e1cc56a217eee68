"use strict";
// The report's renderer: draws the page from the JSON the Python side wrote into it (rows
// replayed on the reference engine, spaces as landscape.cells reads them). It asks nothing of
// any network: SVG is written as markup, and everything it draws is in the page.
(function () {
  const caught = [];
  window.addEventListener("error", (e) => caught.push("error: " + e.message));
  const consoleError = console.error;
  console.error = function (...args) {
    caught.push("console.error: " + args.join(" "));
    consoleError.apply(console, args);
  };

  const P = JSON.parse(document.getElementById("page").textContent);
  const C = P.colours;
  const app = document.getElementById("app");
  let current = null; // the line view the keys step through

  const esc = (s) => String(s).replace(/[&<>"]/g, (c) =>
    ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
  const fmt = (x, nd = 1) => (x === null || x === undefined || Number.isNaN(x)) ? ""
    : (typeof x === "number" ? (Number.isInteger(x) ? String(x) : x.toFixed(nd)) : String(x));
  const value = (v) => typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);

  function provenance(pairs, open) {
    const rows = pairs.map(([k, v]) =>
      `<tr><td>${esc(k)}</td><td><code>${esc(value(v))}</code></td></tr>`).join("");
    return `<details class="prov"${open ? " open" : ""}><summary>How this record was made` +
      `</summary><table class="kv">${rows}</table></details>`;
  }

  // ===== a line: its rows, landscapes and charts ===========================================

  const lineCache = {};
  function lineData(i) {
    if (!(i in lineCache)) {
      lineCache[i] = JSON.parse(document.getElementById("line-" + i).textContent);
    }
    return lineCache[i];
  }

  function goodsText(counts) {
    const out = [];
    counts.forEach((n, g) => { if (n) out.push(n + " " + P.goods[g]); });
    return out.join(", ");
  }

  // The spaces of every landscape after row k: key "owner,col,row" -> [terrain, item, clergy, bought].
  function spacesAt(rows, k) {
    const m = new Map();
    for (let i = 0; i <= k; i++) {
      for (const d of rows[i].d) m.set(d[0] + "," + d[1] + "," + d[2], d);
    }
    return m;
  }

  function landscapeSvg(spaces, owner, changed, colour) {
    const mine = [...spaces.values()].filter((d) => d[0] === owner);
    if (!mine.length) return "";
    const S = 66, left = 22, top = 16;
    const cols = mine.map((d) => d[1]), rws = mine.map((d) => d[2]);
    const c0 = Math.min(...cols, owner === 0 ? C.cols[0] : 99);
    const c1 = Math.max(...cols, owner === 0 ? C.cols[C.cols.length - 1] : -99);
    const r0 = Math.min(...rws), r1 = Math.max(...rws);
    const w = left + (c1 - c0 + 1) * S + 4, h = top + (r1 - r0 + 1) * S + 4;
    const out = [`<svg width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" ` +
      `class="land" data-owner="${owner}">`];
    for (let c = c0; c <= c1; c++) {
      out.push(`<text x="${left + (c - c0 + 0.5) * S}" y="11" font-size="10" ` +
        `text-anchor="middle">${c}</text>`);
    }
    for (let r = r0; r <= r1; r++) {
      out.push(`<text x="${left - 5}" y="${top + (r - r0 + 0.55) * S}" font-size="10" ` +
        `text-anchor="end">${r}</text>`);
    }
    const marks = [];
    for (const [o, col, row, terrain, item, clergy, bought] of mine) {
      const x = left + (col - c0) * S, y = top + (row - r0) * S;
      out.push(`<rect x="${x}" y="${y}" width="${S}" height="${S}" fill="` +
        `${C.terrain[terrain] || "#ddd"}" stroke="${bought ? "#333" : "#555"}" stroke-width="` +
        `${bought ? 1.4 : 0.8}"${bought ? ' stroke-dasharray="5 3"' : ""}/>`);
      out.push(`<text x="${x + 3}" y="${y + S - 3}" font-size="7.5" fill="#333">` +
        `${esc(C.terrainName[terrain] || "")}</text>`);
      const it = item ? P.items[item] : null;
      if (it && (it[0] === "forest" || it[0] === "moor")) {
        out.push(`<rect x="${x + 10}" y="${y + 12}" width="${S - 20}" height="${S - 30}" ` +
          `fill="${C.item[it[0]]}" opacity="0.85"/><text x="${x + S / 2}" y="${y + S / 2}" ` +
          `font-size="10" fill="#fff" text-anchor="middle">${esc(it[0])}</text>`);
      } else if (it) {
        const settlement = it[0] === "settlement";
        out.push(`<g><title>${esc(it[1])} (${esc(item)})</title><rect x="${x + 5}" ` +
          `y="${y + 6}" width="${S - 10}" height="${S - 20}" rx="4" fill="${C.item[it[0]]}" ` +
          `stroke="${settlement ? "#7a5a00" : "#5a4632"}" stroke-width="0.9"/>` +
          `<text x="${x + S / 2}" y="${y + 18}" font-size="10" font-weight="bold" ` +
          `text-anchor="middle">${esc(item)}</text>`);
        const size = Math.min(8.4, 8.4 * 12 / Math.max(12, ...it[2].map((ln) => ln.length)));
        it[2].forEach((ln, j) => out.push(`<text x="${x + S / 2}" y="${y + 29 + 9 * j}" ` +
          `font-size="${size.toFixed(1)}" text-anchor="middle">${esc(ln)}</text>`));
        out.push("</g>");
      }
      (clergy ? clergy.split(",") : []).forEach((who, j) => {
        const [col0, kind] = [who[0], who.slice(2)];
        out.push(`<circle cx="${x + S - 8 - 13 * j}" cy="${y + S - 8}" r="` +
          `${kind === "prior" ? 6.5 : 4.5}" fill="${C.owner[col0] || "#000"}" stroke="#000" ` +
          `stroke-width="0.8"><title>${esc(who)}</title></circle>`);
      });
      if (changed.has(o + "," + col + "," + row)) {
        marks.push(`<rect x="${x + 1.5}" y="${y + 1.5}" width="${S - 3}" height="${S - 3}" ` +
          `fill="none" stroke="#c0302b" stroke-width="3"/>`);
      }
    }
    out.push(...marks, "</svg>");
    const who = owner === 0 ? "your landscape" : "the neutral's landscape";
    return `<figure><figcaption>${who} (${esc(colour)})</figcaption>${out.join("")}</figure>`;
  }

  function chartSvg(series, n, k, opts) {
    // series: [{name, colour, ys, stack, width, dots, dash}], stacked ones first; k: the
    // marked point. opts: title, ticks [[i, label]], lo and hi (the axis's floor when the
    // values sit far from 0, and a ceiling above them), notes [[i, y, text]] (red labels
    // beside points), W (the width).
    const W = opts.W || 600, H = 230, l = 40, r = 160, t = 22, b = 26;
    const iw = W - l - r, ih = H - t - b;
    let top = 1;
    const base = new Array(n).fill(0);
    const areas = [];
    for (const s of series) {
      if (s.stack) {
        const lo = base.slice();
        s.ys.forEach((y, i) => { base[i] += y; });
        areas.push([s, lo, base.slice()]);
        top = Math.max(top, ...base);
      } else top = Math.max(top, ...s.ys);
    }
    const floor = opts.lo || 0;
    top = Math.max(top, floor + 1, opts.hi || 0);
    const X = (i) => l + (n > 1 ? i / (n - 1) : 0) * iw;
    const Y = (v) => t + ih - ((v - floor) / (top - floor)) * ih;
    const out = [`<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" class="chart">`,
      `<text x="${l}" y="14" font-size="12" font-weight="600">${esc(opts.title)}</text>`];
    const span = top - floor;
    const step = span > 300 ? 100 : span > 60 ? 20 : span > 20 ? 5 : span > 8 ? 2 : 1;
    for (let v = Math.ceil(floor / step) * step; v <= top; v += step) {
      out.push(`<line x1="${l}" x2="${l + iw}" y1="${Y(v)}" y2="${Y(v)}" stroke="#ddd"/>` +
        `<text x="${l - 4}" y="${Y(v) + 3}" font-size="9" text-anchor="end">${v}</text>`);
    }
    for (const [s, lo, hi] of areas) {
      const pts = hi.map((v, i) => `${X(i)},${Y(v)}`).concat(
        lo.map((v, i) => `${X(i)},${Y(v)}`).reverse());
      out.push(`<polygon points="${pts.join(" ")}" fill="${s.colour}" opacity="0.9"/>`);
    }
    for (const s of series) {
      if (s.stack) continue;
      if (s.width !== 0) {
        out.push(`<polyline points="${s.ys.map((v, i) => X(i) + "," + Y(v)).join(" ")}" ` +
          `fill="none" stroke="${s.colour}" stroke-width="${s.width || 1.6}"` +
          `${s.dash ? ' stroke-dasharray="6 4"' : ""}/>`);
      }
    }
    for (const s of series.slice().reverse()) { // the first series' dots on top
      if (!s.dots) continue;
      s.ys.forEach((v, i) => out.push(`<circle cx="${X(i)}" cy="${Y(v)}" r="3" ` +
        `fill="${s.colour}"/>`));
    }
    (opts.notes || []).forEach(([i, v, text]) => out.push(`<text x="${X(i) + 4}" ` +
      `y="${Y(v) - 4}" font-size="9" fill="#c0302b">${esc(text)}</text>`));
    opts.ticks.forEach(([i, label]) => out.push(`<text x="${X(i)}" y="${H - 10}" ` +
      `font-size="9" text-anchor="middle">${esc(label)}</text>`));
    out.push(`<line x1="${X(k)}" x2="${X(k)}" y1="${t}" y2="${t + ih}" stroke="#c0302b" ` +
      `stroke-width="1.6" class="marker"/>`);
    series.forEach((s, j) => out.push(`<rect x="${l + iw + 10}" y="${t + 14 * j}" width="10" ` +
      `height="10" fill="${s.colour}"/><text x="${l + iw + 24}" y="${t + 9 + 14 * j}" ` +
      `font-size="10">${esc(s.name)} ${fmt(s.ys[k])}</text>`));
    out.push("</svg>");
    return out.join("");
  }

  function roundTicks(rows) {
    const ticks = [];
    let last = 0;
    rows.forEach((row, i) => {
      const m = /^round (\d+)$/.exec(row.w);
      if (m && (+m[1] === 1 || +m[1] - last >= 5)) { ticks.push([i, "r" + m[1]]); last = +m[1]; }
    });
    return ticks;
  }

  function mainGoods(rows, most) {
    const peak = P.goods.map((_, g) => Math.max(...rows.map((r) => r.g[g])));
    return peak.map((p, g) => [p, g]).filter(([p]) => p > 0)
      .sort((a, b) => b[0] - a[0]).slice(0, most).map(([, g]) => g);
  }

  // Draw a line into `root`; returns the view with select(k) and step(delta).
  function lineView(root, line, heading) {
    const rows = line.rows, n = rows.length;
    const goods = mainGoods(rows, 6);
    const palette = ["#2d5fb0", "#c0302b", "#2e8b3a", "#b8860b", "#7b3fa0", "#555555"];
    root.innerHTML = (heading || "") +
      (line.error ? `<p class="verified bad">${esc(line.error)}</p>` : "") +
      `<div class="controls"><button type="button" class="prev" title="previous round (left ` +
      `arrow key)">&#9664; previous</button><input type="range" class="slider" min="0" ` +
      `max="${n - 1}" value="${n - 1}" aria-label="round"><button type="button" ` +
      `class="next" title="next round (right arrow key)">next &#9654;</button>` +
      `<span class="when"></span><span class="score"></span></div>` +
      `<div class="board"><div class="lands"></div><div class="acts"></div></div>` +
      `<div class="charts"><div class="scorechart"></div><div class="goodschart"></div></div>` +
      `<h2>Round by round</h2><p class="note">Actions with building names, the goods held ` +
      `after each round or settlement phase and the score so far (total = goods + economic ` +
      `+ dwelling). Click a row to draw it; red outlines mark the spaces it changed.</p>` +
      `<table class="rounds"><thead><tr><th>#</th><th>when</th><th>actions</th>` +
      `<th>goods after</th><th>total</th><th>goods</th><th>econ.</th><th>dwell.</th></tr>` +
      `</thead><tbody>` + rows.map((row, i) => `<tr data-k="${i}"><td class="num">${i}</td>` +
        `<td>${esc(row.w)}</td><td>${row.a.map((a) => esc(P.strings[a])).join("<br>")}</td>` +
        `<td class="goods">${esc(goodsText(row.g) || "none")}</td>` +
        row.s.map((v) => `<td class="num">${v}</td>`).join("") + "</tr>").join("") +
      `</tbody></table>`;
    const q = (s) => root.querySelector(s);
    const slider = q(".slider");
    const trs = [...root.querySelectorAll("table.rounds tbody tr")];
    const ticks = roundTicks(rows);
    const view = { k: -1, n: n, root: root, slider: slider };
    view.select = function (k) {
      k = Math.max(0, Math.min(n - 1, k));
      if (k === view.k) return;
      const row = rows[k];
      const spaces = spacesAt(rows, k);
      const changed = new Set(k ? row.d.map((d) => d[0] + "," + d[1] + "," + d[2]) : []);
      q(".lands").innerHTML = line.players.map((colour, o) =>
        landscapeSvg(spaces, o, changed, colour)).join("");
      q(".acts").innerHTML = `<b>${esc(row.w)}</b> (row ${k} of ${n - 1}, ${row.n} actions ` +
        `played)<ol>${row.a.map((a) => `<li>${esc(P.strings[a])}</li>`).join("")}</ol>` +
        `<b>goods after:</b> ${esc(goodsText(row.g) || "none")}`;
      q(".when").textContent = row.w;
      q(".score").textContent = `score so far ${row.s[0]} (goods ${row.s[1]}, economic ` +
        `${row.s[2]}, dwelling ${row.s[3]})`;
      q(".scorechart").innerHTML = chartSvg([
        { name: "economic", colour: "#8fb464", ys: rows.map((r) => r.s[2]), stack: true },
        { name: "dwelling", colour: "#f2c14e", ys: rows.map((r) => r.s[3]), stack: true },
        { name: "goods", colour: "#7fb3e6", ys: rows.map((r) => r.s[1]), stack: true },
        { name: "total", colour: "#000", ys: rows.map((r) => r.s[0]), width: 1.4 },
      ], n, k, { title: `score through the game: ${rows[n - 1].s[0]} at the end`, ticks });
      q(".goodschart").innerHTML = chartSvg(goods.map((g, j) => ({
        name: P.goods[g], colour: palette[j], ys: rows.map((r) => r.g[g]) })), n, k,
        { title: "main goods held (the six with the highest peak)", ticks });
      if (view.k >= 0 && trs[view.k]) trs[view.k].classList.remove("sel");
      trs[k].classList.add("sel");
      slider.value = String(k);
      view.k = k;
    };
    view.step = (delta) => view.select(view.k + delta);
    slider.addEventListener("input", () => view.select(+slider.value));
    q(".prev").addEventListener("click", () => view.step(-1));
    q(".next").addEventListener("click", () => view.step(1));
    trs.forEach((tr) => tr.addEventListener("click", () => view.select(+tr.dataset.k)));
    view.select(n - 1);
    current = view;
    return view;
  }

  document.addEventListener("keydown", (e) => {
    if (!current || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      current.step(e.key === "ArrowLeft" ? -1 : 1);
      e.preventDefault();
    }
  });

  function renderLine() {
    const d = P.data;
    app.innerHTML = provenance(d.provenance, true) + `<div id="linepane"></div>`;
    lineView(document.getElementById("linepane"), lineData(0), "");
  }

  // ===== a weights file: the weights and the tuning's history ==============================

  function renderTuning() {
    const d = P.data;
    const names = Object.keys(d.weights);
    const hist = d.history || [];
    let chart = "";
    if (hist.length) {
      const n = hist.length;
      chart = chartSvg([
        { name: "best so far", colour: "#c0302b", ys: hist.map((h) => h.best_so_far) },
        { name: "generation best", colour: "#2d5fb0", ys: hist.map((h) => h.best) },
        { name: "generation mean", colour: "#999", ys: hist.map((h) => h.mean) },
      ], n, n - 1, { title: "training score by generation",
        ticks: hist.map((h, i) => [i, "g" + h.generation]) });
    }
    app.innerHTML = provenance(d.provenance, true) +
      (d.note ? `<p class="note">${esc(d.note)}</p>` : "") + chart +
      `<h2>Weights</h2><table class="rounds"><thead><tr><th>weight</th><th>value</th>` +
      `<th>at the start</th></tr></thead><tbody>` + names.map((k) => `<tr><td>${esc(k)}</td>` +
        `<td class="num">${d.weights[k].toFixed(3)}</td><td class="num">` +
        `${d.start && k in d.start ? d.start[k].toFixed(3) : ""}</td></tr>`).join("") +
      `</tbody></table>`;
  }

  // ===== the self-check (#selftest): what a browser test reads from the dumped DOM ==========

  // A view may return {check(check, out)}: its own checks (a sweep sorts, a review opens a
  // round), run before those of the line view then open.
  function selftest(shown) {
    const out = [];
    const check = (ok, what) => out.push((ok ? "ok: " : "FAIL: ") + what);
    if (shown && shown.check) shown.check(check, out);
    const view = current;
    if (view) {
      const land = () => view.root.querySelector(".lands").innerHTML;
      const before = land(), mid = Math.floor(view.n / 2);
      view.slider.value = String(mid);
      view.slider.dispatchEvent(new Event("input"));
      check(view.k === mid && land() !== before,
        `the slider moved from row ${view.n - 1} to row ${mid} and the drawn landscape changed`);
      const atMid = land();
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight" }));
      check(view.k === mid + 1 && land() !== atMid, "the right arrow key steps to the next row");
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowLeft" }));
      check(view.k === mid, "the left arrow key steps back");
      check(view.root.querySelector(".when").textContent.length > 0, "the round is named");
    } else check(P.view === "tuning", "no line on this page");
    check(caught.length === 0, "no errors caught" + (caught.length ? ": " + caught.join(" | ") : ""));
    out.push(out.some((s) => s.startsWith("FAIL")) ? "SELFTEST FAIL" : "SELFTEST PASS");
    const pre = document.getElementById("selftest");
    pre.hidden = false;
    pre.textContent = out.join("\n");
  }

  // Draw the page's view; a view may return {hash(h)}: what an address's #... opens.
  function start() {
    const shown = R.views[P.view]();
    if (shown && shown.hash) shown.hash(location.hash);
    if (location.hash === "#selftest") selftest(shown);
  }

  // The other views (sweep.js, review.js, inlined after this script) add themselves here.
  const R = window.OraReport = { P, app, esc, fmt, provenance, lineData, lineView, chartSvg,
    views: { line: renderLine, tuning: renderTuning }, start };
})();
