//! One colour per concept, the same in every figure: a name for each thing
//! the book compares, drawn from the Okabe–Ito hues of [`PALETTE`].
//!
//! Where two concepts never share a figure they may share a hue (an untied
//! head is the trained transformer's head: both blue).

use plotters::style::RGBColor;

use super::style::PALETTE;
use crate::experiment::coordinate_mismatch::Coupling;
use crate::mixer::Mixer;

/// A trained model or head.
pub const TRAINED: RGBColor = PALETTE[0];
/// Its random-weight baseline (grey: a control, not a contender).
pub const RANDOM: RGBColor = PALETTE[6];
/// `Model::BOTH`'s colours, in its order: trained, random.
pub const MODELS: [RGBColor; 2] = [TRAINED, RANDOM];

/// Untied projections, `W_Q ≠ W_K` (the standard head).
pub const UNTIED: RGBColor = PALETTE[0];
/// Tied projections, `W_Q = W_K`.
pub const TIED: RGBColor = PALETTE[1];
/// Mimetic initialisation, `W_Q W_Kᵀ ≈ I` at the start.
pub const MIMETIC: RGBColor = PALETTE[2];
/// The identity: no projection, raw dot products.
pub const IDENTITY: RGBColor = PALETTE[3];

/// The colour of a coupling of `W_Q` and `W_K`.
pub fn coupling(c: Coupling) -> RGBColor {
    match c {
        Coupling::Identity => IDENTITY,
        Coupling::Tied => TIED,
        Coupling::Untied => UNTIED,
    }
}

/// Softmax attention.
pub const SOFTMAX: RGBColor = PALETTE[0];
/// Linear attention (additive writes).
pub const LINEAR: RGBColor = PALETTE[1];
/// DeltaNet (delta-rule writes).
pub const DELTANET: RGBColor = PALETTE[2];
/// Gated DeltaNet (one decay per head).
pub const GATED_DELTANET: RGBColor = PALETTE[3];
/// KDA (one decay per key channel).
pub const KDA: RGBColor = PALETTE[4];

/// The colour of a token mixer (chapter 7).
pub fn mixer(m: Mixer) -> RGBColor {
    match m {
        Mixer::Softmax => SOFTMAX,
        Mixer::Linear => LINEAR,
        Mixer::DeltaNet => DELTANET,
        Mixer::GatedDeltaNet => GATED_DELTANET,
        Mixer::Kda => KDA,
        // Zoology's linear attention, with and without its normaliser: one
        // hue; a figure that draws both draws the second lighter
        Mixer::Normalised | Mixer::Unnormalised => PALETTE[5],
    }
}

/// Chapter 5's trained architectures, in the order of
/// `experiment::fixed_points::trained`: tied head, tied head + residual, two
/// tied heads, two tied layers, untied head, two bare tied heads (control).
pub const ARCHITECTURES: [RGBColor; 6] =
    [TIED, PALETTE[4], PALETTE[2], PALETTE[3], UNTIED, PALETTE[5]];

/// Queries `q = x W_Q` (the diagrams of the ideas).
pub const QUERY: RGBColor = PALETTE[0];
/// Keys `k = x W_K`.
pub const KEY: RGBColor = PALETTE[1];
/// Values `v = x W_V`, and what they carry, `‖α_ij v_j‖`.
pub const VALUE: RGBColor = PALETTE[2];
/// Attention weight `α_ij`: where Q and K place weight.
pub const WEIGHT: RGBColor = PALETTE[4];
/// The heads `t = 1, 2, 3` of chapter 3's diagram.
pub const HEADS: [RGBColor; 3] = [PALETTE[3], PALETTE[4], PALETTE[5]];
/// A composed path of arrows through the layers (chapter 4's diagram).
pub const PATH: RGBColor = PALETTE[1];
/// The input-injected weight-tied layer (chapter 5; third of its variants).
pub const INJECTED: RGBColor = PALETTE[2];
