//! A task that needs attention: which sense does a word have here? Each word of
//! `models/contexts.txt` in four sentences, A and C in one sense, B and D in the
//! other (`models/senses.txt`); the word's last hidden state must be closer to the
//! same sense than to the other one. Without attention a token never sees its
//! context, and only its position tells the four apart.
//!
//! ```text
//! trials     A: C over B,  B: D over A,  C: A over D,  D: B over C      (per word)
//! accuracy   share of trials with cos(h_q, h_same) > cos(h_q, h_other)   chance 0.5
//! margin     mean of cos(h_q, h_same) − cos(h_q, h_other)
//! ```

use nalgebra::DVector;

use super::roles::{Score, last_states};
use crate::experiment::relations::trained::{Sentence, pairs, sentence};
use crate::pretrained::corpus::Model;

/// The shipped sentences C and D, `word<TAB>C<TAB>D`.
pub const SENSES: &str = include_str!("../../../../models/senses.txt");

/// Per word, its four sentences `[A, B, C, D]` and the word.
///
/// # Panics
/// If a line of [`SENSES`] is not three fields or names a word `contexts.txt` lacks.
pub fn quads() -> Vec<(String, [String; 4])> {
    let ab = pairs();
    SENSES
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "senses.txt: '{l}' needs word, C, D");
            let p = ab
                .iter()
                .find(|p| p.word == f[0])
                .unwrap_or_else(|| panic!("senses.txt: '{}' is not in contexts.txt", f[0]));
            let s = |x: &str| x.to_string();
            (s(f[0]), [s(&p.a), s(&p.b), s(f[1]), s(f[2])])
        })
        .collect()
}

/// Score four unit states `[A, B, C, D]`.
fn trials(h: &[DVector<f64>; 4]) -> [f64; 4] {
    let c = |a: usize, b: usize| h[a].dot(&h[b]);
    [
        c(0, 2) - c(0, 1),
        c(1, 3) - c(1, 0),
        c(2, 0) - c(2, 3),
        c(3, 1) - c(3, 2),
    ]
}

/// The task's score under `model` for each set of `removed` heads.
pub fn scores(model: Model, removed: &[Vec<(usize, usize)>]) -> Vec<Score> {
    let s: Vec<Sentence> = quads()
        .iter()
        .flat_map(|(w, q)| q.iter().map(move |t| sentence(t, w)))
        .collect();
    let ids: Vec<Vec<u32>> = s.iter().map(|x| x.ids.clone()).collect();
    let out = last_states(model, &ids, removed);
    // the word's unit state, [sentence][variant]
    let h: Vec<Vec<DVector<f64>>> = out
        .iter()
        .zip(&s)
        .map(|(o, x)| {
            o.iter()
                .map(|m| m.row(x.word).transpose().normalize())
                .collect()
        })
        .collect();
    (0..removed.len())
        .map(|v| {
            let d: Vec<f64> = h
                .chunks(4)
                .flat_map(|c| trials(&[0, 1, 2, 3].map(|i| c[i][v].clone())))
                .collect();
            Score::of(&d)
        })
        .collect()
}
