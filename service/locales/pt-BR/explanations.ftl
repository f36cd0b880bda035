# Por que uma regra decidiu como decidiu (entity::rules::Explanation): um texto por id, com seus valores.
# $what é project ou carta; $needs lista as etapas aceitas e $count quantas são.

explain-wrong-stage = { $what ->
    [carta] a carta está
   *[project] o projeto está
} «{ $stage }» ({ $stage_code }); «{ $event }» exige que { $count ->
    [one] esteja { $needs }
   *[other] esteja em uma destas etapas: { $needs }
}
explain-chamber-above = { MONEY($amount) } é igual ou superior a { MONEY($threshold) }: o parecer é da câmara CPACR, não do banco
explain-chamber-below = { MONEY($amount) } é inferior a { MONEY($threshold) }: o banco decide (salvo demanda especial, art. 14)
# Um ato datado antes do ato que ele segue; $act nomeia o anterior.
explain-not-before = { DATE($on) } é anterior { $act ->
    [filing] ao protocolo
    [mda-decision] à decisão do MDA
    [financing-approval] à aprovação do financiamento
    [industrial-start] ao início industrial
    [evaluation-start] ao início da avaliação
    [evaluation] à avaliação
    [justifications-accepted] ao acolhimento das justificativas pelo MDA
    [request] ao pedido
    [submission] à submissão
    [approval] à aprovação
    [presentation] à apresentação do projeto ao banco
   *[other] ao ato anterior
} ({ DATE($earlier) })
explain-schedule-before-approval = o fim previsto da implantação ({ DATE($end) }) é anterior à aprovação do financiamento ({ DATE($on) })
explain-extension-once = o enquadramento pode ser prorrogado uma única vez; a prorrogação foi pedida em { DATE($first) }
explain-extension-late = pedida em { DATE($on) }, depois de terminados os 12 meses desde o início industrial ({ DATE($last) })
explain-extension-not-asked = a empresa não pediu a prorrogação (art. 11 §2 I)
explain-extension-decided = o MDA já decidiu a prorrogação em { DATE($day) }
explain-extension-reason = diga por que o MDA concede ou recusa a prorrogação
explain-unframe-reason = diga por que o MDA não acolheu as justificativas
explain-accept-justifications-reason = diga por que o MDA acolhe as justificativas

## Orações e listas. $first e $then são orações escritas na mesma língua.
explain-joined = { $first } { $then }
list-and = e
explain-date = { DATE($day) }
explain-number = { $n }
explain-plain = { $text }
explain-quoted = «{ $text }»
explain-sentence = { $text }.
explain-rule-quoted = { $code } ({ $why })
explain-override-project = um ato favorável apesar de regras que o projeto viola: { $rules }; o MDA ainda pode decidir assim, dizendo por quê (`overrideReason`), e a decisão fica no histórico
explain-override-carta = uma decisão favorável apesar de regras que a carta viola: { $rules }; a câmara (ou o banco) ainda pode decidir assim, dizendo por quê (`overrideReason`), e a decisão fica no histórico
explain-ceiling-group = o grupo do tomador já tem { MONEY($others) } aprovados ou contratados: { $why }
explain-confirmed = confirmado por { $by } em { $when }
explain-confirmed-note = confirmado por { $by } em { $when }: { $note }
flag-group-ceiling = as cartas { $cartas } do grupo econômico ultrapassam o teto; { $first }: { $why }

## Como um prazo foi contado (Lei 9.784/1999, art. 66; Lei estadual nº 7.692/2002). $law, $count e $end são orações.
count-note = { $law }: { $count }{ $end }.
count-law-federal = Lei 9.784/1999, art. 66
count-law-state = Lei estadual nº 7.692/2002 (MT), art. 87, em dias corridos (prazo de validade ou de prestação de informações, não prazo processual contado em dias úteis), com o fim prorrogado como o faz a Lei 9.784/1999, art. 66 §1
count-days = { $days } dias a partir de { DATE($start) } (exclui-se o primeiro dia, inclui-se o último) terminam em { DATE($nominal) }
count-months = { $months } meses a partir de { DATE($start) }, de data a data, terminam em { DATE($nominal) }
count-months-short = { $months } meses a partir de { DATE($start) }, de data a data, terminam em { DATE($nominal) } (o mês não tem dia { $day }, então conta seu último dia, art. 66 §3)
count-business-day = , dia útil
count-business-day-open = , dia útil ({ $day }, com expediente registrado { $office ->
    [FEDERAL] nos órgãos federais
    [MATO_GROSSO] nos órgãos de Mato Grosso
   *[BANKING] nos bancos
} nesse dia)
count-moved = ; { $skipped }, então o prazo passa para o dia útil seguinte, { DATE($due) } (art. 66 §1)
count-skipped = { DATE($day) } é { $why }
count-hours-before = { $hours } horas antes de { $at }, contadas em horas: { $due }.
count-hours-after = { $hours } horas depois de { $at }, contadas em horas: { $due }.
nonbusiness-saturday = sábado
nonbusiness-sunday = domingo
nonbusiness-ponto = { $day }, ponto facultativo; sem expediente salvo registro em contrário
nonbusiness-bank-holiday = { $day }, feriado bancário
nonbusiness-early-closing = { $day }, quando o expediente se encerra antes da hora normal
nonbusiness-closure = dia sem expediente ({ $reason })
# Um dia com nome: $key é feita do seu nome em inglês ($name).
explain-holiday = { $key ->
    [new-year-s-day] Confraternização Universal
    [tiradentes] Tiradentes
    [labour-day] Dia do Trabalho
    [independence-day] Independência do Brasil
    [nossa-senhora-aparecida] Nossa Senhora Aparecida
    [all-souls-day] Finados
    [proclamation-of-the-republic] Proclamação da República
    [black-consciousness-day] Dia Nacional de Zumbi e da Consciência Negra
    [christmas] Natal
    [good-friday] Paixão de Cristo
    [carnival-monday] segunda-feira de Carnaval
    [carnival-tuesday] terça-feira de Carnaval
    [corpus-christi] Corpus Christi
    [christmas-eve] véspera de Natal
    [new-year-s-eve] véspera de Ano-Novo
   *[other] «{ $name }»
}

