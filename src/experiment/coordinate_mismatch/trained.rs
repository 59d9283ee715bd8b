//! Chapter 1, *In a trained transformer*: the chapter's questions asked of
//! the heads of a pretrained encoder (all-MiniLM-L6-v2) and decoder
//! (SmolLM2-135M-Instruct). The weights: how symmetric each `W_QK` is and
//! how its symmetric part's eigenvalue mass splits by sign, against random
//! Gaussian heads of the same shapes and the theory `½ + 1/(2d)`; the
//! activations ([`super::trained_text`]): raw similarity against score on
//! real hidden states. Computed once per process.

use super::trained_text::{self, Text};
use crate::pretrained::folded;
use crate::pretrained::heads::{Model, Survey};
use crate::pretrained::minilm::Minilm;
use crate::pretrained::smollm2::SmolLm2;

/// What the section measures, and how much.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// Layers of random Gaussian heads drawn per model (all heads of a random
    /// layer are i.i.d., so a few layers give the baseline's spread).
    pub random_layers: usize,
    /// Seed of the first random layer.
    pub seed: u64,
    /// Neighbours compared by the k-NN overlap.
    pub k: usize,
}

/// The setting the book reports.
pub const BOOK: Setup = Setup {
    random_layers: 6,
    seed: 2025,
    k: 3,
};

/// One model's heads, trained and random.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Weights {
    pub model: Model,
    pub trained: Survey,
    pub random: Survey,
    /// The trained heads with the preceding norm's gain (and MiniLM's biases) folded in.
    pub folded: Survey,
}

impl Weights {
    /// Survey `model`'s heads and `setup.random_layers` random layers shaped like them.
    ///
    /// # Panics
    /// If the model's files are missing or corrupted (the loader's message).
    pub fn run(model: Model, setup: Setup) -> Weights {
        let layers = model.shared();
        let folded = match model {
            Model::Minilm => folded::minilm_folded(Minilm::shared()),
            Model::Smollm2 => folded::smollm2_folded(SmolLm2::shared()),
        };
        Weights {
            model,
            trained: Survey::of(&layers),
            random: Survey::random(&layers[0], setup.random_layers, setup.seed),
            folded: Survey::of(&folded),
        }
    }

    /// `½ + 1/(2d)`: the expected symmetric share of a random head.
    pub fn theory(&self) -> f64 {
        0.5 + 0.5 / self.trained.d as f64
    }

    /// Whether every head, trained and random, has exactly `r` negative eigenvalues.
    pub fn inertia_holds(&self) -> bool {
        let r = self.trained.r;
        [&self.trained, &self.random]
            .iter()
            .all(|s| s.heads.iter().flatten().all(|g| g.negative_count == r))
    }
}

/// Everything the section reports.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Findings {
    pub setup: Setup,
    /// MiniLM, then SmolLM2.
    pub weights: Vec<Weights>,
    /// The encoder on the corpus.
    pub text: Text,
    /// SmolLM2's query heads and key/value heads per layer.
    pub smollm2_heads: (usize, usize),
}

impl Findings {
    /// Run the section's experiments.
    pub fn run(setup: Setup) -> Findings {
        Findings {
            setup,
            weights: Model::ALL.iter().map(|&m| Weights::run(m, setup)).collect(),
            text: trained_text::run(setup.k, setup.seed),
            smollm2_heads: {
                let c = crate::pretrained::smollm2::SmolLm2::shared().config;
                (c.n_head, c.n_head_kv)
            },
        }
    }

    /// One model's weights.
    pub fn weights(&self, model: Model) -> &Weights {
        self.weights
            .iter()
            .find(|w| w.model == model)
            .expect("both models are surveyed")
    }
}

findings! {
    /// The findings, computed once per process.
    pub fn book() -> Findings = cached(BOOK => Findings::run(BOOK))
}
