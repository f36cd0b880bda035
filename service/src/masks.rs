//! The masks of personal data, pure text functions: a CPF masked, a name as initials, every CPF in a text. Who sees a
//! person's data whole is `crate::privacy`'s question; these are what everybody else sees, written once for every door
//! (the graph, the exports, the messages, the webhooks, the logs).

/// A CPF masked: the middle six digits kept (`***.456.789-**`).
pub fn mask_cpf(document: &str) -> String {
    // Without allocating on the way: a page of borrowers masks one per row.
    let mut digits = [0_u8; 11];
    let mut n = 0;
    for b in document.bytes().filter(u8::is_ascii_digit) {
        if let Some(d) = digits.get_mut(n) {
            *d = b;
        }
        n += 1;
    }
    if n != 11 {
        return "***".to_owned();
    }
    let mut out = String::with_capacity(14);
    out.push_str("***.");
    out.extend(digits[3..6].iter().map(|&b| char::from(b)));
    out.push('.');
    out.extend(digits[6..9].iter().map(|&b| char::from(b)));
    out.push_str("-**");
    out
}

/// A person's name as initials (`Maria da Silva Pecuarista` → `M. S. P.`; particles left out).
pub fn initials(name: &str) -> String {
    // The particles are ASCII, and no other character lowercases to one of their letters: compared without
    // lowercasing each word into a new string.
    const PARTICLES: [&str; 6] = ["da", "de", "do", "das", "dos", "e"];
    let mut out = String::with_capacity(16);
    for first in name
        .split_whitespace()
        .filter(|w| !PARTICLES.iter().any(|p| w.eq_ignore_ascii_case(p)))
        .filter_map(|w| w.chars().next())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(first.to_uppercase());
        out.push('.');
    }
    out
}

/// `text` with every CPF in it masked: eleven digits, written bare or as `123.456.789-09`, not part of a longer run
/// of digits (a CNPJ's fourteen digits stay) nor of a word (a trace id's hexadecimal `…a01234567890f…` stays: masked,
/// one in fifty would no longer lead to its trace).
pub fn scrub_cpfs(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() && (i == 0 || !in_word(chars[i - 1])) {
            // The run of digits and CPF punctuation starting here.
            let mut j = i;
            let mut digits = 0;
            while j < chars.len() && (chars[j].is_ascii_digit() || matches!(chars[j], '.' | '-')) {
                if chars[j].is_ascii_digit() {
                    digits += 1;
                }
                j += 1;
            }
            // Punctuation that ends the run (a full stop after the number) is not the number's.
            while j > i && !chars[j - 1].is_ascii_digit() {
                j -= 1;
            }
            let run: String = chars[i..j].iter().collect();
            let punctuated_like_cpf = run.len() == 14 && run.as_bytes()[3] == b'.' && run.as_bytes()[7] == b'.';
            let a_word_goes_on = chars.get(j).is_some_and(|c| in_word(*c));
            if digits == 11 && (run.len() == 11 || punctuated_like_cpf) && !a_word_goes_on {
                out.push_str(&mask_cpf(&run));
            } else {
                out.push_str(&run);
            }
            i = j;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// Whether a character belongs to a word (an identifier, a hash) rather than separating words.
fn in_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}