## Onde um prazo está. $count é como foi contado, $tail o que aconteceu; $days uma quantidade de dias.
deadline-note = { $count } { $tail }
deadline-met = Cumprido em { DATE($day) }.
deadline-done-late = Feito em { DATE($day) }, com { $days ->
    [one] { $days } dia
   *[other] { $days } dias
} de atraso.
deadline-overdue = Não feito; vencido há { $days ->
    [one] { $days } dia
   *[other] { $days } dias
} em { DATE($on) }.
deadline-pending = Ainda não feito; { $days ->
    [one] resta { $days } dia
   *[other] restam { $days } dias
} em { DATE($on) }.
instrument-not-yet = a { $name } entrou em vigor em { DATE($from) }; { DATE($day) } é anterior
instrument-revoked = a { $name } foi revogada pela { $by }; o ato que a substituiu não está modelado, então suas regras não se aplicam a um pedido de { DATE($day) }

## Combustível social (IN MDA nº 2/2005).
sf-filed-on = protocolado em { DATE($day) }: { $why }
sf-not-filed-on = não protocolado; em { DATE($day) }: { $why }
sf-not-filed = O projeto não foi protocolado.
sf-decision-by-bank = O banco analisa sob acordo de cooperação técnica: vale o seu próprio prazo de financiamento (art. 9, parágrafo único), não os 30 dias do MDA.
sf-eval-from-schedule-before-start = Contado do fim previsto da implantação, { DATE($end) }, anterior ao início industrial em { DATE($start) } (art. 11: o que ocorrer primeiro; um início tardio não move o prazo).
sf-eval-from-schedule-not-started = Contado do fim previsto da implantação, { DATE($end) }; a operação não começou.
sf-eval-from-schedule = { $why } { $note }
sf-eval-extended = { $count } Os 6 meses terminaram em { DATE($six) }; a prorrogação concedida pelo MDA em { DATE($granted) } (art. 11 §2) mantém o enquadramento até { DATE($until) }, e a avaliação é julgada por esse dia, como a SF-EXTENSION-12M.
sf-eval-not-started = A operação industrial não começou e o fim previsto da implantação não passou.
sf-seal-not-started = Ainda não há avaliação externa de conformidade.
sf-seal-by-start = { $note } Lido pelo art. 11 §1 (30 dias do início industrial em { DATE($start) }), terminaria em { DATE($due) }; a situação segue o art. 11 I, porque o pedido depende da conformidade que a avaliação constata depois.
sf-extension-refused = O MDA recusou a prorrogação em { DATE($day) }: { $reason }
sf-extension-refused-no-reason = O MDA recusou a prorrogação em { DATE($day) }: nenhum motivo registrado
sf-extension-undecided = Pedida em { DATE($day) }; o MDA não a decidiu (art. 11 §2: o enquadramento "poderá" ser mantido, então o MDA decide).
sf-extension-not-asked = Nenhuma prorrogação pedida.
sf-extension-in-hearing = Concedida durante a audiência da não conformidade (art. 11 §2, "poderá ser mantido", lido onde o enquadramento está em jogo): o enquadramento é mantido até o fim dos 12 meses, e o MDA acolhe as justificativas ou desenquadra o projeto até lá. { $note }
sf-due-after-revocation = Vence em { DATE($due) }, depois que a { $instrument } foi revogada pela { $by } (vigente até { DATE($until) }): um prazo do ato revogado que cai depois da revogação não se aplica.
sf-due-after-revocation-done = Vence em { DATE($due) }, depois que a { $instrument } foi revogada pela { $by } (vigente até { DATE($until) }): um prazo do ato revogado que cai depois da revogação não se aplica; o ato veio em { DATE($act) }.
sf-share-year = ano { $year }: { $share }
sf-share-semi-arid = { $share }; { $note }

