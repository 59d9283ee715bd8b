use attention_geometry::experiment::relations::measures;
#[test]
fn print() { for m in measures() { println!("{} = {}", m.key, m.value); } }
