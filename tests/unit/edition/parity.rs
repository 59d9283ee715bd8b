//! Unit tests of `crate::edition::parity` (`src/edition/parity.rs`).

use attention_geometry::edition::parity::*;

const EN: &str = "# Title\n\nThe mean is {{measure ch01.mean}}; {{verdict ch01.x}}.\n\n\
    ![A plot](figures/ch01-a.svg)\n\nAs {{figure ch01-a}} shows.\n\n\
    ```rust\nlet x = 1;\n```\n\n{{claim ch01.x}}\n";
const ZH: &str = "# 标题\n\n判定为{{verdict ch01.x}}，均值为{{measure ch01.mean}}。\n\n\
    ![一幅图](figures/zh/ch01-a.svg)\n\n如{{figure ch01-a}}所示。\n\n\
    ```rust\nlet x = 1;\n```\n\n{{claim ch01.x}}\n";

#[test]
fn a_faithful_translation_is_in_step_whatever_its_word_order() {
    assert_eq!(differences("p.md", EN, ZH), Vec::<String>::new());
}

#[test]
fn a_measure_added_to_one_edition_only_is_named() {
    let zh = ZH.replace(
        "{{measure ch01.mean}}。",
        "{{measure ch01.mean}}，中位数为{{measure ch01.median}}。",
    );
    assert_eq!(
        differences("p.md", EN, &zh),
        ["p.md: {{measure ch01.median}} appears 0 times in the English and 1 in the Chinese"]
    );
}

#[test]
fn a_claim_missing_from_one_edition_is_named() {
    let zh = ZH.replace("{{claim ch01.x}}\n", "");
    assert_eq!(
        differences("p.md", EN, &zh),
        ["p.md: {{claim ch01.x}} appears 1 times in the English and 0 in the Chinese"]
    );
}

#[test]
fn a_figure_added_or_moved_is_named_with_its_place() {
    let zh = ZH.replace(
        "![一幅图](figures/zh/ch01-a.svg)",
        "![另一幅](figures/zh/ch01-b.svg)",
    );
    let d = differences("p.md", EN, &zh);
    assert_eq!(
        d,
        [
            "p.md: figure reference 1 is “image ch01-a” in the English and “image zh/ch01-b” in the Chinese"
        ]
    );
}

#[test]
fn a_chinese_page_showing_the_english_drawing_is_named() {
    let zh = ZH.replace("figures/zh/ch01-a.svg", "figures/ch01-a.svg");
    assert_eq!(
        differences("p.md", EN, &zh),
        [
            "p.md: figure reference 1 is “image ch01-a” in the English and “image ch01-a” in the Chinese (a Chinese page shows figures/zh/ch01-a.svg)"
        ]
    );
}

#[test]
fn a_code_block_changed_or_added_is_named() {
    let zh = ZH.replace("let x = 1;", "let x = 2;");
    assert_eq!(
        differences("p.md", EN, &zh),
        ["p.md: code block 1 differs (it begins “let x = 1;”)"]
    );
    let zh = format!("{ZH}\n```text\nmore\n```\n");
    assert_eq!(
        differences("p.md", EN, &zh),
        ["p.md: 1 code blocks in the English, 2 in the Chinese"]
    );
}

#[test]
fn markers_inside_code_do_not_count_and_mdbooks_own_are_left_alone() {
    assert_eq!(markers("{{#include x}} {{measure a}}"), ["measure a"]);
    let (prose, code) = split("a {{measure b}}\n```\n{{measure c}}\n```\n");
    assert_eq!(markers(&prose), ["measure b"]);
    assert_eq!(code, ["```\n{{measure c}}\n```\n"]);
}
