//! A quantised matrix kept as its GGUF blocks and multiplied by a vector
//! without being dequantised to memory: the decode step's products.
//!
//! ```text
//! y_o = Σ_i x_i W[i, o]                    W[:, o] is GGUF row o, blocks b of 32
//!     = Σ_b d_b Σ_j x_{32b+j} q_{bj} + m_b s_b      Q4_1, s_b = Σ_j x_{32b+j}
//!     = Σ_b d_b Σ_j x_{32b+j} q_{bj}                Q8_0
//! ```
//!
//! One token's pass multiplies one row by every weight once, so it is bound
//! by the bytes it reads. The f32 copy is 4 bytes a weight; the blocks are
//! 0.625 (Q4_1) and 1.06 (Q8_0). Each block is expanded into registers
//! (16 lanes of nibbles or 32 of bytes, as f32), multiplied with the
//! activation and scaled once; the minimum's term needs only the block sums
//! `s_b`, taken once per product. The kernels are written in AVX-512 and in
//! AVX2 intrinsics (`x86`), one picked at run time by what the processor has
//! ([`Units`]), and as plain loops for any other. The activations stay f32,
//! so the product equals the f32 copy's up to the rounding of its sums (over
//! 64 decode steps, within 1e-4 of the largest logit: the test in
//! `tests/models/reference.rs`).
//!
//! Introduced in chapter 1.

use nalgebra::{DMatrix, DVector};

#[cfg(target_arch = "x86_64")]
mod x86;

use super::linear::Linear;
use super::quant::{BLOCK_WEIGHTS, Quant};

/// The vector units a product runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    /// Plain loops, any processor.
    Portable,
    /// x86-64 AVX2 with FMA and F16C: 8 lanes.
    Avx2,
    /// x86-64 AVX-512 F and BW with FMA and F16C: 16 lanes.
    Avx512,
}

impl Units {
    /// Every kind, slowest first.
    pub const ALL: [Units; 3] = [Units::Portable, Units::Avx2, Units::Avx512];

    /// Whether this processor has them (checked at run time).
    pub fn available(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("avx2") && has!("fma") && has!("f16c");
            match self {
                Units::Portable => true,
                Units::Avx2 => avx2,
                Units::Avx512 => avx2 && has!("avx512f") && has!("avx512bw"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Units::Portable
        }
    }

    /// The fastest units this processor has (found once, then remembered).
    pub fn best() -> Units {
        static BEST: std::sync::OnceLock<Units> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            *Units::ALL
                .iter()
                .rev()
                .find(|u| u.available())
                .unwrap_or(&Units::Portable)
        })
    }
}

/// An `(inputs, outputs)` matrix as `outputs` rows of GGUF blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct Packed {
    quant: Quant,
    inputs: usize,
    outputs: usize,
    bytes: Vec<u8>,
}

impl Packed {
    /// The blocks of an `(inputs, outputs)` matrix, GGUF row `o` (the book's
    /// column `o`) after row `o − 1`.
    ///
    /// # Panics
    /// If `inputs` is not a multiple of 32 or the byte count does not match.
    pub fn new(quant: Quant, bytes: Vec<u8>, inputs: usize, outputs: usize) -> Packed {
        assert!(
            inputs.is_multiple_of(BLOCK_WEIGHTS),
            "{quant:?}: {inputs} inputs is not a whole number of blocks"
        );
        assert_eq!(
            bytes.len(),
            outputs * quant.row_bytes(inputs),
            "{quant:?}: {} bytes for {outputs} rows of {inputs}",
            bytes.len()
        );
        Packed {
            quant,
            inputs,
            outputs,
            bytes,
        }
    }

    /// Every weight in f32, `(inputs, outputs)`: the f32 path's matrix.
    pub fn dequantise(&self) -> DMatrix<f32> {
        self.quant.matrix(&self.bytes, self.inputs, self.outputs)
    }

    /// The bytes one product reads.
    pub fn bytes(&self) -> usize {
        self.bytes.len()
    }

    /// `y = x W` for one row `x`, on the best [`Units`] the processor has.
    ///
    /// # Shapes
    /// `x: inputs`, `y: outputs`.
    ///
    /// # Panics
    /// If a length does not match.
    pub fn times(&self, x: &[f32], y: &mut [f32]) {
        self.times_on(Units::best(), x, y)
    }

