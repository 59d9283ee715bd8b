//! SmolLM2's weights in the book's `(in, out)` layout (`y = x W`): the
//! extract's raw GGUF blocks ([`Packed`]), the same dequantised to f32
//! nalgebra matrices, and the configuration the metadata records.
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

use super::packed::Packed;
use super::quant::Quant;
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

/// One transformer block. Matrices are `(in, out)`: f32 by default, or
/// [`Packed`] blocks.
#[derive(Clone, Debug)]
pub struct Block<M = DMatrix<f32>> {
    /// `(d, n_head · head_dim)`, rows of each head in GGUF's interleaved RoPE order.
    pub w_q: M,
    /// `(d, n_head_kv · head_dim)`, the same order.
    pub w_k: M,
    /// `(d, n_head_kv · head_dim)`.
    pub w_v: M,
    /// `(n_head · head_dim, d)`.
    pub w_o: M,
    /// `(d, d_ff)`.
    pub w_gate: M,
    /// `(d, d_ff)`.
    pub w_up: M,
    /// `(d_ff, d)`.
    pub w_down: M,
    /// The RMSNorm gain before attention, `(d)`.
    pub attn_norm: DVector<f32>,
    /// The RMSNorm gain before the feed-forward layer, `(d)`.
    pub ffn_norm: DVector<f32>,
}

impl<M> Block<M> {
    /// The same block with each matrix `f(W)`.
    pub fn map<N>(&self, f: impl Fn(&M) -> N) -> Block<N> {
        Block {
            w_q: f(&self.w_q),
            w_k: f(&self.w_k),
            w_v: f(&self.w_v),
            w_o: f(&self.w_o),
            w_gate: f(&self.w_gate),
            w_up: f(&self.w_up),
            w_down: f(&self.w_down),
            attn_norm: self.attn_norm.clone(),
            ffn_norm: self.ffn_norm.clone(),
        }
    }

    /// The seven matrices, in the order of the pass.
    pub fn matrices(&self) -> [&M; 7] {
        [
            &self.w_q,
            &self.w_k,
            &self.w_v,
            &self.w_o,
            &self.w_gate,
            &self.w_up,
            &self.w_down,
        ]
    }
}

/// The whole model's weights: f32 by default, or [`Packed`] blocks.
#[derive(Clone, Debug)]
pub struct Weights<M = DMatrix<f32>> {
    pub config: Config,
    /// Token embeddings as columns, `(d, vocab)`: column t embeds token t, and
    /// `logits = norm(x) · embedding` (tied output).
    pub embedding: M,
    /// The final RMSNorm gain, `(d)`.
    pub output_norm: DVector<f32>,
    pub blocks: Vec<Block<M>>,
}

impl Weights {
    /// Read and verify the three weight files of `dir`, dequantised.
    ///
    /// # Errors
    /// A one-line [`LoadError`] naming a missing, corrupted or malformed file.
    pub fn load(dir: &Path) -> Result<Weights, LoadError> {
        Ok(Weights::load_packed(dir)?.dequantise())
    }
}

impl Weights<Packed> {
    /// Every matrix in f32, the blocks dequantised on every core.
    pub fn dequantise(&self) -> Weights {
        let blocks = crate::parallel::map(0..self.blocks.len() as u64, |l| {
            self.blocks[l as usize].map(Packed::dequantise)
        });
        Weights {
            config: self.config,
            embedding: self.embedding.dequantise(),
            output_norm: self.output_norm.clone(),
            blocks,
        }
    }

    /// Read and verify the three weight files of `dir`, blocks as stored.
    ///
    /// # Errors
    /// A one-line [`LoadError`] naming a missing, corrupted or malformed file.
    pub fn load_packed(dir: &Path) -> Result<Weights<Packed>, LoadError> {
        let [embedding, low, high] = FILES.map(|name| read_verified(dir, name));
        let embedding = File::parse(dir, FILES[0], embedding?)?;
        let config = embedding.config()?;
        let (d, r, ff) = (config.d_model, config.head_dim, config.d_ff);
        let (q_out, kv_out) = (config.n_head * r, config.n_head_kv * r);
        let files = [
            File::parse(dir, FILES[1], low?)?,
            File::parse(dir, FILES[2], high?)?,
        ];
        let blocks = (0..config.n_layer)
            .map(|l| {
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
    ) -> Result<Packed, LoadError> {
        let bytes = self.raw(name, Dtype::U8, &[outputs, quant.row_bytes(inputs)])?;
        Ok(Packed::new(quant, bytes.to_vec(), inputs, outputs))
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
