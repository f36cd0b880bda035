//! What the analysts read on the dashboard page and in the export files: table titles, column headers, the values of
//! coded columns and the page's own words, in Brazilian Portuguese (the default) and English. The entries have the
//! catalogue's shape and are rendered by [`crate::messages::Message::render`] (`{name}` stands for a value); the
//! vocabulary's Portuguese names (`FcoActivity::name_pt`, …) are the entity's, read from there.

use crate::messages::{Lang, Message};
use entity::vocab::{FcoActivity, FcoCartaStage, FcoLine, SocialFuelStage};
use sea_orm::ActiveEnum;

/// Every label: `(key, Portuguese, English)`. Keys: `table.{name}` (a table's title), `column.{code}` (a column's
/// header), `value.{column}.{CODE}` (a coded value), `page.…` (the dashboard page).
pub const LABELS: &[(&str, &str, &str)] = &[
    // Table titles.
    (
        "table.sf_projects_by_stage_region",
        "Projetos do Selo Combustível Social por etapa e região",
        "Social-fuel projects by stage and region",
    ),
    (
        "table.sf_family_share_by_region",
        "Participação da agricultura familiar por região, agregada (custo da agricultura familiar sobre o custo total), contra o mínimo",
        "Family-farm share by region, pooled (family-farm cost over total cost), against the minimum",
    ),
    (
        "table.sf_family_share_distribution",
        "Projetos por participação da agricultura familiar, em faixas de 10 pontos",
        "Projects by family-farm share, in bands of 10 points",
    ),
    (
        "table.sf_seals",
        "Selos solicitados e projetos aptos (avaliação externa conforme)",
        "Social-fuel seals requested against projects eligible (a conforming external evaluation)",
    ),
    (
        "table.deadlines",
        "Prazos vencidos (violação) e a vencer dentro da janela (alerta)",
        "Deadlines overdue (violation) and due within their window (warning)",
    ),
    (
        "table.fco_contracted_by_bank",
        "FCO contratado por banco",
        "FCO contracted by bank",
    ),
    (
        "table.fco_contracted_by_month",
        "FCO contratado por mês",
        "FCO contracted by month",
    ),
    (
        "table.fco_contracted_by_activity",
        "FCO contratado por atividade",
        "FCO contracted by activity",
    ),
    (
        "table.fco_contracted_by_line",
        "FCO contratado por linha do programa",
        "FCO contracted by programme line",
    ),
    (
        "table.fco_contracted_by_municipality",
        "FCO contratado por município",
        "FCO contracted by municipality",
    ),
    (
        "table.fco_chamber_share",
        "Aprovações do FCO por quem decidiu: o conselho (R$ 1 milhão ou mais) ou o banco",
        "FCO approvals by who decided them: the chamber (R$ 1 million or more) or the bank",
    ),
    (
        "table.fco_approvals_expiring",
        "Cartas-consulta aprovadas cujos 120 dias terminam dentro da janela (alerta) ou terminaram sem contrato (violação)",
        "Approved cartas whose 120 days end within the window (warning) or ended without a contract (violation)",
    ),
    (
        "table.fco_ceiling_top20",
        "Os 20 grupos econômicos com mais aprovado e contratado, contra o teto de R$ 15 milhões",
        "The 20 economic groups with the most approved and contracted, against the R$ 15 million ceiling",
    ),
    (
        "table.fco_reporting_punctuality",
        "Relação mensal de cada banco do FCO nos doze meses de {from} a {to}: no prazo, atrasada, faltando ou ainda não vencida (prazo: fim do mês seguinte). A tabela de prazos e os alertas (FCO-MONTHLY-LIST) julgam só as relações dos dois últimos meses; um mês anterior faltando aparece só aqui",
        "Each FCO bank's monthly list in the twelve months {from} to {to}: on time, late, missing or not yet due (due by the end of the next month). The deadlines table and the flags (FCO-MONTHLY-LIST) judge the last two months' lists only; an earlier missing month shows here only",
    ),
    (
        "table.fco_cartas_dropped",
        "Cartas-consulta na relação do mês anterior que a relação do mês não traz mais",
        "Cartas on a bank's list of the month before that its list of the month no longer carries",
    ),
    (
        "table.flags_open_by_rule_severity",
        "Alertas abertos por regra e gravidade",
        "Open flags by rule and severity",
    ),
    (
        "table.flags_time_to_resolve",
        "Alertas resolvidos por regra e o tempo médio até a resolução",
        "Resolved flags by rule and their mean time to resolve",
    ),
    (
        "table.audit",
        "Registro de auditoria, do mais recente",
        "The audit log, newest first",
    ),
    ("table.flags", "Alertas de conformidade", "Compliance flags"),
    ("table.financings", "Financiamentos", "Financings"),
    ("table.cartas", "Cartas-consulta do FCO", "FCO cartas"),
    // Column headers.
    ("column.stage", "Etapa", "Stage"),
    ("column.region", "Região", "Region"),
    ("column.projects", "Projetos", "Projects"),
    (
        "column.family_cost",
        "Custo da agricultura familiar (R$)",
        "Family-farm cost (R$)",
    ),
    ("column.total_cost", "Custo total (R$)", "Total cost (R$)"),
    ("column.share_percent", "Participação (%)", "Share (%)"),
    ("column.minimum_percent", "Mínimo (%)", "Minimum (%)"),
    ("column.from_percent", "De (%)", "From (%)"),
    ("column.to_percent", "Até (%)", "To (%)"),
    ("column.eligible", "Aptos", "Eligible"),
    ("column.requested", "Solicitados", "Requested"),
    ("column.rule_code", "Regra", "Rule"),
    ("column.severity", "Gravidade", "Severity"),
    ("column.count", "Quantidade", "Count"),
    ("column.bank", "Banco", "Bank"),
    ("column.amount", "Valor (R$)", "Amount (R$)"),
    ("column.month", "Mês", "Month"),
    ("column.activity", "Atividade", "Activity"),
    ("column.line", "Linha", "Line"),
    ("column.ibge_code", "Código IBGE", "IBGE code"),
    ("column.municipality", "Município", "Municipality"),
    ("column.decided_by", "Decidido por", "Decided by"),
    (
        "column.share_of_amount_percent",
        "Participação no valor (%)",
        "Share of the amount (%)",
    ),
    ("column.carta", "Carta-consulta", "Carta"),
    ("column.validity_ends", "Fim da validade", "Validity ends"),
    ("column.group", "Grupo econômico", "Economic group"),
    ("column.committed", "Comprometido (R$)", "Committed (R$)"),
    ("column.ceiling", "Teto (R$)", "Ceiling (R$)"),
    ("column.use_percent", "Uso do teto (%)", "Use of the ceiling (%)"),
    ("column.due", "Prazo", "Due"),
    ("column.received", "Recebida em", "Received on"),
    ("column.status", "Situação", "Status"),
    ("column.dropped", "Retiradas", "Dropped"),
    ("column.open", "Abertos", "Open"),
    ("column.resolved", "Resolvidos", "Resolved"),
    ("column.mean_hours", "Tempo médio (horas)", "Mean time (hours)"),
    ("column.number", "Número", "Number"),
    ("column.programme", "Programa", "Programme"),
    ("column.subject_kind", "Tipo de objeto", "Subject kind"),
    ("column.subject_id", "Objeto (nº)", "Subject (no.)"),
    ("column.occurrence", "Ocorrência", "Occurrence"),
    ("column.due_on", "Vencimento", "Due on"),
    (
        "column.raised_at",
        "Aberto em (horário de Brasília)",
        "Raised at (Brasília time)",
    ),
    (
        "column.resolved_at",
        "Resolvido em (horário de Brasília)",
        "Resolved at (Brasília time)",
    ),
    ("column.resolved_by", "Resolvido por", "Resolved by"),
    ("column.resolution", "Resolução", "Resolution"),
    ("column.source", "Origem", "Source"),
    ("column.legal_basis", "Base legal", "Legal basis"),
    ("column.message", "Mensagem", "Message"),
    ("column.id", "Nº", "No."),
    ("column.borrower_document", "CPF/CNPJ do tomador", "Borrower's CPF/CNPJ"),
    ("column.borrower", "Tomador", "Borrower"),
    (
        "column.municipality_code",
        "Código IBGE do município",
        "Municipality's IBGE code",
    ),
    ("column.submitted_on", "Submetida em", "Submitted on"),
    ("column.decided_on", "Decidida em", "Decided on"),
    ("column.approved_on", "Aprovada em", "Approved on"),
    ("column.contracted_on", "Contratada em", "Contracted on"),
    (
        "column.contracted_amount",
        "Valor contratado (R$)",
        "Contracted amount (R$)",
    ),
    ("column.at", "Quando (horário de Brasília)", "When (Brasília time)"),
    ("column.actor", "Quem", "Who"),
    ("column.action", "Ação", "Action"),
    ("column.target", "Alvo", "Target"),
    ("column.outcome", "Resultado", "Outcome"),
    ("column.detail", "Detalhe", "Detail"),
    ("column.remote", "Origem da conexão", "Remote address"),
    // Coded values without a name in the vocabulary.
    ("value.severity.VIOLATION", "Violação", "Violation"),
    ("value.severity.WARNING", "Alerta", "Warning"),
    ("value.programme.SOCIAL_FUEL", "Selo Combustível Social", "Social fuel"),
    ("value.programme.FCO_RURAL", "FCO Rural", "FCO Rural"),
    ("value.status.DRAFT", "Em elaboração", "Draft"),
    ("value.status.IN_ANALYSIS", "Em análise", "In analysis"),
    ("value.status.APPROVED", "Aprovado", "Approved"),
    ("value.status.ACTIVE", "Ativo", "Active"),
    ("value.status.DENIED", "Negado", "Denied"),
    ("value.status.ENDED", "Encerrado", "Ended"),
    ("value.status.ON_TIME", "No prazo", "On time"),
    ("value.status.LATE", "Atrasada", "Late"),
    ("value.status.MISSING", "Faltando", "Missing"),
    ("value.status.NOT_YET_DUE", "Ainda não vencida", "Not yet due"),
    ("value.decided_by.CHAMBER", "Conselho (CDAE)", "Chamber (CDAE)"),
    ("value.decided_by.BANK", "Banco", "Bank"),
    ("value.decided_by.?", "Não registrado", "Not recorded"),
    ("value.subject_kind.FINANCING", "Financiamento", "Financing"),
    ("value.subject_kind.BANK", "Banco", "Bank"),
    ("value.subject_kind.MEETING", "Reunião do conselho", "Chamber meeting"),
    ("value.subject_kind.GROUP", "Grupo econômico", "Economic group"),
    ("value.subject_kind.REPORT", "Relação mensal", "Monthly list"),
    // The dashboard page.
    (
        "page.title",
        "Painel de conformidade em {date}",
        "Compliance dashboard as of {date}",
    ),
    (
        "page.built",
        "Montado pela tarefa build-dashboards em {time}.",
        "Built by the build-dashboards job at {time}.",
    ),
    (
        "page.on_demand",
        "Calculado agora (não há montagem para este dia).",
        "Computed on demand (no build for this day).",
    ),
    ("page.link_day", "Link para este dia", "Link to this day"),
    ("page.programme", "Programa", "Programme"),
    ("page.both", "Ambos", "Both"),
    ("page.other_language", "English", "Português"),
    ("page.figures", "Números-chave", "Key figures"),
    ("page.charts", "Gráficos", "Charts"),
    ("page.open_flags", "Alertas abertos", "Open flags"),
    ("page.tables", "Tabelas e exportações", "Tables and exports"),
    ("page.lists", "Listas", "Lists"),
    ("page.shown", "{shown} de {total}", "{shown} of {total}"),
    ("page.all_flags", "todos no GraphiQL", "all in GraphiQL"),
    (
        "page.export_note",
        "Os arquivos abaixo trazem os dados deste dia e programa.",
        "The files below hold this day's and programme's figures.",
    ),
    ("page.minimum", "mínimo {value}", "minimum {value}"),
    ("page.no_rows", "Nada a mostrar.", "Nothing to show."),
    (
        "page.legend_violation",
        "violação (prazo vencido)",
        "violation (overdue)",
    ),
    ("page.legend_warning", "alerta (a vencer)", "warning (due soon)"),
    ("page.col_number", "Nº", "No."),
    ("page.col_rule", "Regra", "Rule"),
    ("page.col_severity", "Gravidade", "Severity"),
    ("page.col_due", "Vencimento", "Due"),
    ("page.col_subject", "Objeto", "Subject"),
    ("page.col_what", "O que foi encontrado", "What was found"),
    ("page.no_subject", "(sem objeto)", "(no subject)"),
    ("page.overdue", "vencido há {days}", "{days} overdue"),
    (
        "figure.decisions_overdue",
        "Decisões do MDA vencidas",
        "MDA decisions overdue",
    ),
    (
        "figure.decisions_due_soon",
        "Decisões do MDA a vencer",
        "MDA decisions due soon",
    ),
    (
        "figure.evaluations_overdue",
        "Avaliações externas vencidas",
        "External evaluations overdue",
    ),
    (
        "figure.evaluations_due_soon",
        "Avaliações externas a vencer",
        "External evaluations due soon",
    ),
    (
        "figure.approvals_expiring",
        "Aprovações a expirar",
        "Approvals expiring",
    ),
    ("figure.approvals_expired", "Aprovações expiradas", "Approvals expired"),
    (
        "figure.contracted_count",
        "Cartas-consulta contratadas",
        "Cartas contracted",
    ),
    ("figure.contracted_amount", "Valor contratado", "Amount contracted"),
    ("figure.open_flags", "Alertas abertos", "Open flags"),
    ("figure.open_violations", "Violações abertas", "Open violations"),
];

