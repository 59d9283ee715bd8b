//! MiniLM's weights as nalgebra matrices, one struct per block, fields named for the
//! checkpoint's keys.
//!
//! Matrices keep the (out, in) layout of `torch.nn.Linear`: a linear map is
//! `y = x Wᵀ + b` with tokens as rows of `x`. Every tensor is float16 in the file and
//! `f64` here.
//!
//! Introduced in chapter 1.

use std::path::Path;

use half::f16;
use nalgebra::{DMatrix, DVector};
use safetensors::{Dtype, SafeTensors};

use super::{D, D_FF, D_K, LAYERS, MAX_POSITIONS};
use crate::pretrained::checksum::LoadError;

/// A linear map `y = x Wᵀ + b` (the checkpoint's `….weight` and `….bias`).
///
/// # Shapes
/// `weight: (out, in)`, `bias: (out)`; [`Linear::forward`] maps `(n, in)` to `(n, out)`.
#[derive(Clone, Debug)]
pub struct Linear {
    /// `(out, in)`, as stored.
    pub weight: DMatrix<f64>,
    /// `(out)`.
    pub bias: DVector<f64>,
}

impl Linear {
    /// `x Wᵀ + 1 bᵀ`.
    ///
    /// # Shapes
    /// `x: (n, in)` → `(n, out)`.
    ///
    /// # Panics
    /// If `x` does not have `in` columns.
    pub fn forward(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        assert_eq!(
            x.ncols(),
            self.weight.ncols(),
            "Linear: x is {:?}, weight is {:?}",
            x.shape(),
            self.weight.shape()
        );
        // (W xᵀ)ᵀ: only the small (n, ·) matrices are transposed, never W
        let mut yt = &self.weight * x.transpose();
        for mut col in yt.column_iter_mut() {
            col += &self.bias;
        }
        yt.transpose()
    }
}

/// LayerNorm over each row: `(x − μ) / √(σ² + ε) · γ + β`, σ² the biased variance,
/// ε = 1e-12 (the checkpoint's `….LayerNorm.weight` = γ and `….LayerNorm.bias` = β).
///
/// # Shapes
/// `weight, bias: (d)`; [`LayerNorm::forward`] maps `(n, d)` to `(n, d)`.
#[derive(Clone, Debug)]
pub struct LayerNorm {
    /// γ, `(d)`.
    pub weight: DVector<f64>,
    /// β, `(d)`.
    pub bias: DVector<f64>,
}

/// BERT's LayerNorm ε (`layer_norm_eps` in `config.json`).
pub const LAYER_NORM_EPS: f64 = 1e-12;

impl LayerNorm {
    /// Normalise each row of `x`.
    ///
    /// # Shapes
    /// `x: (n, d)` → `(n, d)`.
    pub fn forward(&self, x: &DMatrix<f64>) -> DMatrix<f64> {
        let mut y = x.clone();
        for mut row in y.row_iter_mut() {
            let d = row.len() as f64;
            let mean = row.sum() / d;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d;
            let inv = 1.0 / (var + LAYER_NORM_EPS).sqrt();
            for (j, v) in row.iter_mut().enumerate() {
                *v = (*v - mean) * inv * self.weight[j] + self.bias[j];
            }
        }
        y
    }
}

/// `embeddings.*`: token, position and token-type tables and their LayerNorm.
///
/// # Shapes
/// `word_embeddings: (30522, 384)`, `position_embeddings: (512, 384)`,
/// `token_type_embeddings: (2, 384)`.
#[derive(Clone, Debug)]
pub struct Embeddings {
    /// `embeddings.word_embeddings.weight`, one row per vocabulary id.
    pub word_embeddings: DMatrix<f64>,
    /// `embeddings.position_embeddings.weight`, one row per position 0..512.
    pub position_embeddings: DMatrix<f64>,
    /// `embeddings.token_type_embeddings.weight`; a single sentence uses row 0.
    pub token_type_embeddings: DMatrix<f64>,
    /// `embeddings.LayerNorm`.
    pub layer_norm: LayerNorm,
}

/// `encoder.layer.{i}.*`: one post-LayerNorm transformer block.
///
/// | field | checkpoint key under `encoder.layer.{i}.` | weight shape |
/// |---|---|---|
/// | `query`, `key`, `value` | `attention.self.{query,key,value}` | (384, 384) |
/// | `attention_output` | `attention.output.{dense,LayerNorm}` | (384, 384) |
/// | `intermediate` | `intermediate.dense` | (1536, 384) |
/// | `output` | `output.{dense,LayerNorm}` | (384, 1536) |
///
/// Head `h` owns rows `h·32..(h+1)·32` of `query`, `key` and `value` and columns
/// `h·32..(h+1)·32` of `attention_output.dense`.
#[derive(Clone, Debug)]
pub struct Layer {
    /// `attention.self.query`.
    pub query: Linear,
    /// `attention.self.key`.
    pub key: Linear,
    /// `attention.self.value`.
    pub value: Linear,
    /// `attention.output`: W_O, then residual and LayerNorm.
    pub attention_output: Output,
    /// `intermediate.dense`: the FFN's first map, followed by GELU.
    pub intermediate: Linear,
    /// `output`: the FFN's second map, then residual and LayerNorm.
    pub output: Output,
}

