// The board as SVG: the same hex centres, radius and colours as kbenv.present.image (sent by /api/meta), and the
// same shapes for castles, locations (tiles left as dots), settlements, walls, capitols, caves, nomad tiles,
// warrior zones, the Crossroads pieces and the Harvest scouts and Mayors marks, in seat colours; with the Island,
// the island right of the board (drawIsland).
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";

// A location's letter as drawn: upper case where that is one letter (the palisade's ß stays ß, not SS).
function displayLetter(ch) { const up = ch.toUpperCase(); return up.length === 1 ? up : ch; }

// Show or hide an element by its hidden attribute (an SVG element has no `hidden` property: setting one would
// leave the attribute, and the element hidden, as it was).
function setHidden(e, hidden) { e.toggleAttribute("hidden", hidden); }

function rgb(c) { return `rgb(${c[0]},${c[1]},${c[2]})`; }

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function corners(x, y, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (60 * k - 30) * Math.PI / 180;
    pts.push(`${(x + r * Math.cos(a)).toFixed(2)},${(y + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

function poly(points, fill, stroke, parent, extra) {
  const p = points.map(([a, b]) => `${a.toFixed(2)},${b.toFixed(2)}`).join(" ");
  return el("polygon", Object.assign({ points: p, fill: fill, stroke: stroke || "#000" }, extra || {}), parent);
}

const Shapes = {
  castle(g, x, y, R) {
    const w = R * 0.9, h = R * 0.6, grey = "rgb(120,120,130)";
    el("rect", { x: x - w / 2, y: y - h / 3, width: w, height: h / 2 + h / 3, fill: grey, stroke: "rgb(40,40,40)" }, g);
    for (let k = 0; k < 3; k++) {
      const cx = x - w / 2 + k * w / 2.5;
      el("rect", { x: cx, y: y - h / 1.2, width: w / 5, height: h / 1.2 - h / 3, fill: grey, stroke: "rgb(40,40,40)" }, g);
    }
  },
  settlement(g, x, y, R, colour) {
    const s = R * 0.55;
    poly([[x - s, y + s * 0.8], [x - s, y - s * 0.1], [x, y - s], [x + s, y - s * 0.1], [x + s, y + s * 0.8]],
      colour, "#000", g, { class: "settlement" });
  },
  wall(g, x, y, R, C) {
    const w = R * 1.1, h = R * 0.8, left = x - w / 2, top = y - h / 2, m = rgb(C.wall_mortar);
    el("rect", { x: left, y: top, width: w, height: h, fill: rgb(C.wall), stroke: "rgb(40,40,40)" }, g);
    for (const k of [1, 2]) el("line", { x1: left, y1: top + k * h / 3, x2: left + w, y2: top + k * h / 3, stroke: m }, g);
    for (let k = 0; k < 3; k++) {
      for (let off = k % 2 ? w / 4 : w / 2; off < w; off += w / 2)
        el("line", { x1: left + off, y1: top + k * h / 3, x2: left + off, y2: top + (k + 1) * h / 3, stroke: m }, g);
    }
  },
  capitol(g, x, y, R, C) {
    const w = R * 0.95, h = R * 0.4, c = rgb(C.capitol), dome = w * 0.36, base = y - h / 4;
    el("rect", { x: x - w / 2, y: base, width: w, height: h * 1.1 + h / 4, fill: c, stroke: "rgb(40,40,40)" }, g);
    el("path", { d: `M ${x - dome} ${base} A ${dome} ${dome} 0 0 1 ${x + dome} ${base} Z`, fill: c, stroke: "rgb(40,40,40)" }, g);
  },
  cave(g, x, y, R, C) {
    const w = R * 0.95;
    el("path", { d: `M ${x - w / 2} ${y + w * 0.15} A ${w / 2} ${w * 0.6} 0 0 1 ${x + w / 2} ${y + w * 0.15} Z`, fill: rgb(C.cave) }, g);
    el("rect", { x: x - w / 2, y: y + w * 0.15, width: w, height: w * 0.15, fill: rgb(C.cave) }, g);
  },
  nomadTile(g, x, y, R, C, kind, labels) {
    const w = R * 1.3, h = R * 0.95;
    el("rect", { x: x - w / 2, y: y - h / 2, width: w, height: h, rx: 3, fill: rgb(C.nomad_tile), stroke: "rgb(110,70,30)" }, g);
    if (kind.startsWith("donation-")) {
      const stripe = C.terrain[kind.slice(-1)] || C.unknown;
      el("rect", { x: x - w / 2 + 2, y: y + h / 2 - 4, width: w - 4, height: 2, fill: rgb(stripe) }, g);
    }
    const t = el("text", { x: x, y: y + 3, "font-size": 9, "text-anchor": "middle", fill: "rgb(70,35,10)" }, g);
    t.textContent = labels[kind] || kind;
  },
  warrior(g, x, y, R, colour) {
    const s = R * 0.6;
    poly([[x - s, y - s], [x + s, y - s], [x + s, y + s * 0.15], [x, y + s], [x - s, y + s * 0.15]], colour, "#000", g);
    el("line", { x1: x, y1: y - s * 0.75, x2: x, y2: y + s * 0.6, stroke: "#000" }, g);
    el("line", { x1: x - s * 0.6, y1: y - s * 0.25, x2: x + s * 0.6, y2: y - s * 0.25, stroke: "#000" }, g);
  },
  wagon(g, x, y, R, colour) {
    const s = R * 0.6;
    el("rect", { x: x - s, y: y - s * 0.7, width: 2 * s, height: s, fill: colour, stroke: "#000" }, g);
    for (const cx of [x - s * 0.55, x + s * 0.55]) el("circle", { cx: cx, cy: y + s * 0.57, r: s * 0.32, fill: "#000" }, g);
  },
  ship(g, x, y, R, colour) {
    const s = R * 0.65;
    poly([[x - s, y + s * 0.25], [x + s, y + s * 0.25], [x + s * 0.6, y + s * 0.8], [x - s * 0.6, y + s * 0.8]], colour, "#000", g);
    poly([[x - s * 0.05, y - s], [x - s * 0.05, y + s * 0.15], [x - s * 0.75, y + s * 0.15]], colour, "#000", g);
    poly([[x + s * 0.05, y - s * 0.8], [x + s * 0.05, y + s * 0.15], [x + s * 0.65, y + s * 0.15]], colour, "#000", g);
  },
  "city hall"(g, x, y, R, colour) {
    const s = R * 0.6;
    poly([[x - s, y - s * 0.3], [x, y - s], [x + s, y - s * 0.3]], colour, "#000", g);
    el("rect", { x: x - s * 0.85, y: y - s * 0.3, width: s * 1.7, height: s * 1.1, fill: colour, stroke: "#000" }, g);
  },
  scout(g, x, y, R, colour) {
    const s = R * 0.62;
    poly([[x, y - s], [x + s, y], [x, y + s], [x - s, y]], colour, "#000", g);
    el("line", { x1: x - s * 0.45, y1: y - s * 0.35, x2: x + s * 0.45, y2: y - s * 0.35, stroke: "#fff", "stroke-width": 2 }, g);
  },
  "city hall cell"(g, x, y, R, colour) {
    el("polygon", { points: corners(x, y, R * 0.84), fill: "none", stroke: colour, "stroke-width": 3 }, g);
    const s = R * 0.28;
    el("rect", { x: x - s, y: y - s, width: 2 * s, height: 2 * s, fill: colour, stroke: "#000" }, g);
  },
};

// Draw `view` (a /api view) into the <svg> `svg`; `onHex(r, c)` is called when a board hex is clicked and
// `onIsland(r, c)` when an island hex is (null: none).
function drawBoard(svg, meta, view, onHex, onIsland) {
  const G = meta.geometry, C = meta.colours, R = G.radius;
  const width = view.board.island ? G.island.width : G.width;
  svg.setAttribute("width", width);
  svg.setAttribute("height", G.height);
  svg.setAttribute("viewBox", `0 0 ${width} ${G.height}`);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const defs = el("defs", {}, svg);
  const pat = el("pattern", { id: "zone", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: rgb(C.zone), "stroke-width": 1.2 }, pat);
  const B = view.board, centre = (rc) => G.centres[rc[0]][rc[1]];
  const terrain = el("g", { id: "terrain" }, svg);
  for (let r = 0; r < 20; r++) {
    for (let c = 0; c < 20; c++) {
      const ch = B.rows[r][c], [x, y] = G.centres[r][c];
      const loc = meta.location_letters.includes(ch);
      const fill = loc ? C.location : (C.terrain[ch] || C.unknown);
      el("polygon", { points: corners(x, y, R), fill: rgb(fill), stroke: "rgb(60,60,60)" }, terrain);
      if (ch === "K") Shapes.castle(terrain, x, y, R);
    }
  }
  const zone = el("g", { id: "zones" }, svg);
  for (const rc of B.warrior_zone) {
    const [x, y] = centre(rc);
    el("polygon", { points: corners(x, y, R * 0.92), fill: "url(#zone)", stroke: rgb(C.zone) }, zone);
  }
  const pieces = el("g", { id: "pieces" }, svg);
  for (const p of B.pieces) if (p.kind.endsWith(" cell")) Shapes[p.kind](pieces, ...centre(p.hex), R, rgb(C.seats[p.seat]));
  for (const loc of B.locations) {
    const [x, y] = centre(loc.hex);
    const g = el("g", { class: "location", "data-tiles": loc.tiles_left }, pieces);
    el("polygon", { points: corners(x, y, R * 0.75), fill: "none", stroke: "rgb(120,70,10)" }, g);
    const t = el("text", { x: x, y: y + 2, "font-size": 13, "text-anchor": "middle", fill: "rgb(90,40,0)" }, g);
    t.textContent = displayLetter(loc.letter);
    for (let k = 0; k < loc.tiles_left; k++) el("circle", { cx: x - 4 + 8 * k, cy: y + 8, r: 2, fill: "rgb(90,40,0)" }, g);
  }
  for (const rc of B.capitols) Shapes.capitol(pieces, ...centre(rc), R, C);
  for (const rc of B.caves) Shapes.cave(pieces, ...centre(rc), R, C);
  for (const rc of B.walls) Shapes.wall(pieces, ...centre(rc), R, C);
  for (const n of B.nomad_spaces) if (n.tile) Shapes.nomadTile(pieces, ...centre(n.hex), R, C, n.tile, meta.nomad_tile_labels);
  B.settlements.forEach((hexes, seat) => {
    for (const rc of hexes) Shapes.settlement(pieces, ...centre(rc), R, rgb(C.seats[seat]));
  });
  for (const p of B.pieces) if (!p.kind.endsWith(" cell")) Shapes[p.kind](pieces, ...centre(p.hex), R, rgb(C.seats[p.seat]));
  // Harvest: the turn owner's scouts, and a disc at the free end of each row marked for Mayors
  for (const s of B.scouts || []) Shapes.scout(pieces, ...centre(s.hex), R, rgb(C.seats[s.seat]));
  for (const m of B.mayor_lines || []) {
    const [x, y] = G.mayor_marks[m.row];
    const disc = el("circle", { cx: x, cy: y, r: 6, fill: rgb(C.seats[m.seat]), stroke: "#000", class: "mayor-mark" }, pieces);
    el("title", {}, disc).textContent = `row ${m.row}: marked for Mayors by player_${m.seat}`;
  }
  // the click targets, on top: every hex, the legal ones highlighted
  const legal = new Set(view.legal.filter((d) => d.kind === "hex").map((d) => `${d.hex[0]},${d.hex[1]}`));
  const places = {};  // a location hex's hover text: its name and its full text
  for (const loc of B.locations) {
    const name = meta.location_names[meta.location_letters.indexOf(loc.letter)] || loc.letter;
    places[`${loc.hex[0]},${loc.hex[1]}`] = `${loc.hex[0]},${loc.hex[1]}: ${name.replace(/_/g, " ")} - ` +
      `${(view.locations_text || {})[name] || ""} (${loc.tiles_left} tiles left)`;
  }
  const hits = el("g", { id: "hits" }, svg);
  for (let r = 0; r < 20; r++) {
    for (let c = 0; c < 20; c++) {
      const [x, y] = G.centres[r][c];
      const cls = ["hex-hit"];
      if (legal.has(`${r},${c}`)) cls.push("legal");
      if (onHex) cls.push("clickable");
      const h = el("polygon", { points: corners(x, y, R), id: `hex-${r}-${c}`, class: cls.join(" "), "data-r": r, "data-c": c }, hits);
      const tip = el("title", {}, h);
      tip.textContent = places[`${r},${c}`] || `${r},${c}`;
      if (onHex) h.addEventListener("click", () => onHex(r, c));
    }
  }
  if (view.board.island) drawIsland(svg, meta, view, onIsland);
}

// The Island (kbenv.expansions.island.view): right of the board with a gap (it is not connected to it), the same hex style,
// location, settlements and pieces; its hexes are "island r,c" (ids island-r-c), a click sends that action.
function drawIsland(svg, meta, view, onIsland) {
  const G = meta.geometry, I = G.island, C = meta.colours, R = G.radius, B = view.board.island;
  const centre = (rc) => I.centres[rc[0]][rc[1]];
  const g = el("g", { id: "island" }, svg);
  const [x0, y0] = I.centres[0][0];
  const label = el("text", { x: x0 - G.hex_w / 2, y: y0 - R - 22, "font-size": 14, fill: "rgb(28,28,28)" }, g);
  label.textContent = "island";
  const side = el("text", { x: x0 - G.hex_w / 2, y: y0 - R - 8, "font-size": 10, fill: "rgb(28,28,28)", id: "island-side-name" }, g);
  side.textContent = B.side;
  for (let r = 0; r < I.rows; r++) {
    for (let c = 0; c < I.cols; c++) {
      const ch = B.rows[r][c], [x, y] = I.centres[r][c];
      const loc = meta.location_letters.includes(ch);
      const fill = loc ? C.location : (C.terrain[ch] || C.unknown);
      el("polygon", { points: corners(x, y, R), fill: rgb(fill), stroke: "rgb(60,60,60)", class: "island-hex", "data-terrain": ch }, g);
    }
  }
  for (const rc of B.warrior_zone) el("polygon", { points: corners(...centre(rc), R * 0.92), fill: "url(#zone)", stroke: rgb(C.zone) }, g);
  for (const p of B.pieces) if (p.kind.endsWith(" cell")) Shapes[p.kind](g, ...centre(p.hex), R, rgb(C.seats[p.seat]));
  if (B.location) {
    const [x, y] = centre(B.location.hex);
    const lg = el("g", { class: "location island-location", "data-tiles": B.location.tiles_left }, g);
    el("polygon", { points: corners(x, y, R * 0.75), fill: "none", stroke: "rgb(120,70,10)" }, lg);
    const t = el("text", { x: x, y: y + 2, "font-size": 13, "text-anchor": "middle", fill: "rgb(90,40,0)" }, lg);
    t.textContent = displayLetter(B.location.letter);
    el("title", {}, lg).textContent = `${B.location.type.replace("_", " ")}: ${B.location.tiles_left} tiles left`;
    for (let k = 0; k < B.location.tiles_left; k++) el("circle", { cx: x - 4 + 8 * k, cy: y + 8, r: 2, fill: "rgb(90,40,0)" }, lg);
  }
  for (const rc of B.walls) Shapes.wall(g, ...centre(rc), R, C);
  B.settlements.forEach((hexes, seat) => {
    for (const rc of hexes) Shapes.settlement(g, ...centre(rc), R, rgb(C.seats[seat]));
  });
  for (const p of B.pieces) if (!p.kind.endsWith(" cell")) Shapes[p.kind](g, ...centre(p.hex), R, rgb(C.seats[p.seat]));
  for (const s of B.scouts) Shapes.scout(g, ...centre(s.hex), R, rgb(C.seats[s.seat]));
  for (const m of B.mayor_lines) {
    const [x, y] = I.mayor_marks[m.row];
    const disc = el("circle", { cx: x, cy: y, r: 6, fill: rgb(C.seats[m.seat]), stroke: "#000", class: "mayor-mark" }, g);
    el("title", {}, disc).textContent = `island line ${m.row}: marked for Mayors by player_${m.seat}`;
  }
  const legal = new Set(view.legal.filter((d) => d.kind === "island").map((d) => `${d.island[0]},${d.island[1]}`));
  const hits = el("g", { id: "island-hits" }, svg);
  for (let r = 0; r < I.rows; r++) {
    for (let c = 0; c < I.cols; c++) {
      const [x, y] = I.centres[r][c];
      const cls = ["hex-hit", "island-hit"];
      if (legal.has(`${r},${c}`)) cls.push("legal");
      if (onIsland) cls.push("clickable");
      const h = el("polygon", { points: corners(x, y, R), id: `island-${r}-${c}`, class: cls.join(" "), "data-r": r, "data-c": c }, hits);
      el("title", {}, h).textContent = `island ${r},${c}`;
      if (onIsland) h.addEventListener("click", () => onIsland(r, c));
    }
  }
}
