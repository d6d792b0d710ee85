// The legend beside the board: the terrains, the location letters in play (each with its name and its full text),
// and the pieces in play, each drawn with the board's own shapes (board.js) in a small SVG.
"use strict";

function icon(draw) {
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("width", 26);
  svg.setAttribute("height", 24);
  svg.setAttribute("viewBox", "-13 -12 26 24");
  svg.setAttribute("class", "legend-icon");
  draw(svg);
  for (const e of svg.querySelectorAll("[class]")) e.removeAttribute("class");  // not a piece of the board
  return svg.outerHTML;
}

function hexIcon(fill, letter) {
  return icon((g) => {
    el("polygon", { points: corners(0, 0, 11), fill: rgb(fill), stroke: "rgb(60,60,60)" }, g);
    if (letter) {
      el("polygon", { points: corners(0, 0, 8), fill: "none", stroke: "rgb(120,70,10)" }, g);
      el("text", { x: 0, y: 4, "font-size": 11, "text-anchor": "middle", fill: "rgb(90,40,0)" }, g).textContent = displayLetter(letter);
    }
  });
}

function legendItem(iconHtml, name, text, id) {
  return `<span class="legend-item"${id ? ` id="${id}"` : ""} title="${esc(text || name)}">${iconHtml}${esc(name)}</span>`;
}

// The legend of `view`: only what is in play (locations on the board, pieces on it).
function renderLegend(view) {
  const M = S.meta, C = M.colours, B = view.board, R = 12;
  const terrains = M.terrain_key.map(([name, c]) => legendItem(hexIcon(c), name, name)).join("");
  const letters = [...new Set([...B.locations.map((l) => l.letter), ...(B.island && B.island.location ? [B.island.location.letter] : [])])];
  const locations = letters.map((ch) => {
    const name = M.location_names[M.location_letters.indexOf(ch)] || ch;
    const text = view.locations_text[name] || "";
    return `<div class="legend-location" id="legend-loc-${esc(name)}" title="${esc(text)}">${hexIcon(C.location, ch)}` +
      `<b>${esc(displayLetter(ch))}</b> ${esc(name.replace(/_/g, " "))}: ${esc(text)}</div>`;
  }).join("");
  const pieces = [];
  for (let p = 0; p < view.players; p++) {
    pieces.push(legendItem(icon((g) => Shapes.settlement(g, 0, 2, R, rgb(C.seats[p]))), `settlement of ${seatLabel(p)}`));
  }
  if (B.rows.some((row) => row.includes("K"))) pieces.push(legendItem(icon((g) => Shapes.castle(g, 0, 2, R)), "castle", "castle: 3 gold for each castle next to your settlements"));
  pieces.push(legendItem(icon((g) => {
    el("polygon", { points: corners(0, 0, 8), fill: "none", stroke: "rgb(120,70,10)" }, g);
    for (let k = 0; k < 2; k++) el("circle", { cx: -4 + 8 * k, cy: 6, r: 2, fill: "rgb(90,40,0)" }, g);
  }), "location tiles left (dots)", "a dot per location tile still to be taken at that location"));
  if (B.walls.length) pieces.push(legendItem(icon((g) => Shapes.wall(g, 0, 0, R, C)), "wall"));
  if (B.caves.length) pieces.push(legendItem(icon((g) => Shapes.cave(g, 0, 0, R, C)), "cave"));
  if (B.capitols.length) pieces.push(legendItem(icon((g) => Shapes.capitol(g, 0, 0, R, C)), "capitol"));
  if (B.nomad_spaces.length) pieces.push(legendItem(icon((g) => Shapes.nomadTile(g, 0, 0, R * 0.8, C, "treasure", { treasure: "N" })), "nomad space with its tile"));
  if (B.warrior_zone.length) pieces.push(legendItem(icon((g) => el("polygon", { points: corners(0, 0, 10), fill: "none", stroke: rgb(C.zone), "stroke-dasharray": "2,2" }, g)), "warrior zone"));
  const kinds = [...new Set([...B.pieces.map((p) => p.kind), ...(B.island ? B.island.pieces.map((p) => p.kind) : [])])];
  for (const kind of kinds) if (Shapes[kind]) pieces.push(legendItem(icon((g) => Shapes[kind](g, 0, 0, R, rgb(C.seats[0]))), kind));
  if ((B.scouts || []).length) pieces.push(legendItem(icon((g) => Shapes.scout(g, 0, 0, R, rgb(C.seats[0]))), "scout"));
  if ((B.mayor_lines || []).length) pieces.push(legendItem(icon((g) => el("circle", { cx: 0, cy: 0, r: 6, fill: rgb(C.seats[0]), stroke: "#000" }, g)), "row marked for Mayors"));
  $("legend").innerHTML = `<div class="legend-head">legend</div><div>${terrains}</div>` +
    `<div class="legend-locations">${locations}</div><div>${pieces.join("")}</div>`;
}
