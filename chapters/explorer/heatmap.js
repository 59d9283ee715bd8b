// The attention explorer's heat map: plain JavaScript, no framework.
//
// Draws one head of one sentence as an SVG (#ax-heatmap): one row per query i
// (down), one column per key j (across), each cell (.ax-cell, data-i, data-j,
// data-value) shaded by its share of the head's largest value; a key a causal
// query cannot see is a hatched .ax-masked-cell. Row labels (.ax-row-label,
// data-row; the query on show also .ax-current) and column labels
// (.ax-col-label, data-column) are the tokens; .ax-row-outline frames the
// query's row. `rows` is the head's [weights or carried] array: rows[i] holds
// query i's values on keys 0..n-1, or 0..i under a causal mask.
//
// Adds to window.AttentionExplorer (the namespace the explorer's files share):
//   newHeatmap(label)                   -> the empty <svg>, `label` its aria-label;
//   drawHeatmap(svg, toks, rows, masked) -> geometry g (`masked`: a masked
//                                          cell's tooltip word);
//   outlineRow(svg, g, i)               -> frames query i's row;
//   rowOf(target)                       -> the query a cell or row label
//                                          stands for, or -1.
// Uses AttentionExplorer.format (explorer.js) when it draws.
(function () {
  "use strict";

  var AX = window.AttentionExplorer = window.AttentionExplorer || {};

  var SVG = "http://www.w3.org/2000/svg";

  function svgEl(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The largest value of all of a head's rows.
  function headMax(rows) {
    var max = 1e-12;
    rows.forEach(function (row) { row.forEach(function (x) { if (x > max) max = x; }); });
    return max;
  }

  // A label's text: long tokens cut (the full one is in its tooltip).
  function short(t) { return t.length > 12 ? t.slice(0, 11) + "\u2026" : t; }

  // The hatching of masked cells, in the text's colour.
  function hatch() {
    var defs = svgEl("defs");
    var p = svgEl("pattern", { id: "ax-hatch", width: 6, height: 6,
      patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
    p.appendChild(svgEl("rect", { width: 6, height: 6, fill: "currentColor", "fill-opacity": 0.08 }));
    p.appendChild(svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "currentColor",
      "stroke-width": 1.5, "stroke-opacity": 0.4 }));
    defs.appendChild(p);
    return defs;
  }

  // The heat map's empty <svg>, to draw into.
  AX.newHeatmap = function (label) {
    return svgEl("svg", { id: "ax-heatmap", "class": "ax-heatmap", role: "img",
      "aria-label": label });
  };

  // Draws the head `rows` of sentence `toks` into `svg` (queries down, keys
  // across); returns the geometry outlineRow needs.
  AX.drawHeatmap = function (svg, toks, rows, masked) {
    var n = toks.length;
    var cell = Math.max(12, Math.min(28, Math.floor(440 / n)));
    var font = Math.min(12, cell - 2);
    var longest = toks.reduce(function (a, t) { return Math.max(a, short(t).length); }, 1);
    var m = Math.ceil(longest * font * 0.62) + 8, side = m + n * cell + 2;
    var max = headMax(rows);
    svg.textContent = "";
    [["width", side], ["height", side], ["viewBox", "0 0 " + side + " " + side],
      ["font-size", font]].forEach(function (a) { svg.setAttribute(a[0], a[1]); });
    svg.appendChild(hatch());
    svg.appendChild(svgEl("rect", { x: m - 0.5, y: m - 0.5, width: n * cell + 1, height: n * cell + 1,
      fill: "currentColor", "fill-opacity": 0.04, stroke: "currentColor", "stroke-opacity": 0.3 }));
    toks.forEach(function (t, k) {
      var c = m + k * cell + cell / 2;
      var row = svgEl("text", { "class": "ax-row-label", x: m - 4, y: c, "text-anchor": "end",
        "data-row": k });
      var col = svgEl("text", { "class": "ax-col-label", transform: "translate(" + c + "," + (m - 4) +
        ") rotate(-90)", "data-column": k });
      [row, col].forEach(function (label) {
        label.appendChild(svgEl("title", {}, t + " (" + k + ")"));
        label.appendChild(document.createTextNode(short(t)));
        svg.appendChild(label);
      });
    });
    rows.forEach(function (r, i) { drawRow(svg, toks, r, i, { m: m, cell: cell, max: max }, masked); });
    svg.appendChild(svgEl("rect", { "class": "ax-row-outline", x: m - 1, width: n * cell + 2,
      height: cell + 1, fill: "none" }));
    return { m: m, cell: cell };
  };

  // One query's row of cells: its keys shaded, the keys it cannot see hatched.
  function drawRow(svg, toks, row, i, g, masked) {
    for (var j = 0; j < toks.length; j++) {
      var seen = j < row.length;
      var r = svgEl("rect", { "class": seen ? "ax-cell" : "ax-masked-cell",
        x: g.m + j * g.cell, y: g.m + i * g.cell, width: g.cell - 1, height: g.cell - 1,
        "data-i": i, "data-j": j,
        fill: seen ? "rgb(0, 114, 178)" : "url(#ax-hatch)" });
      if (seen) {
        r.setAttribute("data-value", String(row[j]));
        r.setAttribute("fill-opacity", (row[j] / g.max).toFixed(3));
      }
      r.appendChild(svgEl("title", {}, toks[i] + " \u2192 " + toks[j] + ": " +
        (seen ? AX.format(row[j]) : masked)));
      svg.appendChild(r);
    }
  }

  // Outlines query `i`'s row and marks its label.
  AX.outlineRow = function (svg, g, i) {
    svg.querySelector(".ax-row-outline").setAttribute("y", g.m + i * g.cell - 1);
    var labels = svg.querySelectorAll(".ax-row-label");
    for (var k = 0; k < labels.length; k++) {
      labels[k].setAttribute("class", k === i ? "ax-row-label ax-current" : "ax-row-label");
    }
  };

  // A heat map cell (data-i) or row label (data-row) picks its row's query.
  AX.rowOf = function (target) {
    var v = target.getAttribute ? target.getAttribute("data-i") || target.getAttribute("data-row") : null;
    return v === null ? -1 : Number(v);
  };
})();
