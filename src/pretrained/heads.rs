//! Every attention head of the two pretrained models as `(w_q, w_k)` pairs in
//! the book's notation, their weight geometry, and the same statistics for
//! random Gaussian heads of the same shapes: what `attention-geometry heads`
//! prints. Introduced in chapter 1.

use nalgebra::DMatrix;

use super::geometry::{HeadGeometry, head_geometry, layer_symmetry_score};
use super::minilm::{HEADS, Minilm};
use super::smollm2::SmolLm2;
use crate::random::{gaussian, seeded};

/// The two pretrained models under `models/`, as the command line names them.
pub use super::transformer::Architecture as Model;

impl Model {
    /// The model's layers of heads, weights as stored (no biases, no gains).
    ///
    /// # Errors
    /// The loader's one-line message if a `models/` file is missing or corrupted.
    pub fn trained(self) -> Result<Vec<LayerHeads>, String> {
        match self {
            Model::Minilm => Ok(minilm_layers(
                &Minilm::load(&super::models_dir()).map_err(|e| e.to_string())?,
            )),
            Model::Smollm2 => Ok(smollm2_layers(&SmolLm2::load().map_err(|e| e.to_string())?)),
        }
    }

    /// [`Model::trained`] from the models loaded once per process.
    ///
    /// # Panics
    /// If a `models/` file is missing or corrupted.
    pub fn shared(self) -> Vec<LayerHeads> {
        match self {
            Model::Minilm => minilm_layers(Minilm::shared()),
            Model::Smollm2 => smollm2_layers(SmolLm2::shared()),
        }
    }
}

/// MiniLM's layers: twelve query heads and twelve key heads of width 32.
pub fn minilm_layers(m: &Minilm) -> Vec<LayerHeads> {
    m.weights
        .layers
        .iter()
        .map(|layer| LayerHeads {
            w_q: (0..HEADS).map(|h| layer.w_q(h)).collect(),
            w_k: (0..HEADS).map(|h| layer.w_k(h)).collect(),
        })
        .collect()
}

/// SmolLM2's layers: nine query heads reading three key heads of width 64.
pub fn smollm2_layers(m: &SmolLm2) -> Vec<LayerHeads> {
    let c = m.config;
    (0..c.n_layer)
        .map(|l| LayerHeads {
            w_q: (0..c.n_head).map(|h| m.w_q(l, h)).collect(),
            // the first query head of each group reads key head g
            w_k: (0..c.n_head_kv)
                .map(|g| m.w_k(l, g * c.n_head / c.n_head_kv))
                .collect(),
        })
        .collect()
}

/// One layer's heads: query heads `w_q[h]` and the key heads they read,
/// `w_k[h / (w_q.len() / w_k.len())]`, each `(d, r)`.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerHeads {
    pub w_q: Vec<DMatrix<f64>>,
    pub w_k: Vec<DMatrix<f64>>,
}

impl LayerHeads {
    /// The key head query head `h` reads.
    pub fn key(&self, h: usize) -> &DMatrix<f64> {
        &self.w_k[h / (self.w_q.len() / self.w_k.len())]
    }

    /// Independent `N(0, 1)` heads of the same shapes and grouping as `like`.
    pub fn random(like: &LayerHeads, seed: u64) -> LayerHeads {
        let mut rng = seeded(seed);
        let (d, r) = like.w_q[0].shape();
        let mut draw = |n: usize| (0..n).map(|_| gaussian(&mut rng, d, r, 1.0)).collect();
        LayerHeads {
            w_q: draw(like.w_q.len()),
            w_k: draw(like.w_k.len()),
        }
    }

    /// Each query head's geometry.
    pub fn geometry(&self) -> Vec<HeadGeometry> {
        (0..self.w_q.len())
            .map(|h| head_geometry(&self.w_q[h], self.key(h)))
            .collect()
    }

