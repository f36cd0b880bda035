//! The sheets of the bulk imports: each kind's columns (header, whether required, a note, synonyms, the closed list
//! of values where there is one), its template, finding the header the way the monthly report's is found (case,
//! accents and punctuation ignored), and turning cells into the commands' inputs, every problem a row error in the
//! reader's language.
//!
//! Size: the column tables of every import kind; its length is data.

use crate::report::{
    columns::{is_template_notes_row, normalize},
    messages::{Message, code},
    read::Cell,
    rows::{HEADER_SCAN_ROWS, RowError, decimal_text, parse_date, parse_money},
};
use chrono::{NaiveTime, TimeZone, Utc};
use entity::vocab::{InvestmentClass, ItemKind, SupplierKind};
use rust_decimal::Decimal;
use rust_xlsxwriter::{Color, DataValidation, Format, Formula, Workbook, XlsxError};
use service::{
    acquisitions::Acquisition,
    imports::{AgendaEntry, Kind, Rows},
    items::Item,
};
use std::{collections::HashMap, str::FromStr};

/// A column of an import sheet.
#[derive(Debug, Clone, Copy)]
pub struct Col {
    /// The command's field it fills (`quantityKg`): a command's refusal of `input.quantityKg` lands on this column.
    pub key: &'static str,
    /// The template's header.
    pub header: &'static str,
    /// Whether the header must be present.
    pub required: bool,
    /// A note for whoever fills it.
    pub note: &'static str,
    /// Other headers recognised (normalised).
    pub synonyms: &'static [&'static str],
    /// The closed list of values, as the template offers them.
    pub list: &'static [&'static str],
}

const fn col(
    key: &'static str,
    header: &'static str,
    required: bool,
    note: &'static str,
    synonyms: &'static [&'static str],
) -> Col {
    Col {
        key,
        header,
        required,
        note,
        synonyms,
        list: &[],
    }
}

const SUPPLIER_KINDS: &[(SupplierKind, &str, &[&str])] = &[
    (
        SupplierKind::FamilyFarmer,
        "Agricultor familiar",
        &["agricultura familiar", "af", "pronaf"],
    ),
    (
        SupplierKind::FamilyFarmCooperative,
        "Cooperativa da agricultura familiar",
        &["cooperativa", "cooperativa de agricultores familiares"],
    ),
    (
        SupplierKind::OtherThirdParty,
        "Outro terceiro",
        &["terceiro", "terceiros"],
    ),
    (
        SupplierKind::OwnProduction,
        "Produção própria",
        &["propria", "producao"],
    ),
    (
        SupplierKind::Sharecropping,
        "Parceria",
        &["parceria agricola", "meacao"],
    ),
];

const ITEM_KINDS: &[(ItemKind, &str, &[&str])] = &[
    (ItemKind::Dam, "Matriz", &["matrizes", "femea", "vaca"]),
    (ItemKind::Sire, "Reprodutor", &["reprodutores", "touro"]),
    (ItemKind::Boar, "Cachaço", &["cachacos", "varrao"]),
    (ItemKind::Sow, "Porca", &["porcas"]),
    (
        ItemKind::WeanedCalf,
        "Bezerro desmamado",
        &["bezerros desmamados", "bezerro"],
    ),
    (ItemKind::OtherAnimal, "Outros animais", &["outro animal"]),
    (
        ItemKind::Machine,
        "Máquina nova",
        &["maquina", "equipamento", "maquinas"],
    ),
    (ItemKind::UsedMachine, "Máquina usada", &["equipamento usado"]),
    (ItemKind::Vehicle, "Veículo", &["trator", "colheitadeira"]),
    (
        ItemKind::Building,
        "Construção",
        &["benfeitoria", "instalacao", "edificacao"],
    ),
    (ItemKind::GrainStorage, "Armazém", &["armazenagem", "silo"]),
    (ItemKind::Irrigation, "Irrigação", &[]),
    (
        ItemKind::Pasture,
        "Pastagem",
        &["formacao de pastagem", "recuperacao de pastagem"],
    ),
    (ItemKind::SoilCorrection, "Correção de solo", &["calagem"]),
    (
        ItemKind::PermanentCrop,
        "Cultura permanente",
        &["florestamento", "reflorestamento"],
    ),
    (ItemKind::OperatingExpense, "Custeio", &["capital de giro"]),
    (
        ItemKind::GeneticInput,
        "Insumo de melhoramento genético",
        &[
            "semen",
            "embriao",
            "embrioes",
            "hormonio",
            "hormonios",
            "equipamento de inseminacao",
        ],
    ),
];

