"use strict";
// A review's page (`ora-solve review`): V(R) round by round against the reviewed line's own
// final score, the rounds ranked by points lost with the turns played beside the better ones,
// and the per-round table; a click on a round opens the line reaching its V(R) in page.js's
// line view, at that round (the best line and the reviewed line open the same way).
(function (R) {
  const { P, app, esc, provenance } = R;

  const by = (r) => r.source === "line" ? "the reviewed line itself"
    : `seed ${r.seed} searched from round ${r.from_round}`;
  const span = (r) => r.loss_through > r.round ? `rounds ${r.round}-${r.loss_through}`
    : `round ${r.round}`;
  const parts = (sc) => `${sc.total} points (goods ${sc.goods}, economic ${sc.economic}, ` +
    `dwelling ${sc.dwelling})`;

  // V(R) at each round searched, then "end": the line's own score (the last loss is V's fall
  // to it), and each seed's score from the round; k marks the round open below.
  function valueChart(rows, own, k) {
    const n = rows.length + 1;
    const every = rows.flatMap((r) => r.scores).concat([own]);
    const lo = Math.max(0, Math.floor((Math.min(...every) - 4) / 5) * 5);
    const hi = Math.ceil((Math.max(...every) + 6) / 5) * 5; // room for the loss labels
    const gap = Math.ceil(n / 20); // a label every round while they fit
    const ticks = rows.map((r, i) => [i, String(r.round)]).filter(([i]) => i % gap === 0)
      .concat([[n - 1, "end"]]);
    const notes = [];
    rows.forEach((r, i) => {
      if (r.loss > 0) notes.push([i + 0.5, r.value - r.loss / 2, "-" + r.loss]);
    });
    const greys = ["#777", "#aaa", "#555", "#999", "#bbb"];
    const seeds = rows[0].seeds.map((s, j) => ({ name: `seed ${s}, searched from R:`,
      colour: greys[j % greys.length], ys: rows.map((r) => r.scores[j]).concat([own]),
      width: 0, dots: true }));
    return R.chartSvg([
      { name: "V(R)", colour: "#2d5fb0", ys: rows.map((r) => r.value).concat([own]), width: 2,
        dots: true },
      { name: "the line's own", colour: "#c0302b", ys: new Array(n).fill(own), width: 1.2,
        dash: true },
    ].concat(seeds), n, k, { title: `V(R), the best final score found from round R, ` +
      `against the line's own ${own} (red: points lost)`, ticks, lo, hi, notes,
      W: Math.max(780, 220 + 24 * n) });
  }

  function ranking(d) {
    if (!d.lost.length) {
      return `<p class="note">No round lost points at this budget: no line better than the ` +
        `reviewed one was found.</p>`;
    }
    return `<ol class="lost">` + d.lost.map((round) => {
      const i = d.rounds.findIndex((r) => r.round === round), r = d.rounds[i];
      return `<li data-i="${i}"><b>${span(r)}: ${r.loss} points lost</b> (V ${r.value} ` +
        `here, ${r.value - r.loss} after it)<div class="played">played: ` +
        `${esc(r.own_turn_text)}</div><div class="better">better: ${esc(r.turn_text)}</div>` +
        `<div class="note">better line: ${parts(r.score)}, ${by(r)}</div></li>`;
    }).join("") + `</ol>`;
  }

  function renderReview() {
    const d = P.data, rows = d.rounds, own = d.own.total;
    const gain = d.best.score.total - own;
    app.innerHTML = provenance(d.provenance, false) +
      `<p class="summary">The reviewed line (${esc(d.reviewed)}) scores ${parts(d.own)}. ` +
      (gain > 0 ? `The best line found scores ${parts(d.best.score)}, ${gain} more ` +
        `(${by(d.best)}).` : "No line better than it was found at this budget.") +
      ` ${d.lost.length} of ${rows.length} rounds searched lost points.</p>` +
      `<p><button type="button" class="open-best">open the best line</button> ` +
      `<button type="button" class="open-own">open the reviewed line</button></p>` +
      `<div class="chartbox"><div class="valuechart"></div></div>` +
      `<h2>Rounds ranked by points lost</h2><p class="note">Each with the turns the line ` +
      `played in it and the better turns of the line reaching V(R); click one to open that ` +
      `line at the round.</p>` + ranking(d) +
      `<h2>Round by round</h2><p class="note">found: the best seed's final score searched ` +
      `from the round's first turn; V(R): the best of that, of every later round's and of ` +
      `the line's own; loss: V(R) - V(R+1) (the last round: - the line's own). Click a row ` +
      `to open the line reaching its V(R) at that round.</p>` +
      `<table class="rounds review"><thead><tr><th>round</th><th>actions before</th>` +
      `<th>seeds' scores</th><th>found</th><th>V(R)</th><th>loss</th><th>V(R) reached by` +
      `</th></tr></thead><tbody>` + rows.map((r, i) => `<tr data-i="${i}"` +
        `${r.loss > 0 ? ' class="lost"' : ""}><td class="num">${span(r)}</td>` +
        `<td class="num">${r.prefix_actions}</td><td class="num">` +
        `${r.seeds.map((s, j) => `<span title="seed ${s}">${r.scores[j]}</span>`).join(" ")}` +
        `</td><td class="num">${r.found}</td><td class="num">${r.value}</td>` +
        `<td class="num">${r.loss || ""}</td><td>${by(r)}</td></tr>`).join("") +
      `</tbody></table><div id="linepane"></div>`;
    const trs = [...app.querySelectorAll("table.review tbody tr")];
    const chart = app.querySelector(".valuechart");
    let sel = null;

    // Open line `li` at round `round` (its end if null); `i`: the table's row to mark.
    function open(li, heading, round, i) {
      const line = R.lineData(li);
      const view = R.lineView(document.getElementById("linepane"), line, heading);
      const k = round === null ? -1 : line.rows.findIndex((row) => row.w === "round " + round);
      if (k >= 0) view.select(k);
      if (sel !== null) trs[sel].classList.remove("sel");
      if (i !== null) trs[i].classList.add("sel");
      sel = i;
      chart.innerHTML = valueChart(rows, own, i === null ? rows.length : i);
      return view;
    }
    const openRound = (i) => {
      const r = rows[i];
      const how = r.source === "line" ? "no better line was found from this round on"
        : r.turn_text === r.own_turn_text ? `it plays the reviewed line's own round ` +
          `${r.round} (it follows that line up to round ${r.from_round}, searched from there)`
        : `the turns listed are its own; the reviewed line played ${esc(r.own_turn_text)}`;
      return open(r.li, `<h2>Round ${r.round}: ${r.source === "line" ? "the reviewed line" :
        "a better line"}, ${r.value} points</h2><p class="note">${parts(r.score)}, ` +
        `${by(r)}. Drawn after its round ${r.round}: ${how}.</p>`, r.round, i);
    };
    const openBest = () => {
      const i = rows.findIndex((r) => r.round === d.best.from_round);
      return open(d.best.li, `<h2>The best line found: ${parts(d.best.score)}</h2>` +
        `<p class="note">${by(d.best)}${i >= 0 ? `; drawn after its round ` +
        `${d.best.from_round}` : ""}.</p>`, i >= 0 ? d.best.from_round : null, i >= 0 ? i : null);
    };
    const openOwn = () => open(0, `<h2>The reviewed line: ${parts(d.own)}</h2>`, null, null);
    trs.forEach((tr) => tr.addEventListener("click", () => openRound(+tr.dataset.i)));
    app.querySelectorAll("ol.lost li").forEach((li) => li.addEventListener("click", () => {
      openRound(+li.dataset.i);
      document.getElementById("linepane").scrollIntoView();
    }));
    app.querySelector(".open-best").addEventListener("click", openBest);
    app.querySelector(".open-own").addEventListener("click", openOwn);
    // the round that lost most is open at first (the reviewed line if none lost)
    if (d.lost.length) openRound(rows.findIndex((r) => r.round === d.lost[0]));
    else openOwn();

    // #round=N opens round N, #best the best line.
    const hash = (h) => {
      const asked = /^#round=(\d+)$/.exec(h);
      const i = asked ? rows.findIndex((r) => r.round === +asked[1]) : -1;
      if (i >= 0) openRound(i);
      if (h === "#best") openBest();
    };
    const check = (ok) => {
      const heading = () => document.querySelector("#linepane h2").textContent;
      openBest();
      ok(heading().startsWith("The best line found") &&
        !!document.querySelector("#linepane svg.land"), "the best line opens");
      const marker = () => chart.querySelector(".marker").getAttribute("x1");
      const i = rows.length - 1, r = rows[i], was = marker();
      trs[i].click();
      const when = document.querySelector("#linepane .when").textContent;
      ok(heading().startsWith(`Round ${r.round}:`) && when === "round " + r.round &&
        !!document.querySelector("#linepane svg.land") && trs[i].classList.contains("sel"),
        `a click on round ${r.round} draws its line at that round`);
      ok(rows.length === 1 || marker() !== was, "the chart marks the round opened");
    };
    return { hash, check };
  }

  R.views.review = renderReview;
})(window.OraReport);
