//! A trained arm of chapter 7's MQAR runs: a mixer and how its gates start.

use serde::{Deserialize, Serialize};

use crate::mixer::Mixer;
use crate::mixer::layer::GateInit;

/// A mixer's name as the book writes it.
pub fn title(m: Mixer) -> &'static str {
    match m {
        Mixer::Softmax => "softmax attention",
        Mixer::Linear => "linear attention",
        Mixer::DeltaNet => "DeltaNet",
        Mixer::GatedDeltaNet => "Gated DeltaNet",
        Mixer::Kda => "KDA",
        Mixer::Normalised => "linear attention, φ and normaliser",
        Mixer::Unnormalised => "linear attention, φ without normaliser",
    }
}

/// A trained arm: a mixer and how its gates start (`Fla` for the mixers without gates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arm {
    #[serde(with = "crate::mixer::stack::mixer_name")]
    pub mixer: Mixer,
    pub gates: GateInit,
}

impl Arm {
    /// Every mixer of `mixers`, the gated ones under both gate
    /// initialisations (horizon `len`), in that order.
    pub fn of(mixers: &[Mixer], len: usize) -> Vec<Arm> {
        let mut arms = Vec::new();
        for &mixer in mixers {
            arms.push(Arm {
                mixer,
                gates: GateInit::Fla,
            });
            if mixer.decays() {
                arms.push(Arm {
                    mixer,
                    gates: GateInit::Horizon(len),
                });
            }
        }
        arms
    }

    /// The name used in the findings, measures and figure: `gdn_fla`, `kda_horizon`, `softmax`, …
    pub fn name(&self) -> String {
        match (self.mixer.decays(), self.gates) {
            (false, _) => self.mixer.name().to_string(),
            (true, GateInit::Fla) => format!("{}_fla", self.mixer.name()),
            (true, GateInit::Horizon(_)) => format!("{}_horizon", self.mixer.name()),
        }
    }
}
