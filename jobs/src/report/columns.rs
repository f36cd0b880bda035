//! The columns of a bank's monthly report: what Fomento expects, how headers are recognised (ignoring case, accents,
//! punctuation and spacing, with known synonyms), and the closed vocabularies of programme lines and activities.

use entity::vocab::{FcoActivity, FcoLine};

/// A column Fomento reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Column {
    /// The bank's carta number.
    CartaNumber,
    /// The borrower's name.
    Borrower,
    /// CPF or CNPJ.
    Document,
    /// IBGE municipality code.
    IbgeCode,
    /// Municipality name.
    Municipality,
    /// Federative unit.
    Uf,
    /// Programme line.
    Line,
    /// Activity.
    Activity,
    /// Purpose (investment, operating): informative.
    Purpose,
    /// Financed value.
    Financed,
    /// Contracted value.
    Contracted,
    /// Approval date.
    ApprovedOn,
    /// Contracting date.
    ContractedOn,
    /// The day the project was presented to the bank (art. 3 sole §).
    PresentedOn,
    /// Term in months.
    TermMonths,
    /// Grace in months.
    GraceMonths,
}

/// The template: each column's header, whether it is required, a note for the bank, and its synonyms (normalised).
pub const TEMPLATE: &[(Column, &str, bool, &str, &[&str])] = &[
    (
        Column::CartaNumber,
        "Nº da Carta-Consulta",
        true,
        "o número da carta-consulta no banco",
        &[
            "no da carta consulta",
            "n da carta consulta",
            "numero da carta consulta",
            "numero da carta",
            "no carta",
            "n carta",
            "carta consulta",
            "carta",
            "numero carta",
            "carta no",
        ],
    ),
    (
        Column::Borrower,
        "Tomador",
        true,
        "nome ou razão social",
        &[
            "tomador",
            "nome do tomador",
            "mutuario",
            "proponente",
            "nome",
            "razao social",
        ],
    ),
    (
        Column::Document,
        "CPF/CNPJ",
        true,
        "com ou sem pontuação; aceita o CNPJ alfanumérico",
        &[
            "cpf cnpj",
            "cpf",
            "cnpj",
            "documento",
            "cpf cnpj do tomador",
            "cnpj cpf",
        ],
    ),
    (
        Column::IbgeCode,
        "Código IBGE",
        false,
        "7 dígitos; ou informe Município e UF",
        &[
            "codigo ibge",
            "cod ibge",
            "ibge",
            "codigo do municipio",
            "municipio ibge",
            "cod municipio",
        ],
    ),
    (
        Column::Municipality,
        "Município",
        false,
        "nome como o IBGE o escreve",
        &["municipio", "cidade", "municipio do empreendimento"],
    ),
    (Column::Uf, "UF", false, "MT", &["uf", "estado"]),
    (
        Column::Line,
        "Programa/Linha",
        true,
        "FCO Rural, FCO Verde ou Pronaf",
        &[
            "programa linha",
            "linha",
            "programa",
            "linha de credito",
            "linha programa",
        ],
    ),
    (
        Column::Activity,
        "Atividade",
        true,
        "veja a lista",
        &["atividade", "atividade financiada"],
    ),
    (
        Column::Purpose,
        "Finalidade",
        false,
        "Investimento ou Custeio",
        &["finalidade"],
    ),
    (
        Column::Financed,
        "Valor Financiado (R$)",
        true,
        "R$ 1.234.567,89 ou um número",
        &[
            "valor financiado r",
            "valor financiado",
            "valor da carta",
            "valor aprovado",
            "valor aprovado r",
            "valor",
        ],
    ),
    (
        Column::Contracted,
        "Valor Contratado (R$)",
        false,
        "quando contratada",
        &["valor contratado", "valor contratado r"],
    ),
    (
        Column::ApprovedOn,
        "Data de Aprovação",
        true,
        "dd/mm/aaaa",
        &[
            "data de aprovacao",
            "data aprovacao",
            "aprovacao",
            "aprovada em",
            "dt aprovacao",
        ],
    ),
    (
        Column::ContractedOn,
        "Data de Contratação",
        false,
        "dd/mm/aaaa, quando contratada",
        &[
            "data de contratacao",
            "data contratacao",
            "contratacao",
            "contratada em",
            "dt contratacao",
        ],
    ),
    (
        Column::PresentedOn,
        "Data de Apresentação do Projeto",
        false,
        "dd/mm/aaaa: quando o projeto foi apresentado ao banco, nos 120 dias da aprovação do CDAE (art. 3, parágrafo único)",
        &[
            "data de apresentacao do projeto",
            "data apresentacao projeto",
            "data de apresentacao",
            "apresentacao do projeto",
            "projeto apresentado em",
            "dt apresentacao",
        ],
    ),
    (
        Column::TermMonths,
        "Prazo (meses)",
        false,
        "meses inteiros",
        &["prazo meses", "prazo", "prazo em meses", "prazo total meses"],
    ),
    (
        Column::GraceMonths,
        "Carência (meses)",
        false,
        "meses inteiros, no máximo o prazo",
        &["carencia meses", "carencia", "carencia em meses"],
    ),
];

