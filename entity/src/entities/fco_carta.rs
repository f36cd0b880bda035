//! An FCO Rural carta-consulta filed through a bank in Mato Grosso (CDAE/MT 2019).
//!
//! Size: the row, its two narrow reads (`JudgedCarta`, `Committed`) and how the carta's closed cycles and replaced
//! statements apply to it, kept beside the types they read so that those tables' modules need nothing of this one.

use super::vocab::{Decision, FcoActivity, FcoCartaStage, FcoLine, FinancingStatus};
use super::{fco_carta_cycle, fco_carta_statement};
use crate::domain::Money;
use sea_orm::entity::prelude::*;
use std::borrow::Cow;

/// A carta row with every date its rules need.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fco_carta")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The bank's number for the carta (unique per bank).
    pub number: String,
    /// The bank it was filed through.
    pub bank_id: i64,
    /// The borrower.
    pub party_id: i64,
    /// Programme line.
    pub line: FcoLine,
    /// Financed activity.
    pub activity: FcoActivity,
    /// Financed value, in centavos: at or above the threshold it goes to the chamber (art. 2 §3).
    pub financed_amount: Money,
    /// IBGE code of the municipality of the property.
    pub municipality_code: i32,
    /// Lifecycle stage.
    pub stage: FcoCartaStage,
    /// Cross-programme status, derived from the stage on every write.
    pub status: FinancingStatus,
    /// Date of submission.
    pub submitted_on: Option<Date>,
    /// When the carta reached SEDEC (at least 72 hours before the meeting, art. 2 §7).
    pub received_by_council_at: Option<DateTimeUtc>,
    /// The chamber meeting that considered it, if any.
    pub chamber_meeting_id: Option<i64>,
    /// The opinion or decision.
    pub decision: Option<Decision>,
    /// `CHAMBER` or `BANK`: who decided.
    pub decided_by: Option<String>,
    /// Date of the opinion or decision.
    pub decided_on: Option<Date>,
    /// Date of council approval: the 120-day validity counts from it (art. 3 sole §).
    pub approved_on: Option<Date>,
    /// Date the financing was contracted.
    pub contracted_on: Option<Date>,
    /// Contracted value, in centavos.
    pub contracted_amount: Option<Money>,
    /// Term in months.
    pub term_months: Option<i32>,
    /// Grace period in months (carência).
    pub grace_months: Option<i32>,
    /// The unfavourable carta this one reformulates (art. 3 sole §).
    pub resubmission_of: Option<i64>,
    /// Qualified professional for embryo transfer or fixed-time AI (art. 6 §6–8).
    pub professional_name: Option<String>,
    /// Creation time.
    pub created_at: DateTimeUtc,
    /// The bank report whose list created this carta, when a list did.
    pub created_by_report: Option<i64>,
    /// Sires the producer already has, shown in the technical project (art. 6 I c); unknown when not stated.
    pub existing_sires: Option<i32>,
    /// Whether the swine herd breeds by artificial insemination (art. 8 §5); unknown when not stated.
    pub artificial_insemination: Option<bool>,
    /// The day the borrower presented the project to the bank, the act the 120 days of a CDAE approval wait for
    /// (art. 3 sole §); unknown when not stated.
    pub presented_on: Option<Date>,
    /// A special demand the instruction does not prioritise, analysed by the chamber whatever its amount (art. 14).
    pub special_demand: bool,
    /// The borrower's name as the bank filed it on this carta (a bank reads a person under the names it sent: see
    /// `service::visible`); none when it sent none.
    pub borrower_name: Option<String>,
    /// The day a CDAE approval lapsed unpresented, the first day after its 120 days (art. 3 sole §), whenever the
    /// `expire-approvals` job recorded it: from that day the carta reads EXPIRED.
    pub expired_on: Option<Date>,
    /// The first day the stated facts as this row holds them (sires, artificial insemination, professional, term,
    /// grace, special demand) hold, once `updateFcoCarta` corrected them (none: from the carta's creation); each
    /// version a correction replaced is kept in [`super::fco_carta_statement`].
    pub stated_on: Option<Date>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// The stored stage and the dated acts of a carta, from a [`Model`] or a [`JudgedCarta`] (the same fields on both).
