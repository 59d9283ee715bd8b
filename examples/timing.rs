fn main() {
    let t = std::time::Instant::now();
    let f = attention_geometry::experiment::learning_cost::book();
    eprintln!("book {:.2}s", t.elapsed().as_secs_f64());
    for m in attention_geometry::experiment::learning_cost::measures() {
        println!("{} = {}", m.key, m.value);
    }
    for t in &f.tuning {
        println!("{:?} {:?} {:?} -> {}", t.relation, t.qk, t.grid, t.lr);
    }
}