## FCO Rural (IN CDAE/MT 2019). Valores em MONEY, dias em DATE; $activity e $line são os nomes da instrução.
fco-submitted-on = submetida em { DATE($day) }: { $why }
fco-not-submitted-on = não submetida; em { DATE($day) }: { $why }
fco-ceiling = esta carta e as cartas aprovadas e contratadas do grupo do tomador somam { MONEY($exposure) } (teto { MONEY($ceiling) })
fco-chamber-bank-alone = { MONEY($amount) } é igual ou superior a { MONEY($threshold) }, mas o banco decidiu sozinho
fco-chamber-opinion-given = { MONEY($amount) } é igual ou superior a { MONEY($threshold) }: a câmara deu seu parecer
fco-chamber-opinion-needed = { MONEY($amount) } é igual ou superior a { MONEY($threshold) }: precisa do parecer da câmara
fco-chamber-special-demand = { MONEY($amount) } é inferior a { MONEY($threshold) }, e a câmara a analisou como demanda especial (art. 14)
fco-chamber-bank-decides = { MONEY($amount) } é inferior a { MONEY($threshold) }: o banco decide
fco-attendance-present = o banco compareceu à reunião
fco-attendance-absent = o banco faltou: suas propostas não são consideradas
fco-attendance-unrecorded = presença não registrada
fco-no-meeting-outcome = nenhuma reunião da câmara
fco-weaned-none = nenhum bezerro desmamado
fco-weaned = { $heads } cabeças desmamadas no grupo do tomador (no máximo { $max })
fco-sire-ratio = { $dams } matrizes e { $sires } reprodutores: no máximo { $ratio } matrizes por reprodutor permitem { $allowed }
fco-sire-ratio-not-beef = o art. 6 I c trata de bovinocultura de corte; esta carta é de «{ $activity }»
fco-sire-ratio-no-dams = nenhuma matriz sem registro genealógico
fco-sire-ratio-counted = { $ratio } ({ $registered } reprodutor(es) registrado(s) comprado(s){ $unregistered ->
    [0] {""}
   *[other] ; { $unregistered } comprado(s) sem o registro do art. 6 I a não conta(m)
}, { $own } do próprio produtor indicado(s) no projeto)
fco-sire-ratio-counted-no-own = { $ratio } ({ $registered } reprodutor(es) registrado(s) comprado(s){ $unregistered ->
    [0] {""}
   *[other] ; { $unregistered } comprado(s) sem o registro do art. 6 I a não conta(m)
}, nenhum do próprio produtor informado)
fco-pedigree-no-sires = nenhum reprodutor comprado
fco-pedigree-met-dairy = todo reprodutor comprado é PO, LA ou CEIP (leite: art. 7 I a)
fco-pedigree-met-beef = todo reprodutor comprado tem registro PO/RGD, LA ou CEIP (art. 6 I a)
fco-pedigree-unregistered-dairy = reprodutores sem o registro que o art. 7 I a exige (PO, LA ou CEIP): { $sires }
fco-pedigree-unregistered-beef = reprodutores sem o registro que o art. 6 I a exige (PO com RGD, LA ou CEIP): { $sires }
fco-boar-none = nenhum cachaço
fco-boar-ratio = { $boars } cachaço(s) para { $sows } matrizes: { $how ->
    [ai] a inseminação artificial
   *[natural] a monta natural
} permite no máximo 1 cachaço por { $ratio } matrizes, logo no máximo { $allowed } cachaço(s)
fco-boar-not-pronaf = o art. 8 §5 limita os cachaços que agricultores familiares (Pronaf) compram coletivamente; esta carta é da linha «{ $line }»
fco-boar-family = (art. 8 §5: os cachaços de um agricultor familiar, comprados coletivamente ou não, obedecem ao limite)
fco-boar-natural-read = (a carta não informa inseminação artificial: considera-se monta natural)
fco-sow-age-within = uma matriz nascida em { DATE($born) } tem { $min } meses em { DATE($youngest) } e { $max } meses em { DATE($oldest) }; em { DATE($on) } está dentro da faixa
fco-sow-age-outside = uma matriz nascida em { DATE($born) } tem { $min } meses em { DATE($youngest) } e { $max } meses em { DATE($oldest) }; em { DATE($on) } está fora da faixa
fco-sow-ages-unstated = { $terms }; { $count } item(ns) de matrizes sem idade: o art. 8 §3 III exige matrizes de { $min } a { $max } meses
fco-sow-ages-outside = { $terms }; matrizes com { $ages } meses estão fora da faixa de { $min } a { $max }
fco-not-sow-retention = não é carta de retenção de matrizes suínas
fco-term-not-stated = prazo ou carência não informados
fco-term = prazo de { $term } meses (no máximo { $max_term }) incluindo carência de { $grace } meses (no máximo { $max_grace })
fco-pantanal-dams = { $dams } matrizes para o produtor
fco-pantanal-dams-others = { $producer } matrizes para o produtor ({ $dams } nesta carta, { $others } em suas outras cartas do Pantanal)
fco-pantanal-met = { $terms }; { $counted }, no máximo { $max } por produtor
fco-pantanal-over = { $counted }: mais de { $max } por produtor (art. 9)
fco-not-pantanal = não é carta de retenção de matrizes no Pantanal
fco-machine-none = nenhuma máquina usada
fco-machine-year-missing = o ano de fabricação não foi informado (o art. 11 condiciona o financiamento a ele)
fco-machine-year-invalid = { $year } não é um ano de fabricação
fco-machine-age = fabricada em { $year }, com uso contado desde { DATE($start) } (só o ano é informado): em { DATE($on) } tem { $months } mês(es) de uso, no máximo { $max } (até { DATE($limit) })
fco-operating-not = não é custeio isolado
fco-operating-allowed = custeio isolado para «{ $activity }», que o permite
fco-operating-refused = custeio isolado para «{ $activity }»; só piscicultura, retenção de matrizes suínas e bezerros desmamados o permitem
fco-classify-item = «{ $item }» está como «{ $class }», deveria ser «{ $expected }»
fco-classify-met = { $count } item(ns) classificado(s)
fco-classify-wrong = { $items }

## Prazos do FCO.
fco-validity-bank-approval = Aprovada pelo banco abaixo do limite da câmara (art. 2 §3): o texto não dá à aprovação do banco um prazo próprio; lida como a do CDAE, seus 120 dias contam da aprovação pelo banco.
fco-validity-not-approved = A carta não está aprovada.
fco-validity-presented = O projeto foi apresentado ao banco, o ato que o art. 3, parágrafo único, pede.
fco-validity-contracted-within = Contratada em { DATE($day) }, dentro dos 120 dias: o projeto foi apresentado ao banco até então.
fco-validity-contracted-after = Contratada em { DATE($day) }, depois dos 120 dias; o art. 3, parágrafo único, pergunta quando o projeto foi apresentado ao banco, o que não está registrado (`presentFcoProject`, ou a coluna "Data de Apresentação do Projeto" da lista).
fco-bb-from-last = Desde o último relatório de 60 dias, recebido em { DATE($day) }: { $note }
fco-bb-none-since = Nenhum relatório de 60 dias recebido desde que a instrução entrou em vigor em { DATE($since) } (as listas mensais do art. 2 §5 são outro relatório): o primeiro vencia 60 dias depois. { $note }
fco-bb-no-report = Nenhum relatório recebido ainda.
fco-monthly-list-due = a lista de { $month } vence no fim do mês seguinte, { DATE($end) } (a instrução não fixa dia; leitura do Fomento)
fco-monthly-list-due-moved = a lista de { $month } vence no fim do mês seguinte, { DATE($end) } (a instrução não fixa dia; leitura do Fomento), prorrogada para o dia útil seguinte, { DATE($due) }
fco-monthly-list-note = { $law }; { $note }

# A lista mensal de um banco (entity/src/rules/fco/listed.rs, service/src/ceiling.rs): o que se achou nas suas linhas, guardado como alertas.
report-flag-outside-year = linha { $row }: { $what ->
        [approved] aprovada
       *[contracted] contratada
    } em { DATE($on) }, fora do ano declarado até { DATE($end) } ({ $month })
