//! The forward pass against llama.cpp run on an f32 copy of the model
//! (`models/smollm2/reference-llama.json`): the top-1 next token at every
//! position of every prompt, the log-probabilities of the ten most probable
//! tokens there, and greedy continuations.

use super::{ids, reference};
use attention_geometry::pretrained::smollm2::{SmolLm2, forward::log_softmax};

/// Largest |log p − log p_ref| allowed over the reference's top-10 tokens at
/// every position of every prompt, in nats. Both passes keep activations in
/// f32 and differ in summation order (llama.cpp's kernels against nalgebra's);
/// measured 6.2e-5 at worst. A wrong convention (RoPE halves on GGUF rows,
/// h mod 3 for the key head) moves log-probabilities by whole nats.
const LOGPROB_TOLERANCE: f64 = 5e-4;

#[test]
fn top_1_and_top_10_log_probabilities_agree_at_every_position() {
    let r = reference("smollm2/reference-llama.json");
    let m = SmolLm2::shared();
    let prompts = r["prompts"].as_array().unwrap();
    assert!(prompts.len() >= 20);
    let (mut worst, mut positions) = (0.0f64, 0);
    let all: Vec<Vec<u32>> = prompts.iter().map(|p| ids(&p["ids"])).collect();
    let all: Vec<&[u32]> = all.iter().map(Vec::as_slice).collect();
    for (p, logits) in prompts.iter().zip(m.logits_each(&all)) {
        let name = p["name"].as_str().unwrap();
        for (i, (top, lps)) in p["top_ids"]
            .as_array()
            .unwrap()
            .iter()
            .zip(p["top_logprobs"].as_array().unwrap())
            .enumerate()
        {
            let row: Vec<f32> = logits.row(i).iter().copied().collect();
            let lp = log_softmax(&row);
            let ours = (0..lp.len())
                .max_by(|&a, &b| lp[a].total_cmp(&lp[b]))
                .unwrap();
            let top = ids(top);
            assert_eq!(ours as u32, top[0], "{name}: top-1 at position {i}");
            for (&id, want) in top.iter().zip(lps.as_array().unwrap()) {
                worst = worst.max((lp[id as usize] - want.as_f64().unwrap()).abs());
            }
            positions += 1;
        }
    }
    println!("{positions} positions; largest |Δ log p| over the top 10: {worst:.2e}");
    assert!(positions >= 400, "{positions}");
    assert!(worst <= LOGPROB_TOLERANCE, "largest |Δ log p| {worst:.2e}");
}

/// Greedy decoding reproduces a continuation exactly when, given the
/// continuation's own prefix, every step's argmax is the continuation's next
/// token; one pass over prompt and continuation checks all steps at once.
#[test]
fn greedy_continuations_are_token_for_token_the_reference() {
    let r = reference("smollm2/reference-llama.json");
    let m = SmolLm2::shared();
    let continuations = r["continuations"].as_array().unwrap();
    assert!(continuations.len() >= 3);
    // each prompt with its continuation but the last token, all in one pass
    let wholes: Vec<Vec<u32>> = continuations
        .iter()
        .map(|c| {
            let whole = [ids(&c["ids"]), ids(&c["greedy"])].concat();
            whole[..whole.len() - 1].to_vec()
        })
        .collect();
    let wholes: Vec<&[u32]> = wholes.iter().map(Vec::as_slice).collect();
    for (c, logits) in continuations.iter().zip(m.logits_each(&wholes)) {
        let (prompt, want) = (ids(&c["ids"]), ids(&c["greedy"]));
        assert!(want.len() >= 20);
        let ours: Vec<u32> = (prompt.len() - 1..logits.nrows())
            .map(|i| {
                logits.row(i).iter().enumerate().fold(
                    0,
                    |b, (j, &x)| {
                        if x > logits[(i, b)] { j } else { b }
                    },
                ) as u32
            })
            .collect();
        assert_eq!(ours, want, "{}", c["name"]);
    }
    // and the cached, one-token-at-a-time path gives the same tokens
    let c = &continuations[0];
    let want = &ids(&c["greedy"])[..8];
    assert_eq!(m.greedy(&ids(&c["ids"]), want.len()), want);
}