/// The header the template gives column `c`.
pub fn header(c: Column) -> &'static str {
    TEMPLATE.iter().find(|t| t.0 == c).map(|t| t.1).unwrap_or("")
}

/// The columns of a bank's sheet as the banks send it (municipality by name and UF, no contracted value), in order:
/// the layout of the LibreOffice samples, which the benchmark and the tests write too.
pub const BANK_SHEET: [Column; 13] = [
    Column::CartaNumber,
    Column::Borrower,
    Column::Document,
    Column::Municipality,
    Column::Uf,
    Column::Line,
    Column::Activity,
    Column::Purpose,
    Column::Financed,
    Column::ApprovedOn,
    Column::ContractedOn,
    Column::TermMonths,
    Column::GraceMonths,
];

/// Whether `cells` is the template's own row of notes, the row right under its header (each note begins
/// `obrigatório —` or `opcional —`): a bank that fills the template below it sends that row too.
pub fn is_template_notes_row(cells: &[super::read::Cell]) -> bool {
    let mut notes = 0;
    for c in cells {
        match c {
            super::read::Cell::Text(t) if !t.trim().is_empty() => {
                let n = normalize(t);
                if !(n.starts_with("obrigatorio") || n.starts_with("opcional")) {
                    return false;
                }
                notes += 1;
            }
            c if c.is_blank() => {}
            _ => return false,
        }
    }
    notes >= 2
}

/// Lower case, accents and ordinal signs folded, everything but letters and digits turned into single spaces.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' | 'ª' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' | 'º' | '°' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c if c.is_alphanumeric() => c,
            _ => ' ',
        };
        if c == ' ' {
            if !out.is_empty() && !out.ends_with(' ') {
                out.push(' ');
            }
        } else {
            out.push(c);
        }
    }
    out.trim_end().to_owned()
}

/// The column a header names, if any.
pub fn column_of(header: &str) -> Option<Column> {
    let n = normalize(header);
    if n.is_empty() {
        return None;
    }
    TEMPLATE
        .iter()
        .find(|(_, _, _, _, syn)| syn.contains(&n.as_str()))
        .map(|(c, ..)| *c)
}

/// A programme line from its usual spellings.
pub fn line_of(text: &str) -> Option<FcoLine> {
    match normalize(text).as_str() {
        "fco rural" | "rural" | "fco rural mt" | "fco_rural" => Some(FcoLine::Rural),
        "fco verde" | "verde" | "fco_verde" => Some(FcoLine::Verde),
        "pronaf" | "fco pronaf" => Some(FcoLine::Pronaf),
        _ => None,
    }
}

/// An activity from its usual Portuguese names or its code.
pub fn activity_of(text: &str) -> Option<FcoActivity> {
    use FcoActivity::*;
    let n = normalize(text);
    let pairs: &[(&[&str], FcoActivity)] = &[
        (
            &[
                "bovinocultura de corte",
                "pecuaria de corte",
                "bovinos de corte",
                "beef cattle",
            ],
            BeefCattle,
        ),
        (
            &[
                "bovinocultura de leite",
                "pecuaria leiteira",
                "bovinocultura leiteira",
                "leite",
                "dairy cattle",
            ],
            DairyCattle,
        ),
        (
            &[
                "recria e engorda",
                "bezerros desmamados",
                "terminacao precoce",
                "desmama",
                "weaned cattle finishing",
            ],
            WeanedCattleFinishing,
        ),
        (&["suinocultura", "suinos", "swine"], Swine),
        (
            &["retencao de matrizes suinas", "retencao de matrizes", "sow retention"],
            SowRetention,
        ),
        (
            &[
                "retencao de matrizes pantaneiras",
                "retencao de matrizes no pantanal",
                "pantanal dam retention",
            ],
            PantanalDamRetention,
        ),
        (&["piscicultura", "aquicultura", "fish farming"], FishFarming),
        (
            &[
                "avicultura",
                "ovinocultura",
                "caprinocultura",
                "pequenos animais",
                "small animals",
            ],
            SmallAnimals,
        ),
        (&["graos", "soja", "milho", "lavoura", "agricultura", "grains"], Grains),
        (
            &["culturas perenes", "fruticultura", "cafe", "cacau", "perennial crops"],
            PerennialCrops,
        ),
        (
            &["silvicultura", "florestamento", "reflorestamento", "forestry"],
            Forestry,
        ),
        (
            &["maquinas e equipamentos", "maquinas", "mecanizacao", "machinery"],
            Machinery,
        ),
        (
            &[
                "infraestrutura",
                "armazenagem",
                "irrigacao",
                "eletrificacao rural",
                "construcoes",
                "infrastructure",
            ],
            Infrastructure,
        ),
        (
            &[
                "recuperacao de pastagens",
                "formacao de pastagens",
                "pastagens",
                "pasture recovery",
            ],
            PastureRecovery,
        ),
    ];
    pairs
        .iter()
        .find(|(names, _)| names.contains(&n.as_str()))
        .map(|(_, a)| *a)
}