const CLASSES: &[(InvestmentClass, &str, &[&str])] = &[
    (InvestmentClass::Fixed, "Fixo", &["investimento fixo"]),
    (
        InvestmentClass::SemiFixed,
        "Semifixo",
        &["semi fixo", "investimento semifixo"],
    ),
    (InvestmentClass::Operating, "Custeio", &["operacional"]),
];

const REGISTRATIONS: &[&str] = &["PO_RGD", "PO", "LA", "CEIP"];

const fn labels<T: Copy, const N: usize>(list: &[(T, &'static str, &[&str]); N]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = list[i].1;
        i += 1;
    }
    out
}

const SUPPLIER_LABELS: [&str; 5] = labels::<SupplierKind, 5>(match SUPPLIER_KINDS.first_chunk::<5>() {
    Some(c) => c,
    None => panic!("five supplier kinds"),
});
const ITEM_LABELS: [&str; 17] = labels::<ItemKind, 17>(match ITEM_KINDS.first_chunk::<17>() {
    Some(c) => c,
    None => panic!("sixteen item kinds"),
});
const CLASS_LABELS: [&str; 3] = labels::<InvestmentClass, 3>(match CLASSES.first_chunk::<3>() {
    Some(c) => c,
    None => panic!("three classes"),
});

/// The acquisitions sheet (IN MDA 2/2005, arts. 3–4): one row per acquisition of the import's year.
pub const ACQUISITIONS: &[Col] = &[
    Col {
        list: &SUPPLIER_LABELS,
        ..col(
            "supplierKind",
            "Tipo de fornecedor",
            true,
            "agricultor familiar, cooperativa, outro terceiro, produção própria ou parceria",
            &[
                "tipo de fornecedor",
                "tipo do fornecedor",
                "fornecedor tipo",
                "origem",
                "tipo",
            ],
        )
    },
    col(
        "supplierDocument",
        "CPF/CNPJ do fornecedor",
        false,
        "de uma parte já cadastrada no Fomento",
        &[
            "cpf cnpj do fornecedor",
            "cpf cnpj",
            "documento do fornecedor",
            "documento",
            "cpf",
            "cnpj",
        ],
    ),
    col(
        "crop",
        "Cultura",
        true,
        "soja, mamona, dendê…",
        &["cultura", "materia prima", "oleaginosa", "produto"],
    ),
    col(
        "quantityKg",
        "Quantidade (kg)",
        true,
        "em quilogramas",
        &["quantidade kg", "quantidade em kg", "quantidade", "kg", "peso kg"],
    ),
    col(
        "cost",
        "Valor pago (R$)",
        true,
        "em reais; produção própria e parceria pelo valor de referência",
        &["valor pago r", "valor pago", "valor r", "valor", "custo", "custo r"],
    ),
    col(
        "perennialAreaHa",
        "Área contratada perene (ha)",
        false,
        "culturas perenes: área contratada em hectares (art. 4)",
        &[
            "area contratada perene ha",
            "area perene ha",
            "area perene",
            "area contratada ha",
            "area ha",
            "area",
        ],
    ),
    col(
        "productivityKgPerHa",
        "Coeficiente de produtividade (kg/ha)",
        false,
        "culturas perenes: produtividade média (art. 4)",
        &[
            "coeficiente de produtividade kg ha",
            "coeficiente de produtividade",
            "coeficiente",
            "produtividade kg ha",
            "produtividade",
        ],
    ),
    col(
        "coefficientSource",
        "Fonte do coeficiente",
        false,
        "quem publicou o coeficiente: MAPA, Conab, Embrapa",
        &["fonte do coeficiente", "fonte"],
    ),
    col(
        "year",
        "Ano",
        false,
        "se informado, igual ao ano da importação",
        &["ano", "ano da aquisicao", "safra"],
    ),
    col(
        "effectiveOn",
        "Data do fato",
        false,
        "o dia da entrega ou do contrato; a lista anterior deixa de valer no mais cedo; hoje se vazio",
        &["data do fato", "data de efeito", "vigente desde", "data"],
    ),
];

/// The items sheet (CDAE/MT 2019, arts. 6–17): one row per item of the carta.
pub const CARTA_ITEMS: &[Col] = &[
    Col {
        list: &ITEM_LABELS,
        ..col(
            "kind",
            "Tipo de item",
            true,
            "matriz, reprodutor, máquina nova…",
            &["tipo de item", "tipo do item", "item", "tipo"],
        )
    },
    col(
        "description",
        "Descrição",
        true,
        "como na carta-consulta",
        &["descricao", "especificacao", "descricao do item"],
    ),
    col(
        "quantity",
        "Quantidade",
        false,
        "unidades, hectares, toneladas; para animais, o número de cabeças se vazio",
        &["quantidade", "qtd", "qtde"],
    ),
    col(
        "headCount",
        "Cabeças",
        false,
        "animais: número de cabeças",
        &[
            "cabecas",
            "numero de cabecas",
            "n de cabecas",
            "no de cabecas",
            "qtd cabecas",
        ],
    ),
    col(
        "ageMonths",
        "Idade (meses)",
        false,
        "animais: idade em meses",
        &["idade meses", "idade", "idade em meses"],
    ),
    col(
        "manufactureYear",
        "Ano de fabricação",
        false,
        "máquinas e veículos",
        &["ano de fabricacao", "ano fabricacao", "fabricacao", "ano"],
    ),
    col(
        "usefulLifeYears",
        "Vida útil (anos)",
        false,
        "vida útil esperada",
        &["vida util anos", "vida util"],
    ),
    Col {
        list: REGISTRATIONS,
        ..col(
            "registration",
            "Registro genealógico",
            false,
            "reprodutores: PO_RGD, PO (leite), LA ou CEIP",
            &["registro genealogico", "registro", "rgd"],
        )
    },
    Col {
        list: &CLASS_LABELS,
        ..col(
            "investmentClass",
            "Classe do investimento",
            true,
            "fixo, semifixo ou custeio",
            &[
                "classe do investimento",
                "classe",
                "investimento",
                "tipo de investimento",
            ],
        )
    },
    col(
        "value",
        "Valor (R$)",
        true,
        "em reais",
        &["valor r", "valor", "valor total", "valor total r"],
    ),
    col(
        "effectiveOn",
        "Data do fato",
        false,
        "o dia desde o qual o item vale; a lista anterior deixa de valer no mais cedo; hoje se vazio",
        &["data do fato", "data de efeito", "vigente desde", "data"],
    ),
];

/// The agenda sheet (CDAE/MT 2019, art. 2 §7): one row per carta the meeting received, with when it reached SEDEC.
pub const MEETING_AGENDA: &[Col] = &[
    col(
        "bank",
        "Banco",
        true,
        "o código do banco: BB, BASA, SICREDI…",
        &["banco", "codigo do banco", "agente financeiro"],
    ),
    col(
        "cartaId",
        "Nº da Carta-Consulta",
        true,
        "o número da carta-consulta no banco",
        &[
            "no da carta consulta",
            "n da carta consulta",
            "numero da carta consulta",
            "numero da carta",
            "carta consulta",
            "carta",
        ],
    ),
    col(
        "receivedOn",
        "Recebida na SEDEC em",
        true,
        "data (dd/mm/aaaa)",
        &[
            "recebida na sedec em",
            "recebida em",
            "data de recebimento",
            "recebimento",
            "data",
        ],
    ),
    col(
        "receivedAt",
        "Hora",
        true,
        "hora de Cuiabá (hh:mm)",
        &["hora", "hora de recebimento", "horario"],
    ),
];

/// The columns of a kind's sheet.
pub fn columns(kind: Kind) -> &'static [Col] {
    match kind {
        Kind::Acquisitions => ACQUISITIONS,
        Kind::CartaItems => CARTA_ITEMS,
        Kind::MeetingAgenda => MEETING_AGENDA,
    }
}

