# What Fomento tells banks and users: one message per code (service::messages::code).
# { $name } stands for a value; DATE, MONEY, PERCENT and NUMBER format one for this language.

# A money cell left empty.
AMOUNT_MISSING = o valor está faltando
# A cell of a kind that cannot hold an amount.
AMOUNT_NOT_A_CELL = { $value } não é um valor em reais
# Text that is not an amount.
AMOUNT_INVALID = não é um valor: escreva R$ 1.234,56 ou 1234.56
# A negative amount.
AMOUNT_NEGATIVE = o valor é negativo
# An amount with fractions of a centavo.
AMOUNT_DECIMALS = o valor tem mais de duas casas decimais (centavos)
# A date cell left empty.
DATE_MISSING = a data está faltando
# A number that is no plausible Excel date.
DATE_SERIAL = { $value } não é uma data (como número de série do Excel seria { $date })
# Text that is not a date.
DATE_INVALID = não é uma data: escreva dd/mm/aaaa
# A cell of a kind that cannot hold a date.
DATE_NOT_A_CELL = { $value } não é uma data
# A term or grace that is not a whole number.
MONTHS_INVALID = não é um número inteiro de meses
# A term or grace out of range.
MONTHS_RANGE = não é um número inteiro de meses entre 0 e 600
# No CPF/CNPJ.
DOCUMENT_MISSING = o CPF/CNPJ está faltando
# A cell of a kind that cannot hold a document.
DOCUMENT_NOT_A_CELL = { $value } não é um CPF nem um CNPJ
# An empty document.
DOCUMENT_EMPTY = CPF ou CNPJ inválido: está vazio
# A character a document cannot hold.
DOCUMENT_CHARACTER = CPF ou CNPJ inválido: tem o caractere { $character }, que não é dígito, letra nem pontuação
# A document of the wrong length.
DOCUMENT_LENGTH = CPF ou CNPJ inválido: um CPF tem 11 dígitos e um CNPJ 14 caracteres; este tem { $count }
# Letters where a CNPJ takes digits.
DOCUMENT_LETTERS = CPF ou CNPJ inválido: letras só são aceitas nos 12 primeiros caracteres de um CNPJ
# All digits equal.
DOCUMENT_REPEATED = CPF ou CNPJ inválido: um documento com todos os dígitos iguais não é válido
# Wrong check digits.
DOCUMENT_CHECK_DIGITS = CPF ou CNPJ inválido: os dígitos verificadores não conferem (esperados { $expected }, encontrados { $found })
# No carta number.
CARTA_MISSING = o número da carta-consulta está faltando
# A control character in the carta number.
CARTA_CONTROL = o número da carta-consulta tem um caractere de controle (invisível, como uma tabulação ou quebra de linha)
# No borrower.
BORROWER_MISSING = o nome do tomador está faltando
# A control character in the borrower's name.
BORROWER_CONTROL = o nome do tomador tem um caractere de controle que não é tabulação nem quebra de linha
# An IBGE code no municipality has.
IBGE_UNKNOWN = nenhum município tem este código IBGE
# An IBGE code of the wrong length.
IBGE_LENGTH = um código de município do IBGE tem 7 dígitos; { $value } não tem
# An IBGE code without a state prefix.
IBGE_UF = { $value } não começa com o código de uma unidade da federação (UF)
# A municipality name unknown in the state.
MUNICIPALITY_UNKNOWN = nenhum município com esse nome em { $uf }
# Not a state.
UF_INVALID = não é uma unidade da federação (UF)
# Neither the IBGE code nor the municipality and state.
MUNICIPALITY_MISSING = informe o código IBGE, ou o município e sua UF
# A municipality outside Mato Grosso.
MUNICIPALITY_OUTSIDE_MT = o FCO Rural da CDAE/MT abrange apenas Mato Grosso
# Not a programme line.
LINE_INVALID = não é uma linha do programa: FCO Rural, FCO Verde ou Pronaf
# No programme line.
LINE_MISSING = a linha do programa está faltando
# Not a known activity.
ACTIVITY_INVALID = não é uma atividade conhecida; o modelo lista as atividades
# No activity.
ACTIVITY_MISSING = a atividade está faltando
# Contracted before approval.
CONTRACTED_BEFORE_APPROVAL = contratada em { $contracted }, antes da aprovação em { $approved }
# Lines of a semi-arid delimitation that are no municipality's IBGE code.
SEMI_ARID_BAD_LINES = nada foi carregado: estas linhas não trazem o código IBGE de um município: { $lines }
# A semi-arid delimitation with no municipality.
SEMI_ARID_EMPTY = o arquivo não lista nenhum município
# A semi-arid delimitation loaded twice.
SEMI_ARID_LOADED = a delimitação { $source } já foi carregada
# An open day recorded on a day that is no ponto facultativo nor an early closing.
NOT_A_PONTO_FACULTATIVO = { $day } não é ponto facultativo (Carnaval, Corpus Christi) nem véspera de Natal ou de Ano-Novo: só nesses dias se registra expediente
# Project presented before its approval.
PRESENTED_BEFORE_APPROVAL = projeto apresentado em { $presented }, antes da aprovação em { $approved }
# Project presented after the contract.
PRESENTED_AFTER_CONTRACT = projeto apresentado em { $presented }, depois da contratação em { $contracted }
# Grace longer than the term.
GRACE_OVER_TERM = { $grace } meses de carência excedem o prazo de { $term } meses
# No header found.
HEADER_NOT_FOUND = nenhuma linha de cabeçalho nas primeiras { $rows } linhas; os cabeçalhos do modelo são: { $headers }
# A header without some required column.
HEADER_INCOMPLETE = o cabeçalho na linha { $row } não tem a(s) coluna(s): { $columns }
# An empty file.
FILE_EMPTY = o arquivo está vazio
# Over the size limit.
FILE_TOO_LARGE = o arquivo tem { $size } bytes; são aceitos no máximo { $max }
# Over the row limit.
FILE_TOO_MANY_ROWS = a planilha tem mais de { $max } linhas
# A decompression bomb.
FILE_BOMB = a pasta de trabalho se expandiria a { $bytes } bytes; parece uma bomba de descompressão e foi recusada
# A password-protected workbook.
FILE_PASSWORD = a pasta de trabalho está protegida por senha; salve-a sem senha e envie de novo
# Not a spreadsheet.
FILE_NOT_A_SPREADSHEET = o arquivo não é uma planilha que o Fomento lê (xlsx, xlsm, xlsb, xls, ods ou CSV): { $detail }
# A file of another kind (a PDF, an image, an archive) named as a spreadsheet.
FILE_OTHER_FORMAT = o arquivo é um { $format } e não é uma planilha: envie o relatório em xlsx, xlsm, xlsb, xls, ods ou CSV
# No sheet with data.
FILE_NO_DATA = a pasta de trabalho não tem planilha com dados
# A header and no rows.
FILE_NO_ROWS = a planilha tem cabeçalho mas nenhuma linha de dados
# The file could not be read (when no reason was kept).
FILE_UNREADABLE = o arquivo não pôde ser lido
# The ingestion failed on Fomento's side.
INGESTION_FAILED = Não foi possível processar o relatório por um erro do lado do Fomento, depois de { $attempts } tentativa(s); nada foi aplicado e o arquivo está guardado. O operador foi avisado; informe a referência { $reference } ao falar com ele, ou envie o mesmo arquivo de novo para uma nova tentativa.
# The same bytes as a failed report: queued again.
REPORT_REQUEUED = este arquivo já havia sido enviado e seu processamento falhou; ele foi colocado de novo na fila para uma nova tentativa
# A multipart field missing.
UPLOAD_FIELD_MISSING = o campo `{ $field }` ({ $what }) está faltando
# A multipart field that could not be read (the limit is named when it was the size).
UPLOAD_FIELD_UNREADABLE = não foi possível ler o campo `{ $field }`: { $detail }
# An upload over the size limit.
UPLOAD_TOO_LARGE = o envio passa do limite de { $max } bytes ({ $mib } MiB); divida o arquivo ou fale com o operador
# Not a multipart body.
UPLOAD_NOT_MULTIPART = o corpo não é multipart/form-data: { $detail }
# An unknown bank code.
BANK_UNKNOWN = nenhum banco com o código { $code }
# A bank outside FCO.
BANK_NOT_FCO = o banco { $code } não opera o FCO Rural; sua relação mensal não é esperada
# A carta through a bank outside FCO.
BANK_NOT_FCO_CARTA = o banco { $code } não repassa o FCO Rural em Mato Grosso: a carta-consulta vai por um banco que o opera
# A social-fuel project through a bank outside the programme.
BANK_NOT_SOCIAL_FUEL = o banco { $code } não participa do programa do combustível social
# A malformed month.
MONTH_INVALID = { $value } não é um mês na forma AAAA-MM
# A monthly list for a month not yet begun.
MONTH_IN_FUTURE = a lista mensal de { $month } ainda não pode existir: o mês corrente é { $current } (art. 2 §5 da IN CDAE/MT 2019 pede a lista do mês)
# A monthly list for a month before the instrument that asks for it.
MONTH_BEFORE_INSTRUMENT = a lista mensal de { $month } é anterior à IN CDAE/MT de 20/03/2019, que a instituiu (art. 2 §5; vigente desde { $since })
# A malformed report number.
REPORT_ID_INVALID = { $value } não é o número de um relatório
# An unknown report.
REPORT_UNKNOWN = nenhum relatório de número { $value }
# The errors column of `errors.xlsx`.
ERRORS_COLUMN = Erros
# A message stored as text only, before codes were kept (shown as written, in Portuguese or English).
TEXT = { $text }
# A negative page size.
PAGE_NEGATIVE = `{ $arg }` não pode ser negativo
# A page too large.
PAGE_TOO_LARGE = `{ $arg }` pode ser no máximo { $max }, não { $asked }; peça as páginas seguintes com `after`/`before`
# A cursor this server did not issue.
PAGE_CURSOR = `{ $arg }` não é um cursor emitido por este servidor
# A cursor of a position in the list (`o:N`), which the sorted lists stopped issuing: it would skip or repeat rows when the list changes between pages.
PAGE_CURSOR_OUTDATED = `{ $arg }` é um cursor antigo, de posição na lista, que não é mais aceito; comece de novo pela primeira página (sem `after` nem `before`)
# A cursor issued for another ordering of the list.
PAGE_CURSOR_ORDER = `{ $arg }` é um cursor da lista ordenada por { $issued }, não por { $asked }; peça a mesma ordenação ou comece de novo pela primeira página
# An amount with fractions of a centavo, named.
AMOUNT_TOO_PRECISE = { $value } tem mais de 2 casas decimais (centavos)
# An amount too large to keep.
AMOUNT_TOO_LARGE = { $value } é grande demais
# A required text left empty.
FIELD_EMPTY = não pode ficar vazio
AMENDMENT_AMOUNT_MISSING = uma alteração de valor precisa do valor novo (`newAmount`)
AMENDMENT_PROPERTIES_NOT_MUNICIPALITY = `propertiesListed` diz se os imóveis do novo município constam da carta (art. 15, alínea d): só cabe numa mudança de município (MUNICIPALITY_CHANGE)
NOTHING_TO_UPDATE = nenhum fato muda: diga o valor novo de ao menos um
COUNT_NEGATIVE = não pode ser negativo: recebido { $value }
# A reason a change of history needs.
REASON_REQUIRED = diga por quê (fica no histórico)
# A social-fuel project that does not exist.
PROJECT_UNKNOWN = nenhum projeto de combustível social com o ID { $id }
# An FCO carta that does not exist.
CARTA_UNKNOWN = nenhuma carta-consulta do FCO com o ID { $id }
# A financing (project or carta) that does not exist.
FINANCING_UNKNOWN = nenhum financiamento com o ID { $id }
# A bank ID that names no bank.
BANK_ID_UNKNOWN = nenhum banco com este ID
# A new party without a name.
PARTY_NAME_REQUIRED = { $document } é novo no Fomento: informe também o nome
# A biodiesel producer identified by a CPF.
PRODUCER_NEEDS_CNPJ = o produtor de biodiesel é uma empresa: informe um CNPJ válido
# A number that is not an IBGE code.
IBGE_INVALID = { $value } não é um código de município do IBGE
# A carta number the bank already used.
CARTA_NUMBER_TAKEN = o banco já tem uma carta-consulta de número { $number }
# A rule-parameter version that does not exist.
PARAMETER_VERSION_UNKNOWN = nenhuma versão de parâmetro { $id }
# A rule-parameter version withdrawn before.
PARAMETER_VERSION_WITHDRAWN = a versão { $id } já foi retirada em { $at } ({ $reason })
# A rule-parameter version that cannot be stored.
PARAMETER_INVALID = { $explanation }
# A parameter version without its instrument.
LEGAL_SOURCE_REQUIRED = indique o ato normativo que fixa o valor
# A non-business day recorded twice.
DAY_ALREADY_RECORDED = { $day } já está registrado ({ $reason })
# An ID that is neither a project's nor a carta's.
NOT_A_FINANCING_ID = { $id } não é o ID de um projeto nem de uma carta-consulta
# A rule code that is not a checklist rule of the financing's programme.
NOT_A_CHECKLIST_RULE = { $code } não é uma regra de checklist deste programa
# A date range whose start is after its end.
DATE_RANGE_INVERTED = é posterior a { $other }
# No party has the document.
PARTY_UNKNOWN = nenhuma parte com o documento { $document }
# A carta item that does not exist.
ITEM_UNKNOWN = não há item de carta-consulta { $id }
# A feedstock acquisition that does not exist.
ACQUISITION_UNKNOWN = não há aquisição de matéria-prima { $id }
# A contract proposal that does not exist.
PROPOSAL_UNKNOWN = não há proposta de contrato { $id }
# A chamber meeting that does not exist.
MEETING_UNKNOWN = não há reunião da câmara { $id }
# A webhook URL that is not http(s).
WEBHOOK_URL = { $value } não é um endereço http:// ou https://
# A webhook secret too short to sign with.
WEBHOOK_SECRET = o segredo tem ao menos 16 caracteres
# A programme that does not exist.
WEBHOOK_PROGRAMME = { $value } não é um programa: SOCIAL_FUEL ou FCO_RURAL
# An event no webhook hears of.
WEBHOOK_EVENT = { $value } não é um evento; os eventos são { $events }
WEBHOOK_LANG = { $value } não é um idioma dos textos enviados: escreva `pt-BR` ou `en`
# A webhook that does not exist.
WEBHOOK_UNKNOWN = não há webhook { $id }
# No credentials, or credentials that are not valid.
UNAUTHENTICATED = credenciais ausentes ou inválidas: envie uma chave de API no cabeçalho Authorization: Bearer
# The audit log's summary of the calls refused for want of a credential from one address in one window.
AUDIT_REFUSALS = { $count } chamadas recusadas sem credencial de { $from } entre { $start } e { $end } UTC
# The file store refused a file.
FILE_STORE_UNAVAILABLE = o arquivo não pôde ser guardado agora (armazenamento indisponível); nada foi registrado: envie-o de novo em alguns minutos
# A report whose raw file was purged at the end of its retention.
RAW_FILE_PURGED = o arquivo original do relatório { $id } foi descartado em { $day }, ao fim do prazo de guarda; as linhas e os erros continuam no Fomento
# A key past its requests per second.
RATE_LIMITED = limite de { $rate } requisições por segundo desta chave excedido; tente de novo em { $seconds } s
# A request that ran past the server's time limit.
REQUEST_TIMEOUT = a requisição passou do limite de { $seconds } s do servidor e foi interrompida
# The server holds as many requests as it admits at once.
OVERLOADED = o servidor está no seu limite de { $limit } requisições atendidas ao mesmo tempo; tente de novo em { $seconds } s
# The database does not answer.
DATABASE_UNAVAILABLE = o banco de dados não responde; tente de novo em instantes
# A role that may never perform an operation.
FORBIDDEN = o papel { $role } não tem permissão para a operação { $operation } (papéis: README, seção «Keys and roles»)
# An object outside the caller's scope, answered as one that does not exist.
OBJECT_UNSEEN = objeto não encontrado
# A role that sees persons' CPFs and names masked may not look them up, filter or search by them.
PERSONAL_LOOKUP_FORBIDDEN = o papel { $role } vê CPFs e nomes de pessoas mascarados (LGPD) e não pode procurar nem filtrar por CPF ({ $field })
# A role that does not exist.
ROLE_UNKNOWN = não há papel { $role }; os papéis são «bank», «mda», «council», «analyst», «metrics» e «admin»
# A `bank` key without its bank.
KEY_NEEDS_BANK = uma chave do papel «bank» precisa do código do seu banco (`--bank`)
# An act dated after today.
DATE_IN_FUTURE = { $event } em { $date } é depois de hoje ({ $today }, em Brasília): um ato se registra depois de acontecer
# A fact said to take effect after today.
EFFECTIVE_IN_FUTURE = { $date } é depois de hoje ({ $today }, em Brasília): um fato se registra depois de acontecer
# A fact said to take effect before what it depends on.
EFFECTIVE_TOO_EARLY = { $date } é antes de { $since }, o dia desde o qual vale o que este fato altera ou encerra
# `knownAt` before the financing was recorded.
NOT_YET_RECORDED = em { $at } este registro ainda não existia no Fomento: não há o que ele sabia então
# `asOf` after the day of `knownAt`.
AS_OF_AFTER_KNOWN_AT = asOf { $asOf } é depois do dia de knownAt ({ $day }, em Brasília): o registro de um instante responde pelo seu dia ou antes
# A financing of nothing.
AMOUNT_NOT_POSITIVE = o valor precisa ser maior que R$ 0,00
# A key's own rate outside 1..=1,000,000 requests per second.
KEY_RATE_OUT_OF_RANGE = a taxa de uma chave vai de 1 a 1.000.000 requisições por segundo; recebida { $rate }
# An API key that does not exist.
KEY_UNKNOWN = não há chave de API { $id }
# A state-changing request signed in by a browser's cookie that did not come from Fomento's own pages.
CROSS_SITE_REQUEST = requisição recusada: veio de outro site ({ $origin }) com o cookie de sessão deste; use as páginas do Fomento ou envie a chave no cabeçalho Authorization
# A subscription whose key was revoked, or whose token expired, while it was open.
CREDENTIAL_ENDED = a chave desta assinatura foi revogada, ou o seu token expirou: a assinatura terminou
# A compliance flag that does not exist.
FLAG_UNKNOWN = não há alerta de conformidade { $id }
# A compliance flag already resolved.
FLAG_ALREADY_RESOLVED = o alerta { $id } já foi resolvido por { $by }
CARTA_ALREADY_SUBMITTED = a carta { $number } já foi submetida (está na etapa { $stage }): uma carta é submetida uma vez; uma com parecer desfavorável volta reformulada como nova carta (draftFcoCartaResubmission)
ENUM_AS_STRING = { $arg }: "{ $value }" está entre aspas, como texto; um valor de { $enum } se escreve sem aspas na consulta: { $value } (em variáveis JSON, como texto)
# An economic group that does not exist.
GROUP_UNKNOWN = não há grupo econômico { $id }
# A version of a fact that was already corrected or removed.
VERSION_SUPERSEDED = a versão { $id } já foi corrigida ou removida; altere a versão em vigor
# A count or number below zero.
NUMBER_NEGATIVE = não pode ser negativo
# A term that is not a positive number of months.
TERM_INVALID = o prazo é um número positivo de meses
# An animal item without its head count.
HEAD_COUNT_REQUIRED = um item de animais informa o número de cabeças
# A head count on an item that is not animals.
HEAD_COUNT_NOT_ANIMAL = só itens de animais têm número de cabeças
# A year of manufacture out of range.
MANUFACTURE_YEAR_INVALID = { $value } não é um ano de fabricação
# A pedigree registration not among the three the instruction names.
REGISTRATION_INVALID = { $value }: escreva PO_RGD, PO, LA ou CEIP
# An item without its quantity.
QUANTITY_REQUIRED = informe a quantidade
# An acquisition year out of range.
ACQUISITION_YEAR_INVALID = { $value } não é um ano de aquisição (de 2005 a { $last })
# A productivity coefficient without its source.
COEFFICIENT_SOURCE_REQUIRED = um coeficiente de produtividade informa quem o publicou (art. 4)
# A perennial contract with only one of its area and coefficient.
PERENNIAL_INCOMPLETE = um contrato de cultura perene informa a área e o coeficiente de produtividade (art. 4)
# A bank listed both present and absent.
ATTENDANCE_BOTH = o banco { $bank } aparece como presente e ausente
# A result sent before the meeting started.
RESULT_BEFORE_MEETING = o resultado não pode ser enviado antes do início da reunião
# An opinion recorded as given before the meeting started.
OPINION_BEFORE_MEETING = o parecer da CPACR é dado na reunião, não antes do seu início
# A result report sent before the opinion it reports.
RESULT_BEFORE_OPINION = o resultado não pode ser enviado antes do parecer da CPACR ({ $opinion })
# A group kind the instruction does not name.
GROUP_KIND_INVALID = { $value }: escreva GROUP, COOPERATIVE ou ASSOCIATION
# A party that belongs to another group.
GROUP_MEMBER_ELSEWHERE = { $document } já pertence a { $group }; retire-o de lá primeiro
# A party that is not a member of the group.
GROUP_NOT_MEMBER = { $document } não é membro de { $group }
# A bank code with characters other than letters, digits and `_`.
BANK_CODE_INVALID = { $value }: o código do banco tem letras, dígitos e _
# A bank code already registered.
BANK_CODE_TAKEN = já há um banco com o código { $code }
# A search too short to be useful.
SEARCH_TOO_SHORT = escreva ao menos 2 letras do nome
# A search longer than any name it could find.
SEARCH_TOO_LONG = a busca tem { $length } caracteres; o máximo é { $max }
# A 60-day report of a bank other than Banco do Brasil.
BANK_NOT_BB = só o Banco do Brasil envia o relatório de 60 dias; { $code } não
# A confirmation without who confirms.
CONFIRMED_BY_REQUIRED = diga quem confirma
# An import kind Fomento does not know.
IMPORT_KIND_UNKNOWN = { $value }: os tipos de importação são { $kinds }
# An import without the thing it is for.
IMPORT_TARGET_REQUIRED = uma importação de { $kind } é para { $what }: informe-o
# A target that is neither a number nor a global ID of the kind's target.
IMPORT_TARGET_INVALID = { $value } não é o número nem o ID global de um(a) { $what }
# An acquisitions import without its year.
IMPORT_YEAR_REQUIRED = uma importação de aquisições é de um ano: informe o ano
# An import that does not exist.
IMPORT_UNKNOWN = não há importação { $id }
# The same bytes as a failed import: queued again.
IMPORT_REQUEUED = este arquivo já havia sido enviado e seu processamento falhou; ele foi colocado de novo na fila para uma nova tentativa
# An import that failed on Fomento's side.
IMPORT_FAILED = Não foi possível processar a importação { $id } por um erro do lado do Fomento, depois de { $attempts } tentativa(s); nada foi aplicado e o arquivo está guardado. Envie o mesmo arquivo de novo para uma nova tentativa.
# A rule that refuses a row.
RULE_REFUSED = { $code }: { $explanation } ({ $basis })
# A value outside a closed list.
VALUE_NOT_IN_LIST = { $value } não é um dos valores aceitos: { $values }
# A required cell left empty.
CELL_MISSING = está faltando
# A cell that is not a number.
NUMBER_INVALID = não é um número: escreva 1.234,5 ou 1234.5
# A cell that is not a whole number.
INTEGER_INVALID = não é um número inteiro
# A cell that is not a time of day.
TIME_INVALID = não é uma hora: escreva hh:mm
# The same criterion twice in one evaluation report.
CRITERION_REPEATED = o critério { $value } aparece duas vezes
# A row whose year differs from the import's.
IMPORT_YEAR_MISMATCH = o ano { $value } difere do ano desta importação, { $year }
# A carta named by bank and number that Fomento does not know.
CARTA_UNKNOWN_BY_NUMBER = não há carta-consulta { $number } do banco { $bank }
# The same carta twice in one agenda file.
CARTA_REPEATED_IN_FILE = a carta-consulta { $number } do banco { $bank } já aparece na linha { $row }
# An export no one has.
EXPORT_UNKNOWN = não há a exportação { $name }; as exportações são { $names }
# A file asked for in a format exports are not made in.
EXPORT_FORMAT = { $file }: peça NOME.csv ou NOME.xlsx
# A query-string parameter the address does not take.
PARAMETER_UNKNOWN = parâmetro desconhecido { $name }; os parâmetros são { $names }
# A query-string parameter given twice.
PARAMETER_REPEATED = o parâmetro { $name } aparece mais de uma vez
# A parameter only the dashboard's tables take, given to a list.
PARAMETER_TABLES_ONLY = { $name } vale só para as tabelas do painel (dashboard-…); as listas são como estão agora
# A parameter value not among those allowed.
PARAMETER_CHOICE = { $value } não é aceito; escreva { $choices }
# A day written as a date that does not exist.
DAY_DOES_NOT_EXIST = { $value }: esse dia não existe no calendário
# Text that is not a day.
DAY_FORMAT = { $value } não é uma data: escreva AAAA-MM-DD
# An export filter that is not JSON.
FILTER_NOT_JSON = o filtro não é JSON (linha { $line }, coluna { $column })
# An export filter with a field its type does not have.
FILTER_UNKNOWN_FIELD = o filtro não tem o campo { $name }; os campos são { $names }
# A rule code no rule has.
FILTER_UNKNOWN_RULE = nenhuma regra tem o código { $value }
# An export filter the graph refuses.
FILTER_INVALID = filtro inválido: { $detail }
# Uma tabela do painel que não existe.
TABLE_UNKNOWN = nenhuma tabela do painel se chama { $value }; as tabelas são { $names }
# Mudanças de alertas feitas por um comando no SQLite, que os assinantes de um servidor em execução não recebem.
FLAGS_NOT_ANNOUNCED = aviso: { $count } mudanças de alertas foram registradas, mas no SQLite os assinantes de `flagRaised` de um servidor em execução não são avisados das mudanças feitas por outro processo; eles as veem na próxima consulta (ou rode o job no servidor: o PostgreSQL as anuncia a todos os servidores)
# Uma requisição GraphQL em lote, que o servidor não aceita.
BATCH_NOT_SUPPORTED = requisições em lote não são aceitas (o corpo é uma lista de { $count } operações): envie uma operação por requisição (Apollo Client: HttpLink, não BatchHttpLink)
# An internal error answered to a bank.
INTERNAL = erro interno; o pedido foi registrado
# An argument that is no global ID (of the kind expected).
ID_INVALID = { $arg }: { $id } não é um ID { $kind ->
    [any] válido
    [Bank] de banco
    [Party] de parte
    [EconomicGroup] de grupo econômico
    [Municipality] de município
    [SocialFuelProject] de projeto do Selo Combustível Social
    [FcoCarta] de carta-consulta do FCO
    [BankReport] de relatório de banco
    [ChamberMeeting] de reunião da câmara
    [FactImport] de importação de fatos
    [ComplianceFlag] de alerta de conformidade
    [CartaItem] de item de carta-consulta
    [FeedstockAcquisition] de aquisição de matéria-prima
    [ContractProposal] de proposta de contrato
   *[other] válido
}
# A well-formed global ID no object has.
ID_UNKNOWN = não há { $kind ->
    [Bank] banco
    [Party] parte
    [EconomicGroup] grupo econômico
    [Municipality] município
    [SocialFuelProject] projeto do Selo Combustível Social
    [FcoCarta] carta-consulta do FCO
    [BankReport] relatório de banco
    [ChamberMeeting] reunião da câmara
    [FactImport] importação de fatos
    [ComplianceFlag] alerta de conformidade
    [CartaItem] item de carta-consulta
    [FeedstockAcquisition] aquisição de matéria-prima
    [ContractProposal] proposta de contrato
   *[other] objeto
} com o ID { $id }
# An IBGE code no municipality has, asked by the graph.
MUNICIPALITY_NOT_FOUND = nenhum município tem o código IBGE { $code }
# A configuration file that cannot be read or is not TOML.
CONFIG_UNREADABLE = o arquivo de configuração { $file } não pôde ser lido: { $reason }
# A key of the configuration file that names no setting.
CONFIG_UNKNOWN_KEY = o arquivo de configuração { $file } tem a chave «{ $key }», que não é uma configuração do Fomento; as chaves são os nomes longos das opções, sem «--» (`fomento --help`)
# A value of the configuration file that its setting does not take.
CONFIG_BAD_VALUE = o arquivo de configuração { $file } dá à chave «{ $key }» um valor que ela não aceita ({ $value }): { $reason }
# A value of the configuration file of the wrong kind (a list for one value, text for a switch).
CONFIG_WRONG_KIND = o arquivo de configuração { $file } dá à chave «{ $key }» o valor { $value }, mas ela pede { $expected ->
    [switch] true ou false
    [one] um valor só, não uma lista
    [list] uma lista de textos ou números
   *[scalar] um texto ou um número
}

