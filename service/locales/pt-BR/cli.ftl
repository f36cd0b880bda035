## O que o comando `fomento` escreve para uma pessoa ler (api/src/commands.rs). Em inglês com FOMENTO_LANG=en.

cli-error = erro: { $message }
cli-cannot-read = não foi possível ler { $file }: { $reason }
cli-cannot-write = não foi possível gravar { $file }: { $reason }
cli-import-not-an-id = --{ $option }: { $value } não é um número nem o ID { $target ->
    [project] de um projeto do selo social
    [carta] de uma carta FCO
   *[meeting] de uma reunião da câmara
}
cli-import-known = importação { $id }: estes bytes já foram recebidos para { $target ->
    [project] este projeto
    [carta] esta carta
   *[meeting] esta reunião
}
cli-import-done = importação { $id } ({ $kind } { $target ->
    [project] do projeto
    [carta] da carta
   *[meeting] da reunião
} { $target_id }): { $status } — { $rows } linhas lidas, { $applied } aplicadas
cli-row-error = linha { $row }, { $column }: { $message }
cli-row-error-value = linha { $row }, { $column }: { $message } ({ $value })
cli-import-not-applied = a importação { $id } está { $status }: nada foi aplicado
cli-unknown-job = tarefa desconhecida "{ $job }"; as tarefas são: { $jobs }
cli-slot-taken = outro processo ocupa o horário { $slot }
cli-job-failed = { $job } falhou: { $reason }
cli-storing = guardando { $file } ({ $bytes } bytes)…
cli-report-received = relação { $id } { $how ->
    [new] recebida
    [known] já recebida
   *[requeued] já recebida, tinha falhado (FAILED): de volta à fila
} ({ $sha256 }); lendo…
cli-report-done = relação { $id }: { $status } — { $rows } linhas, { $errors } erros em { $seconds } s
cli-report-vanished = a relação { $id } sumiu
cli-no-report = não há relação { $number }
cli-report-not-failed = a relação { $number } está { $status }, não FAILED: nada a tentar de novo
cli-report-requeued = relação { $number } de volta à fila (tinha falhado: { $reason })
cli-report-after-attempt = relação { $number }: { $status } depois da tentativa { $attempt }
cli-export-format = --format "{ $format }": escreva csv ou xlsx
cli-export-done = { $rows } linhas de { $name } gravadas em { $file }
cli-any = qualquer
cli-all = todos
cli-webhook-line = { $url } programa={ $programme } banco={ $bank } eventos={ $events } idioma={ $lang }
cli-webhook-removed-mark = (removido)
cli-webhook-added = webhook { $id } incluído: { $line }
cli-webhook-removed = webhook { $id } removido: { $url }
cli-purged = arquivos brutos recebidos antes de { DATE($before) } apagados: { $files } arquivos ({ $reports } relações, { $imports } importações); { $kept } mantidos para um envio posterior
cli-key-line = { $prefix }…  { $role }{ $bank }  { $name }{ $rate }  { $state }
cli-key-bank = { " " }(banco { $bank })
cli-key-active = ativa
cli-key-revoked-at = revogada em { $at }
cli-key-created = chave { $id } criada: { $line }; ela só é mostrada agora:
cli-key-revoked = chave { $id } revogada: { $line }
cli-parameters-added = { $count } versões de parâmetros incluídas de { $file }
cli-nothing-imported = nada importado: { $count } problema(s)
cli-semi-arid = { $count } municípios do semiárido segundo { $source }, vigentes desde { DATE($from) }
cli-semi-arid-to = { $count } municípios do semiárido segundo { $source }, vigentes de { DATE($from) } a { DATE($to) }
cli-semi-arid-closed = ; encerradas na véspera: { $closed }
cli-oidc-together = --oidc-issuer, --oidc-client-id e --oidc-redirect-url vão juntos
cli-jobs-job = tarefa
cli-jobs-schedule = agenda
cli-jobs-zone = fuso horário
cli-jobs-last = última execução
cli-jobs-next = próxima execução
cli-jobs-never = nunca
# O que cada tarefa faz (`fomento jobs list`), pelo nome da tarefa.
cli-job-ingest = toma as relações mensais dos bancos recebidas (ou aquelas cuja reserva expirou) e as lê; também logo após cada envio
cli-job-import = toma as importações de fatos recebidas (aquisições, itens de carta, pautas de reunião) e as aplica; também logo após cada envio
cli-job-expire-approvals = declara expiradas as aprovações do CDAE cujos 120 dias passaram sem apresentação do projeto ao banco registrada (FCO-VALIDITY-120D), com uma linha no histórico, antes dos alertas do dia
cli-job-flag-deadlines = julga cada prazo e cada resultado de regra e mantém os alertas de conformidade em dia (abertos, alterados, encerrados)
cli-job-build-dashboards = monta o painel de conformidade na data do dia (depois dos alertas do dia), guardado para `complianceDashboard` e /dashboard
cli-job-purge-raw-files = apaga os arquivos brutos enviados após o prazo de guarda (--retain-raw-files, 5 anos por padrão); relações e importações mantêm suas linhas e seu resultado
cli-job-deliver-webhooks = envia as entregas de webhook devidas, assinadas; uma recusada é tentada de novo com espera crescente, até 10 tentativas
# O progresso de `fomento ingest`: $bar a barra e sua porcentagem.
cli-progress = { $bar }% { $rows } de { $total } linhas, { $rate }
cli-progress-unknown = { $rows } linhas lidas, { $rate }
cli-per-second = { $rate } linhas/s
