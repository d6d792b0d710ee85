// The analysis board (kbenv.serve.analysis, agents.analysis): an analyst's shares of the legal decisions as a heat
// map on the board, the top decisions with their shares and values, an evaluation bar per seat, the best line of
// the turn (each step clickable to preview the board after it), the hint of a human seat, and in a replay the
// evaluation curve, one point per decision. Everything comes from the API, which analyses a seat's view only.
"use strict";
const A = { on: false, data: null, seq: 0, inFlight: false, dirty: false, preview: null, hint: null, curve: null,
  curveKey: null };

// The analysts the page offers for a ruleset: the built-in ones, then each shipped model whose card states that
// ruleset, or whose card says any subset of its expansions with the default readings (its search, and its
// network's raw policy).
function fittingModels(expansions, rules) {
  const key = (xs) => [...xs].sort().join(",");
  const want = `${key(expansions)}|${key(rules)}`;
  const inSubsets = (m) => m.any_subset_of && rules.length === 0
    && expansions.every((e) => m.any_subset_of.expansions.includes(e));
  return S.meta.models.filter((m) => inSubsets(m)
    || m.rulesets.some((r) => `${key(r.expansions)}|${key(r.rules)}` === want));
}

function analystOptions(view) {
  const sel = $("analyst"), old = sel.value;
  const opts = S.meta.analysts.map((a) => [a, `${a} (values, softmax)`]);
  for (const m of fittingModels(view.expansions, view.rules)) {
    opts.push([m.spec, `${m.spec} (search visit shares)`]);
    opts.push([m.network, `${m.network} (network policy)`]);
  }
  sel.innerHTML = opts.map(([v, t]) => `<option value="${esc(v)}">${esc(t)}</option>`).join("");
  if (opts.some(([v]) => v === old)) sel.value = old;
}

function analysisUrl(kind) {
  const analyst = encodeURIComponent($("analyst").value || "lookahead");
  if (S.mode === "replay" && S.replay) {
    return `/api/replays/${S.replay.id}/${kind}?step=${S.replay.step}&analyst=${analyst}`;
  }
  const seat = S.seat === null ? "" : `&seat=${S.seat}`;
  return `/api/games/${S.gameId}/${kind}?analyst=${analyst}${seat}`;
}

// Ask for the analysis of the position shown (one request at a time; a position shown meanwhile is asked next).
async function refreshAnalysis() {
  A.hint = null;
  if (!A.on || !S.view || (S.mode === "play" && (!S.gameId || S.busy))) { drawAnalysis(); return; }
  if (A.inFlight) { A.dirty = true; return; }
  A.inFlight = true;
  const seq = ++A.seq;
  try {
    const d = await api("GET", analysisUrl("analysis"));
    if (seq === A.seq) { A.data = d; A.preview = null; }
    $("analysis-error").textContent = "";
  } catch (err) { A.data = null; $("analysis-error").textContent = err.message; }
  A.inFlight = false;
  if (A.dirty) { A.dirty = false; refreshAnalysis(); return; }
  drawAnalysis();
  if (S.mode === "replay") refreshCurve();
}

function pct(x) { return `${(100 * x).toFixed(x >= 0.1 ? 0 : 1)}%`; }
function num(v) { return v === null || v === undefined ? "-" : v.toFixed(1); }

function drawAnalysis() {
  const box = $("analysis-body");
  box.hidden = !A.on;
  const svg = $("board");
  for (const g of svg.querySelectorAll("#heat, #line-marks")) g.remove();
  $("eval-bars").innerHTML = "";
  $("top-decisions").innerHTML = "";
  $("best-line").innerHTML = "";
  $("analysis-method").textContent = "";
  if (!A.on || !A.data) return;
  const d = A.data;
  drawHeat(svg, S.meta, S.view, d);
  drawEvalBars(d);
  const top = d.decisions.slice(0, 6);
  $("top-decisions").innerHTML = top.map((x, k) => `<li id="top-${k}" data-action="${x.action}" data-share="${x.share}">` +
    `${esc(x.words)}: <b>${pct(x.share)}</b>, value ${num(x.value)}</li>`).join("") ||
    "<li>no decision: the game is over</li>";
  const line = $("best-line");
  if (d.line.length) {
    line.innerHTML = `best line (${swatch(d.line[0].seat)}player_${d.line[0].seat}): ` + d.line.map((s, k) =>
      `<button class="line-step" id="line-step-${k}" data-step="${k}">${k + 1}. ${esc(s.words)}</button>`).join(" ");
    for (const b of line.querySelectorAll("button")) b.addEventListener("click", () => previewLine(+b.dataset.step));
  }
  $("analysis-method").textContent = `${d.analyst}: ${d.method}; bars: ${d.eval_label} (from ${seatLabel(d.viewer)}'s view)`;
}