macro_rules! acts_of {
    ($c:expr) => {
        Acts {
            stage: $c.stage,
            submitted_on: $c.submitted_on,
            received_by_council_at: $c.received_by_council_at,
            decided_on: $c.decided_on,
            decision: $c.decision,
            approved_on: $c.approved_on,
            contracted_on: $c.contracted_on,
            expired_on: $c.expired_on,
        }
    };
}

/// A carta as its rules judge it: the columns a rule or a pass that judges cartas reads ([`JUDGED`]), and no
/// others (not its status, which follows from its stage, nor its creation, creating report and the borrower's filed
/// name). A pass over every carta reads it narrow, by position; one carta judged alone is its [`Model`] converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgedCarta {
    /// Surrogate key.
    pub id: i64,
    /// The bank's number for the carta (unique per bank).
    pub number: String,
    /// The bank it was filed through.
    pub bank_id: i64,
    /// The borrower.
    pub party_id: i64,
    /// Programme line.
    pub line: FcoLine,
    /// Financed activity.
    pub activity: FcoActivity,
    /// Financed value, in centavos.
    pub financed_amount: Money,
    /// IBGE code of the municipality of the property (FCO-RESUBMIT compares it).
    pub municipality_code: i32,
    /// Lifecycle stage.
    pub stage: FcoCartaStage,
    /// Date of submission.
    pub submitted_on: Option<Date>,
    /// When the carta reached SEDEC.
    pub received_by_council_at: Option<DateTimeUtc>,
    /// The chamber meeting that considered it, if any.
    pub chamber_meeting_id: Option<i64>,
    /// The opinion or decision.
    pub decision: Option<Decision>,
    /// `CHAMBER` or `BANK`: who decided.
    pub decided_by: Option<String>,
    /// Date of the opinion or decision.
    pub decided_on: Option<Date>,
    /// Date of council approval.
    pub approved_on: Option<Date>,
    /// Date the financing was contracted.
    pub contracted_on: Option<Date>,
    /// Contracted value, in centavos.
    pub contracted_amount: Option<Money>,
    /// Term in months.
    pub term_months: Option<i32>,
    /// Grace period in months.
    pub grace_months: Option<i32>,
    /// The unfavourable carta this one reformulates.
    pub resubmission_of: Option<i64>,
    /// Qualified professional for embryo transfer or fixed-time AI.
    pub professional_name: Option<String>,
    /// Sires the producer already has; unknown when not stated.
    pub existing_sires: Option<i32>,
    /// Whether the swine herd breeds by artificial insemination; unknown when not stated.
    pub artificial_insemination: Option<bool>,
    /// The day the borrower presented the project to the bank; unknown when not stated.
    pub presented_on: Option<Date>,
    /// A special demand the instruction does not prioritise.
    pub special_demand: bool,
    /// The day a CDAE approval lapsed unpresented, once recorded.
    pub expired_on: Option<Date>,
    /// The first day the stated facts as held here hold (none: from the carta's creation).
    pub stated_on: Option<Date>,
}

/// The columns of a [`JudgedCarta`], in its field order (a test in `service::positional` holds the two together).
pub const JUDGED: [Column; 28] = [
    Column::Id,
    Column::Number,
    Column::BankId,
    Column::PartyId,
    Column::Line,
    Column::Activity,
    Column::FinancedAmount,
    Column::MunicipalityCode,
    Column::Stage,
    Column::SubmittedOn,
    Column::ReceivedByCouncilAt,
    Column::ChamberMeetingId,
    Column::Decision,
    Column::DecidedBy,
    Column::DecidedOn,
    Column::ApprovedOn,
    Column::ContractedOn,
    Column::ContractedAmount,
    Column::TermMonths,
    Column::GraceMonths,
    Column::ResubmissionOf,
    Column::ProfessionalName,
    Column::ExistingSires,
    Column::ArtificialInsemination,
    Column::PresentedOn,
    Column::SpecialDemand,
    Column::ExpiredOn,
    Column::StatedOn,
];

impl From<&Model> for JudgedCarta {
    fn from(c: &Model) -> Self {
        Self::from(c.clone())
    }
}

