// The page of `kbenv serve`: new games (human and agent seats), live agents-only games stepped at a chosen
// speed, and replays of records. Everything shown comes from the JSON API (a seat's view, never the state).
"use strict";
const S = { meta: null, mode: "play", gameId: null, seat: null, humans: [], view: null, running: false,
  replay: null, busy: false };
const $ = (id) => document.getElementById(id);

async function api(method, url, body) {
  const opts = { method: method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) opts.body = JSON.stringify(body);
  const res = await fetch(url, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `${res.status} ${res.statusText}` }; }
  if (!res.ok) throw new Error(data.error || `${res.status}`);
  return data;
}

function message(text, error) {
  const m = $("message");
  m.textContent = text || "";
  m.className = error ? "error" : "";
}

function seatLabel(p) { return `player_${p} (${S.meta.colours.seat_names[p]})`; }
function swatch(p) { return `<span class="swatch" style="background:${rgb(S.meta.colours.seats[p])}"></span>`; }
function esc(s) { return String(s).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]); }

// ----- set-up form ---------------------------------------------------------------------------------------
function seatInputs() {
  const n = +$("players").value, box = $("seats"), old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.innerHTML = "";
  for (let p = 0; p < n; p++) {
    const label = document.createElement("label");
    label.innerHTML = `${swatch(p)}seat ${p} <input id="seat-${p}" list="agent-specs" value="${esc(old[p] || (p === 0 ? "human" : "greedy"))}">`;
    box.appendChild(label);
  }
}

// Expansions are shown by name (their description on hover), rule flags by their one-line description from the
// catalogue (their identifier on hover).
function checkboxes(box, items, prefix, byText) {
  box.innerHTML = items.map((it) => `<label title="${esc(byText ? it.name : it.text)}"><input type="checkbox" id="${prefix}-${it.name}" value="${it.name}"> ${esc(byText ? it.text : it.name)}</label>`).join(byText ? "<br>" : " ");
}

function chosen(box) { return [...document.querySelectorAll(`#${box} input:checked`)].map((i) => i.value); }

// The seat menus: the built-in agents, then the shipped models whose card states the ruleset chosen.
function agentMenu() {
  const models = fittingModels(chosen("expansions"), chosen("rules"));
  const builtin = S.meta.agent_examples.filter((s) => !s.startsWith("trained:"));
  $("agent-specs").innerHTML = builtin.map((s) => `<option value="${esc(s)}">`).join("") + models.map((m) =>
    `<option value="${esc(m.spec)}" label="${esc(m.spec)}: trained for ${m.players.join("/")} players">`).join("");
}

function ruleText(name) { const r = S.meta.rules.find((x) => x.name === name); return r ? r.text : name; }

async function init() {
  S.meta = await api("GET", "/api/meta");
  const list = document.createElement("datalist");
  list.id = "agent-specs";
  document.body.appendChild(list);
  seatInputs();
  checkboxes($("expansions"), S.meta.expansions, "exp", false);
  checkboxes($("rules"), S.meta.rules, "rule", true);
  agentMenu();
  $("ruleset").addEventListener("change", agentMenu);
  initAnalysis();
  $("island-side").innerHTML += S.meta.island_sides.map((s) => `<option value="${esc(s)}">${esc(s)}</option>`).join("");
  $("island-side-box").hidden = !S.meta.expansions.some((e) => e.name === "island");
  $("players").addEventListener("change", seatInputs);
  $("new-game").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
  $("watch-run").addEventListener("click", () => { S.running = true; watchLoop(); });
  $("watch-pause").addEventListener("click", () => { S.running = false; });
  $("watch-step").addEventListener("click", () => { S.running = false; agentStep(); });
  $("open-replay").addEventListener("click", openReplay);
  $("record-list").addEventListener("change", recordPicked);
  $("rp-first").addEventListener("click", () => replayStep(0));
  $("rp-back").addEventListener("click", () => replayStep(S.replay.step - 1));
  $("rp-forward").addEventListener("click", () => replayStep(S.replay.step + 1));
  $("rp-last").addEventListener("click", () => replayStep(S.replay.steps));
  $("rp-slider").addEventListener("change", () => replayStep(+$("rp-slider").value));
  await loadRecords();
  message("choose the seats (human or an agent spec) and start a new game, or open a replay");
}

function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.tab === name);
  $("panel-play").hidden = name !== "play";
  $("panel-replay").hidden = name !== "replay";
}