# Recusas das guardas da lei em cada ato (issue 42).
# As justificativas fora da audiência de não conformidade.
REFUSE_JUSTIFICATIONS_STAGE = as justificativas e contestações da empresa respondem a uma não conformidade apontada pela avaliação (art. 11 II); este projeto está «{ $stage }» ({ $stage_code })
# A notificação do MDA ao banco fora de um desenquadramento ou de um selo não pedido.
REFUSE_BANK_NOTICE_STAGE = o MDA notifica o banco de um desenquadramento (art. 11 II) ou de um selo não pedido a tempo (art. 11 §1); este projeto está «{ $stage }» ({ $stage_code })
# A atualização pública fora de um desenquadramento.
REFUSE_PUBLIC_UPDATE_STAGE = o MDA atualiza sua base de dados pública com um desenquadramento (art. 11 II); este projeto está «{ $stage }» ({ $stage_code })
# O aceite de um atraso pelo MDA sem o do banco.
REFUSE_DELAY_BANK_FIRST = o MDA aceita um atraso do cronograma de implantação somente se o banco o aceitou (art. 10 § 2º, "somente serão aceitos pelo MDA se o forem pelo agente financeiro"): registre antes o aceite do banco (`recordScheduleDelayBankAcceptance`)
# O dia do aceite de um atraso sem o aceite.
REFUSE_DELAY_DAY_WITHOUT_ACCEPTANCE = `delayAcceptedOn` data o aceite de um atraso pelo MDA (art. 10 § 2º): informe-o com `delayAccepted: true`
# O cronograma apresentado antes da aprovação do financiamento.
REFUSE_SCHEDULE_BEFORE_APPROVAL = a empresa apresenta seu cronograma físico-financeiro depois que o banco aprovou o financiamento (art. 10, caput); nenhuma aprovação está registrada
# O aceite de um atraso pelo banco sem cronograma.
REFUSE_DELAY_WITHOUT_SCHEDULE = um atraso é do cronograma de implantação (art. 10 § 2º); nenhum fim de cronograma está registrado
# Um contrato condicionado ao que ainda falta à carta.
# Os limites de uma consulta.
QUERY_TOO_LARGE = a consulta tem { $bytes } bytes, acima do limite de { $max }
QUERY_TOO_COSTLY = a consulta custaria { $cost } (cada campo 1, vezes os tamanhos de página que pede), acima do limite de { $max }: peça menos aliases, páginas menores ou menos campos
QUERY_TOO_MANY_SELECTIONS = a consulta equivale a { $selections } seleções depois de expandidos seus fragmentos, acima do limite de { $max }: expanda menos fragmentos
QUERY_TOO_DEEP = a consulta aninha campos e fragmentos em mais de { $max } níveis
REFUSE_CONTRACT_CONDITIONS = o contrato em { DATE($on) } está condicionado ao que ainda falta à carta nesse dia: { $listed }
# Uma reapresentação sem itens.
REFUSE_RESUBMIT_NO_ITEMS = não reformulada: a carta não lista itens, e a carta { $number }, que teve parecer desfavorável, listava { $count ->
    [one] um item
   *[other] { $count } itens
}; uma reapresentação expõe o seu projeto (art. 3º, parágrafo único)
# Uma reapresentação igual à original.
REFUSE_RESUBMIT_UNCHANGED = não reformulada: o mesmo valor, prazo, carência, linha, atividade, fatos declarados e itens da carta { $number }, que teve parecer desfavorável (o art. 3º, parágrafo único, permite reapresentá-la uma vez reformulada)
# A decisão da câmara sobre a carta de um banco ausente.
REFUSE_BANK_ABSENT = o banco da carta foi registrado ausente da reunião da câmara de { DATE($day) }: suas propostas não são apreciadas (art. 2 §6); inclua a carta na pauta de outra reunião
# A decisão da câmara datada fora do dia da reunião.
REFUSE_DECISION_AT_MEETING = a carta está na pauta da reunião da câmara de { DATE($day) }: a CPACR dá seu parecer nessa reunião (art. 2 §§3, 6–7), então a decisão é datada de { DATE($day) }, não de { DATE($on) }
# A reapresentação de uma carta sem parecer desfavorável.
REFUSE_RESUBMIT_STAGE = só uma carta com parecer desfavorável pode ser reapresentada; esta está «{ $stage }» ({ $stage_code })
# Uma segunda reapresentação.
REFUSE_RESUBMIT_AGAIN = a carta { $number } já foi reapresentada como carta { $again }: reformule essa
# A alteração de uma carta nem aprovada nem contratada.
REFUSE_AMEND_STAGE = só cartas aprovadas ou contratadas são alteradas; esta está «{ $stage }» ({ $stage_code })
# Uma alteração datada antes do ato que altera.
REFUSE_AMEND_BEFORE = uma alteração em { DATE($on) } é anterior { $act ->
    [approval] à aprovação
    [presentation] à apresentação do projeto
   *[contract] ao contrato
} da carta que ela altera ({ DATE($day) })
# Uma correção dos fatos declarados que a etapa não permite.
REFUSE_STATEMENT = os fatos declarados de uma carta «{ $stage }» ({ $stage_code }) não são corrigidos: { $why ->
    [contracted] um financiamento contratado muda por alteração (art. 15, `amendFcoCarta`)
    [unfavourable] uma carta desfavorável é reformulada como uma nova (art. 3º, parágrafo único, `resubmitFcoCarta`)
    [expired] sua aprovação caducou sem apresentação do projeto (art. 3º, parágrafo único); não há contrato a condicionar
   *[special-demand] ser ou não demanda especial decide quem a analisa (art. 14 e art. 2 §3), então só se corrige antes da submissão
}
# Achados registrados fora da avaliação externa.
REFUSE_FINDINGS_STAGE = os achados são registrados enquanto corre a avaliação externa; este projeto está «{ $stage }» ({ $stage_code })
# Achados datados antes do início da avaliação.
REFUSE_FINDINGS_BEFORE_START = `input.foundOn`: achados datados de { DATE($on) } são anteriores ao início da avaliação externa ({ DATE($started) }); um achado é feito pela avaliação (art. 11)
# Conformidade concluída sobre achados de não conformidade.
REFUSE_CONFORMITY_AGAINST_FINDINGS = a avaliação apontou não conformidade em { $criteria }: não se conclui pela conformidade (art. 11 II); registre antes os achados corrigidos, ou conclua pela não conformidade
# Conformidade concluída sem achados.
REFUSE_CONFORMITY_WITHOUT_FINDINGS = a conformidade é apurada pela avaliação externa (art. 11 I), e ela não registrou achado sobre { $criteria }: registre antes os achados (`recordEvaluationFindings`)
# Uma conclusão datada antes dos achados que ela lê.
REFUSE_CONCLUSION_BEFORE_FINDINGS = uma conclusão em { DATE($on) } é anterior aos achados que ela lê (feitos em { DATE($last) })
# Uma carta não submetida posta na pauta.
REFUSE_AGENDA_STAGE = só uma carta submetida entra na pauta da câmara; esta está «{ $stage }» ({ $stage_code })
# Uma carta abaixo do limite posta na pauta.
REFUSE_AGENDA_BELOW_THRESHOLD = { MONEY($amount) } é inferior ao limite de { MONEY($threshold) }: o banco a decide, não a câmara (salvo demanda especial, art. 14)

