# As páginas servidas pelo Fomento (as dos bancos; as respostas de navegador para 401, 403 e 404).

pages-page-skip = Ir para o conteúdo
pages-nav-label = Navegação principal
pages-nav-home = Início
pages-nav-send = Enviar relação mensal
pages-nav-reports = Minhas relações
pages-nav-sign_out = Sair
pages-form-problems = Há um problema
pages-problem-401 = É preciso entrar
pages-problem-403 = Acesso não permitido
pages-problem-404 = Página não encontrada
pages-problem-401-text = A sessão terminou ou não foi iniciada: entre de novo com a sua chave.
pages-problem-404-text = Este endereço não existe no Fomento.
pages-problem-404-address = nenhum recurso em { $path }
pages-problem-to_start = Ir para a sua página inicial
pages-nav-start = Página inicial
pages-problem-to_sign_in = Entrar com outra chave
pages-dashboard-for_analysts = O painel de conformidade é para analistas, o MDA e a câmara. As páginas do seu banco estão em Início.

# A página de entrada (api/src/http/session.rs).
pages-sign_in-title = Fomento — entrar
pages-sign_in-key = Chave de API ou token
pages-sign_in-submit = Entrar
pages-sign_in-oidc = Entrar pelo provedor de identidade
pages-sign_in-session = A sessão dura 8 horas, num cookie só deste site; sair a encerra.
pages-sign_in-language = Português
pages-sign_in-continue = Continuar
pages-sign_in-invalid = Chave ou token inválido, revogado ou expirado.
pages-sign_in-unavailable = O Fomento não pôde registrar a sessão agora; tente de novo em instantes.
pages-sign_in-no_flow = O retorno do provedor de identidade não corresponde a um início de sessão deste navegador.
pages-sign_in-state_mismatch = O retorno do provedor de identidade não corresponde a este início de sessão (o state difere).
pages-sign_in-not_authorised = O provedor de identidade não autorizou a entrada ({ $why }).
pages-sign_in-no_role = O provedor de identidade não confirmou uma identidade com papel no Fomento (sem papel, ou o token falhou numa verificação).

bank-only = Estas páginas são dos bancos: entre com a chave de um banco.

bank-status-RECEIVED = Recebida
bank-status-PROCESSING = Em processamento
bank-status-INGESTED = Aceita
bank-status-REJECTED = Recusada
bank-status-FAILED = Falhou
bank-status-SUPERSEDED = Substituída
bank-severity-VIOLATION = Violação
bank-severity-WARNING = Alerta
bank-severity-INFO = Informação
bank-deadline-met = cumprido
bank-deadline-late = cumprido com atraso
bank-deadline-overdue = vencido
bank-deadline-pending = em curso
bank-deadline-not_started = ainda não começou

bank-col-number = Número
bank-col-month = Mês
bank-col-status = Situação
bank-col-received = Recebida em
bank-col-rows = Linhas
bank-col-errors = Erros
bank-col-row = Linha
bank-col-column = Coluna
bank-col-value = Valor
bank-col-message = Erro

bank-home-title = { $bank } — início
bank-home-lead = { $bank }, situação em { $day }.
bank-home-owed = Relações mensais devidas
bank-home-owed_none = Nenhuma relação mensal devida: todas as dos últimos meses foram aceitas.
bank-home-owed_month = Relação de { $month }
bank-home-send_month = Enviar a de { $month }
bank-home-not_sent = não enviada
bank-home-send = Enviar
bank-home-deadlines = Prazos
bank-home-due = prazo até { $day }
bank-home-latest = Últimas relações enviadas
bank-home-all_reports = Todas as relações
bank-home-flags = Alertas abertos nas suas cartas ({ $count })
bank-home-flags_none = Nenhum alerta aberto.
bank-home-raised = levantado em { $day }

bank-send-title = Enviar a relação mensal
bank-send-lead = A relação das cartas-consulta aprovadas e contratadas no ano, em nome de { $bank }.
bank-send-template = Baixar o modelo da planilha
bank-send-month = Mês de referência
bank-send-month_hint = Os meses devidos vêm primeiro. Não se aceita mês futuro nem anterior a março de 2019.
bank-send-option_owed = { $month } — devida
bank-send-option_sent = { $month } — { $status }
bank-send-file = Arquivo da relação
bank-send-file_hint = xlsx, xls, ods ou CSV. Escolha o arquivo ou arraste-o para cá.
bank-send-drop = Solte o arquivo aqui
bank-send-progress = Envio do arquivo
bank-send-submit = Enviar relação
bank-send-month_missing = Escolha o mês de referência.
bank-send-file_missing = Escolha o arquivo da relação.