/// The template's sheet name and file name.
pub fn template_names(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Acquisitions => ("Aquisições", "fomento-aquisicoes-modelo.xlsx"),
        Kind::CartaItems => ("Itens da carta", "fomento-itens-da-carta-modelo.xlsx"),
        Kind::MeetingAgenda => ("Pauta da reunião", "fomento-pauta-da-reuniao-modelo.xlsx"),
    }
}

/// The template: the header row, a notes row, and list validation where the values are a closed list.
pub fn template(kind: Kind) -> Result<Vec<u8>, XlsxError> {
    let mut wb = Workbook::new();
    let bold = Format::new().set_bold().set_background_color(Color::RGB(0xDDEBF7));
    let note = Format::new().set_italic().set_font_color(Color::Gray);
    let cols = columns(kind);
    let lists: Vec<&Col> = cols.iter().filter(|c| !c.list.is_empty()).collect();
    {
        let ws = wb.add_worksheet();
        ws.set_name(template_names(kind).0)?;
        for (i, c) in cols.iter().enumerate() {
            let j = i as u16;
            ws.write_string_with_format(0, j, c.header, &bold)?;
            let text = format!(
                "{}{}",
                if c.required {
                    "obrigatório — "
                } else {
                    "opcional — "
                },
                c.note
            );
            ws.write_string_with_format(1, j, text, &note)?;
            ws.set_column_width(j, 24)?;
            if let Some(l) = lists.iter().position(|l| l.key == c.key) {
                let letter = (b'A' + l as u8) as char;
                let formula = Formula::new(format!("=Listas!${letter}$2:${letter}${}", c.list.len() + 1));
                ws.add_data_validation(2, j, 1_048_575, j, &DataValidation::new().allow_list_formula(formula))?;
            }
        }
    }
    if !lists.is_empty() {
        let ws = wb.add_worksheet();
        ws.set_name("Listas")?;
        for (j, c) in lists.iter().enumerate() {
            ws.write_string_with_format(0, j as u16, c.header, &bold)?;
            for (i, v) in c.list.iter().enumerate() {
                ws.write_string(1 + i as u32, j as u16, *v)?;
            }
        }
        ws.set_hidden(true);
    }
    wb.save_to_buffer()
}