report-flag-presented-late = linha { $row }: o projeto foi apresentado ao banco em { DATE($on) }, depois que a aprovação expirou em { DATE($due) } ({ $note })
report-flag-contracted-late = linha { $row }: contratada em { DATE($on) }, depois do fim dos 120 dias em { DATE($due) } ({ $note }), e a linha não diz quando o projeto foi apresentado ao banco (coluna "{ $column }")
report-flag-chamber-never = linha { $row }: { MONEY($amount) } é igual ou superior a { MONEY($threshold) }, mas a carta nunca foi submetida à câmara CPACR
report-flag-chamber-unfavourable = linha { $row }: { MONEY($amount) } é igual ou superior a { MONEY($threshold) } sem parecer favorável da câmara
report-flag-duplicate = a carta { $carta } aparece nas linhas { $first } e { $second } do relatório { $report }; vale a linha { $applied }
report-flag-ceiling = o grupo do tomador soma { MONEY($total) } aprovados e contratados, acima do teto de { MONEY($ceiling) }

# Por que a passagem dos alertas encerrou um alerta (service/src/deadline_flags/write.rs `settle`).
flag-resolved-said = deixou de valer em { DATE($on) }: { $said }
flag-resolved-gone = deixou de valer em { DATE($on) }: seu objeto não tem mais este prazo ou regra

fco-no-meeting = Nenhuma reunião da câmara designada.
fco-72h-received = { $note } Recebida pela SEDEC em { $at }.
fco-result-from-opinion = Desde o parecer da CPACR: { $note }
fco-result-from-opinion-ref = Desde o parecer da CPACR ({ $reference }): { $note }
fco-result-from-meeting = Desde o início da reunião (nenhum parecer registrado): { $note }
fco-result-sent = { $note } Resultado enviado em { $at }.
fco-result-no-meeting = A câmara decidiu, mas nenhuma reunião da câmara está registrada para esta carta: as 72 horas contam da reunião (art. 3); inclua a carta na pauta da sua reunião.
fco-result-no-meeting-on = A câmara decidiu em { DATE($day) }, mas nenhuma reunião da câmara está registrada para esta carta: as 72 horas contam da reunião (art. 3); inclua a carta na pauta da sua reunião.
fco-result-bank-decided = Decidida pelo banco (abaixo do limite da câmara): não há resultado da câmara a enviar.
fco-result-undecided = Na pauta de uma reunião da câmara; a câmara ainda não decidiu.
fco-result-undecided-no-meeting = Ainda não decidida; nenhuma reunião da câmara designada.

## Itens de checklist do FCO, condições do contrato e os artigos sobre os fatos da própria carta. $basis é uma base
## legal, escrita por LEGAL para o idioma; $what e $concerns são orações (os textos fco-what-* e fco-concerns-*).
fco-checklist-pending = item de checklist, ainda não confirmado: { $what }
fco-checklist-not-applies = não se aplica a esta carta ({ $activity }, { $line }): { LEGAL($basis) } abrange { $concerns }
fco-what-any = um documento ou uma verificação humana
fco-what-seed-origin = comprovação da origem das sementes ou mudas antes da liberação dos recursos
fco-what-gta = a guia de trânsito animal (GTA) e o cadastro no INDEA/MT antes da liberação dos recursos para animais
fco-what-gta-swine = o cadastro da propriedade no INDEA/MT antes da contratação do projeto (art. 8 §2), e a guia de trânsito animal (GTA) comprovando a sanidade e a existência dos animais comprados
fco-what-gta-dairy = o cadastro no INDEA/MT e a guia de trânsito animal (GTA) antes da liberação dos recursos (art. 7 §2)
fco-what-gta-beef = a guia de trânsito animal (GTA) comprovando a sanidade e a existência dos animais antes da liberação dos recursos (art. 6 §3)
fco-what-professional = um profissional habilitado indicado na carta, se ela financia transferência de embriões ou IATF
fco-what-swine-origin = nenhum suíno de leilões, feiras ou exposições; reprodutores de granjas certificadas GRSC
fco-what-green = licença ambiental, plano de manejo aprovado e diretrizes validadas
fco-what-seed-mapa = fornecedores de sementes e mudas registrados no MAPA, com o termo de conformidade das sementes na liberação
fco-what-swine-eligible = o tomador é produtor rural ou sua cooperativa, ou produtor do Pronaf dentro do seu enquadramento
fco-what-swine-family = a viabilidade técnica e econômica do projeto da agricultura familiar e sua assistência técnica qualificada (responsável pela biosseguridade das granjas)
fco-what-swine-report = o laudo técnico do autor do projeto sobre a infraestrutura das granjas antes da compra dos animais, ou o orçamento do projeto para reformá-la, recuperá-la ou construí-la
fco-what-pantanal-plain = a propriedade fica na planície pantaneira
fco-what-small-animals = viabilidade técnica e econômica, assistência técnica qualificada e cadastro no INDEA/MT antes da contratação
fco-concerns-any = toda carta
fco-concerns-perennial-forestry = culturas perenes e silvicultura
fco-concerns-cattle-swine = bovinos e suínos comprados com o financiamento
fco-concerns-embryo = transferência de embriões e IATF na bovinocultura de corte e de leite
fco-concerns-swine = suínos
fco-concerns-verde = a linha FCO Verde
fco-concerns-forestry = silvicultura
fco-concerns-sow-retention = a linha de retenção de matrizes suínas
fco-concerns-swine-family = projetos de suinocultura da agricultura familiar (Pronaf)
fco-concerns-pantanal = a linha de retenção de matrizes no Pantanal
fco-concerns-small-animals = ovinos, caprinos, crocodilianos, avestruzes e outros pequenos animais
fco-condition-ia = a informação sobre inseminação artificial na carta (artificialInsemination)
fco-condition-indea-swine = o cadastro da propriedade no INDEA/MT (o item de checklist FCO-GTA, confirmado)
fco-condition-indea-small = o cadastro no INDEA/MT (o item de checklist FCO-SMALL-ANIMALS, confirmado)
# Uma condição não atendida de um contrato recusado: $code é a regra, $basis seu artigo, $what uma oração.
fco-condition-unmet = { $code } ({ LEGAL($basis) }): { $what }
fco-contracted-without = contratada em { DATE($day) } sem { $what }: o contrato está condicionado a isso ({ LEGAL($basis) }, "fica condicionada")
fco-template-early = apresentada em { DATE($day) }, dentro dos { $days } dias após a publicação da instrução em { DATE($published) } (até { DATE($until) }): o modelo ainda não era o único que os bancos podiam acolher (art. 2 §2)
fco-template-pending = item de checklist, ainda não confirmado: a carta está no modelo; os bancos só o acolhem a partir de { DATE($from) }, { $days } dias após a publicação em { DATE($published) } (art. 2 §2)
fco-ia-none = nenhum melhoramento genético de bovinos de corte ou de leite nesta carta
fco-ia-stated = a carta informa a inseminação: { $how ->
    [ai] inseminação artificial
   *[natural] monta natural
}
fco-ia-unstated = o melhoramento genético só é contratado quando a carta informa a inseminação artificial (artificialInsemination)
fco-special-none = não apresentada como demanda especial
fco-special-chamber = uma demanda especial que a CPACR/CDAE analisou, excepcionalmente, qualquer que seja o valor
fco-special-bank = uma demanda especial decidida pelo banco: o art. 14 atribui as demandas especiais à CPACR e ao CDAE
fco-special-pending = uma demanda especial: a CPACR/CDAE a analisa, excepcionalmente, qualquer que seja o valor
fco-pasture-pending = item de checklist, ainda não confirmado: a análise de solo em que se baseia a correção de acidez e fósforo da pastagem
fco-pasture-none = nenhuma formação, renovação ou recuperação de pastagem entre os itens
fco-global-pending = item de checklist, ainda não confirmado: os { MONEY($exposure) } do grupo excedem o teto; a carta só se sustenta dentro de uma exceção listada em "assistência global permitida no fundo" na programação do FCO vigente (indique-a ao confirmar)
fco-global-within = o grupo está dentro do teto: nenhuma exceção é necessária
fco-predominance-no-values = ainda sem itens com valores
fco-predominance-investment = crédito de investimento (art. 17 I): os investimentos fixos e semifixos são { MONEY($invest) } de { MONEY($total) } ({ PERCENT($share) }), o resto custeio
fco-predominance-operating = crédito de custeio: os investimentos fixos e semifixos são { MONEY($invest) } de { MONEY($total) } ({ PERCENT($share) }), não a maior parte do orçamento, então o art. 17 I não o classifica como crédito de investimento; o artigo define a classe e nada recusa (o custeio isolado é julgado pela FCO-OPERATING-ONLY, art. 16)

