//! Unit tests of `crate::render::quotes` (`src/render/quotes.rs`).

use attention_geometry::render::quotes::*;

#[test]
fn a_line_break_between_chinese_characters_is_no_space() {
    assert_eq!(join_lines("第一行\n第二行"), "第一行第二行");
    assert_eq!(join_lines("句号。\n下一句"), "句号。下一句");
    assert_eq!(join_lines("中文\nEnglish"), "中文\nEnglish");
    assert_eq!(join_lines("中文\n\n下一段"), "中文\n\n下一段");
}