/// Where the header is and which column is which.
#[derive(Debug, Clone)]
pub struct Header {
    /// Index of the header row (0-based).
    pub row: usize,
    /// `(cell index, column, header as found)`.
    pub columns: Vec<(usize, Col, String)>,
}

impl Header {
    fn index(&self, key: &str) -> Option<usize> {
        self.columns.iter().find(|(_, c, _)| c.key == key).map(|(i, ..)| *i)
    }

    /// The header of the column filling `key`, as found in the file (or the template's).
    pub fn name(&self, kind: Kind, key: &str) -> Option<String> {
        self.columns
            .iter()
            .find(|(_, c, _)| c.key == key)
            .map(|(_, _, n)| n.clone())
            .or_else(|| columns(kind).iter().find(|c| c.key == key).map(|c| c.header.to_owned()))
    }
}

fn column_of(kind: Kind, text: &str) -> Option<Col> {
    let n = normalize(text);
    if n.is_empty() {
        return None;
    }
    let cols = columns(kind);
    cols.iter()
        .find(|c| normalize(c.header) == n)
        .or_else(|| cols.iter().find(|c| c.synonyms.contains(&n.as_str())))
        .copied()
}

/// Finds the header among the first rows: the row naming the most columns, which must include every required one.
pub fn find_header(kind: Kind, rows: &[Vec<Cell>]) -> Result<Header, Message> {
    let mut best: Option<Header> = None;
    for (i, row) in rows.iter().take(HEADER_SCAN_ROWS).enumerate() {
        let mut found: Vec<(usize, Col, String)> = Vec::new();
        for (j, cell) in row.iter().enumerate() {
            if let Cell::Text(t) = cell
                && let Some(c) = column_of(kind, t)
                && !found.iter().any(|(_, f, _)| f.key == c.key)
            {
                found.push((j, c, t.trim().to_owned()));
            }
        }
        if best.as_ref().is_none_or(|b| found.len() > b.columns.len()) {
            best = Some(Header { row: i, columns: found });
        }
    }
    let cols = columns(kind);
    let Some(h) = best.filter(|h| h.columns.len() >= 2) else {
        return Err(Message::new(code::HEADER_NOT_FOUND)
            .arg("rows", HEADER_SCAN_ROWS)
            .arg("headers", cols.iter().map(|c| c.header).collect::<Vec<_>>().join(", ")));
    };
    let missing: Vec<&str> = cols
        .iter()
        .filter(|c| c.required && h.index(c.key).is_none())
        .map(|c| c.header)
        .collect();
    if !missing.is_empty() {
        return Err(Message::new(code::HEADER_INCOMPLETE)
            .arg("row", h.row + 1)
            .arg("columns", missing.join(", ")));
    }
    Ok(h)
}