## FCO-RESUBMIT (art. 3, parágrafo único). $what lista os textos fco-resubmit-field.
fco-resubmit-reformulated = reformula uma carta com parecer desfavorável
fco-resubmit-changed = reformula uma carta com parecer desfavorável: mudou { $what }
fco-resubmit-field = { $field ->
    [value] o valor
    [term] o prazo
    [grace] a carência
    [line] a linha
    [activity] a atividade
    [municipality] o município
    [special-demand] a demanda especial
    [existing-sires] os reprodutores existentes
    [artificial-insemination] a inseminação artificial
    [professional] o profissional
   *[items] os itens
}
fco-resubmit-no-items = não lista itens, e a carta que reapresenta listava { $count }: uma reapresentação que não descreve projeto algum não está reformulada (art. 3, parágrafo único)
fco-resubmit-unchanged = não reformulada: o mesmo valor, prazo, carência, linha, atividade, fatos informados e itens da carta que reapresenta, que teve parecer desfavorável (art. 3, parágrafo único)
fco-resubmit-not-unfavourable = reapresenta uma carta que não teve parecer desfavorável (ela está «{ $stage }»)
fco-resubmit-not-unfavourable-unknown = reapresenta uma carta que não teve parecer desfavorável (situação desconhecida)
fco-resubmit-none = não é uma reapresentação

## FCO-AMENDMENT (art. 15). Valores MONEY, percentuais PERCENT; $since, $over_ceiling e $crosses são yes ou no;
## $what é uma oração fco-amend-what, $letter a alínea do artigo.
fco-amend-what = { $kind ->
    [swap] a troca por item afim
    [municipality] a mudança de município
   *[size] a mudança de porte do produtor
}
fco-amend-along-exempt = { $what } dispensa nova aprovação (art. 15 { $letter })
fco-amend-along-reduction = { $what } com redução de { MONEY($old) } para { MONEY($new) } dispensa nova aprovação (art. 15 b e { $letter })
fco-amend-along-increase = { $what } que aumenta o valor é um aumento (art. 15 a e { $letter }): { $why }
fco-amend-values-unstated = valor antigo ou novo não informado
fco-amend-not-increase = declarado como aumento, mas o valor vai de { MONEY($old) } para { MONEY($new) }
fco-amend-no-approved = nenhum valor aprovado contra o qual medir o aumento
fco-amend-increase = { MONEY($new) } é { PERCENT($increase) } acima dos { MONEY($approved) } aprovados{ $since ->
    [yes] {" "}(de { MONEY($old) } agora; os aumentos desde a aprovação se somam)
   *[no] {""}
} (limite { PERCENT($limit) }){ $over_ceiling ->
    [yes] , e o grupo passaria do teto de { MONEY($ceiling) }
   *[no] {""}
}{ $crosses ->
    [yes] , e atinge o limite da câmara de { MONEY($threshold) }: aprovada abaixo dele, pelo banco, a carta agora precisa do parecer da CPACR (art. 2 §3)
   *[no] {""}
}
fco-amend-reduction = uma redução de { MONEY($old) } para { MONEY($new) } dispensa nova aprovação
fco-amend-not-reduction = declarada como redução, mas o valor vai de { MONEY($old) } para { MONEY($new) }
fco-amend-swap-exempt = a troca por item afim dispensa nova aprovação
fco-amend-municipality-exempt = uma mudança entre os imóveis relacionados dispensa nova aprovação
fco-amend-size-exempt = a mudança de porte do produtor dispensa nova aprovação
fco-amend-other = qualquer outra mudança precisa de nova aprovação
fco-amend-municipality-unlisted = a mudança de município só é dispensada se os demais imóveis estiverem relacionados na carta (art. 15 d); { $listed ->
    [no] os imóveis do novo município não estão relacionados na carta
   *[unstated] não foi informado se os imóveis do novo município estão relacionados na carta
}
fco-amend-none = nenhum aditivo
fco-amend-handled = tratados como o art. 15 manda: { $items }
fco-amend-handled-item = { DATE($day) }: { $why }
fco-amend-wrong = aditivo de { DATE($day) } registrado como { $recorded ->
    [yes] exigindo nova aprovação
   *[no] dispensando-a
}, mas { $why }: ele { $needs ->
    [yes] exige nova aprovação
   *[no] a dispensa
}