impl From<Model> for JudgedCarta {
    fn from(c: Model) -> Self {
        Self {
            id: c.id,
            number: c.number,
            bank_id: c.bank_id,
            party_id: c.party_id,
            line: c.line,
            activity: c.activity,
            financed_amount: c.financed_amount,
            municipality_code: c.municipality_code,
            stage: c.stage,
            submitted_on: c.submitted_on,
            received_by_council_at: c.received_by_council_at,
            chamber_meeting_id: c.chamber_meeting_id,
            decision: c.decision,
            decided_by: c.decided_by,
            decided_on: c.decided_on,
            approved_on: c.approved_on,
            contracted_on: c.contracted_on,
            contracted_amount: c.contracted_amount,
            term_months: c.term_months,
            grace_months: c.grace_months,
            resubmission_of: c.resubmission_of,
            professional_name: c.professional_name,
            existing_sires: c.existing_sires,
            artificial_insemination: c.artificial_insemination,
            presented_on: c.presented_on,
            special_demand: c.special_demand,
            expired_on: c.expired_on,
            stated_on: c.stated_on,
        }
    }
}

impl JudgedCarta {
    /// Its cross-programme status, which follows from its stage (as every write stores it).
    pub fn status(&self) -> FinancingStatus {
        self.stage.status()
    }

    /// The carta as it was known at the end of `as_of`: the approval cycle in force that day (one of `closed`, the
    /// carta's cycles an amendment closed, when the day is before the reopening: [`fco_carta_cycle::in_force`]), with
    /// every act of it dated later not yet done (its date and what it set are cleared) and the stage following from
    /// what remains. Every reader that judges or counts a carta `asOf` a day reads it through here, so a decision,
    /// approval or contract recorded later is not used as if known, and an amendment that reopened the approval later
    /// does not hide the approval of the day. Borrowed when the stored carta is the one known (the usual case: the flag
    /// pass judges a million cartas, nearly all as stored). `closed` may be left empty when
    /// [`JudgedCarta::in_earlier_cycle_on`] says no earlier cycle can be in force.
    ///
    /// The facts the carta states are those of the version in force that day ([`statement_in_force`]):
    /// `stated` are the versions corrections replaced, and may be left empty when [`JudgedCarta::restated_after`] says no
    /// correction took effect after the day.
    pub fn known_on<'a>(
        &'a self,
        closed: &[fco_carta_cycle::Model],
        stated: &[fco_carta_statement::Model],
        as_of: Date,
    ) -> Cow<'a, JudgedCarta> {
        let known = if let Some(cycle) = fco_carta_cycle::in_force(closed, as_of) {
            Cow::Owned(cycle.applied_to(self).cleared_after(as_of))
        } else if self.staged_after(as_of) || self.presented_on.is_some_and(|d| d > as_of) {
            Cow::Owned(self.cleared_after(as_of))
        } else {
            Cow::Borrowed(self)
        };
        match statement_in_force(self, stated, as_of) {
            Some(version) => Cow::Owned(version.applied_to(&known)),
            None => known,
        }
    }

    /// [`JudgedCarta::known_on`], owned.
    pub fn as_known_on(
        &self,
        closed: &[fco_carta_cycle::Model],
        stated: &[fco_carta_statement::Model],
        as_of: Date,
    ) -> JudgedCarta {
        self.known_on(closed, stated, as_of).into_owned()
    }

    /// Whether a correction of the stated facts took effect after `as_of`, so that an earlier version may hold that
    /// day: a reader reads a carta's earlier statements for these cartas alone.
    pub fn restated_after(&self, as_of: Date) -> bool {
        self.stated_on.is_some_and(|d| d > as_of)
    }

    /// Whether an earlier approval cycle may be in force at the end of `as_of`: only when the carta was submitted
    /// after it, since the open cycle after a reopening is submitted the day the last earlier one closed. A reader
    /// reads a carta's closed cycles for these cartas alone.
    pub fn in_earlier_cycle_on(&self, as_of: Date) -> bool {
        self.submitted_on.is_some_and(|d| d > as_of)
    }

    /// This cycle of the carta at the end of `as_of`: every act dated later is not yet done and the stage follows
    /// from what remains.
    fn cleared_after(&self, as_of: Date) -> JudgedCarta {
        let mut c = self.clone();
        let by = |d: Option<Date>| d.filter(|d| *d <= as_of);
        c.submitted_on = by(c.submitted_on);
        c.received_by_council_at = c
            .received_by_council_at
            .filter(|t| crate::domain::brasilia_date(*t) <= as_of);
        // On a meeting's agenda from the day SEDEC received it (the placement's day), never before it was submitted.
        if c.submitted_on.is_none() || (self.received_by_council_at.is_some() && c.received_by_council_at.is_none()) {
            c.chamber_meeting_id = None;
        }
        if c.decided_on.is_some_and(|d| d > as_of) {
            c.decided_on = None;
            c.decision = None;
            c.decided_by = None;
        }
        c.approved_on = by(c.approved_on);
        c.presented_on = by(c.presented_on);
        if c.contracted_on.is_some_and(|d| d > as_of) {
            c.contracted_on = None;
            c.contracted_amount = None;
        }
        c.expired_on = by(c.expired_on);
        if c != *self {
            c.stage = if c.contracted_on.is_some() {
                FcoCartaStage::Contracted
            } else if c.expired_on.is_some() {
                FcoCartaStage::Expired
            } else if c.approved_on.is_some() {
                FcoCartaStage::Approved
            } else if c.decision == Some(super::vocab::Decision::Unfavourable) {
                FcoCartaStage::Unfavourable
            } else if c.submitted_on.is_some() {
                FcoCartaStage::Submitted
            } else {
                FcoCartaStage::Draft
            };
        }
        c
    }

    /// Whether an act that sets the stage (submission, receipt by the council, decision, approval, contract, expiry) is
    /// dated after `as_of`.
    fn staged_after(&self, as_of: Date) -> bool {
        self.acts().after(as_of)
    }

    /// The stored stage and the dated acts that set it.
    pub fn acts(&self) -> Acts {
        acts_of!(self)
    }
}

