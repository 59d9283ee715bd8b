//! SmolLM2-135M-Instruct's attention query and key weights, read from the
//! vendored extract `models/smollm2/` (raw GGUF Q4_1 blocks in safetensors).
//!
//! Conventions, all checked against the reference implementations:
//!
//! - **Layout.** Weights are (out, in) as in Hugging Face's `q_proj.weight`:
//!   GGUF lists K's shape input-first, `[576, 192]`, and its bytes are 192
//!   rows of 576 inputs, so K dequantises to (192, 576), Q to (576, 576).
//! - **Grouped heads.** Query head `h` is rows `64h..64h + 64` of W_Q and
//!   reads key head `h / 3` (integer division, the reference `repeat_kv`);
//!   pairing `h` with `h mod 3` would be a different, wrong model.
//! - **RoPE permutation.** llama.cpp's converter permutes the rows of Q and K
//!   within each head by the same permutation P (half-split → interleaved
//!   pairs); `(P W_Q^h)ᵀ (P W_K^h) = W_Q^hᵀ W_K^h`, so W_QK at relative
//!   offset 0 is unchanged. A statistic that applies RoPE must follow the
//!   interleaved layout.
//! - **RMSNorm gain.** The gain `g` (ε = 1e-5) multiplies x before both
//!   projections. [`SmolLm2::w_q`] and [`SmolLm2::w_k`] return the weights
//!   as stored, gain not folded in; [`SmolLm2::attn_norm`] returns `g`.
//!
//! Introduced in chapter 1.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use half::f16;
use nalgebra::{DMatrix, DVector};
use safetensors::{Dtype, SafeTensors};

use super::checksum::{LoadError, read_verified};

/// Weights per Q4_1 block.
pub const BLOCK_WEIGHTS: usize = 32;
/// Bytes per Q4_1 block: f16 scale, f16 minimum, 16 bytes of nibbles.
pub const BLOCK_BYTES: usize = 20;

/// The weights file inside the extract.
const WEIGHTS: &str = "attention.safetensors";

/// The extract's folder, `models/smollm2`.
pub fn default_dir() -> PathBuf {
    super::models_dir().join("smollm2")
}

/// The 32 weights of one Q4_1 block: `w_j = d·q_j + m` in f32, where
/// `q_j` is the low nibble of byte `4 + j` for `j < 16` and the high nibble
/// of byte `4 + j − 16` otherwise.
///
/// # Panics
/// If `block` is not 20 bytes.
///
/// ```
/// use attention_geometry::pretrained::smollm2::dequantize_block;
/// use half::f16;
/// let mut block = [0u8; 20];
/// block[..2].copy_from_slice(&f16::from_f32(0.5).to_le_bytes());
/// block[2..4].copy_from_slice(&f16::from_f32(-1.0).to_le_bytes());
/// block[4] = 0x3a; // q_0 = 10, q_16 = 3
/// let w = dequantize_block(&block);
/// assert_eq!((w[0], w[16], w[1]), (4.0, 0.5, -1.0));
/// ```
pub fn dequantize_block(block: &[u8]) -> [f32; BLOCK_WEIGHTS] {
    assert_eq!(
        block.len(),
        BLOCK_BYTES,
        "dequantize_block: a Q4_1 block is {BLOCK_BYTES} bytes, got {}",
        block.len()
    );
    let d = f16::from_le_bytes([block[0], block[1]]).to_f32();
    let m = f16::from_le_bytes([block[2], block[3]]).to_f32();
    let mut w = [0.0; BLOCK_WEIGHTS];
    for (j, &byte) in block[4..].iter().enumerate() {
        w[j] = d * f32::from(byte & 0x0f) + m;
        w[j + 16] = d * f32::from(byte >> 4) + m;
    }
    w
}

/// A matrix stored as Q4_1 rows, `(rows, cols)` with `cols / 32` blocks per row.
///
/// # Shapes
/// `bytes` holds `rows · cols / 32 · 20` bytes; the result is `(rows, cols)`.
///
/// # Panics
/// If `cols` is not a multiple of 32 or the byte count does not match.
pub fn dequantize(bytes: &[u8], rows: usize, cols: usize) -> DMatrix<f32> {
    assert_eq!(
        cols % BLOCK_WEIGHTS,
        0,
        "dequantize: {cols} columns is not a whole number of blocks"
    );
    let per_row = cols / BLOCK_WEIGHTS * BLOCK_BYTES;
    assert_eq!(
        bytes.len(),
        rows * per_row,
        "dequantize: {} bytes for ({rows}, {cols})",
        bytes.len()
    );
    let mut w = DMatrix::zeros(rows, cols);
    for (r, row) in bytes.chunks_exact(per_row).enumerate() {
        for (b, block) in row.chunks_exact(BLOCK_BYTES).enumerate() {
            for (j, v) in dequantize_block(block).into_iter().enumerate() {
                w[(r, b * BLOCK_WEIGHTS + j)] = v;
            }
        }
    }
    w
}

