//! Chapter 2: the linear pieces of a ReLU network (mathematical coverage)
//! against what one forward pass of a head exposes (physical coverage), and
//! what an attention pattern does and does not tell.

pub mod trained;

use std::sync::OnceLock;

use nalgebra::{DMatrix, DVector};

use crate::attention::Head;
use crate::attribution::{carried_norms, equivalent_weights, leave_one_out, swap_ov};
use crate::coverage::{Pieces, ReluNet, head_jacobian, influence, linear_pieces};
use crate::experiment::par_map;
use crate::measure::{Measure, fixed, pm};
use crate::random::{gaussian, seeded};
use crate::stats::{Summary, mean, spearman};

/// Number of seeds behind every summary in the chapter.
pub const SEEDS: u64 = 100;

/// Number of seeds behind the piece counts.
pub const PIECE_SEEDS: u64 = 40;

/// The input window `[-WINDOW, WINDOW]²` where pieces are counted.
pub const WINDOW: f64 = 3.0;

/// Lattice points per side when counting pieces.
pub const GRID: usize = 80;

/// The ReLU networks on the plane whose pieces are counted: hidden widths.
pub const NETS: [&[usize]; 5] = [&[8], &[16], &[32], &[16, 16], &[8, 8, 8, 8]];

/// `[2, hidden…, 1]`: the widths of a network on the plane.
pub fn widths(hidden: &[usize]) -> Vec<usize> {
    [&[2][..], hidden, &[1]].concat()
}

/// A label such as `16×16`.
pub fn net_name(hidden: &[usize]) -> String {
    hidden
        .iter()
        .map(|w| w.to_string())
        .collect::<Vec<_>>()
        .join("×")
}

/// The pieces of the network `[2, hidden…, 1]` drawn from `seed`.
pub fn pieces(hidden: &[usize], seed: u64, grid: usize) -> Pieces {
    linear_pieces(
        &ReluNet::random(&mut seeded(seed), &widths(hidden)),
        -WINDOW,
        WINDOW,
        grid,
    )
}

/// Sizes of one head and its prompt: `n` tokens of width `d`, head widths `d_k = d_v`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    pub n: usize,
    pub d: usize,
    pub d_head: usize,
}

/// The size the book reports. `d_head < n − 1`, so values leave room for
/// equivalent patterns.
pub const BOOK: Setup = Setup {
    n: 16,
    d: 16,
    d_head: 4,
};

/// A smaller head for the Jacobian pictures.
pub const SMALL: Setup = Setup {
    n: 8,
    d: 8,
    d_head: 4,
};

/// How tokens are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tokens {
    /// `x_j ~ N(0, I)`.
    Isotropic,
    /// `x_j = r_j z_j`, `z_j ~ N(0, I)`, `log r_j ~ N(0, 0.75²)`: tokens of unequal norm.
    Varied,
}

impl Tokens {
    pub const ALL: [Tokens; 2] = [Tokens::Isotropic, Tokens::Varied];

    pub fn name(self) -> &'static str {
        match self {
            Tokens::Isotropic => "isotropic",
            Tokens::Varied => "varied",
        }
    }
}

/// A prompt `(n, d)` drawn as asked.
pub fn prompt(rng: &mut crate::random::Rng, setup: Setup, tokens: Tokens) -> DMatrix<f64> {
    let mut x = gaussian(rng, setup.n, setup.d, 1.0);
    if tokens == Tokens::Varied {
        let r = gaussian(rng, setup.n, 1, 0.75);
        for (i, mut row) in x.row_iter_mut().enumerate() {
            row *= r[(i, 0)].exp();
        }
    }
    x
}

/// A head and a prompt from one seed.
pub fn sample(setup: Setup, tokens: Tokens, seed: u64) -> (Head, DMatrix<f64>) {
    let mut rng = seeded(seed);
    let head = Head::random(&mut rng, setup.d, setup.d_head, setup.d_head);
    (head, prompt(&mut rng, setup, tokens))
}

/// One head, fixed weights, two prompts: the physical coverage of each pass.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoPrompts {
    /// Attention weights of each prompt, `(n, n)`.
    pub weights: [DMatrix<f64>; 2],
    /// Token-to-output influence `‖∂o_i/∂x_m‖_F` of each prompt, `(n, n)`.
    pub influence: [DMatrix<f64>; 2],
}

