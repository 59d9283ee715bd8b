//! Just enough HTTP/1.1 for a book served on 127.0.0.1: one request per
//! connection, read whole (its head, then `Content-Length` bytes of body),
//! one reply, then the connection closes (`Connection: close`).
//!
//! One request per connection is the point. A browser keeps a used
//! connection open for about five minutes in case it needs it again. A
//! server that parks a thread on each open connection (tiny_http does, and
//! its pool can queue a new connection behind them) leaves a page's next
//! file waiting that long; measured here, 4 of 8 connections opened at once
//! got no answer.
//!
//! ```
//! use std::io::{Read, Write};
//! use std::net::{TcpListener, TcpStream};
//! use attention_geometry::render::http::{self, Reply};
//!
//! let listener = TcpListener::bind("127.0.0.1:0").unwrap();
//! let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
//! client.write_all(b"POST /echo HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi").unwrap();
//! let (stream, _) = listener.accept().unwrap();
//! let request = http::read(&stream, 16).unwrap();
//! assert_eq!((request.method.as_str(), request.body.as_slice()), ("POST", &b"hi"[..]));
//! std::thread::spawn(move || http::respond(stream, &Reply::refuse(404, "no echo here"), &[], true));
//! let mut reply = String::new();
//! client.read_to_string(&mut reply).unwrap();
//! assert!(reply.starts_with("HTTP/1.1 404 Not Found\r\n") && reply.ends_with("\r\n\r\nno echo here\n"));
//! ```

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

/// A request: its method, target (path and query), headers (names in
/// lower case) and body.
#[derive(Debug)]
pub struct Request {
    pub method: String,
    pub target: String,
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

/// What the server sends back: a status, a media type and a body.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    pub status: u16,
    pub kind: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    /// A JSON document.
    pub fn json(value: &serde_json::Value) -> Reply {
        Reply {
            status: 200,
            kind: "application/json",
            body: value.to_string().into_bytes(),
        }
    }

    /// 204: done, nothing to say.
    pub fn no_content() -> Reply {
        Reply {
            status: 204,
            kind: "text/plain",
            body: Vec::new(),
        }
    }

    /// A refusal: `status` and one line saying why.
    pub fn refuse(status: u16, message: &str) -> Reply {
        Reply {
            status,
            kind: "text/plain; charset=utf-8",
            body: format!("{message}\n").into_bytes(),
        }
    }
}

/// The longest request head read, and the most headers it may hold.
const MAX_HEAD: usize = 16 * 1024;
const MAX_HEADERS: usize = 64;

/// The most of an unread body drained before closing (see [`respond`]).
const MAX_DRAIN: u64 = 1 << 20;

/// Read one request from `stream`, keeping at most `max_body` bytes of its
/// body (a longer body is cut there, for the handler to refuse by its
/// length). The head is parsed by `httparse`.
///
/// # Errors
/// `Err(None)` when the peer sent no request (it closed, or stayed idle past
/// the stream's read timeout): nothing to answer. `Err(Some(reply))` for a
/// request that cannot be read: a malformed or overlong head (400) or a
/// body without a length (411).
pub fn read(mut stream: &TcpStream, max_body: usize) -> Result<Request, Option<Reply>> {
    let mut buffer = Vec::new();
    let mut chunk = [0; 4096];
    loop {
        let n = match stream.read(&mut chunk) {
            Ok(0) | Err(_) if buffer.is_empty() => return Err(None),
            Ok(0) | Err(_) => return Err(malformed("it ends inside its head")),
            Ok(n) => n,
        };
        buffer.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut parsed = httparse::Request::new(&mut headers);
        match parsed.parse(&buffer) {
            Ok(httparse::Status::Complete(head)) => {
                let request = Request {
                    method: parsed.method.unwrap_or_default().to_string(),
                    target: parsed.path.unwrap_or_default().to_string(),
                    headers: parsed
                        .headers
                        .iter()
                        .map(|h| {
                            let value = String::from_utf8_lossy(h.value).trim().to_string();
                            (h.name.to_ascii_lowercase(), value)
                        })
                        .collect(),
                    body: buffer.split_off(head),
                };
                return body(stream, request, max_body);
            }
            Ok(httparse::Status::Partial) if buffer.len() < MAX_HEAD => continue,
            Ok(httparse::Status::Partial) => return Err(malformed("its head is too long")),
            Err(e) => return Err(malformed(&e.to_string())),
        }
    }
}

/// The rest of `request`'s body from `stream`: its `Content-Length`, cut at
/// `max_body` bytes.
fn body(
    stream: &TcpStream,
    mut request: Request,
    max_body: usize,
) -> Result<Request, Option<Reply>> {
    if request.headers.contains_key("transfer-encoding") {
        return Err(Some(Reply::refuse(
            411,
            "send the body with a Content-Length",
        )));
    }
    let length: usize = match request.headers.get("content-length") {
        Some(n) => n.parse().map_err(|_| malformed("its Content-Length"))?,
        None => 0,
    };
    let keep = length.min(max_body);
    request.body.truncate(keep);
    let rest = (keep - request.body.len()) as u64;
    stream
        .take(rest)
        .read_to_end(&mut request.body)
        .map_err(|_| malformed("its body could not be read"))?;
    Ok(request)
}

/// The 400 for a request that cannot be read, saying where.
fn malformed(why: &str) -> Option<Reply> {
    Some(Reply::refuse(400, &format!("a malformed request: {why}")))
}

/// Send `reply` (its body too if `body`; not in answer to HEAD) with
/// `headers` beside its type and length, and close the connection. What
/// the peer still sends is read and dropped first (up to a limit), so it
/// sees the reply rather than a reset.
pub fn respond(mut stream: TcpStream, reply: &Reply, headers: &[(&str, &str)], body: bool) {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reason(reply.status),
        reply.kind,
        reply.body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let sent = stream.write_all(head.as_bytes()).and_then(|()| {
        if body {
            stream.write_all(&reply.body)
        } else {
            Ok(())
        }
    });
    if sent.is_ok() && stream.shutdown(Shutdown::Write).is_ok() {
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let _ = std::io::copy(&mut (&stream).take(MAX_DRAIN), &mut std::io::sink());
    }
}

/// The reason phrase of the statuses this crate sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        411 => "Length Required",
        413 => "Content Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        _ => "",
    }
}
