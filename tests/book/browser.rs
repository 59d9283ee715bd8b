//! The rendered book in a real browser. Headless Chromium opens every page
//! from a server on 127.0.0.1 and checks, in the page as a reader sees it:
//! mdBook's search answers a chapter's word offline in both editions (a
//! Chinese word too), the language switch leads to the other edition and
//! back, every figure image
//! loaded (natural width > 0), KaTeX's fonts loaded (`document.fonts`), and no
//! page asked for anything but this server; and the attention explorer,
//! driven (a model, a layer and a head selected, a token hovered and focused),
//! shows the weights `attend --tsv` prints. The server is also Chromium's
//! proxy, so every request the browser makes passes through it and none is
//! forwarded: a page's request for another host is seen and fails the test.
//!
//! Without `chromium` on the PATH the test prints why it skipped and passes;
//! under CI (`CI=true`) a missing browser fails it.

use std::fs;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use attention_geometry::pretrained::corpus::Model;
use attention_geometry::pretrained::explorer;
use attention_geometry::pretrained::transformer::Architecture;
use attention_geometry::render::explorer_texts;
use attention_geometry::render::http::{self, Reply};
use attention_geometry::render::serve;

use super::explorer::{EXPLORER, check_explorer};
use super::rendered::{render, summary_pages};

/// The harness pages' one polling helper, `until(test, ms)`.
pub(crate) const UNTIL: &str = include_str!("until.js");

/// The browser binary (Debian's package name).
const BROWSER: &str = "chromium";

/// Searches, in each edition: the page searched from, the words, and the
/// page the results must include (a link relative to the edition). The
/// Chinese words have no space between them, as a Chinese reader types.
const SEARCHES: [(&str, &str, &str); 2] = [
    ("index.html", "rollout", "04-relations.html"),
    ("zh/index.html", "不动点残差", "05-fixed-points.html"),
];

/// The page whose language switch is followed there and back.
const SWITCH: &str = "01-coordinate-mismatch.html";

/// The longest report the harness posts, in bytes.
pub(crate) const REPORT_BYTES: usize = 1 << 24;

/// How long the browser may take for every page.
const TIMEOUT: Duration = Duration::from_secs(180);

/// One request the server saw for another host: its request line, and
/// whether a page made it (it carries `Referer`, `Origin` or `Sec-Fetch-Dest`) rather
/// than the browser itself (update and time checks, refused like the rest).
#[derive(Clone)]
struct Outside {
    line: String,
    from_page: bool,
}

/// Files may be cached for the run, so the pages' shared scripts, styles
/// and fonts are fetched once, as a reader's browser would.
const CACHE: [(&str, &str); 1] = [("Cache-Control", "max-age=600")];

/// Serve one connection: a file of `root`, the harness's report (sent to
/// `report`), or a refusal of another host (recorded in `outside`).
fn serve(
    stream: TcpStream,
    origin: &str,
    root: &Path,
    report: &Sender<String>,
    outside: &Mutex<Vec<Outside>>,
) {
    let Ok(request) = http::read(&stream, REPORT_BYTES) else {
        return;
    };
    // as a proxy the server sees absolute targets; as itself, paths
    let path = match request.target.strip_prefix(origin) {
        Some(p) => p.to_string(),
        None if request.target.starts_with('/') => request.target.clone(),
        None => {
            let from_page = ["referer", "origin", "sec-fetch-dest"]
                .iter()
                .any(|h| request.headers.contains_key(*h));
            let line = format!("{} {}", request.method, request.target);
            outside.lock().unwrap().push(Outside { line, from_page });
            return http::respond(stream, &Reply::refuse(502, "offline"), &CACHE, true);
        }
    };
    if request.method == "POST" && path == "/report" {
        let _ = report.send(String::from_utf8_lossy(&request.body).into_owned());
        return http::respond(stream, &Reply::no_content(), &CACHE, true);
    }
    let file = path.split(['?', '#']).next().unwrap_or("");
    http::respond(stream, &serve::file(root, file), &CACHE, true);
}

/// The page that drives the checks inside the browser and posts its findings
/// to `/report`, one line each: `ok …` or `fail …`.
fn harness(pages: &[String], token: usize) -> String {
    let list: Vec<String> = pages.iter().map(|p| format!("{p:?}")).collect();
    let searches: Vec<String> = SEARCHES
        .iter()
        .map(|(page, words, want)| format!("[{page:?}, {words:?}, {want:?}]"))
        .collect();
    let (model, sentence, layer, head) = EXPLORER;
    let explorer = format!(
        "{{\"page\": \"explorer.html\", \"model\": {model:?}, \"sentence\": {sentence}, \
         \"layer\": {layer}, \"head\": {head}, \"token\": {token}}}"
    );
    include_str!("browser.html")
        .replace("__UNTIL__", UNTIL)
        .replace("__PAGES__", &list.join(", "))
        .replace("__SEARCHES__", &searches.join(", "))
        .replace("__SWITCH__", SWITCH)
        .replace("__EXPLORER__", &explorer)
}

