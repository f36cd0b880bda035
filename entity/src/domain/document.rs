//! Brazilian taxpayer documents: CPF (people) and CNPJ (companies), parsed once at the edge.
//!
//! Both carry two check digits computed modulo 11. Since July 2026 (IN RFB 2.229/2024) a CNPJ may also carry
//! letters in its first twelve positions; each character then counts as its ASCII code minus 48, so digits keep
//! their value and `A` counts 17. The check digits stay numeric.

use std::fmt;

/// Why a text is not a valid CPF or CNPJ.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DocumentError {
    /// Nothing but punctuation.
    #[error("the document is empty")]
    Empty,
    /// A character that is neither a digit, a letter nor accepted punctuation (`.`, `/`, `-`, space).
    #[error("the document has the character {0:?}, which is neither a digit, a letter nor punctuation")]
    BadCharacter(char),
    /// Not 11 (CPF) or 14 (CNPJ) characters once the punctuation is removed.
    #[error("a CPF has 11 digits and a CNPJ 14 characters; this one has {0}")]
    BadLength(usize),
    /// Letters where only digits are allowed (a CPF, or a CNPJ's two check digits).
    #[error("letters are allowed only in the first 12 characters of a CNPJ")]
    LetterNotAllowed,
    /// All digits equal (`111.111.111-11`): passes the arithmetic but is never issued.
    #[error("a document with all digits equal is not valid")]
    Repeated,
    /// The check digits do not match.
    #[error("the check digits do not match (expected {expected}, found {found})")]
    CheckDigits {
        /// The check digits the first positions call for.
        expected: String,
        /// The check digits given.
        found: String,
    },
}

fn clean(input: &str) -> Result<String, DocumentError> {
    let mut out = String::with_capacity(14);
    for c in input.trim().chars() {
        match c {
            '0'..='9' | 'A'..='Z' => out.push(c),
            'a'..='z' => out.push(c.to_ascii_uppercase()),
            '.' | '/' | '-' | ' ' | '\u{a0}' => {}
            other => return Err(DocumentError::BadCharacter(other)),
        }
    }
    if out.is_empty() {
        return Err(DocumentError::Empty);
    }
    Ok(out)
}

fn value(c: u8) -> u32 {
    u32::from(c) - 48
}

/// The modulo-11 check digit over `chars` with `weights`: remainder below 2 gives 0, otherwise 11 - remainder.
fn mod11_digit(chars: &[u8], weights: &[u32]) -> u8 {
    let sum: u32 = chars.iter().zip(weights).map(|(c, w)| value(*c) * w).sum();
    let rem = sum % 11;
    if rem < 2 { b'0' } else { b'0' + (11 - rem) as u8 }
}

fn check(body: &[u8], given: &[u8], w1: &[u32], w2: &[u32]) -> Result<(), DocumentError> {
    let d1 = mod11_digit(body, w1);
    let mut with_d1 = body.to_vec();
    with_d1.push(d1);
    let d2 = mod11_digit(&with_d1, w2);
    if given != [d1, d2] {
        return Err(DocumentError::CheckDigits {
            expected: String::from_utf8_lossy(&[d1, d2]).into_owned(),
            found: String::from_utf8_lossy(given).into_owned(),
        });
    }
    Ok(())
}

/// A valid CPF: 11 digits, stored without punctuation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cpf(String);

impl Cpf {
    /// Parses a CPF with or without punctuation (`123.456.789-09`, `12345678909`).
    pub fn parse(input: &str) -> Result<Self, DocumentError> {
        let s = clean(input)?;
        Self::from_clean(s)
    }

    fn from_clean(s: String) -> Result<Self, DocumentError> {
        if s.len() != 11 {
            return Err(DocumentError::BadLength(s.len()));
        }
        if !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(DocumentError::LetterNotAllowed);
        }
        let b = s.as_bytes();
        if b.iter().all(|c| *c == b[0]) {
            return Err(DocumentError::Repeated);
        }
        check(
            &b[..9],
            &b[9..],
            &[10, 9, 8, 7, 6, 5, 4, 3, 2],
            &[11, 10, 9, 8, 7, 6, 5, 4, 3, 2],
        )?;
        Ok(Self(s))
    }

    /// The 11 digits without punctuation.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Cpf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.0;
        write!(f, "{}.{}.{}-{}", &s[0..3], &s[3..6], &s[6..9], &s[9..11])
    }
}

/// A valid CNPJ, numeric or alphanumeric: 14 characters, stored without punctuation, letters upper-case.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cnpj(String);

const CNPJ_W1: [u32; 12] = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2: [u32; 13] = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

impl Cnpj {
    /// Parses a CNPJ with or without punctuation (`12.ABC.345/01DE-35`, `11222333000181`).
    pub fn parse(input: &str) -> Result<Self, DocumentError> {
        let s = clean(input)?;
        Self::from_clean(s)
    }