function drawEvalBars(d) {
  const vals = d.evaluation, margin = d.eval_kind === "margin";
  const scale = Math.max(margin ? 10 : 1, ...vals.map((v) => Math.abs(v)));
  $("eval-bars").innerHTML = vals.map((v, p) => {
    const width = margin ? 50 * Math.abs(v) / scale : 100 * Math.max(0, v) / scale;
    const left = margin ? (v < 0 ? 50 - width : 50) : 0;
    return `<div class="eval-row">${swatch(p)}<span class="eval-name">player_${p}</span>` +
      `<span class="eval-bar" id="eval-bar-${p}" data-value="${v}"><span class="eval-fill" style="left:${left.toFixed(1)}%;` +
      `width:${width.toFixed(1)}%;background:${rgb(S.meta.colours.seats[p])}"></span>${margin ? '<span class="eval-zero"></span>' : ""}</span>` +
      `<span class="eval-value">${v >= 0 && margin ? "+" : ""}${v.toFixed(1)}</span></div>`;
  }).join("");
}

// The heat map: a translucent hex per legal hex decision, its opacity the share over the largest share, its
// share in data-share (and in per cent on the hexes with 2% or more); island decisions on the island's hexes.
function drawHeat(svg, meta, view, d) {
  const G = meta.geometry, R = G.radius, hits = svg.querySelector("#hits");
  const heat = el("g", { id: "heat" });
  svg.insertBefore(heat, hits);
  const max = Math.max(1e-9, ...d.decisions.map((x) => x.share));
  for (const x of d.decisions) {
    let centre;
    if (x.hex) centre = G.centres[x.hex[0]][x.hex[1]];
    else if (x.island && view.board.island) centre = G.island.centres[x.island[0]][x.island[1]];
    else continue;
    const [cx, cy] = centre;
    const poly = el("polygon", { points: corners(cx, cy, R * 0.96), class: "heat", "data-action": x.action,
      "data-share": x.share, fill: `rgba(220,20,60,${(0.12 + 0.7 * x.share / max).toFixed(3)})` }, heat);
    el("title", {}, poly).textContent = `${x.words}: ${pct(x.share)}, value ${num(x.value)}`;
    if (x.share >= 0.02) {
      const t = el("text", { x: cx, y: cy - R * 0.35, "font-size": 9, "text-anchor": "middle", class: "heat-label" }, heat);
      t.textContent = pct(x.share);
    }
  }
}

// A step of the best line: the board after it (as the analysed seat would see it), the line's hexes numbered.
function previewLine(k) {
  if (!A.data) return;
  if (A.preview === k) { A.preview = null; drawCurrentBoard(); drawAnalysis(); message("back to the position"); return; }
  A.preview = k;
  const step = A.data.line[k];
  drawBoard($("board"), S.meta, Object.assign({}, S.view, { board: step.preview.board, legal: [] }), null, null);
  const svg = $("board"), marks = el("g", { id: "line-marks" }, svg);
  A.data.line.slice(0, k + 1).forEach((s, j) => {
    const x = A.data.decisions.find((dd) => dd.action === s.action) || {};
    const hex = s.action < 400 ? [Math.floor(s.action / 20), s.action % 20] : x.hex;
    if (!hex) return;
    const [cx, cy] = S.meta.geometry.centres[hex[0]][hex[1]];
    el("circle", { cx: cx, cy: cy, r: 7, fill: "#fff", stroke: "#c00", "stroke-width": 2 }, marks);
    el("text", { x: cx, y: cy + 3.5, "font-size": 10, "text-anchor": "middle", fill: "#c00" }, marks).textContent = j + 1;
  });
  for (const b of document.querySelectorAll(".line-step")) b.classList.toggle("active", +b.dataset.step === k);
  message(`preview: the board after step ${k + 1} of the best line (totals ${step.preview.totals.join(" - ")}); click it again to return`);
}

