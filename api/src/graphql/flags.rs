//! Compliance flags in the graph: `complianceFlags(filter, first, after, last, before)`, `flags` on every financing,
//! and `resolveComplianceFlag`. The listing is the service's (`service::flags`), the flags are raised by the
//! ingestion and by the `flag-deadlines` job (`service::deadline_flags`); this is their GraphQL shape.

use super::{
    chamber::ChamberMeeting,
    db,
    error::{Served, gql},
    ids::{self, NodeKind},
    loader,
    loaders::{BankLoader, ChamberMeetingLoader, EconomicGroupLoader, FcoCartaLoader, SocialFuelProjectLoader},
    pagination::keyset_connection,
    reports::BankReport,
    scalars::{Date, DateTime},
    types::{
        enums::Programme,
        financing::{FcoCarta, SocialFuelProject},
        objects::{Bank, EconomicGroup},
    },
};
use async_graphql::{Context, Enum, ID, InputObject, Object, Result, SimpleObject, Union};
use entity::{
    compliance_flag::{self, SubjectKind},
    vocab,
};

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

/// What a flag is about: a project or carta; a bank (its monthly list, Banco do Brasil's 60-day report); a chamber
/// meeting (its result within 72 hours); an economic group (its R$ 15 M ceiling); a bank report.
#[derive(Union, Clone, Debug)]
pub enum FlagSubject {
    /// A social-fuel project.
    SocialFuelProject(SocialFuelProject),
    /// An FCO carta.
    FcoCarta(FcoCarta),
    /// A bank.
    Bank(Bank),
    /// A meeting of the CPACR chamber.
    ChamberMeeting(ChamberMeeting),
    /// An economic group.
    EconomicGroup(EconomicGroup),
    /// A bank's monthly report.
    BankReport(BankReport),
}

/// The kind of a flag's subject.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum FlagSubjectKind {
    /// A project or carta.
    Financing,
    /// A bank.
    Bank,
    /// A chamber meeting.
    Meeting,
    /// An economic group.
    Group,
    /// A bank report.
    Report,
}

impl From<FlagSubjectKind> for SubjectKind {
    fn from(k: FlagSubjectKind) -> Self {
        match k {
            FlagSubjectKind::Financing => Self::Financing,
            FlagSubjectKind::Bank => Self::Bank,
            FlagSubjectKind::Meeting => Self::Meeting,
            FlagSubjectKind::Group => Self::Group,
            FlagSubjectKind::Report => Self::Report,
        }
    }
}

impl From<SubjectKind> for FlagSubjectKind {
    fn from(k: SubjectKind) -> Self {
        match k {
            SubjectKind::Financing => Self::Financing,
            SubjectKind::Bank => Self::Bank,
            SubjectKind::Meeting => Self::Meeting,
            SubjectKind::Group => Self::Group,
            SubjectKind::Report => Self::Report,
        }
    }
}

/// The node a flag is about: its kind and key (the graph's `subject`, the analysts' page's links).
pub fn subject_node(f: &compliance_flag::Model) -> Option<(NodeKind, i64)> {
    let financing = f.financing_id.unwrap_or(f.subject_id);
    Some(match (f.subject()?, f.programme) {
        (SubjectKind::Financing, vocab::Programme::SocialFuel) => (NodeKind::SocialFuelProject, financing),
        (SubjectKind::Financing, vocab::Programme::FcoRural) => (NodeKind::FcoCarta, financing),
        (SubjectKind::Bank, _) => (NodeKind::Bank, f.subject_id),
        (SubjectKind::Meeting, _) => (NodeKind::ChamberMeeting, f.subject_id),
        (SubjectKind::Group, _) => (NodeKind::EconomicGroup, f.subject_id),
        (SubjectKind::Report, _) => (NodeKind::BankReport, f.subject_id),
    })
}

/// A compliance finding: the rule it concerns, why, and where it stands.
#[derive(Clone, Debug)]
pub struct ComplianceFlag(pub service::visible::Seen<compliance_flag::Model>);

/// A compliance finding: the rule it concerns, why, and where it stands.
#[fomento_macros::shared_fields]
#[Object]
impl ComplianceFlag {
    // `id` and `number`, as every record kept by number answers them (`fomento_macros`).
    numbered_fields!(node = ComplianceFlag, number = "The flag's number.");

    /// The rule code (`FCO-CEILING`).
    async fn rule_code(&self) -> &str {
        &self.0.rule_code
    }

    /// The rule's legal basis, cited in the request's language (`art. 3º, parágrafo único` in Portuguese, `art. 3,
    /// sole §` in English).
    async fn legal_basis(&self, ctx: &Context<'_>) -> String {
        service::l10n::legal_basis(&self.0.legal_basis, super::error::lang(ctx))
    }