    /// Saponati et al.'s score of the layer's summed `W_QK`.
    pub fn symmetry_score(&self) -> f64 {
        layer_symmetry_score(&self.w_q, &self.w_k)
    }
}

/// The geometry of every head of a model, and its layers' scores.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Survey {
    /// Width of the residual stream.
    pub d: usize,
    /// Width of a head.
    pub r: usize,
    /// `heads[l][h]`.
    pub heads: Vec<Vec<HeadGeometry>>,
    /// Saponati et al.'s score of each layer's summed `W_QK`.
    pub layer_scores: Vec<f64>,
}

impl Survey {
    /// Survey `layers`, two layers at a time (each on its own thread).
    pub fn of(layers: &[LayerHeads]) -> Survey {
        let (d, r) = layers[0].w_q[0].shape();
        let per_layer = crate::parallel::map(0..layers.len() as u64, |l| {
            let layer = &layers[l as usize];
            (layer.geometry(), layer.symmetry_score())
        });
        let (heads, layer_scores) = per_layer.into_iter().unzip();
        Survey {
            d,
            r,
            heads,
            layer_scores,
        }
    }

    /// `layers` layers of random Gaussian heads shaped like `like`, layer
    /// `l` from seed `seed + l`: heads and layer scores of untrained weights.
    pub fn random(like: &LayerHeads, layers: usize, seed: u64) -> Survey {
        let per_layer = crate::parallel::map(0..layers as u64, |l| {
            let layer = LayerHeads::random(like, seed + l);
            (layer.geometry(), layer.symmetry_score())
        });
        let (heads, layer_scores) = per_layer.into_iter().unzip();
        let (d, r) = like.w_q[0].shape();
        Survey {
            d,
            r,
            heads,
            layer_scores,
        }
    }

    /// Every head's value of `field`, layer by layer.
    pub fn values(&self, field: fn(&HeadGeometry) -> f64) -> Vec<f64> {
        self.heads.iter().flatten().map(field).collect()
    }
}

/// The table `attention-geometry heads MODEL [--tsv]` prints: with `tsv`,
/// the header `layer head symmetric_share negative_mass` (tab-separated) and one line per
/// head; otherwise aligned columns with each layer's Saponati score.
///
/// # Errors
/// An unknown model (listing the valid ones) or a missing or corrupted model file.
pub fn report(model: &str, tsv: bool) -> Result<String, String> {
    let model = Model::parse(model)?;
    let survey = Survey::of(&model.trained()?);
    let mut out = String::new();
    if tsv {
        out.push_str("layer\thead\tsymmetric_share\tnegative_mass\n");
        for (l, heads) in survey.heads.iter().enumerate() {
            for (h, g) in heads.iter().enumerate() {
                out.push_str(&format!(
                    "{l}\t{h}\t{:.6}\t{:.6}\n",
                    g.symmetric_share, g.negative_mass
                ));
            }
        }
        return Ok(out);
    }
    out.push_str(&format!(
        "{}: W_QK = W_Q^h W_K^hᵀ ({d} × {d}, weights as stored: no biases, no gains), heads of width {r}\n\
         random Gaussian heads: symmetric share ≈ ½ + 1/(2d) = {:.4}, negative mass ≈ 0.5\n\n",
        model.name(),
        0.5 + 0.5 / survey.d as f64,
        d = survey.d,
        r = survey.r,
    ));
    out.push_str("layer  head  symmetric share  negative mass  negative eigenvalues\n");
    for (l, heads) in survey.heads.iter().enumerate() {
        for (h, g) in heads.iter().enumerate() {
            out.push_str(&format!(
                "{l:>5}  {h:>4}  {:>15.4}  {:>13.4}  {:>10} of {}\n",
                g.symmetric_share, g.negative_mass, g.negative_count, survey.d
            ));
        }
        out.push_str(&format!(
            "{l:>5}   all  layer score (Saponati et al., 2·share − 1 of Σ_h W_QK^h): {:.4}\n",
            survey.layer_scores[l]
        ));
    }
    Ok(out)
}
