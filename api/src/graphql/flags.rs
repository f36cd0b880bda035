//! Compliance flags in the graph: `complianceFlags(filter, first, after, last, before)` and `flags` on every
//! financing. The listing is the service's (`service::flags`); this is its GraphQL shape.

use super::{
    db,
    error::{Served, gql},
    ids::{self, NodeKind},
    loader,
    loaders::{FcoCartaLoader, SocialFuelProjectLoader},
    pagination::keyset_connection,
    reports::BankReport,
    scalars::{Date, DateTime},
    types::{
        enums::Programme,
        financing::{FcoCarta, SocialFuelProject},
    },
};
use async_graphql::{Context, Enum, ID, InputObject, Object, Result, Union};
use entity::{compliance_flag, vocab};

/// How serious a flag is.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum FlagSeverity {
    /// For information.
    Info,
    /// Due within the look-ahead window.
    Warning,
    /// Overdue or violated.
    Violation,
}

impl FlagSeverity {
    fn of(s: &str) -> Self {
        match s {
            "INFO" => Self::Info,
            "WARNING" => Self::Warning,
            _ => Self::Violation,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Info => "INFO",
            Self::Warning => "WARNING",
            Self::Violation => "VIOLATION",
        }
    }
}

/// What a flag is about. Today the ingestion's cross-checks flag projects and cartas; banks, reports and economic
/// groups are subjects of the flag jobs to come.
#[derive(Union, Clone, Debug)]
pub enum FlagSubject {
    /// A social-fuel project.
    SocialFuelProject(SocialFuelProject),
    /// An FCO carta.
    FcoCarta(FcoCarta),
}

/// A compliance finding: the rule it concerns, why, and where it stands.
#[derive(Clone, Debug)]
pub struct ComplianceFlag(pub compliance_flag::Model);

/// A compliance finding: the rule it concerns, why, and where it stands.
#[Object]
impl ComplianceFlag {
    /// The flag's number.
    async fn number(&self) -> i64 {
        self.0.id
    }

    /// The rule code (`FCO-CEILING`).
    async fn rule_code(&self) -> &str {
        &self.0.rule_code
    }

    /// The rule's legal basis.
    async fn legal_basis(&self) -> &str {
        &self.0.legal_basis
    }

    /// How serious it is.
    async fn severity(&self) -> FlagSeverity {
        FlagSeverity::of(&self.0.severity)
    }

    /// What was found, with the numbers used.
    async fn message(&self) -> &str {
        &self.0.message
    }

    /// What raised it (`report:42`, `job:flag-deadlines`).
    async fn source(&self) -> &str {
        &self.0.source
    }

    /// When it was raised (on the clock of the subject's authority).
    async fn raised_at(&self) -> DateTime {
        DateTime(self.0.raised_at, super::rules::authority(self.0.programme))
    }

    /// When it was resolved, if it was.
    async fn resolved_at(&self) -> Option<DateTime> {
        self.0
            .resolved_at
            .map(|t| DateTime(t, super::rules::authority(self.0.programme)))
    }

    /// Whether it is still open.
    async fn open(&self) -> bool {
        self.0.resolved_at.is_none()
    }

    /// For a deadline, the day it falls due.
    async fn due_on(&self) -> Option<Date> {
        self.0.due_on.map(Date)
    }

    /// What it is about.
    async fn subject(&self, ctx: &Context<'_>) -> Result<Option<FlagSubject>> {
        Ok(match self.0.programme {
            vocab::Programme::SocialFuel => loader::<SocialFuelProjectLoader>(ctx)
                .load_one(self.0.financing_id)
                .await
                .map_err(gql)?
                .map(|p| FlagSubject::SocialFuelProject(SocialFuelProject(p))),
            vocab::Programme::FcoRural => loader::<FcoCartaLoader>(ctx)
                .load_one(self.0.financing_id)
                .await
                .map_err(gql)?
                .map(|c| FlagSubject::FcoCarta(FcoCarta(c))),
        })
    }

    /// The bank report whose ingestion raised it, when a report did.
    async fn bank_report(&self, ctx: &Context<'_>) -> Result<Option<BankReport>> {
        let Some(id) = service::flags::report_of(&self.0) else {
            return Ok(None);
        };
        Ok(service::reports::report(db(ctx), id).await.served(ctx)?.map(BankReport))
    }
}

keyset_connection!(
    ComplianceFlagConnection,
    ComplianceFlagEdge,
    ComplianceFlag,
    "A page of compliance flags, newest first.",
    "A compliance flag with its cursor."
);

/// An interval of instants: from (included) to (excluded).
#[derive(InputObject, Clone, Debug)]
pub struct DateTimeRange {
    /// From this instant, included.
    pub from: Option<DateTime>,
    /// Up to this instant, excluded.
    pub to: Option<DateTime>,
}

/// Which flags to list; every field narrows the list, an absent one does not.
#[derive(InputObject, Clone, Debug, Default)]
pub struct ComplianceFlagFilter {
    /// Only flags on these programmes' financings.
    pub programmes: Option<Vec<Programme>>,
    /// Only these rule codes.
    pub rule_codes: Option<Vec<String>>,
    /// Only these severities.
    pub severities: Option<Vec<FlagSeverity>>,
    /// Only flags on financings of these banks (global IDs).
    pub bank_ids: Option<Vec<ID>>,
    /// Only open (`true`) or resolved (`false`) flags.
    pub open: Option<bool>,
    /// Only flags raised in this interval.
    pub raised_between: Option<DateTimeRange>,
    /// Only flags falling due before this day.
    pub due_before: Option<Date>,
}

impl ComplianceFlagFilter {
    fn to_service(&self) -> Result<service::flags::FlagFilter> {
        let bank_ids = self
            .bank_ids
            .iter()
            .flatten()
            .map(|b| ids::arg(b, NodeKind::Bank, "filter.bankIds"))
            .collect::<Result<Vec<_>>>()?;
        Ok(service::flags::FlagFilter {
            programmes: self.programmes.iter().flatten().map(|p| (*p).into()).collect(),
            rule_codes: self.rule_codes.clone().unwrap_or_default(),
            severities: self
                .severities
                .iter()
                .flatten()
                .map(|s| s.as_str().to_owned())
                .collect(),
            bank_ids,
            open: self.open,
            raised_from: self.raised_between.as_ref().and_then(|r| r.from).map(|t| t.0),
            raised_to: self.raised_between.as_ref().and_then(|r| r.to).map(|t| t.0),
            due_before: self.due_before.map(|d| d.0),
        })
    }
}

/// Queries about compliance flags.
#[derive(Default)]
pub struct FlagsQuery;

#[Object]
impl FlagsQuery {
    /// Compliance flags, newest first, filtered. Cursors name flags, so a page asked for after another stays the same
    /// when flags are raised in between.
    async fn compliance_flags(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which flags.")] filter: Option<ComplianceFlagFilter>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<ComplianceFlagConnection> {
        let keyset = super::reports::keyset(ctx, first, after, last, before)?;
        let filter = filter.unwrap_or_default().to_service()?;
        let page = service::flags::list(db(ctx), &super::caller(ctx), &filter, keyset)
            .await
            .served(ctx)?;
        Ok(ComplianceFlagConnection::from_page(page, ComplianceFlag))
    }
}
