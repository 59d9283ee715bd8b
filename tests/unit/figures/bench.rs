//! Unit tests of `crate::figures::bench` (`src/figures/bench.rs`).

use attention_geometry::bench::Mixer;
use attention_geometry::figures::bench::read_report;

#[test]
fn a_report_reads_back_as_rows_and_machine() {
    let text = "matrix product (512³, nalgebra gemm): 26.60 GFLOP/s
state read-modify-write (x ← a x + b):
  K = V = 64 (32 KiB): 184.8 GB/s
  K = V = 128 (128 KiB): 108.2 GB/s
vector units: AVX2 and FMA, detected at run time
mixer             T  K=V  median ms  GFLOP/s  bound ms  bound  of bound
softmax         256   64      3.364     2.50     0.317  flops        9%
kda_chunked   16384  128    123.437    17.51    81.245  flops       66%
kda_chunked by chunk size at T = 4096, K = V = 128: 16: 34.6 ms
";
    let (rows, machine) = read_report(text).unwrap();
    assert_eq!(machine.gemm_gflops, 26.6);
    assert_eq!(machine.bandwidth, vec![(64, 184.8), (128, 108.2)]);
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (rows[1].mixer, rows[1].t, rows[1].d),
        (Mixer::KdaChunked, 16384, 128)
    );
    assert!((rows[0].seconds - 3.364e-3).abs() < 1e-12);
    assert!(read_report("not a report").is_none());
}