# As mensagens do próprio async-graphql (api/src/graphql/localise.rs reconhece suas formas); os nomes vêm entre aspas, como escritos.
GRAPHQL_UNKNOWN_FIELD = campo desconhecido "{ $field }" no tipo "{ $type }".{ $hint }
GRAPHQL_UNKNOWN_ARGUMENT = argumento desconhecido "{ $argument }" no campo "{ $field }" do tipo "{ $type }".{ $hint }
GRAPHQL_INVALID_ARGUMENT = valor inválido para o argumento "{ $argument }": { $reason }
GRAPHQL_FAILED_TO_PARSE = não foi possível ler "{ $type }": { $reason }
GRAPHQL_ARGUMENT_REQUIRED = o argumento "{ $argument }" do campo "{ $field }", do tipo "{ $type }", é obrigatório e não foi informado
GRAPHQL_NO_SUBFIELDS = o campo "{ $field }" não admite seleção: o tipo "{ $type }" não tem subcampos
GRAPHQL_NEEDS_SUBFIELDS = o campo "{ $field }", do tipo "{ $type }", precisa de uma seleção de subcampos
GRAPHQL_VARIABLE_NOT_DEFINED = a variável "${ $name }" não está definida
GRAPHQL_VARIABLE_NOT_DEFINED_BY = a variável "${ $name }" não está definida pela operação "{ $operation }"
GRAPHQL_VARIABLE_NOT_USED = a variável "${ $name }" não é usada
GRAPHQL_VARIABLE_NOT_USED_BY = a variável "${ $name }" não é usada pela operação "{ $operation }"
GRAPHQL_VARIABLE_POSITION = a variável "{ $name }", do tipo "{ $type }", está numa posição que espera o tipo "{ $expected }"
GRAPHQL_VARIABLE_REQUIRED = a variável "${ $name }", do tipo "{ $type }", é obrigatória
GRAPHQL_UNKNOWN_FRAGMENT = fragmento desconhecido "{ $name }"
GRAPHQL_FRAGMENT_UNUSED = o fragmento "{ $name }" nunca é usado
GRAPHQL_UNKNOWN_TYPE = tipo desconhecido "{ $name }"
GRAPHQL_UNKNOWN_DIRECTIVE = diretiva desconhecida "{ $name }"
GRAPHQL_UNKNOWN_OPERATION = nenhuma operação se chama "{ $name }"
GRAPHQL_OPERATION_NAME_REQUIRED = o documento tem várias operações: indique uma em `operationName`
GRAPHQL_EXPECTED_TYPE = o tipo esperado é "{ $type }"
GRAPHQL_ENUM_VALUE = a enumeração "{ $type }" não tem o valor "{ $value }"
GRAPHQL_INPUT_FIELD_REQUIRED = o campo "{ $field }", do tipo "{ $type }", é obrigatório e não foi informado
GRAPHQL_INPUT_FIELD_UNKNOWN = campo desconhecido "{ $field }" no tipo "{ $type }"
GRAPHQL_INTEGER_RANGE = só se aceitam inteiros de { $min } a { $max }
GRAPHQL_EXPECTED_INPUT = o tipo de entrada esperado é "{ $type }", e veio { $value }
GRAPHQL_WHILE_PARSING = { $reason } (ao ler "{ $type }")
GRAPHQL_DID_YOU_MEAN = { " " }Você quis dizer { $names }?
GRAPHQL_NOT_A_DATE = { $value } não é uma data existente na forma AAAA-MM-DD
GRAPHQL_NOT_A_DECIMAL = { $value } não é um número decimal escrito como "1234.56" (algarismos, um ponto opcional, sem espaços, separadores nem expoente)
GRAPHQL_DECIMAL_RANGE = { $value } está fora do intervalo dos decimais
GRAPHQL_NOT_A_TIMESTAMP = { $value } não é um instante RFC 3339
GRAPHQL_SYNTAX = a consulta não pode ser lida na linha { $line }, coluna { $column }: esperava-se { $expected }

