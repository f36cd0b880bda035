//! IBGE municipality codes and what follows from them: the federative unit (first two digits) and the region
//! (first digit: 1 North, 2 Northeast, 3 Southeast, 4 South, 5 Centre-West).

use std::fmt;

/// Why a number is not an IBGE municipality code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IbgeCodeError {
    /// Not seven digits.
    #[error("an IBGE municipality code has 7 digits; {0:?} does not")]
    BadFormat(String),
    /// The first two digits name no federative unit.
    #[error("{0} does not start with the code of a federative unit (UF)")]
    UnknownUf(u32),
}

/// The five official regions of Brazil.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Region {
    /// Norte (1).
    North,
    /// Nordeste (2).
    Northeast,
    /// Sudeste (3).
    Southeast,
    /// Sul (4).
    South,
    /// Centro-Oeste (5).
    CentreWest,
}

impl Region {
    /// All five, in IBGE order.
    pub const ALL: [Region; 5] = [
        Self::North,
        Self::Northeast,
        Self::Southeast,
        Self::South,
        Self::CentreWest,
    ];

    /// The region's IBGE digit (1 to 5), the first digit of its municipalities' codes.
    pub fn digit(self) -> u32 {
        match self {
            Self::North => 1,
            Self::Northeast => 2,
            Self::Southeast => 3,
            Self::South => 4,
            Self::CentreWest => 5,
        }
    }

    /// The inclusive range of municipality codes in this region.
    pub fn code_range(self) -> (i32, i32) {
        let d = self.digit() as i32;
        (d * 1_000_000, d * 1_000_000 + 999_999)
    }

    /// The Portuguese name.
    pub fn name_pt(self) -> &'static str {
        match self {
            Self::North => "Norte",
            Self::Northeast => "Nordeste",
            Self::Southeast => "Sudeste",
            Self::South => "Sul",
            Self::CentreWest => "Centro-Oeste",
        }
    }
}

macro_rules! ufs {
    ($( $v:ident = $code:literal, $abbr:literal, $name:literal; )*) => {
        /// The 27 federative units (26 states and the Federal District), with their IBGE codes.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Uf { $( #[doc = $name] $v, )* }

        impl Uf {
            /// All 27, in IBGE code order.
            pub const ALL: [Uf; 27] = [$( Self::$v, )*];

            /// The two-digit IBGE code of the unit.
            pub fn code(self) -> u32 { match self { $( Self::$v => $code, )* } }

            /// The two-letter abbreviation (`MT`).
            pub fn abbreviation(self) -> &'static str { match self { $( Self::$v => $abbr, )* } }

            /// The unit's name in Portuguese.
            pub fn name_pt(self) -> &'static str { match self { $( Self::$v => $name, )* } }

            /// The unit with this two-digit IBGE code.
            pub fn from_code(code: u32) -> Option<Self> { match code { $( $code => Some(Self::$v), )* _ => None } }
        }
    };
}

ufs! {
    Ro = 11, "RO", "Rondônia"; Ac = 12, "AC", "Acre"; Am = 13, "AM", "Amazonas"; Rr = 14, "RR", "Roraima";
    Pa = 15, "PA", "Pará"; Ap = 16, "AP", "Amapá"; To = 17, "TO", "Tocantins";
    Ma = 21, "MA", "Maranhão"; Pi = 22, "PI", "Piauí"; Ce = 23, "CE", "Ceará"; Rn = 24, "RN", "Rio Grande do Norte";
    Pb = 25, "PB", "Paraíba"; Pe = 26, "PE", "Pernambuco"; Al = 27, "AL", "Alagoas"; Se = 28, "SE", "Sergipe";
    Ba = 29, "BA", "Bahia";
    Mg = 31, "MG", "Minas Gerais"; Es = 32, "ES", "Espírito Santo"; Rj = 33, "RJ", "Rio de Janeiro"; Sp = 35, "SP", "São Paulo";
    Pr = 41, "PR", "Paraná"; Sc = 42, "SC", "Santa Catarina"; Rs = 43, "RS", "Rio Grande do Sul";
    Ms = 50, "MS", "Mato Grosso do Sul"; Mt = 51, "MT", "Mato Grosso"; Go = 52, "GO", "Goiás"; Df = 53, "DF", "Distrito Federal";
}

impl Uf {
    /// The unit with this abbreviation, in any case (`mt`, `MT`).
    pub fn from_abbreviation(abbr: &str) -> Option<Self> {
        let abbr = abbr.trim();
        Self::ALL
            .into_iter()
            .find(|uf| uf.abbreviation().eq_ignore_ascii_case(abbr))
    }

