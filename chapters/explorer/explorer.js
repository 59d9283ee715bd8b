// The attention explorer: plain JavaScript, no framework, no network.
//
// Reads window.ATTENTION_EXPLORER = {models: [{key, name, mask, layers, heads,
//   sentences: [{text, tokens, layers: [[{weights, carried}, … heads], … layers]}]}]}
// (rows: one per query i, keys 0..n-1, or 0..i under a causal mask), and
// optionally window.ATTENTION_EXPLORER_START = {model, layer, head}.
// Builds its controls inside #ax-root.
(function () {
  "use strict";

  // The explorer's words in each edition (the page's lang picks one).
  var WORDS = {
    en: {
      model: "Model", sentence: "Sentence", layer: "Layer", head: "Head", show: "Show",
      weights: "attention weight", carried: "carried norm",
      hint: "Hover a token, or focus it with Tab and move with the arrow keys: " +
        "its row is shaded on the tokens (darker for a larger share of the row's largest " +
        "value) and drawn as bars below. Dashed tokens are keys a causal query cannot see.",
      tokens: "tokens (queries)", masked: "masked (a later key)",
      caption: function (c) {
        return c.model + ", layer " + c.layer + ", head " + c.head + ": the " + c.what +
          " of query \u201c" + c.token + "\u201d (position " + c.position + ") on each key" +
          (c.weights ? " (the row sums to " + c.sum + ")" : " (the sum of the row is " + c.sum + ")") +
          (c.masked ? "; later keys are masked." : ".");
      },
      missing: "The explorer's data (explorer-data.js) did not load."
    },
    zh: {
      model: "模型", sentence: "句子", layer: "层", head: "头", show: "显示",
      weights: "注意力权重", carried: "携带范数",
      hint: "把鼠标悬停在一个单标上，或用 Tab 聚焦后用方向键移动：它的那一行会在各单标上着色" +
        "（占该行最大值的比例越大，颜色越深），并在下方画成条形。虚线框的单标是因果 Query 看不到的 Key。",
      tokens: "单标（Query）", masked: "被遮蔽（更靠后的 Key）",
      caption: function (c) {
        return c.model + "，第 " + c.layer + " 层，第 " + c.head + " 个头：Query \u201c" + c.token +
          "\u201d（位置 " + c.position + "）在每个 Key 上的" + c.what +
          "（这一行之和为 " + c.sum + "）" +
          (c.masked ? "；更靠后的 Key 被遮蔽。" : "。");
      },
      missing: "探索器的数据（explorer-data.js）没有加载。"
    }
  };
  var W = WORDS[(document.documentElement.lang || "en").indexOf("zh") === 0 ? "zh" : "en"];

  var QUANTITIES = {
    weights: { label: W.weights + " \u03b1\u1d62\u2c7c", what: W.weights },
    carried: { label: W.carried + " \u2016\u03b1\u1d62\u2c7c f(x\u2c7c)\u2016", what: W.carried }
  };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function labelled(text, control) {
    var l = el("label", { "class": "ax-control" }, text + " ");
    l.appendChild(control);
    return l;
  }

  function fill(select, items) {
    select.textContent = "";
    items.forEach(function (item, i) {
      select.appendChild(el("option", { value: String(i) }, item));
    });
  }

  function range(n, name) {
    var out = [];
    for (var i = 0; i < n; i++) out.push(name ? name(i) : String(i));
    return out;
  }

  function build(root, data, start) {
    var state = { model: 0, sentence: 0, layer: 0, head: 0, query: 0, quantity: "weights" };

    var model = el("select", { id: "ax-model" });
    var sentence = el("select", { id: "ax-sentence" });
    var layer = el("select", { id: "ax-layer" });
    var head = el("select", { id: "ax-head" });
    var controls = el("div", { "class": "ax-controls" });
    controls.appendChild(labelled(W.model, model));
    controls.appendChild(labelled(W.sentence, sentence));
    controls.appendChild(labelled(W.layer, layer));
    controls.appendChild(labelled(W.head, head));

    var show = el("fieldset", { "class": "ax-quantity" });
    show.appendChild(el("legend", {}, W.show));
    Object.keys(QUANTITIES).forEach(function (q) {
      var input = el("input", { type: "radio", name: "ax-quantity", value: q, id: "ax-" + q });
      if (q === state.quantity) input.checked = true;
      input.addEventListener("change", function () { state.quantity = q; draw(); });
      var l = el("label", { "for": "ax-" + q });
      l.appendChild(input);
      l.appendChild(document.createTextNode(" " + QUANTITIES[q].label));
      show.appendChild(l);
    });
    controls.appendChild(show);

    var hint = el("p", { "class": "ax-hint" }, W.hint);
    var tokens = el("div", { "class": "ax-tokens", role: "group", "aria-label": W.tokens });
    var caption = el("p", { "class": "ax-caption", id: "ax-caption", "aria-live": "polite" });
    var bars = el("table", { "class": "ax-bars", id: "ax-bars" });

    root.textContent = "";
    [controls, hint, tokens, caption, bars].forEach(function (e) { root.appendChild(e); });

    function current() {
      var m = data.models[state.model];
      var s = m.sentences[state.sentence];
      return { m: m, s: s, head: s.layers[state.layer][state.head] };
    }

    function setModel(i, keepLayer, keepHead) {
      state.model = i;
      var m = data.models[i];
      model.value = String(i);
      fill(sentence, m.sentences.map(function (s) { return s.text; }));
      state.sentence = Math.min(state.sentence, m.sentences.length - 1);
      sentence.value = String(state.sentence);
      fill(layer, range(m.layers));
      state.layer = keepLayer !== undefined && keepLayer < m.layers ? keepLayer : m.layers - 1;
      layer.value = String(state.layer);
      fill(head, range(m.heads));
      state.head = keepHead !== undefined && keepHead < m.heads ? keepHead : 0;
      head.value = String(state.head);
      setSentence(state.sentence);
    }

    function setSentence(i) {
      state.sentence = i;
      var m = data.models[state.model];
      var n = m.sentences[i].tokens.length;
      // a decoder's last token sees every key; an encoder's first word after [CLS]
      state.query = m.mask === "causal" ? n - 1 : Math.min(1, n - 1);
      tokens.textContent = "";
      m.sentences[i].tokens.forEach(function (t, j) {
        var b = el("button", { type: "button", "class": "ax-token", "data-index": String(j) });
        b.appendChild(el("span", { "class": "ax-text" }, t));
        b.appendChild(el("span", { "class": "ax-num" }, ""));
        var pick = function () { if (state.query !== j) { state.query = j; draw(); } };
        b.addEventListener("mouseenter", pick);
        b.addEventListener("focus", pick);
        b.addEventListener("keydown", function (e) {
          var to = e.key === "ArrowRight" ? j + 1 : e.key === "ArrowLeft" ? j - 1 : -1;
          if (to >= 0 && to < n) { e.preventDefault(); tokens.children[to].focus(); }
        });
        tokens.appendChild(b);
      });
      draw();
    }

    function format(x) { return x.toFixed(3); }

    function draw() {
      var c = current();
      var i = state.query;
      var row = c.head[state.quantity][i];
      var max = Math.max.apply(null, row.concat([1e-12]));
      var sum = row.reduce(function (a, b) { return a + b; }, 0);
      var toks = c.s.tokens;
      toks.forEach(function (t, j) {
        var b = tokens.children[j];
        var seen = j < row.length;
        var share = seen ? row[j] / max : 0;
        b.style.backgroundColor = seen ? "rgba(0, 114, 178, " + share.toFixed(3) + ")" : "";
        b.classList.toggle("ax-dark", share > 0.55);
        b.classList.toggle("ax-masked", !seen);
        b.classList.toggle("ax-query", j === i);
        b.setAttribute("aria-pressed", j === i ? "true" : "false");
        b.lastChild.textContent = seen ? format(row[j]) : "\u2013";
        b.title = seen ? toks[i] + " \u2192 " + t + ": " + format(row[j]) : t + ": " + W.masked;
      });
      caption.textContent = W.caption({
        model: c.m.name, layer: state.layer, head: state.head,
        what: QUANTITIES[state.quantity].what, token: toks[i], position: i,
        weights: state.quantity === "weights", sum: format(sum),
        masked: row.length < toks.length
      });
      bars.textContent = "";
      row.forEach(function (x, j) {
        var tr = el("tr", { "data-key": String(j) });
        tr.appendChild(el("td", { "class": "ax-key" }, toks[j]));
        var cell = el("td", { "class": "ax-bar-cell" });
        var bar = el("span", { "class": "ax-bar" });
        bar.style.width = (100 * x / max).toFixed(1) + "%";
        cell.appendChild(bar);
        tr.appendChild(cell);
        tr.appendChild(el("td", { "class": "ax-value", "data-key": String(j) }, format(x)));
        bars.appendChild(tr);
      });
    }

    fill(model, data.models.map(function (m) { return m.name + " (" + m.mask + ")"; }));
    data.models.forEach(function (m, i) { model.options[i].setAttribute("data-key", m.key); });
    model.addEventListener("change", function () {
      setModel(Number(model.value), state.layer, state.head);
    });
    sentence.addEventListener("change", function () { setSentence(Number(sentence.value)); });
    layer.addEventListener("change", function () { state.layer = Number(layer.value); draw(); });
    head.addEventListener("change", function () { state.head = Number(head.value); draw(); });

    var first = 0, firstLayer, firstHead;
    if (start) {
      data.models.forEach(function (m, i) { if (m.key === start.model) first = i; });
      firstLayer = start.layer;
      firstHead = start.head;
    }
    setModel(first, firstLayer, firstHead);
  }

  function init() {
    var root = document.getElementById("ax-root");
    if (!root) return;
    var data = window.ATTENTION_EXPLORER;
    if (!data || !data.models || !data.models.length) {
      root.textContent = W.missing;
      return;
    }
    build(root, data, window.ATTENTION_EXPLORER_START);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
