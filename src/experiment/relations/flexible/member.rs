//! One member of a family of relations, and a head whose `W_Q, W_K` are
//! frozen at one relation's form while the rest of the model learns.
//!
//! Member `r` of the family: the context holds the keys `q, q + 1, …, q + n − 1`
//! (mod `vocab`, shuffled, each with a uniformly random label), the query is
//! the bare key `e[q]`, and
//!
//! ```text
//! target      = label of the position whose key is q + r
//! fixed form f: W_Q = E⁺ S_f E,  W_K = I,   so  e[q] W_Q = e[q + f]
//! learned form: W_Q, W_K ~ N(0, 1/d), trained
//! ```
//! with `E: (vocab, d)` the key table, `E⁺` its pseudo-inverse and `S_f` the
//! cyclic shift `δ_q ↦ δ_{q+f}`. Both forms have the same tensors and
//! shapes; the fixed one learns only `W_V, W_O, W_R`. Introduced in chapter 4.

use nalgebra::DMatrix;
use rand::RngExt;

use crate::random::{Rng, seeded};
use crate::train::{
    Adam, Config, Cue, Example, History, Model, Plateau, Qk, Relation, Schedule, Stop, Task, World,
    evaluate,
};

/// How a head's query–key form is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Head {
    /// Untied `W_Q, W_K`, learned from random initialisation.
    Learned,
    /// `W_Q, W_K` frozen at the form of the offset `f`: the query attends to key `q + f`.
    Fixed(usize),
}

impl Head {
    /// Name used in figures and measures: `learned`, `fixed 2`.
    pub fn name(self) -> String {
        match self {
            Head::Learned => "learned".to_string(),
            Head::Fixed(f) => format!("fixed {f}"),
        }
    }
}

/// The sizes a member is drawn at: key width `d`, `vocab` keys and labels,
/// `context` positions; and the margin `m` of the fixed forms.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sizes {
    pub d: usize,
    pub vocab: usize,
    pub context: usize,
    /// The fixed form's score on the related key (0 elsewhere), as [`form`] sets it.
    pub margin: f64,
}

/// The embedding tables `e, u` of one seed (those of the chapter's offset task).
pub fn world(sizes: Sizes, rng: &mut Rng) -> World {
    let task = Task {
        relation: Relation::Offsets {
            k: 1,
            cue: Cue::Answer,
        },
        vocab: sizes.vocab,
        context: sizes.context,
        d: sizes.d,
        noise: 0.0,
        examples: None,
    };
    task.world(rng)
}

/// One example of member `r`: query `e[q]`, answer the label at key `q + r`.
///
/// # Panics
/// If `r ≥ context` (the answer's key would not be in the context).
pub fn example(world: &World, r: usize, rng: &mut Rng) -> Example {
    let Task { vocab, context, .. } = world.task;
    assert!(
        r < context,
        "member::example: offset {r} needs a context longer than {context}"
    );
    let q = rng.random_range(0..vocab);
    let mut keys: Vec<usize> = (0..context).map(|o| (q + o) % vocab).collect();
    // Fisher–Yates shuffle of the context keys
    for i in (1..context).rev() {
        keys.swap(i, rng.random_range(0..=i));
    }
    let labels: Vec<usize> = (0..context).map(|_| rng.random_range(0..vocab)).collect();
    let at = |k: usize| keys.iter().position(|&x| x == k).expect("q … q + n − 1");
    let position = at((q + r) % vocab);
    // x_j = e[key_j] + u[label_j],  x_T = e[q]   (context + 1, d)
    let mut x = DMatrix::zeros(context + 1, world.task.d);
    for (j, (&k, &b)) in keys.iter().zip(&labels).enumerate() {
        let mut row = x.row_mut(j);
        row += world.keys.row(k) + world.labels.row(b);
    }
    let mut row = x.row_mut(context);
    row += world.keys.row(q);
    Example {
        x,
        target: labels[position],
        position,
        pair: [at(q), at((q + 1) % vocab)],
    }
}

