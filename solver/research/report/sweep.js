"use strict";
// A sweep's page (`openings`, `analyse`): its sortable table and chart, each candidate's best
// line opened on a click in page.js's line view; a race's rows say at which budget (round,
// width, seeds) their statistics were taken and the race's rounds are listed.
(function (R) {
  const { P, app, esc, fmt, provenance } = R;

  function sweepChart(rows, raced) {
    const every = rows.flatMap((r) => r.scores || []);
    const lo = Math.min(...every), hi = Math.max(...every);
    const pad = Math.max(5, 0.25 * (hi - lo));
    const a = lo - pad, b = hi + pad;
    const W = 900, l = 46, rr = 20, t = 34, dy = 12, H = t + dy * rows.length + 30;
    const X = (v) => l + (Math.max(a, Math.min(b, v)) - a) / (b - a) * (W - l - rr);
    const out = [`<svg width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" class="sweepchart">`,
      `<text x="${l}" y="14" font-size="12" font-weight="600">final score by candidate ` +
      `(rank order): bar mean with 95% interval, | each seed, \u2605 best; grey: ` +
      `${raced ? "dropped" : "clearly behind"}` +
      `</text>`];
    const every10 = b - a > 200 ? 20 : 10;
    for (let v = Math.ceil(a / every10) * every10; v <= b; v += every10) {
      out.push(`<line x1="${X(v)}" x2="${X(v)}" y1="${t - 4}" y2="${H - 26}" ` +
        `stroke="#e3e3e3"/>` + [t - 6, H - 12].map((y) => `<text x="${X(v)}" y="${y}" ` +
        `font-size="9" text-anchor="middle">${v}</text>`).join(""));
    }
    rows.forEach((r, i) => {
      const y = t + dy * i + dy / 2;
      const colour = r.clearly_behind ? "#999" : "#2d5fb0";
      out.push(`<g data-i="${i}" class="crow"><title>${esc(r.rank + ". " + r.label)}</title>` +
        `<text x="${l - 4}" y="${y + 3}" font-size="8.5" text-anchor="end">${r.rank}</text>`);
      if (r.ci) {
        out.push(`<line x1="${X(r.ci[0])}" x2="${X(r.ci[1])}" y1="${y}" y2="${y}" ` +
          `stroke="${colour}" stroke-width="3"/>`);
      }
      out.push(`<circle cx="${X(r.mean)}" cy="${y}" r="2.6" fill="${colour}"/>`);
      (r.scores || []).forEach((s) => out.push(`<line x1="${X(s)}" x2="${X(s)}" ` +
        `y1="${y - 4}" y2="${y + 4}" stroke="#000"/>`));
      out.push(`<text x="${X(r.best)}" y="${y + 4}" font-size="10" fill="#c0302b" ` +
        `text-anchor="middle">\u2605</text></g>`);
    });
    out.push("</svg>");
    return out.join("");
  }

  const SWEEP_COLUMNS = [
    ["rank", "rank", (r) => r.rank],
    ["candidate", "opening", (r) => r.label],
    ["best", "best", (r) => r.best],
    ["mean", "mean [95% interval]", (r) => r.mean],
    ["diff", "paired diff. to #1 [interval]", (r) => r.diff],
    ["clearly_behind", "clearly behind", (r) => (r.clearly_behind ? 1 : 0)],
    ["p_holm", "p Holm", (r) => r.p_holm],
    ["scores", "seeds", (r) => (r.scores || []).join(" ")],
    // a race's rows: the round whose budget their statistics come from, and where they dropped
    ["budget", "budget", (r) => r.round * 1e6 + r.width * 1e3 + r.seeds.length],
    ["dropped", "dropped in", (r) => (r.dropped ? r.round : null)],
  ];
  const RACE_COLUMNS = ["budget", "dropped"];

  // "0-3" for consecutive seeds, else "0,1"
  const seedSpan = (seeds) => seeds.length > 2 && seeds[seeds.length - 1] - seeds[0] ===
    seeds.length - 1 ? `${seeds[0]}-${seeds[seeds.length - 1]}` : seeds.join(",");

  // A race's rounds: who ran at which budget, who dropped, what it cost, and why it stopped.
  function raceSummary(race, rows) {
    const byCandidate = new Map(rows.map((r) => [r.candidate, r]));
    const ranks = (cs) => {
      const rs = cs.map((c) => byCandidate.get(c).rank).sort((a, b) => a - b);
      return rs.length > 8 ? rs.slice(0, 8).join(", ") + ` and ${rs.length - 8} more`
        : rs.join(", ");
    };
    const limit = [race.budget ? `of --budget ${race.budget}` : "",
      race.time_limit ? `within --time-limit ${race.time_limit} s` : ""].filter(Boolean);
    return `<h2>The race</h2><p class="note">Round 1 ran every candidate at width ` +
      `${race.start_width} on seeds ${seedSpan(race.first_seeds)}; each later round ran the ` +
      (race.ladder === "width"
        ? `survivors with ${race.growth} times the width up to ${race.final_width}, then ` +
          `${race.growth} times the seeds, `
        : `survivors with up to ${race.growth} times the seeds and the width (at most ` +
          `${race.final_width}), `) +
      `while at most ${race.top} would remain. Dropped: ` +
      `${esc(race.drop)}. A dropped row's statistics (its budget column) are those of the ` +
      `round that dropped it, against that round's leader.</p>` +
      `<table class="rounds race"><thead><tr><th>round</th><th>width</th><th>seeds</th>` +
      `<th>ran</th><th>dropped (their ranks below)</th><th>cost</th><th>spent</th>` +
      `<th>leader</th></tr></thead><tbody>` + race.rounds.map((rd) => `<tr>` +
        `<td class="num">${rd.round}</td><td class="num">${rd.width}</td>` +
        `<td class="num">${seedSpan(rd.seeds)}</td><td class="num">${rd.ran}</td>` +
        `<td>${rd.dropped.length}${rd.dropped.length ? ": " + ranks(rd.dropped) : ""}</td>` +
        `<td class="num">${rd.cost}</td><td class="num">${rd.spent}</td>` +
        `<td>${esc(byCandidate.has(rd.leader) ? byCandidate.get(rd.leader).label : rd.leader)}` +
        `</td></tr>`).join("") + `</tbody></table>` +
      `<p class="stopped"><b>Stopped:</b> ${esc(race.stopped)}. Spent ${race.spent} ` +
      `${limit.join(" ")} ${esc(race.units.split(":")[0])} units in ${race.jobs} jobs.</p>`;
  }

  function sweepCell(key, r) {
    const iv = (x) => x ? ` [${fmt(x[0])}, ${fmt(x[1])}]` : "";
    switch (key) {
      case "candidate": return `<td>${r.recorded ? "* " : ""}${esc(r.label)}</td>`;
      case "mean": return `<td class="num">${fmt(r.mean)}${iv(r.ci)}</td>`;
      case "diff": return `<td class="num">${fmt(r.diff)}${iv(r.diff_ci)}</td>`;
      case "clearly_behind": return `<td>${r.clearly_behind ? "yes" : ""}</td>`;
      case "p_holm": return `<td class="num">${r.p_holm === undefined || r.p_holm === null
        ? "" : fmt(r.p_holm, 3)}</td>`;
      case "scores": return `<td class="num">${(r.scores || []).join(" ")}</td>`;
      case "budget": return `<td class="num" title="round ${r.round}: width ${r.width} on ` +
        `seeds ${seedSpan(r.seeds)}">r${r.round} ${r.width}x${r.seeds.length}</td>`;
      case "dropped": return `<td>${r.dropped ? "round " + r.round : ""}</td>`;
      default: return `<td class="num">${esc(fmt(r[key]))}</td>`;
    }
  }

  function renderSweep() {
    const d = P.data, rows = d.rows;
    const raced = !!d.race;
    const cols = SWEEP_COLUMNS.filter(([k]) => (k !== "p_holm" || rows.some((r) =>
      "p_holm" in r)) && (!RACE_COLUMNS.includes(k) || raced));
    const stats = d.statistics ? provenance(Object.entries(d.statistics), false)
      .replace("How this record was made", "Statistics of the sweep") : "";
    app.innerHTML = provenance(d.provenance, false) + stats +
      (raced ? raceSummary(d.race, rows) : "") +
      `<h2>Candidates</h2><p class="note">Click a column's heading to sort by it (again: ` +
      `the other way); click a row to open that candidate's best line below.</p>` +
      `<div class="tablebox"><table class="sweep"><thead><tr>` +
      cols.map(([k, name]) => `<th data-key="${k}">${esc(name)}</th>`).join("") +
      `</tr></thead><tbody>` + rows.map((r, i) => `<tr data-i="${i}"` +
        `${r.clearly_behind ? ' class="behind"' : ""}>` +
        cols.map(([k]) => sweepCell(k, r)).join("") + "</tr>").join("") +
      `</tbody></table></div><div class="chartbox">${sweepChart(rows, raced)}</div>` +
      `<div id="linepane"><p class="note">No line open: click a row of the table.</p></div>`;
    const tbody = app.querySelector("table.sweep tbody");
    const trs = [...tbody.rows];
    const heads = [...app.querySelectorAll("table.sweep th")];
    heads.forEach((th) => th.addEventListener("click", () => {
      const key = th.dataset.key;
      const get = SWEEP_COLUMNS.find(([k]) => k === key)[2];
      const desc = !th.classList.contains("desc") && (th.classList.contains("asc") ||
        !["rank", "candidate", "clearly_behind", "p_holm", "dropped"].includes(key));
      const sign = desc ? -1 : 1;
      const order = rows.map((r, i) => [get(r), i]).sort((x, y) => {
        const [a, b] = [x[0], y[0]];
        if (a === b) return rows[x[1]].rank - rows[y[1]].rank;
        if (a === undefined || a === null) return 1;
        if (b === undefined || b === null) return -1;
        return (a < b ? -1 : 1) * sign;
      });
      heads.forEach((h) => h.classList.remove("asc", "desc"));
      th.classList.add(desc ? "desc" : "asc");
      const frag = document.createDocumentFragment();
      order.forEach(([, i]) => frag.appendChild(trs[i]));
      tbody.appendChild(frag);
    }));
    let open = null;
    const openRow = (i) => {
      if (open !== null) trs[open].classList.remove("sel");
      trs[i].classList.add("sel");
      open = i;
      const r = rows[i];
      const pane = document.getElementById("linepane");
      R.lineView(pane, R.lineData(i), `<h2>Candidate ${r.candidate} (rank ${r.rank}): ` +
        `${esc(r.label)}</h2><p class="note">Its best line: seed ${r.best_seed}, ` +
        `${r.best} points.</p>`);
    };
    trs.forEach((tr) => tr.addEventListener("click", () => openRow(+tr.dataset.i)));
    app.querySelectorAll("g.crow").forEach((g) => g.addEventListener("click", () => {
      openRow(+g.dataset.i);
      document.getElementById("linepane").scrollIntoView();
    }));
    // #row=N opens the candidate ranked N (a link to one line of a sweep).
    const hash = (h) => {
      const asked = /^#row=(\d+)$/.exec(h);
      const i = asked ? rows.findIndex((r) => r.rank === +asked[1]) : -1;
      if (i >= 0) openRow(i); // not scrolled to: headless screenshots then draw nothing
    };
    const check = (ok, out) => {
      const t0 = performance.now();
      const th = heads.find((h) => h.dataset.key === "mean");
      th.click();
      const means = [...tbody.rows].map((tr) => rows[+tr.dataset.i].mean);
      ok(means.every((m, i) => !i || means[i - 1] >= m),
        `sorting by mean puts ${means.length} rows in descending order`);
      th.click();
      const up = [...tbody.rows].map((tr) => rows[+tr.dataset.i].mean);
      ok(up.every((m, i) => !i || up[i - 1] <= m), "a second click sorts ascending");
      out.push(`sort time: ${(performance.now() - t0).toFixed(1)} ms for two sorts`);
      const t1 = performance.now();
      tbody.rows[0].click();
      out.push(`open line time: ${(performance.now() - t1).toFixed(1)} ms`);
      ok(!!document.querySelector("#linepane svg.land"), "a click on a row draws its line");
    };
    return { hash, check };
  }

  R.views.sweep = renderSweep;
})(window.OraReport);

