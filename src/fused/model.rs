//! The whole model's tensors in the fused pass's `f32` layout: the embedding
//! row-major, each block as [`weights::Weights`], the readout as `nalgebra`
//! stores it. The same layout holds a gradient, and the trainer's parameters
//! and moments ([`super::trainer`]).
//!
//! ```text
//! emb      [vocab, d] row-major     (a token's row is contiguous)
//! blocks   weights::Weights each
//! norm_f   [d]
//! w_r      [d, vocab] column-major
//! ```
//! Introduced in chapter 7.

use super::weights::{self, fill, fill_rows, numbers};
use crate::mixer::stack::Stack;

/// The model's tensors in `f32`, laid out for the pass.
#[derive(Clone, Debug)]
pub struct Model {
    pub(super) d: usize,
    pub(super) vocab: usize,
    /// `[vocab, d]` row-major.
    pub(super) emb: Vec<f32>,
    pub(super) blocks: Vec<weights::Weights>,
    pub(super) norm_f: Vec<f32>,
    /// `[d, vocab]` column-major.
    pub(super) w_r: Vec<f32>,
}

impl Model {
    /// `m`'s tensors. Every entry point starts here, and so the first of them
    /// sets the allocator up (`keep_freed_memory`).
    pub fn of(m: &Stack) -> Self {
        super::keep_freed_memory();
        Self {
            d: m.config.d,
            vocab: m.config.vocab,
            emb: weights::rows(&m.emb),
            blocks: m
                .blocks
                .iter()
                .map(|b| weights::Weights::of(b, m.config.mixer))
                .collect(),
            norm_f: numbers(&m.norm_f),
            w_r: numbers(&m.w_r),
        }
    }

    /// The same shapes, all zero.
    pub fn zeros(&self) -> Self {
        let mut z = self.clone();
        z.clear();
        z
    }

    /// Every number set to zero (a gradient about to be summed again).
    pub fn clear(&mut self) {
        self.tensors_mut().into_iter().for_each(|t| t.fill(0.0));
    }

    /// These numbers as a [`Stack`] shaped like `like` (its configuration and
    /// gates kept): the model itself, or the gradient it holds.
    pub fn to_stack(&self, like: &Stack) -> Stack {
        let mut s = like.clone();
        fill_rows(&mut s.emb, &self.emb);
        fill(&mut s.norm_f, &self.norm_f);
        fill(&mut s.w_r, &self.w_r);
        for (sb, b) in s.blocks.iter_mut().zip(&self.blocks) {
            *sb = b.to_block(sb);
        }
        s
    }

    /// Every tensor, in one fixed order.
    pub fn tensors(&self) -> Vec<&[f32]> {
        let mut all: Vec<&[f32]> = vec![&self.emb];
        all.extend(self.blocks.iter().flat_map(|b| b.tensors()));
        all.extend([&self.norm_f[..], &self.w_r[..]]);
        all
    }

    /// The same tensors, mutable, in the same order.
    pub fn tensors_mut(&mut self) -> Vec<&mut [f32]> {
        let mut all: Vec<&mut [f32]> = vec![&mut self.emb];
        all.extend(self.blocks.iter_mut().flat_map(|b| b.tensors_mut()));
        all.extend([&mut self.norm_f[..], &mut self.w_r[..]]);
        all
    }
}