/// A label by its key, with its values, in `lang`; `None` when there is no such key.
pub fn get(key: &str, lang: Lang) -> Option<String> {
    LABELS
        .iter()
        .any(|(k, ..)| *k == key)
        .then(|| Message::new(key).render(lang))
}

/// A label with values (`{name}`) by its key, in `lang`.
pub fn with(key: &str, args: &[(&str, String)], lang: Lang) -> String {
    args.iter()
        .fold(Message::new(key), |m, (k, v)| m.arg(k, v))
        .render(lang)
}

/// A label without values, in `lang` (the key itself when there is none).
pub fn text(key: &str, lang: Lang) -> String {
    get(key, lang).unwrap_or_else(|| key.to_owned())
}

/// A column's header in `lang` (its code when it has no label).
pub fn header(column: &str, lang: Lang) -> String {
    get(&format!("column.{column}"), lang).unwrap_or_else(|| column.to_owned())
}

/// A coded value of `column` as people read it in `lang`: the label's, else the vocabulary's Portuguese name or, in
/// English, the code in words (`BEEF_CATTLE` → `Beef cattle`); `None` when the column holds no codes.
pub fn value(column: &str, code: &str, lang: Lang) -> Option<String> {
    if let Some(v) = get(&format!("value.{column}.{code}"), lang) {
        return Some(v);
    }
    let pt = match column {
        "activity" => FcoActivity::try_from_value(&code.to_owned())
            .ok()
            .map(FcoActivity::name_pt),
        "line" => FcoLine::try_from_value(&code.to_owned()).ok().map(FcoLine::name_pt),
        "stage" => FcoCartaStage::try_from_value(&code.to_owned())
            .ok()
            .map(FcoCartaStage::name_pt)
            .or_else(|| {
                SocialFuelStage::try_from_value(&code.to_owned())
                    .ok()
                    .map(SocialFuelStage::name_pt)
            }),
        _ => None,
    }?;
    Some(match lang {
        Lang::PtBr => capitalised(pt),
        Lang::En => capitalised(&code.replace('_', " ").to_lowercase()),
    })
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A whole number of `unit`s with the unit's plural when it is not one (`1 dia`, `2 dias`; `1 day`, `2 days`).
pub fn count(n: i64, unit: &str, lang: Lang) -> String {
    let one = n.abs() == 1;
    let word = match (unit, lang, one) {
        ("day", Lang::PtBr, true) => "dia",
        ("day", Lang::PtBr, false) => "dias",
        ("day", Lang::En, true) => "day",
        ("day", Lang::En, false) => "days",
        _ => unit,
    };
    format!("{n} {word}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_has_one_key_and_the_same_values_in_both_languages() {
        for (key, pt, en) in LABELS {
            assert_eq!(LABELS.iter().filter(|(k, ..)| k == key).count(), 1, "{key} twice");
            let names = |s: &str| {
                let mut v: Vec<String> = s
                    .split('{')
                    .skip(1)
                    .filter_map(|p| p.split('}').next().map(str::to_owned))
                    .collect();
                v.sort();
                v
            };
            assert_eq!(names(pt), names(en), "{key}");
        }
    }

    #[test]
    fn coded_values_read_as_words_in_each_language() {
        assert_eq!(value("activity", "GRAINS", Lang::PtBr).as_deref(), Some("Grãos"));
        assert_eq!(
            value("activity", "BEEF_CATTLE", Lang::En).as_deref(),
            Some("Beef cattle")
        );
        assert_eq!(value("stage", "CONTRACTED", Lang::PtBr).as_deref(), Some("Contratada"));
        assert_eq!(value("severity", "VIOLATION", Lang::PtBr).as_deref(), Some("Violação"));
        assert_eq!(value("bank", "SICREDI", Lang::PtBr), None);
        assert_eq!(header("amount", Lang::En), "Amount (R$)");
        assert_eq!(count(1, "day", Lang::PtBr), "1 dia");
        assert_eq!(count(1, "day", Lang::En), "1 day");
        assert_eq!(count(3, "day", Lang::En), "3 days");
    }
}