    fn from_clean(s: String) -> Result<Self, DocumentError> {
        if s.len() != 14 {
            return Err(DocumentError::BadLength(s.len()));
        }
        let b = s.as_bytes();
        if !b[12..].iter().all(u8::is_ascii_digit) {
            return Err(DocumentError::LetterNotAllowed);
        }
        if b.iter().all(|c| *c == b[0]) {
            return Err(DocumentError::Repeated);
        }
        check(&b[..12], &b[12..], &CNPJ_W1, &CNPJ_W2)?;
        Ok(Self(s))
    }

    /// The 14 characters without punctuation.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first 8 characters: the company, whatever the branch.
    pub fn root(&self) -> &str {
        &self.0[..8]
    }

    /// Whether this CNPJ uses letters (the form valid from July 2026).
    pub fn is_alphanumeric(&self) -> bool {
        self.0.bytes().any(|b| b.is_ascii_uppercase())
    }
}

impl fmt::Display for Cnpj {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.0;
        write!(f, "{}.{}.{}/{}-{}", &s[0..2], &s[2..5], &s[5..8], &s[8..12], &s[12..14])
    }
}

/// Which kind of document identifies a party.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocumentKind {
    /// Cadastro de Pessoas Físicas: a person.
    Cpf,
    /// Cadastro Nacional da Pessoa Jurídica: a company or other legal entity.
    Cnpj,
}

impl DocumentKind {
    /// The stored spelling (`CPF`, `CNPJ`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cpf => "CPF",
            Self::Cnpj => "CNPJ",
        }
    }
}

/// A CPF or a CNPJ, told apart by length.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Document {
    /// A person.
    Cpf(Cpf),
    /// A legal entity.
    Cnpj(Cnpj),
}

impl Document {
    /// Parses either kind, in any punctuation: 11 characters make a CPF, 14 a CNPJ.
    pub fn parse(input: &str) -> Result<Self, DocumentError> {
        let s = clean(input)?;
        match s.len() {
            11 => Cpf::from_clean(s).map(Self::Cpf),
            14 => Cnpj::from_clean(s).map(Self::Cnpj),
            n => Err(DocumentError::BadLength(n)),
        }
    }

    /// The characters without punctuation, as stored.
    pub fn as_str(&self) -> &str {
        match self {
            Self::Cpf(c) => c.as_str(),
            Self::Cnpj(c) => c.as_str(),
        }
    }

    /// CPF or CNPJ.
    pub fn kind(&self) -> DocumentKind {
        match self {
            Self::Cpf(_) => DocumentKind::Cpf,
            Self::Cnpj(_) => DocumentKind::Cnpj,
        }
    }

    /// The CNPJ root (first 8 characters), or `None` for a CPF.
    pub fn cnpj_root(&self) -> Option<&str> {
        match self {
            Self::Cpf(_) => None,
            Self::Cnpj(c) => Some(c.root()),
        }
    }
}

impl fmt::Display for Document {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Cpf(c) => c.fmt(f),
            Self::Cnpj(c) => c.fmt(f),
        }
    }
}

/// Completes 12 CNPJ characters (8 root + 4 branch) with their check digits; used to make valid test and demo data.
pub fn cnpj_with_check_digits(first12: &str) -> Option<Cnpj> {
    let s = clean(first12).ok()?;
    if s.len() != 12 {
        return None;
    }
    let b = s.as_bytes();
    let d1 = mod11_digit(b, &CNPJ_W1);
    let mut v = b.to_vec();
    v.push(d1);
    let d2 = mod11_digit(&v, &CNPJ_W2);
    v.push(d2);
    Cnpj::from_clean(String::from_utf8(v).ok()?).ok()
}