    /// [`Packed::times`] on the given units.
    ///
    /// # Panics
    /// If a length does not match, or the processor lacks the units.
    pub fn times_on(&self, units: Units, x: &[f32], y: &mut [f32]) {
        assert!(
            x.len() == self.inputs && y.len() == self.outputs,
            "times: x has {}, y {}; the matrix is ({}, {})",
            x.len(),
            y.len(),
            self.inputs,
            self.outputs
        );
        assert!(units.available(), "times: the processor has no {units:?}");
        // the block sums s_b, for Q4_1's minimum
        let sums: Vec<f32> = x
            .chunks_exact(BLOCK_WEIGHTS)
            .map(|b| b.iter().sum())
            .collect();
        let q = self.quant;
        // one output per row of blocks, each row read from start to end
        let mut each = |kernel: &dyn Fn(&[u8]) -> f32| {
            let rows = self.bytes.chunks_exact(q.row_bytes(self.inputs));
            for (y, row) in y.iter_mut().zip(rows) {
                *y = kernel(row);
            }
        };
        match units {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the processor has the units (asserted above).
            Units::Avx512 => each(&|row| unsafe { x86::avx512(q, x, &sums, row) }),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Units::Avx2 => each(&|row| unsafe { x86::avx2(q, x, &sums, row) }),
            _ => each(&|row| portable(q, x, &sums, row)),
        }
    }
}

impl Linear for Packed {
    fn project(&self, x: &DMatrix<f32>) -> DMatrix<f32> {
        let mut y = DMatrix::zeros(self.outputs, x.nrows());
        for (i, mut column) in y.column_iter_mut().enumerate() {
            let row: Vec<f32> = x.row(i).iter().copied().collect();
            self.times(&row, column.as_mut_slice());
        }
        y.transpose()
    }

    fn column(&self, o: usize) -> DVector<f32> {
        let per_row = self.quant.row_bytes(self.inputs);
        let row = &self.bytes[o * per_row..][..per_row];
        self.quant
            .matrix(row, self.inputs, 1)
            .column(0)
            .into_owned()
    }

    fn shape(&self) -> (usize, usize) {
        (self.inputs, self.outputs)
    }
}

/// Bytes per block.
const Q4_1_BYTES: usize = Quant::Q4_1.block_bytes();
const Q8_0_BYTES: usize = Quant::Q8_0.block_bytes();

/// The product of `x` with one row of blocks, in plain loops (16 or 32
/// lanes, which the compiler may vectorise).
fn portable(quant: Quant, x: &[f32], sums: &[f32], row: &[u8]) -> f32 {
    const HALF: usize = BLOCK_WEIGHTS / 2;
    let blocks = x
        .chunks_exact(BLOCK_WEIGHTS)
        .zip(row.chunks_exact(quant.block_bytes()));
    let mut acc = [0.0f32; BLOCK_WEIGHTS];
    let mut minimum = 0.0f32;
    for ((x, block), s) in blocks.zip(sums) {
        let d = f16_bits(block[0], block[1]);
        match quant {
            Quant::Q4_1 => {
                // weights j and j + 16 from byte j's two nibbles
                let qs = &block[4..];
                for j in 0..HALF {
                    acc[j] += x[j] * f32::from(qs[j] & 0x0f) * d;
                    acc[j + HALF] += x[j + HALF] * f32::from(qs[j] >> 4) * d;
                }
                minimum += f16_bits(block[2], block[3]) * s;
            }
            Quant::Q8_0 => {
                for (j, &q) in block[2..].iter().enumerate() {
                    acc[j] += x[j] * f32::from(q as i8) * d;
                }
            }
        }
    }
    acc.iter().sum::<f32>() + minimum
}

/// The f32 value of a little-endian f16 (finite), exactly: its exponent and
/// mantissa placed in an f32 and scaled by 2¹¹², which also maps subnormals.
///
/// ```text
/// bits e·m (5, 10) → f32 bits (e·m) << 13 = 2^(e−127)·1.m;  × 2^112 = 2^(e−15)·1.m
/// ```
#[inline(always)]
pub fn f16_bits(low: u8, high: u8) -> f32 {
    let h = u32::from(u16::from_le_bytes([low, high]));
    let magnitude = f32::from_bits((h & 0x7fff) << 13) * f32::from_bits(0x7780_0000);
    f32::from_bits(magnitude.to_bits() | (h & 0x8000) << 16)
}