impl Model {
    /// The stored stage and the dated acts that set it.
    pub fn acts(&self) -> Acts {
        acts_of!(self)
    }
}

/// A carta's stored stage and the dated acts that set it: enough to know its stage on a day
/// ([`Acts::stage_on`]), for a pass that reads many cartas' stages and nothing else of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acts {
    /// The stored stage.
    pub stage: FcoCartaStage,
    /// Filed with the bank.
    pub submitted_on: Option<Date>,
    /// Received by the council.
    pub received_by_council_at: Option<DateTimeUtc>,
    /// Decided.
    pub decided_on: Option<Date>,
    /// The decision.
    pub decision: Option<Decision>,
    /// Approved.
    pub approved_on: Option<Date>,
    /// Contracted.
    pub contracted_on: Option<Date>,
    /// Lapsed unpresented (the approval expired).
    pub expired_on: Option<Date>,
}

impl Acts {
    /// Whether an act that sets the stage is dated after `as_of`.
    pub fn after(&self, as_of: Date) -> bool {
        let later = |d: Option<Date>| d.is_some_and(|d| d > as_of);
        later(self.submitted_on)
            || self
                .received_by_council_at
                .is_some_and(|t| crate::domain::brasilia_date(t) > as_of)
            || later(self.decided_on)
            || later(self.approved_on)
            || later(self.contracted_on)
            || later(self.expired_on)
    }

    /// [`Acts::after`]'s negation as a condition the database checks: no act that sets the stage is dated after
    /// `as_of` (a row whose stage on the day is its stored stage). Written column by column as "empty or not
    /// later", since `NOT (a > d OR ...)` drops the rows where a date is empty.
    pub fn none_after_sql(as_of: Date) -> sea_orm::Condition {
        let not_later = |c: Column| sea_orm::Condition::any().add(c.is_null()).add(c.lte(as_of));
        sea_orm::Condition::all()
            .add(not_later(Column::SubmittedOn))
            .add(
                sea_orm::Condition::any()
                    .add(Column::ReceivedByCouncilAt.is_null())
                    .add(Column::ReceivedByCouncilAt.lt(crate::domain::brasilia_day_end(as_of))),
            )
            .add(not_later(Column::DecidedOn))
            .add(not_later(Column::ApprovedOn))
            .add(not_later(Column::ContractedOn))
            .add(not_later(Column::ExpiredOn))
    }

