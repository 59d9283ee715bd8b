//! Unit tests of `crate::render::search` (`src/render/search.rs`).

use attention_geometry::render::search::*;

#[test]
fn the_script_round_trips_through_its_escapes() {
    let json = r#"{"a":"it's \\ \"x\""}"#;
    let script = format!(
        "window.search = Object.assign(window.search, JSON.parse('{}'));",
        json.replace('\\', "\\\\").replace('\'', "\\'")
    );
    let (before, back, after) = unwrap_script(&script).unwrap();
    assert_eq!(back, json);
    assert!(before.ends_with("JSON.parse('"));
    assert_eq!(after, "'));");
}

#[test]
fn han_text_is_indexed_by_character_pairs() {
    assert_eq!(tokens("不动点残差"), ["不动", "动点", "点残", "残差"]);
    assert_eq!(tokens("Query、Key"), ["query", "key"]);
    assert!(tokens("，。！").is_empty());
}