    /// How serious it is.
    async fn severity(&self) -> FlagSeverity {
        FlagSeverity::of(&self.0.severity)
    }

    /// What was found, with the numbers used, in the request's language (Portuguese unless `Accept-Language` asks
    /// for English; a flag stored as text before migration 57 reads as it was stored).
    async fn message(&self, ctx: &Context<'_>) -> String {
        service::l10n::flag_message(&self.0, super::error::lang(ctx))
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

    /// Which occurrence of a recurring deadline it is about (the month of a bank's monthly list, `2026-10`).
    async fn occurrence(&self) -> Option<&str> {
        Some(self.0.occurrence.as_str()).filter(|o| !o.is_empty())
    }

    /// Who resolved it: `job:flag-deadlines` when the facts cleared it, `report:N` when a later report superseded
    /// the one that raised it, or the person who resolved it.
    async fn resolved_by(&self) -> Option<&str> {
        self.0.resolved_by.as_deref()
    }

    /// Why it was resolved, in the request's language when the flag pass resolved it (a person's reason as written).
    async fn resolution(&self, ctx: &Context<'_>) -> Option<String> {
        service::l10n::flag_resolution(&self.0, super::error::lang(ctx))
    }

    /// The kind of its subject.
    async fn subject_kind(&self) -> FlagSubjectKind {
        self.0.subject().unwrap_or(SubjectKind::Financing).into()
    }

    /// What it is about.
    async fn subject(&self, ctx: &Context<'_>) -> Result<Option<FlagSubject>> {
        let Some((kind, id)) = subject_node(&self.0) else {
            return Ok(None);
        };
        let caller = super::caller(ctx);
        Ok(match kind {
            NodeKind::SocialFuelProject => loader::<SocialFuelProjectLoader>(ctx)
                .load_one(id)
                .await
                .map_err(gql)?
                .and_then(|p| service::visible::of_bank(&caller, p))
                .map(|p| FlagSubject::SocialFuelProject(SocialFuelProject(p))),
            NodeKind::FcoCarta => loader::<FcoCartaLoader>(ctx)
                .load_one(id)
                .await
                .map_err(gql)?
                .and_then(|c| service::visible::of_bank(&caller, c))
                .map(|c| FlagSubject::FcoCarta(FcoCarta(c))),
            NodeKind::Bank => loader::<BankLoader>(ctx)
                .load_one(id)
                .await
                .map_err(gql)?
                .map(|b| FlagSubject::Bank(Bank(service::visible::public(b)))),
            NodeKind::ChamberMeeting => loader::<ChamberMeetingLoader>(ctx)
                .load_one(id)
                .await
                .map_err(gql)?
                .map(|m| FlagSubject::ChamberMeeting(ChamberMeeting(service::visible::public(m)))),
            NodeKind::EconomicGroup => match loader::<EconomicGroupLoader>(ctx).load_one(id).await.map_err(gql)? {
                Some(g) => service::visible::group(db(ctx), &caller, g)
                    .await
                    .served(ctx)?
                    .map(|g| FlagSubject::EconomicGroup(EconomicGroup(g))),
                None => None,
            },
            NodeKind::BankReport => service::reports::report(db(ctx), &caller, id)
                .await
                .served(ctx)?
                .and_then(|r| service::visible::of_bank(&caller, r))
                .map(|r| FlagSubject::BankReport(BankReport(r))),
            _ => None,
        })
    }

    /// The bank report whose ingestion raised it, when a report did.
    async fn bank_report(&self, ctx: &Context<'_>) -> Result<Option<BankReport>> {
        let Some(id) = service::flags::report_of(&self.0) else {
            return Ok(None);
        };
        let caller = super::caller(ctx);
        Ok(service::reports::report(db(ctx), &caller, id)
            .await
            .served(ctx)?
            .and_then(|r| service::visible::of_bank(&caller, r))
            .map(BankReport))
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
    /// Only flags on these kinds of subject.
    pub subject_kinds: Option<Vec<FlagSubjectKind>>,
    /// Only flags raised by this source (`job:flag-deadlines`, `report:42`).
    pub source: Option<String>,
}

impl ComplianceFlagFilter {
    /// The service's filter (for the exports too).
    pub(crate) fn to_service(&self) -> Result<service::flags::FlagFilter> {
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
            subject_kinds: self
                .subject_kinds
                .iter()
                .flatten()
                .map(|k| SubjectKind::from(*k).as_str().to_owned())
                .collect(),
            source: self.source.clone(),
        })
    }
}

super::pagination::record_order!(
    ComplianceFlagOrder,
    ComplianceFlagOrderField,
    Raised,
    "Sort order of `complianceFlags`.",
    "The order the flags were raised in."
);

