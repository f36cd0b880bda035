//! What Fomento tells banks about their reports, in one catalogue: each message has a stable code and its text in
//! Brazilian Portuguese (the default: the banks' sheets and the template are in Portuguese) and in English, in the
//! locales' Fluent files (`service/locales/*/messages.ftl`, rendered by [`crate::l10n`]). A message is stored as its
//! code and values and rendered when read, in the language the reader asks for (`Accept-Language`).
//!
//! Size: the catalogue's codes (data) and the message type with its rendering.

use std::collections::BTreeMap;

pub use crate::l10n::Lang;

macro_rules! catalogue {
    ($( $(#[$doc:meta])* $name:ident = $code:literal )*) => {
        /// The codes of the catalogue's messages; each has its text in every locale's `messages.ftl`.
        pub mod code {
            $( $(#[$doc])* pub const $name: &str = $code; )*
        }
        /// Every code of the catalogue.
        pub const CODES: &[&str] = &[ $( $code, )* ];
    };
}

catalogue! {
    /// A money cell left empty.
    AMOUNT_MISSING = "AMOUNT_MISSING"
    /// A cell of a kind that cannot hold an amount.
    AMOUNT_NOT_A_CELL = "AMOUNT_NOT_A_CELL"
    /// Text that is not an amount.
    AMOUNT_INVALID = "AMOUNT_INVALID"
    /// A negative amount.
    AMOUNT_NEGATIVE = "AMOUNT_NEGATIVE"
    /// An amount with fractions of a centavo.
    AMOUNT_DECIMALS = "AMOUNT_DECIMALS"
    /// A date cell left empty.
    DATE_MISSING = "DATE_MISSING"
    /// A number that is no plausible Excel date.
    DATE_SERIAL = "DATE_SERIAL"
    /// Text that is not a date.
    DATE_INVALID = "DATE_INVALID"
    /// A cell of a kind that cannot hold a date.
    DATE_NOT_A_CELL = "DATE_NOT_A_CELL"
    /// A term or grace that is not a whole number.
    MONTHS_INVALID = "MONTHS_INVALID"
    /// A term or grace out of range.
    MONTHS_RANGE = "MONTHS_RANGE"
    /// No CPF/CNPJ.
    DOCUMENT_MISSING = "DOCUMENT_MISSING"
    /// A cell of a kind that cannot hold a document.
    DOCUMENT_NOT_A_CELL = "DOCUMENT_NOT_A_CELL"
    /// An empty document.
    DOCUMENT_EMPTY = "DOCUMENT_EMPTY"
    /// A character a document cannot hold.
    DOCUMENT_CHARACTER = "DOCUMENT_CHARACTER"
    /// A document of the wrong length.
    DOCUMENT_LENGTH = "DOCUMENT_LENGTH"
    /// Letters where a CNPJ takes digits.
    DOCUMENT_LETTERS = "DOCUMENT_LETTERS"
    /// All digits equal.
    DOCUMENT_REPEATED = "DOCUMENT_REPEATED"
    /// Wrong check digits.
    DOCUMENT_CHECK_DIGITS = "DOCUMENT_CHECK_DIGITS"
    /// No carta number.
    CARTA_MISSING = "CARTA_MISSING"
    /// A control character in the carta number.
    CARTA_CONTROL = "CARTA_CONTROL"
    /// No borrower.
    BORROWER_MISSING = "BORROWER_MISSING"
    /// A control character in the borrower's name.
    BORROWER_CONTROL = "BORROWER_CONTROL"
    /// An IBGE code no municipality has.
    IBGE_UNKNOWN = "IBGE_UNKNOWN"
    /// An IBGE code of the wrong length.
    IBGE_LENGTH = "IBGE_LENGTH"
    /// An IBGE code without a state prefix.
    IBGE_UF = "IBGE_UF"
    /// A municipality name unknown in the state.
    MUNICIPALITY_UNKNOWN = "MUNICIPALITY_UNKNOWN"
    /// Not a state.
    UF_INVALID = "UF_INVALID"
    /// Neither the IBGE code nor the municipality and state.
    MUNICIPALITY_MISSING = "MUNICIPALITY_MISSING"
    /// A municipality outside Mato Grosso.
    MUNICIPALITY_OUTSIDE_MT = "MUNICIPALITY_OUTSIDE_MT"
    /// Not a programme line.
    LINE_INVALID = "LINE_INVALID"
    /// No programme line.
    LINE_MISSING = "LINE_MISSING"
    /// Not a known activity.
    ACTIVITY_INVALID = "ACTIVITY_INVALID"
    /// No activity.
    ACTIVITY_MISSING = "ACTIVITY_MISSING"
    /// Contracted before approval.
    CONTRACTED_BEFORE_APPROVAL = "CONTRACTED_BEFORE_APPROVAL"
    /// Lines of a semi-arid delimitation that are no municipality's IBGE code.
    SEMI_ARID_BAD_LINES = "SEMI_ARID_BAD_LINES"
    /// A semi-arid delimitation with no municipality.
    SEMI_ARID_EMPTY = "SEMI_ARID_EMPTY"
    /// A semi-arid delimitation loaded twice.
    SEMI_ARID_LOADED = "SEMI_ARID_LOADED"
    /// An open day recorded on a day that is no ponto facultativo nor an early closing.
    NOT_A_PONTO_FACULTATIVO = "NOT_A_PONTO_FACULTATIVO"
    /// Project presented before its approval.
    PRESENTED_BEFORE_APPROVAL = "PRESENTED_BEFORE_APPROVAL"
    /// Project presented after the contract.
    PRESENTED_AFTER_CONTRACT = "PRESENTED_AFTER_CONTRACT"
    /// Grace longer than the term.
    GRACE_OVER_TERM = "GRACE_OVER_TERM"
    /// No header found.
    HEADER_NOT_FOUND = "HEADER_NOT_FOUND"
    /// A header without some required column.
    HEADER_INCOMPLETE = "HEADER_INCOMPLETE"
    /// An empty file.
    FILE_EMPTY = "FILE_EMPTY"
    /// Over the size limit.
    FILE_TOO_LARGE = "FILE_TOO_LARGE"
    /// Over the row limit.
    FILE_TOO_MANY_ROWS = "FILE_TOO_MANY_ROWS"
    /// A decompression bomb.
    FILE_BOMB = "FILE_BOMB"
    /// A password-protected workbook.
    FILE_PASSWORD = "FILE_PASSWORD"
    /// Not a spreadsheet.
    FILE_NOT_A_SPREADSHEET = "FILE_NOT_A_SPREADSHEET"
    /// A file of another kind (a PDF, an image, an archive) named as a spreadsheet.
    FILE_OTHER_FORMAT = "FILE_OTHER_FORMAT"
    /// No sheet with data.
    FILE_NO_DATA = "FILE_NO_DATA"
    /// A header and no rows.
    FILE_NO_ROWS = "FILE_NO_ROWS"
    /// The file could not be read (when no reason was kept).
    FILE_UNREADABLE = "FILE_UNREADABLE"
    /// The ingestion failed on Fomento's side.
    INGESTION_FAILED = "INGESTION_FAILED"
    /// The same bytes as a failed report: queued again.
    REPORT_REQUEUED = "REPORT_REQUEUED"
    /// A multipart field missing.
    UPLOAD_FIELD_MISSING = "UPLOAD_FIELD_MISSING"
    /// A multipart field that could not be read (the limit is named when it was the size).
    UPLOAD_FIELD_UNREADABLE = "UPLOAD_FIELD_UNREADABLE"
    /// An upload over the size limit.
    UPLOAD_TOO_LARGE = "UPLOAD_TOO_LARGE"
    /// Not a multipart body.
    UPLOAD_NOT_MULTIPART = "UPLOAD_NOT_MULTIPART"
    /// An unknown bank code.
    BANK_UNKNOWN = "BANK_UNKNOWN"
    /// A bank outside FCO.
    BANK_NOT_FCO = "BANK_NOT_FCO"
    /// A carta through a bank outside FCO.
    BANK_NOT_FCO_CARTA = "BANK_NOT_FCO_CARTA"
    /// A social-fuel project through a bank outside the programme.
    BANK_NOT_SOCIAL_FUEL = "BANK_NOT_SOCIAL_FUEL"
    /// A malformed month.
    MONTH_INVALID = "MONTH_INVALID"
    /// A monthly list for a month not yet begun.
    MONTH_IN_FUTURE = "MONTH_IN_FUTURE"
    /// A monthly list for a month before the instrument that asks for it.
    MONTH_BEFORE_INSTRUMENT = "MONTH_BEFORE_INSTRUMENT"
    /// A malformed report number.
    REPORT_ID_INVALID = "REPORT_ID_INVALID"
    /// An unknown report.
    REPORT_UNKNOWN = "REPORT_UNKNOWN"
    /// The errors column of `errors.xlsx`.
    ERRORS_COLUMN = "ERRORS_COLUMN"
    /// A message stored as text only, before codes were kept (shown as written, in Portuguese or English).
    TEXT = "TEXT"
    /// A negative page size.
    PAGE_NEGATIVE = "PAGE_NEGATIVE"
    /// A page too large.
    PAGE_TOO_LARGE = "PAGE_TOO_LARGE"
    /// A cursor this server did not issue.
    PAGE_CURSOR = "PAGE_CURSOR"
    /// A cursor of a position in the list (`o:N`), which the sorted lists stopped issuing: it would skip or repeat
    /// rows when the list changes between pages.
    PAGE_CURSOR_OUTDATED = "PAGE_CURSOR_OUTDATED"
    /// A cursor issued for another ordering of the list.
    PAGE_CURSOR_ORDER = "PAGE_CURSOR_ORDER"
    /// An amount with fractions of a centavo, named.
    AMOUNT_TOO_PRECISE = "AMOUNT_TOO_PRECISE"
    /// An amount too large to keep.
    AMOUNT_TOO_LARGE = "AMOUNT_TOO_LARGE"
    /// A required text left empty.
    FIELD_EMPTY = "FIELD_EMPTY"
    /// A correction that changes nothing.
    NOTHING_TO_UPDATE = "NOTHING_TO_UPDATE"
    /// A count of animals below zero.
    COUNT_NEGATIVE = "COUNT_NEGATIVE"
    /// A change of value amended without the new value.
    AMENDMENT_AMOUNT_MISSING = "AMENDMENT_AMOUNT_MISSING"
    /// `propertiesListed` on an amendment other than a change of municipality.
    AMENDMENT_PROPERTIES_NOT_MUNICIPALITY = "AMENDMENT_PROPERTIES_NOT_MUNICIPALITY"
    /// A reason a change of history needs.
    REASON_REQUIRED = "REASON_REQUIRED"
    /// A social-fuel project that does not exist.
    PROJECT_UNKNOWN = "PROJECT_UNKNOWN"
    /// An FCO carta that does not exist.
    CARTA_UNKNOWN = "CARTA_UNKNOWN"
    /// A financing (project or carta) that does not exist.
    FINANCING_UNKNOWN = "FINANCING_UNKNOWN"
    /// A bank ID that names no bank.
    BANK_ID_UNKNOWN = "BANK_ID_UNKNOWN"
    /// A new party without a name.
    PARTY_NAME_REQUIRED = "PARTY_NAME_REQUIRED"
    /// A biodiesel producer identified by a CPF.
    PRODUCER_NEEDS_CNPJ = "PRODUCER_NEEDS_CNPJ"
    /// A number that is not an IBGE code.
    IBGE_INVALID = "IBGE_INVALID"
    /// A carta number the bank already used.
    CARTA_NUMBER_TAKEN = "CARTA_NUMBER_TAKEN"
    /// A rule-parameter version that does not exist.
    PARAMETER_VERSION_UNKNOWN = "PARAMETER_VERSION_UNKNOWN"
    /// A rule-parameter version withdrawn before.
    PARAMETER_VERSION_WITHDRAWN = "PARAMETER_VERSION_WITHDRAWN"
    /// A rule-parameter version that cannot be stored.
    PARAMETER_INVALID = "PARAMETER_INVALID"
    /// A parameter version without its instrument.
    LEGAL_SOURCE_REQUIRED = "LEGAL_SOURCE_REQUIRED"
    /// A non-business day recorded twice.
    DAY_ALREADY_RECORDED = "DAY_ALREADY_RECORDED"
    /// An ID that is neither a project's nor a carta's.
    NOT_A_FINANCING_ID = "NOT_A_FINANCING_ID"
    /// A rule code that is not a checklist rule of the financing's programme.
    NOT_A_CHECKLIST_RULE = "NOT_A_CHECKLIST_RULE"
    /// A date range whose start is after its end.
    DATE_RANGE_INVERTED = "DATE_RANGE_INVERTED"
    /// No party has the document.
    PARTY_UNKNOWN = "PARTY_UNKNOWN"
    /// A carta item that does not exist.
    ITEM_UNKNOWN = "ITEM_UNKNOWN"
    /// A feedstock acquisition that does not exist.
    ACQUISITION_UNKNOWN = "ACQUISITION_UNKNOWN"
    /// A contract proposal that does not exist.
    PROPOSAL_UNKNOWN = "PROPOSAL_UNKNOWN"
    /// A chamber meeting that does not exist.
    MEETING_UNKNOWN = "MEETING_UNKNOWN"
    /// A webhook URL that is not http(s).
    WEBHOOK_URL = "WEBHOOK_URL"
    /// A webhook secret too short to sign with.
    WEBHOOK_SECRET = "WEBHOOK_SECRET"
    /// A programme that does not exist.
    WEBHOOK_PROGRAMME = "WEBHOOK_PROGRAMME"
    /// An event no webhook hears of.
    WEBHOOK_EVENT = "WEBHOOK_EVENT"
    /// A webhook language that is neither Portuguese nor English.
    WEBHOOK_LANG = "WEBHOOK_LANG"
    /// A webhook that does not exist.
    WEBHOOK_UNKNOWN = "WEBHOOK_UNKNOWN"
    /// No credentials, or credentials that are not valid.
    UNAUTHENTICATED = "UNAUTHENTICATED"
    /// The audit log's summary of the calls refused for want of a credential from one address in one window.
    AUDIT_REFUSALS = "AUDIT_REFUSALS"
    /// The file store refused a file.
    FILE_STORE_UNAVAILABLE = "FILE_STORE_UNAVAILABLE"
    /// A report whose raw file was purged at the end of its retention.
    RAW_FILE_PURGED = "RAW_FILE_PURGED"
    /// A key past its requests per second.
    RATE_LIMITED = "RATE_LIMITED"
    /// A request that ran past the server's time limit.
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    /// The server holds as many requests as it admits at once.
    OVERLOADED = "OVERLOADED"
    /// The database does not answer.
    DATABASE_UNAVAILABLE = "DATABASE_UNAVAILABLE"
    /// A role that may never perform an operation.
    FORBIDDEN = "FORBIDDEN"
    /// An object outside the caller's scope, answered as one that does not exist.
    OBJECT_UNSEEN = "OBJECT_UNSEEN"
    /// A role that sees persons' CPFs and names masked may not look them up, filter or search by them.
    PERSONAL_LOOKUP_FORBIDDEN = "PERSONAL_LOOKUP_FORBIDDEN"
    /// A role that does not exist.
    ROLE_UNKNOWN = "ROLE_UNKNOWN"
    /// A `bank` key without its bank.
    KEY_NEEDS_BANK = "KEY_NEEDS_BANK"
    /// An act dated after today.
    DATE_IN_FUTURE = "DATE_IN_FUTURE"
    /// A fact said to take effect after today.
    EFFECTIVE_IN_FUTURE = "EFFECTIVE_IN_FUTURE"
    /// A fact said to take effect before what it depends on.
    EFFECTIVE_TOO_EARLY = "EFFECTIVE_TOO_EARLY"
    /// `knownAt` before the financing was recorded.
    NOT_YET_RECORDED = "NOT_YET_RECORDED"
    /// `asOf` after the day of `knownAt`.
    AS_OF_AFTER_KNOWN_AT = "AS_OF_AFTER_KNOWN_AT"
    /// A financing of nothing.
    AMOUNT_NOT_POSITIVE = "AMOUNT_NOT_POSITIVE"
    /// A key's own rate outside 1..=1,000,000 requests per second.
    KEY_RATE_OUT_OF_RANGE = "KEY_RATE_OUT_OF_RANGE"
    /// An API key that does not exist.
    KEY_UNKNOWN = "KEY_UNKNOWN"
    /// A state-changing request signed in by a browser's cookie that did not come from Fomento's own pages.
    CROSS_SITE_REQUEST = "CROSS_SITE_REQUEST"
    /// A subscription whose key was revoked, or whose token expired, while it was open.
    CREDENTIAL_ENDED = "CREDENTIAL_ENDED"
    /// A compliance flag that does not exist.
    FLAG_UNKNOWN = "FLAG_UNKNOWN"
    /// A compliance flag already resolved.
    FLAG_ALREADY_RESOLVED = "FLAG_ALREADY_RESOLVED"
    /// An enum value written in a query's text as a string (`"DRAFT"`, not `DRAFT`).
    ENUM_AS_STRING = "ENUM_AS_STRING"
    /// A second submission of a carta already submitted: a state, not a rule.
    CARTA_ALREADY_SUBMITTED = "CARTA_ALREADY_SUBMITTED"
    /// An economic group that does not exist.
    GROUP_UNKNOWN = "GROUP_UNKNOWN"
    /// A version of a fact that was already corrected or removed.
    VERSION_SUPERSEDED = "VERSION_SUPERSEDED"
    /// A count or number below zero.
    NUMBER_NEGATIVE = "NUMBER_NEGATIVE"
    /// A term that is not a positive number of months.
    TERM_INVALID = "TERM_INVALID"
    /// An animal item without its head count.
    HEAD_COUNT_REQUIRED = "HEAD_COUNT_REQUIRED"
    /// A head count on an item that is not animals.
    HEAD_COUNT_NOT_ANIMAL = "HEAD_COUNT_NOT_ANIMAL"
    /// A year of manufacture out of range.
    MANUFACTURE_YEAR_INVALID = "MANUFACTURE_YEAR_INVALID"
    /// A pedigree registration not among the three the instruction names.
    REGISTRATION_INVALID = "REGISTRATION_INVALID"
    /// An item without its quantity.
    QUANTITY_REQUIRED = "QUANTITY_REQUIRED"
    /// An acquisition year out of range.
    ACQUISITION_YEAR_INVALID = "ACQUISITION_YEAR_INVALID"
    /// A productivity coefficient without its source.
    COEFFICIENT_SOURCE_REQUIRED = "COEFFICIENT_SOURCE_REQUIRED"
    /// A perennial contract with only one of its area and coefficient.
    PERENNIAL_INCOMPLETE = "PERENNIAL_INCOMPLETE"
    /// A bank listed both present and absent.
    ATTENDANCE_BOTH = "ATTENDANCE_BOTH"
    /// A result sent before the meeting started.
    RESULT_BEFORE_MEETING = "RESULT_BEFORE_MEETING"
    /// An opinion recorded as given before the meeting started.
    OPINION_BEFORE_MEETING = "OPINION_BEFORE_MEETING"
    /// A result report sent before the opinion it reports.
    RESULT_BEFORE_OPINION = "RESULT_BEFORE_OPINION"
    /// A group kind the instruction does not name.
    GROUP_KIND_INVALID = "GROUP_KIND_INVALID"
    /// A party that belongs to another group.
    GROUP_MEMBER_ELSEWHERE = "GROUP_MEMBER_ELSEWHERE"
    /// A party that is not a member of the group.
    GROUP_NOT_MEMBER = "GROUP_NOT_MEMBER"
    /// A bank code with characters other than letters, digits and `_`.
    BANK_CODE_INVALID = "BANK_CODE_INVALID"
    /// A bank code already registered.
    BANK_CODE_TAKEN = "BANK_CODE_TAKEN"
    /// A search too short to be useful.
    SEARCH_TOO_SHORT = "SEARCH_TOO_SHORT"
    /// A search longer than any name it could find.
    SEARCH_TOO_LONG = "SEARCH_TOO_LONG"
    /// A 60-day report of a bank other than Banco do Brasil.
    BANK_NOT_BB = "BANK_NOT_BB"
    /// A confirmation without who confirms.
    CONFIRMED_BY_REQUIRED = "CONFIRMED_BY_REQUIRED"
    /// An import kind Fomento does not know.
    IMPORT_KIND_UNKNOWN = "IMPORT_KIND_UNKNOWN"
    /// An import without the thing it is for.
    IMPORT_TARGET_REQUIRED = "IMPORT_TARGET_REQUIRED"
    /// A target that is neither a number nor a global ID of the kind's target.
    IMPORT_TARGET_INVALID = "IMPORT_TARGET_INVALID"
    /// An acquisitions import without its year.
    IMPORT_YEAR_REQUIRED = "IMPORT_YEAR_REQUIRED"
    /// An import that does not exist.
    IMPORT_UNKNOWN = "IMPORT_UNKNOWN"
    /// The same bytes as a failed import: queued again.
    IMPORT_REQUEUED = "IMPORT_REQUEUED"
    /// An import that failed on Fomento's side.
    IMPORT_FAILED = "IMPORT_FAILED"
    /// A rule that refuses a row.
    RULE_REFUSED = "RULE_REFUSED"
    /// A value outside a closed list.
    VALUE_NOT_IN_LIST = "VALUE_NOT_IN_LIST"
    /// A required cell left empty.
    CELL_MISSING = "CELL_MISSING"
    /// A cell that is not a number.
    NUMBER_INVALID = "NUMBER_INVALID"
    /// A cell that is not a whole number.
    INTEGER_INVALID = "INTEGER_INVALID"
    /// A cell that is not a time of day.
    TIME_INVALID = "TIME_INVALID"
    /// The same criterion twice in one evaluation report.
    CRITERION_REPEATED = "CRITERION_REPEATED"
    /// A row whose year differs from the import's.
    IMPORT_YEAR_MISMATCH = "IMPORT_YEAR_MISMATCH"
    /// A carta named by bank and number that Fomento does not know.
    CARTA_UNKNOWN_BY_NUMBER = "CARTA_UNKNOWN_BY_NUMBER"
    /// The same carta twice in one agenda file.
    CARTA_REPEATED_IN_FILE = "CARTA_REPEATED_IN_FILE"
    /// An export no one has.
    EXPORT_UNKNOWN = "EXPORT_UNKNOWN"
    /// A file asked for in a format exports are not made in.
    EXPORT_FORMAT = "EXPORT_FORMAT"
    /// A query-string parameter the address does not take.
    PARAMETER_UNKNOWN = "PARAMETER_UNKNOWN"
    /// A query-string parameter given twice.
    PARAMETER_REPEATED = "PARAMETER_REPEATED"
    /// A parameter only the dashboard's tables take, given to a list.
    PARAMETER_TABLES_ONLY = "PARAMETER_TABLES_ONLY"
    /// A parameter value not among those allowed.
    PARAMETER_CHOICE = "PARAMETER_CHOICE"
    /// A day written as a date that does not exist.
    DAY_DOES_NOT_EXIST = "DAY_DOES_NOT_EXIST"
    /// Text that is not a day.
    DAY_FORMAT = "DAY_FORMAT"
    /// An export filter that is not JSON.
    FILTER_NOT_JSON = "FILTER_NOT_JSON"
    /// An export filter with a field its type does not have.
    FILTER_UNKNOWN_FIELD = "FILTER_UNKNOWN_FIELD"
    /// A rule code no rule has.
    FILTER_UNKNOWN_RULE = "FILTER_UNKNOWN_RULE"
    /// An export filter the graph refuses.
    FILTER_INVALID = "FILTER_INVALID"
    /// A dashboard table no table has the name of.
    TABLE_UNKNOWN = "TABLE_UNKNOWN"
    /// Flag changes a command made on SQLite, which a running server's subscribers do not hear of.
    FLAGS_NOT_ANNOUNCED = "FLAGS_NOT_ANNOUNCED"
    /// A batched GraphQL request (a JSON array of operations), which the server does not take.
    BATCH_NOT_SUPPORTED = "BATCH_NOT_SUPPORTED"
    /// An internal error answered to a bank.
    INTERNAL = "INTERNAL"
    /// An argument that is no global ID (of the kind expected).
    ID_INVALID = "ID_INVALID"
    /// A well-formed global ID no object has.
    ID_UNKNOWN = "ID_UNKNOWN"
    /// An IBGE code no municipality has, asked by the graph.
    MUNICIPALITY_NOT_FOUND = "MUNICIPALITY_NOT_FOUND"
    /// A configuration file that cannot be read or is not TOML.
    CONFIG_UNREADABLE = "CONFIG_UNREADABLE"
    /// A key of the configuration file that names no setting.
    CONFIG_UNKNOWN_KEY = "CONFIG_UNKNOWN_KEY"
    /// A value of the configuration file that its setting does not take.
    CONFIG_BAD_VALUE = "CONFIG_BAD_VALUE"
    /// A value of the configuration file of the wrong kind (a list for one value, text for a switch).
    CONFIG_WRONG_KIND = "CONFIG_WRONG_KIND"
    /// Justifications filed for a project not in its non-conformity hearing (SF-UNFRAMING, art. 11 II).
    REFUSE_JUSTIFICATIONS_STAGE = "REFUSE_JUSTIFICATIONS_STAGE"
    /// MDA's notice to the bank on a project neither unframed nor seal-eligible (SF-UNFRAMING).
    REFUSE_BANK_NOTICE_STAGE = "REFUSE_BANK_NOTICE_STAGE"
    /// MDA's public update on a project not unframed (SF-UNFRAMING).
    REFUSE_PUBLIC_UPDATE_STAGE = "REFUSE_PUBLIC_UPDATE_STAGE"
    /// MDA's acceptance of a delay the bank has not accepted (SF-SCHEDULE, art. 10 §2).
    REFUSE_DELAY_BANK_FIRST = "REFUSE_DELAY_BANK_FIRST"
    /// A day of MDA's acceptance of a delay given without the acceptance (SF-SCHEDULE).
    REFUSE_DELAY_DAY_WITHOUT_ACCEPTANCE = "REFUSE_DELAY_DAY_WITHOUT_ACCEPTANCE"
    /// The schedule presented before the financing's approval (SF-SCHEDULE, art. 10 caput).
    REFUSE_SCHEDULE_BEFORE_APPROVAL = "REFUSE_SCHEDULE_BEFORE_APPROVAL"
    /// The bank's acceptance of a delay with no schedule recorded (SF-SCHEDULE, art. 10 §2).
    REFUSE_DELAY_WITHOUT_SCHEDULE = "REFUSE_DELAY_WITHOUT_SCHEDULE"
    /// A query text over the size limit (`QUERY_TOO_LARGE`).
    QUERY_TOO_LARGE = "QUERY_TOO_LARGE"
    /// A query costing over the limit (`QUERY_TOO_COSTLY`).
    QUERY_TOO_COSTLY = "QUERY_TOO_COSTLY"
    /// A query standing for too many selections once its fragments are spread (`QUERY_TOO_COSTLY`).
    QUERY_TOO_MANY_SELECTIONS = "QUERY_TOO_MANY_SELECTIONS"
    /// A query nesting too deep (`QUERY_TOO_COSTLY`).
    QUERY_TOO_DEEP = "QUERY_TOO_DEEP"
    /// A contract the instruction conditions on what the carta still lacks ("fica condicionada").
    REFUSE_CONTRACT_CONDITIONS = "REFUSE_CONTRACT_CONDITIONS"
    /// A resubmission submitted with no items where the original listed some (FCO-RESUBMIT).
    REFUSE_RESUBMIT_NO_ITEMS = "REFUSE_RESUBMIT_NO_ITEMS"
    /// A resubmission submitted with nothing the opinion judged changed (FCO-RESUBMIT).
    REFUSE_RESUBMIT_UNCHANGED = "REFUSE_RESUBMIT_UNCHANGED"
    /// The chamber's decision on a carta whose bank was absent from the meeting (FCO-ATTENDANCE).
    REFUSE_BANK_ABSENT = "REFUSE_BANK_ABSENT"
    /// The chamber's decision dated another day than the meeting whose agenda holds the carta.
    REFUSE_DECISION_AT_MEETING = "REFUSE_DECISION_AT_MEETING"
    /// A resubmission of a carta without an unfavourable opinion (FCO-RESUBMIT).
    REFUSE_RESUBMIT_STAGE = "REFUSE_RESUBMIT_STAGE"
    /// A second resubmission of the same carta (FCO-RESUBMIT).
    REFUSE_RESUBMIT_AGAIN = "REFUSE_RESUBMIT_AGAIN"
    /// An amendment of a carta neither approved nor contracted (FCO-AMENDMENT).
    REFUSE_AMEND_STAGE = "REFUSE_AMEND_STAGE"
    /// An amendment dated before the approval, presentation or contract it amends (FCO-AMENDMENT).
    REFUSE_AMEND_BEFORE = "REFUSE_AMEND_BEFORE"
    /// A correction of a carta's stated facts its stage (or the fact) does not allow (`updateFcoCarta`).
    REFUSE_STATEMENT = "REFUSE_STATEMENT"
    /// Findings recorded for a project not under external evaluation (SF-EXTERNAL-EVAL-6M).
    REFUSE_FINDINGS_STAGE = "REFUSE_FINDINGS_STAGE"
    /// Findings dated before the external evaluation started (art. 11).
    REFUSE_FINDINGS_BEFORE_START = "REFUSE_FINDINGS_BEFORE_START"
    /// Conformity concluded over findings of non-conformity (art. 11 II).
    REFUSE_CONFORMITY_AGAINST_FINDINGS = "REFUSE_CONFORMITY_AGAINST_FINDINGS"
    /// Conformity concluded with criteria the evaluation recorded no finding on (art. 11 I).
    REFUSE_CONFORMITY_WITHOUT_FINDINGS = "REFUSE_CONFORMITY_WITHOUT_FINDINGS"
    /// A conclusion dated before the findings it reads.
    REFUSE_CONCLUSION_BEFORE_FINDINGS = "REFUSE_CONCLUSION_BEFORE_FINDINGS"
    /// A carta put on the chamber's agenda that is not submitted (FCO-72H-BEFORE).
    REFUSE_AGENDA_STAGE = "REFUSE_AGENDA_STAGE"
    /// A carta below the chamber's threshold, not a special demand, put on its agenda.
    REFUSE_AGENDA_BELOW_THRESHOLD = "REFUSE_AGENDA_BELOW_THRESHOLD"
    /// A field the type does not have (async-graphql's validation).
    GRAPHQL_UNKNOWN_FIELD = "GRAPHQL_UNKNOWN_FIELD"
    /// An argument the field does not take.
    GRAPHQL_UNKNOWN_ARGUMENT = "GRAPHQL_UNKNOWN_ARGUMENT"
    /// An argument's value the schema refuses.
    GRAPHQL_INVALID_ARGUMENT = "GRAPHQL_INVALID_ARGUMENT"
    /// A value a scalar or input type could not read.
    GRAPHQL_FAILED_TO_PARSE = "GRAPHQL_FAILED_TO_PARSE"
    /// A required argument not given.
    GRAPHQL_ARGUMENT_REQUIRED = "GRAPHQL_ARGUMENT_REQUIRED"
    /// A selection on a field with no subfields.
    GRAPHQL_NO_SUBFIELDS = "GRAPHQL_NO_SUBFIELDS"
    /// An object field without a selection.
    GRAPHQL_NEEDS_SUBFIELDS = "GRAPHQL_NEEDS_SUBFIELDS"
    /// A variable used and not defined.
    GRAPHQL_VARIABLE_NOT_DEFINED = "GRAPHQL_VARIABLE_NOT_DEFINED"
    /// A variable used and not defined by the named operation.
    GRAPHQL_VARIABLE_NOT_DEFINED_BY = "GRAPHQL_VARIABLE_NOT_DEFINED_BY"
    /// A variable defined and not used.
    GRAPHQL_VARIABLE_NOT_USED = "GRAPHQL_VARIABLE_NOT_USED"
    /// A variable the named operation defines and does not use.
    GRAPHQL_VARIABLE_NOT_USED_BY = "GRAPHQL_VARIABLE_NOT_USED_BY"
    /// A variable of a type the position does not take.
    GRAPHQL_VARIABLE_POSITION = "GRAPHQL_VARIABLE_POSITION"
    /// A required variable the request does not give.
    GRAPHQL_VARIABLE_REQUIRED = "GRAPHQL_VARIABLE_REQUIRED"
    /// A fragment spread and not defined.
    GRAPHQL_UNKNOWN_FRAGMENT = "GRAPHQL_UNKNOWN_FRAGMENT"
    /// A fragment defined and not spread.
    GRAPHQL_FRAGMENT_UNUSED = "GRAPHQL_FRAGMENT_UNUSED"
    /// A type the schema does not have.
    GRAPHQL_UNKNOWN_TYPE = "GRAPHQL_UNKNOWN_TYPE"
    /// A directive the schema does not have.
    GRAPHQL_UNKNOWN_DIRECTIVE = "GRAPHQL_UNKNOWN_DIRECTIVE"
    /// An operation name the document does not have.
    GRAPHQL_UNKNOWN_OPERATION = "GRAPHQL_UNKNOWN_OPERATION"
    /// Several operations and none named.
    GRAPHQL_OPERATION_NAME_REQUIRED = "GRAPHQL_OPERATION_NAME_REQUIRED"
    /// Why an argument's value is refused: not of its type.
    GRAPHQL_EXPECTED_TYPE = "GRAPHQL_EXPECTED_TYPE"
    /// Why an argument's value is refused: not a value of the enumeration.
    GRAPHQL_ENUM_VALUE = "GRAPHQL_ENUM_VALUE"
    /// Why an argument's value is refused: a required input field missing.
    GRAPHQL_INPUT_FIELD_REQUIRED = "GRAPHQL_INPUT_FIELD_REQUIRED"
    /// Why an argument's value is refused: an input field the type does not have.
    GRAPHQL_INPUT_FIELD_UNKNOWN = "GRAPHQL_INPUT_FIELD_UNKNOWN"
    /// An integer out of its type's range.
    GRAPHQL_INTEGER_RANGE = "GRAPHQL_INTEGER_RANGE"
    /// A value not of the input type.
    GRAPHQL_EXPECTED_INPUT = "GRAPHQL_EXPECTED_INPUT"
    /// Where a value's error occurred.
    GRAPHQL_WHILE_PARSING = "GRAPHQL_WHILE_PARSING"
    /// The names close to an unknown one.
    GRAPHQL_DID_YOU_MEAN = "GRAPHQL_DID_YOU_MEAN"
    /// Not a Date.
    GRAPHQL_NOT_A_DATE = "GRAPHQL_NOT_A_DATE"
    /// Not a Decimal.
    GRAPHQL_NOT_A_DECIMAL = "GRAPHQL_NOT_A_DECIMAL"
    /// A Decimal out of range.
    GRAPHQL_DECIMAL_RANGE = "GRAPHQL_DECIMAL_RANGE"
    /// Not a DateTime.
    GRAPHQL_NOT_A_TIMESTAMP = "GRAPHQL_NOT_A_TIMESTAMP"
    /// A document that does not parse: where, and what was expected.
    GRAPHQL_SYNTAX = "GRAPHQL_SYNTAX"
    /// An `Accept` header that allows neither GraphQL media type.
    GRAPHQL_NOT_ACCEPTABLE = "GRAPHQL_NOT_ACCEPTABLE"
    /// A mutation sent over GET.
    GRAPHQL_MUTATION_OVER_GET = "GRAPHQL_MUTATION_OVER_GET"
    /// Introspection asked of a server that has it switched off.
    GRAPHQL_INTROSPECTION_OFF = "GRAPHQL_INTROSPECTION_OFF"
    /// A POST body of another media type than JSON.
    GRAPHQL_CONTENT_TYPE = "GRAPHQL_CONTENT_TYPE"
    /// A POST body that could not be read.
    GRAPHQL_BODY_UNREADABLE = "GRAPHQL_BODY_UNREADABLE"
    /// A POST body that is not JSON: where it stops being JSON.
    GRAPHQL_BODY_NOT_JSON = "GRAPHQL_BODY_NOT_JSON"
    /// A POST body that is JSON and not an object.
    GRAPHQL_BODY_NOT_OBJECT = "GRAPHQL_BODY_NOT_OBJECT"
    /// A member of the request (`query`, `operationName`, `variables`, `extensions`) of the wrong JSON type.
    GRAPHQL_MEMBER_TYPE = "GRAPHQL_MEMBER_TYPE"
    /// A GET parameter (`variables`, `extensions`) that is not JSON.
    GRAPHQL_PARAMETER_NOT_JSON = "GRAPHQL_PARAMETER_NOT_JSON"
    /// A request with neither a query nor a persisted query's hash.
    GRAPHQL_NO_QUERY = "GRAPHQL_NO_QUERY"
    /// A persisted query's version other than 1.
    GRAPHQL_PERSISTED_VERSION = "GRAPHQL_PERSISTED_VERSION"
    /// A persisted query's hash that is not 64 hexadecimal digits.
    GRAPHQL_PERSISTED_HASH_SHAPE = "GRAPHQL_PERSISTED_HASH_SHAPE"
    /// A query sent with a hash that is not its own.
    GRAPHQL_PERSISTED_HASH_MISMATCH = "GRAPHQL_PERSISTED_HASH_MISMATCH"
    /// A multipart request that is not the GraphQL multipart request specification's.
    GRAPHQL_MULTIPART_INVALID = "GRAPHQL_MULTIPART_INVALID"
    /// A subscriptions' socket opened without a valid key.
    SOCKET_UNAUTHENTICATED = "SOCKET_UNAUTHENTICATED"
    /// What a run of the `ingest` job did.
    JOB_INGEST_DONE = "JOB_INGEST_DONE"
    /// What a run of the `import` job did.
    JOB_IMPORT_DONE = "JOB_IMPORT_DONE"
    /// What a run of the `expire-approvals` job did.
    JOB_EXPIRE_DONE = "JOB_EXPIRE_DONE"
    /// What a run of the `flag-deadlines` job did.
    JOB_FLAGS_DONE = "JOB_FLAGS_DONE"
    /// What a run of the `build-dashboards` job did.
    JOB_DASHBOARD_DONE = "JOB_DASHBOARD_DONE"
    /// What a run of the `purge-raw-files` job did.
    JOB_PURGE_DONE = "JOB_PURGE_DONE"
    /// What a run of the `deliver-webhooks` job did.
    JOB_WEBHOOKS_DONE = "JOB_WEBHOOKS_DONE"
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

/// The value under which [`Message::explained`] stores a rule's explanation language-free (JSON).
pub const EXPLAINED: &str = "explanation_json";

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
                crate::masks::scrub_cpfs(v)
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

    /// Adds a rule's explanation as the value `explanation`: stored language-free (its id and values, under
    /// [`EXPLAINED`]) and rendered in the reader's language; its Portuguese text is kept as `explanation` too (what a
    /// reader of the stored values alone, or an older server, shows).
    pub fn explained(self, e: &entity::rules::Explanation) -> Self {
        self.arg("explanation", crate::l10n::explanation(e, Lang::PtBr))
            .arg(EXPLAINED, crate::l10n::explanation_json(e))
    }

    /// The text in `lang`; a code with no text renders as itself with its values.
    pub fn render(&self, lang: Lang) -> String {
        let explained = self
            .args
            .get(EXPLAINED)
            .and_then(|j| serde_json::from_str::<serde_json::Value>(j).ok())
            .and_then(|v| crate::l10n::stored_value(&v, lang));
        crate::l10n::render(
            &self.code,
            self.args
                .iter()
                .filter(|(k, _)| k.as_str() != EXPLAINED)
                .map(|(k, v)| match (k.as_str(), &explained) {
                    ("explanation", Some(e)) => (k.as_str(), e.as_str()),
                    _ => (k.as_str(), v.as_str()),
                }),
            lang,
        )
        .unwrap_or_else(|| format!("{} {}", self.code, self.args_json()))
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

    /// A refusal stored inside an import's row error keeps the explanation's id and values: read back, it renders in
    /// the reader's language.
    #[test]
    fn a_rule_refusal_stored_in_a_row_error_renders_in_the_readers_language() {
        let e = entity::rules::Explanation::message("explain-chamber-above")
            .arg("amount", "2000000")
            .arg("threshold", "1000000");
        let m = Message::new(code::RULE_REFUSED)
            .arg("code", "FCO-CHAMBER-THRESHOLD")
            .explained(&e)
            .arg("basis", "IN CDAE/MT 2019, art. 2, §3");
        let back = Message::stored(&m.code, Some(&m.args_json()));
        let pt = back.render(Lang::PtBr);
        let en = back.render(Lang::En);
        assert!(
            pt.contains("R$ 2.000.000,00 é igual ou superior a R$ 1.000.000,00"),
            "{pt}"
        );
        assert!(en.contains("R$ 2,000,000.00 is at or above R$ 1,000,000.00"), "{en}");
        assert!(!pt.contains("explanation_json") && !pt.contains('{'), "{pt}");
    }

    #[test]
    fn every_code_has_one_text_in_each_language() {
        for code in CODES {
            assert_eq!(CODES.iter().filter(|c| *c == code).count(), 1, "{code} twice");
            for lang in [Lang::PtBr, Lang::En] {
                assert!(crate::l10n::has(code, lang), "{code} has no text in {}", lang.tag());
            }
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
