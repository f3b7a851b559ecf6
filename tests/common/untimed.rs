//! Match results and records with what no two runs share taken out: the wall time of
//! each move. Two runs of the same match at fixed nodes must agree on everything else.

use serde_json::Value;

/// The rows of a `results.jsonl` text with the milliseconds of each move taken out;
/// every move an engine was asked for must have had them.
pub fn results(text: &str) -> Vec<Value> {
    text.lines()
        .map(|line| {
            let mut row: Value = serde_json::from_str(line).expect("a JSON results line");
            let plies = row["plies"].as_array_mut().expect("per-move data in each row");
            for stat in plies {
                let ms = stat.as_object_mut().expect("a move's data").remove("ms");
                assert!(ms.is_some_and(|ms| ms.is_u64()), "{line}: a move without its time");
            }
            row
        })
        .collect()
}

/// A game record with each move's seconds replaced by `T`: GGF's `B[D3/0.40/0.186]`
/// becomes `B[D3/0.40/T]`, the comments' `0.186s` (SGF, Chaos Clock and Phantom Go
/// text records) `Ts`.
pub fn record(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        // A time is digits, a point and three digits, then `s`, or `]` after a `/`.
        let starts_number = chars[i].is_ascii_digit() && (i == 0 || !chars[i - 1].is_ascii_digit());
        if starts_number {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            let three = j + 4 <= chars.len() && chars[j] == '.' && chars[j + 1..j + 4].iter().all(char::is_ascii_digit);
            let after = chars.get(j + 4).copied();
            let is_time = three && (after == Some('s') || (after == Some(']') && i > 0 && chars[i - 1] == '/'));
            if is_time {
                out.push('T');
                i = j + 4;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}
