// The attention explorer: plain JavaScript, no framework.
//
// Reads window.ATTENTION_EXPLORER = {models: [{key, name, mask, layers, heads,
//   sentences: [{text, tokens, layers: [[{weights, carried}, … heads], … layers]}]}]}
// (rows: one per query i, keys 0..n-1, or 0..i under a causal mask), and
// optionally window.ATTENTION_EXPLORER_START = {model, layer, head}.
// Builds its controls inside #ax-root: one query's row (tokens and bars) and
// the whole head as a heat map (#ax-heatmap).
//
// Four plain scripts share one namespace, window.AttentionExplorer, each
// adding its part; this one is loaded last and starts the explorer:
//   fragment.js  the view in the URL fragment (#model=…&layer=…);
//   heatmap.js   the whole head as an SVG heat map;
//   live.js      the server check, the text form and its requests, the note;
//   explorer.js  the words, the controls, the row view and the wiring; it
//                adds the helpers el, range, format and findText, which the
//                others use when they run (after every file has loaded).
(function () {
  "use strict";

  var AX = window.AttentionExplorer = window.AttentionExplorer || {};

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
      pattern: "The whole head: one row per query (down), one column per key (across), " +
        "each cell shaded by its share of the head's largest value; hatched cells are masked. " +
        "Hover or click a row to pick its query.",
      patternLabel: "the head's pattern, queries by keys",
      maskedCell: "masked",
      yourText: "Your sentence", run: "Show attention",
      note: ["Your own sentence: run ", "cargo run --release -- serve",
        " and open the address it prints."],
      noAnswer: "The server did not answer.",
      unreadable: "The server's answer could not be read.",
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
      pattern: "整个头：每个 Query 一行（向下），每个 Key 一列（向右），" +
        "格子按它占这个头最大值的比例着色；斜线格被遮蔽。把鼠标悬停在一行上或点击它，即可选中它的 Query。",
      patternLabel: "这个头的模式，Query 对 Key",
      maskedCell: "被遮蔽",
      yourText: "你的句子", run: "显示注意力",
      note: ["输入你自己的句子：运行 ", "cargo run --release -- serve", "，再打开它打印的地址。"],
      noAnswer: "服务器没有应答。",
      unreadable: "无法读取服务器的应答。",
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

  function format(x) { return x.toFixed(3); }

  // The index of the sentence of model `m` whose text is `text`, or undefined.
  function findText(m, text) {
    for (var i = 0; i < m.sentences.length; i++) if (m.sentences[i].text === text) return i;
    return undefined;
  }

  // Shared with the other files, which call them once every file has loaded.
  AX.el = el;
  AX.range = range;
  AX.format = format;
  AX.findText = findText;

  // --- The explorer ----------------------------------------------------------

  function build(root, data, start) {
    var state = { model: 0, sentence: 0, layer: 0, head: 0, query: 0, quantity: "weights" };
    root.setAttribute("data-state", "busy");

    var model = el("select", { id: "ax-model" });
    var sentence = el("select", { id: "ax-sentence" });
    var layer = el("select", { id: "ax-layer" });
    var head = el("select", { id: "ax-head" });
    var controls = el("div", { "class": "ax-controls" });
    controls.appendChild(labelled(W.model, model));
    controls.appendChild(labelled(W.sentence, sentence));
    controls.appendChild(labelled(W.layer, layer));
    controls.appendChild(labelled(W.head, head));

    var show = el("fieldset", { "class": "ax-quantity" }), radios = {};
    show.appendChild(el("legend", {}, W.show));
    Object.keys(QUANTITIES).forEach(function (q) {
      var input = el("input", { type: "radio", name: "ax-quantity", value: q, id: "ax-" + q });
      input.addEventListener("change", function () { state.quantity = q; draw(); remember(); });
      var l = el("label", { "for": "ax-" + q });
      l.appendChild(input);
      l.appendChild(document.createTextNode(" " + QUANTITIES[q].label));
      show.appendChild(l);
      radios[q] = input;
    });
    controls.appendChild(show);

    var hint = el("p", { "class": "ax-hint" }, W.hint);
    var tokens = el("div", { "class": "ax-tokens", role: "group", "aria-label": W.tokens });
    var caption = el("p", { "class": "ax-caption", id: "ax-caption", "aria-live": "polite" });
    var bars = el("table", { "class": "ax-bars", id: "ax-bars" });
    var heat = AX.newHeatmap(W.patternLabel);
    var shown = { head: null, quantity: null, geometry: null };
    var scroll = el("div", { "class": "ax-heatmap-scroll" });
    scroll.appendChild(heat);
    var figure = el("figure", { "class": "ax-pattern" });
    figure.appendChild(scroll);
    figure.appendChild(el("figcaption", { "class": "ax-hint" }, W.pattern));
    var views = el("div", { "class": "ax-views" });
    views.appendChild(bars);
    views.appendChild(figure);

    root.textContent = "";
    [controls, hint, tokens, caption, views].forEach(function (e) { root.appendChild(e); });

    function current() {
      var m = data.models[state.model];
      var s = m.sentences[state.sentence];
      return { m: m, s: s, head: s.layers[state.layer][state.head] };
    }

    // The fragment that reopens this view.
    function fragment() {
      var c = current();
      return AX.makeFragment({ model: c.m.key, text: c.s.live ? c.s.text : undefined,
        sentence: state.sentence, layer: state.layer, head: state.head,
        view: state.quantity, query: state.query });
    }

    // The URL follows every change; hovering writes it after a pause.
    var later = null;
    function remember() { clearTimeout(later); AX.writeFragment(fragment()); }
    function rememberSoon() { clearTimeout(later); later = setTimeout(remember, 400); }

    // The index of the model whose key is `key`; the first if none.
    function modelIndex(key) {
      var mi = 0;
      data.models.forEach(function (m, i) { if (m.key === key) mi = i; });
      return mi;
    }

    // Opens view `v` (a parsed fragment: strings, any of them missing or wrong).
    function applyView(v) {
      var mi = modelIndex(v.model), m = data.models[mi];
      state.quantity = v.view === "carried" ? "carried" : "weights";
      radios[state.quantity].checked = true;
      var si = v.text !== undefined ? findText(m, v.text) : AX.index(v.sentence, m.sentences.length);
      setModel(mi, AX.index(v.layer, m.layers), AX.index(v.head, m.heads), si, v.query);
    }

    // Shows model `i` at a layer, head, sentence and query (each may be
    // undefined or out of range: then the default).
    function setModel(i, keepLayer, keepHead, si, query) {
      state.model = i;
      var m = data.models[i];
      model.value = String(i);
      fill(sentence, m.sentences.map(function (s) { return s.text; }));
      fill(layer, range(m.layers));
      state.layer = keepLayer !== undefined && keepLayer < m.layers ? keepLayer : m.layers - 1;
      layer.value = String(state.layer);
      fill(head, range(m.heads));
      state.head = keepHead !== undefined && keepHead < m.heads ? keepHead : 0;
      head.value = String(state.head);
      setSentence(si !== undefined && si < m.sentences.length ? si : 0, query);
    }

    // Selects query `j` (hover, focus, a click on the heat map).
    function pick(j) { if (state.query !== j) { state.query = j; draw(); } }

    function setSentence(i, query) {
      state.sentence = i;
      sentence.value = String(i);
      var m = data.models[state.model];
      var n = m.sentences[i].tokens.length;
      // a decoder's last token sees every key; an encoder's first word after [CLS]
      var q = AX.index(query, n);
      state.query = q !== undefined ? q : m.mask === "causal" ? n - 1 : Math.min(1, n - 1);
      tokens.textContent = "";
      m.sentences[i].tokens.forEach(function (t, j) {
        var b = el("button", { type: "button", "class": "ax-token", "data-index": String(j) });
        b.appendChild(el("span", { "class": "ax-text" }, t));
        b.appendChild(el("span", { "class": "ax-num" }, ""));
        b.addEventListener("mouseenter", function () { pick(j); rememberSoon(); });
        b.addEventListener("focus", function () { pick(j); remember(); });
        b.addEventListener("click", function () { pick(j); remember(); });
        b.addEventListener("keydown", function (e) {
          var to = e.key === "ArrowRight" ? j + 1 : e.key === "ArrowLeft" ? j - 1 : -1;
          // handled here: mdBook's page-turn keys must not see it
          if (to >= 0 && to < n) {
            e.preventDefault();
            e.stopPropagation();
            tokens.children[to].focus();
          }
        });
        tokens.appendChild(b);
      });
      draw();
    }

    // The row view (tokens, caption, bars) for the current query, and the
    // heat map (redrawn only when the head or the quantity changed).
    function draw() {
      var c = current();
      var i = state.query;
      var rows = c.head[state.quantity];
      var row = rows[i];
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
      if (shown.head !== c.head || shown.quantity !== state.quantity) {
        shown.geometry = AX.drawHeatmap(heat, toks, rows, W.maskedCell);
        shown.head = c.head;
        shown.quantity = state.quantity;
      }
      AX.outlineRow(heat, shown.geometry, i);
    }

    // A heat map cell or row label picks its row's query.
    heat.addEventListener("mouseover", function (e) {
      var i = AX.rowOf(e.target);
      if (i >= 0) { pick(i); rememberSoon(); }
    });
    heat.addEventListener("click", function (e) {
      var i = AX.rowOf(e.target);
      if (i >= 0) { pick(i); remember(); }
    });

    fill(model, data.models.map(function (m) { return m.name + " (" + m.mask + ")"; }));
    data.models.forEach(function (m, i) { model.options[i].setAttribute("data-key", m.key); });
    model.addEventListener("change", function () {
      var m = data.models[Number(model.value)];
      var si = findText(m, current().s.text);
      setModel(Number(model.value), state.layer, state.head,
        si !== undefined ? si : Math.min(state.sentence, m.sentences.length - 1));
      remember();
    });
    sentence.addEventListener("change", function () { setSentence(Number(sentence.value)); remember(); });
    layer.addEventListener("change", function () { state.layer = Number(layer.value); draw(); remember(); });
    head.addEventListener("change", function () { state.head = Number(head.value); draw(); remember(); });

    // Your own sentence: the text form, or the note on how to get it.
    var live = AX.live({ root: root, data: data, words: W, state: state, current: current,
      applyView: applyView, remember: remember });

    // Opens the fragment's view, or ATTENTION_EXPLORER_START's, or the first.
    var asked = AX.readFragment(location.hash);
    var view = asked || (start ? { model: start.model, layer: String(start.layer),
      head: String(start.head) } : {});
    applyView(view);
    AX.detect(data, function (models) { live.offer(models, asked); });

    // A fragment typed into the address bar opens its view too.
    window.addEventListener("hashchange", function () {
      var v = AX.readFragment(location.hash);
      if (!v || location.hash === "#" + fragment()) return;
      // a text no model has yet goes to the server, if it is there and idle
      var known = v.text === undefined || findText(data.models[modelIndex(v.model)], v.text) !== undefined;
      if (known || !live.ask(v.text, v)) applyView(v);
    });
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
