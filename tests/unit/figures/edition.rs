//! Unit tests of `crate::figures::edition` (`src/figures/edition.rs`) and
//! the Chinese figure tables (`src/edition/figures/`).

use attention_geometry::edition::{Lang, figures::characters, wide};
use attention_geometry::figures::edition::{
    FAMILY, FAMILY_ZH, english_left, family, in_edition, say, texts,
};
use attention_geometry::figures::style::{COLUMN, svg, text, verbatim};
use plotters::prelude::*;

#[test]
fn english_is_said_as_it_is_and_chinese_from_the_tables() {
    assert_eq!(say("seed"), "seed");
    assert_eq!(family(), FAMILY);
    in_edition(Lang::Zh, || {
        assert_eq!(family(), FAMILY_ZH);
        // no English word: as it is
        assert_eq!(say("K = 8"), "K = 8");
        // no entry: as it is, for the test below to name
        assert_eq!(say("a string nobody wrote"), "a string nobody wrote");
    });
    // the edition is restored
    assert_eq!(family(), FAMILY);
}

#[test]
fn a_text_element_is_read_back_unescaped_and_verbatim_data_is_not_english_left() {
    let drawn = in_edition(Lang::Zh, || {
        svg(COLUMN, 40, |root| {
            root.draw(&Text::new("seed < b & \"cd\"", (5, 5), text(14)))?;
            root.draw(&Text::new("grassy", (5, 25), verbatim(14)))?;
            Ok(())
        })
    })
    .unwrap();
    assert_eq!(texts(&drawn), ["seed < b & \"cd\"", "grassy"]);
    assert_eq!(english_left(&drawn), ["seed < b & \"cd\""]);
}

#[test]
fn a_chinese_figure_names_the_cjk_family_with_fallbacks() {
    let drawn = in_edition(Lang::Zh, || {
        svg(COLUMN, 40, |root| {
            root.draw(&Text::new("单标", (5, 5), text(14)))?;
            Ok(())
        })
    })
    .unwrap();
    assert!(drawn.contains(&format!("font-family=\"{FAMILY_ZH}\"")));
    assert!(FAMILY_ZH.ends_with("sans-serif"));
    assert!(english_left(&drawn).is_empty());
}

#[test]
fn the_cjk_subset_draws_every_character_of_the_figure_tables() {
    // drawing a canvas registers the embedded fonts
    svg(10, 10, |_| Ok(())).unwrap();
    let font = FontDesc::new(FontFamily::Name(FAMILY_ZH), 20.0, FontStyle::Normal);
    let inked = |c: char| {
        let mut dots = 0;
        let _ = font.draw(&c.to_string(), (0, 0), |_, _, a| {
            dots += usize::from(a > 0.0);
            Ok::<(), ()>(())
        });
        dots > 0
    };
    assert!(inked('恒') && inked('a'));
    // the Chinese and the ASCII; Noto Sans CJK has no sub- and superscripts,
    // which the browser takes from a fallback font
    let missing: String = characters()
        .into_iter()
        .filter(|&c| wide(c) || c.is_ascii_graphic())
        .filter(|&c| !inked(c))
        .collect();
    assert!(
        missing.is_empty(),
        "the CJK font subset lacks {missing:?}: run `python3 scripts/subset-cjk-font.py` \
         (see its header) and commit src/figures/font/NotoSansCJKsc-subset.otf"
    );
}