async function askHint() {
  if (S.mode !== "play" || S.seat === null || !humanDecides(S.view)) { message("a hint is for your seat when it decides", true); return; }
  try {
    const d = await api("GET", analysisUrl("hint"));
    A.hint = d.hint;
    for (const h of document.querySelectorAll(".hex-hit.hint")) h.classList.remove("hint");
    if (d.hint.hex) document.getElementById(`hex-${d.hint.hex[0]}-${d.hint.hex[1]}`).classList.add("hint");
    $("hint-result").textContent = `hint (${d.analysis.analyst}): ${d.hint.words} (${pct(d.hint.share)})`;
    message(`hint: ${d.hint.words}`);
    if (A.on) { A.data = d.analysis; drawAnalysis(); }
  } catch (err) { message(err.message, true); }
}

// The replay's evaluation curve: the analyst's evaluation per seat at each decision, beside the score chart.
async function refreshCurve() {
  if (!A.on || S.mode !== "replay" || !S.replay) { setHidden($("eval-chart"), true); return; }
  const key = `${S.replay.id}|${$("analyst").value}`;
  if (A.curveKey !== key) {
    try {
      const url = `/api/replays/${S.replay.id}/curve?analyst=${encodeURIComponent($("analyst").value || "lookahead")}`;
      A.curve = await api("GET", url);
      A.curveKey = key;
    } catch (err) { $("analysis-error").textContent = err.message; return; }
  }
  drawEvalChart(A.curve, S.replay.step, S.replay.steps);
}

function drawEvalChart(curve, step, steps) {
  const svg = $("eval-chart"), W = 320, H = 140, pad = 24;
  setHidden(svg, false);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const pts = curve.points, n = pts.length ? pts[0].length : 0, last = Math.max(1, steps);
  const lo = Math.min(0, ...pts.flat()), hi = Math.max(1, ...pts.flat());
  const X = (i) => pad + (W - 2 * pad) * i / last, Y = (v) => H - pad - (H - 2 * pad) * (v - lo) / (hi - lo);
  el("line", { x1: pad, y1: Y(0), x2: W - pad, y2: Y(0), stroke: "#888" }, svg);
  el("line", { x1: pad, y1: pad, x2: pad, y2: H - pad, stroke: "#888" }, svg);
  const t = el("text", { x: 2, y: pad - 6, "font-size": 10 }, svg);
  t.textContent = `${curve.analyst}: ${curve.eval_kind === "margin" ? "expected margin" : "gold + 2/tile"} at each of ${pts.length} decisions`;
  el("title", {}, svg).textContent = curve.eval_label;
  for (let p = 0; p < n; p++) {
    const line = pts.map((row, i) => `${X(i).toFixed(1)},${Y(row[p]).toFixed(1)}`).join(" ");
    el("polyline", { points: line, fill: "none", stroke: p === 2 ? "#999" : rgb(S.meta.colours.seats[p]),
      "stroke-width": 1.5, class: "eval-curve", "data-points": pts.length }, svg);
  }
  el("line", { x1: X(step), y1: pad, x2: X(step), y2: H - pad, stroke: "#c00", "stroke-dasharray": "3,2" }, svg);
}

// A new position is shown: the old analysis goes, the new one is asked for.
function analysisChanged() {
  A.data = null;
  A.preview = null;
  drawAnalysis();
  $("hint").hidden = !(S.mode === "play" && S.seat !== null && S.view && humanDecides(S.view));
  $("hint-result").textContent = "";
  refreshAnalysis();
}

function initAnalysis() {
  $("analysis-toggle").addEventListener("change", () => {
    A.on = $("analysis-toggle").checked;
    A.data = null;
    if (!A.on) setHidden($("eval-chart"), true);
    if (S.view) { drawCurrentBoard(); drawAnalysis(); }
    refreshAnalysis();
  });
  $("analyst").addEventListener("change", () => { A.data = null; refreshAnalysis(); });
  $("hint").addEventListener("click", askHint);
}