## Regras verificadas do combustível social (IN MDA nº 2/2005). $missing lista orações; o texto de uma pessoa
## ($reason, $content) é posto como foi escrito.
sf-document = «{ $name }» ({ $code })
sf-request-lacks = ao pedido faltam { $missing }
sf-documents-all = os seis documentos do anexo I foram recebidos
sf-documents-missing = ainda não protocolado; faltam { $missing }
sf-documents-filed-without = protocolado em { DATE($day) } sem { $missing }
sf-bank-first-met = enquadrado pelo banco em { DATE($framed) }, protocolado em { DATE($filed) }
sf-bank-first-before = protocolado em { DATE($filed) }, antes do enquadramento pelo banco em { DATE($framed) }
sf-bank-first-none = protocolado em { DATE($filed) } sem o enquadramento pelo banco
sf-bank-first-not-filed = enquadrado pelo banco em { DATE($framed) }; ainda não protocolado
sf-bank-first-pending = o banco ainda não enquadrou o projeto
sf-plan-staff = a equipe, com currículos e funções (I)
sf-plan-contract = o contrato de terceirização, exigido além da equipe quando terceirizado (II)
sf-plan-coverage = a área de abrangência (III)
sf-plan-farmers = o número de agricultores assistidos (IV)
sf-plan-methodology = a metodologia e as atividades (V)
sf-plan-none-filed = protocolado em { DATE($day) } sem plano de assistência técnica registrado: o plano é critério mínimo do enquadramento (art. 2) com o conteúdo do art. 6, parágrafo único
sf-plan-none = nenhum plano de assistência técnica registrado ainda: critério mínimo do enquadramento (art. 2, art. 6)
sf-plan-lacks = ao plano faltam { $missing } (art. 6, parágrafo único)
sf-plan-confirmed = plano completo (art. 6, parágrafo único, I–V); compatibilidade com as aquisições confirmada por { $by }
sf-plan-unconfirmed = plano completo (art. 6, parágrafo único, I–V); compatibilidade com as aquisições ainda não confirmada
sf-changes-start-unreported = a operação industrial começou em { DATE($day) }; a empresa ainda não comunicou o início de sua atividade com os documentos (art. 12); { $count } outra(s) comunicação(ões) de alteração apresentada(s)
sf-changes-filed = { $count } comunicação(ões) de alteração apresentada(s) (art. 12)
sf-changes-none = nenhuma alteração a comunicar: nenhum início industrial e nenhuma comunicação de alteração (art. 12)
sf-letter-signed = , assinado por { $by }
sf-letter-undecided = o MDA ainda não decidiu
sf-letter-none = decidido em { DATE($day) } sem ofício registrado: o art. 9 I–II pede um ofício que nomeie a empresa e seu CNPJ
sf-letter-conformity = decidido em { DATE($day) } pelo ofício { $letter } de conformidade{ $signed }, dirigido à empresa e ao CNPJ registrados (art. 9 I)
sf-letter-nonconformity = decidido em { DATE($day) } pelo ofício { $letter } de não conformidade{ $signed }, dirigido à empresa e ao CNPJ registrados, com os fundamentos: { $grounds } (art. 9 II)
sf-letter-no-grounds = decidido em { DATE($day) } pelo ofício { $letter } de não conformidade, que não indica fundamentos: o art. 9 II pede que o ofício diga em que foi baseada a análise
sf-schedule-started-late = iniciou em { DATE($day) }, depois do previsto, { DATE($scheduled) }
sf-schedule-not-started-by = não iniciou até o previsto, { DATE($scheduled) }
sf-schedule-bank-accepted = o banco aceitou o atraso em { DATE($day) }
sf-schedule-bank-accepted-by = o banco aceitou o atraso em { DATE($day) } ({ $by })
sf-schedule-mda-accepted-on = { $bank } e o MDA o aceitou em { DATE($day) } (art. 10 §2)
sf-schedule-mda-accepted = { $bank } e o MDA o aceitou (art. 10 §2)
sf-schedule-mda-not-accepted = { $bank }, mas o MDA não o aceitou (art. 10 §2)
sf-schedule-mda-without-bank = a aceitação do MDA está registrada sem a do banco: o art. 10 §2 só aceita um atraso depois que o banco o aceita
sf-schedule-none-accepted = nenhum atraso foi aceito pelo banco e pelo MDA (art. 10 §2)
sf-schedule-presented = a empresa apresentou seu cronograma físico-financeiro ao MDA em { DATE($day) } (art. 10, caput)
sf-schedule-not-presented = o financiamento foi aprovado em { DATE($day) } e a empresa ainda não apresentou seu cronograma físico-financeiro ao MDA (art. 10, caput)
sf-schedule-not-started = a operação industrial não começou
sf-schedule-started-met = a operação começou em { DATE($day) } com a participação mínima atendida
sf-schedule-started-unmet = a operação começou em { DATE($day) } sem a participação mínima
sf-unframing-heard = a empresa apresentou suas justificativas e contestações em { DATE($day) }: { $content }
sf-unframing-not-heard = nenhuma justificativa da empresa registrada
sf-unframing-notified = o MDA notificou o banco em { DATE($day) } (art. 11 II)
sf-unframing-notified-ref = o MDA notificou o banco em { DATE($day) }, { $reference } (art. 11 II)
sf-unframing-not-notified = a notificação do MDA ao banco ainda não está registrada (art. 11 II)
sf-unframing-published = o MDA atualizou sua base de dados pública em { DATE($day) } (art. 11 II)
sf-unframing-published-ref = o MDA atualizou sua base de dados pública em { DATE($day) }, { $reference } (art. 11 II)
sf-unframing-not-published = a atualização da base de dados pública do MDA ainda não está registrada (art. 11 II)
sf-unframed = desenquadrado em { DATE($day) }: { $reason }
sf-no-reason = nenhum motivo registrado
sf-no-finding = nenhuma constatação registrada
# O que a avaliação externa constatou quando o MDA não diz o quê (guardado sem texto, escrito na leitura).
sf-finding-default = a avaliação externa constatou não conformidade
sf-justifications-accepted = o MDA aceitou as justificativas da empresa em { DATE($day) } (art. 11 II): o enquadramento é mantido; { $reason }
sf-nonconformity-found = a avaliação externa constatou não conformidade em { DATE($day) } ({ $finding }); o MDA ouve as justificativas e contestações da empresa e só desenquadra o projeto se não as aceitar (art. 11 II)
sf-keeps-framing = o projeto mantém seu enquadramento
sf-representation = { $kind }: { $name }
sf-representation-none = nenhuma proposta com uma representação dos agricultores identificada e de acordo
sf-proposal-term = { $term ->
    [term] prazo
    [price] preço de compra
    [adjustment] reajuste de preço
    [delivery] condições de entrega
    [safeguards] salvaguardas
   *[agreement] acordo da representação
}
sf-proposal-lacks = à proposta { $n } faltam { $missing }
sf-proposal-none = nenhuma proposta de contrato
sf-proposals-complete = { $count } proposta(s) com as seis condições
sf-share-calc = calculada exatamente como custo da agricultura familiar ÷ custo anual total; ver SF-SHARE-MIN para os termos
# $what é own (produção própria, art. 3 §2) ou sharecrop (a parte do produtor na parceria, art. 3 §3).
sf-priced-none = nenhuma { $what ->
    [own] produção própria
   *[sharecrop] parte em parceria
} no ano
sf-priced-no-price = { $what ->
    [own] produção própria no ano, mas nenhuma compra lhe dá preço: ela é valorada ao preço médio pago a terceiros no período (art. 3 §2)
   *[sharecrop] parte em parceria no ano, mas nenhuma compra lhe dá preço: ela é valorada ao preço médio pago ao parceiro (art. 3 §3)
}
sf-priced = { $what ->
    [own] produção própria valorada ao preço médio pago a terceiros no período (art. 3 §2)
   *[sharecrop] parte em parceria valorada ao preço médio pago ao parceiro (art. 3 §3)
}
sf-perennial-none = nenhum contrato de cultura perene no ano
sf-perennial-official = contratos de culturas perenes contados por área × um coeficiente de produtividade do MAPA, da Conab ou da Embrapa (art. 4, parágrafo único)
sf-plant-invalid = o código do município da usina é inválido
sf-company-br-pending = item de checklist, ainda não confirmado: a empresa é constituída sob as leis brasileiras (seu contrato social e inscrição no CNPJ) e detém o projeto de produção de biodiesel
sf-no-promotion = uma verificação humana da divulgação da empresa; nada registrado

