//! `attention-geometry serve`: the rendered book (both editions) and the
//! live explorer's API ([`super::live`]) on 127.0.0.1, answered by a few
//! threads sharing one small blocking server (tiny_http).
//!
//! ```text
//! /api/attend[?…]   the live explorer (super::live::answer)
//! /PATH             the file PATH of the rendered book (a folder: its index.html), GET or HEAD
//! ```
//!
//! Nothing a request sends can stop the server: a refusal is a reply, a
//! path leaving the book is not found, and a panic while answering becomes
//! a 500 for that request alone.

use std::io::Read;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use tiny_http::{Header, Request, Response, Server};

use super::live::{self, Reply};

/// Threads answering requests: the live explorer's requests run a model,
/// so a few at once keep a page's files flowing beside them.
pub const WORKERS: usize = 4;

/// The API's path.
pub const API: &str = "/api/attend";

/// A running server; dropping it stops the server and its threads.
pub struct Serving {
    /// Where it listens.
    pub addr: SocketAddr,
    server: Arc<Server>,
    stopping: Arc<AtomicBool>,
    workers: Vec<JoinHandle<()>>,
}

impl Serving {
    /// Serve the rendered book at `book` on `127.0.0.1:port` (0: a free port).
    ///
    /// # Errors
    /// One line naming the folder or the port, if the book is not rendered
    /// there or the port cannot be bound.
    pub fn start(book: &Path, port: u16) -> Result<Serving, String> {
        if !book.join("index.html").is_file() {
            return Err(format!(
                "no rendered book in {} (no index.html); render it first",
                book.display()
            ));
        }
        let server = Server::http(("127.0.0.1", port)).map_err(|e| {
            format!("cannot listen on 127.0.0.1:{port}: {e}; choose another with --port (0 picks a free one)")
        })?;
        let addr = server
            .server_addr()
            .to_ip()
            .expect("an HTTP server listens on an IP address");
        let (server, stopping) = (Arc::new(server), Arc::new(AtomicBool::new(false)));
        let workers = (0..WORKERS)
            .map(|_| {
                let (server, stopping) = (Arc::clone(&server), Arc::clone(&stopping));
                let book = book.to_path_buf();
                std::thread::spawn(move || {
                    while !stopping.load(Ordering::SeqCst) {
                        if let Ok(request) = server.recv() {
                            handle(request, &book);
                        }
                    }
                })
            })
            .collect();
        Ok(Serving {
            addr,
            server,
            stopping,
            workers,
        })
    }

    /// The book's address, `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serve until the process ends.
    pub fn wait(mut self) {
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        for _ in 0..self.workers.len() {
            self.server.unblock();
        }
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
    }
}

/// Answer one request; a panic while answering is this request's 500.
fn handle(mut request: Request, book: &Path) {
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let method = request.method().as_str().to_string();
    let reply = if path == API {
        // read one byte past the limit, so a longer body is refused unread
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(live::MAX_BYTES as u64 + 1)
            .read_to_end(&mut body);
        match read {
            Ok(_) => std::panic::catch_unwind(|| live::answer(&method, query, &body))
                .unwrap_or_else(|_| Reply::refuse(500, "the model failed on this text")),
            Err(e) => Reply::refuse(400, &format!("cannot read the request body: {e}")),
        }
    } else if method == "GET" || method == "HEAD" {
        file(book, path)
    } else {
        Reply::refuse(
            405,
            &format!("{method} is not allowed here; the book is read with GET"),
        )
    };
    let mut response = Response::from_data(reply.body)
        .with_status_code(reply.status)
        .with_header(header("Content-Type", reply.kind))
        .with_header(header("Cache-Control", "no-cache"));
    if reply.status == 405 {
        let allow = if path == API {
            "GET, HEAD, POST"
        } else {
            "GET, HEAD"
        };
        response.add_header(header("Allow", allow));
    }
    let _ = request.respond(response);
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("an ASCII header")
}

/// `%XX` escapes of `path` decoded; `None` if the result is not UTF-8.
fn unescape(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// The book's file at URL path `path`: a folder's `index.html`; not found
/// for a path that leaves the book.
fn file(book: &Path, path: &str) -> Reply {
    let not_found = || Reply::refuse(404, &format!("not found: {path}"));
    let Some(relative) = unescape(path) else {
        return not_found();
    };
    let parts: Vec<&str> = relative.split('/').filter(|p| !p.is_empty()).collect();
    if parts.iter().any(|p| *p == ".." || p.contains('\\')) {
        return not_found();
    }
    let mut file: PathBuf = parts.iter().fold(book.to_path_buf(), |f, p| f.join(p));
    if file.is_dir() {
        file = file.join("index.html");
    }
    match std::fs::read(&file) {
        Ok(body) => Reply {
            status: 200,
            kind: content_type(&file),
            body,
        },
        Err(_) => not_found(),
    }
}

/// The media type of a rendered book's file, by its extension.
pub fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff2" => "font/woff2",
        "woff" => "font/woff",
        "ttf" => "font/ttf",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}
