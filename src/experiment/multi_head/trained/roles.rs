//! Who did what to whom (`models/roles.txt`): each sentence must be closer to its
//! passive paraphrase than to its role-swapped twin, which has exactly its words.
//!
//! ```text
//! line       s<TAB>p<TAB>t      s: The dog bit the man.   p: The man was bitten by the dog.
//!                               t: The man bit the dog.
//! accuracy   (1/N) Σ_k [cos(e_s, e_p) > cos(e_s, e_t)]          chance 0.5
//! margin     (1/N) Σ_k cos(e_s, e_p) − cos(e_s, e_t)
//! ```

use nalgebra::{DMatrix, DVector};

use crate::parallel;
use crate::pretrained::corpus::{Model, pooled};
use crate::pretrained::intervention::run_parts;
use crate::pretrained::minilm::LAYERS;
use crate::pretrained::minilm::forward::embed;

/// The shipped role triples.
pub const ROLES: &str = include_str!("../../../../models/roles.txt");

/// One triple: sentence, paraphrase, twin.
pub type Triple = [String; 3];

/// The triples of [`ROLES`] (`#` lines are comments).
///
/// # Panics
/// If a line is not three tab-separated sentences.
pub fn triples() -> Vec<Triple> {
    ROLES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| match l.split('\t').collect::<Vec<_>>()[..] {
            [s, p, t] => [s.to_string(), p.to_string(), t.to_string()],
            _ => panic!("roles.txt: '{l}' needs sentence, paraphrase and twin"),
        })
        .collect()
}

/// How often, and by how much, the right candidate is the closer one.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Score {
    pub accuracy: f64,
    pub margin: f64,
}

impl Score {
    /// From each trial's `cos(right) − cos(wrong)`.
    pub fn of(d: &[f64]) -> Score {
        let n = d.len() as f64;
        Score {
            accuracy: d.iter().filter(|&&x| x > 0.0).count() as f64 / n,
            margin: d.iter().sum::<f64>() / n,
        }
    }
}

/// The last hidden states of each sentence `ids[t]` under `model` with each set of
/// `removed` heads ablated, `[t][variant]` each `(n_t, 384)`. Sentences of one
/// length share one stacked run, so the weights are read once per length.
pub fn last_states(
    model: Model,
    ids: &[Vec<u32>],
    removed: &[Vec<(usize, usize)>],
) -> Vec<Vec<DMatrix<f64>>> {
    let w = model.weights();
    let mut lengths: Vec<usize> = ids.iter().map(Vec::len).collect();
    lengths.sort_unstable();
    lengths.dedup();
    let b = removed.len();
    let groups = parallel::map(0..lengths.len() as u64, |g| {
        let n = lengths[g as usize];
        let members: Vec<usize> = (0..ids.len()).filter(|&t| ids[t].len() == n).collect();
        // block t·b + v: sentence members[t], variant v: (members·b·n, 384)
        let x: Vec<DMatrix<f64>> = members.iter().map(|&t| embed(w, &ids[t])).collect();
        let stack = DMatrix::from_fn(members.len() * b * n, x[0].ncols(), |r, c| {
            x[r / (b * n)][(r % n, c)]
        });
        let ablate: Vec<Vec<(usize, usize)>> = (0..members.len() * b)
            .map(|k| removed[k % b].clone())
            .collect();
        let out = &run_parts(w, 0, stack, n, &ablate)[LAYERS - 1].output;
        let blocks: Vec<Vec<DMatrix<f64>>> = (0..members.len())
            .map(|t| {
                (0..b)
                    .map(|v| out.rows((t * b + v) * n, n).into_owned())
                    .collect()
            })
            .collect();
        (members, blocks)
    });
    let mut outs = vec![Vec::new(); ids.len()];
    for (members, blocks) in groups {
        for (t, block) in members.into_iter().zip(blocks) {
            outs[t] = block;
        }
    }
    outs
}

/// The task's score under `model` for each set of `removed` heads.
pub fn scores(model: Model, removed: &[Vec<(usize, usize)>]) -> Vec<Score> {
    let m = model.minilm();
    let ids: Vec<Vec<u32>> = triples()
        .iter()
        .flatten()
        .map(|t| m.encode(t).unwrap_or_else(|e| panic!("{e}")).ids)
        .collect();
    let h = last_states(model, &ids, removed);
    (0..removed.len())
        .map(|v| {
            let e: Vec<DVector<f64>> = h.iter().map(|s| pooled(&s[v])).collect();
            let d: Vec<f64> = e
                .chunks(3)
                .map(|c| c[0].dot(&c[1]) - c[0].dot(&c[2]))
                .collect();
            Score::of(&d)
        })
        .collect()
}
