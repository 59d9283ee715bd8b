#[test]
fn print() {
    let t = std::time::Instant::now();
    attention_geometry::experiment::heads::book();
    println!("ch03 {:?}", t.elapsed());
    let t = std::time::Instant::now();
    attention_geometry::experiment::coverage::book();
    println!("ch02 {:?}", t.elapsed());
}
