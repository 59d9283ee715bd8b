//! The one matrix product of the fused pass: `C ← C + A B` (or `C ← A B`)
//! on `f32` matrices given by strides, so that a transpose is a swap of
//! strides and nothing is copied; `C` is row-major.
//!
//! The products here are tall and thin (`m` = the part's 512 rows, `k` and
//! `n` 8 to 64), and a general product's packing costs as much as its
//! arithmetic at these shapes. So the kernel holds a few rows of a panel of
//! `C` (up to 32 columns) in registers and adds `A[i, p] · B[p, panel]` for
//! every `p`: `B`'s row read as vectors, `A`'s number broadcast. `B` is read
//! in place when its rows are contiguous, and copied into padded rows
//! otherwise (`k × 32` numbers at most, small beside `m · k · n`); nothing
//! of `A` is copied. It runs in AVX2 and FMA; a processor without them gets
//! [`matrixmultiply::sgemm`].
//!
//! ```text
//! A [m, k]   a[i·rs + j·cs]        row-major: (k, 1);  its transpose: (1, k)
//! kernel     MR rows × NV vectors of C in registers, MR (NV + 1) + 1 ≤ 16
//! ```
//!
//! A panel's last vector, when `C` ends inside it, is read and written lane
//! by lane through a vector on the stack: a masked load or store is slow on
//! this machine's processor, and its mask would take one of the sixteen
//! registers the kernel needs (a mask held through the loop spilled the
//! accumulators and slowed even the panels without one by a third). When
//! `A`'s rows are contiguous and whole vectors long, the columns of `C` past
//! its last whole vector are dot products instead (`A`'s row against `B`'s
//! column, eight terms a vector): a panel of one or two columns costs half
//! the product's time at the projection's 33 or 34 columns. A view known to
//! be zero past some column in each row ([`View::zero_past`]) is summed only
//! up to it.
//!
//! Introduced in chapter 7.

/// A matrix read from a slice with a row stride and a column stride.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    pub data: &'a [f32],
    pub rows: usize,
    pub cols: usize,
    rs: usize,
    cs: usize,
    zero: Zero<'a>,
}

/// Where a view is known to be zero, so that a product may skip it.
#[derive(Clone, Copy, Debug)]
enum Zero<'a> {
    Nowhere,
    /// Row `i` past column `last[i]` (a causal matrix of weights), and
    /// whether `last` is ascending.
    PastColumn(&'a [usize], bool),
    /// Column `j` past row `last[j]` (its transpose).
    PastRow(&'a [usize], bool),
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
            zero: Zero::Nowhere,
        }
    }

    /// The same matrix, known to be zero in row `i` past column `last[i]`:
    /// a product skips those numbers (it reads them only where a kernel's
    /// block of rows needs them for another row).
    ///
    /// # Panics
    /// If `last` does not give one column for each row.
    pub fn zero_past(self, last: &'a [usize]) -> Self {
        assert!(
            last.len() == self.rows && last.iter().all(|&j| j < self.cols),
            "gemm: {} last columns for a [{}, {}] view",
            last.len(),
            self.rows,
            self.cols
        );
        Self {
            zero: Zero::PastColumn(last, last.is_sorted()),
            ..self
        }
    }

    /// The columns `k` that rows `i0 .. i0 + m` may be nonzero at: all of
    /// them, or fewer where the view is known to be zero. A transposed
    /// causal view (column `j` zero past row `last[j]`) narrows only when
    /// `last` is ascending: rows from `i0` on then need `last[j] ≥ i0`.
    fn reach(&self, i0: usize, m: usize) -> std::ops::Range<usize> {
        match self.zero {
            Zero::Nowhere => 0..self.cols,
            Zero::PastColumn(last, _) => {
                let mut end = 0;
                for &j in &last[i0..i0 + m] {
                    end = end.max(j + 1);
                }
                0..end
            }
            Zero::PastRow(last, true) => last.partition_point(|&i| i < i0)..self.cols,
            Zero::PastRow(_, false) => 0..self.cols,
        }
    }

    /// The number at row `i`, column `j`.
    ///
    /// # Panics
    /// If `(i, j)` lies outside the matrix.
    pub fn get(&self, i: usize, j: usize) -> f32 {
        assert!(
            i < self.rows && j < self.cols,
            "gemm: ({i}, {j}) outside a [{}, {}] view",
            self.rows,
            self.cols
        );
        self.data[i * self.rs + j * self.cs]
    }

    /// The transpose (no copy).
    pub fn t(self) -> Self {
        Self {
            rows: self.cols,
            cols: self.rows,
            rs: self.cs,
            cs: self.rs,
            zero: match self.zero {
                Zero::Nowhere => Zero::Nowhere,
                Zero::PastColumn(last, up) => Zero::PastRow(last, up),
                Zero::PastRow(last, up) => Zero::PastColumn(last, up),
            },
            ..self
        }
    }
}

