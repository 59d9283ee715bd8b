//! `y = x W` for the decoder's `(in, out)` weights, whose columns are
//! contiguous.
//!
//! ```text
//! y[i, o] = x[i, :] · W[:, o]        n ≤ 8 rows: one pass over W, dot products
//!                                    in blocks of 4 rows by 2 columns
//! y = x W                            more rows: nalgebra's blocked product
//! ```
//!
//! A blocked product first copies (packs) W, which pays off only when many
//! rows share the copy; for a short prompt or one generated token, reading W's
//! columns once and taking each row's dot product with them is several times
//! faster. Dot products are compiled for AVX2 and FMA when the processor has
//! them (checked at run time).
//!
//! Introduced in chapter 1.

use nalgebra::{DMatrix, DVector};

/// A weight matrix `W: (in, out)` that the forward pass multiplies rows by:
/// the f32 matrix ([`project`]) or the GGUF blocks
/// ([`Packed`](super::packed::Packed)).
pub trait Linear {
    /// `x W`.
    ///
    /// # Shapes
    /// `x: (n, in)` → `(n, out)`.
    fn project(&self, x: &DMatrix<f32>) -> DMatrix<f32>;

    /// Column `o` of W, `(in)`: token `o`'s embedding when W is the embedding.
    fn column(&self, o: usize) -> DVector<f32>;

    /// `(in, out)`.
    fn shape(&self) -> (usize, usize);
}

impl Linear for DMatrix<f32> {
    fn project(&self, x: &DMatrix<f32>) -> DMatrix<f32> {
        project(x, self)
    }

    fn column(&self, o: usize) -> DVector<f32> {
        DMatrix::column(self, o).into_owned()
    }

    fn shape(&self) -> (usize, usize) {
        DMatrix::shape(self)
    }
}

/// Up to this many rows go through dot products.
pub const DOT_ROWS: usize = 8;

/// `x W`.
///
/// # Shapes
/// `x: (n, in)`, `w: (in, out)` → `(n, out)`.
///
/// # Panics
/// If `x` does not have `in` columns.
pub fn project(x: &DMatrix<f32>, w: &DMatrix<f32>) -> DMatrix<f32> {
    let (n, k) = x.shape();
    assert_eq!(
        k,
        w.nrows(),
        "project: x is {:?}, W is {:?}",
        x.shape(),
        w.shape()
    );
    if n > DOT_ROWS {
        return x * w;
    }
    // (in, n): each row of x contiguous, as each column of W is
    let xt = x.transpose();
    let mut y = DMatrix::zeros(n, w.ncols());
    dots(xt.as_slice(), w.as_slice(), k, y.as_mut_slice());
    y
}

/// Rows and columns of one block of dot products, and the lanes of a vector.
const ROWS: usize = 4;
const COLS: usize = 2;
const LANES: usize = 8;

/// `y[o·n + i] = x_i · w_o` for the `n` rows `x_i` and the columns `w_o`
/// of length `k`: blocks of 4 rows by 2 columns, so that each vector loaded
/// serves two or four multiply-adds.
fn dots(x: &[f32], w: &[f32], k: usize, y: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        // SAFETY: the processor supports AVX2 and FMA, checked on the line above.
        return unsafe { dots_avx2(x, w, k, y) };
    }
    dots_loop::<false>(x, w, k, y)
}

/// [`dots_loop`] compiled for AVX2 and FMA.
///
/// # Safety
/// The processor must support AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn dots_avx2(x: &[f32], w: &[f32], k: usize, y: &mut [f32]) {
    dots_loop::<true>(x, w, k, y)
}

#[inline(always)]
fn dots_loop<const FMA: bool>(x: &[f32], w: &[f32], k: usize, y: &mut [f32]) {
    let (n, out) = (x.len() / k, w.len() / k);
    if !k.is_multiple_of(LANES) || !out.is_multiple_of(COLS) {
        // no block fits: one plain dot product per entry
        for (o, column) in w.chunks_exact(k).enumerate() {
            for (i, row) in x.chunks_exact(k).enumerate() {
                y[o * n + i] = row.iter().zip(column).map(|(a, b)| a * b).sum();
            }
        }
        return;
    }
    for (c, columns) in w.chunks_exact(COLS * k).enumerate() {
        let mut write = |i: usize, sums: [f32; COLS]| {
            for (j, sum) in sums.into_iter().enumerate() {
                y[(c * COLS + j) * n + i] = sum;
            }
        };
        // blocks of four rows, then the rows left over one by one
        let whole = n / ROWS * ROWS;
        for (b, rows) in x[..whole * k].chunks_exact(ROWS * k).enumerate() {
            for (r, sums) in block::<FMA, ROWS>(rows, columns, k).into_iter().enumerate() {
                write(b * ROWS + r, sums);
            }
        }
        for (i, row) in x.chunks_exact(k).enumerate().skip(whole) {
            write(i, block::<FMA, 1>(row, columns, k)[0]);
        }
    }
}

/// The `R × 2` dot products of `R` rows and 2 columns, each of length `k`.
#[inline(always)]
fn block<const FMA: bool, const R: usize>(
    rows: &[f32],
    columns: &[f32],
    k: usize,
) -> [[f32; COLS]; R] {
    let mut acc = [[[0.0f32; LANES]; COLS]; R];
    for p in (0..k).step_by(LANES) {
        let w: [&[f32; LANES]; COLS] =
            std::array::from_fn(|j| columns[j * k + p..][..LANES].try_into().unwrap());
        for (r, acc) in acc.iter_mut().enumerate() {
            let x: &[f32; LANES] = rows[r * k + p..][..LANES].try_into().unwrap();
            for (acc, w) in acc.iter_mut().zip(&w) {
                for l in 0..LANES {
                    acc[l] = match FMA {
                        true => x[l].mul_add(w[l], acc[l]),
                        false => acc[l] + x[l] * w[l],
                    };
                }
            }
        }
    }
    acc.map(|row| row.map(|lanes| lanes.iter().sum()))
}
