//! The attention explorer as a page: its data as a script that assigns a
//! global (so that the page works from `file://`, where a page cannot fetch),
//! and the whole explorer as one self-contained HTML file for
//! `attention-geometry attend "TEXT" --out FILE.html`.
//!
//! ```text
//! explorer-data.js   window.ATTENTION_EXPLORER = {"models": […]};
//! page               <style>explorer.css</style> <div id="ax-root">
//!                    <script>data</script> <script>explorer.js</script>
//! ```
//!
//! The script and style are the book page's own (`chapters/explorer/`),
//! written by hand: no framework, no network. The data comes from
//! [`crate::pretrained::explorer::json`].

/// The explorer's scripts in load order, shared by the book page (one
/// `<script>` each) and the HTML file (inlined, one after another): the
/// URL fragment, the heat map, the live server's form, then the explorer.
pub const SCRIPTS: [&str; 4] = [
    include_str!("../../chapters/explorer/fragment.js"),
    include_str!("../../chapters/explorer/heatmap.js"),
    include_str!("../../chapters/explorer/live.js"),
    include_str!("../../chapters/explorer/explorer.js"),
];

/// The explorer's style.
pub const STYLE: &str = include_str!("../../chapters/explorer/explorer.css");

/// The data file's name, beside the explorer's page.
pub const DATA_FILE: &str = "explorer-data.js";

/// Where the explorer opens: a model, a layer and a head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    pub model: String,
    pub layer: usize,
    pub head: usize,
}

/// `json` as JavaScript that assigns the explorer's global; every `<` is
/// escaped (`\u003c`, only ever inside a JSON string) so that no token can
/// close the `<script>` element it sits in.
///
/// ```
/// use attention_geometry::figures::explorer::data_script;
/// let js = data_script(r#"{"models":[],"x":"</script>"}"#, None);
/// assert_eq!(js, "window.ATTENTION_EXPLORER = {\"models\":[],\"x\":\"\\u003c/script>\"};\n");
/// ```
pub fn data_script(json: &str, start: Option<&Start>) -> String {
    let mut js = format!(
        "window.ATTENTION_EXPLORER = {};\n",
        json.replace('<', "\\u003c")
    );
    if let Some(s) = start {
        js.push_str(&format!(
            "window.ATTENTION_EXPLORER_START = {{\"model\": {:?}, \"layer\": {}, \"head\": {}}};\n",
            s.model, s.layer, s.head
        ));
    }
    js
}

/// `s` with `&`, `<`, `>` and `"` escaped for HTML text and attributes.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One self-contained HTML page: the explorer on `json`'s data, titled by
/// `text`, opening at `start`.
///
/// ```
/// use attention_geometry::figures::explorer::page;
/// let html = page("a <b>", "{\"models\":[]}", None);
/// assert!(html.starts_with("<!DOCTYPE html>"));
/// assert!(html.contains("<title>Attention explorer: a &lt;b&gt;</title>"));
/// assert!(!html.contains("src=") && !html.contains("href="));
/// ```
pub fn page(text: &str, json: &str, start: Option<&Start>) -> String {
    let title = escape(text);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Attention explorer: {title}</title>\n<style>\n\
         body {{ font-family: sans-serif; max-width: 56rem; margin: 2rem auto; padding: 0 1rem; \
         color: #222; background: #fff; }}\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>Attention explorer</h1>\n<p>{title}</p>\n\
         <p>Hover or focus a token, or a row of the heat map, to see where it attends; switch \
         between the attention weight α<sub>ij</sub> and the norm ‖α<sub>ij</sub> f(x<sub>j</sub>)‖ of what key j \
         carries into query i's stream. Written by <code>attention-geometry attend</code>.</p>\n\
         <div id=\"ax-root\"></div>\n<script>\n{}</script>\n<script>\n{}</script>\n\
         </body>\n</html>\n",
        data_script(json, start),
        SCRIPTS.join("</script>\n<script>\n")
    )
}
