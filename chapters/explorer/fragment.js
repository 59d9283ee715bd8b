// The attention explorer's URL fragment: plain JavaScript, no framework.
//
// The view lives in the URL fragment (history.replaceState, no new entries):
//   #model=KEY&sentence=I&layer=L&head=H&view=weights|carried&query=Q
// with text=ENCODED_TEXT in place of sentence=I for a sentence of your own.
// A fragment wins over ATTENTION_EXPLORER_START; an invalid value falls back.
//
// Adds to window.AttentionExplorer (the namespace the explorer's files share):
//   readFragment(hash)  -> {model, sentence, text, layer, head, view, query}
//                          (decoded strings, any missing) or null;
//   makeFragment(v)     -> the fragment (no "#") for v = {model: KEY,
//                          text: TEXT or undefined, sentence, layer, head,
//                          view, query};
//   writeFragment(f)    -> sets the page's fragment to f, no history entry;
//   index(s, n)         -> a fragment value as an index below n, or undefined.
(function () {
  "use strict";

  var AX = window.AttentionExplorer = window.AttentionExplorer || {};

  var FIELDS = ["model", "sentence", "text", "layer", "head", "view", "query"];

  // `s` as an index below `n`, or undefined (not a plain number, or too big).
  AX.index = function (s, n) {
    return /^\d+$/.test(String(s)) && Number(s) < n ? Number(s) : undefined;
  };

  // The explorer's fields in `hash`, decoded; null if it names none of them
  // (a heading's anchor, say).
  AX.readFragment = function (hash) {
    var out = {}, ours = false;
    String(hash || "").replace(/^#/, "").split("&").forEach(function (part) {
      var eq = part.indexOf("="), key = part.slice(0, eq);
      if (eq < 0 || FIELDS.indexOf(key) < 0) return;
      try { out[key] = decodeURIComponent(part.slice(eq + 1)); ours = true; } catch (e) { /* bad escape */ }
    });
    return ours ? out : null;
  };

  // The fragment that reopens view `v`: its text if it has one (a sentence
  // of your own), else its sentence's index.
  AX.makeFragment = function (v) {
    return ["model=" + encodeURIComponent(v.model),
      v.text !== undefined ? "text=" + encodeURIComponent(v.text) : "sentence=" + v.sentence,
      "layer=" + v.layer, "head=" + v.head, "view=" + v.view,
      "query=" + v.query].join("&");
  };

  // Replaces the page's fragment without a history entry (where allowed).
  AX.writeFragment = function (fragment) {
    if (location.hash === "#" + fragment) return;
    try { history.replaceState(history.state, "", "#" + fragment); } catch (e) { /* file:// may refuse */ }
  };
})();
