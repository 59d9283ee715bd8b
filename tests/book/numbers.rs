//! Numbers a reader can use: no registered measure writes a count of none
//! or all as a bare number ("0 of 8", "only 0", "a share 1.00");
//! `measure::of_total`, `share_of` and `share_over` write them in words.

use attention_geometry::experiment::measures;

/// Where `text` writes none or all as a number, if it does.
fn bare(text: &str) -> Option<&'static str> {
    let zero_of = text.match_indices("0 of ").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        !before.is_some_and(|c| c.is_ascii_digit() || c == '.')
    });
    if zero_of {
        return Some("0 of");
    }
    ["only 0 ", "share 1.00", "share 0.00"]
        .into_iter()
        .find(|p| text.contains(p))
}

#[test]
fn no_measure_writes_none_or_all_as_a_bare_number() {
    assert_eq!(bare("0 of 8"), Some("0 of"));
    assert_eq!(bare("| 10 of 12 | 3.0 of 4 |"), None);
    assert_eq!(bare("a share 1.00 of seeds"), Some("share 1.00"));
    let left: Vec<String> = measures()
        .iter()
        .filter_map(|m| bare(&m.value).map(|p| format!("{}: {p:?} in {:?}", m.key, m.value)))
        .collect();
    assert!(
        left.is_empty(),
        "write these in words:\n{}",
        left.join("\n")
    );
}