/// A `dense` map followed by a residual connection and a `LayerNorm`.
#[derive(Clone, Debug)]
pub struct Output {
    /// `….dense`.
    pub dense: Linear,
    /// `….LayerNorm`.
    pub layer_norm: LayerNorm,
}

impl Layer {
    /// Head `h`'s query projection in the book's convention `q = x w_q + b_q`:
    /// rows `h·32..(h+1)·32` of `query.weight`, transposed.
    ///
    /// # Shapes
    /// `(384, 32)`.
    ///
    /// # Panics
    /// If `h ≥ 12`.
    pub fn w_q(&self, h: usize) -> DMatrix<f64> {
        head_rows(&self.query.weight, h).transpose()
    }

    /// Head `h`'s key projection `k = x w_k + b_k`, shape `(384, 32)` (see [`Layer::w_q`]).
    pub fn w_k(&self, h: usize) -> DMatrix<f64> {
        head_rows(&self.key.weight, h).transpose()
    }

    /// Head `h`'s value projection `v = x w_v + b_v`, shape `(384, 32)` (see [`Layer::w_q`]).
    pub fn w_v(&self, h: usize) -> DMatrix<f64> {
        head_rows(&self.value.weight, h).transpose()
    }
}

fn head_rows(weight: &DMatrix<f64>, h: usize) -> DMatrix<f64> {
    assert!(
        h < super::HEADS,
        "head {h} out of range 0..{}",
        super::HEADS
    );
    weight.rows(h * D_K, D_K).into_owned()
}

/// All of MiniLM's weights (the unused `pooler.*` is not loaded).
#[derive(Clone, Debug)]
pub struct Weights {
    /// `embeddings.*`.
    pub embeddings: Embeddings,
    /// `encoder.layer.0` … `encoder.layer.5`.
    pub layers: Vec<Layer>,
}

impl Weights {
    /// Parse a float16 safetensors file holding MiniLM's checkpoint keys.
    ///
    /// # Errors
    /// If a tensor is missing, not float16, or has the wrong shape; the message names
    /// `file` and the tensor.
    pub fn from_safetensors(bytes: &[u8], file: &Path) -> Result<Self, LoadError> {
        let st = SafeTensors::deserialize(bytes)
            .map_err(|e| LoadError::new(file, format!("not a safetensors file ({e})")))?;
        let matrix = |name: &str, rows: usize, cols: usize| -> Result<DMatrix<f64>, LoadError> {
            let t = st
                .tensor(name)
                .map_err(|_| LoadError::new(file, format!("no tensor '{name}'")))?;
            let want: &[usize] = if cols == 0 { &[rows] } else { &[rows, cols] };
            if t.dtype() != Dtype::F16 || t.shape() != want {
                return Err(LoadError::new(
                    file,
                    format!(
                        "'{name}' is {:?} {:?}, expected F16 {want:?}",
                        t.dtype(),
                        t.shape()
                    ),
                ));
            }
            let values: Vec<f64> = t
                .data()
                .chunks_exact(2)
                .map(|b| f16::from_le_bytes([b[0], b[1]]).to_f64())
                .collect();
            // row-major (rows, cols) in the file
            Ok(DMatrix::from_row_slice(rows, cols.max(1), &values))
        };
        let vector = |name: &str, len: usize| {
            matrix(name, len, 0).map(|m| DVector::from_column_slice(m.as_slice()))
        };
        let linear = |prefix: &str, out: usize, inp: usize| -> Result<Linear, LoadError> {
            Ok(Linear {
                weight: matrix(&format!("{prefix}.weight"), out, inp)?,
                bias: vector(&format!("{prefix}.bias"), out)?,
            })
        };
        let layer_norm = |prefix: &str| -> Result<LayerNorm, LoadError> {
            Ok(LayerNorm {
                weight: vector(&format!("{prefix}.LayerNorm.weight"), D)?,
                bias: vector(&format!("{prefix}.LayerNorm.bias"), D)?,
            })
        };
        let output = |prefix: &str, inp: usize| -> Result<Output, LoadError> {
            Ok(Output {
                dense: linear(&format!("{prefix}.dense"), D, inp)?,
                layer_norm: layer_norm(prefix)?,
            })
        };
        let vocab = st
            .tensor("embeddings.word_embeddings.weight")
            .map(|t| t.shape()[0])
            .map_err(|_| LoadError::new(file, "no tensor 'embeddings.word_embeddings.weight'"))?;
        let embeddings = Embeddings {
            word_embeddings: matrix("embeddings.word_embeddings.weight", vocab, D)?,
            position_embeddings: matrix("embeddings.position_embeddings.weight", MAX_POSITIONS, D)?,
            token_type_embeddings: matrix("embeddings.token_type_embeddings.weight", 2, D)?,
            layer_norm: layer_norm("embeddings")?,
        };
        let layers = (0..LAYERS)
            .map(|i| {
                let p = format!("encoder.layer.{i}");
                Ok(Layer {
                    query: linear(&format!("{p}.attention.self.query"), D, D)?,
                    key: linear(&format!("{p}.attention.self.key"), D, D)?,
                    value: linear(&format!("{p}.attention.self.value"), D, D)?,
                    attention_output: output(&format!("{p}.attention.output"), D)?,
                    intermediate: linear(&format!("{p}.intermediate.dense"), D_FF, D)?,
                    output: output(&format!("{p}.output"), D_FF)?,
                })
            })
            .collect::<Result<_, LoadError>>()?;
        Ok(Weights { embeddings, layers })
    }
}
