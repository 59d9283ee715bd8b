//! The live explorer's API: the reader's own text, run through a pretrained
//! model on request, as `attention-geometry serve` answers it. A pure
//! function of the request, so the server only moves bytes.
//!
//! ```text
//! GET  /api/attend                            the models: key, name, mask, layers, heads, max_tokens
//! POST /api/attend?model=KEY                  body: the text (UTF-8)
//!      → {"models": [ModelView]}              one sentence, every layer and head, LIVE_DECIMALS
//! POST /api/attend?model=KEY&layer=L&head=H   → {"tokens": […], "weights": [[…]], "carried": [[…]]}
//! refusals: one line of text/plain
//!   400  empty text, a body not UTF-8, a layer or head not a number, a parameter unknown or missing
//!   404  an unknown model, layer or head
//!   405  another method
//!   413  a body over MAX_BYTES, or a text over MAX_TOKENS tokens (or over the model's own limit)
//! ```
//!
//! The weights are those `attend --tsv` prints: the same model, the same
//! text, six decimals.

use serde_json::json;

use super::http::Reply;

use crate::pretrained::corpus::Model;
use crate::pretrained::explorer::{LIVE_DECIMALS, ModelView, sentence_to};
use crate::pretrained::transformer::Architecture;

/// The longest text the live explorer takes, in tokens of either model:
/// the whole view of SmolLM2 (30 layers × 9 heads × two n × n matrices)
/// stays a few megabytes.
pub const MAX_TOKENS: usize = 64;

/// The longest body read, in bytes; a longer one is refused unread.
pub const MAX_BYTES: usize = 4096;

/// The request's parameters, checked.
struct Asked {
    arch: Architecture,
    head: Option<(usize, usize)>,
}

/// `query` (`model=…&layer=…&head=…`) read, or the refusal.
fn asked(query: &str) -> Result<Asked, Reply> {
    let (mut model, mut layer, mut head) = (None, None, None);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let slot = match key {
            "model" => &mut model,
            "layer" => &mut layer,
            "head" => &mut head,
            _ => {
                return Err(Reply::refuse(
                    400,
                    &format!("unknown parameter '{key}'; known: model, layer, head"),
                ));
            }
        };
        *slot = Some(value);
    }
    let names = Architecture::ALL.map(Architecture::name).join(", ");
    let model = model
        .ok_or_else(|| Reply::refuse(400, &format!("name a model: ?model= one of {names}")))?;
    let arch = Architecture::parse(model)
        .map_err(|_| Reply::refuse(404, &format!("unknown model '{model}'; known: {names}")))?;
    let m = arch.with(Model::Trained);
    let index = |value: &str, what: &str, count: usize| -> Result<usize, Reply> {
        let range = format!("{what}s of {} are 0..={} (0-based)", arch.name(), count - 1);
        match value.parse::<usize>() {
            Ok(i) if i < count => Ok(i),
            Ok(i) => Err(Reply::refuse(404, &format!("no {what} {i}: {range}"))),
            Err(_) => Err(Reply::refuse(
                400,
                &format!("{what} '{value}' is not a number: {range}"),
            )),
        }
    };
    let head = match (layer, head) {
        (None, None) => None,
        (Some(l), Some(h)) => Some((index(l, "layer", m.layers())?, index(h, "head", m.heads())?)),
        _ => return Err(Reply::refuse(400, "give both layer and head, or neither")),
    };
    Ok(Asked { arch, head })
}

/// The text of `body`, checked against [`MAX_BYTES`], UTF-8 and emptiness.
fn text(body: &[u8]) -> Result<&str, Reply> {
    if body.len() > MAX_BYTES {
        return Err(Reply::refuse(
            413,
            &format!(
                "the text is over {MAX_BYTES} bytes; the live explorer takes up to {MAX_TOKENS} tokens"
            ),
        ));
    }
    let text =
        std::str::from_utf8(body).map_err(|_| Reply::refuse(400, "the text is not UTF-8"))?;
    if text.trim().is_empty() {
        return Err(Reply::refuse(
            400,
            "the text is empty; type a sentence, e.g. \"The bank of the river flooded.\"",
        ));
    }
    Ok(text)
}

/// The models the live explorer runs, described.
fn models() -> Reply {
    let models: Vec<_> = Architecture::ALL
        .into_iter()
        .map(|a| {
            let m = ModelView::of(a, Vec::new());
            json!({"key": m.key, "name": m.name, "mask": m.mask, "layers": m.layers,
                   "heads": m.heads, "max_tokens": MAX_TOKENS})
        })
        .collect();
    Reply::json(&json!({ "models": models }))
}

/// `text` run through the asked model: the whole view, or one head.
fn attend(asked: &Asked, text: &str) -> Reply {
    let (arch, model) = (asked.arch, asked.arch.with(Model::Trained));
    let tokens = match model.encode(text) {
        Ok(e) => e.ids.len(),
        Err(e) => return Reply::refuse(413, &format!("{}: {e}", arch.name())),
    };
    if tokens > MAX_TOKENS {
        return Reply::refuse(
            413,
            &format!(
                "the text is {tokens} tokens for {}; the live explorer takes up to {MAX_TOKENS}",
                arch.name()
            ),
        );
    }
    let view = match sentence_to(model, text, LIVE_DECIMALS) {
        Ok(v) => v,
        Err(e) => return Reply::refuse(413, &format!("{}: {e}", arch.name())),
    };
    match asked.head {
        Some((l, h)) => {
            let head = &view.layers[l][h];
            Reply::json(&json!({"tokens": view.tokens, "weights": head.weights,
                                "carried": head.carried}))
        }
        None => Reply::json(&json!({ "models": [ModelView::of(arch, vec![view])] })),
    }
}

/// The reply to `method` on `/api/attend?query` with `body` (at most
/// [`MAX_BYTES`] + 1 bytes of it: more is refused).
///
/// ```
/// use attention_geometry::render::live::answer;
/// assert_eq!(answer("POST", "model=minilm", b" ").status, 400);
/// assert_eq!(answer("POST", "model=bert", b"Hi.").status, 404);
/// assert_eq!(answer("DELETE", "", b"").status, 405);
/// ```
pub fn answer(method: &str, query: &str, body: &[u8]) -> Reply {
    match method {
        "GET" | "HEAD" if query.is_empty() => models(),
        "POST" => match asked(query).and_then(|a| text(body).map(|t| (a, t))) {
            Ok((asked, text)) => attend(&asked, text),
            Err(refusal) => refusal,
        },
        "GET" | "HEAD" => Reply::refuse(
            400,
            "GET lists the models; POST the text to /api/attend?model=KEY",
        ),
        _ => Reply::refuse(
            405,
            &format!("{method} is not allowed here; GET lists the models, POST runs a text"),
        ),
    }
}