    /// The region the unit belongs to (the first digit of its code).
    pub fn region(self) -> Region {
        match self.code() / 10 {
            1 => Region::North,
            2 => Region::Northeast,
            3 => Region::Southeast,
            4 => Region::South,
            _ => Region::CentreWest,
        }
    }

    /// The inclusive range of municipality codes in this unit.
    pub fn code_range(self) -> (i32, i32) {
        let c = self.code() as i32;
        (c * 100_000, c * 100_000 + 99_999)
    }
}

/// A seven-digit IBGE municipality code whose first two digits name a federative unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IbgeCode(u32);

impl IbgeCode {
    /// Accepts a number from 1,100,000 to 5,399,999 whose first two digits are a UF code.
    pub fn new(code: u32) -> Result<Self, IbgeCodeError> {
        if !(1_000_000..=9_999_999).contains(&code) {
            return Err(IbgeCodeError::BadFormat(code.to_string()));
        }
        Uf::from_code(code / 100_000).ok_or(IbgeCodeError::UnknownUf(code))?;
        Ok(Self(code))
    }

    /// Parses the code from text (`5103403`), spaces allowed around it.
    pub fn parse(input: &str) -> Result<Self, IbgeCodeError> {
        let t = input.trim();
        if t.len() != 7 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(IbgeCodeError::BadFormat(t.to_owned()));
        }
        let n: u32 = t.parse().map_err(|_| IbgeCodeError::BadFormat(t.to_owned()))?;
        Self::new(n)
    }

    /// The code as a number.
    pub fn value(self) -> u32 {
        self.0
    }

    /// The federative unit of the municipality.
    pub fn uf(self) -> Uf {
        // `new` checked the UF code, so the fallback is never taken.
        Uf::from_code(self.0 / 100_000).unwrap_or(Uf::Df)
    }

    /// The region of the municipality.
    pub fn region(self) -> Region {
        self.uf().region()
    }
}

impl fmt::Display for IbgeCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uf_and_region_follow_from_the_code() {
        let cases = [
            (5103403, Uf::Mt, Region::CentreWest, "Cuiabá"),
            (2927408, Uf::Ba, Region::Northeast, "Salvador"),
            (1302603, Uf::Am, Region::North, "Manaus"),
            (3550308, Uf::Sp, Region::Southeast, "São Paulo"),
            (4314902, Uf::Rs, Region::South, "Porto Alegre"),
            (5300108, Uf::Df, Region::CentreWest, "Brasília"),
        ];
        for (code, uf, region, name) in cases {
            let c = IbgeCode::new(code).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((c.uf(), c.region()), (uf, region), "{name}");
        }
    }

    #[test]
    fn codes_that_name_no_uf_or_have_the_wrong_length_are_refused() {
        assert_eq!(IbgeCode::new(1900000), Err(IbgeCodeError::UnknownUf(1900000)));
        assert_eq!(IbgeCode::new(5403403), Err(IbgeCodeError::UnknownUf(5403403)));
        assert_eq!(IbgeCode::new(510340), Err(IbgeCodeError::BadFormat("510340".into())));
        assert_eq!(
            IbgeCode::parse("51034O3"),
            Err(IbgeCodeError::BadFormat("51034O3".into()))
        );
        assert_eq!(IbgeCode::parse(" 5103403 ").map(IbgeCode::value), Ok(5103403));
    }

    #[test]
    fn abbreviations_map_both_ways() {
        for uf in Uf::ALL {
            assert_eq!(Uf::from_abbreviation(&uf.abbreviation().to_lowercase()), Some(uf));
            assert_eq!(Uf::from_code(uf.code()), Some(uf));
        }
        assert_eq!(Uf::from_abbreviation("XX"), None);
    }

    /// Checks every municipality of `../shared/data/municipios.csv` (5,570 rows) when the file is present.
    #[test]
    fn every_official_municipality_code_maps_to_its_listed_uf() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data/municipios.csv");
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("SKIPPED: {path} is absent; the reference check against all municipalities did not run");
            return;
        };
        let mut n = 0;
        for line in text.trim_start_matches('\u{feff}').lines().skip(1) {
            let cols: Vec<&str> = line.split(',').collect();
            let code = IbgeCode::parse(cols[0]).unwrap_or_else(|e| panic!("{line}: {e}"));
            let uf_code: u32 = cols[cols.len() - 1]
                .trim()
                .parse()
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(code.uf().code(), uf_code, "{line}");
            n += 1;
        }
        assert_eq!(n, 5570);
    }
}