/// The model's attention shape and normalisation, from the extract's metadata.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    pub n_layer: usize,
    /// Query heads per layer.
    pub n_head: usize,
    /// Key/value heads per layer; `n_head / n_head_kv` query heads share one.
    pub n_head_kv: usize,
    pub head_dim: usize,
    /// Width of the residual stream.
    pub d_model: usize,
    pub rope_theta: f64,
    pub rms_eps: f64,
}

impl Config {
    /// The key/value head query head `h` reads: `h / (n_head / n_head_kv)`.
    ///
    /// ```
    /// use attention_geometry::pretrained::smollm2::SmolLm2;
    /// let c = SmolLm2::shared().config;
    /// assert_eq!((0..9).map(|h| c.kv_head(h)).collect::<Vec<_>>(), [0, 0, 0, 1, 1, 1, 2, 2, 2]);
    /// ```
    pub fn kv_head(&self, h: usize) -> usize {
        h / (self.n_head / self.n_head_kv)
    }
}

/// One layer's attention inputs: dequantised weights (out, in) and the gain.
#[derive(Clone, Debug, PartialEq)]
struct Layer {
    /// `(n_head · head_dim, d_model)`.
    q: DMatrix<f32>,
    /// `(n_head_kv · head_dim, d_model)`.
    k: DMatrix<f32>,
    /// `(d_model)`.
    attn_norm: DVector<f32>,
}

/// SmolLM2-135M-Instruct's query and key projections, every layer.
#[derive(Clone, Debug, PartialEq)]
pub struct SmolLm2 {
    pub config: Config,
    layers: Vec<Layer>,
}

impl SmolLm2 {
    /// Load and verify `models/smollm2/`.
    ///
    /// # Errors
    /// A one-line [`LoadError`] naming a missing, corrupted or malformed file
    /// (and, for the first two, its expected SHA-256).
    pub fn load() -> Result<SmolLm2, LoadError> {
        SmolLm2::load_from(&default_dir())
    }

