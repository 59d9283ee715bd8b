//! The shipped paraphrase corpus (`models/paraphrases.txt`) and the task a sentence
//! encoder is for: find each sentence's paraphrase among all the others.
//!
//! ```text
//! file       one pair a line: "sentence a<TAB>sentence b"
//! sentences  s_0 = a_0, s_1 = b_0, s_2 = a_1, …   partner(k) = k xor 1
//! top-1      (1/N) Σ_k [argmax_{m ≠ k} cos(e_k, e_m) = partner(k)]      chance 1/(N − 1)
//! margin     (1/N) Σ_k cos(e_k, e_partner) − max_{m ∉ {k, partner}} cos(e_k, e_m)
//! ```
//!
//! The pairs were written for this book: short everyday sentences whose partner says the
//! same with mostly different words, so that word overlap alone does not find it.
//! Introduced in chapter 3.

use nalgebra::DVector;

/// One paraphrase pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    pub a: String,
    pub b: String,
}

/// Parse `text`: one pair a line, the two sentences separated by one tab.
///
/// # Errors
/// A one-line message naming the first line that is not two non-empty sentences.
///
/// ```
/// use attention_geometry::pretrained::paraphrase::parse;
/// let pairs = parse("A cat.\tA kitten.\nIt rains.\tIt is raining.\n").unwrap();
/// assert_eq!(pairs.len(), 2);
/// assert_eq!(pairs[1].b, "It is raining.");
/// assert!(parse("no tab here").unwrap_err().contains("line 1"));
/// ```
pub fn parse(text: &str) -> Result<Vec<Pair>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| match line.split('\t').collect::<Vec<_>>()[..] {
            [a, b] if !a.trim().is_empty() && !b.trim().is_empty() => Ok(Pair {
                a: a.trim().to_string(),
                b: b.trim().to_string(),
            }),
            _ => Err(format!(
                "paraphrases: line {} is not two sentences separated by one tab",
                i + 1
            )),
        })
        .collect()
}

/// The shipped corpus, `models/paraphrases.txt`.
///
/// ```
/// use attention_geometry::pretrained::paraphrase::corpus;
/// assert_eq!(corpus().len(), 30);
/// ```
pub fn corpus() -> Vec<Pair> {
    parse(include_str!("../../models/paraphrases.txt")).unwrap_or_else(|e| panic!("{e}"))
}

/// The sentences of `pairs` in order `a_0, b_0, a_1, b_1, …`.
pub fn sentences(pairs: &[Pair]) -> Vec<String> {
    pairs
        .iter()
        .flat_map(|p| [p.a.clone(), p.b.clone()])
        .collect()
}

/// The index of sentence `k`'s paraphrase in [`sentences`], `k xor 1`.
pub fn partner(k: usize) -> usize {
    k ^ 1
}

/// How well embeddings find their paraphrase: top-1 accuracy and mean margin.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Retrieval {
    /// Fraction of sentences whose nearest other sentence (cosine) is their partner.
    pub top1: f64,
    /// Mean of cos(partner) − the best cosine among the non-partners.
    pub margin: f64,
}

/// Retrieval over `embeddings` ordered as [`sentences`] (partners `2p`, `2p + 1`).
///
/// # Panics
/// If there are fewer than two pairs or an odd number of embeddings.
///
/// ```
/// use attention_geometry::pretrained::paraphrase::retrieve;
/// use nalgebra::DVector;
/// let e = |x: f64, y: f64| DVector::from_vec(vec![x, y]);
/// let r = retrieve(&[e(1.0, 0.0), e(1.0, 0.1), e(0.0, 1.0), e(0.1, 1.0)]);
/// assert_eq!(r.top1, 1.0);
/// assert!(r.margin > 0.8);
/// ```
pub fn retrieve(embeddings: &[DVector<f64>]) -> Retrieval {
    let n = embeddings.len();
    assert!(
        n >= 4 && n.is_multiple_of(2),
        "retrieve: {n} embeddings, need an even number ≥ 4 (pairs)"
    );
    let unit: Vec<DVector<f64>> = embeddings.iter().map(|e| e.normalize()).collect();
    let (mut hits, mut margin) = (0.0, 0.0);
    for k in 0..n {
        let cos = |m: usize| unit[k].dot(&unit[m]);
        let rival = (0..n)
            .filter(|&m| m != k && m != partner(k))
            .map(cos)
            .fold(f64::NEG_INFINITY, f64::max);
        hits += f64::from(u8::from(cos(partner(k)) > rival));
        margin += cos(partner(k)) - rival;
    }
    Retrieval {
        top1: hits / n as f64,
        margin: margin / n as f64,
    }
}
