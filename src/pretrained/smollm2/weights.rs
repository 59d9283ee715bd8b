//! SmolLM2's weights as f32 nalgebra matrices in the book's `(in, out)`
//! layout (`y = x W`), dequantised from the extract's raw GGUF blocks, and
//! the configuration its metadata records.
//!
//! ```text
//! embedding.safetensors      token_embd (Q8_0, 49152 rows of 576), output_norm
//! layers-00-14.safetensors   blk.{l}.{attn_q, attn_k, attn_v, attn_output,
//! layers-15-29.safetensors            ffn_gate, ffn_up, ffn_down} (Q4_1),
//!                            blk.{l}.{attn_norm, ffn_norm} (f32)
//! ```
//!
//! Introduced in chapter 1.

use std::path::Path;

use nalgebra::{DMatrix, DVector};
use safetensors::{Dtype, SafeTensors};

use super::quant::{BLOCK_WEIGHTS, Quant};
use crate::pretrained::checksum::{LoadError, read_verified};

/// The files of `models/smollm2/` holding weights, each checked against `SHA256SUMS`.
pub const FILES: [&str; 3] = [
    "embedding.safetensors",
    "layers-00-14.safetensors",
    "layers-15-29.safetensors",
];

/// The model's shape and constants, from the extract's metadata.
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
    /// Width of the SwiGLU hidden layer.
    pub d_ff: usize,
    pub vocab: usize,
    /// The context the model was trained for (the book allows less: [`super::MAX_TOKENS`]).
    pub context: usize,
    pub rope_theta: f64,
    pub rms_eps: f64,
    /// Beginning of sequence (`<|im_start|>`; the book adds none).
    pub bos: u32,
    /// End of sequence (`<|im_end|>`).
    pub eos: u32,
}

impl Config {
    /// The key/value head query head `h` reads: `h / (n_head / n_head_kv)`;
    /// for SmolLM2 heads 0, 1, 2 read key head 0, heads 3, 4, 5 key head 1.
    pub fn kv_head(&self, h: usize) -> usize {
        h / (self.n_head / self.n_head_kv)
    }
}

/// One transformer block. Matrices are `(in, out)`.
#[derive(Clone, Debug)]
pub struct Block {
    /// `(d, n_head · head_dim)`, rows of each head in GGUF's interleaved RoPE order.
    pub w_q: DMatrix<f32>,
    /// `(d, n_head_kv · head_dim)`, the same order.
    pub w_k: DMatrix<f32>,
    /// `(d, n_head_kv · head_dim)`.
    pub w_v: DMatrix<f32>,
    /// `(n_head · head_dim, d)`.
    pub w_o: DMatrix<f32>,
    /// `(d, d_ff)`.
    pub w_gate: DMatrix<f32>,
    /// `(d, d_ff)`.
    pub w_up: DMatrix<f32>,
    /// `(d_ff, d)`.
    pub w_down: DMatrix<f32>,
    /// The RMSNorm gain before attention, `(d)`.
    pub attn_norm: DVector<f32>,
    /// The RMSNorm gain before the feed-forward layer, `(d)`.
    pub ffn_norm: DVector<f32>,
}

/// The whole model's weights.
#[derive(Clone, Debug)]
pub struct Weights {
    pub config: Config,
    /// Token embeddings as columns, `(d, vocab)`: column t embeds token t, and
    /// `logits = norm(x) · embedding` (tied output).
    pub embedding: DMatrix<f32>,
    /// The final RMSNorm gain, `(d)`.
    pub output_norm: DVector<f32>,
    pub blocks: Vec<Block>,
}