/// The fixed form of offset `f` at margin `m`: the score is `m` on the key
/// `q + f` and 0 on every other position, whatever the labels.
///
/// ```text
/// B = [E; U]  (2·vocab, d),   J = [I_vocab 0; 0 0]  (2·vocab, d)
/// W_Q = m √d E⁺ S_f J₁,   W_K = B⁺ J       (J₁: the first vocab rows of J)
/// x_j W_K = [δ_{key_j}, 0],   e[q] W_Q = m √d [δ_{q+f}, 0]
/// ```
/// # Shapes
/// `W_Q, W_K: (d, d)`.
///
/// # Panics
/// If `d < 2 · vocab` (keys and labels must be separable).
pub fn form(world: &World, f: usize, m: f64) -> (DMatrix<f64>, DMatrix<f64>) {
    let (e, u) = (&world.keys, &world.labels);
    let (vocab, d) = e.shape();
    assert!(
        d >= 2 * vocab,
        "member::form: keys and labels are separable only when d ≥ 2 · vocab, got d {d}, vocab {vocab}"
    );
    let b = DMatrix::from_fn(2 * vocab, d, |i, c| {
        if i < vocab {
            e[(i, c)]
        } else {
            u[(i - vocab, c)]
        }
    });
    let pinv = |x: DMatrix<f64>| x.pseudo_inverse(1e-12).expect("a real matrix has an SVD");
    // J: key coefficients to the first vocab columns  (2·vocab, d)
    let j = DMatrix::from_fn(2 * vocab, d, |i, c| {
        f64::from(u8::from(i == c && i < vocab))
    });
    // (S_f)_{q, q+f} = 1   (vocab, vocab)
    let shift = DMatrix::from_fn(vocab, vocab, |q, k| {
        f64::from(u8::from(k == (q + f) % vocab))
    });
    let w_q = pinv(e.clone()) * shift * j.rows(0, vocab) * (m * (d as f64).sqrt());
    (w_q, pinv(b) * j)
}

/// Train `head` on member `r` at rate `lr` from `seed` (tables, test set,
/// initialisation and batches all come from it, so heads share them) to
/// `plateau` or the cap `schedule.steps`; with `shuffled`, every training
/// label is drawn uniformly at random (the null), evaluation uses true labels.
pub fn train(
    sizes: Sizes,
    head: Head,
    r: usize,
    schedule: Schedule,
    plateau: Plateau,
    seed: u64,
    shuffled: bool,
) -> History {
    let mut rng = seeded(seed);
    let world = world(sizes, &mut rng);
    let test: Vec<Example> = (0..schedule.test)
        .map(|_| example(&world, r, &mut rng))
        .collect();
    let mut model = Model::init(Config::single(sizes.d, sizes.vocab, Qk::Untied), &mut rng);
    // tensors: w_q, w_k, w_v, w_o, w_r; a fixed form skips the first two
    let frozen = match head {
        Head::Learned => 0,
        Head::Fixed(f) => {
            let (w_q, w_k) = form(&world, f, sizes.margin);
            model.heads[0][0].w_q = w_q;
            model.heads[0][0].w_k = w_k;
            2
        }
    };
    let mut labels = shuffled.then(|| seeded(seed ^ 0x5eed_1abe));
    let mut adam = Adam::new(schedule.lr);
    let mut h = History {
        steps: Vec::new(),
        train_loss: Vec::new(),
        test_loss: Vec::new(),
        accuracy: Vec::new(),
        steps_to_threshold: None,
        final_accuracy: 0.0,
        stop: Stop::Capped,
    };
    let (mut since, mut count) = (0.0, 0usize);
    for step in 0..=schedule.steps {
        if step % schedule.eval_every == 0 || step == schedule.steps {
            let (loss, acc) = evaluate(&model, &test);
            h.steps.push(step);
            h.train_loss.push(if count == 0 {
                loss
            } else {
                since / count as f64
            });
            h.test_loss.push(loss);
            h.accuracy.push(acc);
            if h.steps_to_threshold.is_none() && acc >= schedule.threshold {
                h.steps_to_threshold = Some(step);
            }
            (since, count) = (0.0, 0);
            if plateau.holds(&h.steps, &h.accuracy) {
                h.stop = Stop::Plateau(step);
                break;
            }
        }
        if step == schedule.steps {
            break;
        }
        let batch: Vec<Example> = (0..schedule.batch)
            .map(|_| example(&world, r, &mut rng))
            .collect();
        let batch: Vec<(&DMatrix<f64>, usize)> = batch
            .iter()
            .map(|e| match labels.as_mut() {
                Some(l) => (&e.x, l.random_range(0..sizes.vocab)),
                None => (&e.x, e.target),
            })
            .collect();
        let (loss, grad) = model.loss_and_grad(&batch);
        since += loss;
        count += 1;
        let params = model.tensors_mut().into_iter().skip(frozen).collect();
        adam.step(params, grad.tensors().into_iter().skip(frozen).collect());
    }
    h.final_accuracy = *h.accuracy.last().expect("at least one evaluation");
    h
}