    /// The stage as known at the end of `as_of` (that of [`JudgedCarta::known_on`] for one cycle).
    pub fn stage_on(&self, as_of: Date) -> FcoCartaStage {
        if !self.after(as_of) {
            return self.stage;
        }
        let known = |d: Option<Date>| d.is_some_and(|d| d <= as_of);
        if known(self.contracted_on) {
            FcoCartaStage::Contracted
        } else if known(self.expired_on) {
            FcoCartaStage::Expired
        } else if known(self.approved_on) {
            FcoCartaStage::Approved
        } else if known(self.decided_on) && self.decision == Some(super::vocab::Decision::Unfavourable) {
            FcoCartaStage::Unfavourable
        } else if known(self.submitted_on) {
            FcoCartaStage::Submitted
        } else {
            FcoCartaStage::Draft
        }
    }
}

/// What a borrower group's committed carta counts toward FCO-CEILING, FCO-WEANED-2000 and art. 9: its borrower,
/// activity, amount and stage (read narrow: a pass holds every committed carta at once), in the approval cycle in
/// force on the day ([`Committed::in_force`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Committed {
    /// Surrogate key.
    pub id: i64,
    /// The borrower.
    pub party_id: i64,
    /// The activity.
    pub activity: FcoActivity,
    /// Financed amount in the open cycle.
    pub financed_amount: Money,
    /// The open cycle's stored stage and its acts.
    pub acts: Acts,
    /// The approval cycles an amendment closed, when the carta has any: a day before the reopening counts the
    /// amount and stage of its cycle then.
    pub earlier: Vec<fco_carta_cycle::Model>,
}

impl Committed {
    /// The columns a pass reads of a committed carta, in the order of its fields (`service::positional::committed`).
    pub const COLUMNS: [Column; 12] = [
        Column::Id,
        Column::PartyId,
        Column::Activity,
        Column::FinancedAmount,
        Column::Stage,
        Column::SubmittedOn,
        Column::ReceivedByCouncilAt,
        Column::DecidedOn,
        Column::Decision,
        Column::ApprovedOn,
        Column::ContractedOn,
        Column::ExpiredOn,
    ];

    /// The amount and acts of the cycle in force at the end of `as_of` ([`fco_carta_cycle::in_force`], as
    /// [`JudgedCarta::known_on`] chooses it).
    pub fn in_force(&self, as_of: Date) -> (Money, Acts) {
        match fco_carta_cycle::in_force(&self.earlier, as_of) {
            Some(cycle) => (cycle.financed_amount, cycle.acts()),
            None => (self.financed_amount, self.acts),
        }
    }

    /// Its stage as known at the end of `as_of`.
    pub fn stage_on(&self, as_of: Date) -> FcoCartaStage {
        self.in_force(as_of).1.stage_on(as_of)
    }

    /// The amount it commits to its borrower group at the end of `as_of`: that of its cycle then, when approved or
    /// contracted by then.
    pub fn committed_on(&self, as_of: Date) -> Option<Money> {
        let (amount, acts) = self.in_force(as_of);
        COMMITTED.contains(&acts.stage_on(as_of)).then_some(amount)
    }
}

/// The stages in which a carta commits money to its borrower group: what FCO-CEILING and FCO-WEANED-2000 add up.
pub const COMMITTED: [FcoCartaStage; 2] = [FcoCartaStage::Approved, FcoCartaStage::Contracted];

/// The stored stages of a carta that may have committed money on an earlier day: the committed ones and an expired
/// approval, which counted until the day it lapsed (art. 3 sole §; [`Acts::stage_on`] reads it APPROVED before its
/// `expired_on`). Every reader that counts a group's commitments `asOf` a day starts from these.
pub const COMMITTED_SOMETIME: [FcoCartaStage; 3] = [
    FcoCartaStage::Approved,
    FcoCartaStage::Contracted,
    FcoCartaStage::Expired,
];

// How a carta's closed cycles and replaced statements apply to it: here, so that those two tables' modules know
// nothing of the carta.

