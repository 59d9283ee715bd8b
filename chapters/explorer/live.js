// The attention explorer's own sentences: plain JavaScript, no framework.
//
// Served by `attention-geometry serve`, GET /api/attend answers
// {models: [{key, …}, …]} and the explorer offers a text box (#ax-text,
// #ax-run, errors in #ax-error): POST /api/attend?model=KEY with the text
// answers {models: [{sentences: [{tokens, layers}]}]} (the shape of
// window.ATTENTION_EXPLORER), and the sentence is added to each model with
// live: true. Elsewhere (file://, a plain server) a note (#ax-live-note) says
// how to start that server. #ax-root's data-state is "busy" until the first
// draw and the server check are done, and while a request runs; "ready" else.
//
// Adds to window.AttentionExplorer (the namespace the explorer's files share):
//   detect(data, done)   -> done(indices of data's models the server computes);
//   live(ex)             -> {offer(models, pending), ask(text, v)}, the form
//                           of the explorer ex = {root, data, words, state,
//                           current, applyView, remember} (explorer.js).
// Uses AttentionExplorer.el, range and findText (explorer.js) when it runs.
(function () {
  "use strict";

  var AX = window.AttentionExplorer = window.AttentionExplorer || {};

  var API = "/api/attend";

  // One request; `done(status, body)`, status 0 if nothing answered.
  function request(method, url, body, done) {
    var x = new XMLHttpRequest();
    x.open(method, url);
    x.onload = function () { done(x.status, x.responseText || ""); };
    x.onerror = x.ontimeout = function () { done(0, ""); };
    x.send(body === undefined ? null : body);
  }

  // The indices of `data`'s models the server computes: done([]) when the
  // page is not served by `attention-geometry serve`.
  AX.detect = function (data, done) {
    if (!/^https?:$/.test(location.protocol)) return done([]);
    request("GET", API, undefined, function (status, body) {
      var keys = [];
      try { if (status === 200) keys = JSON.parse(body).models.map(function (m) { return m.key; }); } catch (e) { keys = []; }
      done(AX.range(data.models.length, Number).filter(function (i) {
        return keys.indexOf(data.models[i].key) >= 0;
      }));
    });
  };

  // The one sentence of a POST's answer for model `m`, or null if malformed.
  function parseSentence(body, m) {
    try {
      var s = JSON.parse(body).models[0].sentences[0];
      var ok = s.tokens.length > 0 && s.layers.length === m.layers && s.layers[0].length === m.heads;
      return ok ? s : null;
    } catch (e) { return null; }
  }

  // What to show for a failed request: the server's one line, or ours.
  function messageOf(status, body, W) {
    var line = status >= 400 ? String(body).split("\n")[0].trim() : "";
    return line || (status === 0 ? W.noAnswer : W.unreadable);
  }

  // The text form (or the note) of the explorer `ex`.
  AX.live = function (ex) {
    var root = ex.root, data = ex.data, W = ex.words, state = ex.state, el = AX.el;
    var live = { models: [], busy: false };

    // Shows the form (live) or the note on how to get it (static).
    function offer(models, pending) {
      live.models = models;
      var box = el("div", { "class": "ax-live" });
      if (!models.length) {
        var note = el("p", { id: "ax-live-note", "class": "ax-live-note" });
        note.appendChild(document.createTextNode(W.note[0]));
        note.appendChild(el("code", {}, W.note[1]));
        note.appendChild(document.createTextNode(W.note[2]));
        box.appendChild(note);
      } else {
        var form = el("form", { "class": "ax-live-form" });
        live.input = el("input", { type: "text", id: "ax-text", maxlength: "1000", autocomplete: "off" });
        live.button = el("button", { type: "submit", id: "ax-run" }, W.run);
        live.error = el("p", { id: "ax-error", "class": "ax-error", role: "alert" });
        form.appendChild(el("label", { "for": "ax-text" }, W.yourText));
        form.appendChild(live.input);
        form.appendChild(live.button);
        form.addEventListener("submit", function (e) { e.preventDefault(); run(live.input.value); });
        box.appendChild(form);
        box.appendChild(live.error);
      }
      root.insertBefore(box, root.firstChild);
      if (models.length && pending && pending.text !== undefined && !shownText(pending.text)) {
        live.input.value = pending.text;
        run(pending.text, pending);
      } else {
        root.setAttribute("data-state", "ready");
      }
    }

    // Whether the sentence on show has this text.
    function shownText(text) { return ex.current().s.text === text; }

    // Runs `text` (a fragment's, opening view `v`) if the server is there
    // and idle, as if typed into the box; false if it cannot.
    function ask(text, v) {
      if (!live.models.length || live.busy) return false;
      live.input.value = text;
      run(text, v);
      return true;
    }

    function setBusy(busy) {
      live.busy = busy;
      live.button.disabled = busy;
      root.setAttribute("data-state", busy ? "busy" : "ready");
      root.setAttribute("aria-busy", busy ? "true" : "false");
    }

    // Asks the server for `text` under every live model; then opens view `v`
    // (from a fragment) or the new sentence at the current layer and head.
    function run(text, v) {
      if (live.busy) return;
      setBusy(true);
      var left = live.models.length, added = [], errors = [];
      live.models.forEach(function (mi) {
        var m = data.models[mi];
        request("POST", API + "?model=" + encodeURIComponent(m.key), text, function (status, body) {
          var s = status === 200 ? parseSentence(body, m) : null;
          if (s) { addSentence(m, text, s); added.push(mi); }
          else errors.push({ name: m.name, message: messageOf(status, body, W) });
          if (--left === 0) finish(text, v, added, errors);
        });
      });
    }

    // Adds `s` to model `m` as a live sentence (replacing one with the same text).
    function addSentence(m, text, s) {
      var fresh = { text: text, tokens: s.tokens, layers: s.layers, live: true };
      var i = AX.findText(m, text);
      if (i !== undefined && m.sentences[i].live) m.sentences[i] = fresh;
      else m.sentences.push(fresh);
    }

    function finish(text, v, added, errors) {
      var same = errors.every(function (e) { return e.message === errors[0].message; });
      live.error.textContent = !added.length && same && errors.length ? errors[0].message :
        errors.map(function (e) { return e.name + ": " + e.message; }).join("; ");
      if (added.length) {
        var mi = added.indexOf(state.model) >= 0 ? state.model : added[0];
        v = v || { layer: String(state.layer), head: String(state.head), view: state.quantity };
        ex.applyView({ model: data.models[mi].key, text: text, layer: v.layer, head: v.head,
          view: v.view, query: v.query });
        ex.remember();
      }
      setBusy(false);
    }

    return { offer: offer, ask: ask };
  };
})();
