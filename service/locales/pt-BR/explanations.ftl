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
explain-bank-first-none = o MDA analisa apenas projetos já enquadrados pelo banco: nenhum enquadramento pelo banco registrado
explain-bank-first-after = o banco enquadrou o projeto em { DATE($framed) }, depois de { DATE($on) }
explain-decision-letter = o MDA decide por ofício de conformidade ou de não conformidade que nomeia a empresa e seu CNPJ (art. 9 I–II): informe sua referência (`letter`)
explain-decision-grounds = o ofício de não conformidade indica em que foi baseada a análise (art. 9 II): informe os fundamentos (`grounds`)
explain-schedule-before-approval = o fim previsto da implantação ({ DATE($end) }) é anterior à aprovação do financiamento ({ DATE($on) })
explain-extension-once = o enquadramento pode ser prorrogado uma única vez; a prorrogação foi pedida em { DATE($first) }
explain-extension-late = pedida em { DATE($on) }, depois de terminados os 12 meses desde o início industrial ({ DATE($last) })
explain-extension-not-asked = a empresa não pediu a prorrogação (art. 11 §2 I)
explain-extension-decided = o MDA já decidiu a prorrogação em { DATE($day) }
explain-extension-reason = diga por que o MDA concede ou recusa a prorrogação
explain-unframe-reason = diga por que o MDA não acolheu as justificativas