bank-reports-title = Minhas relações
bank-reports-month = Mês
bank-reports-any_month = Todos os meses
bank-reports-status = Situação
bank-reports-any_status = Todas as situações
bank-reports-filter = Filtrar
bank-reports-count = { $count ->
    [0] { $count } relações
    [one] { $count } relação
   *[other] { $count } relações
}
bank-reports-none = Nenhuma relação.

bank-report-title = Relação nº { $number } ({ $month })
bank-report-short = nº { $number }
bank-report-status = Situação:
bank-report-following = acompanhando…
bank-report-file = Arquivo
bank-report-bytes = { $count } bytes
bank-report-declared = Cartas declaradas
bank-report-dropped = Cartas que saíram desde o mês anterior
bank-report-failed = O Fomento não conseguiu processar o arquivo; nada foi aplicado e o arquivo está guardado. Envie-o de novo ou informe a referência { $reference }.
bank-report-ingested = Relação aceita: as cartas foram registradas.
bank-report-original = Baixar o arquivo enviado
bank-report-errors_xlsx = Baixar a planilha com os erros marcados
bank-report-send_corrected = Enviar um arquivo corrigido
bank-report-file_error = O arquivo não pôde ser lido
bank-report-row_errors = { $count ->
    [0] { $count } erros por linha
    [one] { $count } erro por linha
   *[other] { $count } erros por linha
}

pages-nav-cartas = Minhas cartas
bank-cartas-title = Minhas cartas-consulta
bank-cartas-approved = Decididas no mês
bank-cartas-contracted = Contratadas no mês
bank-cartas-month_hint = Mês e ano (AAAA-MM); em branco, qualquer mês.
bank-cartas-count = { $count ->
    [0] { $count } cartas
    [one] { $count } carta
   *[other] { $count } cartas
}{ $shown ->
    [100] , as 100 mais recentes na tabela
   *[other] {""}
}
bank-cartas-in_template = Baixar no leiaute do modelo da relação mensal (xlsx)
bank-cartas-export = Baixar a lista em planilha (xlsx)
bank-cartas-number = Carta
bank-cartas-borrower = Tomador
bank-cartas-stage = Etapa
bank-cartas-amount = Valor financiado
bank-cartas-approved_on = Aprovada em
bank-cartas-contracted_on = Contratada em

pages-nav-keys = Chaves dos bancos
pages-nav-dashboard = Painel
admin-keys-title = Chaves de acesso dos bancos
admin-keys-issue = Emitir uma chave para um usuário de banco
admin-keys-bank = Banco
admin-keys-name = Nome do usuário ou do uso
admin-keys-name_hint = Por exemplo: Maria (retaguarda Sicredi). Aparece na lista e no registro de auditoria.
admin-keys-name_missing = Informe o nome do usuário ou do uso da chave.
admin-keys-submit = Emitir a chave
admin-keys-issued = Chave emitida para { $name }
admin-keys-once = Copie a chave agora e entregue-a ao usuário por um canal seguro: ela é mostrada só esta vez e o Fomento guarda apenas o seu resumo.
admin-keys-list = Chaves emitidas
admin-keys-col_prefix = Início da chave
admin-keys-col_role = Papel
admin-keys-col_bank = Banco
admin-keys-col_name = Nome
admin-keys-col_created = Criada em
admin-keys-col_state = Situação
admin-keys-revoked = revogada em { $day }
admin-keys-revoke = Revogar
admin-keys-revoke_named = Revogar a chave { $prefix } ({ $name })
admin-keys-already_shown = A chave emitida já foi mostrada e não é mostrada de novo; recarregar a página não emite outra. Se ela não foi copiada, revogue-a e emita outra.
admin-keys-revoked_done = Chave { $prefix } revogada: ela deixou de valer e as suas sessões foram encerradas.
admin-keys-own = a sua chave atual
admin-keys-own_refused = Esta é a chave com que você entrou; ela não é revogada por esta página. Use outra chave de administrador ou a linha de comando (fomento keys revoke).
admin-keys-confirm_title = Revogar uma chave
admin-keys-confirm_text = Revogar a chave { $prefix } ({ $name })? Ela deixa de valer na hora e as sessões abertas com ela terminam; não há como desfazer.
admin-keys-cancel = Cancelar e voltar às chaves