/// The version of `c`'s stated facts in force at the end of `day` when it is one a correction replaced (`stated`,
/// in the order recorded); none when the carta row's version holds (from its `stated_on`, or always when no
/// correction was made). The one choice of a version by day.
fn statement_in_force<'a>(
    c: &JudgedCarta,
    stated: &'a [fco_carta_statement::Model],
    day: Date,
) -> Option<&'a fco_carta_statement::Model> {
    if !c.restated_after(day) {
        return None;
    }
    stated
        .iter()
        .filter(|v| v.carta_id == c.id && v.effective_on.is_none_or(|d| d <= day))
        .max_by_key(|v| v.id)
}

impl fco_carta_cycle::Model {
    /// Cycle `number` of carta `c` as it stands, closed on `on` by amendment `amendment`.
    pub fn closing(c: &Model, number: i32, on: Date, amendment: i64) -> fco_carta_cycle::ActiveModel {
        use sea_orm::ActiveValue::Set;
        fco_carta_cycle::ActiveModel {
            carta_id: Set(c.id),
            number: Set(number),
            financed_amount: Set(c.financed_amount),
            stage: Set(c.stage),
            submitted_on: Set(c.submitted_on),
            received_by_council_at: Set(c.received_by_council_at),
            chamber_meeting_id: Set(c.chamber_meeting_id),
            decision: Set(c.decision),
            decided_by: Set(c.decided_by.clone()),
            decided_on: Set(c.decided_on),
            approved_on: Set(c.approved_on),
            presented_on: Set(c.presented_on),
            contracted_on: Set(c.contracted_on),
            contracted_amount: Set(c.contracted_amount),
            closed_on: Set(on),
            closed_by_amendment_id: Set(amendment),
            ..Default::default()
        }
    }

    /// Carta `c` as this cycle left it: the cycle's fields over the carta's own (its number, borrower, line, items'
    /// carta and the rest do not change with a cycle).
    pub fn applied_to(&self, c: &JudgedCarta) -> JudgedCarta {
        JudgedCarta {
            financed_amount: self.financed_amount,
            stage: self.stage,
            submitted_on: self.submitted_on,
            received_by_council_at: self.received_by_council_at,
            chamber_meeting_id: self.chamber_meeting_id,
            decision: self.decision,
            decided_by: self.decided_by.clone(),
            decided_on: self.decided_on,
            approved_on: self.approved_on,
            presented_on: self.presented_on,
            contracted_on: self.contracted_on,
            contracted_amount: self.contracted_amount,
            expired_on: None,
            ..c.clone()
        }
    }

    /// The cycle's stage and the dated acts that set it.
    pub fn acts(&self) -> Acts {
        Acts {
            stage: self.stage,
            submitted_on: self.submitted_on,
            received_by_council_at: self.received_by_council_at,
            decided_on: self.decided_on,
            decision: self.decision,
            approved_on: self.approved_on,
            contracted_on: self.contracted_on,
            // A cycle an amendment closed was approved or contracted: none lapsed.
            expired_on: None,
        }
    }
}

impl fco_carta_statement::Model {
    /// The version of carta `c` as it stands, replaced by `by` because `reason`.
    pub fn replacing(c: &Model, by: &str, reason: &str) -> fco_carta_statement::ActiveModel {
        use sea_orm::ActiveValue::Set;
        fco_carta_statement::ActiveModel {
            carta_id: Set(c.id),
            existing_sires: Set(c.existing_sires),
            artificial_insemination: Set(c.artificial_insemination),
            professional_name: Set(c.professional_name.clone()),
            term_months: Set(c.term_months),
            grace_months: Set(c.grace_months),
            special_demand: Set(c.special_demand),
            effective_on: Set(c.stated_on),
            replaced_by: Set(by.to_owned()),
            change_reason: Set(reason.to_owned()),
            ..Default::default()
        }
    }

    /// Carta `c` with this version's stated facts.
    pub fn applied_to(&self, c: &JudgedCarta) -> JudgedCarta {
        JudgedCarta {
            existing_sires: self.existing_sires,
            artificial_insemination: self.artificial_insemination,
            professional_name: self.professional_name.clone(),
            term_months: self.term_months,
            grace_months: self.grace_months,
            special_demand: self.special_demand,
            stated_on: self.effective_on,
            ..c.clone()
        }
    }
}
