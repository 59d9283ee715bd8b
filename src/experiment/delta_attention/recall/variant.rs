//! The ways of building the layers that the section varies.

use crate::mixer::{GateInit, Layer, Mixer, OutNorm};

/// One way of building every mixer layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Variant {
    /// fla's gate initialisation, no output norm: the book's first setting.
    Book,
    /// Gates initialised for the sequences at hand (kept near 1).
    GatesNearOne,
    /// An RMSNorm on every recurrent mixer's output, as fla's layers have.
    OutputNorm,
}

impl Variant {
    /// All three, the book's first.
    pub const ALL: [Variant; 3] = [Variant::Book, Variant::GatesNearOne, Variant::OutputNorm];

    /// Its position in [`Variant::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The choice's name, as the claim cards print it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Book => "gates: fla's initialisation; output: no norm",
            Variant::GatesNearOne => "gates: initialised near 1 for the sequence length",
            Variant::OutputNorm => "output: RMSNorm on the mixer output (as fla's layers)",
        }
    }

    /// The layer it builds, `horizon` the longest sequence.
    pub fn layer(self, horizon: usize) -> Layer {
        match self {
            Variant::Book => Layer::BOOK,
            Variant::GatesNearOne => Layer {
                gates: GateInit::Horizon(horizon),
                norm: OutNorm::Plain,
            },
            Variant::OutputNorm => Layer {
                gates: GateInit::Fla,
                norm: OutNorm::Rms,
            },
        }
    }

    /// The indices into `Mixer::ALL` it trains: only the mixers it changes.
    pub fn mixers(self) -> Vec<usize> {
        let changes = |m: Mixer| match self {
            Variant::Book => true,
            Variant::GatesNearOne => m.decays(),
            Variant::OutputNorm => m != Mixer::Softmax,
        };
        (0..Mixer::ALL.len())
            .filter(|&m| changes(Mixer::ALL[m]))
            .collect()
    }
}