/// Completes 9 CPF digits with their check digits; used to make valid test and demo data.
pub fn cpf_with_check_digits(first9: &str) -> Option<Cpf> {
    let s = clean(first9).ok()?;
    if s.len() != 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let b = s.as_bytes();
    let d1 = mod11_digit(b, &[10, 9, 8, 7, 6, 5, 4, 3, 2]);
    let mut v = b.to_vec();
    v.push(d1);
    let d2 = mod11_digit(&v, &[11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    v.push(d2);
    Cpf::from_clean(String::from_utf8(v).ok()?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpf_is_accepted_in_any_punctuation() {
        for input in ["529.982.247-25", "52998224725", " 529 982 247 25 ", "529.982.247/25"] {
            let cpf = Cpf::parse(input).unwrap_or_else(|e| panic!("{input:?} should parse: {e}"));
            assert_eq!(cpf.as_str(), "52998224725", "{input:?}");
            assert_eq!(cpf.to_string(), "529.982.247-25");
        }
    }

    #[test]
    fn bad_cpfs_are_refused_with_the_reason() {
        let cases: &[(&str, DocumentError, &str)] = &[
            (
                "529.982.247-24",
                DocumentError::CheckDigits {
                    expected: "25".into(),
                    found: "24".into(),
                },
                "wrong second digit",
            ),
            (
                "529.982.247-35",
                DocumentError::CheckDigits {
                    expected: "25".into(),
                    found: "35".into(),
                },
                "wrong first digit",
            ),
            ("111.111.111-11", DocumentError::Repeated, "all digits equal"),
            ("5299822472", DocumentError::BadLength(10), "one digit short"),
            ("529.982.247-2X", DocumentError::LetterNotAllowed, "letter in a CPF"),
            ("529,982,247-25", DocumentError::BadCharacter(','), "comma"),
            (" .-/ ", DocumentError::Empty, "only punctuation"),
        ];
        for (input, expected, why) in cases {
            assert_eq!(Cpf::parse(input).as_ref().err(), Some(expected), "{why}: {input:?}");
        }
    }

    #[test]
    fn numeric_cnpj_parses_and_keeps_its_root() {
        let cnpj = Cnpj::parse("11.222.333/0001-81").expect("valid CNPJ");
        assert_eq!(cnpj.as_str(), "11222333000181");
        assert_eq!(cnpj.root(), "11222333");
        assert_eq!(cnpj.to_string(), "11.222.333/0001-81");
        assert!(!cnpj.is_alphanumeric());
        assert_eq!(Cnpj::parse("11222333000181"), Ok(cnpj));
    }

    #[test]
    fn alphanumeric_cnpj_of_in_rfb_2229_is_valid_in_any_case() {
        // The example published by the Receita Federal for the alphanumeric CNPJ.
        let cnpj = Cnpj::parse("12.ABC.345/01DE-35").expect("RFB example");
        assert_eq!(cnpj.as_str(), "12ABC34501DE35");
        assert_eq!(cnpj.root(), "12ABC345");
        assert!(cnpj.is_alphanumeric());
        assert_eq!(
            Cnpj::parse("12abc34501de35").map(|c| c.to_string()),
            Ok("12.ABC.345/01DE-35".into())
        );
    }

    #[test]
    fn bad_cnpjs_are_refused_with_the_reason() {
        let cases: &[(&str, DocumentError, &str)] = &[
            (
                "11.222.333/0001-82",
                DocumentError::CheckDigits {
                    expected: "81".into(),
                    found: "82".into(),
                },
                "wrong digit",
            ),
            (
                "12.ABC.345/01DE-36",
                DocumentError::CheckDigits {
                    expected: "35".into(),
                    found: "36".into(),
                },
                "alphanumeric, wrong digit",
            ),
            (
                "12.ABC.345/01DE-3A",
                DocumentError::LetterNotAllowed,
                "letter as check digit",
            ),
            ("00.000.000/0000-00", DocumentError::Repeated, "all zeros"),
            ("11.222.333/0001-8", DocumentError::BadLength(13), "short"),
            (
                "11.222.333/0001-81#",
                DocumentError::BadCharacter('#'),
                "stray character",
            ),
        ];
        for (input, expected, why) in cases {
            assert_eq!(Cnpj::parse(input).as_ref().err(), Some(expected), "{why}: {input:?}");
        }
    }

    #[test]
    fn document_tells_cpf_from_cnpj_by_length() {
        assert_eq!(
            Document::parse("529.982.247-25").map(|d| d.kind()),
            Ok(DocumentKind::Cpf)
        );
        assert_eq!(
            Document::parse("11222333000181").map(|d| d.kind()),
            Ok(DocumentKind::Cnpj)
        );
        assert_eq!(
            Document::parse("11222333000181")
                .ok()
                .and_then(|d| d.cnpj_root().map(str::to_owned)),
            Some("11222333".into())
        );
        assert_eq!(Document::parse("123456789012"), Err(DocumentError::BadLength(12)));
        assert_eq!(Document::parse("1234567890123456"), Err(DocumentError::BadLength(16)));
    }

    #[test]
    fn check_digit_helpers_produce_valid_documents() {
        assert_eq!(
            cnpj_with_check_digits("112223330001").map(|c| c.to_string()),
            Some("11.222.333/0001-81".into())
        );
        assert_eq!(
            cnpj_with_check_digits("12ABC34501DE").map(|c| c.to_string()),
            Some("12.ABC.345/01DE-35".into())
        );
        assert_eq!(
            cpf_with_check_digits("529982247").map(|c| c.to_string()),
            Some("529.982.247-25".into())
        );
        assert_eq!(cpf_with_check_digits("12345"), None);
    }
}