/// Chromium, killed when dropped.
pub(crate) struct Browser(Child);

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Headless Chromium on `url`, its output in `log`; every request through
/// `proxy` if given.
pub(crate) fn launch(url: &str, proxy: Option<&str>, profile: &Path, log: &Path) -> Browser {
    let log = fs::File::create(log).expect("create the browser log");
    let child = Command::new(BROWSER)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,1000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        // loopback goes through the proxy too
        .args(proxy.into_iter().flat_map(|p| {
            [
                format!("--proxy-server={p}"),
                "--proxy-bypass-list=<-loopback>".to_string(),
            ]
        }))
        .arg(url)
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("clone the log"))
        .stderr(log)
        .spawn()
        .expect("start chromium");
    Browser(child)
}

/// Say `message` on the terminal even though the test harness captures
/// `println!` of passing tests.
fn tell(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{message}");
}

/// Whether Chromium is here to run `test`; without it the test says why it
/// skips, and under CI (`CI=true`) a missing browser fails it.
pub(crate) fn browser_present(test: &str) -> bool {
    if Command::new(BROWSER).arg("--version").output().is_ok() {
        return true;
    }
    let missing = format!("`{BROWSER}` is not on the PATH (Debian: apt-get install chromium)");
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{missing}: under CI (CI=true) the {test} must run"
    );
    tell(&format!("{test} skipped: {missing}"));
    false
}

#[test]
fn a_reader_sees_search_figures_and_math_offline() {
    if !browser_present("browser test") {
        return;
    }
    let started = Instant::now();
    let out = render();
    // every page of both editions
    let english: Vec<String> = std::iter::once("index.html".to_string())
        .chain(summary_pages().iter().map(|md| md.replace(".md", ".html")))
        .collect();
    let pages: Vec<String> = english
        .iter()
        .cloned()
        .chain(english.iter().map(|p| format!("zh/{p}")))
        .collect();
    let text = &explorer_texts(Architecture::Smollm2)[EXPLORER.1];
    let view = explorer::sentence(Architecture::Smollm2.with(Model::Trained), text).unwrap();
    fs::write(
        out.join("browser-check.html"),
        harness(&pages, view.tokens.len() - 1),
    )
    .unwrap();

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    let (report_tx, report_rx) = mpsc::channel();
    let outside = Arc::new(Mutex::new(Vec::new()));
    {
        let (origin, root, outside) = (origin.clone(), out.to_path_buf(), Arc::clone(&outside));
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (origin, root, tx, outside) = (
                    origin.clone(),
                    root.clone(),
                    report_tx.clone(),
                    Arc::clone(&outside),
                );
                thread::spawn(move || serve(stream, &origin, &root, &tx, &outside));
            }
        });
    }

    let profile = tempfile::tempdir().unwrap();
    let log = profile.path().join("chromium.log");
    let opened = Instant::now();
    let browser = launch(
        &format!("{origin}/browser-check.html"),
        Some(&origin),
        &profile.path().join("profile"),
        &log,
    );
    let report = report_rx.recv_timeout(TIMEOUT);
    let browser_seconds = opened.elapsed().as_secs_f64();
    drop(browser);
    let report = report.unwrap_or_else(|e| {
        let log = fs::read_to_string(&log).unwrap_or_default();
        panic!("no report from the browser within {TIMEOUT:?} ({e}); its log:\n{log}")
    });

    let lines: Vec<&str> = report.lines().collect();
    let failed: Vec<&&str> = lines.iter().filter(|l| !l.starts_with("ok ")).collect();
    let outside = outside.lock().unwrap().clone();
    let from_pages: Vec<&Outside> = outside.iter().filter(|o| o.from_page).collect();
    assert!(
        lines.iter().any(|l| l.starts_with("ok search")),
        "no search check ran:\n{report}"
    );
    assert!(
        failed.is_empty(),
        "in the browser:\n{}",
        failed
            .iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        from_pages.is_empty(),
        "pages asked for other hosts: {:?}",
        from_pages.iter().map(|o| &o.line).collect::<Vec<_>>()
    );
    check_explorer(&report, text, &view);
    let search = lines.iter().find(|l| l.starts_with("ok search")).unwrap();
    tell(&format!(
        "browser test: {} checks passed on {} pages ({search}); {:.1} s in Chromium, {:.1} s \
         with rendering; {} requests of the browser's own for other hosts refused",
        lines.len(),
        pages.len(),
        browser_seconds,
        started.elapsed().as_secs_f64(),
        outside.len()
    ));
}
