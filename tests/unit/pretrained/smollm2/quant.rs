//! Unit tests of `crate::pretrained::smollm2::quant` (`src/pretrained/smollm2/quant.rs`).

use attention_geometry::pretrained::smollm2::quant::*;
use half::f16;

#[test]
fn q8_0_reads_signed_bytes() {
    let mut block = [0u8; 34];
    block[..2].copy_from_slice(&f16::from_f32(0.25).to_le_bytes());
    block[2] = 0xfe; // −2
    block[33] = 127;
    let w = Quant::Q8_0.block(&block);
    assert_eq!((w[0], w[1], w[31]), (-0.5, 0.0, 31.75));
}

#[test]
fn a_matrix_is_in_by_out_with_gguf_rows_as_columns() {
    let row = |d: f32| {
        let mut b = vec![0u8; 34];
        b[..2].copy_from_slice(&f16::from_f32(d).to_le_bytes());
        b[2..].fill(1);
        b
    };
    let bytes = [row(1.0), row(2.0)].concat();
    let w = Quant::Q8_0.matrix(&bytes, 32, 2);
    assert_eq!(w.shape(), (32, 2));
    assert_eq!((w[(5, 0)], w[(5, 1)]), (1.0, 2.0));
}
