//! The vendored SmolLM2 decoder: its extract, its agreement with llama.cpp
//! (`models/smollm2/reference-llama.json`, written by
//! `scripts/reference_smollm2.py`), and the commands that run it.

mod cli;
mod extract;
mod reference;
mod tokenizer;