## SF-SHARE-MIN (art. 3, 4): a participação e como cada termo foi valorado. Valores MONEY, percentuais PERCENT,
## quilos, hectares e preços por quilo NUMBER; $terms lista as orações sf-term-*; $place é uma oração sf-share-place.
sf-share-place = { $semi_arid ->
    [yes] o semiárido
   *[no] a região { $region }
}
sf-share-none = nenhuma aquisição de matéria-prima registrada; o mínimo para { $place } é { PERCENT($min) } ({ $source })
sf-share-unpriced = a participação não pode ser comparada com o mínimo de { PERCENT($min) } para { $place } ({ $source }): { $terms }
sf-share = participação da agricultura familiar { MONEY($family) } ÷ { MONEY($total) } = { PERCENT($share) } contra um mínimo de { PERCENT($min) } para { $place } ({ $source }, vigente em { DATE($on) }); termos: { $terms }
sf-supplier = { $kind ->
    [family] agricultor familiar
    [cooperative] cooperativa da agricultura familiar
    [other] outro terceiro
    [own] produção própria
   *[sharecrop] parceria
}
sf-term-perennial = { $n }. { $supplier }, cultura perene: { NUMBER($area) } ha × { NUMBER($coef) } kg/ha = { NUMBER($expected) } kg × R$ { NUMBER($unit) }/kg = { MONEY($value) } (art. 4)
sf-term-own-unpriced = { $n }. produção própria: { NUMBER($kg) } kg, mas nenhuma compra de terceiros no período dá o preço médio pelo qual o art. 3 §2 a valora
sf-term-own = { $n }. produção própria: { NUMBER($kg) } kg × preço médio pago a terceiros R$ { NUMBER($unit) }/kg = { MONEY($value) } (art. 3 §2)
sf-term-sharecrop-unpriced = { $n }. parceria, parte do produtor: { NUMBER($kg) } kg, mas nenhuma compra do parceiro está registrada; o art. 3 §3 a valora ao preço médio pago ao parceiro e não dá outro preço
sf-term-sharecrop = { $n }. parceria, parte do produtor: { NUMBER($kg) } kg × R$ { NUMBER($unit) }/kg (preço médio pago ao parceiro) = { MONEY($value) } (art. 3 §3)
sf-term-bought = { $n }. { $supplier }: { MONEY($cost) } pagos por { NUMBER($kg) } kg
sf-coefficient-source = { $supplier }: { $source }
sf-no-source = nenhuma fonte informada
sf-perennial-unofficial = o coeficiente de produtividade deve ser publicado pelo MAPA, pela Conab ou pela Embrapa (art. 4, parágrafo único): { $sources }
# Qual delimitação do semiárido foi lida: $member é yes ou no, $source ou $name a delimitação.
sf-semi-arid = { $member ->
    [yes] no
   *[no] fora do
} semiárido segundo { $source } (vigente em { DATE($on) })
sf-semi-arid-nearest = { $member ->
    [yes] no
   *[no] fora do
} semiárido segundo a delimitação posterior mais próxima, { $name } (vigente desde { DATE($from) }): a vigente em { DATE($on) }, Portaria MI nº 89/2005, não está disponível aqui

