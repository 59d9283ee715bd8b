//! The words the library writes into a page, one table per edition: verdicts,
//! the claim card's labels and sentences, the scorecard's and registry's
//! headers, figure labels. A template's `{}` are filled in order by [`fill`].

use super::Lang;
use crate::claim::{Evidence, Kind, Verdict};

/// Every word and template the rendered pages take from the library.
pub struct Words {
    pub lang: Lang,
    /// A figure's label before its number: `Figure 3.1`, `图 3.1`.
    pub figure: &'static str,
    /// Between a figure's label and its caption.
    pub caption_colon: &'static str,
    /// Verdicts, in [`Verdict`]'s order.
    pub verdicts: [&'static str; 6],
    /// Kinds, in [`Kind`]'s order.
    pub kinds: [&'static str; 3],
    /// Evidence, in [`Evidence`]'s order.
    pub evidences: [&'static str; 3],
    /// `evidence: {}`.
    pub evidence: &'static str,
    pub registry: &'static str,
    /// The label of a sentence the essay says, and of a question the book asks.
    pub essay: &'static str,
    pub book_adds: &'static str,
    /// The label of the proposition an essay claim's tests decide.
    pub tested_as: &'static str,
    /// The label of the line that says why the verdict follows from the rows.
    pub why: &'static str,
    /// Why a verdict follows: supported; core flips with a choice `{row} {choice}`;
    /// a scope row failed `{row}`; contradicted `{row}`; undecided `{arm}`
    /// (capped, stalled);
    /// checked; failed `{row}`.
    pub why_supported: &'static str,
    pub why_flips: &'static str,
    pub why_scope: &'static str,
    pub why_contradicted: &'static str,
    pub why_undecided: [&'static str; 3],
    pub why_checked: &'static str,
    pub why_failed: &'static str,
    /// The label of the essay's original sentence beside its translation.
    pub original: &'static str,
    /// The card's columns: role, prediction, measured, margin, held.
    pub card_columns: [&'static str; 5],
    pub core: &'static str,
    pub scope: &'static str,
    pub yes: &'static str,
    pub no: &'static str,
    /// The header of a card's table of the setting's clauses.
    pub setting: &'static str,
    /// The summary of a card's fold, `How it was measured: {}`, filled with
    /// what it holds of [`Words::how_parts`].
    pub how_measured: &'static str,
    /// The fold's parts: the setting, the plateau rule's outcome, the choices varied.
    pub how_parts: [&'static str; 3],
    /// `Varied, the core under each choice:`, above its table.
    pub varied: &'static str,
    /// The columns of a card's table of varied choices.
    pub varied_columns: [&'static str; 3],
    /// `default: {}`, the first row of that table.
    pub default_is: &'static str,
    /// `the default`: the default choice when it has no name.
    pub the_default: &'static str,
    /// The columns of a card's table of replications.
    pub replication_columns: [&'static str; 5],
    pub reproduced: &'static str,
    pub not_reproduced: &'static str,
    pub plateau: &'static str,
    /// No run of any arm hit the step cap.
    pub plateau_capped_all: &'static str,
    /// No run of any arm stayed at chance.
    pub plateau_stalled_all: &'static str,
    /// Every run of the arms not named reached a plateau.
    pub plateau_capped_rest: &'static str,
    /// Every run of the arms not named left chance.
    pub plateau_stalled_rest: &'static str,
    /// No arm-cell the cap kept cutting still rose when the cap last doubled.
    pub plateau_rising_all: &'static str,
    /// Every other arm-cell the cap kept cutting had stopped rising.
    pub plateau_rising_rest: &'static str,
    /// The columns of a card's plateau table: arm, runs at the cap, runs at
    /// chance, runs cut while the arm's mean still rose with the cap.
    pub plateau_columns: [&'static str; 4],
    /// `{n} of {runs}` in a plateau table's cell.
    pub n_of: &'static str,
    /// `, and ` before the last clause of a sentence.
    pub comma_and: &'static str,
    pub what_it_means: &'static str,
    /// Joins the last two names of a list, and the others.
    pub and: &'static str,
    pub comma: &'static str,
    /// A choice's name in quotation marks.
    pub quoted: &'static str,
    pub held_everywhere: &'static str,
    pub held: &'static str,
    pub failed_everywhere: &'static str,
    pub failed: &'static str,
    pub undecided: &'static str,
    /// `{holds} of the {n} settings … fails under {fails}`.
    pub flips_counted: &'static str,
    /// `holds under {names} and fails under {names}`.
    pub flips_named: &'static str,
    /// `… not within the scope tested: {} failed.`
    pub out_of_scope: &'static str,
    /// `; ` between the failed scope tests.
    pub semicolon: &'static str,
    pub construction_checked: &'static str,
    pub proof_checked: &'static str,
    pub check_failed: &'static str,
    /// The scorecard's first and last columns and its total row.
    pub chapter: &'static str,
    pub books_own: &'static str,
    pub all_chapters: &'static str,
    /// `{n} {verdict}`: a count of verdicts.
    pub count: &'static str,
    /// The registry's columns.
    pub registry_columns: [&'static str; 5],
    /// Whose sentence, in the registry: the essay's, the book's.
    pub whose: [&'static str; 2],
    /// `What the book adds to test them, {n} {claim(s)}: {counts}.`
    pub book_adds_count: &'static str,
    pub claim_one: &'static str,
    pub claim_many: &'static str,
    /// The scorecard's two titles: `The essay's claims ({n})`, `The book's own questions ({n})`.
    pub essay_table: &'static str,
    pub book_table: &'static str,
    /// The bottom line's sentences: `{sentences} {empirical} {tested} {claims}`;
    /// `{counts}` with none contradicted, or `{counts} {the contradicted claims' ids}`; `{n} {counts} {contradicted}`.
    pub bottom_tested: &'static str,
    pub bottom_essay_none: &'static str,
    pub bottom_essay_some: &'static str,
    pub bottom_book: &'static str,
    /// The columns of the front page's table of headlines, one row per
    /// chapter: the chapter, what was measured, its value, the prediction,
    /// the verdict.
    pub headline_columns: [&'static str; 4],
    /// Before an essay sentence in a chapter's "found" box.
    pub essay_says: &'static str,
    /// The link to the other edition's page, and its tooltip.
    pub other_edition: &'static str,
    pub other_edition_title: &'static str,
}

/// The English edition's words.
pub const EN: Words = Words {
    lang: Lang::En,
    figure: "Figure",
    caption_colon: ": ",
    verdicts: [
        "supported",
        "qualified",
        "contradicted",
        "checked",
        "failed",
        "undecided",
    ],
    kinds: ["empirical", "theorem", "construction"],
    evidences: ["random", "toy", "pretrained"],
    evidence: "evidence: {}",
    registry: "registry",
    essay: "The essay",
    book_adds: "The book asks",
    tested_as: "Tested as:",
    why: "Why this verdict:",
    why_supported: "every core row must hold under every choice, and every scope row must hold; all did.",
    why_flips: "the core held under the default or some choice, but row {} failed under {}.",
    why_scope: "the core held, but scope row {} failed.",
    why_contradicted: "core row {} failed under the default and under every choice.",
    why_undecided: [
        "{}: half or more of its runs hit the step cap (the table above counts them), so the rows cannot decide.",
        "{}: half or more of its runs never left chance (the table above counts them), so the rows cannot decide.",
        "{}: the cap cut half or more of its runs at every cap, and its mean accuracy still rose when the cap last doubled (the table above counts them), so the rows cannot decide.",
    ],
    why_checked: "a theorem or construction is checked when every row holds; all did.",
    why_failed: "a theorem or construction is checked when every row holds; row {} failed.",
    original: "原文",
    card_columns: ["", "prediction", "measured", "margin", "held"],
    core: "core",
    scope: "scope",
    yes: "yes",
    no: "no",
    setting: "setting",
    how_measured: "How it was measured: {}",
    how_parts: [
        "the setting",
        "whether the runs finished",
        "what was varied",
    ],
    varied: "**Varied**, the core under each choice:",
    varied_columns: ["choice", "core, measured", "held"],
    default_is: "default: {}",
    the_default: "the default",
    replication_columns: [
        "replication of",
        "measured as",
        "their finding",
        "measured here",
        "reproduced",
    ],
    reproduced: "reproduced",
    not_reproduced: "not reproduced",
    plateau: "Plateau:",
    plateau_capped_all: "every run reached a plateau before the step cap",
    plateau_stalled_all: "every run left chance",
    plateau_capped_rest: "every other run reached a plateau before the cap",
    plateau_stalled_rest: "every other run left chance",
    plateau_rising_all: "every arm whose runs the cap kept cutting had stopped rising when its cap last doubled",
    plateau_rising_rest: "every other arm the cap kept cutting had stopped rising when its cap last doubled",
    plateau_columns: [
        "arm",
        "runs that hit the step cap",
        "runs that never left chance",
        "runs cut while the mean still rose as the cap doubled",
    ],
    n_of: "{} of {}",
    comma_and: ", and ",
    what_it_means: "What it means:",
    and: " and ",
    comma: ", ",
    quoted: "“{}”",
    held_everywhere: "Every prediction held, under the default and under every choice varied.",
    held: "Every prediction held.",
    failed_everywhere: "The core prediction failed, under the default and under every choice varied.",
    failed: "The core prediction failed.",
    undecided: "Most runs of a trained arm hit the step cap or never left chance: the measurement cannot decide the claim.",
    flips_counted: "The core prediction holds under {} of the {} settings tried (the default and every choice varied, each listed under *How it was measured*) and fails under the rest: the answer depends on that choice.",
    flips_named: "The core prediction holds under {} and fails under {}: the answer depends on that choice.",
    out_of_scope: "The core prediction held, but not within the scope tested: {} failed.",
    semicolon: "; ",
    construction_checked: "True by construction, and every check of the construction held.",
    proof_checked: "Proved, and every numerical check of the proof held.",
    check_failed: "A check failed: the implementation does not do what the proof or construction says.",
    chapter: "chapter",
    books_own: "the book's own",
    all_chapters: "**all chapters**",
    count: "{} {}",
    registry_columns: [
        "claim",
        "verdict",
        "whose",
        "the sentence under test",
        "kind, evidence",
    ],
    whose: ["essay", "book"],
    book_adds_count: "What the book adds to test them, {} {}: {}.",
    claim_one: "claim",
    claim_many: "claims",
    essay_table: "The essay's claims ({}), each testing one of its sentences as written",
    book_table: "The book's own questions ({}): stronger readings, lemmas and controls",
    bottom_tested: "The essay has {} sentences. Of them, {} say something a measurement could bear on. The book tests {}, with {} claims.",
    bottom_essay_none: "Those claims came out {}: none is contradicted.",
    bottom_essay_some: "Those claims came out {}. The contradicted: {}; each card names the reading that failed.",
    bottom_book: "The book also asks {} questions of its own, stronger than what the essay writes or beside it; they came out {}, and their {} contradicted verdicts are findings about those readings, not about the essay.",
    headline_columns: ["chapter", "claim tested", "measured (predicted)", "verdict"],
    essay_says: "The essay: ",
    other_edition: "中文",
    other_edition_title: "阅读本页的中文版",
};

/// The Chinese edition's words.
pub const ZH: Words = Words {
    lang: Lang::Zh,
    figure: "图",
    caption_colon: "：",
    verdicts: ["成立", "有条件成立", "不成立", "已核验", "核验失败", "未定"],
    kinds: ["经验论断", "定理", "构造"],
    evidences: ["随机初始化", "小模型", "预训练模型"],
    evidence: "证据：{}",
    registry: "登记表",
    essay: "原文",
    book_adds: "本书追问",
    tested_as: "检验的命题：",
    why: "判定依据：",
    why_supported: "每一条核心预测须在每种选择下成立，每一条范围预测也须成立；全部满足。",
    why_flips: "核心预测在默认设置或某种选择下成立，但第 {} 行在{}下不成立。",
    why_scope: "核心预测成立，但范围预测第 {} 行不成立。",
    why_contradicted: "核心预测第 {} 行在默认设置和每一种选择下都不成立。",
    why_undecided: [
        "{}：半数或更多的运行达到步数上限（上表给出计数），各行无法作出判定。",
        "{}：半数或更多的运行从未离开随机水平（上表给出计数），各行无法作出判定。",
        "{}：每个上限都截断了半数或更多的运行，且上限最后一次加倍时其平均准确率仍在上升（上表给出计数），各行无法作出判定。",
    ],
    why_checked: "定理或构造在每一行都成立时即为已核验；全部满足。",
    why_failed: "定理或构造在每一行都成立时即为已核验；第 {} 行不成立。",
    original: "原文",
    card_columns: ["", "预测", "实测", "余量", "满足"],
    core: "核心",
    scope: "适用范围",
    yes: "是",
    no: "否",
    setting: "设置",
    how_measured: "如何测量：{}",
    how_parts: ["设置", "运行是否训练到位", "改变了哪些选择"],
    varied: "**变动**，各设置下的核心测试：",
    varied_columns: ["设置", "核心实测", "满足"],
    default_is: "默认：{}",
    the_default: "默认设置",
    replication_columns: ["复现", "度量", "原文结论", "本书实测", "结果"],
    reproduced: "已复现",
    not_reproduced: "未复现",
    plateau: "平台期：",
    plateau_capped_all: "每次运行都在达到步数上限之前进入平台期",
    plateau_stalled_all: "每次运行都离开了随机水平",
    plateau_capped_rest: "其余运行都在上限之前进入平台期",
    plateau_stalled_rest: "其余运行都离开了随机水平",
    plateau_rising_all: "凡是运行被上限反复截断的分支，在上限最后一次加倍时平均准确率都已不再上升",
    plateau_rising_rest: "其余被上限反复截断的分支在上限最后一次加倍时都已不再上升",
    plateau_columns: [
        "分支",
        "达到步数上限的运行",
        "始终停在随机水平的运行",
        "上限加倍时均值仍在上升、被截断的运行",
    ],
    n_of: "{}/{}",
    comma_and: "，",
    what_it_means: "含义：",
    and: "和",
    comma: "、",
    quoted: "“{}”",
    held_everywhere: "每一项预测都成立，在默认设置下和每一种变动的设置下都是如此。",
    held: "每一项预测都成立。",
    failed_everywhere: "核心预测不成立，在默认设置下和每一种变动的设置下都是如此。",
    failed: "核心预测不成立。",
    undecided: "某一训练组的多数运行触及步数上限或始终停在随机水平：这次测量无法判定该论断。",
    flips_counted: "核心预测在所试的 {1} 种设置中的 {0} 种下成立（默认设置与每一种变动，均列在“如何测量”之下），在其余设置下不成立：答案取决于这一选择。",
    flips_named: "核心预测在 {} 下成立，在 {} 下不成立：答案取决于这一选择。",
    out_of_scope: "核心预测成立，但超出了所测的适用范围：{} 未满足。",
    semicolon: "；",
    construction_checked: "按构造成立，对构造的每一项检查都通过。",
    proof_checked: "已证明，对证明的每一项数值检查都通过。",
    check_failed: "有一项检查未通过：实现没有做到证明或构造所说的。",
    chapter: "章",
    books_own: "本书补充",
    all_chapters: "**全部章节**",
    count: "{1} {0}",
    registry_columns: ["论断", "判定", "出处", "所检验的句子", "类型、证据"],
    whose: ["原文", "本书"],
    book_adds_count: "本书为检验它们补充了 {} {}：{}。",
    claim_one: "条论断",
    claim_many: "条论断",
    essay_table: "原文论断（{} 条），每条按原文所写检验其中一句",
    book_table: "本书自己的问题（{} 条）：更强的解读、引理与对照",
    bottom_tested: "原文共 {} 句。其中 {} 句说的是测量可以检验的内容。本书检验了{}，共 {} 条论断。",
    bottom_essay_none: "这些论断的结果是：{}；没有一条不成立。",
    bottom_essay_some: "这些论断的结果是：{}。不成立的：{}；每张卡片都写明失败的是哪种解读。",
    bottom_book: "本书另外提出 {} 个自己的问题，比原文所写更强或与之并列；结果是：{}。其中 {} 条不成立的判定针对的是这些解读，而不是原文。",
    headline_columns: ["章", "检验的命题", "实测值（预测）", "判定"],
    essay_says: "原文：",
    other_edition: "English",
    other_edition_title: "Read this page in English",
};

impl Words {
    /// The edition's words.
    pub fn of(lang: Lang) -> &'static Words {
        match lang {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }

    pub fn verdict(&self, v: Verdict) -> &'static str {
        self.verdicts[v as usize]
    }

    pub fn kind(&self, k: Kind) -> &'static str {
        self.kinds[k as usize]
    }

    pub fn evidence_word(&self, e: Evidence) -> &'static str {
        self.evidences[e as usize]
    }

    /// `n` of the `total` just named, in words when it is all of them:
    /// `all of them` / `12 of those`; `其中全部` / `其中 12 句`.
    pub fn of_those(&self, n: usize, total: usize) -> String {
        match (self.lang, n == total) {
            (Lang::En, true) => "all of them".into(),
            (Lang::En, false) => format!("{n} of those"),
            (Lang::Zh, true) => "其中全部".into(),
            (Lang::Zh, false) => format!("其中 {n} 句"),
        }
    }

    /// Names as a list a sentence can hold: `a, b and c`; `a、b和c`.
    pub fn list(&self, names: &[String]) -> String {
        match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{}{}{last}", rest.join(self.comma), self.and),
            None => String::new(),
        }
    }
}

/// `template` with its `{}` filled by `args` in order, and its `{0}`, `{1}`, …
/// by position (a language may reorder them).
///
/// ```
/// use attention_geometry::edition::words::fill;
/// assert_eq!(fill("{} of {}", &["2", "3"]), "2 of 3");
/// assert_eq!(fill("{1} 中的 {0}", &["2", "3"]), "3 中的 2");
/// ```
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut next = 0;
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if after[..close].chars().all(|c| c.is_ascii_digit()) => {
                let index = match &after[..close] {
                    "" => {
                        next += 1;
                        next - 1
                    }
                    n => n.parse().expect("digits"),
                };
                out.push_str(args.get(index).copied().unwrap_or(""));
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
