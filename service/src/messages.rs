//! What Fomento tells banks about their reports, in one catalogue: each message has a stable code and its text in
//! Brazilian Portuguese (the default: the banks' sheets and the template are in Portuguese) and in English. A message
//! is stored as its code and values and rendered when read, in the language the reader asks for (`Accept-Language`).

use std::collections::BTreeMap;

/// The language a message is rendered in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// Brazilian Portuguese, the default.
    #[default]
    PtBr,
    /// English, on request.
    En,
}

impl Lang {
    /// The language an `Accept-Language` header prefers among the two, by its quality values; Portuguese when it
    /// names neither (or is absent).
    pub fn from_accept_language(header: Option<&str>) -> Self {
        let mut best: Option<(f32, Lang)> = None;
        for range in header.unwrap_or("").split(',') {
            let mut parts = range.split(';');
            let tag = parts.next().unwrap_or("").trim().to_ascii_lowercase();
            let q = parts
                .find_map(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .map(|v| v.trim().parse::<f32>().unwrap_or(0.0))
                })
                .unwrap_or(1.0);
            let lang = match tag.split('-').next().unwrap_or("") {
                "pt" => Lang::PtBr,
                "en" => Lang::En,
                _ => continue,
            };
            if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, lang));
            }
        }
        best.map(|(_, l)| l).unwrap_or_default()
    }

    /// The language a `lang` parameter names (`pt`, `pt-BR`, `en`, `en-US`, …), if it names one of the two.
    pub fn from_tag(tag: &str) -> Option<Self> {
        match tag.trim().to_ascii_lowercase().split(['-', '_']).next().unwrap_or("") {
            "pt" => Some(Lang::PtBr),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The tag for `Content-Language`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::PtBr => "pt-BR",
            Lang::En => "en",
        }
    }
}

