# What Fomento tells banks and users: one message per code (service::messages::code).
# { $name } stands for a value; DATE, MONEY, PERCENT and NUMBER format one for this language.

# A money cell left empty.
AMOUNT_MISSING = the value is missing
# A cell of a kind that cannot hold an amount.
AMOUNT_NOT_A_CELL = { $value } is not an amount
# Text that is not an amount.
AMOUNT_INVALID = not an amount: write R$ 1.234,56 or 1234.56
# A negative amount.
AMOUNT_NEGATIVE = the amount is negative
# An amount with fractions of a centavo.
AMOUNT_DECIMALS = the amount has more than two decimal places (centavos)
# A date cell left empty.
DATE_MISSING = the date is missing
# A number that is no plausible Excel date.
DATE_SERIAL = { $value } is not a date (as an Excel serial it would be { $date })
# Text that is not a date.
DATE_INVALID = not a date: write dd/mm/aaaa
# A cell of a kind that cannot hold a date.
DATE_NOT_A_CELL = { $value } is not a date
# A term or grace that is not a whole number.
MONTHS_INVALID = not a whole number of months
# A term or grace out of range.
MONTHS_RANGE = not a whole number of months between 0 and 600
# No CPF/CNPJ.
DOCUMENT_MISSING = the CPF/CNPJ is missing
# A cell of a kind that cannot hold a document.
DOCUMENT_NOT_A_CELL = { $value } is not a CPF or CNPJ
# An empty document.
DOCUMENT_EMPTY = not a valid CPF or CNPJ: the document is empty
# A character a document cannot hold.
DOCUMENT_CHARACTER = not a valid CPF or CNPJ: the document has the character { $character }, which is neither a digit, a letter nor punctuation
# A document of the wrong length.
DOCUMENT_LENGTH = not a valid CPF or CNPJ: a CPF has 11 digits and a CNPJ 14 characters; this one has { $count }
# Letters where a CNPJ takes digits.
DOCUMENT_LETTERS = not a valid CPF or CNPJ: letters are allowed only in the first 12 characters of a CNPJ
# All digits equal.
DOCUMENT_REPEATED = not a valid CPF or CNPJ: a document with all digits equal is not valid
# Wrong check digits.
DOCUMENT_CHECK_DIGITS = not a valid CPF or CNPJ: the check digits do not match (expected { $expected }, found { $found })
# No carta number.
CARTA_MISSING = the carta number is missing
# A control character in the carta number.
CARTA_CONTROL = the carta number holds a control character (an invisible one, such as a tab or a line break)
# No borrower.
BORROWER_MISSING = the borrower's name is missing
# A control character in the borrower's name.
BORROWER_CONTROL = the borrower's name holds a control character other than a tab or a line break
# An IBGE code no municipality has.
IBGE_UNKNOWN = no municipality has this IBGE code
# An IBGE code of the wrong length.
IBGE_LENGTH = an IBGE municipality code has 7 digits; { $value } does not
# An IBGE code without a state prefix.
IBGE_UF = { $value } does not start with the code of a federative unit (UF)
# A municipality name unknown in the state.
MUNICIPALITY_UNKNOWN = no municipality of that name in { $uf }
# Not a state.
UF_INVALID = not a federative unit (UF)
# Neither the IBGE code nor the municipality and state.
MUNICIPALITY_MISSING = give the IBGE code, or the municipality and its UF
# A municipality outside Mato Grosso.
MUNICIPALITY_OUTSIDE_MT = FCO Rural under CDAE/MT covers Mato Grosso only
# Not a programme line.
LINE_INVALID = not a programme line: FCO Rural, FCO Verde or Pronaf
# No programme line.
LINE_MISSING = the programme line is missing
# Not a known activity.
ACTIVITY_INVALID = not a known activity; the template lists them
# No activity.
ACTIVITY_MISSING = the activity is missing
# Contracted before approval.
CONTRACTED_BEFORE_APPROVAL = contracted on { $contracted } before its approval on { $approved }
# Lines of a semi-arid delimitation that are no municipality's IBGE code.
SEMI_ARID_BAD_LINES = nothing was loaded: these lines hold no municipality's IBGE code: { $lines }
# A semi-arid delimitation with no municipality.
SEMI_ARID_EMPTY = the file lists no municipality
# A semi-arid delimitation loaded twice.
SEMI_ARID_LOADED = the delimitation { $source } is already loaded
# An open day recorded on a day that is no ponto facultativo nor an early closing.
NOT_A_PONTO_FACULTATIVO = { $day } is no ponto facultativo (Carnival, Corpus Christi) nor Christmas or New Year's Eve: only on those is an office recorded open
# Project presented before its approval.
PRESENTED_BEFORE_APPROVAL = project presented on { $presented } before its approval on { $approved }
# Project presented after the contract.
PRESENTED_AFTER_CONTRACT = project presented on { $presented } after the contract on { $contracted }
# Grace longer than the term.
GRACE_OVER_TERM = { $grace } months of grace exceed the { $term }-month term
# No header found.
HEADER_NOT_FOUND = no header row found in the first { $rows } rows; the template's headers are: { $headers }
# A header without some required column.
HEADER_INCOMPLETE = the header on row { $row } lacks the column(s): { $columns }
# An empty file.
FILE_EMPTY = the file is empty
# Over the size limit.
FILE_TOO_LARGE = the file has { $size } bytes; at most { $max } are accepted
# Over the row limit.
FILE_TOO_MANY_ROWS = the sheet has more than { $max } rows
# A decompression bomb.
FILE_BOMB = the workbook would expand to { $bytes } bytes; this looks like a decompression bomb and is refused
# A password-protected workbook.
FILE_PASSWORD = the workbook is password-protected; save it without a password and send it again
# Not a spreadsheet.
FILE_NOT_A_SPREADSHEET = the file is not a spreadsheet Fomento reads (xlsx, xlsm, xlsb, xls, ods or CSV): { $detail }
# A file of another kind (a PDF, an image, an archive) named as a spreadsheet.
FILE_OTHER_FORMAT = the file is a { $format }, not a spreadsheet: send the report as xlsx, xlsm, xlsb, xls, ods or CSV
# No sheet with data.
FILE_NO_DATA = the workbook has no sheet with data
# A header and no rows.
FILE_NO_ROWS = the sheet has a header but no data rows
# The file could not be read (when no reason was kept).
FILE_UNREADABLE = the file could not be read
# The ingestion failed on Fomento's side.
INGESTION_FAILED = The report could not be processed because of an error on Fomento's side, after { $attempts } attempt(s); nothing was applied and the file is kept. The operator was told; quote the reference { $reference }, or send the same file again for a new attempt.
# The same bytes as a failed report: queued again.
REPORT_REQUEUED = this file was sent before and its processing failed; it was queued again for a new attempt
# A multipart field missing.
UPLOAD_FIELD_MISSING = the field `{ $field }` ({ $what }) is missing
# A multipart field that could not be read (the limit is named when it was the size).
UPLOAD_FIELD_UNREADABLE = could not read the field `{ $field }`: { $detail }
# An upload over the size limit.
UPLOAD_TOO_LARGE = the upload is over the limit of { $max } bytes ({ $mib } MiB); split the file or ask the operator
# Not a multipart body.
UPLOAD_NOT_MULTIPART = not a multipart/form-data body: { $detail }
# An unknown bank code.
BANK_UNKNOWN = no bank with code { $code }
# A bank outside FCO.
BANK_NOT_FCO = { $code } does not operate FCO Rural; its monthly list is not expected
# A carta through a bank outside FCO.
BANK_NOT_FCO_CARTA = { $code } does not pass FCO Rural on in Mato Grosso: file the carta through a bank that does
# A social-fuel project through a bank outside the programme.
BANK_NOT_SOCIAL_FUEL = { $code } does not take part in the social-fuel programme
# A malformed month.
MONTH_INVALID = { $value } is not a month in the form YYYY-MM
# A monthly list for a month not yet begun.
MONTH_IN_FUTURE = the monthly list of { $month } cannot exist yet: the current month is { $current } (art. 2 §5 of IN CDAE/MT 2019 asks for the month's list)
# A monthly list for a month before the instrument that asks for it.
MONTH_BEFORE_INSTRUMENT = the monthly list of { $month } is before IN CDAE/MT of 20 March 2019, which asks for it (art. 2 §5; in force since { $since })
# A malformed report number.
REPORT_ID_INVALID = { $value } is not a report id
# An unknown report.
REPORT_UNKNOWN = no bank report { $value }
# The errors column of `errors.xlsx`.
ERRORS_COLUMN = Errors
# A message stored as text only, before codes were kept (shown as written, in Portuguese or English).
TEXT = { $text }
# A negative page size.
PAGE_NEGATIVE = `{ $arg }` must not be negative
# A page too large.
PAGE_TOO_LARGE = `{ $arg }` may be at most { $max }, not { $asked }; ask for further pages with `after`/`before`
# A cursor this server did not issue.
PAGE_CURSOR = `{ $arg }` is not a cursor issued by this server
# A cursor of a position in the list (`o:N`), which the sorted lists stopped issuing: it would skip or repeat rows when the list changes between pages.
PAGE_CURSOR_OUTDATED = `{ $arg }` is an old cursor, a position in the list, which is no longer accepted; start again from the first page (without `after` or `before`)
# A cursor issued for another ordering of the list.
PAGE_CURSOR_ORDER = `{ $arg }` is a cursor of the list ordered by { $issued }, not by { $asked }; ask for the same ordering or start again from the first page
# An amount with fractions of a centavo, named.
AMOUNT_TOO_PRECISE = { $value } has more than 2 decimal places (centavos)
# An amount too large to keep.
AMOUNT_TOO_LARGE = { $value } is too large
# A required text left empty.
FIELD_EMPTY = must not be empty
AMENDMENT_AMOUNT_MISSING = a change of value needs the new value (`newAmount`)
AMENDMENT_PROPERTIES_NOT_MUNICIPALITY = `propertiesListed` says whether the new municipality's properties are listed in the carta (art. 15 d): it belongs to a change of municipality (MUNICIPALITY_CHANGE) only
NOTHING_TO_UPDATE = no fact changes: give the new value of at least one
COUNT_NEGATIVE = must not be negative: got { $value }
# A reason a change of history needs.
REASON_REQUIRED = say why (it is kept in the history)
# A social-fuel project that does not exist.
PROJECT_UNKNOWN = no social-fuel project with ID { $id }
# An FCO carta that does not exist.
CARTA_UNKNOWN = no FCO carta with ID { $id }
# A financing (project or carta) that does not exist.
FINANCING_UNKNOWN = no financing with ID { $id }
# A bank ID that names no bank.
BANK_ID_UNKNOWN = no such bank
# A new party without a name.
PARTY_NAME_REQUIRED = { $document } is new to Fomento: give its name too
# A biodiesel producer identified by a CPF.
PRODUCER_NEEDS_CNPJ = a biodiesel producer is a company: give a valid CNPJ
# A number that is not an IBGE code.
IBGE_INVALID = { $value } is not an IBGE municipality code
# A carta number the bank already used.
CARTA_NUMBER_TAKEN = the bank already has a carta numbered { $number }
# A rule-parameter version that does not exist.
PARAMETER_VERSION_UNKNOWN = no rule-parameter version { $id }
# A rule-parameter version withdrawn before.
PARAMETER_VERSION_WITHDRAWN = version { $id } was already withdrawn on { $at } ({ $reason })
# A rule-parameter version that cannot be stored.
PARAMETER_INVALID = { $explanation }
# A parameter version without its instrument.
LEGAL_SOURCE_REQUIRED = name the instrument that sets the value
# A non-business day recorded twice.
DAY_ALREADY_RECORDED = { $day } is already recorded ({ $reason })
# An ID that is neither a project's nor a carta's.
NOT_A_FINANCING_ID = { $id } is not a project or carta ID
# A rule code that is not a checklist rule of the financing's programme.
NOT_A_CHECKLIST_RULE = { $code } is not a checklist rule of this programme
# A date range whose start is after its end.
DATE_RANGE_INVERTED = is after { $other }
# No party has the document.
PARTY_UNKNOWN = no party with document { $document }
# A carta item that does not exist.
ITEM_UNKNOWN = there is no carta item { $id }
# A feedstock acquisition that does not exist.
ACQUISITION_UNKNOWN = there is no feedstock acquisition { $id }
# A contract proposal that does not exist.
PROPOSAL_UNKNOWN = there is no contract proposal { $id }
# A chamber meeting that does not exist.
MEETING_UNKNOWN = there is no chamber meeting { $id }
# A webhook URL that is not http(s).
WEBHOOK_URL = { $value } is not an http:// or https:// address
# A webhook secret too short to sign with.
WEBHOOK_SECRET = the secret has at least 16 characters
# A programme that does not exist.
WEBHOOK_PROGRAMME = { $value } is not a programme: SOCIAL_FUEL or FCO_RURAL
# An event no webhook hears of.
WEBHOOK_EVENT = { $value } is not an event; the events are { $events }
WEBHOOK_LANG = { $value } is not a language of the texts sent: write pt-BR or en
# A webhook that does not exist.
WEBHOOK_UNKNOWN = there is no webhook { $id }
# No credentials, or credentials that are not valid.
UNAUTHENTICATED = missing or invalid credentials: send an API key in the Authorization: Bearer header
# The audit log's summary of the calls refused for want of a credential from one address in one window.
AUDIT_REFUSALS = { $count } calls refused without credentials from { $from } between { $start } and { $end } UTC
# The file store refused a file.
FILE_STORE_UNAVAILABLE = the file could not be stored just now (storage unavailable); nothing was recorded: send it again in a few minutes
# A report whose raw file was purged at the end of its retention.
RAW_FILE_PURGED = report { $id }'s original file was purged on { $day }, at the end of its retention; its rows and errors remain in Fomento
# A key past its requests per second.
RATE_LIMITED = this key's limit of { $rate } requests per second is exceeded; try again in { $seconds } s
# A request that ran past the server's time limit.
REQUEST_TIMEOUT = the request ran past the server's limit of { $seconds } s and was stopped
# The server holds as many requests as it admits at once.
OVERLOADED = the server is at its limit of { $limit } requests served at once; try again in { $seconds } s
# The database does not answer.
DATABASE_UNAVAILABLE = the database does not answer; try again in a moment
# A role that may never perform an operation.
FORBIDDEN = the { $role } role may not perform the { $operation } operation (roles: README, Keys and roles)
# An object outside the caller's scope, answered as one that does not exist.
OBJECT_UNSEEN = no such object
# A role that sees persons' CPFs and names masked may not look them up, filter or search by them.
PERSONAL_LOOKUP_FORBIDDEN = the { $role } role sees persons' CPFs and names masked (LGPD) and may not look up or filter by a CPF ({ $field })
# A role that does not exist.
ROLE_UNKNOWN = there is no role { $role }; the roles are bank, mda, council, analyst, metrics and admin
# A `bank` key without its bank.
KEY_NEEDS_BANK = a bank key needs its bank's code (--bank)
# An act dated after today.
DATE_IN_FUTURE = { $event } on { $date } is after today ({ $today }, in Brasília): an act is recorded once it has happened
# A fact said to take effect after today.
EFFECTIVE_IN_FUTURE = { $date } is after today ({ $today }, in Brasília): a fact is recorded once it has happened
# A fact said to take effect before what it depends on.
EFFECTIVE_TOO_EARLY = { $date } is before { $since }, the day what this fact changes or ends holds from
# `knownAt` before the financing was recorded.
NOT_YET_RECORDED = at { $at } this record did not exist in Fomento yet: there is nothing it knew then
# `asOf` after the day of `knownAt`.
AS_OF_AFTER_KNOWN_AT = asOf { $asOf } is after knownAt's day ({ $day }, in Brasília): the record of an instant answers for its day or earlier
# A financing of nothing.
AMOUNT_NOT_POSITIVE = the amount must be more than R$ 0,00
# A key's own rate outside 1..=1,000,000 requests per second.
KEY_RATE_OUT_OF_RANGE = a key's rate is 1 to 1,000,000 requests per second; got { $rate }
# An API key that does not exist.
KEY_UNKNOWN = there is no API key { $id }
# A state-changing request signed in by a browser's cookie that did not come from Fomento's own pages.
CROSS_SITE_REQUEST = request refused: it came from another site ({ $origin }) with this site's session cookie; use Fomento's own pages or send the key in the Authorization header
# A subscription whose key was revoked, or whose token expired, while it was open.
CREDENTIAL_ENDED = this subscription's key was revoked, or its token expired: the subscription has ended
# A compliance flag that does not exist.
FLAG_UNKNOWN = there is no compliance flag { $id }
# A compliance flag already resolved.
FLAG_ALREADY_RESOLVED = flag { $id } was already resolved by { $by }
CARTA_ALREADY_SUBMITTED = carta { $number } was already submitted (it is { $stage }): a carta is submitted once; one with an unfavourable opinion comes back reformulated as a new carta (draftFcoCartaResubmission)
ENUM_AS_STRING = { $arg }: "{ $value }" is a string; a { $enum } value is written without quotes in a query: { $value } (as a string in JSON variables)
# An economic group that does not exist.
GROUP_UNKNOWN = there is no economic group { $id }
# A version of a fact that was already corrected or removed.
VERSION_SUPERSEDED = version { $id } was already corrected or removed; change the version in force
# A count or number below zero.
NUMBER_NEGATIVE = must not be negative
# A term that is not a positive number of months.
TERM_INVALID = a term is a positive number of months
# An animal item without its head count.
HEAD_COUNT_REQUIRED = an animal item states its head count
# A head count on an item that is not animals.
HEAD_COUNT_NOT_ANIMAL = only animal items have a head count
# A year of manufacture out of range.
MANUFACTURE_YEAR_INVALID = { $value } is not a year of manufacture
# A pedigree registration not among the three the instruction names.
REGISTRATION_INVALID = { $value }: write PO_RGD, PO, LA or CEIP
# An item without its quantity.
QUANTITY_REQUIRED = state the quantity
# An acquisition year out of range.
ACQUISITION_YEAR_INVALID = { $value } is not an acquisition year (2005 to { $last })
# A productivity coefficient without its source.
COEFFICIENT_SOURCE_REQUIRED = a productivity coefficient names who published it (art. 4)
# A perennial contract with only one of its area and coefficient.
PERENNIAL_INCOMPLETE = a perennial contract states both its area and its productivity coefficient (art. 4)
# A bank listed both present and absent.
ATTENDANCE_BOTH = bank { $bank } is listed as present and absent
# A result sent before the meeting started.
RESULT_BEFORE_MEETING = the result cannot go out before the meeting starts
# An opinion recorded as given before the meeting started.
OPINION_BEFORE_MEETING = the CPACR gives its opinion at the meeting, not before it starts
# A result report sent before the opinion it reports.
RESULT_BEFORE_OPINION = the result cannot go out before the CPACR's opinion ({ $opinion })
# A group kind the instruction does not name.
GROUP_KIND_INVALID = { $value }: write GROUP, COOPERATIVE or ASSOCIATION
# A party that belongs to another group.
GROUP_MEMBER_ELSEWHERE = { $document } already belongs to { $group }; remove it there first
# A party that is not a member of the group.
GROUP_NOT_MEMBER = { $document } is not a member of { $group }
# A bank code with characters other than letters, digits and `_`.
BANK_CODE_INVALID = { $value }: a bank code has letters, digits and _
# A bank code already registered.
BANK_CODE_TAKEN = there is already a bank { $code }
# A search too short to be useful.
SEARCH_TOO_SHORT = write at least 2 letters of the name
# A search longer than any name it could find.
SEARCH_TOO_LONG = the search has { $length } characters; at most { $max } are allowed
# A 60-day report of a bank other than Banco do Brasil.
BANK_NOT_BB = only Banco do Brasil sends the 60-day report; { $code } does not
# A confirmation without who confirms.
CONFIRMED_BY_REQUIRED = say who confirms
# An import kind Fomento does not know.
IMPORT_KIND_UNKNOWN = { $value }: the import kinds are { $kinds }
# An import without the thing it is for.
IMPORT_TARGET_REQUIRED = an import of { $kind } is for { $what }: name it
# A target that is neither a number nor a global ID of the kind's target.
IMPORT_TARGET_INVALID = { $value } is neither the number nor the global ID of a { $what }
# An acquisitions import without its year.
IMPORT_YEAR_REQUIRED = an import of acquisitions is for one year: give the year
# An import that does not exist.
IMPORT_UNKNOWN = there is no import { $id }
# The same bytes as a failed import: queued again.
IMPORT_REQUEUED = this file was sent before and its processing failed; it was queued again for a new attempt
# An import that failed on Fomento's side.
IMPORT_FAILED = Import { $id } could not be processed because of an error on Fomento's side, after { $attempts } attempt(s); nothing was applied and the file is kept. Send the same file again for a new attempt.
# A rule that refuses a row.
RULE_REFUSED = { $code }: { $explanation } ({ $basis })
# A value outside a closed list.
VALUE_NOT_IN_LIST = { $value } is not one of the accepted values: { $values }
# A required cell left empty.
CELL_MISSING = is missing
# A cell that is not a number.
NUMBER_INVALID = not a number: write 1.234,5 or 1234.5
# A cell that is not a whole number.
INTEGER_INVALID = not a whole number
# A cell that is not a time of day.
TIME_INVALID = not a time of day: write hh:mm
# The same criterion twice in one evaluation report.
CRITERION_REPEATED = criterion { $value } appears twice
# A row whose year differs from the import's.
IMPORT_YEAR_MISMATCH = year { $value } differs from this import's year, { $year }
# A carta named by bank and number that Fomento does not know.
CARTA_UNKNOWN_BY_NUMBER = there is no carta { $number } of bank { $bank }
# The same carta twice in one agenda file.
CARTA_REPEATED_IN_FILE = carta { $number } of bank { $bank } already appears on row { $row }
# An export no one has.
EXPORT_UNKNOWN = there is no export { $name }; the exports are { $names }
# A file asked for in a format exports are not made in.
EXPORT_FORMAT = { $file }: ask for NAME.csv or NAME.xlsx
# A query-string parameter the address does not take.
PARAMETER_UNKNOWN = unknown parameter { $name }; the parameters are { $names }
# A query-string parameter given twice.
PARAMETER_REPEATED = parameter { $name } appears more than once
# A parameter only the dashboard's tables take, given to a list.
PARAMETER_TABLES_ONLY = { $name } applies to the dashboard's tables only (dashboard-…); the lists are as they stand now
# A parameter value not among those allowed.
PARAMETER_CHOICE = { $value } is not accepted; write { $choices }
# A day written as a date that does not exist.
DAY_DOES_NOT_EXIST = { $value }: there is no such day in the calendar
# Text that is not a day.
DAY_FORMAT = { $value } is not a date: write YYYY-MM-DD
# An export filter that is not JSON.
FILTER_NOT_JSON = the filter is not JSON (line { $line }, column { $column })
# An export filter with a field its type does not have.
FILTER_UNKNOWN_FIELD = the filter has no field { $name }; its fields are { $names }
# A rule code no rule has.
FILTER_UNKNOWN_RULE = no rule has the code { $value }
# An export filter the graph refuses.
FILTER_INVALID = invalid filter: { $detail }
# A dashboard table no table has the name of.
TABLE_UNKNOWN = no dashboard table is named { $value }; the tables are { $names }
# Flag changes a command made on SQLite, which a running server's subscribers do not hear of.
FLAGS_NOT_ANNOUNCED = note: { $count } flag changes were recorded, but on SQLite the `flagRaised` subscribers of a running server do not hear of changes made by another process; they see them in their next query (or run the job in the server: PostgreSQL announces them to every server)
# A batched GraphQL request, which the server does not take.
BATCH_NOT_SUPPORTED = batched requests are not supported (the body is an array of { $count } operations): send one operation per request (Apollo Client: HttpLink, not BatchHttpLink)
# An internal error answered to a bank.
INTERNAL = internal error; the request was logged
# An argument that is no global ID (of the kind expected).
ID_INVALID = { $arg }: { $id } is not { $kind ->
    [any] an ID
    [Bank] a bank ID
    [Party] a party ID
    [EconomicGroup] an economic group ID
    [Municipality] a municipality ID
    [SocialFuelProject] a social-fuel project ID
    [FcoCarta] an FCO carta ID
    [BankReport] a bank report ID
    [ChamberMeeting] a chamber meeting ID
    [FactImport] a fact import ID
    [ComplianceFlag] a compliance flag ID
    [CartaItem] a carta item ID
    [FeedstockAcquisition] a feedstock acquisition ID
    [ContractProposal] a contract proposal ID
   *[other] an ID
}
# A well-formed global ID no object has.
ID_UNKNOWN = no { $kind ->
    [Bank] bank
    [Party] party
    [EconomicGroup] economic group
    [Municipality] municipality
    [SocialFuelProject] social-fuel project
    [FcoCarta] FCO carta
    [BankReport] bank report
    [ChamberMeeting] chamber meeting
    [FactImport] fact import
    [ComplianceFlag] compliance flag
    [CartaItem] carta item
    [FeedstockAcquisition] feedstock acquisition
    [ContractProposal] contract proposal
   *[other] object
} with ID { $id }
# An IBGE code no municipality has, asked by the graph.
MUNICIPALITY_NOT_FOUND = no municipality with IBGE code { $code }
# A configuration file that cannot be read or is not TOML.
CONFIG_UNREADABLE = the configuration file { $file } cannot be read: { $reason }
# A key of the configuration file that names no setting.
CONFIG_UNKNOWN_KEY = the configuration file { $file } has the key «{ $key }», which is no setting of Fomento; the keys are the options' long names, without «--» (`fomento --help`)
# A value of the configuration file that its setting does not take.
CONFIG_BAD_VALUE = the configuration file { $file } gives the key «{ $key }» a value it does not take ({ $value }): { $reason }
# A value of the configuration file of the wrong kind (a list for one value, text for a switch).
CONFIG_WRONG_KIND = the configuration file { $file } gives the key «{ $key }» the value { $value }, but it takes { $expected ->
    [switch] true or false
    [one] one value, not a list
    [list] a list of texts or numbers
   *[scalar] a text or a number
}

# Refusals of the law's guards at each act (issue 42).
# Justifications outside the non-conformity hearing.
REFUSE_JUSTIFICATIONS_STAGE = the company's justifications and contestations answer a non-conformity found by the evaluation (art. 11 II); this project is «{ $stage }» ({ $stage_code })
# MDA's notice to the bank outside an unframing or a seal not requested.
REFUSE_BANK_NOTICE_STAGE = MDA notifies the bank of an unframing (art. 11 II) or of a seal not requested in time (art. 11 §1); this project is «{ $stage }» ({ $stage_code })
# The public update outside an unframing.
REFUSE_PUBLIC_UPDATE_STAGE = MDA updates its public database with an unframing (art. 11 II); this project is «{ $stage }» ({ $stage_code })
# MDA's acceptance of a delay without the bank's.
REFUSE_DELAY_BANK_FIRST = MDA accepts a delay of the implementation schedule only if the bank accepted it (art. 10 §2, "somente serão aceitos pelo MDA se o forem pelo agente financeiro"): record the bank's acceptance first (`recordScheduleDelayBankAcceptance`)
# The day of a delay's acceptance without the acceptance.
REFUSE_DELAY_DAY_WITHOUT_ACCEPTANCE = `delayAcceptedOn` dates MDA's acceptance of a delay (art. 10 §2): give it with `delayAccepted: true`
# The schedule presented before the financing's approval.
REFUSE_SCHEDULE_BEFORE_APPROVAL = the company presents its physical-financial schedule once the bank approved the financing (art. 10 caput); no approval is recorded
# The bank's acceptance of a delay with no schedule.
REFUSE_DELAY_WITHOUT_SCHEDULE = a delay is of the implementation schedule (art. 10 §2); no scheduled end is recorded
# A contract conditioned on what the carta still lacks.
# A query's limits.
QUERY_TOO_LARGE = the query is { $bytes } bytes, over the limit of { $max }
QUERY_TOO_COSTLY = the query would cost { $cost } (each field 1, times the page sizes it asks for), over the limit of { $max }: ask for fewer aliases, smaller pages or fewer fields
QUERY_TOO_MANY_SELECTIONS = the query stands for { $selections } selections once its fragments are spread, over the limit of { $max }: spread fewer fragments
QUERY_TOO_DEEP = the query nests fields and fragments over { $max } levels deep
REFUSE_CONTRACT_CONDITIONS = the contract on { DATE($on) } is conditioned on what the carta still lacks that day: { $listed }
# A resubmission with no items.
REFUSE_RESUBMIT_NO_ITEMS = not reformulated: the carta lists no items where carta { $number }, which had an unfavourable opinion, listed { $count ->
    [one] one
   *[other] { $count }
}; a resubmission states its project (art. 3 sole §)
# A resubmission the same as the original.
REFUSE_RESUBMIT_UNCHANGED = not reformulated: the same value, term, grace, line, activity, stated facts and items as carta { $number }, which had an unfavourable opinion (art. 3 sole § lets it be resubmitted once reformulated)
# The chamber's decision on the carta of an absent bank.
REFUSE_BANK_ABSENT = the carta's bank was recorded absent from the chamber's meeting of { DATE($day) }: its proposals are not considered (art. 2 §6); put the carta on another meeting's agenda
# The chamber's decision dated another day than the meeting.
REFUSE_DECISION_AT_MEETING = the carta is on the agenda of the chamber's meeting of { DATE($day) }: the CPACR gives its opinion at that meeting (art. 2 §§3, 6–7), so the decision is dated { DATE($day) }, not { DATE($on) }
# A resubmission of a carta without an unfavourable opinion.
REFUSE_RESUBMIT_STAGE = only a carta with an unfavourable opinion may be resubmitted; this one is «{ $stage }» ({ $stage_code })
# A second resubmission.
REFUSE_RESUBMIT_AGAIN = carta { $number } was already resubmitted as carta { $again }: reformulate that one
# An amendment of a carta neither approved nor contracted.
REFUSE_AMEND_STAGE = only approved or contracted cartas are amended; this one is «{ $stage }» ({ $stage_code })
# An amendment dated before the act it amends.
REFUSE_AMEND_BEFORE = an amendment on { DATE($on) } is before the { $act ->
    [approval] approval
    [presentation] presentation
   *[contract] contract
} of the carta it amends ({ DATE($day) })
# A correction of stated facts the stage does not allow.
REFUSE_STATEMENT = the stated facts of a carta «{ $stage }» ({ $stage_code }) are not corrected: { $why ->
    [contracted] a contracted financing changes by amendment (art. 15, amendFcoCarta)
    [unfavourable] an unfavourable carta is reformulated as a new one (art. 3 sole §, resubmitFcoCarta)
    [expired] its approval lapsed unpresented (art. 3 sole §); there is no contract left to condition
   *[special-demand] whether it is a special demand decides who analyses it (art. 14, art. 2 §3), so it is corrected only before the submission
}
# Findings recorded outside the external evaluation.
REFUSE_FINDINGS_STAGE = findings are recorded while the external evaluation runs; this project is «{ $stage }» ({ $stage_code })
# Findings dated before the evaluation started.
REFUSE_FINDINGS_BEFORE_START = input.foundOn: findings dated { DATE($on) } are before the external evaluation started ({ DATE($started) }); a finding is made by the evaluation (art. 11)
# Conformity concluded over findings of non-conformity.
REFUSE_CONFORMITY_AGAINST_FINDINGS = the evaluation found non-conformity on { $criteria }: conformity cannot be concluded (art. 11 II); record the corrected findings first, or conclude non-conformity
# Conformity concluded without findings.
REFUSE_CONFORMITY_WITHOUT_FINDINGS = conformity is found by the external evaluation (art. 11 I), and it has recorded no finding on { $criteria }: record the findings (recordEvaluationFindings) first
# A conclusion dated before the findings it reads.
REFUSE_CONCLUSION_BEFORE_FINDINGS = a conclusion on { DATE($on) } is before the findings it reads (made on { DATE($last) })
# A carta not submitted put on the agenda.
REFUSE_AGENDA_STAGE = only a submitted carta goes on the chamber's agenda; this one is «{ $stage }» ({ $stage_code })
# A carta below the threshold put on the agenda.
REFUSE_AGENDA_BELOW_THRESHOLD = { MONEY($amount) } is under the { MONEY($threshold) } threshold: the bank decides it, not the chamber (unless it is a special demand, art. 14)

# async-graphql's own messages (api/src/graphql/localise.rs matches their shapes); names are quoted as typed.
GRAPHQL_UNKNOWN_FIELD = unknown field "{ $field }" on type "{ $type }".{ $hint }
GRAPHQL_UNKNOWN_ARGUMENT = unknown argument "{ $argument }" on field "{ $field }" of type "{ $type }".{ $hint }
GRAPHQL_INVALID_ARGUMENT = invalid value for argument "{ $argument }": { $reason }
GRAPHQL_FAILED_TO_PARSE = failed to parse "{ $type }": { $reason }
GRAPHQL_ARGUMENT_REQUIRED = field "{ $field }" argument "{ $argument }" of type "{ $type }" is required but not provided
GRAPHQL_NO_SUBFIELDS = field "{ $field }" must not have a selection since type "{ $type }" has no subfields
GRAPHQL_NEEDS_SUBFIELDS = field "{ $field }" of type "{ $type }" must have a selection of subfields
GRAPHQL_VARIABLE_NOT_DEFINED = variable "${ $name }" is not defined
GRAPHQL_VARIABLE_NOT_DEFINED_BY = variable "${ $name }" is not defined by operation "{ $operation }"
GRAPHQL_VARIABLE_NOT_USED = variable "${ $name }" is not used
GRAPHQL_VARIABLE_NOT_USED_BY = variable "${ $name }" is not used by operation "{ $operation }"
GRAPHQL_VARIABLE_POSITION = variable "{ $name }" of type "{ $type }" used in position expecting type "{ $expected }"
GRAPHQL_VARIABLE_REQUIRED = variable "${ $name }" of type "{ $type }" is required
GRAPHQL_UNKNOWN_FRAGMENT = unknown fragment "{ $name }"
GRAPHQL_FRAGMENT_UNUSED = fragment "{ $name }" is never used
GRAPHQL_UNKNOWN_TYPE = unknown type "{ $name }"
GRAPHQL_UNKNOWN_DIRECTIVE = unknown directive "{ $name }"
GRAPHQL_UNKNOWN_OPERATION = unknown operation named "{ $name }"
GRAPHQL_OPERATION_NAME_REQUIRED = the document has several operations: name one in `operationName`
GRAPHQL_EXPECTED_TYPE = expected type "{ $type }"
GRAPHQL_ENUM_VALUE = enumeration type "{ $type }" does not contain the value "{ $value }"
GRAPHQL_INPUT_FIELD_REQUIRED = field "{ $field }" of type "{ $type }" is required but not provided
GRAPHQL_INPUT_FIELD_UNKNOWN = unknown field "{ $field }" of type "{ $type }"
GRAPHQL_INTEGER_RANGE = only integers from { $min } to { $max } are accepted
GRAPHQL_EXPECTED_INPUT = expected input type "{ $type }", found { $value }
GRAPHQL_WHILE_PARSING = { $reason } (occurred while parsing "{ $type }")
GRAPHQL_DID_YOU_MEAN = { " " }Did you mean { $names }?
GRAPHQL_NOT_A_DATE = { $value } is not a date in the form YYYY-MM-DD that exists
GRAPHQL_NOT_A_DECIMAL = { $value } is not a decimal number written as "1234.56" (digits, an optional point, no spaces, separators or exponent)
GRAPHQL_DECIMAL_RANGE = { $value } is out of the decimal range
GRAPHQL_NOT_A_TIMESTAMP = { $value } is not an RFC 3339 timestamp
GRAPHQL_SYNTAX = the query does not parse at line { $line }, column { $column }: expected { $expected }

## The GraphQL HTTP transport's own refusals (api/src/http/graphql.rs), before a request reaches the schema; the
## `extensions.code` of each is unchanged.
GRAPHQL_NOT_ACCEPTABLE = the Accept header allows neither application/graphql-response+json nor application/json
GRAPHQL_MUTATION_OVER_GET = mutations are not allowed over GET; use POST
GRAPHQL_INTROSPECTION_OFF = introspection (`__schema`, `__type`) is switched off on this server; generate clients from schema.graphql
GRAPHQL_CONTENT_TYPE = POST /graphql takes Content-Type: application/json, not "{ $type }"
GRAPHQL_BODY_UNREADABLE = the request's body could not be read
GRAPHQL_BODY_NOT_JSON = the body is not JSON (line { $line }, column { $column })
GRAPHQL_BODY_NOT_OBJECT = the body must be a JSON object
GRAPHQL_MEMBER_TYPE = `{ $member }` must be { $kind ->
    [string] a string
   *[object] a JSON object
}
GRAPHQL_PARAMETER_NOT_JSON = the parameter `{ $parameter }` is not JSON (line { $line }, column { $column })
GRAPHQL_NO_QUERY = { $method ->
    [GET] GET /graphql needs a `query` parameter
   *[other] the request has no `query`
}
GRAPHQL_PERSISTED_VERSION = `extensions.persistedQuery.version` must be 1
GRAPHQL_PERSISTED_HASH_SHAPE = `extensions.persistedQuery.sha256Hash` must be 64 hexadecimal digits
GRAPHQL_PERSISTED_HASH_MISMATCH = the query's SHA-256 is { $digest }, not the { $hash } sent in `extensions.persistedQuery`
GRAPHQL_MULTIPART_INVALID = not a GraphQL multipart request: { $problem ->
    [operations] the `operations` part is missing
    [map] the `map` part is missing
    [map-invalid] the `map` part is not a valid map of files
    [request] the `operations` part is not a valid GraphQL request
    [files] files the `map` part names are missing
    [not-upload] a file is mapped to a variable that is not an `Upload`
    [batch] batched requests are not supported
   *[other] the multipart body does not read
}

## The refusal of a subscriptions' socket's `connection_init` without a valid key (closed with 4403).
SOCKET_UNAUTHENTICATED = UNAUTHENTICATED: send an API key in connection_init ("authorization": "Bearer …")

## A job run's summary (job_run.message_id, migration 62), rendered when read.
JOB_INGEST_DONE = { $processed ->
    [one] { $processed } report
   *[other] { $processed } reports
} processed, { $rejected } rejected, { $failed } failed, { $retrying } to be tried again
JOB_IMPORT_DONE = { $processed ->
    [one] { $processed } import
   *[other] { $processed } imports
} processed, { $rejected } rejected, { $failed } failed, { $retrying } to be tried again
JOB_EXPIRE_DONE = `expire-approvals` as of { DATE($day) }: { $looked ->
    [one] { $looked } approved carta
   *[other] { $looked } approved cartas
} without a presentation looked at; { $expired } expired
JOB_FLAGS_DONE = `flag-deadlines` as of { DATE($day) }: { $judged } judged; { $raised ->
    [one] { $raised } flag
   *[other] { $raised } flags
} raised, { $changed } changed, { $resolved } resolved, { $held } held by a person's resolution
JOB_DASHBOARD_DONE = dashboard as of { DATE($day) } built: { $tables ->
    [one] { $tables } table
   *[other] { $tables } tables
}; { $decisions } decisions and { $evaluations } evaluations overdue, { $expiring } approvals expiring
JOB_PURGE_DONE = raw files received before { DATE($before) } purged: { $files ->
    [one] { $files } file
   *[other] { $files } files
} ({ $reports ->
    [one] { $reports } report
   *[other] { $reports } reports
}, { $imports ->
    [one] { $imports } import
   *[other] { $imports } imports
}); { $kept } kept for a later upload
JOB_WEBHOOKS_DONE = { $delivered ->
    [one] { $delivered } webhook delivery
   *[other] { $delivered } webhook deliveries
} delivered, { $retrying } to be tried again, { $failed } failed
