// Both editions load this script (book.toml: additional-js).
//
// 1. The link to the same page in the other edition, which each page opens
//    with (src/render/quotes.rs), moves into the menu bar.
// 2. In the Chinese edition, search splits a query as the index was split
//    (src/render/search.rs, `tokens`): Han text into overlapping character
//    pairs, other text into lower-case words. mdBook's own tokenizer splits
//    at spaces only, and Chinese has none.
(function () {
  "use strict";
  const link = document.querySelector(".edition-switch a");
  const buttons = document.querySelector("#mdbook-menu-bar .right-buttons");
  if (link && buttons) {
    link.classList.add("edition-link");
    buttons.prepend(link);
    document.querySelectorAll(".edition-switch").forEach((e) => e.remove());
  }

  if (!document.documentElement.lang.startsWith("zh") || !window.elasticlunr) {
    return;
  }
  const HAN = "\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff";
  const runs = new RegExp(`[${HAN}]+|[^${HAN}]+`, "gu");
  const han = new RegExp(`^[${HAN}]`, "u");
  function tokens(text) {
    const out = [];
    for (const word of String(text).match(/[\p{L}\p{N}_]+/gu) || []) {
      for (const run of word.match(runs)) {
        const chars = Array.from(run);
        if (han.test(run) && chars.length > 1) {
          for (let i = 0; i + 1 < chars.length; i++) {
            out.push(chars[i] + chars[i + 1]);
          }
        } else {
          out.push(run.toLowerCase());
        }
      }
    }
    return out;
  }
  window.elasticlunr.tokenizer = function (text) {
    if (text === undefined || text === null) {
      return [];
    }
    return Array.isArray(text) ? text.flatMap(tokens) : tokens(text);
  };
})();
