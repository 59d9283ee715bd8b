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

/// Embeddings of `text` under `model` with each set of `removed` heads ablated
/// (one stacked run of `removed.len()` variants).
pub fn embeddings(model: Model, text: &str, removed: &[Vec<(usize, usize)>]) -> Vec<DVector<f64>> {
    let m = model.minilm();
    let ids = m.encode(text).unwrap_or_else(|e| panic!("{e}")).ids;
    let (x, n) = (embed(&m.weights, &ids), ids.len());
    // removed.len() copies of the sentence: (b·n, 384)
    let stack = DMatrix::from_fn(removed.len() * n, x.ncols(), |i, c| x[(i % n, c)]);
    let p = run_parts(&m.weights, 0, stack, n, removed);
    let out = &p[LAYERS - 1].output;
    (0..removed.len())
        .map(|k| pooled(&out.rows(k * n, n).into_owned()))
        .collect()
}

/// The task's score under `model` for each set of `removed` heads.
pub fn scores(model: Model, removed: &[Vec<(usize, usize)>]) -> Vec<Score> {
    let t = triples();
    let texts: Vec<&String> = t.iter().flatten().collect();
    let e = parallel::map(0..texts.len() as u64, |k| {
        embeddings(model, texts[k as usize], removed)
    });
    (0..removed.len())
        .map(|v| {
            let d: Vec<f64> = e
                .chunks(3)
                .map(|c| c[0][v].dot(&c[1][v]) - c[0][v].dot(&c[2][v]))
                .collect();
            Score::of(&d)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forty_triples_whose_twin_has_the_sentences_words() {
        let t = triples();
        assert_eq!(t.len(), 40);
        let words = |s: &str| {
            let mut w: Vec<String> = s.trim_end_matches('.').to_lowercase().split(' ').map(String::from).collect();
            w.sort();
            w
        };
        for [s, _, twin] in &t {
            assert_eq!(words(s), words(twin));
        }
    }
}