## As recusas do próprio transporte HTTP do GraphQL (api/src/http/graphql.rs), antes que a requisição chegue ao esquema;
## o `extensions.code` de cada uma não muda.
GRAPHQL_NOT_ACCEPTABLE = o cabeçalho Accept não admite nem application/graphql-response+json nem application/json
GRAPHQL_MUTATION_OVER_GET = mutações não são aceitas por GET; use POST
GRAPHQL_INTROSPECTION_OFF = a introspecção (`__schema`, `__type`) está desligada neste servidor; gere os clientes a partir de schema.graphql
GRAPHQL_CONTENT_TYPE = POST /graphql recebe Content-Type: application/json, não "{ $type }"
GRAPHQL_BODY_UNREADABLE = o corpo da requisição não pôde ser lido
GRAPHQL_BODY_NOT_JSON = o corpo não é JSON (linha { $line }, coluna { $column })
GRAPHQL_BODY_NOT_OBJECT = o corpo deve ser um objeto JSON
GRAPHQL_MEMBER_TYPE = `{ $member }` deve ser { $kind ->
    [string] um texto
   *[object] um objeto JSON
}
GRAPHQL_PARAMETER_NOT_JSON = o parâmetro `{ $parameter }` não é JSON (linha { $line }, coluna { $column })
GRAPHQL_NO_QUERY = { $method ->
    [GET] GET /graphql precisa do parâmetro `query`
   *[other] a requisição não tem `query`
}
GRAPHQL_PERSISTED_VERSION = `extensions.persistedQuery.version` deve ser 1
GRAPHQL_PERSISTED_HASH_SHAPE = `extensions.persistedQuery.sha256Hash` deve ter 64 dígitos hexadecimais
GRAPHQL_PERSISTED_HASH_MISMATCH = o SHA-256 da consulta é { $digest }, não o { $hash } enviado em `extensions.persistedQuery`
GRAPHQL_MULTIPART_INVALID = não é uma requisição multipart de GraphQL: { $problem ->
    [operations] falta a parte `operations`
    [map] falta a parte `map`
    [map-invalid] a parte `map` não é um mapa válido de arquivos
    [request] a parte `operations` não é uma requisição GraphQL válida
    [files] faltam arquivos que a parte `map` cita
    [not-upload] um arquivo foi mapeado para uma variável que não é `Upload`
    [batch] requisições em lote não são aceitas
   *[other] o corpo multipart não se lê
}

