//! `serve` as a script and a reader's browser meet it, on the rendered book
//! and a free port: the live explorer's API gives the weights `attend --tsv`
//! prints; bad input gets a 4xx and a one-line message and the server keeps
//! serving; eight requests at once all succeed; and in headless Chromium a
//! sentence typed into the explorer shows those same weights.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::Duration;

use attention_geometry::render::http::{self, Reply};
use attention_geometry::render::live::{MAX_BYTES, MAX_TOKENS};
use attention_geometry::render::serve::{API, Serving};
use serde_json::Value;

use super::browser::{REPORT_BYTES, UNTIL, browser_present, launch};
use super::explorer::attend_tsv;
use super::rendered::render;

/// The sentence typed, and the head whose weights are compared.
const TEXT: &str = "The bank of the river flooded, so the bank closed.";
const HEADS: [(&str, usize, usize); 2] = [("minilm", 5, 3), ("smollm2", 3, 7)];

/// `attend --tsv` prints six decimals; the server rounds to six.
const WITHIN: f64 = 1.000_001e-6;

/// One HTTP/1.0 exchange (so the reply is never chunked): the status and
/// the body as text.
fn request(addr: SocketAddr, method: &str, target: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let head = format!(
        "{method} {target} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: text/plain\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).unwrap();
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or((&reply, ""));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_string())
}

fn start() -> Serving {
    Serving::start(render(), 0).unwrap()
}

/// `row` (key → weight) against `attend --tsv`'s last row for the same head.
fn check_row(model: &str, layer: usize, head: usize, tokens: &[String], row: &[f64]) {
    let (want_tokens, rows) = attend_tsv(TEXT, model, layer, head);
    assert_eq!(tokens, want_tokens, "{model}: tokens");
    let want = &rows[tokens.len() - 1];
    assert_eq!(row.len(), want.len(), "{model}: keys in the last row");
    for (j, (got, want)) in row.iter().zip(want).enumerate() {
        assert!(
            (got - want).abs() <= WITHIN,
            "{model} layer {layer} head {head}, key {j}: served {got}, attend --tsv {want}"
        );
    }
}

#[test]
fn the_live_api_gives_the_weights_attend_prints() {
    let server = start();
    for (model, layer, head) in HEADS {
        let target = format!("{API}?model={model}&layer={layer}&head={head}");
        let (status, body) = request(server.addr, "POST", &target, TEXT.as_bytes());
        assert_eq!(status, 200, "{model}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let tokens: Vec<String> = serde_json::from_value(v["tokens"].clone()).unwrap();
        let weights: Vec<Vec<f64>> = serde_json::from_value(v["weights"].clone()).unwrap();
        check_row(model, layer, head, &tokens, &weights[tokens.len() - 1]);
        if model != "minilm" {
            continue;
        }
        // the whole view (the encoder's: the smaller) holds the same head
        let (status, body) = request(
            server.addr,
            "POST",
            &format!("{API}?model={model}"),
            TEXT.as_bytes(),
        );
        assert_eq!(status, 200, "{model}: {body}");
        let view: Value = serde_json::from_str(&body).unwrap();
        let sentence = &view["models"][0]["sentences"][0];
        assert_eq!(sentence["text"], TEXT);
        assert_eq!(sentence["layers"][layer][head]["weights"], v["weights"]);
    }
}

#[test]
fn bad_input_is_refused_with_a_message_and_the_server_keeps_serving() {
    let server = start();
    let long_text = "word ".repeat(MAX_TOKENS + 1);
    let long_body = vec![b'a'; MAX_BYTES + 1];
    let post = |query: &str| format!("{API}?{query}");
    let cases: Vec<(&str, String, &[u8], u16, &str)> = vec![
        ("POST", post("model=minilm"), b"", 400, "empty"),
        ("POST", post("model=minilm"), b"  \n ", 400, "empty"),
        ("POST", post("model=smollm2"), b"caf\xe9 \xff", 400, "UTF-8"),
        (
            "POST",
            post("model=minilm"),
            long_text.as_bytes(),
            413,
            "tokens",
        ),
        ("POST", post("model=smollm2"), &long_body, 413, "bytes"),
        ("POST", post("model=bert"), b"Hi.", 404, "unknown model"),
        ("POST", post(""), b"Hi.", 400, "name a model"),
        (
            "POST",
            post("model=minilm&layer=6&head=0"),
            b"Hi.",
            404,
            "no layer 6",
        ),
        (
            "POST",
            post("model=smollm2&layer=0&head=9"),
            b"Hi.",
            404,
            "no head 9",
        ),
        (
            "POST",
            post("model=minilm&layer=x&head=0"),
            b"Hi.",
            400,
            "not a number",
        ),
        (
            "POST",
            post("model=minilm&layer=1"),
            b"Hi.",
            400,
            "both layer and head",
        ),
        (
            "POST",
            post("model=minilm&colour=red"),
            b"Hi.",
            400,
            "unknown parameter",
        ),
        ("DELETE", API.to_string(), b"", 405, "not allowed"),
        ("PUT", "/index.html".to_string(), b"x", 405, "not allowed"),
        ("GET", "/../Cargo.toml".to_string(), b"", 404, "not found"),
        (
            "GET",
            "/%2e%2e/Cargo.toml".to_string(),
            b"",
            404,
            "not found",
        ),
        (
            "GET",
            "/no-such-page.html".to_string(),
            b"",
            404,
            "not found",
        ),
    ];
    for (method, target, body, want, says) in cases {
        let (status, message) = request(server.addr, method, &target, body);
        assert_eq!(status, want, "{method} {target}: {message}");
        assert!(
            message.contains(says) && message.trim().lines().count() == 1,
            "{method} {target}: the message should say '{says}' in one line: {message:?}"
        );
        // and the server still serves the book and the models
        assert_eq!(request(server.addr, "GET", "/index.html", b"").0, 200);
    }
    let (status, models) = request(server.addr, "GET", API, b"");
    assert_eq!(status, 200);
    let models: Value = serde_json::from_str(&models).unwrap();
    assert_eq!(models["models"].as_array().unwrap().len(), 2);
    assert_eq!(models["models"][0]["max_tokens"], MAX_TOKENS);
}

#[test]
fn eight_requests_at_once_all_succeed() {
    let server = start();
    let texts: Vec<String> = (0..8)
        .map(|i| format!("Reader {i} asks where the bank is."))
        .collect();
    let replies: Vec<(u16, String)> = std::thread::scope(|s| {
        let jobs: Vec<_> = texts
            .iter()
            .enumerate()
            .map(|(i, text)| {
                let model = HEADS[i % 2].0;
                let addr = server.addr;
                // one head each: the model runs whole, the reply stays small
                let target = format!("{API}?model={model}&layer=0&head=0");
                s.spawn(move || request(addr, "POST", &target, text.as_bytes()))
            })
            .collect();
        jobs.into_iter().map(|j| j.join().unwrap()).collect()
    });
    for ((status, body), text) in replies.iter().zip(&texts) {
        assert_eq!(*status, 200, "{text}: {body}");
        let v: Value = serde_json::from_str(body).unwrap();
        let words = text.split_whitespace().count();
        assert!(
            v["tokens"].as_array().unwrap().len() > words,
            "{text}: {body}"
        );
    }
}

/// A browser opens several connections at once and keeps them open after
/// their reply, and opens others it never uses. None of that may hold up a
/// request: with tiny_http's pool, 4 of 8 connections opened at once got no
/// answer for minutes.
#[test]
fn connections_left_open_hold_up_no_request() {
    let server = start();
    let idle: Vec<TcpStream> = (0..16)
        .map(|_| TcpStream::connect(server.addr).unwrap())
        .collect();
    let answered: Vec<bool> = std::thread::scope(|s| {
        let jobs: Vec<_> = (0..16)
            .map(|_| {
                s.spawn(|| {
                    let mut stream = TcpStream::connect(server.addr).unwrap();
                    stream
                        .set_read_timeout(Some(Duration::from_secs(20)))
                        .unwrap();
                    stream
                        .write_all(b"GET /index.html HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")
                        .unwrap();
                    let mut first = [0; 12];
                    // the reply comes, and the connection stays open until read
                    stream.read_exact(&mut first).is_ok() && &first == b"HTTP/1.1 200"
                })
            })
            .collect();
        jobs.into_iter().map(|j| j.join().unwrap()).collect()
    });
    drop(idle);
    let late = answered.iter().filter(|a| !**a).count();
    assert_eq!(late, 0, "{late} of 16 connections got no reply within 20 s");
}

/// The one report the harness posts to `listener`, if it comes within `timeout`.
fn await_report(listener: TcpListener, timeout: Duration) -> Option<Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            if let Ok(request) = http::read(&stream, REPORT_BYTES) {
                http::respond(stream, &Reply::no_content(), &[], true);
                let _ = tx.send(serde_json::from_slice(&request.body));
            }
        }
    });
    rx.recv_timeout(timeout)
        .ok()
        .map(|r| r.expect("the report is JSON"))
}