/// Reads one data row: each cell through its column's parser, every problem kept.
struct RowReader<'a> {
    kind: Kind,
    header: &'a Header,
    cells: &'a [Cell],
    row: u32,
    errors: Vec<RowError>,
}

impl<'a> RowReader<'a> {
    fn cell(&self, key: &str) -> &'a Cell {
        self.header
            .index(key)
            .and_then(|i| self.cells.get(i))
            .unwrap_or(&Cell::Empty)
    }

    fn fail(&mut self, key: &str, message: Message) {
        let value = Some(self.cell(key).display()).filter(|v| !v.is_empty());
        self.errors.push(RowError {
            row: self.row,
            column: self.header.name(self.kind, key),
            value,
            message,
            rule_code: None,
        });
    }

    fn text(&mut self, key: &str, required: bool) -> Option<String> {
        let t = match self.cell(key) {
            Cell::Text(t) => t.trim().to_owned(),
            Cell::Int(i) => i.to_string(),
            Cell::Number(f) if f.fract() == 0.0 => format!("{f:.0}"),
            Cell::Number(f) => f.to_string(),
            c => c.display().trim().to_owned(),
        };
        if t.is_empty() {
            if required {
                self.fail(key, Message::new(code::CELL_MISSING));
            }
            return None;
        }
        Some(t)
    }

    fn decimal(&mut self, key: &str, required: bool) -> Option<Decimal> {
        let d = match self.cell(key) {
            c if c.is_blank() => {
                if required {
                    self.fail(key, Message::new(code::CELL_MISSING));
                }
                return None;
            }
            Cell::Int(i) => Some(Decimal::from(*i)),
            Cell::Number(f) => Decimal::from_str(&f.to_string()).ok(),
            Cell::Text(t) => Decimal::from_str(&decimal_text(t)).ok(),
            _ => None,
        };
        if d.is_none() {
            self.fail(key, Message::new(code::NUMBER_INVALID));
        }
        d
    }

    fn integer(&mut self, key: &str) -> Option<i32> {
        use rust_decimal::prelude::ToPrimitive;
        let d = self.decimal(key, false)?;
        let i = d.fract().is_zero().then(|| d.to_i32()).flatten();
        if i.is_none() {
            self.fail(key, Message::new(code::INTEGER_INVALID));
        }
        i
    }

    /// An optional day (`None` when blank; a row error when not a day).
    fn day(&mut self, key: &str) -> Option<chrono::NaiveDate> {
        if self.cell(key).is_blank() {
            return None;
        }
        match parse_date(self.cell(key)) {
            Ok(d) => Some(d),
            Err(m) => {
                self.fail(key, m);
                None
            }
        }
    }

    fn money(&mut self, key: &str) -> Option<Decimal> {
        match parse_money(self.cell(key)) {
            Ok(m) => Some(m.to_decimal()),
            Err(m) => {
                self.fail(key, m);
                None
            }
        }
    }

    fn choice<T: Copy>(&mut self, key: &str, list: &[(T, &'static str, &[&str])], codes: &[String]) -> Option<T> {
        let t = self.text(key, true)?;
        let n = normalize(&t);
        let found = list.iter().enumerate().find(|(i, (_, label, syn))| {
            normalize(label) == n || syn.contains(&n.as_str()) || codes.get(*i).is_some_and(|c| normalize(c) == n)
        });
        match found {
            Some((_, (v, ..))) => Some(*v),
            None => {
                let values = list.iter().map(|l| l.1).collect::<Vec<_>>().join(", ");
                self.fail(
                    key,
                    Message::new(code::VALUE_NOT_IN_LIST)
                        .arg("value", format!("{t:?}"))
                        .arg("values", values),
                );
                None
            }
        }
    }
}

/// The stored codes of a vocabulary, in its list's order (a sheet may give `FAMILY_FARMER` as well as the label).
fn codes_of<T: sea_orm::ActiveEnum<Value = String> + Copy>(list: &[(T, &'static str, &[&str])]) -> Vec<String> {
    list.iter().map(|(v, ..)| v.to_value()).collect()
}

/// Parses every data row below the header into the commands' inputs; every problem is a row error. The import's
/// year, for acquisitions, checks a year column when the sheet has one.
pub fn parse(kind: Kind, rows: &[Vec<Cell>], header: &Header, year: Option<i32>) -> (Rows, Vec<RowError>, usize) {
    let supplier_codes = codes_of(SUPPLIER_KINDS);
    let item_codes = codes_of(ITEM_KINDS);
    let class_codes = codes_of(CLASSES);
    let mut out = match kind {
        Kind::Acquisitions => Rows::Acquisitions(Vec::new()),
        Kind::CartaItems => Rows::CartaItems(Vec::new()),
        Kind::MeetingAgenda => Rows::MeetingAgenda(Vec::new()),
    };
    let mut errors = Vec::new();
    let mut read = 0;
    let mut seen: HashMap<(String, String), u32> = HashMap::new();
    for (i, cells) in rows.iter().enumerate().skip(header.row + 1) {
        if cells.iter().all(Cell::is_blank) || (i == header.row + 1 && is_template_notes_row(cells)) {
            continue;
        }
        read += 1;
        let mut r = RowReader {
            kind,
            header,
            cells,
            row: (i + 1) as u32,
            errors: Vec::new(),
        };
        match &mut out {
            Rows::Acquisitions(list) => {
                let supplier_kind = r.choice("supplierKind", SUPPLIER_KINDS, &supplier_codes);
                let supplier_document = r.text("supplierDocument", false);
                let crop = r.text("crop", true);
                let quantity_kg = r.decimal("quantityKg", true);
                let cost = r.money("cost");
                let perennial_area_ha = r.decimal("perennialAreaHa", false);
                let productivity_kg_per_ha = r.decimal("productivityKgPerHa", false);
                let coefficient_source = r.text("coefficientSource", false);
                let effective_on = r.day("effectiveOn");
                if let (Some(given), Some(year)) = (r.integer("year"), year)
                    && given != year
                {
                    r.fail(
                        "year",
                        Message::new(code::IMPORT_YEAR_MISMATCH)
                            .arg("value", given)
                            .arg("year", year),
                    );
                }
                if let (Some(supplier_kind), Some(crop), Some(quantity_kg), Some(cost), true) =
                    (supplier_kind, crop, quantity_kg, cost, r.errors.is_empty())
                {
                    list.push((
                        r.row,
                        Acquisition {
                            year: year.unwrap_or_default(),
                            supplier_kind,
                            supplier_document,
                            crop,
                            quantity_kg,
                            cost,
                            perennial_area_ha,
                            productivity_kg_per_ha,
                            coefficient_source,
                        },
                        effective_on,
                    ));
                }
            }
            Rows::CartaItems(list) => {
                let kind = r.choice("kind", ITEM_KINDS, &item_codes);
                let description = r.text("description", true);
                let quantity = r.decimal("quantity", false);
                let head_count = r.integer("headCount");
                let age_months = r.integer("ageMonths");
                let manufacture_year = r.integer("manufactureYear");
                let useful_life_years = r.integer("usefulLifeYears");
                let registration = r
                    .text("registration", false)
                    .map(|t| t.to_uppercase().replace(['-', ' ', '/'], "_"));
                let investment_class = r.choice("investmentClass", CLASSES, &class_codes);
                let value = r.money("value");
                let effective_on = r.day("effectiveOn");
                if let (Some(kind), Some(description), Some(investment_class), Some(value), true) =
                    (kind, description, investment_class, value, r.errors.is_empty())
                {
                    list.push((
                        r.row,
                        Item {
                            kind,
                            description,
                            quantity,
                            head_count,
                            age_months,
                            manufacture_year,
                            useful_life_years,
                            registration,
                            investment_class,
                            value,
                        },
                        effective_on,
                    ));
                }
            }
            Rows::MeetingAgenda(list) => {
                let bank = r.text("bank", true).map(|b| b.to_uppercase());
                let number = r.text("cartaId", true);
                let day = match parse_date(r.cell("receivedOn")) {
                    Ok(d) => Some(d),
                    Err(m) => {
                        r.fail("receivedOn", m);
                        None
                    }
                };
                let time = parse_time(r.cell("receivedAt")).or_else(|| match r.cell("receivedOn") {
                    Cell::Text(t) => t
                        .split_whitespace()
                        .nth(1)
                        .and_then(|t| parse_time(&Cell::Text(t.into()))),
                    _ => None,
                });
                if time.is_none() {
                    let m = if r.cell("receivedAt").is_blank() {
                        code::CELL_MISSING
                    } else {
                        code::TIME_INVALID
                    };
                    r.fail("receivedAt", Message::new(m));
                }
                let received_at = day.zip(time).and_then(|(d, t)| {
                    entity::domain::Authority::Cdae
                        .zone()
                        .from_local_datetime(&d.and_time(t))
                        .earliest()
                        .map(|t| t.with_timezone(&Utc))
                });
                if let (Some(bank), Some(number)) = (&bank, &number) {
                    let key = (bank.clone(), number.clone());
                    if let Some(first) = seen.get(&key) {
                        let first = *first;
                        r.fail(
                            "cartaId",
                            Message::new(code::CARTA_REPEATED_IN_FILE)
                                .arg("number", number)
                                .arg("bank", bank)
                                .arg("row", first),
                        );
                    } else {
                        seen.insert(key, r.row);
                    }
                }
                if let (Some(bank), Some(number), Some(received_at), true) =
                    (bank, number, received_at, r.errors.is_empty())
                {
                    list.push((
                        r.row,
                        AgendaEntry {
                            bank,
                            number,
                            received_at,
                        },
                    ));
                }
            }
        }
        errors.append(&mut r.errors);
    }
    (out, errors, read)
}

/// A time of day: `hh:mm` (or `hh:mm:ss`, `hhhmm`), or a time cell (a fraction of a day).
pub fn parse_time(cell: &Cell) -> Option<NaiveTime> {
    match cell {
        Cell::Number(f) if (0.0..1.0).contains(f) => {
            let secs = (f * 86_400.0).round() as u32;
            NaiveTime::from_num_seconds_from_midnight_opt(secs.min(86_399), 0)
        }
        Cell::Text(t) => {
            let t = t.trim().to_lowercase().replace('h', ":");
            let t = t.trim_end_matches(':');
            ["%H:%M:%S", "%H:%M"]
                .iter()
                .find_map(|f| NaiveTime::parse_from_str(t, f).ok())
        }
        _ => None,
    }
}

/// The column a command's field lands on (`input.quantityKg` → the quantity column), if any.
pub fn column_for_field(kind: Kind, header: &Header, field: Option<&str>) -> Option<String> {
    let key = field?.strip_prefix("input.").unwrap_or(field?);
    columns(kind).iter().find(|c| c.key == key)?;
    header.name(kind, key)
}
