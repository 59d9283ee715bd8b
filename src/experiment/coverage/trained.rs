//! Chapter 2 on the trained encoder (all-MiniLM-L6-v2) against its random-weight
//! baseline: what one pass's attention weights show against what the heads move,
//! where the weight goes ([CLS], [SEP], punctuation), and how far the pass's
//! first-order picture of a layer holds.
//!
//! ```text
//! carried norm   ‖α_ij f(x_j)‖,  f(x_j) = v_j W_O,hᵀ          (Kobayashi et al. 2020)
//! leave-one-out  ‖o_i − o_i^(−j)‖ = α_ij ‖f(x_j) − o_i‖ / (1 − α_ij),  o_i = Σ_j α_ij f(x_j)
//! ρ              Spearman over keys j, mean over queries i, then over heads and sentences
//! locality       err(ε) = ‖F(x + εz) − F(x) − ε J z‖ / ‖F(x + εz) − F(x)‖,  ‖z‖ = ‖x‖,
//!                J z = (F(x + hz) − F(x − hz)) / 2h,  F one layer, x a real sentence's input
//! ```

use std::sync::OnceLock;

use crate::experiment::cache;

use nalgebra::DMatrix;

use crate::attribution::carried_norms;
use crate::measure::{Measure, fixed, pm, table};
use crate::parallel;
use crate::pretrained::corpus::{ByModel, Model, Run, is_special, runs};
use crate::pretrained::intervention::{layer_parts, value_out};
use crate::pretrained::minilm::{HEADS, LAYERS};
use crate::pretrained::paraphrase::{corpus, sentences};
use crate::random::{gaussian, seeded};
use crate::stats::Summary;

use super::sensitivity::{self, Keys, Sensitivity, Sink, row_rho};
use crate::pretrained::counterfactual::{Counterfactual, Target};

/// Sizes of the section's experiments.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// Sentences (from the corpus's start) whose layers are perturbed.
    pub local: usize,
    /// Step of the central difference, relative to `‖x‖`.
    pub h: f64,
}

/// The size the book reports.
pub const BOOK: Setup = Setup { local: 4, h: 1e-4 };

/// Perturbation sizes `ε` (relative to `‖x‖`).
pub const EPSILONS: [f64; 6] = [1e-3, 1e-2, 0.03, 0.1, 0.3, 1.0];

/// One head on one sentence.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct HeadStats {
    pub layer: usize,
    /// ρ(α, ‖αf‖), ρ(α, LOO), ρ(‖αf‖, LOO), every key.
    pub rho: [f64; 3],
    /// The same over keys that are not `[CLS]`, `[SEP]` or punctuation.
    pub rho_plain: [f64; 3],
    /// Mean over queries of the weight on `[CLS]`, `[SEP]` and punctuation.
    pub special_weight: f64,
    /// Their share of the carried norm, `Σ_{i, j special} ‖α_ij f_j‖ / Σ_{i, j} ‖α_ij f_j‖`.
    pub special_norm: f64,
    /// Their share of the tokens.
    pub special_tokens: f64,
    /// The comparison under every counterfactual, target and key set.
    pub sensitivity: Sensitivity,
}

/// Weight, carried norm and leave-one-out effect of every head of one run.
pub fn head_stats(model: Model, run: &Run) -> Vec<HeadStats> {
    let w = &model.minilm().weights;
    let n = run.n();
    let all: Vec<usize> = (0..n).collect();
    let plain: Vec<usize> = (0..n).filter(|&j| !is_special(&run.tokens[j])).collect();
    let special: Vec<usize> = (0..n).filter(|&j| is_special(&run.tokens[j])).collect();
    let mut out = Vec::new();
    for l in 0..LAYERS {
        for h in 0..HEADS {
            let a = &run.clean[l].weights[0][h];
            // f(x_j) = v_j W_O,hᵀ, (n, 384); o = α f
            let f = value_out(&w.layers[l], &run.clean[l].values[0][h], h);
            let o = a * &f;
            let norms = carried_norms(a, &f);
            let loo = DMatrix::from_fn(n, n, |i, j| {
                a[(i, j)] * (f.row(j) - o.row(i)).norm() / (1.0 - a[(i, j)])
            });
            let rho = |keys: &[usize]| {
                [
                    row_rho(a, &norms, keys),
                    row_rho(a, &loo, keys),
                    row_rho(&norms, &loo, keys),
                ]
            };
            let on = |m: &DMatrix<f64>| special.iter().map(|&j| m.column(j).sum()).sum::<f64>();
            out.push(HeadStats {
                layer: l,
                rho: rho(&all),
                rho_plain: rho(&plain),
                special_weight: on(a) / n as f64,
                special_norm: on(&norms) / norms.sum(),
                special_tokens: special.len() as f64 / n as f64,
                sensitivity: sensitivity::measure(
                    a,
                    &f,
                    &(&run.clean[l].input + &run.clean[l].attn),
                    &w.layers[l].attention_output.layer_norm,
                    &run.tokens,
                ),
            });
        }
    }
    out
}