// ----- live games --------------------------------------------------------------------------------------
async function newGame() {
  const n = +$("players").value;
  const body = {
    players: n, seed: +$("seed").value || 0, preset: $("preset").value || null,
    expansions: chosen("expansions"),
    rules: chosen("rules"),
    seats: [...Array(n).keys()].map((p) => $(`seat-${p}`).value.trim()),
  };
  if (body.expansions.includes("island") && $("island-side").value) body.island_side = $("island-side").value;
  S.running = false;
  message("setting up...");
  try {
    const d = await api("POST", "/api/games", body);
    Object.assign(S, { mode: "play", gameId: d.id, seat: d.seat, humans: d.humans, replay: null });
    $("log").innerHTML = "";
    setHidden($("chart"), true);
    $("watch-controls").hidden = d.humans.length > 0;
    $("title").textContent = `game ${d.id}: ${d.seats.join(" vs ")}`;
    setHidden($("eval-chart"), true);
    analystOptions(d.view);
    render(d.view);
    message(d.humans.length ? "" : "agents only: Run, Pause or Step through the game");
    await maybeAdvance();
  } catch (err) { message(err.message, true); }
}

function humanDecides(view) { return !view.done && S.humans.includes(view.decider); }

async function maybeAdvance() {
  if (!S.humans.length || S.view.done || humanDecides(S.view)) return;
  S.busy = true;
  message("the agents are deciding...");
  try {
    let d;
    do {  // the server stops after a while between decisions ("more": the agents still decide)
      d = await api("POST", `/api/games/${S.gameId}/advance`, { seat: S.seat });
      logMoves(d.moves);
      render(d.view);
    } while (d.more && d.moves.length);
    message(d.view.done ? "game over" : "your turn");
  } catch (err) { message(err.message, true); }
  S.busy = false;
  analysisChanged();
}

async function decide(body) {
  if (S.busy) return;
  S.busy = true;
  try {
    const d = await api("POST", `/api/games/${S.gameId}/apply`, Object.assign({ seat: S.seat }, body));
    logMoves([d.move]);
    render(d.view);
    message(d.move.words);
  } catch (err) { message(err.message, true); S.busy = false; return; }
  S.busy = false;
  if (!S.humans.length || S.view.done || humanDecides(S.view)) analysisChanged();
  await maybeAdvance();
}

function onHex(r, c) {
  if (S.mode !== "play" || S.seat === null) return;
  if (!humanDecides(S.view)) { message(`it is ${seatLabel(S.view.decider)}'s decision`, true); return; }
  decide({ hex: [r, c] });
}

function onIsland(r, c) {  // an island hex: its action "island r,c" (kbenv.catalogue.ISLAND_ACTIONS)
  if (S.mode !== "play" || S.seat === null) return;
  if (!humanDecides(S.view)) { message(`it is ${seatLabel(S.view.decider)}'s decision`, true); return; }
  decide({ decision: `island ${r},${c}` });
}

async function agentStep() {
  try {
    const d = await api("POST", `/api/games/${S.gameId}/step`, {});
    logMoves([d.move]);
    render(d.view);
    if (d.view.done) { S.running = false; message("game over"); }
  } catch (err) { S.running = false; message(err.message, true); }
}

async function watchLoop() {
  while (S.running && S.view && !S.view.done && S.mode === "play") {
    await agentStep();
    await new Promise((ok) => setTimeout(ok, +$("speed").value));
  }
}

