use attention_geometry::experiment::coverage::*;
#[test]
fn print() {
    let t = std::time::Instant::now();
    let _ = NETS.iter().map(|h| (0..100).map(|s| pieces(h, s, GRID).count as f64).sum::<f64>()).sum::<f64>();
    println!("pieces {:?}", t.elapsed());
    let t = std::time::Instant::now();
    for s in 0..100 { drift(SMALL, s); }
    println!("drift {:?}", t.elapsed());
    let t = std::time::Instant::now();
    for s in 0..100 { trial(BOOK, Tokens::Isotropic, s); }
    println!("trial {:?}", t.elapsed());
}