/// The names `activity_of` accepts, for the template's list validation.
pub const ACTIVITY_NAMES: &[&str] = &[
    "Bovinocultura de corte",
    "Bovinocultura de leite",
    "Recria e engorda",
    "Suinocultura",
    "Retenção de matrizes suínas",
    "Retenção de matrizes pantaneiras",
    "Piscicultura",
    "Pequenos animais",
    "Grãos",
    "Culturas perenes",
    "Silvicultura",
    "Máquinas e equipamentos",
    "Infraestrutura",
    "Recuperação de pastagens",
];

/// The names `line_of` accepts, for the template's list validation.
pub const LINE_NAMES: &[&str] = &["FCO Rural", "FCO Verde", "Pronaf"];

/// The template's name of an activity: the one of [`ACTIVITY_NAMES`] that [`activity_of`] reads back as it (what a
/// file the bank may send back writes).
pub fn activity_name(activity: FcoActivity) -> Option<&'static str> {
    ACTIVITY_NAMES
        .iter()
        .copied()
        .find(|n| activity_of(n) == Some(activity))
}

/// The template's name of a line: the one of [`LINE_NAMES`] that [`line_of`] reads back as it.
pub fn line_name(line: FcoLine) -> Option<&'static str> {
    LINE_NAMES.iter().copied().find(|n| line_of(n) == Some(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_activity_and_line_has_a_template_name_read_back_as_itself() {
        use sea_orm::Iterable;
        for a in FcoActivity::iter() {
            let name = activity_name(a).unwrap_or_else(|| panic!("{a:?} has no template name"));
            assert_eq!(activity_of(name), Some(a));
        }
        for l in FcoLine::iter() {
            let name = line_name(l).unwrap_or_else(|| panic!("{l:?} has no template name"));
            assert_eq!(line_of(name), Some(l));
        }
    }

    #[test]
    fn headers_match_ignoring_case_accents_spacing_and_synonyms() {
        let cases = [
            ("Nº da Carta-Consulta", Some(Column::CartaNumber)),
            ("  NÚMERO   DA CARTA ", Some(Column::CartaNumber)),
            ("cpf/cnpj", Some(Column::Document)),
            ("Valor Financiado (R$)", Some(Column::Financed)),
            ("Data de Aprovação", Some(Column::ApprovedOn)),
            ("data_contratacao", Some(Column::ContractedOn)),
            ("Carência (meses)", Some(Column::GraceMonths)),
            ("Observações", None),
            ("", None),
        ];
        for (h, expected) in cases {
            assert_eq!(column_of(h), expected, "{h:?}");
        }
    }

    #[test]
    fn vocabularies_accept_the_usual_names_and_every_template_name() {
        assert_eq!(
            activity_of("Recuperação de pastagens"),
            Some(FcoActivity::PastureRecovery)
        );
        assert_eq!(activity_of("PISCICULTURA"), Some(FcoActivity::FishFarming));
        assert_eq!(activity_of("astrologia"), None);
        assert_eq!(line_of("FCO  Rural"), Some(FcoLine::Rural));
        for name in ACTIVITY_NAMES {
            assert!(activity_of(name).is_some(), "{name}");
        }
        for name in LINE_NAMES {
            assert!(line_of(name).is_some(), "{name}");
        }
    }
}

#[cfg(test)]
mod sheet_tests {
    use super::*;

    #[test]
    fn every_column_of_a_banks_sheet_has_its_template_header_and_is_recognised_by_it() {
        for c in BANK_SHEET {
            assert!(!header(c).is_empty(), "{c:?}");
            assert_eq!(column_of(header(c)), Some(c), "{c:?}");
        }
    }
}
