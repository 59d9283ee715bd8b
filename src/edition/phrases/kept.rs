//! The names the Chinese edition keeps in English (see [`super::untranslated`]).

/// Words a Chinese reader meets in English on purpose: names of models,
/// mixers, libraries, methods and statistics, and the essay's own English
/// terms. Everything else of two or more letters in a measure gets a phrase.
pub const KEPT: &[&str] = &[
    // the essay and the house keep Query, Key and Value in English
    "Query",
    "Key",
    "Value",
    // model names
    "MiniLM",
    // mixer names, as the tables and `delta::Mixer` write them
    "softmax",
    "linear",
    "deltanet",
    "gdn",
    "kda",
    "DeltaNet",
    "Gated",
    "KDA",
    // the library whose gate initialisation chapter 7 copies
    "fla",
    // normalisation layers, named as in the models' code
    "LayerNorm",
    "RMSNorm",
    // a statistic named after its author
    "Spearman",
    // attention rollout (Abnar & Zuidema), kept in English by the Chinese prose
    "rollout",
    // the models' full names, as their cards write them
    "all-MiniLM-L6-v2",
    "SmolLM2-135M-Instruct",
    "BERT",
    "Llama",
    // the special tokens, as the tokenizers write them
    "CLS",
    "SEP",
    "UNK",
    "MASK",
    // names of methods, tasks, circuits and layers
    "Hopfield",
    "ReLU",
    "He",
    "DEQ",
    "FFN",
    "RoPE",
    "MQAR",
    "Zoology",
    "AdamW",
    "Mamba",
    "GLA",
    "RetNet",
    "RWKV",
    "Hyena",
    "Hydra",
    "Sylvester",
    "QK",
    "OV",
    "MLP",
    // the delta rule keeps its name in the Chinese prose (delta 规则)
    "delta",
    "top",
    // operators and divergences, written as in formulas
    "ln",
    "cos",
    "rms",
    "diag",
    "max",
    "Re",
    "KL",
    "JS",
    "TV",
    // names the essay and the book's Chinese sentences write in English
    "Kimi Delta Attention",
    "Delta",
    "Transformer",
    // the cited papers' authors, and the citation's "et al." as the chapters write it
    "et al.",
    "Dong",
    "Abnar",
    "Zuidema",
    "Arora",
    "Belrose",
    "Din",
    "Hanin",
    "Rolnick",
    "Kobayashi",
    "McGrath",
    "Mohebbi",
    "Olsson",
    "Saponati",
    "Xiao",
    "Yang",
    "nostalgebraist",
];