/// Queries about compliance flags.
#[derive(Default)]
pub struct FlagsQuery;

#[Object]
impl FlagsQuery {
    /// Compliance flags, newest first (`orderBy` to turn it), filtered. Cursors name flags, so a page asked for after
    /// another stays the same when flags are raised in between.
    #[allow(clippy::too_many_arguments)]
    async fn compliance_flags(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which flags.")] filter: Option<ComplianceFlagFilter>,
        #[graphql(desc = "In which order: newest first by default.")] order_by: Option<ComplianceFlagOrder>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<ComplianceFlagConnection> {
        let keyset = ComplianceFlagOrder::keyset(order_by, super::pagination::keyset(ctx, first, after, last, before)?);
        let filter = filter.unwrap_or_default().to_service()?;
        let page = service::flags::list(db(ctx), &super::caller(ctx), &filter, keyset)
            .await
            .served(ctx)?;
        let page = service::visible::flag_page(db(ctx), &super::caller(ctx), page)
            .await
            .served(ctx)?;
        Ok(ComplianceFlagConnection::from_page(page, ComplianceFlag))
    }
}

/// `resolveComplianceFlag`'s input.
#[derive(InputObject, Debug)]
pub struct ResolveComplianceFlagInput {
    /// The flag's global ID.
    pub id: ID,
    /// Who resolves it (a person, with their office).
    pub resolved_by: String,
    /// Why: kept with the flag. A flag of the `flag-deadlines` job so resolved stays resolved while the facts behind
    /// it stay the same; when they change, the job raises a new one.
    pub reason: String,
}

/// `resolveComplianceFlag`'s answer.
#[derive(SimpleObject, Debug)]
pub struct ResolveComplianceFlagPayload {
    /// The flag, resolved.
    pub flag: ComplianceFlag,
}

/// Mutations about compliance flags.
#[derive(Default)]
pub struct FlagsMutation;

#[Object]
impl FlagsMutation {
    /// Resolves an open flag by hand, saying who and why (an accepted justification, a fact recorded elsewhere).
    async fn resolve_compliance_flag(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The flag, who resolves it and why.")] input: ResolveComplianceFlagInput,
    ) -> Result<ResolveComplianceFlagPayload> {
        let id = ids::arg(&input.id, NodeKind::ComplianceFlag, "input.id")?;
        let flag = service::flags::resolve_by_person(
            db(ctx),
            &super::caller(ctx),
            service::Clock::System,
            id,
            &input.resolved_by,
            &input.reason,
        )
        .await
        .served(ctx)?;
        let flag = service::visible::flag(db(ctx), &super::caller(ctx), flag)
            .await
            .served(ctx)?
            .ok_or_else(|| super::unseen(ctx))?;
        Ok(ResolveComplianceFlagPayload {
            flag: ComplianceFlag(flag),
        })
    }
}

/// Live flags, over graphql-transport-ws at `/graphql/ws`.
#[derive(Default)]
pub struct FlagsSubscription;

/// Live news over graphql-transport-ws at `/graphql/ws`.
#[async_graphql::Subscription(name = "Subscription")]
impl FlagsSubscription {
    /// Each flag as it is raised, or as its severity, due day or facts change (a warning turning violation), by
    /// whichever process raised it: the `flag-deadlines` job, a bank report's ingestion. Narrowed by `filter` as
    /// `complianceFlags` is.
    async fn flag_raised(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which flags.")] filter: Option<ComplianceFlagFilter>,
    ) -> Result<impl futures::Stream<Item = ComplianceFlag> + use<>> {
        use service::events::{FlagChange, bus};
        use tokio::sync::broadcast::error::RecvError;
        // A bank's key hears of its own flags only.
        let caller = super::caller(ctx);
        let filter = service::flags::scoped(&caller, filter.unwrap_or_default().to_service()?).served(ctx)?;
        let db = db(ctx).clone();
        let rx = bus().subscribe();
        Ok(futures::stream::unfold(
            (rx, db, filter, caller),
            |(mut rx, db, filter, caller)| async move {
                loop {
                    match rx.recv().await {
                        Ok(e) if e.change != FlagChange::Resolved => {
                            let Ok(Some(flag)) = service::flags::get(&db, e.id).await else {
                                continue;
                            };
                            if !filter.matches(&db, &flag).await.unwrap_or(false) {
                                continue;
                            }
                            if let Ok(Some(flag)) = service::visible::flag(&db, &caller, flag).await {
                                return Some((ComplianceFlag(flag), (rx, db, filter, caller)));
                            }
                        }
                        Ok(_) | Err(RecvError::Lagged(_)) => {}
                        Err(RecvError::Closed) => return None,
                    }
                }
            },
        ))
    }
}
