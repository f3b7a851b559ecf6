//! Mutations of valid inputs for the fuzz tests (issue 31): random strings rarely get
//! past a parser's first word, so the fuzz tests start from valid lines and damage
//! them — characters inserted, deleted or replaced, tokens swapped, doubled, dropped
//! or replaced by hostile ones (huge numbers, NaN, infinities, negatives, unicode,
//! NUL), lines cut short. Shared by every crate's `fuzz_*` tests through `#[path]`.
#![allow(dead_code)]

/// A small deterministic random source (SplitMix64), so a failing case is replayed
/// from its seed.
pub struct Rng(u64);

impl Rng {
    /// A source started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Tokens that break careless parsers: numbers past every integer and float range,
/// non-numbers that `parse::<f64>` accepts, signs, unicode, control characters and
/// the punctuation the formats use.
pub const HOSTILE_TOKENS: &[&str] = &[
    "",
    "0",
    "-0",
    "-1",
    "1",
    "2",
    "9",
    "64",
    "65",
    "255",
    "256",
    "4294967295",
    "4294967296",
    "-2147483649",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "1e99",
    "1e308",
    "1e309",
    "-1e308",
    "1e-320",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "infinity",
    "+",
    "-",
    "+-1",
    "0x10",
    "1.5",
    "-0.5",
    ".",
    "é",
    "∞",
    "\u{202e}",
    "\u{feff}",
    "\u{200b}",
    "\u{85}",
    "🂡",
    "\0",
    "\x1b[2J",
    "\r",
    "\t",
    "#",
    "[",
    "]",
    "(",
    ")",
    ";",
    "\\",
    ",",
    "/",
    ":",
    "=",
    "?",
    "*",
    "O",
    "X",
    "-",
    "pass",
    "PASS",
    "moves",
    "fen",
    "startpos",
    "value",
    "name",
    "infinite",
];

/// Characters worth inserting: the same spirit as [`HOSTILE_TOKENS`], one character.
const HOSTILE_CHARS: &[char] = &[
    '\0', '\t', '\r', '\n', ' ', '#', '[', ']', '\\', ';', '(', ')', ',', '-', '+', '.', '/', '*', 'O', 'X', '0', '9',
    'e', 'é', 'ß', '∞', '\u{202e}', '\u{feff}', '\u{85}', '\u{2028}', '\u{7f}', '\u{1b}', '🂡', 'Ω',
];

/// `valid` with one to four random mutations applied.
pub fn mutate(rng: &mut Rng, valid: &str) -> String {
    let mut text = valid.to_string();
    for _ in 0..1 + rng.below(4) {
        text = mutate_once(rng, &text);
    }
    text
}

fn mutate_once(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut tokens: Vec<String> = text.split(' ').map(str::to_string).collect();
    let hostile = |rng: &mut Rng| -> String {
        if rng.chance(10) {
            // Long runs: a huge number, many words.
            let unit = *rng.pick(&["9", "a", "-", "0 ", "pass ", "é"]);
            unit.repeat(50 + rng.below(2000))
        } else {
            rng.pick(HOSTILE_TOKENS).to_string()
        }
    };
    match rng.below(10) {
        0 => {
            let at = rng.below(chars.len() + 1);
            chars.insert(at, *rng.pick(HOSTILE_CHARS));
            chars.into_iter().collect()
        }
        1 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            let len = 1 + rng.below((chars.len() - at).min(8));
            chars.drain(at..at + len);
            chars.into_iter().collect()
        }
        2 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars[at] = *rng.pick(HOSTILE_CHARS);
            chars.into_iter().collect()
        }
        3 => {
            // Cut the line short, as a crashed or slow writer leaves it.
            chars.truncate(rng.below(chars.len() + 1));
            chars.into_iter().collect()
        }
        4 => {
            let at = rng.below(tokens.len());
            tokens[at] = hostile(rng);
            tokens.join(" ")
        }
        5 => {
            let at = rng.below(tokens.len() + 1);
            tokens.insert(at, hostile(rng));
            tokens.join(" ")
        }
        6 if tokens.len() > 1 => {
            tokens.remove(rng.below(tokens.len()));
            tokens.join(" ")
        }
        7 => {
            let at = rng.below(tokens.len());
            let copy = tokens[at].clone();
            tokens.insert(at, copy);
            tokens.join(" ")
        }
        8 if tokens.len() > 1 => {
            let (a, b) = (rng.below(tokens.len()), rng.below(tokens.len()));
            tokens.swap(a, b);
            tokens.join(" ")
        }
        _ => {
            // Change one digit, or prefix a minus sign to a number.
            let digits: Vec<usize> =
                chars.iter().enumerate().filter(|(_, c)| c.is_ascii_digit()).map(|(i, _)| i).collect();
            if digits.is_empty() {
                return chars.into_iter().collect();
            }
            let at = *rng.pick(&digits);
            if rng.chance(50) {
                chars[at] = char::from(b'0' + rng.below(10) as u8);
            } else {
                chars.insert(at, '-');
            }
            chars.into_iter().collect()
        }
    }
}

/// A random line of printable and unprintable characters, up to `max` of them.
pub fn random_line(rng: &mut Rng, max: usize) -> String {
    let len = rng.below(max + 1);
    (0..len)
        .map(|_| match rng.below(4) {
            0 => *rng.pick(HOSTILE_CHARS),
            1 => char::from_u32(rng.next_u64() as u32 % 0x11_0000).unwrap_or('?'),
            _ => char::from(b' ' + rng.below(95) as u8),
        })
        .collect()
}

/// Inputs for a parser: mutations of `valid` most of the time, random lines the rest.
pub fn input(rng: &mut Rng, valid: &[&str]) -> String {
    if rng.chance(85) {
        let seed = valid[rng.below(valid.len())];
        mutate(rng, seed)
    } else {
        random_line(rng, 120)
    }
}

/// The number of proptest cases: `PROPTEST_CASES` from the environment for a long
/// run, else `default` (small enough for the test suite).
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}