/// The direction `z` of a move of a layer's input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Gaussian over every token.
    Spread,
    /// Gaussian on one word (token `1 + seed mod (n − 2)`), zero elsewhere.
    OneToken,
}

/// `err(ε)` for each layer of one run, `[layer][ε]`, moving along `direction`.
pub fn locality(
    model: Model,
    run: &Run,
    setup: Setup,
    seed: u64,
    direction: Direction,
) -> Vec<Vec<f64>> {
    let w = &model.minilm().weights;
    let n = run.n();
    (0..LAYERS)
        .map(|l| {
            let x = &run.clean[l].input;
            let mut z = gaussian(&mut seeded(seed * 10 + l as u64), n, x.ncols(), 1.0);
            if direction == Direction::OneToken {
                let t = 1 + seed as usize % (n - 2);
                for r in (0..n).filter(|&r| r != t) {
                    z.row_mut(r).fill(0.0);
                }
            }
            z *= x.norm() / z.norm();
            // variants x + hz, x − hz, x + ε_k z stacked: ((2 + K)·n, 384)
            let shifts: Vec<f64> = [setup.h, -setup.h].into_iter().chain(EPSILONS).collect();
            let mut stack = DMatrix::zeros(shifts.len() * n, x.ncols());
            for (k, s) in shifts.iter().enumerate() {
                stack.rows_mut(k * n, n).copy_from(&(x + &z * *s));
            }
            let p = layer_parts(&w.layers[l], &stack, n, &vec![Vec::new(); shifts.len()]);
            let y = |k: usize| p.output.rows(k * n, n).into_owned();
            let jz = (y(0) - y(1)) / (2.0 * setup.h);
            let clean = &run.clean[l].output;
            EPSILONS
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let actual = y(2 + k) - clean;
                    (&actual - &jz * *e).norm() / actual.norm()
                })
                .collect()
        })
        .collect()
}

/// What one model measures.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Side {
    /// Every head of every corpus sentence.
    pub heads: Vec<HeadStats>,
    /// `[sentence][layer][ε]`.
    pub locality: Vec<Vec<Vec<f64>>>,
    /// The same for a move of one word ([`Direction::OneToken`]).
    pub locality_token: Vec<Vec<Vec<f64>>>,
}

/// Everything the section reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    pub sides: ByModel<Side>,
}

impl Findings {
    pub fn run(setup: Setup) -> Findings {
        let side = |model: Model| {
            let rs = runs(model);
            Side {
                heads: rs.iter().flat_map(|r| head_stats(model, r)).collect(),
                locality: parallel::map(0..setup.local as u64, |s| {
                    locality(model, &rs[s as usize], setup, s, Direction::Spread)
                }),
                locality_token: parallel::map(0..setup.local as u64, |s| {
                    locality(model, &rs[s as usize], setup, s, Direction::OneToken)
                }),
            }
        };
        Findings {
            setup,
            sides: ByModel::run(side),
        }
    }

    pub fn side(&self, model: Model) -> &Side {
        self.sides.model(model)
    }

    /// Summary of `f` over heads and sentences of `model`, in `layer` or every layer.
    pub fn summary(&self, model: Model, layer: Option<usize>, f: fn(&HeadStats) -> f64) -> Summary {
        let xs: Vec<f64> = self
            .side(model)
            .heads
            .iter()
            .filter(|s| layer.is_none_or(|l| s.layer == l))
            .map(f)
            .collect();
        Summary::of(&xs)
    }

    /// `err(ε_k)` over sentences and layers of `model` (or one layer).
    pub fn error(&self, model: Model, layer: Option<usize>, k: usize) -> Summary {
        self.error_along(model, Direction::Spread, layer, k)
    }

    /// `err(ε_k)` along `direction`.
    pub fn error_along(
        &self,
        model: Model,
        direction: Direction,
        layer: Option<usize>,
        k: usize,
    ) -> Summary {
        let side = self.side(model);
        let runs = match direction {
            Direction::Spread => &side.locality,
            Direction::OneToken => &side.locality_token,
        };
        let xs: Vec<f64> = runs
            .iter()
            .flat_map(|s| {
                s.iter()
                    .enumerate()
                    .filter(|(l, _)| layer.is_none_or(|x| x == *l))
                    .map(|(_, e)| e[k])
            })
            .collect();
        Summary::of(&xs)
    }
}

/// The book-size findings, computed once per process.
pub fn book() -> &'static Findings {
    static FINDINGS: OnceLock<Findings> = OnceLock::new();
    FINDINGS.get_or_init(|| cache::load_or_run(module_path!(), &BOOK, || Findings::run(BOOK)))
}

const RHO: [(&str, usize); 3] = [("weight_norm", 0), ("weight_loo", 1), ("norm_loo", 2)];