impl Weights {
    /// Read and verify the three weight files of `dir`.
    ///
    /// # Errors
    /// A one-line [`LoadError`] naming a missing, corrupted or malformed file.
    pub fn load(dir: &Path) -> Result<Weights, LoadError> {
        let [embedding, low, high] = FILES.map(|name| read_verified(dir, name));
        let embedding = File::parse(dir, FILES[0], embedding?)?;
        let config = embedding.config()?;
        let (d, r, ff) = (config.d_model, config.head_dim, config.d_ff);
        let (q_out, kv_out) = (config.n_head * r, config.n_head_kv * r);
        let files = [
            File::parse(dir, FILES[1], low?)?,
            File::parse(dir, FILES[2], high?)?,
        ];
        // blocks dequantised on every core, each into its own matrices
        let blocks = crate::parallel::map(0..config.n_layer as u64, |l| {
            let l = l as usize;
            let file = &files[usize::from(l >= config.n_layer / 2)];
            let q4 = |w: &str, inputs, outputs| {
                file.quantised(&format!("blk.{l}.{w}.weight"), Quant::Q4_1, inputs, outputs)
            };
            let gain = |w: &str| file.gain(&format!("blk.{l}.{w}.weight"), d);
            Ok(Block {
                w_q: q4("attn_q", d, q_out)?,
                w_k: q4("attn_k", d, kv_out)?,
                w_v: q4("attn_v", d, kv_out)?,
                w_o: q4("attn_output", q_out, d)?,
                w_gate: q4("ffn_gate", d, ff)?,
                w_up: q4("ffn_up", d, ff)?,
                w_down: q4("ffn_down", ff, d)?,
                attn_norm: gain("attn_norm")?,
                ffn_norm: gain("ffn_norm")?,
            })
        })
        .into_iter()
        .collect::<Result<Vec<_>, LoadError>>()?;
        Ok(Weights {
            config,
            embedding: embedding.quantised("token_embd.weight", Quant::Q8_0, d, config.vocab)?,
            output_norm: embedding.gain("output_norm.weight", d)?,
            blocks,
        })
    }
}

/// One verified safetensors file of the extract.
struct File {
    path: std::path::PathBuf,
    bytes: Vec<u8>,
}

impl File {
    fn parse(dir: &Path, name: &str, bytes: Vec<u8>) -> Result<File, LoadError> {
        let file = File {
            path: dir.join(name),
            bytes,
        };
        file.tensors()?;
        Ok(file)
    }

    fn bad(&self, what: impl Into<String>) -> LoadError {
        LoadError::new(&self.path, what)
    }

    fn tensors(&self) -> Result<SafeTensors<'_>, LoadError> {
        SafeTensors::deserialize(&self.bytes)
            .map_err(|e| self.bad(format!("not safetensors ({e})")))
    }

    /// The configuration in the file's `__metadata__`.
    fn config(&self) -> Result<Config, LoadError> {
        let (_, meta) = SafeTensors::read_metadata(&self.bytes)
            .map_err(|e| self.bad(format!("not safetensors ({e})")))?;
        let meta = meta.metadata().clone().unwrap_or_default();
        let value = |key: &str| -> Result<f64, LoadError> {
            meta.get(key)
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| self.bad(format!("metadata has no number {key}")))
        };
        let count = |key: &str| value(key).map(|v| v as usize);
        Ok(Config {
            n_layer: count("n_layer")?,
            n_head: count("n_head")?,
            n_head_kv: count("n_head_kv")?,
            head_dim: count("head_dim")?,
            d_model: count("d_model")?,
            d_ff: count("d_ff")?,
            vocab: count("vocab")?,
            context: count("context")?,
            rope_theta: value("rope_theta")?,
            rms_eps: value("rms_eps")?,
            bos: count("bos")? as u32,
            eos: count("eos")? as u32,
        })
    }

    /// The bytes of tensor `name` in the file, checked to be `dtype` of `shape`.
    fn raw(&self, name: &str, dtype: Dtype, shape: &[usize]) -> Result<&[u8], LoadError> {
        let tensors = self.tensors()?;
        let t = tensors
            .tensor(name)
            .map_err(|e| self.bad(format!("{name}: {e}")))?;
        if t.dtype() != dtype || t.shape() != shape {
            return Err(self.bad(format!(
                "{name} is {:?} {:?}, expected {dtype:?} {shape:?}",
                t.dtype(),
                t.shape()
            )));
        }
        Ok(t.data())
    }

    /// A quantised `(inputs, outputs)` matrix.
    fn quantised(
        &self,
        name: &str,
        quant: Quant,
        inputs: usize,
        outputs: usize,
    ) -> Result<DMatrix<f32>, LoadError> {
        let row = inputs / BLOCK_WEIGHTS * quant.block_bytes();
        let bytes = self.raw(name, Dtype::U8, &[outputs, row])?;
        Ok(quant.matrix(bytes, inputs, outputs))
    }

    /// An f32 vector of length `d`.
    fn gain(&self, name: &str, d: usize) -> Result<DVector<f32>, LoadError> {
        let bytes = self.raw(name, Dtype::F32, &[d])?;
        Ok(DVector::from_iterator(
            d,
            bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        ))
    }
}