## Guardas do ciclo de vida (entity/src/rules/lifecycle.rs). $count é a nota de contagem de um prazo, uma oração.
explain-extension-needs = a prorrogação exige { $unmet }
explain-extension-needs-justification = uma justificativa
explain-extension-needs-purchases = as compras contratadas honradas
explain-extension-needs-assistance = assistência técnica aos agricultores contratados
explain-unframe-stage = o projeto está «{ $stage }» ({ $stage_code }): o art. 11, II, desenquadra um projeto só depois que a avaliação externa constatou não conformidade e o MDA não acolheu as justificativas e contestações da empresa
explain-unframe-extension-kept = o MDA concedeu a prorrogação em { DATE($granted) } durante a audiência: o enquadramento se mantém até { DATE($kept) } (art. 11, § 2º, 12 meses desde o início industrial); desenquadre nesse dia, no mínimo
explain-contract-not-presented = os 120 dias para apresentar o projeto ao banco terminaram em { DATE($due) } ({ $count }), e nenhuma apresentação está registrada: registre quando foi apresentado (`presentFcoProject`), se foi a tempo
explain-contract-over-approved = os { MONEY($amount) } do contrato excedem os { MONEY($approved) } aprovados: um aumento é uma alteração (`amendFcoCarta`, `VALUE_INCREASE`), dispensada de nova aprovação até 10 % do valor aprovado dentro do teto (art. 15, a) e, acima disso, sujeita a nova aprovação; registre-a antes
explain-presented-after-contract = { DATE($on) } é posterior ao contrato ({ DATE($contract) }): o projeto é apresentado antes de ser contratado
explain-approval-expired = a aprovação expirou em { DATE($due) }: { $count }
explain-presented-in-time = o projeto foi apresentado ao banco em { DATE($on) }, dentro dos 120 dias: a aprovação não caducou
explain-approval-valid-until = a aprovação vale até { DATE($due) }: { $count }

## Um parâmetro de regra que não pode ser lido (entity/src/rules/params.rs `ParamError`). $problem é uma oração; $why
## o que a unidade exige (whole, positive, at-most-million, not-negative, percent, centavos).
param-not-applicable = não se aplica em { DATE($on) }: nenhuma versão do parâmetro { $key } está vigente nessa data (a regra ainda não estava, ou já não estava, em vigor)
param-pending = pendente: { $problem }; a regra será julgada assim que uma versão utilizável estiver registrada
param-not-in-force = nenhuma versão do parâmetro { $key } está vigente em { DATE($on) }
param-unknown-key = { $key } não é um parâmetro de regra; as chaves conhecidas são listadas por `ruleParameters`
param-wrong-unit = o parâmetro { $key } é em { $expected }, não em { $given }
param-bad-value = { $value } não é um decimal não negativo
param-out-of-unit = { $value } { $unit } deve ser { $why ->
    [whole] um número inteiro
    [positive] positivo
    [at-most-million] no máximo 1.000.000
    [not-negative] não negativo
    [percent] entre 0 e 100
    [centavos] em reais com no máximo duas casas decimais (centavos)
   *[other] { $why }
}
param-unusable = a versão de { $key } vigente em { DATE($on) } é { $value } { $unit }, que não pode ser usada: deve ser { $why ->
    [whole] um número inteiro
    [positive] positivo
    [at-most-million] no máximo 1.000.000
    [not-negative] não negativo
    [percent] entre 0 e 100
    [centavos] em reais com no máximo duas casas decimais (centavos)
   *[other] { $why }
}
param-bad-period = a versão termina ({ DATE($to) }) antes de começar ({ DATE($from) })

## Notas do histórico que o próprio Fomento escreve (financing_transition.note_id, migração 61), escritas na leitura.
history-expired = FCO-VALIDITY-120D: os 120 dias para apresentar o projeto ao banco terminaram em { DATE($due) } ({ $count }), e nenhuma apresentação está registrada.
history-amended = FCO-AMENDMENT: { $why }
history-override = ato registrado apesar de { $codes }: { $why }
history-resubmits = reformula a carta { $number }
history-joined = { $first }; { $then }
history-declared-in-list = declarada na relação mensal de { $month }

## Notas do histórico que um ato escreve ao lado das palavras da pessoa (guardadas como escritas, em $why, $content,
## $reference, $by, $reason): escritas na leitura, no idioma de quem lê.
history-because = { $what }: { $why }
history-document-received = { $document } recebido em { DATE($day) }
history-bank-framing = carta de enquadramento do agente financeiro de { DATE($on) }{ $analysed ->
    [yes] , analisada pelo banco
   *[other] { "" }
}
history-justifications = justificativas e contestações apresentadas em { DATE($day) }: { $content }
history-bank-notice = o MDA notificou o banco em { DATE($day) }: { $reference }
history-public-update = o MDA atualizou sua base de dados pública em { DATE($day) }: { $reference }
history-statement = fatos declarados corrigidos a partir de { DATE($day) }: { $changes }: { $reason }
history-change = `{ $field }` { $old } → { $new }
history-value-unstated = não informado
history-value-yes = sim
history-value-no = não
history-value-plain = { $value }
history-agenda = na pauta da reunião da câmara de { DATE($day) } às { $time } ({ $zone })
history-schedule = fim do cronograma { $old ->
    [none] (nenhum)
   *[other] { DATE($old) }
} → { DATE($end) }{ $presented ->
    [none] { "" }
   *[other] , apresentado ao MDA em { DATE($presented) }
}{ $accepted ->
    [none] { "" }
   *[other] , atraso aceito pelo MDA em { DATE($accepted) }, depois do banco
}
history-delay-bank-acceptance = o banco aceitou em { DATE($day) } um atraso do cronograma que termina em { DATE($end) }: { $by }

## Por que uma relação posterior encerrou os alertas de uma relação (encerrados por report:N).
flag-resolved-superseded = a relação { $old } foi substituída pela relação { $new } do mesmo banco e mês
