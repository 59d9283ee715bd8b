//! Unit tests of `crate::figures::style` (`src/figures/style.rs`).

use attention_geometry::figures::style::tick;

#[test]
fn ticks_read_as_numbers() {
    let cases = [
        (0.0, "0"),
        (-0.0, "0"),
        (-5.551115123125783e-17, "0"),
        (1e-15, "10⁻¹⁵"),
        (50.0, "50"),
        (1000.0, "1000"),
        (2.5, "2.5"),
        (0.30000000000000004, "0.3"),
        (-0.2, "−0.2"),
        (0.001, "0.001"),
        (1e-5, "10⁻⁵"),
        (1e15, "10¹⁵"),
        (2.5e-7, "2.5×10⁻⁷"),
    ];
    for (v, s) in cases {
        assert_eq!(tick(&v), s, "{v}");
    }
}