/// The head of `seed` on two prompts (causal), the second from `seed + 1000`.
pub fn two_prompts(setup: Setup, seed: u64) -> TwoPrompts {
    let (head, x) = sample(setup, Tokens::Isotropic, seed);
    let y = prompt(&mut seeded(seed + 1000), setup, Tokens::Isotropic);
    let weights = [
        head.forward(&x, true).weights,
        head.forward(&y, true).weights,
    ];
    let influence = [
        influence(&head_jacobian(&head, &x, true), setup.n),
        influence(&head_jacobian(&head, &y, true), setup.n),
    ];
    TwoPrompts { weights, influence }
}

/// Perturbation sizes `ε` for the drift of the local linear map.
pub fn epsilons() -> Vec<f64> {
    (0..13)
        .map(|k| 10f64.powf(-3.0 + 0.25 * k as f64))
        .collect()
}

/// How the local linear map changes under a perturbation `ε z` of the input
/// (`z` one fixed Gaussian direction): relative change
/// `‖J(x + εz) − J(x)‖_F / ‖J(x)‖_F` for a ReLU net `[2, 16, 16, 1]` at a
/// point of `N(0, I)` and for one causal head on a prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct Drift {
    /// `[seed][ε]` for the ReLU net.
    pub relu: Vec<Vec<f64>>,
    /// `[seed][ε]` for the head.
    pub head: Vec<Vec<f64>>,
}

fn relative(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    (a - b).norm() / b.norm()
}

/// The drift of one seed.
pub fn drift(setup: Setup, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = seeded(seed);
    let net = ReluNet::random(&mut rng, &widths(&[16, 16]));
    let p = gaussian(&mut rng, 1, 2, 1.0);
    let dp = gaussian(&mut rng, 1, 2, 1.0);
    let (head, x) = sample(setup, Tokens::Isotropic, seed);
    let dx = gaussian(&mut rng, setup.n, setup.d, 1.0);
    let (j0, h0) = (net.jacobian(&p), head_jacobian(&head, &x, true));
    let eps = epsilons();
    let relu = eps
        .iter()
        .map(|&e| relative(&net.jacobian(&(&p + &dp * e)), &j0))
        .collect();
    let head = eps
        .iter()
        .map(|&e| relative(&head_jacobian(&head, &(&x + &dx * e), true), &h0))
        .collect();
    (relu, head)
}

/// What one seed measures about a single head.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trial {
    /// Spearman ρ over keys `j` between `α_ij` and `‖α_ij v_j‖`, mean over queries `i`.
    pub weight_norm: f64,
    /// … between `α_ij` and the leave-one-out effect.
    pub weight_loo: f64,
    /// … between `‖α_ij v_j‖` and the leave-one-out effect.
    pub norm_loo: f64,
    /// Fraction of queries whose heaviest-weighted token is also the one whose removal moves the output most.
    pub top_agree: f64,
    /// Largest `|α − α'|` change of pattern (swap OV): exactly 0.
    pub swap_pattern: f64,
    /// `‖o' − o‖_F / ‖o‖_F` after swapping OV with an independent head.
    pub swap_output: f64,
    /// Mean over queries of the total variation `½‖α_i − α'_i‖₁` to an equivalent pattern.
    pub equivalent_tv: f64,
    /// Largest output change `max |α'ᵀV − αᵀV|` between the equivalent patterns.
    pub equivalent_output: f64,
    /// Fraction of queries whose heaviest token differs in the equivalent pattern.
    pub equivalent_top_moved: f64,
}

/// One measured field of a [`Trial`], e.g. `|t| t.weight_loo`.
pub type TrialField = fn(&Trial) -> f64;

/// Mean over rows `i` of Spearman ρ between rows of `a` and `b`.
fn row_spearman(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    let rows: Vec<f64> = (0..a.nrows())
        .map(|i| {
            spearman(
                &a.row(i).iter().cloned().collect::<Vec<_>>(),
                &b.row(i).iter().cloned().collect::<Vec<_>>(),
            )
        })
        .collect();
    mean(&rows)
}

fn argmax_row(m: &DMatrix<f64>, i: usize) -> usize {
    (0..m.ncols())
        .max_by(|&a, &b| m[(i, a)].total_cmp(&m[(i, b)]))
        .expect("a row has entries")
}

