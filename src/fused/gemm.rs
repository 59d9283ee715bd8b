//! The one matrix product of the fused pass: `C ← C + A B` (or `C ← A B`)
//! on `f32` matrices given by strides, so that a transpose is a swap of
//! strides and nothing is copied; `C` is row-major. The product itself is
//! [`matrixmultiply::sgemm`], which picks its kernel for the processor
//! (plain loops, a row of `C` at a time with eight sums in a register, were
//! measured slower even at an inner dimension of 8).
//!
//! ```text
//! A [m, k]   a[i·rs + j·cs]        row-major: (k, 1);  its transpose: (1, k)
//! ```
//! Introduced in chapter 7.

/// A matrix read from a slice with a row stride and a column stride.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub data: &'a [f32],
    pub rows: usize,
    pub cols: usize,
    rs: usize,
    cs: usize,
}

impl<'a> View<'a> {
    /// `[rows, cols]` row-major in `data`.
    pub fn rows(data: &'a [f32], rows: usize, cols: usize) -> Self {
        Self::strided(data, rows, cols, cols, 1)
    }

    /// `[rows, cols]` column-major in `data` (as `nalgebra` stores a matrix).
    pub fn columns(data: &'a [f32], rows: usize, cols: usize) -> Self {
        Self::strided(data, rows, cols, 1, rows)
    }

    /// # Panics
    /// If the last entry lies past the end of `data`.
    fn strided(data: &'a [f32], rows: usize, cols: usize, rs: usize, cs: usize) -> Self {
        let last = (rows.max(1) - 1) * rs + (cols.max(1) - 1) * cs;
        assert!(
            rows == 0 || cols == 0 || last < data.len(),
            "gemm: a [{rows}, {cols}] view with strides ({rs}, {cs}) reads past {} numbers",
            data.len()
        );
        Self {
            data,
            rows,
            cols,
            rs,
            cs,
        }
    }

    /// The transpose (no copy).
    pub fn t(self) -> Self {
        Self {
            rows: self.cols,
            cols: self.rows,
            rs: self.cs,
            cs: self.rs,
            ..self
        }
    }
}

/// `c ← a b + (c if add)`, `c: [a.rows, b.cols]` row-major.
///
/// # Panics
/// If the shapes disagree or `c` has the wrong length.
#[inline(always)]
pub fn gemm(a: View, b: View, c: &mut [f32], add: bool) {
    let (m, k, n) = (a.rows, a.cols, b.cols);
    assert!(
        b.rows == k && c.len() == m * n,
        "gemm: [{m}, {k}] by [{}, {n}] into {} numbers",
        b.rows,
        c.len()
    );
    if m == 0 || n == 0 {
        return;
    }
    let beta = if add { 1.0 } else { 0.0 };
    if k == 0 {
        c.iter_mut().for_each(|x| *x *= beta);
        return;
    }
    let s = |x: usize| x as isize;
    // SAFETY: every index sgemm reads, i·rs + j·cs for i < rows, j < cols,
    // lies inside its slice (checked by `View::strided`), and it writes
    // c[i·n + j] for i < m, j < n, inside `c` (checked above).
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.data.as_ptr(),
            s(a.rs),
            s(a.cs),
            b.data.as_ptr(),
            s(b.rs),
            s(b.cs),
            beta,
            c.as_mut_ptr(),
            s(n),
            1,
        );
    }
}

/// The backward pass of a linear map `y = x W`, `x: [rows, din]` row-major,
/// `W: [din, dout]` column-major: adds `W̄ = xᵀ ȳ` into `dw` (column-major,
/// that is `ȳᵀ x` row-major) and returns `x̄ = ȳ Wᵀ`.
///
/// # Panics
/// If the shapes disagree.
#[inline(always)]
pub fn linear_backward(x: &[f32], w: &[f32], dy: &[f32], din: usize, dw: &mut [f32]) -> Vec<f32> {
    let dout = w.len() / din;
    let rows = dy.len() / dout;
    gemm(
        View::rows(dy, rows, dout).t(),
        View::rows(x, rows, din),
        dw,
        true,
    );
    let mut dx = vec![0.0; rows * din];
    gemm(
        View::rows(dy, rows, dout),
        View::columns(w, din, dout).t(),
        &mut dx,
        false,
    );
    dx
}
