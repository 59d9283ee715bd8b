//! What the decoder expects after a text: the top-K next tokens with their
//! log-probabilities (`attention-geometry next`) and a greedy continuation
//! (`attention-geometry complete`).
//!
//! ```text
//! attention-geometry next "TEXT" [--top K] [--tsv]
//! attention-geometry complete "TEXT" [--tokens N]
//! ```
//!
//! The text is tokenised as the model's tokenizer does, no BOS added; tokens
//! are shown as the vocabulary's own strings (`Ġcapital`, `Ċ`).
//!
//! Introduced in chapter 1.

use super::smollm2::SmolLm2;

/// One candidate next token.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// 1 for the most probable.
    pub rank: usize,
    pub id: u32,
    /// The vocabulary's own string.
    pub token: String,
    /// Natural-log probability.
    pub logprob: f64,
}

/// The `top` most probable tokens after `text`, most probable first (ties by id).
///
/// ```
/// use attention_geometry::pretrained::{next_token, smollm2::SmolLm2};
/// let top = next_token::next(SmolLm2::shared(), "The capital of France is", 3).unwrap();
/// assert_eq!(top[0].token, "ĠParis");
/// assert!(top[0].logprob > top[1].logprob && top[0].logprob < 0.0);
/// ```
///
/// # Errors
/// One line if the text is empty or longer than the book runs.
pub fn next(model: &SmolLm2, text: &str, top: usize) -> Result<Vec<Candidate>, String> {
    let ids = model.encode(text)?.ids;
    let lp = model.next_log_probs(&ids);
    let mut order: Vec<usize> = (0..lp.len()).collect();
    order.sort_by(|&a, &b| lp[b].total_cmp(&lp[a]).then(a.cmp(&b)));
    Ok(order
        .into_iter()
        .take(top)
        .enumerate()
        .map(|(i, id)| Candidate {
            rank: i + 1,
            id: id as u32,
            token: model.tokenizer.token(id as u32).to_string(),
            logprob: lp[id],
        })
        .collect())
}

/// The header (`rank`, `token_id`, `token`, `logprob`, tab-separated), then one line per candidate.
pub fn tsv(candidates: &[Candidate]) -> String {
    let mut out = String::from("rank\ttoken_id\ttoken\tlogprob\n");
    for c in candidates {
        out += &format!("{}\t{}\t{}\t{:.6}\n", c.rank, c.id, c.token, c.logprob);
    }
    out
}

/// A table for reading: rank, probability, log-probability, token.
pub fn table(candidates: &[Candidate]) -> String {
    let mut out = format!("{:>4}  {:>7}  {:>9}  token\n", "rank", "p", "logprob");
    for c in candidates {
        out += &format!(
            "{:>4}  {:>7.4}  {:>9.4}  {}\n",
            c.rank,
            c.logprob.exp(),
            c.logprob,
            c.token
        );
    }
    out
}

/// Up to `tokens` tokens after `text`, each the most probable (greedy), as
/// text; stops early at the end-of-sequence token. The prompt runs on the
/// f32 matrices, each later token on the packed blocks ([`SmolLm2::greedy`]).
///
/// # Errors
/// One line if the text is empty or the whole would be longer than the book runs.
pub fn complete(model: &SmolLm2, text: &str, tokens: usize) -> Result<String, String> {
    let ids = model.encode(text)?.ids;
    model.check_room(ids.len() + tokens)?;
    let mut out = model.greedy(&ids, tokens);
    if let Some(end) = out.iter().position(|&t| t == model.config.eos) {
        out.truncate(end);
    }
    Ok(model.tokenizer.decode(&out))
}