#[test]
fn a_sentence_typed_into_the_explorer_shows_the_weights_attend_prints() {
    if !browser_present("live explorer's browser test") {
        return;
    }
    let book = render();
    let server = start();
    let (model, layer, head) = HEADS[1];
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let report = format!("http://{}/report", listener.local_addr().unwrap());
    let check = serde_json::json!({"text": TEXT, "model": model, "layer": layer, "head": head,
                                   "report": report});
    let harness = include_str!("serve.html")
        .replace("__UNTIL__", UNTIL)
        .replace("__CHECK__", &check.to_string());
    std::fs::write(book.join("serve-check.html"), harness).unwrap();
    let profile = tempfile::tempdir().unwrap();
    let log = profile.path().join("chromium.log");
    let url = format!("{}serve-check.html", server.url());
    let browser = launch(&url, None, &profile.path().join("profile"), &log);
    let r = await_report(listener, Duration::from_secs(120));
    drop(browser);
    let r = r.unwrap_or_else(|| {
        let log = std::fs::read_to_string(&log).unwrap_or_default();
        panic!("no report from the browser; its log:\n{log}")
    });
    assert!(r.get("failure").is_none(), "in the browser: {r}");
    assert_eq!(r["live"], true, "the explorer found no live server: {r}");
    assert!(r["empty"].as_str().unwrap().contains("empty"), "{r}");
    assert_eq!(r["unchanged"], true, "a refused sentence changed the list");
    assert_eq!(r["shown"], true, "the typed sentence was not shown: {r}");
    assert_eq!(r["error"], "", "an error stayed on the page");
    let tokens: Vec<String> = serde_json::from_value(r["tokens"].clone()).unwrap();
    let mut row: Vec<(usize, f64)> = serde_json::from_value(r["row"].clone()).unwrap();
    row.sort_by_key(|&(j, _)| j);
    assert!(row.iter().enumerate().all(|(k, &(j, _))| k == j), "{row:?}");
    let weights: Vec<f64> = row.into_iter().map(|(_, w)| w).collect();
    check_row(model, layer, head, &tokens, &weights);
    let fragment = r["fragment"].as_str().unwrap();
    assert!(
        fragment.contains("text=") && fragment.contains(&format!("layer={layer}")),
        "the fragment does not keep the view: {fragment}"
    );
}
