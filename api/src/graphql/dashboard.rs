//! The compliance dashboard in the graph: `complianceDashboard(asOf:, programme:)`, the key figures typed and every
//! table with its columns and rows (as text, each table also exported typed at `/exports/dashboard-{name}.csv|.xlsx`).
//! Built by the `build-dashboards` job (`builtAt`), or computed on demand for another day (`builtAt: null`).

use super::{
    db,
    error::Served,
    scalars::{Date, DateTime},
    types::enums::Programme,
};
use async_graphql::{Context, Object, Result, SimpleObject};
use entity::domain::Authority;
use service::dashboard::{self, TableProgramme};

/// The dashboard's key figures as of its day. Narrowed to one programme, the other programme's figures are null.
#[derive(SimpleObject, Debug, Clone)]
pub struct DashboardFigures {
    /// MDA framing decisions overdue (SF-DECISION-30D); null for FCO Rural alone.
    pub decisions_overdue: Option<u64>,
    /// MDA framing decisions due within their window; null for FCO Rural alone.
    pub decisions_due_soon: Option<u64>,
    /// External evaluations overdue (SF-EXTERNAL-EVAL-6M, SF-EXTENSION-12M); null for FCO Rural alone.
    pub evaluations_overdue: Option<u64>,
    /// External evaluations due within their window; null for FCO Rural alone.
    pub evaluations_due_soon: Option<u64>,
    /// Approved cartas whose 120 days ran out without a contract; null for social fuel alone.
    pub approvals_expired: Option<u64>,
    /// Approved cartas whose 120 days end within the window; null for social fuel alone.
    pub approvals_expiring: Option<u64>,
    /// Cartas contracted up to the day; null for social fuel alone.
    pub contracted_count: Option<u64>,
    /// Their amount, in reais; null for social fuel alone.
    pub contracted_amount: Option<rust_decimal::Decimal>,
    /// Flags open on the day (of the programme, when narrowed to one).
    pub open_flags: u64,
    /// Of them, violations.
    pub open_violations: u64,
}

/// One table of the dashboard.
#[derive(Debug, Clone)]
pub struct DashboardTable(pub dashboard::Table);

/// One table of the dashboard.
#[Object]
impl DashboardTable {
    /// Its name; its export is `/exports/dashboard-{name}.csv` (and `.xlsx`).
    async fn name(&self) -> &str {
        &self.0.name
    }

    /// What it shows, in the language of `Accept-Language` (Portuguese by default).
    async fn title(&self, ctx: &Context<'_>) -> String {
        self.0.title(super::error::lang(ctx))
    }

    /// The column codes (`rule_code`), stable for scripts.
    async fn columns(&self) -> &[String] {
        &self.0.columns
    }

    /// The column headers, in the language of `Accept-Language` (Portuguese by default).
    async fn headers(&self, ctx: &Context<'_>) -> Vec<String> {
        let lang = super::error::lang(ctx);
        self.0
            .columns
            .iter()
            .map(|c| service::labels::header(c, lang))
            .collect()
    }

    /// The rows, each cell as text as stored (amounts and percentages with a point, days as `YYYY-MM-DD`, codes as
    /// codes).
    async fn rows(&self) -> Vec<Vec<String>> {
        self.0
            .rows
            .iter()
            .map(|r| r.iter().map(|c| c.text('.')).collect())
            .collect()
    }
}

/// The compliance dashboard as of a day.
#[derive(Debug, Clone)]
pub struct ComplianceDashboard(pub dashboard::Dashboard);

/// The compliance dashboard as of a day.
#[Object]
impl ComplianceDashboard {
    /// The day it is as of.
    async fn as_of(&self) -> Date {
        Date(self.0.as_of)
    }

    /// When the `build-dashboards` job built it; null when it was computed on demand for this request.
    async fn built_at(&self) -> Option<DateTime> {
        self.0.built_at.map(|t| DateTime(t, Authority::Mda))
    }

    /// The key figures.
    async fn figures(&self) -> DashboardFigures {
        let f = &self.0.figures;
        let sf = |v: u64| self.0.shows(TableProgramme::SocialFuel).then_some(v);
        let fco = |v: u64| self.0.shows(TableProgramme::FcoRural).then_some(v);
        DashboardFigures {
            decisions_overdue: sf(f.decisions_overdue),
            decisions_due_soon: sf(f.decisions_due_soon),
            evaluations_overdue: sf(f.evaluations_overdue),
            evaluations_due_soon: sf(f.evaluations_due_soon),
            approvals_expired: fco(f.approvals_expired),
            approvals_expiring: fco(f.approvals_expiring),
            contracted_count: fco(f.contracted_count),
            contracted_amount: self
                .0
                .shows(TableProgramme::FcoRural)
                .then(|| entity::domain::Money(f.contracted_cents).to_decimal()),
            open_flags: f.open_flags,
            open_violations: f.open_violations,
        }
    }

    /// Every table.
    async fn tables(&self) -> Vec<DashboardTable> {
        self.0.tables.iter().cloned().map(DashboardTable).collect()
    }

    /// The table of this name; a name no table has is refused (`BAD_USER_INPUT` naming `name`).
    async fn table(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Its name (`fco_contracted_by_bank`).")] name: String,
    ) -> Result<Option<DashboardTable>> {
        match self.0.table(&name) {
            Some(t) => Ok(Some(DashboardTable(t.clone()))),
            None => {
                let names: Vec<&str> = self.0.tables.iter().map(|t| t.name.as_str()).collect();
                Err(service::ServiceError::bad(
                    "name",
                    service::messages::Message::new(service::messages::code::TABLE_UNKNOWN)
                        .arg("value", format!("{name:?}"))
                        .arg("names", names.join(", ")),
                ))
                .served(ctx)
            }
        }
    }
}

/// Queries about the dashboard.
#[derive(Default)]
pub struct DashboardQuery;

#[Object]
impl DashboardQuery {
    /// The compliance dashboard as of a day (today in Brasília by default), for one programme or both.
    async fn compliance_dashboard(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The day; today in Brasília by default.")] as_of: Option<Date>,
        #[graphql(
            desc = "Only this programme's figures, tables and rows (the deadline and flag tables keep its rows)."
        )]
        programme: Option<Programme>,
    ) -> Result<ComplianceDashboard> {
        let as_of = as_of.map_or_else(|| service::Clock::System.today(), |d| d.0);
        let d = dashboard::get(db(ctx), as_of).await.served(ctx)?;
        Ok(ComplianceDashboard(d.of_programme(programme.map(Into::into))))
    }
}
