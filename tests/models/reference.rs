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
    // and the cached, one-token-at-a-time path gives the same tokens: on the
    // packed blocks, and on the f32 matrices (the reference, six times slower:
    // four steps of the first)
    for c in continuations {
        let (prompt, want) = (ids(&c["ids"]), ids(&c["greedy"]));
        assert_eq!(m.greedy(&prompt, want.len()), want, "{}", c["name"]);
    }
    let c = &continuations[0];
    assert_eq!(
        m.greedy_reference(&ids(&c["ids"]), 4).0,
        ids(&c["greedy"])[..4]
    );
}

/// Largest difference allowed between a packed step's logits and the f32
/// pass's, relative to the step's largest logit: the 1e-4.
const PACKED_TOLERANCE: f32 = 1e-4;

/// Decoding on the packed blocks against the f32 pass: 64 greedy steps
/// after the first reference prompt, each step's logits against the f32
/// pass over the prompt and the tokens chosen so far (one packed pass gives
/// every step's), and each token its argmax.
#[test]
fn sixty_four_packed_steps_have_the_f32_logits_and_tokens() {
    let r = reference("smollm2/reference-llama.json");
    let m = SmolLm2::shared();
    let prompt = ids(&r["continuations"][0]["ids"]);
    let (tokens, steps) = m.greedy_logits(&prompt, 64);
    let whole = [&prompt[..], &tokens[..63]].concat();
    let f32_pass = &m.logits_each(&[&whole])[0];
    let mut worst = 0.0f32;
    for (i, (token, packed)) in tokens.iter().zip(&steps).enumerate() {
        let row: Vec<f32> = f32_pass.row(prompt.len() - 1 + i).iter().copied().collect();
        let largest = row.iter().fold(0.0f32, |a, x| a.max(x.abs()));
        let gap = row
            .iter()
            .zip(packed)
            .fold(0.0f32, |a, (x, y)| a.max((x - y).abs()));
        worst = worst.max(gap / largest);
        let argmax = (0..row.len()).fold(0, |b, j| if row[j] > row[b] { j } else { b });
        assert_eq!(argmax as u32, *token, "step {i}");
    }
    println!("64 packed steps; largest |Δ logit| / max |logit|: {worst:.1e}");
    assert!(worst <= PACKED_TOLERANCE, "{worst:e}");
}
