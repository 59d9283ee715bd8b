//! GGUF's block quantisations, dequantised exactly as the GGUF readers do
//! (every weight in f32).
//!
//! ```text
//! Q4_1 block, 20 bytes → 32 weights:  d: f16 | m: f16 | qs: 16 bytes
//!   w_j      = d·(qs[j] & 0xF) + m      j < 16
//!   w_{j+16} = d·(qs[j] >> 4)  + m
//! Q8_0 block, 34 bytes → 32 weights:  d: f16 | q: 32 × i8
//!   w_j = d·q_j
//! ```
//!
//! A GGUF matrix with `in` inputs stores each output row as `in / 32`
//! consecutive blocks.
//!
//! Introduced in chapter 1.

use half::f16;
use nalgebra::DMatrix;

/// Weights per block (both formats).
pub const BLOCK_WEIGHTS: usize = 32;

/// A block quantisation of the GGUF format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    /// 4 bits, a scale and a minimum per block: the model's layers.
    Q4_1,
    /// 8 bits and a scale per block: the token embedding.
    Q8_0,
}

impl Quant {
    /// Bytes per block of 32 weights.
    pub const fn block_bytes(self) -> usize {
        match self {
            Quant::Q4_1 => 20,
            Quant::Q8_0 => 34,
        }
    }

    /// The 32 weights of one block.
    ///
    /// # Panics
    /// If `block` is not [`Quant::block_bytes`] long.
    ///
    /// ```
    /// use attention_geometry::pretrained::smollm2::quant::Quant;
    /// use half::f16;
    /// let mut block = [0u8; 20];
    /// block[..2].copy_from_slice(&f16::from_f32(0.5).to_le_bytes());
    /// block[2..4].copy_from_slice(&f16::from_f32(-1.0).to_le_bytes());
    /// block[4] = 0x3a; // q_0 = 10, q_16 = 3
    /// let w = Quant::Q4_1.block(&block);
    /// assert_eq!((w[0], w[16], w[1]), (4.0, 0.5, -1.0));
    /// ```
    pub fn block(self, block: &[u8]) -> [f32; BLOCK_WEIGHTS] {
        assert_eq!(
            block.len(),
            self.block_bytes(),
            "{self:?}: a block is {} bytes, got {}",
            self.block_bytes(),
            block.len()
        );
        let d = f16::from_le_bytes([block[0], block[1]]).to_f32();
        let mut w = [0.0; BLOCK_WEIGHTS];
        match self {
            Quant::Q4_1 => {
                let m = f16::from_le_bytes([block[2], block[3]]).to_f32();
                for (j, &byte) in block[4..].iter().enumerate() {
                    w[j] = d * f32::from(byte & 0x0f) + m;
                    w[j + 16] = d * f32::from(byte >> 4) + m;
                }
            }
            Quant::Q8_0 => {
                for (w, &q) in w.iter_mut().zip(&block[2..]) {
                    *w = d * f32::from(q as i8);
                }
            }
        }
        w
    }

    /// The bytes of one GGUF row of `inputs` weights (a whole number of blocks).
    pub const fn row_bytes(self, inputs: usize) -> usize {
        inputs / BLOCK_WEIGHTS * self.block_bytes()
    }

    /// A matrix stored as `outputs` rows of `inputs` weights, in the book's
    /// `(in, out)` layout: column `o` is GGUF row `o`, so `y = x W`.
    ///
    /// # Shapes
    /// `bytes: outputs · inputs / 32 · block_bytes` → `(inputs, outputs)`.
    ///
    /// # Panics
    /// If `inputs` is not a multiple of 32 or the byte count does not match.
    pub fn matrix(self, bytes: &[u8], inputs: usize, outputs: usize) -> DMatrix<f32> {
        assert_eq!(
            inputs % BLOCK_WEIGHTS,
            0,
            "{self:?}: {inputs} inputs is not a whole number of blocks"
        );
        let per_row = self.row_bytes(inputs);
        assert_eq!(
            bytes.len(),
            outputs * per_row,
            "{self:?}: {} bytes for {outputs} rows of {inputs}",
            bytes.len()
        );
        // column-major (in, out): GGUF's rows, one after another
        let data = bytes
            .chunks_exact(self.block_bytes())
            .flat_map(|b| self.block(b))
            .collect();
        DMatrix::from_vec(inputs, outputs, data)
    }
}
