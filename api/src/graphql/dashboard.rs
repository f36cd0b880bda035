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
use service::dashboard;

/// The dashboard's key figures as of its day.
#[derive(SimpleObject, Debug, Clone)]
pub struct DashboardFigures {
    /// MDA framing decisions overdue (SF-DECISION-30D).
    pub decisions_overdue: u64,
    /// MDA framing decisions due within their window.
    pub decisions_due_soon: u64,
    /// External evaluations overdue (SF-EXTERNAL-EVAL-6M, SF-EXTENSION-12M).
    pub evaluations_overdue: u64,
    /// External evaluations due within their window.
    pub evaluations_due_soon: u64,
    /// Approved cartas whose 120 days ran out without a contract.
    pub approvals_expired: u64,
    /// Approved cartas whose 120 days end within the window.
    pub approvals_expiring: u64,
    /// Cartas contracted up to the day.
    pub contracted_count: u64,
    /// Their amount, in reais.
    pub contracted_amount: rust_decimal::Decimal,
    /// Flags open on the day.
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

    /// What it shows.
    async fn title(&self) -> &str {
        &self.0.title
    }

    /// The column names.
    async fn columns(&self) -> &[String] {
        &self.0.columns
    }

    /// The rows, each cell as text (amounts in reais with a point, days as `YYYY-MM-DD`).
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
        DashboardFigures {
            decisions_overdue: f.decisions_overdue,
            decisions_due_soon: f.decisions_due_soon,
            evaluations_overdue: f.evaluations_overdue,
            evaluations_due_soon: f.evaluations_due_soon,
            approvals_expired: f.approvals_expired,
            approvals_expiring: f.approvals_expiring,
            contracted_count: f.contracted_count,
            contracted_amount: entity::domain::Money(f.contracted_cents).to_decimal(),
            open_flags: f.open_flags,
            open_violations: f.open_violations,
        }
    }

    /// Every table.
    async fn tables(&self) -> Vec<DashboardTable> {
        self.0.tables.iter().cloned().map(DashboardTable).collect()
    }

    /// The table of this name, if there is one.
    async fn table(
        &self,
        #[graphql(desc = "Its name (`fco_contracted_by_bank`).")] name: String,
    ) -> Option<DashboardTable> {
        self.0.table(&name).cloned().map(DashboardTable)
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
        #[graphql(desc = "Only this programme's tables (the flag tables always).")] programme: Option<Programme>,
    ) -> Result<ComplianceDashboard> {
        let as_of = as_of.map_or_else(|| service::Clock::System.today(), |d| d.0);
        let d = dashboard::get(db(ctx), as_of).await.served(ctx)?;
        Ok(ComplianceDashboard(d.of_programme(programme.map(Into::into))))
    }
}