macro_rules! catalogue {
    ($( $(#[$doc:meta])* $name:ident = $code:literal { pt: $pt:literal, en: $en:literal } )*) => {
        /// The codes of the catalogue's messages.
        pub mod code {
            $( $(#[$doc])* pub const $name: &str = $code; )*
        }
        /// Every message: `(code, Portuguese, English)`; `{name}` stands for a value.
        pub const CATALOGUE: &[(&str, &str, &str)] = &[ $( ($code, $pt, $en), )* ];
    };
}

catalogue! {
    /// A money cell left empty.
    AMOUNT_MISSING = "AMOUNT_MISSING" { pt: "o valor está faltando", en: "the value is missing" }
    /// A cell of a kind that cannot hold an amount.
    AMOUNT_NOT_A_CELL = "AMOUNT_NOT_A_CELL" { pt: "{value} não é um valor em reais", en: "{value} is not an amount" }
    /// Text that is not an amount.
    AMOUNT_INVALID = "AMOUNT_INVALID" {
        pt: "não é um valor: escreva R$ 1.234,56 ou 1234.56",
        en: "not an amount: write R$ 1.234,56 or 1234.56"
    }
    /// A negative amount.
    AMOUNT_NEGATIVE = "AMOUNT_NEGATIVE" { pt: "o valor é negativo", en: "the amount is negative" }
    /// An amount with fractions of a centavo.
    AMOUNT_DECIMALS = "AMOUNT_DECIMALS" {
        pt: "o valor tem mais de duas casas decimais (centavos)",
        en: "the amount has more than two decimal places (centavos)"
    }
    /// A date cell left empty.
    DATE_MISSING = "DATE_MISSING" { pt: "a data está faltando", en: "the date is missing" }
    /// A number that is no plausible Excel date.
    DATE_SERIAL = "DATE_SERIAL" {
        pt: "{value} não é uma data (como número de série do Excel seria {date})",
        en: "{value} is not a date (as an Excel serial it would be {date})"
    }
    /// Text that is not a date.
    DATE_INVALID = "DATE_INVALID" { pt: "não é uma data: escreva dd/mm/aaaa", en: "not a date: write dd/mm/aaaa" }
    /// A cell of a kind that cannot hold a date.
    DATE_NOT_A_CELL = "DATE_NOT_A_CELL" { pt: "{value} não é uma data", en: "{value} is not a date" }
    /// A term or grace that is not a whole number.
    MONTHS_INVALID = "MONTHS_INVALID" { pt: "não é um número inteiro de meses", en: "not a whole number of months" }
    /// A term or grace out of range.
    MONTHS_RANGE = "MONTHS_RANGE" {
        pt: "não é um número inteiro de meses entre 0 e 600",
        en: "not a whole number of months between 0 and 600"
    }
    /// No CPF/CNPJ.
    DOCUMENT_MISSING = "DOCUMENT_MISSING" { pt: "o CPF/CNPJ está faltando", en: "the CPF/CNPJ is missing" }
    /// A cell of a kind that cannot hold a document.
    DOCUMENT_NOT_A_CELL = "DOCUMENT_NOT_A_CELL" { pt: "{value} não é um CPF nem um CNPJ", en: "{value} is not a CPF or CNPJ" }
    /// An empty document.
    DOCUMENT_EMPTY = "DOCUMENT_EMPTY" { pt: "CPF ou CNPJ inválido: está vazio", en: "not a valid CPF or CNPJ: the document is empty" }
    /// A character a document cannot hold.
    DOCUMENT_CHARACTER = "DOCUMENT_CHARACTER" {
        pt: "CPF ou CNPJ inválido: tem o caractere {character}, que não é dígito, letra nem pontuação",
        en: "not a valid CPF or CNPJ: the document has the character {character}, which is neither a digit, a letter nor punctuation"
    }
    /// A document of the wrong length.
    DOCUMENT_LENGTH = "DOCUMENT_LENGTH" {
        pt: "CPF ou CNPJ inválido: um CPF tem 11 dígitos e um CNPJ 14 caracteres; este tem {count}",
        en: "not a valid CPF or CNPJ: a CPF has 11 digits and a CNPJ 14 characters; this one has {count}"
    }
    /// Letters where a CNPJ takes digits.
    DOCUMENT_LETTERS = "DOCUMENT_LETTERS" {
        pt: "CPF ou CNPJ inválido: letras só são aceitas nos 12 primeiros caracteres de um CNPJ",
        en: "not a valid CPF or CNPJ: letters are allowed only in the first 12 characters of a CNPJ"
    }
    /// All digits equal.
    DOCUMENT_REPEATED = "DOCUMENT_REPEATED" {
        pt: "CPF ou CNPJ inválido: um documento com todos os dígitos iguais não é válido",
        en: "not a valid CPF or CNPJ: a document with all digits equal is not valid"
    }
    /// Wrong check digits.
    DOCUMENT_CHECK_DIGITS = "DOCUMENT_CHECK_DIGITS" {
        pt: "CPF ou CNPJ inválido: os dígitos verificadores não conferem (esperados {expected}, encontrados {found})",
        en: "not a valid CPF or CNPJ: the check digits do not match (expected {expected}, found {found})"
    }
    /// No carta number.
    CARTA_MISSING = "CARTA_MISSING" { pt: "o número da carta-consulta está faltando", en: "the carta number is missing" }
    /// A control character in the carta number.
    CARTA_CONTROL = "CARTA_CONTROL" {
        pt: "o número da carta-consulta tem um caractere de controle (invisível, como uma tabulação ou quebra de linha)",
        en: "the carta number holds a control character (an invisible one, such as a tab or a line break)"
    }
    /// No borrower.
    BORROWER_MISSING = "BORROWER_MISSING" { pt: "o nome do tomador está faltando", en: "the borrower's name is missing" }
    /// A control character in the borrower's name.
    BORROWER_CONTROL = "BORROWER_CONTROL" {
        pt: "o nome do tomador tem um caractere de controle que não é tabulação nem quebra de linha",
        en: "the borrower's name holds a control character other than a tab or a line break"
    }
    /// An IBGE code no municipality has.
    IBGE_UNKNOWN = "IBGE_UNKNOWN" { pt: "nenhum município tem este código IBGE", en: "no municipality has this IBGE code" }
    /// An IBGE code of the wrong length.
    IBGE_LENGTH = "IBGE_LENGTH" {
        pt: "um código de município do IBGE tem 7 dígitos; {value} não tem",
        en: "an IBGE municipality code has 7 digits; {value} does not"
    }
    /// An IBGE code without a state prefix.
    IBGE_UF = "IBGE_UF" {
        pt: "{value} não começa com o código de uma unidade da federação (UF)",
        en: "{value} does not start with the code of a federative unit (UF)"
    }
    /// A municipality name unknown in the state.
    MUNICIPALITY_UNKNOWN = "MUNICIPALITY_UNKNOWN" {
        pt: "nenhum município com esse nome em {uf}",
        en: "no municipality of that name in {uf}"
    }
    /// Not a state.
    UF_INVALID = "UF_INVALID" { pt: "não é uma unidade da federação (UF)", en: "not a federative unit (UF)" }
    /// Neither the IBGE code nor the municipality and state.
    MUNICIPALITY_MISSING = "MUNICIPALITY_MISSING" {
        pt: "informe o código IBGE, ou o município e sua UF",
        en: "give the IBGE code, or the municipality and its UF"
    }
    /// A municipality outside Mato Grosso.
    MUNICIPALITY_OUTSIDE_MT = "MUNICIPALITY_OUTSIDE_MT" {
        pt: "o FCO Rural da CDAE/MT abrange apenas Mato Grosso",
        en: "FCO Rural under CDAE/MT covers Mato Grosso only"
    }
    /// Not a programme line.
    LINE_INVALID = "LINE_INVALID" {
        pt: "não é uma linha do programa: FCO Rural, FCO Verde ou Pronaf",
        en: "not a programme line: FCO Rural, FCO Verde or Pronaf"
    }
    /// No programme line.
    LINE_MISSING = "LINE_MISSING" { pt: "a linha do programa está faltando", en: "the programme line is missing" }
    /// Not a known activity.
    ACTIVITY_INVALID = "ACTIVITY_INVALID" {
        pt: "não é uma atividade conhecida; o modelo lista as atividades",
        en: "not a known activity; the template lists them"
    }
    /// No activity.
    ACTIVITY_MISSING = "ACTIVITY_MISSING" { pt: "a atividade está faltando", en: "the activity is missing" }
    /// Contracted before approval.
    CONTRACTED_BEFORE_APPROVAL = "CONTRACTED_BEFORE_APPROVAL" {
        pt: "contratada em {contracted}, antes da aprovação em {approved}",
        en: "contracted on {contracted} before its approval on {approved}"
    }
    /// Lines of a semi-arid delimitation that are no municipality's IBGE code.
    SEMI_ARID_BAD_LINES = "SEMI_ARID_BAD_LINES" {
        pt: "nada foi carregado: estas linhas não trazem o código IBGE de um município: {lines}",
        en: "nothing was loaded: these lines hold no municipality's IBGE code: {lines}"
    }
    /// A semi-arid delimitation with no municipality.
    SEMI_ARID_EMPTY = "SEMI_ARID_EMPTY" {
        pt: "o arquivo não lista nenhum município",
        en: "the file lists no municipality"
    }
    /// A semi-arid delimitation loaded twice.
    SEMI_ARID_LOADED = "SEMI_ARID_LOADED" {
        pt: "a delimitação {source} já foi carregada",
        en: "the delimitation {source} is already loaded"
    }
    /// An open day recorded on a day that is no ponto facultativo nor an early closing.
    NOT_A_PONTO_FACULTATIVO = "NOT_A_PONTO_FACULTATIVO" {
        pt: "{day} não é ponto facultativo (Carnaval, Corpus Christi) nem véspera de Natal ou de Ano-Novo: só nesses dias se registra expediente",
        en: "{day} is no ponto facultativo (Carnival, Corpus Christi) nor Christmas or New Year's Eve: only on those is an office recorded open"
    }
    /// Project presented before its approval.
    PRESENTED_BEFORE_APPROVAL = "PRESENTED_BEFORE_APPROVAL" {
        pt: "projeto apresentado em {presented}, antes da aprovação em {approved}",
        en: "project presented on {presented} before its approval on {approved}"
    }
    /// Project presented after the contract.
    PRESENTED_AFTER_CONTRACT = "PRESENTED_AFTER_CONTRACT" {
        pt: "projeto apresentado em {presented}, depois da contratação em {contracted}",
        en: "project presented on {presented} after the contract on {contracted}"
    }
    /// Grace longer than the term.
    GRACE_OVER_TERM = "GRACE_OVER_TERM" {
        pt: "{grace} meses de carência excedem o prazo de {term} meses",
        en: "{grace} months of grace exceed the {term}-month term"
    }
    /// No header found.
    HEADER_NOT_FOUND = "HEADER_NOT_FOUND" {
        pt: "nenhuma linha de cabeçalho nas primeiras {rows} linhas; os cabeçalhos do modelo são: {headers}",
        en: "no header row found in the first {rows} rows; the template's headers are: {headers}"
    }
    /// A header without some required column.
    HEADER_INCOMPLETE = "HEADER_INCOMPLETE" {
        pt: "o cabeçalho na linha {row} não tem a(s) coluna(s): {columns}",
        en: "the header on row {row} lacks the column(s): {columns}"
    }
    /// An empty file.
    FILE_EMPTY = "FILE_EMPTY" { pt: "o arquivo está vazio", en: "the file is empty" }
    /// Over the size limit.
    FILE_TOO_LARGE = "FILE_TOO_LARGE" {
        pt: "o arquivo tem {size} bytes; são aceitos no máximo {max}",
        en: "the file has {size} bytes; at most {max} are accepted"
    }
    /// Over the row limit.
    FILE_TOO_MANY_ROWS = "FILE_TOO_MANY_ROWS" {
        pt: "a planilha tem mais de {max} linhas",
        en: "the sheet has more than {max} rows"
    }
    /// A decompression bomb.
    FILE_BOMB = "FILE_BOMB" {
        pt: "a pasta de trabalho se expandiria a {bytes} bytes; parece uma bomba de descompressão e foi recusada",
        en: "the workbook would expand to {bytes} bytes; this looks like a decompression bomb and is refused"
    }
    /// A password-protected workbook.
    FILE_PASSWORD = "FILE_PASSWORD" {
        pt: "a pasta de trabalho está protegida por senha; salve-a sem senha e envie de novo",
        en: "the workbook is password-protected; save it without a password and send it again"
    }
    /// Not a spreadsheet.
    FILE_NOT_A_SPREADSHEET = "FILE_NOT_A_SPREADSHEET" {
        pt: "o arquivo não é uma planilha que o Fomento lê (xlsx, xlsm, xlsb, xls, ods ou CSV): {detail}",
        en: "the file is not a spreadsheet Fomento reads (xlsx, xlsm, xlsb, xls, ods or CSV): {detail}"
    }
    /// No sheet with data.
    FILE_NO_DATA = "FILE_NO_DATA" {
        pt: "a pasta de trabalho não tem planilha com dados",
        en: "the workbook has no sheet with data"
    }
    /// A header and no rows.
    FILE_NO_ROWS = "FILE_NO_ROWS" {
        pt: "a planilha tem cabeçalho mas nenhuma linha de dados",
        en: "the sheet has a header but no data rows"
    }
    /// The file could not be read (when no reason was kept).
    FILE_UNREADABLE = "FILE_UNREADABLE" { pt: "o arquivo não pôde ser lido", en: "the file could not be read" }
    /// The ingestion failed on Fomento's side.
    INGESTION_FAILED = "INGESTION_FAILED" {
        pt: "Não foi possível processar o relatório por um erro do lado do Fomento, depois de {attempts} tentativa(s); nada foi aplicado e o arquivo está guardado. O operador foi avisado; informe a referência {reference} ao falar com ele, ou envie o mesmo arquivo de novo para uma nova tentativa.",
        en: "The report could not be processed because of an error on Fomento's side, after {attempts} attempt(s); nothing was applied and the file is kept. The operator was told; quote the reference {reference}, or send the same file again for a new attempt."
    }
    /// The same bytes as a failed report: queued again.
    REPORT_REQUEUED = "REPORT_REQUEUED" {
        pt: "este arquivo já havia sido enviado e seu processamento falhou; ele foi colocado de novo na fila para uma nova tentativa",
        en: "this file was sent before and its processing failed; it was queued again for a new attempt"
    }
    /// A multipart field missing.
    UPLOAD_FIELD_MISSING = "UPLOAD_FIELD_MISSING" {
        pt: "o campo `{field}` ({what}) está faltando",
        en: "the field `{field}` ({what}) is missing"
    }
    /// A multipart field that could not be read (the limit is named when it was the size).
    UPLOAD_FIELD_UNREADABLE = "UPLOAD_FIELD_UNREADABLE" {
        pt: "não foi possível ler o campo `{field}`: {detail}",
        en: "could not read the field `{field}`: {detail}"
    }
    /// An upload over the size limit.
    UPLOAD_TOO_LARGE = "UPLOAD_TOO_LARGE" {
        pt: "o envio passa do limite de {max} bytes ({mib} MiB); divida o arquivo ou fale com o operador",
        en: "the upload is over the limit of {max} bytes ({mib} MiB); split the file or ask the operator"
    }
    /// Not a multipart body.
    UPLOAD_NOT_MULTIPART = "UPLOAD_NOT_MULTIPART" {
        pt: "o corpo não é multipart/form-data: {detail}",
        en: "not a multipart/form-data body: {detail}"
    }
    /// An unknown bank code.
    BANK_UNKNOWN = "BANK_UNKNOWN" { pt: "nenhum banco com o código {code}", en: "no bank with code {code}" }
    /// A bank outside FCO.
    BANK_NOT_FCO = "BANK_NOT_FCO" {
        pt: "o banco {code} não opera o FCO Rural; sua relação mensal não é esperada",
        en: "{code} does not operate FCO Rural; its monthly list is not expected"
    }
    /// A carta through a bank outside FCO.
    BANK_NOT_FCO_CARTA = "BANK_NOT_FCO_CARTA" {
        pt: "o banco {code} não repassa o FCO Rural em Mato Grosso: a carta-consulta vai por um banco que o opera",
        en: "{code} does not pass FCO Rural on in Mato Grosso: file the carta through a bank that does"
    }
    /// A social-fuel project through a bank outside the programme.
    BANK_NOT_SOCIAL_FUEL = "BANK_NOT_SOCIAL_FUEL" {
        pt: "o banco {code} não participa do programa do combustível social",
        en: "{code} does not take part in the social-fuel programme"
    }
    /// A malformed month.
    MONTH_INVALID = "MONTH_INVALID" {
        pt: "{value} não é um mês na forma AAAA-MM",
        en: "{value} is not a month in the form YYYY-MM"
    }
    /// A monthly list for a month not yet begun.
    MONTH_IN_FUTURE = "MONTH_IN_FUTURE" {
        pt: "a lista mensal de {month} ainda não pode existir: o mês corrente é {current} (art. 2 §5 da IN CDAE/MT 2019 pede a lista do mês)",
        en: "the monthly list of {month} cannot exist yet: the current month is {current} (art. 2 §5 of IN CDAE/MT 2019 asks for the month's list)"
    }
    /// A monthly list for a month before the instrument that asks for it.
    MONTH_BEFORE_INSTRUMENT = "MONTH_BEFORE_INSTRUMENT" {
        pt: "a lista mensal de {month} é anterior à IN CDAE/MT de 20/03/2019, que a instituiu (art. 2 §5; vigente desde {since})",
        en: "the monthly list of {month} is before IN CDAE/MT of 20 March 2019, which asks for it (art. 2 §5; in force since {since})"
    }
    /// A malformed report number.
    REPORT_ID_INVALID = "REPORT_ID_INVALID" { pt: "{value} não é o número de um relatório", en: "{value} is not a report id" }
    /// An unknown report.
    REPORT_UNKNOWN = "REPORT_UNKNOWN" { pt: "nenhum relatório de número {value}", en: "no bank report {value}" }
    /// The errors column of `errors.xlsx`.
    ERRORS_COLUMN = "ERRORS_COLUMN" { pt: "Erros", en: "Errors" }
    /// A message stored as text only, before codes were kept (shown as written, in Portuguese or English).
    TEXT = "TEXT" { pt: "{text}", en: "{text}" }
    /// A negative page size.
    PAGE_NEGATIVE = "PAGE_NEGATIVE" { pt: "`{arg}` não pode ser negativo", en: "`{arg}` must not be negative" }
    /// A page too large.
    PAGE_TOO_LARGE = "PAGE_TOO_LARGE" {
        pt: "`{arg}` pode ser no máximo {max}, não {asked}; peça as páginas seguintes com `after`/`before`",
        en: "`{arg}` may be at most {max}, not {asked}; ask for further pages with `after`/`before`"
    }
    /// A cursor this server did not issue.
    PAGE_CURSOR = "PAGE_CURSOR" {
        pt: "`{arg}` não é um cursor emitido por este servidor",
        en: "`{arg}` is not a cursor issued by this server"
    }
    /// A cursor of a position in the list (`o:N`), which the sorted lists stopped issuing: it would skip or repeat
    /// rows when the list changes between pages.
    PAGE_CURSOR_OUTDATED = "PAGE_CURSOR_OUTDATED" {
        pt: "`{arg}` é um cursor antigo, de posição na lista, que não é mais aceito; comece de novo pela primeira página (sem `after` nem `before`)",
        en: "`{arg}` is an old cursor, a position in the list, which is no longer accepted; start again from the first page (without `after` or `before`)"
    }
    /// A cursor issued for another ordering of the list.
    PAGE_CURSOR_ORDER = "PAGE_CURSOR_ORDER" {
        pt: "`{arg}` é um cursor da lista ordenada por {issued}, não por {asked}; peça a mesma ordenação ou comece de novo pela primeira página",
        en: "`{arg}` is a cursor of the list ordered by {issued}, not by {asked}; ask for the same ordering or start again from the first page"
    }
    /// An amount with fractions of a centavo, named.
    AMOUNT_TOO_PRECISE = "AMOUNT_TOO_PRECISE" {
        pt: "{value} tem mais de 2 casas decimais (centavos)",
        en: "{value} has more than 2 decimal places (centavos)"
    }
    /// An amount too large to keep.
    AMOUNT_TOO_LARGE = "AMOUNT_TOO_LARGE" { pt: "{value} é grande demais", en: "{value} is too large" }
    /// A required text left empty.
    FIELD_EMPTY = "FIELD_EMPTY" { pt: "não pode ficar vazio", en: "must not be empty" }
    /// A correction that changes nothing.
    NOTHING_TO_UPDATE = "NOTHING_TO_UPDATE" {
        pt: "nenhum fato muda: diga o valor novo de ao menos um",
        en: "no fact changes: give the new value of at least one"
    }
    /// A count of animals below zero.
    COUNT_NEGATIVE = "COUNT_NEGATIVE" { pt: "não pode ser negativo: recebido {value}", en: "must not be negative: got {value}" }
    /// A reason a change of history needs.
    REASON_REQUIRED = "REASON_REQUIRED" {
        pt: "diga por quê (fica no histórico)",
        en: "say why (it is kept in the history)"
    }
    /// A social-fuel project that does not exist.
    PROJECT_UNKNOWN = "PROJECT_UNKNOWN" {
        pt: "nenhum projeto de combustível social com o ID {id}",
        en: "no social-fuel project with ID {id}"
    }
    /// An FCO carta that does not exist.
    CARTA_UNKNOWN = "CARTA_UNKNOWN" { pt: "nenhuma carta-consulta do FCO com o ID {id}", en: "no FCO carta with ID {id}" }
    /// A financing (project or carta) that does not exist.
    FINANCING_UNKNOWN = "FINANCING_UNKNOWN" { pt: "nenhum financiamento com o ID {id}", en: "no financing with ID {id}" }
    /// A bank ID that names no bank.
    BANK_ID_UNKNOWN = "BANK_ID_UNKNOWN" { pt: "nenhum banco com este ID", en: "no such bank" }
    /// A new party without a name.
    PARTY_NAME_REQUIRED = "PARTY_NAME_REQUIRED" {
        pt: "{document} é novo no Fomento: informe também o nome",
        en: "{document} is new to Fomento: give its name too"
    }
    /// A biodiesel producer identified by a CPF.
    PRODUCER_NEEDS_CNPJ = "PRODUCER_NEEDS_CNPJ" {
        pt: "o produtor de biodiesel é uma empresa: informe um CNPJ válido",
        en: "a biodiesel producer is a company: give a valid CNPJ"
    }
    /// A number that is not an IBGE code.
    IBGE_INVALID = "IBGE_INVALID" {
        pt: "{value} não é um código de município do IBGE",
        en: "{value} is not an IBGE municipality code"
    }
    /// A carta number the bank already used.
    CARTA_NUMBER_TAKEN = "CARTA_NUMBER_TAKEN" {
        pt: "o banco já tem uma carta-consulta de número {number}",
        en: "the bank already has a carta numbered {number}"
    }
    /// A rule-parameter version that does not exist.
    PARAMETER_VERSION_UNKNOWN = "PARAMETER_VERSION_UNKNOWN" {
        pt: "nenhuma versão de parâmetro {id}",
        en: "no rule-parameter version {id}"
    }
    /// A rule-parameter version withdrawn before.
    PARAMETER_VERSION_WITHDRAWN = "PARAMETER_VERSION_WITHDRAWN" {
        pt: "a versão {id} já foi retirada em {at} ({reason})",
        en: "version {id} was already withdrawn on {at} ({reason})"
    }
    /// A rule-parameter version that cannot be stored.
    PARAMETER_INVALID = "PARAMETER_INVALID" { pt: "{detail}", en: "{detail}" }
    /// A parameter version without its instrument.
    LEGAL_SOURCE_REQUIRED = "LEGAL_SOURCE_REQUIRED" {
        pt: "indique o ato normativo que fixa o valor",
        en: "name the instrument that sets the value"
    }
    /// A non-business day recorded twice.
    DAY_ALREADY_RECORDED = "DAY_ALREADY_RECORDED" {
        pt: "{day} já está registrado ({reason})",
        en: "{day} is already recorded ({reason})"
    }
    /// An ID that is neither a project's nor a carta's.
    NOT_A_FINANCING_ID = "NOT_A_FINANCING_ID" {
        pt: "{id} não é o ID de um projeto nem de uma carta-consulta",
        en: "{id} is not a project or carta ID"
    }
    /// A rule code that is not a checklist rule of the financing's programme.
    NOT_A_CHECKLIST_RULE = "NOT_A_CHECKLIST_RULE" {
        pt: "{code} não é uma regra de checklist deste programa",
        en: "{code} is not a checklist rule of this programme"
    }
    /// A date range whose start is after its end.
    DATE_RANGE_INVERTED = "DATE_RANGE_INVERTED" { pt: "é posterior a {other}", en: "is after {other}" }
    /// No party has the document.
    PARTY_UNKNOWN = "PARTY_UNKNOWN" { pt: "nenhuma parte com o documento {document}", en: "no party with document {document}" }
    /// A carta item that does not exist.
    ITEM_UNKNOWN = "ITEM_UNKNOWN" { pt: "não há item de carta-consulta {id}", en: "there is no carta item {id}" }
    /// A feedstock acquisition that does not exist.
    ACQUISITION_UNKNOWN = "ACQUISITION_UNKNOWN" {
        pt: "não há aquisição de matéria-prima {id}",
        en: "there is no feedstock acquisition {id}"
    }
    /// A contract proposal that does not exist.
    PROPOSAL_UNKNOWN = "PROPOSAL_UNKNOWN" { pt: "não há proposta de contrato {id}", en: "there is no contract proposal {id}" }
    /// A chamber meeting that does not exist.
    MEETING_UNKNOWN = "MEETING_UNKNOWN" { pt: "não há reunião da câmara {id}", en: "there is no chamber meeting {id}" }
    /// A webhook URL that is not http(s).
    WEBHOOK_URL = "WEBHOOK_URL" {
        pt: "{value} não é um endereço http:// ou https://",
        en: "{value} is not an http:// or https:// address"
    }
    /// A webhook secret too short to sign with.
    WEBHOOK_SECRET = "WEBHOOK_SECRET" {
        pt: "o segredo tem ao menos 16 caracteres",
        en: "the secret has at least 16 characters"
    }
    /// A programme that does not exist.
    WEBHOOK_PROGRAMME = "WEBHOOK_PROGRAMME" {
        pt: "{value} não é um programa: SOCIAL_FUEL ou FCO_RURAL",
        en: "{value} is not a programme: SOCIAL_FUEL or FCO_RURAL"
    }
    /// An event no webhook hears of.
    WEBHOOK_EVENT = "WEBHOOK_EVENT" {
        pt: "{value} não é um evento; os eventos são {events}",
        en: "{value} is not an event; the events are {events}"
    }
    /// A webhook that does not exist.
    WEBHOOK_UNKNOWN = "WEBHOOK_UNKNOWN" { pt: "não há webhook {id}", en: "there is no webhook {id}" }
    /// No credentials, or credentials that are not valid.
    UNAUTHENTICATED = "UNAUTHENTICATED" {
        pt: "credenciais ausentes ou inválidas: envie uma chave de API no cabeçalho Authorization: Bearer",
        en: "missing or invalid credentials: send an API key in the Authorization: Bearer header"
    }
    /// The audit log's summary of the calls refused for want of a credential from one address in one window.
    AUDIT_REFUSALS = "AUDIT_REFUSALS" {
        pt: "{count} chamadas recusadas sem credencial de {from} entre {start} e {end} UTC",
        en: "{count} calls refused without credentials from {from} between {start} and {end} UTC"
    }
    /// The file store refused a file.
    FILE_STORE_UNAVAILABLE = "FILE_STORE_UNAVAILABLE" {
        pt: "o arquivo não pôde ser guardado agora (armazenamento indisponível); nada foi registrado: envie-o de novo em alguns minutos",
        en: "the file could not be stored just now (storage unavailable); nothing was recorded: send it again in a few minutes"
    }
    /// A report whose raw file was purged at the end of its retention.
    RAW_FILE_PURGED = "RAW_FILE_PURGED" {
        pt: "o arquivo original do relatório {id} foi descartado em {day}, ao fim do prazo de guarda; as linhas e os erros continuam no Fomento",
        en: "report {id}'s original file was purged on {day}, at the end of its retention; its rows and errors remain in Fomento"
    }
    /// A key past its requests per second.
    RATE_LIMITED = "RATE_LIMITED" {
        pt: "limite de {rate} requisições por segundo desta chave excedido; tente de novo em {seconds} s",
        en: "this key's limit of {rate} requests per second is exceeded; try again in {seconds} s"
    }
    /// A request that ran past the server's time limit.
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT" {
        pt: "a requisição passou do limite de {seconds} s do servidor e foi interrompida",
        en: "the request ran past the server's limit of {seconds} s and was stopped"
    }
    /// The server holds as many requests as it admits at once.
    OVERLOADED = "OVERLOADED" {
        pt: "o servidor está no seu limite de {limit} requisições atendidas ao mesmo tempo; tente de novo em {seconds} s",
        en: "the server is at its limit of {limit} requests served at once; try again in {seconds} s"
    }
    /// The database does not answer.
    DATABASE_UNAVAILABLE = "DATABASE_UNAVAILABLE" {
        pt: "o banco de dados não responde; tente de novo em instantes",
        en: "the database does not answer; try again in a moment"
    }
    /// A role that may never perform an operation.
    FORBIDDEN = "FORBIDDEN" {
        pt: "o papel {role} não tem permissão para a operação {operation} (papéis: README, Keys and roles)",
        en: "the {role} role may not perform the {operation} operation (roles: README, Keys and roles)"
    }
    /// An object outside the caller's scope, answered as one that does not exist.
    OBJECT_UNSEEN = "OBJECT_UNSEEN" { pt: "objeto não encontrado", en: "no such object" }
    /// A role that sees persons' CPFs and names masked may not look them up, filter or search by them.
    PERSONAL_LOOKUP_FORBIDDEN = "PERSONAL_LOOKUP_FORBIDDEN" {
        pt: "o papel {role} vê CPFs e nomes de pessoas mascarados (LGPD) e não pode procurar nem filtrar por CPF ({field})",
        en: "the {role} role sees persons' CPFs and names masked (LGPD) and may not look up or filter by a CPF ({field})"
    }
    /// A role that does not exist.
    ROLE_UNKNOWN = "ROLE_UNKNOWN" {
        pt: "não há papel {role}; os papéis são bank, mda, council, analyst e admin",
        en: "there is no role {role}; the roles are bank, mda, council, analyst and admin"
    }
    /// A `bank` key without its bank.
    KEY_NEEDS_BANK = "KEY_NEEDS_BANK" {
        pt: "uma chave do papel bank precisa do código do seu banco (--bank)",
        en: "a bank key needs its bank's code (--bank)"
    }
    /// An act dated after today.
    DATE_IN_FUTURE = "DATE_IN_FUTURE" {
        pt: "{event} em {date} é depois de hoje ({today}, em Brasília): um ato se registra depois de acontecer",
        en: "{event} on {date} is after today ({today}, in Brasília): an act is recorded once it has happened"
    }
    /// A fact said to take effect after today.
    EFFECTIVE_IN_FUTURE = "EFFECTIVE_IN_FUTURE" {
        pt: "{date} é depois de hoje ({today}, em Brasília): um fato se registra depois de acontecer",
        en: "{date} is after today ({today}, in Brasília): a fact is recorded once it has happened"
    }
    /// A fact said to take effect before what it depends on.
    EFFECTIVE_TOO_EARLY = "EFFECTIVE_TOO_EARLY" {
        pt: "{date} é antes de {since}, o dia desde o qual vale o que este fato altera ou encerra",
        en: "{date} is before {since}, the day what this fact changes or ends holds from"
    }
    /// `knownAt` before the financing was recorded.
    NOT_YET_RECORDED = "NOT_YET_RECORDED" {
        pt: "em {at} este registro ainda não existia no Fomento: não há o que ele sabia então",
        en: "at {at} this record did not exist in Fomento yet: there is nothing it knew then"
    }
    /// `asOf` after the day of `knownAt`.
    AS_OF_AFTER_KNOWN_AT = "AS_OF_AFTER_KNOWN_AT" {
        pt: "asOf {asOf} é depois do dia de knownAt ({day}, em Brasília): o registro de um instante responde pelo seu dia ou antes",
        en: "asOf {asOf} is after knownAt's day ({day}, in Brasília): the record of an instant answers for its day or earlier"
    }
    /// A financing of nothing.
    AMOUNT_NOT_POSITIVE = "AMOUNT_NOT_POSITIVE" {
        pt: "o valor precisa ser maior que R$ 0,00",
        en: "the amount must be more than R$ 0,00"
    }
    /// A key's own rate outside 1..=1,000,000 requests per second.
    KEY_RATE_OUT_OF_RANGE = "KEY_RATE_OUT_OF_RANGE" {
        pt: "a taxa de uma chave vai de 1 a 1.000.000 requisições por segundo; recebida {rate}",
        en: "a key's rate is 1 to 1,000,000 requests per second; got {rate}"
    }
    /// An API key that does not exist.
    KEY_UNKNOWN = "KEY_UNKNOWN" { pt: "não há chave de API {id}", en: "there is no API key {id}" }
    /// A state-changing request signed in by a browser's cookie that did not come from Fomento's own pages.
    CROSS_SITE_REQUEST = "CROSS_SITE_REQUEST" {
        pt: "requisição recusada: veio de outro site ({origin}) com o cookie de sessão deste; use as páginas do Fomento ou envie a chave no cabeçalho Authorization",
        en: "request refused: it came from another site ({origin}) with this site's session cookie; use Fomento's own pages or send the key in the Authorization header"
    }
    /// A subscription whose key was revoked, or whose token expired, while it was open.
    CREDENTIAL_ENDED = "CREDENTIAL_ENDED" {
        pt: "a chave desta assinatura foi revogada, ou o seu token expirou: a assinatura terminou",
        en: "this subscription's key was revoked, or its token expired: the subscription has ended"
    }
    /// A compliance flag that does not exist.
    FLAG_UNKNOWN = "FLAG_UNKNOWN" { pt: "não há alerta de conformidade {id}", en: "there is no compliance flag {id}" }
    /// A compliance flag already resolved.
    FLAG_ALREADY_RESOLVED = "FLAG_ALREADY_RESOLVED" {
        pt: "o alerta {id} já foi resolvido por {by}",
        en: "flag {id} was already resolved by {by}"
    }
    /// An economic group that does not exist.
    GROUP_UNKNOWN = "GROUP_UNKNOWN" { pt: "não há grupo econômico {id}", en: "there is no economic group {id}" }
    /// A version of a fact that was already corrected or removed.
    VERSION_SUPERSEDED = "VERSION_SUPERSEDED" {
        pt: "a versão {id} já foi corrigida ou removida; altere a versão em vigor",
        en: "version {id} was already corrected or removed; change the version in force"
    }
    /// A count or number below zero.
    NUMBER_NEGATIVE = "NUMBER_NEGATIVE" { pt: "não pode ser negativo", en: "must not be negative" }
    /// A term that is not a positive number of months.
    TERM_INVALID = "TERM_INVALID" {
        pt: "o prazo é um número positivo de meses",
        en: "a term is a positive number of months"
    }
    /// An animal item without its head count.
    HEAD_COUNT_REQUIRED = "HEAD_COUNT_REQUIRED" {
        pt: "um item de animais informa o número de cabeças",
        en: "an animal item states its head count"
    }
    /// A head count on an item that is not animals.
    HEAD_COUNT_NOT_ANIMAL = "HEAD_COUNT_NOT_ANIMAL" {
        pt: "só itens de animais têm número de cabeças",
        en: "only animal items have a head count"
    }
    /// A year of manufacture out of range.
    MANUFACTURE_YEAR_INVALID = "MANUFACTURE_YEAR_INVALID" {
        pt: "{value} não é um ano de fabricação",
        en: "{value} is not a year of manufacture"
    }
    /// A pedigree registration not among the three the instruction names.
    REGISTRATION_INVALID = "REGISTRATION_INVALID" {
        pt: "{value}: escreva PO_RGD, PO, LA ou CEIP",
        en: "{value}: write PO_RGD, PO, LA or CEIP"
    }
    /// An item without its quantity.
    QUANTITY_REQUIRED = "QUANTITY_REQUIRED" { pt: "informe a quantidade", en: "state the quantity" }
    /// An acquisition year out of range.
    ACQUISITION_YEAR_INVALID = "ACQUISITION_YEAR_INVALID" {
        pt: "{value} não é um ano de aquisição (de 2005 a {last})",
        en: "{value} is not an acquisition year (2005 to {last})"
    }
    /// A productivity coefficient without its source.
    COEFFICIENT_SOURCE_REQUIRED = "COEFFICIENT_SOURCE_REQUIRED" {
        pt: "um coeficiente de produtividade informa quem o publicou (art. 4)",
        en: "a productivity coefficient names who published it (art. 4)"
    }
    /// A perennial contract with only one of its area and coefficient.
    PERENNIAL_INCOMPLETE = "PERENNIAL_INCOMPLETE" {
        pt: "um contrato de cultura perene informa a área e o coeficiente de produtividade (art. 4)",
        en: "a perennial contract states both its area and its productivity coefficient (art. 4)"
    }
    /// A bank listed both present and absent.
    ATTENDANCE_BOTH = "ATTENDANCE_BOTH" {
        pt: "o banco {bank} aparece como presente e ausente",
        en: "bank {bank} is listed as present and absent"
    }
    /// A result sent before the meeting started.
    RESULT_BEFORE_MEETING = "RESULT_BEFORE_MEETING" {
        pt: "o resultado não pode ser enviado antes do início da reunião",
        en: "the result cannot go out before the meeting starts"
    }
    /// An opinion recorded as given before the meeting started.
    OPINION_BEFORE_MEETING = "OPINION_BEFORE_MEETING" {
        pt: "o parecer da CPACR é dado na reunião, não antes do seu início",
        en: "the CPACR gives its opinion at the meeting, not before it starts"
    }
    /// A result report sent before the opinion it reports.
    RESULT_BEFORE_OPINION = "RESULT_BEFORE_OPINION" {
        pt: "o resultado não pode ser enviado antes do parecer da CPACR ({opinion})",
        en: "the result cannot go out before the CPACR's opinion ({opinion})"
    }
    /// A group kind the instruction does not name.
    GROUP_KIND_INVALID = "GROUP_KIND_INVALID" {
        pt: "{value}: escreva GROUP, COOPERATIVE ou ASSOCIATION",
        en: "{value}: write GROUP, COOPERATIVE or ASSOCIATION"
    }
    /// A party that belongs to another group.
    GROUP_MEMBER_ELSEWHERE = "GROUP_MEMBER_ELSEWHERE" {
        pt: "{document} já pertence a {group}; retire-o de lá primeiro",
        en: "{document} already belongs to {group}; remove it there first"
    }
    /// A party that is not a member of the group.
    GROUP_NOT_MEMBER = "GROUP_NOT_MEMBER" {
        pt: "{document} não é membro de {group}",
        en: "{document} is not a member of {group}"
    }
    /// A bank code with characters other than letters, digits and `_`.
    BANK_CODE_INVALID = "BANK_CODE_INVALID" {
        pt: "{value}: o código do banco tem letras, dígitos e _",
        en: "{value}: a bank code has letters, digits and _"
    }
    /// A bank code already registered.
    BANK_CODE_TAKEN = "BANK_CODE_TAKEN" { pt: "já há um banco com o código {code}", en: "there is already a bank {code}" }
    /// A search too short to be useful.
    SEARCH_TOO_SHORT = "SEARCH_TOO_SHORT" {
        pt: "escreva ao menos 2 letras do nome",
        en: "write at least 2 letters of the name"
    }
    /// A search longer than any name it could find.
    SEARCH_TOO_LONG = "SEARCH_TOO_LONG" {
        pt: "a busca tem {length} caracteres; o máximo é {max}",
        en: "the search has {length} characters; at most {max} are allowed"
    }
    /// A 60-day report of a bank other than Banco do Brasil.
    BANK_NOT_BB = "BANK_NOT_BB" {
        pt: "só o Banco do Brasil envia o relatório de 60 dias; {code} não",
        en: "only Banco do Brasil sends the 60-day report; {code} does not"
    }
    /// A confirmation without who confirms.
    CONFIRMED_BY_REQUIRED = "CONFIRMED_BY_REQUIRED" { pt: "diga quem confirma", en: "say who confirms" }
    /// An import kind Fomento does not know.
    IMPORT_KIND_UNKNOWN = "IMPORT_KIND_UNKNOWN" {
        pt: "{value}: os tipos de importação são {kinds}",
        en: "{value}: the import kinds are {kinds}"
    }
    /// An import without the thing it is for.
    IMPORT_TARGET_REQUIRED = "IMPORT_TARGET_REQUIRED" {
        pt: "uma importação de {kind} é para {what}: informe-o",
        en: "an import of {kind} is for {what}: name it"
    }
    /// A target that is neither a number nor a global ID of the kind's target.
    IMPORT_TARGET_INVALID = "IMPORT_TARGET_INVALID" {
        pt: "{value} não é o número nem o ID global de um(a) {what}",
        en: "{value} is neither the number nor the global ID of a {what}"
    }
    /// An acquisitions import without its year.
    IMPORT_YEAR_REQUIRED = "IMPORT_YEAR_REQUIRED" {
        pt: "uma importação de aquisições é de um ano: informe o ano",
        en: "an import of acquisitions is for one year: give the year"
    }
    /// An import that does not exist.
    IMPORT_UNKNOWN = "IMPORT_UNKNOWN" { pt: "não há importação {id}", en: "there is no import {id}" }
    /// The same bytes as a failed import: queued again.
    IMPORT_REQUEUED = "IMPORT_REQUEUED" {
        pt: "este arquivo já havia sido enviado e seu processamento falhou; ele foi colocado de novo na fila para uma nova tentativa",
        en: "this file was sent before and its processing failed; it was queued again for a new attempt"
    }
    /// An import that failed on Fomento's side.
    IMPORT_FAILED = "IMPORT_FAILED" {
        pt: "Não foi possível processar a importação {id} por um erro do lado do Fomento, depois de {attempts} tentativa(s); nada foi aplicado e o arquivo está guardado. Envie o mesmo arquivo de novo para uma nova tentativa.",
        en: "Import {id} could not be processed because of an error on Fomento's side, after {attempts} attempt(s); nothing was applied and the file is kept. Send the same file again for a new attempt."
    }
    /// A rule that refuses a row.
    RULE_REFUSED = "RULE_REFUSED" { pt: "{code}: {explanation} ({basis})", en: "{code}: {explanation} ({basis})" }
    /// A value outside a closed list.
    VALUE_NOT_IN_LIST = "VALUE_NOT_IN_LIST" {
        pt: "{value} não é um dos valores aceitos: {values}",
        en: "{value} is not one of the accepted values: {values}"
    }
    /// A required cell left empty.
    CELL_MISSING = "CELL_MISSING" { pt: "está faltando", en: "is missing" }
    /// A cell that is not a number.
    NUMBER_INVALID = "NUMBER_INVALID" {
        pt: "não é um número: escreva 1.234,5 ou 1234.5",
        en: "not a number: write 1.234,5 or 1234.5"
    }
    /// A cell that is not a whole number.
    INTEGER_INVALID = "INTEGER_INVALID" { pt: "não é um número inteiro", en: "not a whole number" }
    /// A cell that is not a time of day.
    TIME_INVALID = "TIME_INVALID" { pt: "não é uma hora: escreva hh:mm", en: "not a time of day: write hh:mm" }
    /// The same criterion twice in one evaluation report.
    CRITERION_REPEATED = "CRITERION_REPEATED" {
        pt: "o critério {value} aparece duas vezes",
        en: "criterion {value} appears twice"
    }
    /// A row whose year differs from the import's.
    IMPORT_YEAR_MISMATCH = "IMPORT_YEAR_MISMATCH" {
        pt: "o ano {value} difere do ano desta importação, {year}",
        en: "year {value} differs from this import's year, {year}"
    }
    /// A carta named by bank and number that Fomento does not know.
    CARTA_UNKNOWN_BY_NUMBER = "CARTA_UNKNOWN_BY_NUMBER" {
        pt: "não há carta-consulta {number} do banco {bank}",
        en: "there is no carta {number} of bank {bank}"
    }
    /// The same carta twice in one agenda file.
    CARTA_REPEATED_IN_FILE = "CARTA_REPEATED_IN_FILE" {
        pt: "a carta-consulta {number} do banco {bank} já aparece na linha {row}",
        en: "carta {number} of bank {bank} already appears on row {row}"
    }
    /// An export no one has.
    EXPORT_UNKNOWN = "EXPORT_UNKNOWN" {
        pt: "não há a exportação {name}; as exportações são {names}",
        en: "there is no export {name}; the exports are {names}"
    }
    /// A file asked for in a format exports are not made in.
    EXPORT_FORMAT = "EXPORT_FORMAT" {
        pt: "{file}: peça NOME.csv ou NOME.xlsx",
        en: "{file}: ask for NAME.csv or NAME.xlsx"
    }
    /// A query-string parameter the address does not take.
    PARAMETER_UNKNOWN = "PARAMETER_UNKNOWN" {
        pt: "parâmetro desconhecido {name}; os parâmetros são {names}",
        en: "unknown parameter {name}; the parameters are {names}"
    }
    /// A query-string parameter given twice.
    PARAMETER_REPEATED = "PARAMETER_REPEATED" {
        pt: "o parâmetro {name} aparece mais de uma vez",
        en: "parameter {name} appears more than once"
    }
    /// A parameter only the dashboard's tables take, given to a list.
    PARAMETER_TABLES_ONLY = "PARAMETER_TABLES_ONLY" {
        pt: "{name} vale só para as tabelas do painel (dashboard-…); as listas são como estão agora",
        en: "{name} applies to the dashboard's tables only (dashboard-…); the lists are as they stand now"
    }
    /// A parameter value not among those allowed.
    PARAMETER_CHOICE = "PARAMETER_CHOICE" {
        pt: "{value} não é aceito; escreva {choices}",
        en: "{value} is not accepted; write {choices}"
    }
    /// A day written as a date that does not exist.
    DAY_DOES_NOT_EXIST = "DAY_DOES_NOT_EXIST" {
        pt: "{value}: esse dia não existe no calendário",
        en: "{value}: there is no such day in the calendar"
    }
    /// Text that is not a day.
    DAY_FORMAT = "DAY_FORMAT" {
        pt: "{value} não é uma data: escreva AAAA-MM-DD",
        en: "{value} is not a date: write YYYY-MM-DD"
    }
    /// An export filter that is not JSON.
    FILTER_NOT_JSON = "FILTER_NOT_JSON" {
        pt: "o filtro não é JSON (linha {line}, coluna {column})",
        en: "the filter is not JSON (line {line}, column {column})"
    }
    /// An export filter with a field its type does not have.
    FILTER_UNKNOWN_FIELD = "FILTER_UNKNOWN_FIELD" {
        pt: "o filtro não tem o campo {name}; os campos são {names}",
        en: "the filter has no field {name}; its fields are {names}"
    }
    /// A rule code no rule has.
    FILTER_UNKNOWN_RULE = "FILTER_UNKNOWN_RULE" {
        pt: "nenhuma regra tem o código {value}",
        en: "no rule has the code {value}"
    }
    /// An export filter the graph refuses.
    FILTER_INVALID = "FILTER_INVALID" {
        pt: "filtro inválido: {detail}",
        en: "invalid filter: {detail}"
    }
    /// An internal error answered to a bank.
    INTERNAL = "INTERNAL" {
        pt: "erro interno; o pedido foi registrado",
        en: "internal error; the request was logged"
    }
}

/// What is wrong with a CPF or CNPJ.
pub fn document(e: &entity::domain::DocumentError) -> Message {
    use entity::domain::DocumentError as E;
    match e {
        E::Empty => Message::new(code::DOCUMENT_EMPTY),
        E::BadCharacter(c) => Message::new(code::DOCUMENT_CHARACTER).arg("character", format!("{c:?}")),
        E::BadLength(n) => Message::new(code::DOCUMENT_LENGTH).arg("count", n),
        E::LetterNotAllowed => Message::new(code::DOCUMENT_LETTERS),
        E::Repeated => Message::new(code::DOCUMENT_REPEATED),
        E::CheckDigits { expected, found } => Message::new(code::DOCUMENT_CHECK_DIGITS)
            .arg("expected", expected)
            .arg("found", found),
    }
}

/// What is wrong with an amount of money.
pub fn amount(e: &entity::domain::AmountError) -> Message {
    use entity::domain::AmountError as E;
    match e {
        E::Negative(_) => Message::new(code::AMOUNT_NEGATIVE),
        E::TooPrecise { value, .. } => Message::new(code::AMOUNT_TOO_PRECISE).arg("value", value),
        E::TooLarge(v) => Message::new(code::AMOUNT_TOO_LARGE).arg("value", v),
    }
}

/// A message for a bank: a catalogue code and its values.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Message {
    /// The catalogue code.
    pub code: String,
    /// The values, by name.
    pub args: BTreeMap<String, String>,
}

impl Message {
    /// A message with no values yet.
    pub fn new(code: &str) -> Self {
        Self {
            code: code.to_owned(),
            args: BTreeMap::new(),
        }
    }

    /// Adds a value.
    pub fn arg(mut self, name: &str, value: impl ToString) -> Self {
        self.args.insert(name.to_owned(), value.to_string());
        self
    }

    /// The values as JSON text, for storage.
    pub fn args_json(&self) -> String {
        serde_json::to_string(&self.args).unwrap_or_else(|_| "{}".into())
    }

    /// The message with every CPF in its values masked (for a reader without the right to see them), and the check
    /// digits of a wrong document hidden: with the six digits a mask shows, the expected check digits narrow the
    /// hidden ones to a handful.
    pub fn scrubbed(mut self) -> Self {
        for (k, v) in self.args.iter_mut() {
            *v = if matches!(k.as_str(), "expected" | "found") && self.code == code::DOCUMENT_CHECK_DIGITS {
                "**".to_owned()
            } else {
                crate::privacy::scrub_cpfs(v)
            };
        }
        self
    }

    /// A message as stored: its code and its values as JSON.
    pub fn stored(code: &str, args_json: Option<&str>) -> Self {
        Self {
            code: code.to_owned(),
            args: args_json.and_then(|j| serde_json::from_str(j).ok()).unwrap_or_default(),
        }
    }

    /// The text in `lang`; a code not in the catalogue renders as itself with its values.
    pub fn render(&self, lang: Lang) -> String {
        let Some((_, pt, en)) = CATALOGUE
            .iter()
            .chain(crate::labels::LABELS)
            .find(|(c, ..)| *c == self.code)
        else {
            return format!("{} {}", self.code, self.args_json());
        };
        let template = match lang {
            Lang::PtBr => pt,
            Lang::En => en,
        };
        let mut out = (*template).to_owned();
        for (k, v) in &self.args {
            out = out.replace(&format!("{{{k}}}"), v);
        }
        out
    }
}

impl std::fmt::Display for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::PtBr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placeholders(s: &str) -> Vec<&str> {
        let mut v: Vec<&str> = s.split('{').skip(1).filter_map(|p| p.split('}').next()).collect();
        v.sort_unstable();
        v
    }

    #[test]
    fn every_message_has_the_same_values_in_both_languages_and_one_code() {
        for (code, pt, en) in CATALOGUE {
            assert_eq!(placeholders(pt), placeholders(en), "{code}");
            assert_eq!(CATALOGUE.iter().filter(|(c, ..)| c == code).count(), 1, "{code} twice");
        }
    }

    #[test]
    fn messages_render_in_the_language_asked_and_survive_storage() {
        let m = Message::new(code::DOCUMENT_CHECK_DIGITS)
            .arg("expected", "25")
            .arg("found", "\"26\"\\\n");
        let back = Message::stored(&m.code, Some(&m.args_json()));
        assert_eq!(back, m);
        assert!(
            back.render(Lang::PtBr)
                .starts_with("CPF ou CNPJ inválido: os dígitos verificadores não conferem")
        );
        assert!(
            back.render(Lang::En)
                .starts_with("not a valid CPF or CNPJ: the check digits do not match")
        );
    }

    #[test]
    fn accept_language_picks_english_only_when_preferred() {
        assert_eq!(Lang::from_accept_language(None), Lang::PtBr);
        assert_eq!(Lang::from_accept_language(Some("en")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("en-US,en;q=0.9")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("pt-BR,pt;q=0.9,en;q=0.8")), Lang::PtBr);
        assert_eq!(Lang::from_accept_language(Some("fr, en;q=0.5")), Lang::En);
        assert_eq!(Lang::from_accept_language(Some("de")), Lang::PtBr);
        assert_eq!(Lang::from_accept_language(Some("en;q=0")), Lang::PtBr);
    }
}