    /// The model of the vendored `models/` folder, loaded once per process.
    ///
    /// # Panics
    /// With the [`LoadError`]'s message if the extract is missing or corrupted.
    pub fn shared() -> &'static SmolLm2 {
        static MODEL: OnceLock<SmolLm2> = OnceLock::new();
        MODEL.get_or_init(|| SmolLm2::load().unwrap_or_else(|e| panic!("{e}")))
    }

    /// Load and verify the extract in `dir`.
    pub fn load_from(dir: &Path) -> Result<SmolLm2, LoadError> {
        let bytes = read_verified(dir, WEIGHTS)?;
        let path = dir.join(WEIGHTS);
        let bad = |what: String| LoadError::new(&path, what);
        let (_, meta) = SafeTensors::read_metadata(&bytes)
            .map_err(|e| bad(format!("not safetensors ({e})")))?;
        let st =
            SafeTensors::deserialize(&bytes).map_err(|e| bad(format!("not safetensors ({e})")))?;
        let meta = meta.metadata().clone().unwrap_or_default();
        let value = |key: &str| -> Result<f64, LoadError> {
            meta.get(key)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| bad(format!("metadata has no number {key}")))
        };
        let config = Config {
            n_layer: value("n_layer")? as usize,
            n_head: value("n_head")? as usize,
            n_head_kv: value("n_head_kv")? as usize,
            head_dim: value("head_dim")? as usize,
            d_model: value("d_model")? as usize,
            rope_theta: value("rope_theta")?,
            rms_eps: value("rms_eps")?,
        };
        let tensor = |name: String, dtype: Dtype, shape: Vec<usize>| {
            let t = st.tensor(&name).map_err(|e| bad(format!("{name}: {e}")))?;
            if t.dtype() != dtype || t.shape() != shape.as_slice() {
                return Err(bad(format!(
                    "{name} is {:?} {:?}, expected {dtype:?} {shape:?}",
                    t.dtype(),
                    t.shape()
                )));
            }
            Ok(t.data().to_vec())
        };
        let (d, w) = (config.d_model, config.head_dim);
        let row_bytes = d / BLOCK_WEIGHTS * BLOCK_BYTES;
        let layers = (0..config.n_layer)
            .map(|l| {
                let q = tensor(
                    format!("blk.{l}.attn_q.weight"),
                    Dtype::U8,
                    vec![config.n_head * w, row_bytes],
                )?;
                let k = tensor(
                    format!("blk.{l}.attn_k.weight"),
                    Dtype::U8,
                    vec![config.n_head_kv * w, row_bytes],
                )?;
                let g = tensor(format!("blk.{l}.attn_norm.weight"), Dtype::F32, vec![d])?;
                Ok(Layer {
                    q: dequantize(&q, config.n_head * w, d),
                    k: dequantize(&k, config.n_head_kv * w, d),
                    attn_norm: DVector::from_iterator(
                        d,
                        g.chunks_exact(4)
                            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                    ),
                })
            })
            .collect::<Result<Vec<_>, LoadError>>()?;
        Ok(SmolLm2 { config, layers })
    }

    /// Layer `l`'s whole W_Q as stored, (out, in) = `(n_head · head_dim, d_model)`.
    pub fn q_weight(&self, l: usize) -> &DMatrix<f32> {
        &self.layers[l].q
    }

    /// Layer `l`'s whole W_K as stored, (out, in) = `(n_head_kv · head_dim, d_model)`.
    pub fn k_weight(&self, l: usize) -> &DMatrix<f32> {
        &self.layers[l].k
    }

    /// Query head `h` of layer `l` in the book's notation, `(d_model, head_dim)`:
    /// `q = x w_q` (gain not folded in).
    ///
    /// # Panics
    /// If `l` or `h` is out of range.
    pub fn w_q(&self, l: usize, h: usize) -> DMatrix<f64> {
        assert!(
            h < self.config.n_head,
            "w_q: head {h} not in 0..{}",
            self.config.n_head
        );
        self.head_block(&self.layers[l].q, h)
    }

    /// The key projection query head `h` of layer `l` reads (key head
    /// [`Config::kv_head`]`(h)`), `(d_model, head_dim)`: `k = x w_k`.
    ///
    /// # Panics
    /// If `l` or `h` is out of range.
    pub fn w_k(&self, l: usize, h: usize) -> DMatrix<f64> {
        assert!(
            h < self.config.n_head,
            "w_k: head {h} not in 0..{}",
            self.config.n_head
        );
        self.head_block(&self.layers[l].k, self.config.kv_head(h))
    }

    /// Layer `l`'s attention RMSNorm gain, `(d_model)`.
    pub fn attn_norm(&self, l: usize) -> DVector<f64> {
        self.layers[l].attn_norm.map(f64::from)
    }

    /// Rows `h·head_dim..` of an (out, in) weight, transposed to `(in, head_dim)`.
    fn head_block(&self, w: &DMatrix<f32>, h: usize) -> DMatrix<f64> {
        let r = self.config.head_dim;
        w.rows(h * r, r).transpose().map(f64::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dequantisation_equals_the_gguf_package_on_sampled_blocks() {
        let model = SmolLm2::shared();
        let text = read_verified(&default_dir(), "reference.json").unwrap();
        let reference: serde_json::Value = serde_json::from_slice(&text).unwrap();
        let samples = reference["samples"].as_array().unwrap();
        assert!(samples.len() >= 20);
        for s in samples {
            let name = s["tensor"].as_str().unwrap();
            let (row, block) = (
                s["row"].as_u64().unwrap() as usize,
                s["block"].as_u64().unwrap() as usize,
            );
            let l: usize = name.split('.').nth(1).unwrap().parse().unwrap();
            let w = if name.ends_with("attn_q.weight") {
                model.q_weight(l)
            } else {
                model.k_weight(l)
            };
            for (j, v) in s["values"].as_array().unwrap().iter().enumerate() {
                let want = v.as_f64().unwrap() as f32;
                assert_eq!(
                    w[(row, block * BLOCK_WEIGHTS + j)],
                    want,
                    "{name} ({row}, {block}) [{j}]"
                );
            }
        }
    }

    #[test]
    fn config_is_smollm2_135m() {
        let c = SmolLm2::shared().config;
        assert_eq!(
            (c.n_layer, c.n_head, c.n_head_kv, c.head_dim, c.d_model),
            (30, 9, 3, 64, 576)
        );
        assert_eq!((c.rope_theta, c.rms_eps as f32), (100000.0, 1e-5));
    }

    #[test]
    fn head_blocks_follow_repeat_kv() {
        let m = SmolLm2::shared();
        assert_eq!(m.w_q(3, 4).shape(), (576, 64));
        assert_eq!(m.w_k(3, 5), m.w_k(3, 3));
        assert_ne!(m.w_k(3, 5), m.w_k(3, 2));
        assert_eq!(m.w_k(3, 4)[(7, 2)], f64::from(m.k_weight(3)[(64 + 2, 7)]));
    }

    #[test]
    fn a_corrupted_file_is_named_with_its_checksum() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(
            default_dir().join("SHA256SUMS"),
            dir.path().join("SHA256SUMS"),
        )
        .unwrap();
        let sums = std::fs::read_to_string(dir.path().join("SHA256SUMS")).unwrap();
        let want = sums
            .lines()
            .find(|l| l.ends_with(WEIGHTS))
            .unwrap()
            .split("  ")
            .next()
            .unwrap()
            .to_string();
        let missing = SmolLm2::load_from(dir.path()).unwrap_err().to_string();
        assert!(
            missing.contains("attention.safetensors: cannot read") && missing.contains(&want),
            "{missing}"
        );
        std::fs::write(dir.path().join(WEIGHTS), b"not a model").unwrap();
        let err = SmolLm2::load_from(dir.path()).unwrap_err().to_string();
        assert!(err.contains("attention.safetensors: corrupted"), "{err}");
        assert!(err.contains(&want) && !err.contains('\n'), "{err}");
    }
}
