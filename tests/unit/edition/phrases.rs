//! Unit tests of `crate::edition::phrases` (`src/edition/phrases.rs`).

use attention_geometry::edition::phrases::table::PHRASES;
use attention_geometry::edition::phrases::*;

#[test]
fn counts_lists_and_words_read_chinese() {
    assert_eq!(zh("15 of 18"), "15/18");
    assert_eq!(zh("0 of 3 (1600 steps)"), "0/3（1600 步）");
    assert_eq!(zh("4 and 5"), "4 和 5");
    assert_eq!(zh("16, 32, 64 and 128"), "16、32、64 和 128");
    assert_eq!(zh("every"), "每个");
    assert_eq!(zh("none"), "无");
    assert_eq!(
        zh("40 (40–50) at k = 1, 75 (58–90) at k = 2"),
        "40（40–50，k = 1）、75（58–90，k = 2）"
    );
    assert_eq!(zh("KDA, horizon gates"), "KDA，视界门控");
    assert_eq!(
        zh("K = V = 8, 4 pairs (K/2)"),
        "K = V = 8，4 个键值对（K/2）"
    );
    assert_eq!(zh("ρ(raw, score) at init"), "初始化时的 ρ(原始, 分数)");
}

#[test]
fn whole_words_only() {
    // `max` in softmax, `rate` in `renormalised`? no: only whole words
    assert_eq!(zh("softmax"), "softmax");
    assert_eq!(zh("6 (gdn 4, kda 2)"), "6 (gdn 4, kda 2)");
    assert_eq!(zh("1.0e-12"), "1.0e-12");
    assert_eq!(zh("ede58c404bfc"), "ede58c404bfc");
    assert_eq!(zh("head mean-ablated"), "头均值消融");
}

#[test]
fn code_spans_pass_through() {
    assert_eq!(
        zh("trained decoder, `<\\|im_start\\|>`"),
        "训练后的解码器，`<\\|im_start\\|>`"
    );
}

#[test]
fn tables_keep_their_shape() {
    let table = "| weights, layer | raw, words |\n|---|---|\n| trained, layer 1 | 0.66 ± 0.08 |\n";
    let out = zh(table);
    assert_eq!(
        out,
        "| 权重，层 | 原始，仅词 |\n|---|---|\n| 训练后，第 1 层 | 0.66 ± 0.08 |\n"
    );
    for (a, b) in table.lines().zip(out.lines()) {
        assert_eq!(cells(a).len(), cells(b).len());
    }
}

#[test]
fn untranslated_sees_words_not_names_or_code() {
    assert_eq!(
        untranslated("MiniLM 训练后 `foo_bar` W_QK h0"),
        Vec::<String>::new()
    );
    assert_eq!(untranslated("0 of 8"), vec!["of"]);
}

#[test]
fn every_phrase_is_chinese_and_keeps_its_numbers() {
    for &(en, zh_text) in PHRASES {
        let slots = en.matches("{}").count();
        for i in 0..slots {
            assert!(zh_text.contains(&format!("{{{i}}}")), "{en}");
        }
        assert!(
            untranslated(&zh_text.replace(['{', '}'], " ")).is_empty(),
            "{zh_text}"
        );
    }
}

#[test]
fn counts_and_shares_in_words_read_chinese() {
    use attention_geometry::measure::{of_total, share_of};
    assert_eq!(zh(&of_total(0, 80, "runs")), "80 次运行中没有一次");
    assert_eq!(zh(&of_total(80, 80, "runs")), "全部 80 次运行");
    assert_eq!(zh(&of_total(3, 270, "heads")), "3/270 个头");
    assert_eq!(zh(&of_total(0, 8, "tuned arms")), "8 个调参组别中没有一个");
    assert_eq!(zh(&share_of(1.0, "seeds")), "全部种子");
    assert_eq!(zh(&share_of(0.92, "seeds")), "占比 0.92 的种子");
    assert_eq!(zh(&share_of(0.0, "layer ablations")), "没有层消融");
    assert_eq!(zh(&share_of(0.999, "sentences")), "几乎全部句子");
}
