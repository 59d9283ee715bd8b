//! `attention-geometry serve`: the rendered book (both editions) and the
//! live explorer's API ([`super::live`]) on 127.0.0.1, one thread per
//! connection and one request per connection ([`super::http`]).
//!
//! ```text
//! /api/attend[?…]   the live explorer (super::live::answer)
//! /PATH             the file PATH of the rendered book (a folder: its index.html), GET or HEAD
//! ```
//!
//! Nothing a request sends can stop the server: a refusal is a reply, a
//! path leaving the book is not found, and a panic while answering becomes
//! a 500 for that request alone.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use super::http::{self, Reply};
use super::live;

/// The API's path.
pub const API: &str = "/api/attend";

/// How long a connection may stay silent, reading or writing, before it is
/// closed: a browser opens connections it may never use.
const IDLE: Duration = Duration::from_secs(30);

/// A running server; dropping it stops the server.
pub struct Serving {
    /// Where it listens.
    pub addr: SocketAddr,
    stopping: Arc<AtomicBool>,
    accepting: Option<JoinHandle<()>>,
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
        let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|e| {
            format!("cannot listen on 127.0.0.1:{port}: {e}; choose another with --port (0 picks a free one)")
        })?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        let stopping = Arc::new(AtomicBool::new(false));
        let book: Arc<Path> = book.into();
        let stop = Arc::clone(&stopping);
        // one thread per connection, each answering one request
        let accepting = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let book = Arc::clone(&book);
                // a thread the system refuses drops this connection alone
                let _ = std::thread::Builder::new().spawn(move || connection(stream, &book));
            }
        });
        Ok(Serving {
            addr,
            stopping,
            accepting: Some(accepting),
        })
    }

    /// The book's address, `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serve until the process ends.
    pub fn wait(mut self) {
        if let Some(accepting) = self.accepting.take() {
            let _ = accepting.join();
        }
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::SeqCst);
        // wake the accepting thread, which then sees `stopping`
        let _ = TcpStream::connect(self.addr);
        if let Some(accepting) = self.accepting.take() {
            let _ = accepting.join();
        }
    }
}

/// Answer the one request of a connection.
fn connection(stream: TcpStream, book: &Path) {
    let _ = stream.set_read_timeout(Some(IDLE));
    let _ = stream.set_write_timeout(Some(IDLE));
    // read one byte past the API's limit, so a longer body is refused
    let request = match http::read(&stream, live::MAX_BYTES + 1) {
        Ok(request) => request,
        Err(Some(refusal)) => return http::respond(stream, &refusal, &[], true),
        Err(None) => return,
    };
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let method = request.method.as_str();
    let reply = if path == API {
        std::panic::catch_unwind(|| live::answer(method, query, &request.body))
            .unwrap_or_else(|_| Reply::refuse(500, "the model failed on this text"))
    } else if method == "GET" || method == "HEAD" {
        file(book, path)
    } else {
        Reply::refuse(
            405,
            &format!("{method} is not allowed here; the book is read with GET"),
        )
    };
    let mut headers = vec![("Cache-Control", "no-cache")];
    if reply.status == 405 {
        headers.push((
            "Allow",
            if path == API {
                "GET, HEAD, POST"
            } else {
                "GET, HEAD"
            },
        ));
    }
    http::respond(stream, &reply, &headers, method != "HEAD");
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
pub fn file(book: &Path, path: &str) -> Reply {
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