## A recusa do `connection_init` de um socket de assinaturas sem chave válida (fechado com 4403).
SOCKET_UNAUTHENTICATED = UNAUTHENTICATED: envie uma chave de API no connection_init ("authorization": "Bearer …")

## O resumo de uma execução de tarefa (job_run.message_id, migração 62), escrito na leitura.
JOB_INGEST_DONE = { $processed ->
    [0] { $processed } relações processadas
    [one] { $processed } relação processada
   *[other] { $processed } relações processadas
}, { $rejected ->
    [0] { $rejected } recusadas
    [one] { $rejected } recusada
   *[other] { $rejected } recusadas
}, { $failed ->
    [0] { $failed } falharam
    [one] { $failed } falhou
   *[other] { $failed } falharam
}, { $retrying } a tentar de novo
JOB_IMPORT_DONE = { $processed ->
    [0] { $processed } importações processadas
    [one] { $processed } importação processada
   *[other] { $processed } importações processadas
}, { $rejected ->
    [0] { $rejected } recusadas
    [one] { $rejected } recusada
   *[other] { $rejected } recusadas
}, { $failed ->
    [0] { $failed } falharam
    [one] { $failed } falhou
   *[other] { $failed } falharam
}, { $retrying } a tentar de novo
JOB_EXPIRE_DONE = `expire-approvals` em { DATE($day) }: { $looked ->
    [0] { $looked } cartas aprovadas sem apresentação examinadas
    [one] { $looked } carta aprovada sem apresentação examinada
   *[other] { $looked } cartas aprovadas sem apresentação examinadas
}; { $expired ->
    [0] { $expired } expiradas
    [one] { $expired } expirada
   *[other] { $expired } expiradas
}
JOB_FLAGS_DONE = `flag-deadlines` em { DATE($day) }: { $judged ->
    [0] { $judged } julgados
    [one] { $judged } julgado
   *[other] { $judged } julgados
}; { $raised ->
    [0] { $raised } alertas abertos
    [one] { $raised } alerta aberto
   *[other] { $raised } alertas abertos
}, { $changed ->
    [0] { $changed } alterados
    [one] { $changed } alterado
   *[other] { $changed } alterados
}, { $resolved ->
    [0] { $resolved } encerrados
    [one] { $resolved } encerrado
   *[other] { $resolved } encerrados
}, { $held ->
    [0] { $held } mantidos pela decisão de uma pessoa
    [one] { $held } mantido pela decisão de uma pessoa
   *[other] { $held } mantidos pela decisão de uma pessoa
}
JOB_DASHBOARD_DONE = painel em { DATE($day) } montado: { $tables ->
    [0] { $tables } tabelas
    [one] { $tables } tabela
   *[other] { $tables } tabelas
}; { $decisions } decisões e { $evaluations } avaliações em atraso, { $expiring } aprovações a expirar
JOB_PURGE_DONE = arquivos brutos recebidos antes de { DATE($before) } apagados: { $files ->
    [0] { $files } arquivos
    [one] { $files } arquivo
   *[other] { $files } arquivos
} ({ $reports ->
    [0] { $reports } relações
    [one] { $reports } relação
   *[other] { $reports } relações
}, { $imports ->
    [0] { $imports } importações
    [one] { $imports } importação
   *[other] { $imports } importações
}); { $kept ->
    [0] { $kept } mantidos
    [one] { $kept } mantido
   *[other] { $kept } mantidos
} para um envio posterior
JOB_WEBHOOKS_DONE = { $delivered ->
    [0] { $delivered } entregas de webhook feitas
    [one] { $delivered } entrega de webhook feita
   *[other] { $delivered } entregas de webhook feitas
}, { $retrying } a tentar de novo, { $failed ->
    [0] { $failed } falharam
    [one] { $failed } falhou
   *[other] { $failed } falharam
}