/// One head (non-causal) on one prompt, from one seed.
pub fn trial(setup: Setup, tokens: Tokens, seed: u64) -> Trial {
    let (head, x) = sample(setup, tokens, seed);
    let other = Head::random(
        &mut seeded(seed + 5000),
        setup.d,
        setup.d_head,
        setup.d_head,
    );
    let pass = head.forward(&x, false);
    let v = &x * &head.w_v;
    let norms = carried_norms(&pass.weights, &v);
    let loo = leave_one_out(&head, &x, false);
    let n = setup.n;
    let top_agree = (0..n)
        .filter(|&i| argmax_row(&pass.weights, i) == argmax_row(&loo, i))
        .count() as f64
        / n as f64;
    let swapped = swap_ov(&head, &other).forward(&x, false);
    let (mut tv, mut out, mut moved) = (0.0, 0.0f64, 0.0);
    for i in 0..n {
        let alpha = DVector::from_iterator(n, pass.weights.row(i).iter().cloned());
        let other = equivalent_weights(&alpha, &v);
        tv += 0.5 * (&other - &alpha).abs().sum() / n as f64;
        out = out.max((v.transpose() * (&other - &alpha)).abs().max());
        moved += f64::from(other.argmax().0 != alpha.argmax().0) / n as f64;
    }
    Trial {
        weight_norm: row_spearman(&pass.weights, &norms),
        weight_loo: row_spearman(&pass.weights, &loo),
        norm_loo: row_spearman(&norms, &loo),
        top_agree,
        swap_pattern: (&swapped.weights - &pass.weights).abs().max(),
        swap_output: relative(&swapped.output, &pass.output),
        equivalent_tv: tv,
        equivalent_output: out,
        equivalent_top_moved: moved,
    }
}

/// One row's pattern and an equivalent one, for the figure: `(α_i, α'_i, α_iᵀV, α'_iᵀV)`.
pub fn equivalent_example(
    setup: Setup,
    seed: u64,
    i: usize,
) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let (head, x) = sample(setup, Tokens::Isotropic, seed);
    let w = head.forward(&x, false).weights;
    let v = &x * &head.w_v;
    let alpha = DVector::from_iterator(setup.n, w.row(i).iter().cloned());
    let other = equivalent_weights(&alpha, &v);
    let (o, o2) = (v.transpose() * &alpha, v.transpose() * &other);
    (
        alpha.iter().cloned().collect(),
        other.iter().cloned().collect(),
        o.iter().cloned().collect(),
        o2.iter().cloned().collect(),
    )
}

/// Weights, carried norms and leave-one-out effects of every pair of one
/// seed, for the scatter figure: `(α, ‖αv‖, loo)` pooled over queries.
pub fn attribution_pairs(
    setup: Setup,
    tokens: Tokens,
    seed: u64,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (head, x) = sample(setup, tokens, seed);
    let w = head.forward(&x, false).weights;
    let norms = carried_norms(&w, &(&x * &head.w_v));
    let loo = leave_one_out(&head, &x, false);
    (
        w.iter().cloned().collect(),
        norms.iter().cloned().collect(),
        loo.iter().cloned().collect(),
    )
}

/// Everything chapter 2 reports, at book size.
#[derive(Clone, Debug, PartialEq)]
pub struct Findings {
    /// Piece counts `[net][seed]` for [`NETS`].
    pub counts: Vec<Vec<f64>>,
    /// Drift of the local linear map.
    pub drift: Drift,
    /// Relative difference `‖J(x) − J(y)‖/‖J(x)‖` between two prompts under fixed weights, per seed.
    pub prompt_change: Vec<f64>,
    /// Mean total variation between the two prompts' patterns, per seed.
    pub pattern_change: Vec<f64>,
    /// Single-head trials, `[tokens][seed]` for [`Tokens::ALL`].
    pub trials: Vec<Vec<Trial>>,
}

impl Findings {
    /// Run the chapter's experiments over seeds `0..seeds`.
    pub fn run(seeds: u64) -> Findings {
        let counts = NETS
            .iter()
            .map(|h| par_map(seeds.min(PIECE_SEEDS), |s| pieces(h, s, GRID).count as f64))
            .collect();
        let drifts = par_map(seeds, |s| drift(SMALL, s));
        let changes = par_map(seeds, |s| {
            let (head, x) = sample(SMALL, Tokens::Isotropic, s);
            let y = prompt(&mut seeded(s + 1000), SMALL, Tokens::Isotropic);
            let (px, py) = (
                head.forward(&x, true).weights,
                head.forward(&y, true).weights,
            );
            let tv = 0.5 * (&px - &py).abs().sum() / SMALL.n as f64;
            (
                relative(
                    &head_jacobian(&head, &y, true),
                    &head_jacobian(&head, &x, true),
                ),
                tv,
            )
        });
        Findings {
            counts,
            drift: Drift {
                relu: drifts.iter().map(|d| d.0.clone()).collect(),
                head: drifts.into_iter().map(|d| d.1).collect(),
            },
            prompt_change: changes.iter().map(|c| c.0).collect(),
            pattern_change: changes.iter().map(|c| c.1).collect(),
            trials: Tokens::ALL
                .iter()
                .map(|&t| par_map(seeds, |s| trial(BOOK, t, s)))
                .collect(),
        }
    }