function logMoves(moves) {
  const log = $("log");
  for (const m of moves) {
    const li = document.createElement("li");
    li.innerHTML = `${swatch(m.seat)}player_${m.seat}: ${esc(m.words)}`;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

// ----- replays ------------------------------------------------------------------------------------------
async function loadRecords() {
  let d;
  try { d = await api("GET", "/api/records"); } catch (err) { message(err.message, true); return; }
  S.records = d.files;
  const sel = $("record-list");
  sel.innerHTML = d.files.length ? "" : "<option value=''>no records (kbenv serve --records DIR)</option>";
  d.files.forEach((f, k) => {
    const root = d.roots[f.root].name;
    sel.insertAdjacentHTML("beforeend", `<option value="${k}">${esc(root)}/${esc(f.path)}${f.kind === "tournament" ? " (tournament)" : ""}</option>`);
  });
  recordPicked();
}

function recordPicked() {
  const f = (S.records || [])[+$("record-list").value];
  const tournament = f && f.kind === "tournament";
  $("game-pick").hidden = !tournament;
  if (tournament) {
    $("record-game").innerHTML = f.games.map((g) => `<option value="${g.game_id}">game ${g.game_id}${g.seats ? ": " + esc(g.seats.join(" vs ")) : ""}${g.gold ? " (" + g.gold.join("-") + ")" : ""}</option>`).join("");
  }
}

async function openReplay() {
  const f = (S.records || [])[+$("record-list").value];
  if (!f) { message("no record chosen", true); return; }
  const body = { root: f.root, path: f.path };
  if (f.kind === "tournament") body.game = +$("record-game").value;
  S.running = false;
  try {
    const d = await api("POST", "/api/replays", body);
    S.mode = "replay";
    S.replay = { id: d.id, steps: d.steps, step: 0, timeline: d.timeline, decisions: d.decisions, seats: d.seats };
    $("title").textContent = `replay: ${d.title}`;
    $("replay-controls").hidden = false;
    $("rp-slider").max = d.steps;
    $("log").innerHTML = "";
    setHidden($("chart"), false);
    A.curveKey = null;
    analystOptions(d.view);
    showReplay(d.view);
    message(`${d.steps} decisions; step through them with < and >`);
  } catch (err) { message(err.message, true); }
}

async function replayStep(k) {
  const R = S.replay;
  if (!R) return;
  k = Math.max(0, Math.min(R.steps, k));
  try {
    const d = await api("GET", `/api/replays/${R.id}?step=${k}`);
    showReplay(d.view);
  } catch (err) { message(err.message, true); }
}

function showReplay(view) {
  const R = S.replay;
  R.step = view.step;
  $("rp-slider").value = view.step;
  $("rp-step").textContent = `decision ${view.step} / ${view.steps}`;
  render(view);
  const prev = view.step > 0 ? R.decisions[view.step - 1] : null;
  message(prev ? `decision ${view.step}: player_${prev.seat} ${prev.words}` : "the start of the game");
  drawChart(R.timeline, view.step);
}

function drawChart(timeline, step) {
  const svg = $("chart"), W = 320, H = 140, pad = 24;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const n = timeline[0].length, max = Math.max(1, ...timeline.flat()), last = Math.max(1, timeline.length - 1);
  const X = (i) => pad + (W - 2 * pad) * i / last, Y = (v) => H - pad - (H - 2 * pad) * v / max;
  el("line", { x1: pad, y1: H - pad, x2: W - pad, y2: H - pad, stroke: "#888" }, svg);
  el("line", { x1: pad, y1: pad, x2: pad, y2: H - pad, stroke: "#888" }, svg);
  const t = el("text", { x: 2, y: pad - 6, "font-size": 10 }, svg);
  t.textContent = `score totals (max ${max}) over ${last} decisions`;
  for (let p = 0; p < n; p++) {
    const pts = timeline.map((row, i) => `${X(i).toFixed(1)},${Y(row[p]).toFixed(1)}`).join(" ");
    const c = S.meta.colours.seats[p];
    el("polyline", { points: pts, fill: "none", stroke: p === 2 ? "#999" : rgb(c), "stroke-width": 1.5 }, svg);
  }
  el("line", { x1: X(step), y1: pad, x2: X(step), y2: H - pad, stroke: "#c00", "stroke-dasharray": "3,2", id: "chart-step" }, svg);
}

// ----- the view -----------------------------------------------------------------------------------------
function drawCurrentBoard() {
  const live = S.mode === "play" && S.seat !== null && !S.view.done;
  drawBoard($("board"), S.meta, S.view, live ? onHex : null, live ? onIsland : null);
}

function render(view) {
  S.view = view;
  const live = S.mode === "play" && S.seat !== null && !view.done;
  drawCurrentBoard();
  renderLegend(view);
  analysisChanged();
  renderStatus(view);
  renderActions(view, live);
  renderScores(view);
  renderCards(view);
}

function renderStatus(view) {
  let text;
  if (view.done) {
    text = `game over after turn ${view.turn}: winner(s) ${view.winners.map(seatLabel).join(", ")}`;
  } else {
    const mover = view.seats[view.current_player];
    const played = mover.hand_words.length ? mover.hand_words.join(" and ") : "hidden";
    text = `turn ${view.turn}: ${seatLabel(view.current_player)} (${esc(mover.agent)}) to move, phase ${view.phase}; ` +
      `terrain card: ${played}`;
    if (view.seat !== null && view.decider === view.seat) text += " - your decision: click a highlighted hex";
  }
  const silo = view.harvest && view.harvest.silo;
  if (silo) text += `<br>silo phase: ${seatLabel(silo.seat)}${silo.hex ? ` at ${silo.hex[0]},${silo.hex[1]}` : ""}, ` +
    `${esc(silo.mode)}, ${silo.steps} of 3 taken`;
  $("status").innerHTML = `${text}<br>draw pile ${view.deck_size}, discard ${view.discard_size}` +
    (view.expansions.length ? `<br>expansions: ${view.expansions.join(", ")}` : "") +
    (view.rules.length ? `<br>rules: ${view.rules.map((r) => `<span class="rule" title="${esc(r)}">${esc(ruleText(r))}</span>`).join("; ")}` : "");
}

function renderActions(view, live) {
  const box = $("actions");
  box.innerHTML = "";
  if (!live) return;
  for (const d of view.legal.filter((x) => x.kind !== "hex" && x.kind !== "island")) {
    const b = document.createElement("button");
    b.textContent = d.kind === "end_turn" ? "end turn" : d.words;
    b.id = `decision-${d.name}`;
    b.className = d.kind;
    b.title = d.words;
    b.addEventListener("click", () => decide({ action: d.action }));
    box.appendChild(b);
  }
}

function renderScores(view) {
  const s0 = view.seats[0].score;
  const extra = ["capitols", "gold", "palaces"].filter((k) => k in s0);
  const tasks = s0.tasks ? Object.keys(s0.tasks) : [];
  const head = ["seat", "agent", "hand", "supply", "banked", ...view.cards.map((c) => c.title), "castles", ...extra,
    ...tasks, "total"];
  const hover = Object.fromEntries(view.cards.map((c) => [c.title, c.text]));
  let html = `<tr>${head.map((h) => `<th${hover[h] ? ` title="${esc(hover[h])}"` : ""}>${esc(h)}</th>`).join("")}</tr>`;
  for (const seat of view.seats) {
    const hand = seat.hand_words.join(", ") + (seat.hidden_cards ? `${seat.hand_words.length ? " + " : ""}${seat.hidden_cards} hidden` : "") || "-";
    const cells = [seat.supply, seat.gold, ...view.cards.map((c) => seat.score.cards[c.name]), seat.score.castles,
      ...extra.map((k) => seat.score[k]), ...tasks.map((t) => seat.score.tasks[t])];
    html += `<tr id="seat-row-${seat.seat}"><td class="name">${swatch(seat.seat)}${seatLabel(seat.seat)}${seat.seat === view.start_player ? " (start)" : ""}</td>` +
      `<td class="name">${esc(seat.agent)}</td><td class="name" id="hand-${seat.seat}">${esc(hand)}</td>` +
      cells.map((v) => `<td>${v}</td>`).join("") + `<td id="total-${seat.seat}"><b>${seat.total}</b></td></tr>`;
  }
  $("score-table").innerHTML = html;
}

function renderCards(view) {
  let html = view.cards.map((c) => `<div class="card-line" id="card-${esc(c.name)}" title="${esc(c.text)}"><b>${esc(c.title)}</b>: ${esc(c.text)}</div>`).join("");
  if (view.tasks.length) html += view.tasks.map((t) => `<div class="card-line" id="task-${esc(t.name)}" title="${esc(t.text)}">task <b>${esc(t.title)}</b>: ${t.gold} gold for ${esc(t.text)}</div>`).join("");
  const tiles = view.seats.filter((s) => s.tiles.length).map((s) => `${seatLabel(s.seat)}: ${s.tiles.map((t) => t.type).join(", ")}`);
  if (tiles.length) html += `<div class="card-line">tiles - ${esc(tiles.join("; "))}</div>`;
  const H = view.harvest;
  if (H) {
    const held = H.number_tiles.map((v, p) => `${seatLabel(p)} ${v}`).join(", ");
    html += `<div class="card-line" id="number-tiles">number tiles - ${esc(held)} (pool: ${H.number_tiles_left} of ${H.pool} left)</div>`;
    if (H.rover_sections.length) html += `<div class="card-line">rovers sections this turn: ${H.rover_sections.join(", ")}</div>`;
    const marks = view.board.mayor_lines.map((m) => `row ${m.row} ${seatLabel(m.seat)}`);
    if (marks.length) html += `<div class="card-line">mayors rows - ${esc(marks.join(", "))}</div>`;
  }
  $("cards").innerHTML = html;
}

init().catch((err) => message(`cannot start the page: ${err.message}`, true));
