//! Unit tests of `crate::pretrained::smollm2::packed` (`src/pretrained/smollm2/packed/`).

use attention_geometry::pretrained::smollm2::linear::Linear;
use attention_geometry::pretrained::smollm2::packed::*;
use attention_geometry::pretrained::smollm2::quant::Quant;
use half::f16;
use nalgebra::DMatrix;

/// A matrix of `outputs` rows of `inputs / 32` blocks with varied scales,
/// minima and codes (all 0..16 nibbles, all −128..128 bytes).
fn blocks(quant: Quant, inputs: usize, outputs: usize) -> Packed {
    let count = outputs * inputs / 32;
    let bytes = (0..count)
        .flat_map(|b| {
            let d = f16::from_f32(0.001 + 0.0007 * (b % 13) as f32).to_le_bytes();
            let m = f16::from_f32(-0.01 * (b % 7) as f32).to_le_bytes();
            let code = |j: usize| ((b * 37 + j * 11) % 256) as u8;
            match quant {
                Quant::Q4_1 => [&d[..], &m[..], &(0..16).map(code).collect::<Vec<_>>()].concat(),
                Quant::Q8_0 => [&d[..], &(0..32).map(code).collect::<Vec<_>>()].concat(),
            }
        })
        .collect();
    Packed::new(quant, bytes, inputs, outputs)
}

#[test]
fn every_unit_gives_the_dequantised_product_up_to_the_order_of_its_sums() {
    // 7 outputs: a group of four and a group that repeats its last row
    for quant in [Quant::Q4_1, Quant::Q8_0] {
        let w = blocks(quant, 96, 7);
        let x: Vec<f32> = (0..96)
            .map(|i| ((i * 7919) % 23) as f32 * 0.13 - 1.4)
            .collect();
        let dense = DMatrix::from_row_slice(1, 96, &x) * w.dequantise();
        let magnitude = DMatrix::from_row_slice(1, 96, &x).abs() * w.dequantise().abs();
        let units: Vec<Units> = Units::ALL.into_iter().filter(|u| u.available()).collect();
        assert!(units.contains(&Units::Portable) && units.contains(&Units::best()));
        for units in units {
            let mut y = vec![f32::NAN; 7];
            w.times_on(units, &x, &mut y);
            for o in 0..7 {
                // f32 sums of 96 terms in another order: a few ulps of Σ|x w|
                let error = (y[o] - dense[o]).abs();
                assert!(
                    error <= 1e-5 * magnitude[o],
                    "{quant:?} {units:?} output {o}: {error:e}"
                );
            }
        }
    }
}

#[test]
fn a_packed_matrix_projects_and_embeds_as_its_f32_copy() {
    let w = blocks(Quant::Q8_0, 64, 5);
    let dense = w.dequantise();
    assert_eq!(Linear::shape(&w), (64, 5));
    assert_eq!(Linear::column(&w, 3), dense.column(3).into_owned());
    let x = DMatrix::from_fn(3, 64, |i, j| ((i + 3 * j) % 7) as f32 - 3.0);
    assert!((Linear::project(&w, &x) - &x * &dense).amax() < 1e-3);
}

#[test]
fn a_scale_is_read_exactly_subnormals_included() {
    for bits in 0..=u16::MAX {
        let h = f16::from_bits(bits);
        if h.is_finite() {
            let [low, high] = bits.to_le_bytes();
            assert_eq!(
                f16_bits(low, high).to_bits(),
                h.to_f32().to_bits(),
                "{bits:#06x}"
            );
        }
    }
}

#[test]
#[should_panic(expected = "not a whole number of blocks")]
fn a_row_of_part_of_a_block_is_refused() {
    Packed::new(Quant::Q4_1, vec![0; 20], 31, 1);
}