/// The numbers the section quotes.
pub fn measures() -> Vec<Measure> {
    let f = book();
    let mut m = vec![
        Measure::new("lm_local", f.setup.local.to_string()),
        Measure::new("lm_heads", (LAYERS * HEADS).to_string()),
        Measure::new("lm_layers", LAYERS.to_string()),
        Measure::new("lm_sentences", sentences(&corpus()).len().to_string()),
    ];
    m.push(Measure::new("lm_err_table", error_table(f)));
    m.push(Measure::new("lm_sensitivity_table", sensitivity_table(f)));
    for (key, g) in [
        (
            "weight",
            (|s: &HeadStats| s.sensitivity.sink_weight) as fn(&HeadStats) -> f64,
        ),
        ("norm", |s: &HeadStats| s.sensitivity.sink_norm),
    ] {
        m.push(Measure::new(
            format!("lm_trained_sink_{key}"),
            pm(f.summary(Model::Trained, None, g), 2),
        ));
    }
    m.push(Measure::new(
        "lm_err_token_small",
        pm(
            f.error_along(Model::Trained, Direction::OneToken, None, 1),
            3,
        ),
    ));
    m.push(Measure::new(
        "lm_err_token_large",
        pm(
            f.error_along(
                Model::Trained,
                Direction::OneToken,
                None,
                EPSILONS.len() - 1,
            ),
            2,
        ),
    ));
    for kind in Sink::ALL {
        let key = kind
            .name()
            .trim_matches(['[', ']'])
            .replace("a word", "word")
            .to_lowercase();
        m.push(Measure::new(
            format!("lm_trained_sink_{key}"),
            fixed(sink_share(f, Model::Trained, kind), 2),
        ));
    }
    for model in Model::BOTH {
        let name = model.name();
        for (key, r) in RHO {
            let all: fn(&HeadStats) -> f64 = [
                |s: &HeadStats| s.rho[0],
                |s: &HeadStats| s.rho[1],
                |s: &HeadStats| s.rho[2],
            ][r];
            m.push(Measure::new(
                format!("lm_{name}_rho_{key}"),
                pm(f.summary(model, None, all), 2),
            ));
        }
        m.push(Measure::new(
            format!("lm_{name}_special_weight"),
            pm(f.summary(model, None, |s| s.special_weight), 2),
        ));
        m.push(Measure::new(
            format!("lm_{name}_special_norm"),
            pm(f.summary(model, None, |s| s.special_norm), 2),
        ));
        m.push(Measure::new(
            format!("lm_{name}_rho_fnorm"),
            pm(
                f.summary(model, None, |s| s.sensitivity.rho_weight_fnorm),
                2,
            ),
        ));
        m.push(Measure::new(
            format!("lm_{name}_special_tokens"),
            fixed(f.summary(model, None, |s| s.special_tokens).mean, 2),
        ));
    }
    m
}

/// The weight-versus-norm comparison under every choice, trained and random, as a table.
fn sensitivity_table(f: &Findings) -> String {
    let mut rows = Vec::new();
    for target in Target::ALL {
        for cf in Counterfactual::ALL {
            for keys in Keys::ALL {
                let [w, n] = cell(f, Model::Trained, target, cf, keys);
                let [rw, rn] = cell(f, Model::Random, target, cf, keys);
                let t = match target {
                    Target::Head => "head",
                    Target::Block => "block",
                };
                let k = match keys {
                    Keys::All => "all",
                    Keys::WithoutSink => "no sink",
                };
                rows.push(vec![
                    cf.name().to_string(),
                    t.to_string(),
                    k.to_string(),
                    fixed(w, 2),
                    fixed(n, 2),
                    fixed(n - w, 2),
                    fixed(rn - rw, 2),
                ]);
            }
        }
    }
    table(
        &[
            "counterfactual",
            "target",
            "keys",
            "ρ(α, E)",
            "ρ(‖αf‖, E)",
            "gap",
            "gap, random",
        ],
        &rows,
    )
}

/// The first-order prediction's relative error per ε, trained and random, as a table.
fn error_table(f: &Findings) -> String {
    let rows: Vec<Vec<String>> = EPSILONS
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let mut row = vec![format!("{e}")];
            row.extend(Model::BOTH.map(|model| pm(f.error(model, None, k), 3)));
            row
        })
        .collect();
    table(&["ε", "trained", "random"], &rows)
}

/// Mean over heads × sentences of `model` of `g`.
pub fn mean_of(f: &Findings, model: Model, g: impl Fn(&HeadStats) -> f64) -> f64 {
    let xs: Vec<f64> = f.side(model).heads.iter().map(g).collect();
    crate::stats::mean(&xs)
}

/// Mean `[ρ(α, E), ρ(‖αf‖, E)]` of one choice.
pub fn cell(
    f: &Findings,
    model: Model,
    target: Target,
    cf: Counterfactual,
    keys: Keys,
) -> [f64; 2] {
    [0, 1].map(|k| mean_of(f, model, |s| s.sensitivity.rho(target, cf, keys)[k]))
}

/// Share of heads × sentences of `model` whose sink is of kind `kind`.
pub fn sink_share(f: &Findings, model: Model, kind: Sink) -> f64 {
    mean_of(f, model, |s| {
        f64::from(u8::from(s.sensitivity.sink == kind))
    })
}