/// Numbers in one vector of the kernel: eight `f32`, one AVX2 register.
const LANES: usize = 8;

/// The widest panel of `C` the kernel keeps in registers: 8 vectors.
const PANEL: usize = 4 * LANES;

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
    if k == 0 {
        if !add {
            c.fill(0.0);
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        return panels(a, b, c, add);
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
            if add { 1.0 } else { 0.0 },
            c.as_mut_ptr(),
            s(n),
            1,
        );
    }
}

/// One panel of columns `j0 .. j0 + w` of the product: `B`'s rows of it are
/// `rows[p · stride ..][.. NV · LANES]`.
#[derive(Clone, Copy)]
struct Panel<'a> {
    a: View<'a>,
    rows: &'a [f32],
    stride: usize,
    j0: usize,
    w: usize,
    /// `C`'s row stride.
    n: usize,
    add: bool,
}

/// [`gemm`] panel by panel with the kernel of [`avx2`].
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn panels(a: View, b: View, c: &mut [f32], add: bool) {
    let (k, n) = (a.cols, b.cols);
    // the columns past the last whole vector are dot products when A's rows
    // are whole vectors in a row: a panel of them would broadcast each of A's
    // numbers for one or two lanes' use (the projection's β and gate columns)
    let whole = match a.cs == 1 && k.is_multiple_of(LANES) {
        true => n - n % LANES,
        false => n,
    };
    let mut packed = Vec::new();
    for j0 in (0..whole).step_by(PANEL) {
        let w = PANEL.min(whole - j0);
        let nv = w.div_ceil(LANES);
        let (rows, stride): (&[f32], usize) = if b.cs == 1 && w.is_multiple_of(LANES) {
            (&b.data[j0..], b.rs)
        } else {
            packed.clear();
            packed.resize(k * nv * LANES, 0.0);
            // B's column j0 + j, read down its rows, into lane j of every packed row
            for j in 0..w {
                let column = &b.data[(j0 + j) * b.cs..];
                for (p, row) in packed.chunks_exact_mut(nv * LANES).enumerate() {
                    row[j] = column[p * b.rs];
                }
            }
            (&packed[..], nv * LANES)
        };
        assert!((k - 1) * stride + nv * LANES <= rows.len() && c.len() == a.rows * n);
        let at = Panel {
            a,
            rows,
            stride,
            j0,
            w,
            n,
            add,
        };
        // SAFETY: the caller checked for AVX2 and FMA; B's panel rows lie in
        // `rows` and C is [m, n] (asserted above), A's numbers lie in A.
        unsafe {
            match nv {
                1 => avx2::run::<1, 7>(&at, c),
                2 => avx2::run::<2, 5>(&at, c),
                3 => avx2::run::<3, 3>(&at, c),
                _ => avx2::run::<4, 3>(&at, c),
            }
        }
    }
    if whole < n {
        // SAFETY: the caller checked for AVX2 and FMA; A's rows are
        // contiguous and whole vectors (checked above); C is [m, n].
        unsafe { avx2::dots(a, b, c, whole, add) };
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
    let mut dx = super::spare::take(rows * din);
    gemm(
        View::rows(dy, rows, dout),
        View::columns(w, din, dout).t(),
        &mut dx,
        false,
    );
    dx
}

#[cfg(target_arch = "x86_64")]
mod avx2;