    /// Summary of one trial field over seeds for one token distribution.
    pub fn summary(&self, tokens: Tokens, field: TrialField) -> Summary {
        let k = Tokens::ALL
            .iter()
            .position(|&t| t == tokens)
            .expect("every distribution is run");
        Summary::of(&self.trials[k].iter().map(field).collect::<Vec<_>>())
    }

    /// Piece counts of one network over seeds.
    pub fn count(&self, net: usize) -> Summary {
        Summary::of(&self.counts[net])
    }

    /// Fraction of seeds whose local linear map changed at all at `ε` index `e`, ReLU and head.
    pub fn changed(&self, e: usize) -> (f64, f64) {
        let frac = |runs: &Vec<Vec<f64>>| {
            runs.iter().filter(|r| r[e] > 1e-12).count() as f64 / runs.len() as f64
        };
        (frac(&self.drift.relu), frac(&self.drift.head))
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| Findings::run(SEEDS))
}

/// The numbers chapter 2's prose quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let eps = epsilons();
    let small = 4; // ε = 10^-2
    let (relu_small, head_small) = f.changed(small);
    let mut m = vec![
        Measure::new("seeds", SEEDS.to_string()),
        Measure::new("grid", GRID.to_string()),
        Measure::new("piece_seeds", PIECE_SEEDS.to_string()),
        Measure::new("window", fixed(WINDOW, 0)),
        Measure::new("n", BOOK.n.to_string()),
        Measure::new("d", BOOK.d.to_string()),
        Measure::new("d_head", BOOK.d_head.to_string()),
        Measure::new("small_n", SMALL.n.to_string()),
        Measure::new("small_d", SMALL.d.to_string()),
        Measure::new("eps_small", format!("{}", eps[small])),
        Measure::new("relu_changed_small", fixed(relu_small, 2)),
        Measure::new("head_changed_small", fixed(head_small, 2)),
        Measure::new(
            "head_drift_small",
            pm(
                Summary::of(&f.drift.head.iter().map(|r| r[small]).collect::<Vec<_>>()),
                3,
            ),
        ),
        Measure::new("prompt_change", pm(Summary::of(&f.prompt_change), 2)),
        Measure::new("pattern_change", pm(Summary::of(&f.pattern_change), 2)),
    ];
    for (k, h) in NETS.iter().enumerate() {
        m.push(Measure::new(
            format!("pieces_{}", net_name(h).replace('×', "x")),
            pm(f.count(k), 0),
        ));
    }
    let fields: [(&str, TrialField); 7] = [
        ("rho_weight_norm", |t| t.weight_norm),
        ("rho_weight_loo", |t| t.weight_loo),
        ("rho_norm_loo", |t| t.norm_loo),
        ("top_agree", |t| t.top_agree),
        ("swap_output", |t| t.swap_output),
        ("equivalent_tv", |t| t.equivalent_tv),
        ("equivalent_top_moved", |t| t.equivalent_top_moved),
    ];
    // largest over seeds, in scientific notation; exactly zero is written 0
    let largest = |k: usize, field: TrialField| {
        let x = f.trials[k].iter().map(field).fold(0.0, f64::max);
        if x == 0.0 {
            "0".to_string()
        } else {
            format!("{x:.0e}")
        }
    };
    for (k, tokens) in Tokens::ALL.iter().enumerate() {
        for (name, field) in fields {
            m.push(Measure::new(
                format!("{name}_{}", tokens.name()),
                pm(f.summary(*tokens, field), 2),
            ));
        }
        m.push(Measure::new(
            format!("swap_pattern_{}", tokens.name()),
            largest(k, |t| t.swap_pattern),
        ));
        m.push(Measure::new(
            format!("equivalent_output_{}", tokens.name()),
            largest(k, |t| t.equivalent_output),
        ));
    }
    m.extend(trained::measures());
    m
}

/// The chapter's claims, ids local to the chapter.
pub fn claims() -> Vec<crate::claim::Claim> {
    Vec::new()
}
