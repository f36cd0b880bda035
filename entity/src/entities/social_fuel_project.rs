//! A biodiesel producer's project seeking the social framing (IN MDA nº 2/2005).

use super::vocab::{Decision, FinancingStatus, SocialFuelStage};
use crate::domain::Money;
use sea_orm::entity::prelude::*;

/// A social-fuel project row with every date its rules need.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "social_fuel_project")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Title of the project.
    pub title: String,
    /// The bank where financing is sought (art. 7).
    pub bank_id: i64,
    /// The producer company.
    pub party_id: i64,
    /// IBGE code of the plant's municipality: its region sets the minimum share (art. 3).
    pub plant_municipality_code: i32,
    /// Financing sought, in centavos.
    pub requested_amount: Money,
    /// Lifecycle stage.
    pub stage: SocialFuelStage,
    /// Cross-programme status, derived from the stage on every write.
    pub status: FinancingStatus,
    /// Date of the bank's framing letter (art. 7).
    pub bank_framed_on: Option<Date>,
    /// Whether the bank, under a cooperation agreement, analyses the social criteria itself (art. 7).
    pub analysed_by_bank: bool,
    /// Filing date (protocolização): starts the 30-day decision clock (art. 9).
    pub filed_on: Option<Date>,
    /// MDA's decision (art. 9).
    pub decision: Option<Decision>,
    /// Date of the decision letter (ofício).
    pub decided_on: Option<Date>,
    /// Reference of the decision letter.
    pub decision_letter: Option<String>,
    /// Date the bank approved the financing (art. 10).
    pub financing_approved_on: Option<Date>,
    /// Scheduled end of implementation in the physical-financial schedule (art. 10).
    pub scheduled_implementation_end: Option<Date>,
    /// Whether the bank accepted a schedule delay (art. 10).
    pub schedule_delay_accepted: bool,
    /// Start of industrial operations (art. 10, 11).
    pub industrial_start_on: Option<Date>,
    /// Date MDA's external evaluation started (art. 11).
    pub evaluation_started_on: Option<Date>,
    /// Date MDA's external evaluation concluded (art. 11).
    pub external_evaluation_on: Option<Date>,
    /// Outcome of the external evaluation.
    pub evaluation_result: Option<Decision>,
    /// Date the seal was requested (art. 11 I).
    pub seal_requested_on: Option<Date>,
    /// Date the 6-month extension was requested (art. 11 §2).
    pub extension_requested_on: Option<Date>,
    /// The company's justification for the extension.
    pub extension_justification: Option<String>,
    /// Date MDA granted the extension (art. 11 §2, "poderá": MDA decides).
    pub extension_granted_on: Option<Date>,
    /// Date MDA refused the extension.
    pub extension_refused_on: Option<Date>,
    /// MDA's reason for granting or refusing the extension.
    pub extension_decision_reason: Option<String>,
    /// What the external evaluation found, on non-conformity, as MDA wrote it; none when MDA said nothing (read as
    /// the catalogue's default finding, `rules::social_fuel::finding`).
    pub evaluation_finding: Option<String>,
    /// Date MDA accepted the company's justifications and contestations of a non-conformity (art. 11 II): the
    /// framing is kept.
    pub justifications_accepted_on: Option<Date>,
    /// Why MDA accepted them.
    pub justifications_reason: Option<String>,
    /// Date of unframing (art. 11 II).
    pub unframed_on: Option<Date>,
    /// Why the project was unframed.
    pub unframing_reason: Option<String>,
    /// Creation time.
    pub created_at: DateTimeUtc,
    /// What a non-conformity letter says the analysis was based on (art. 9 II).
    pub decision_grounds: Option<String>,
    /// Who signed the decision letter: the Secretary of Family Agriculture or a legal representative (art. 9 I–II).
    pub decision_signatory: Option<String>,
    /// Date the company filed its justifications and contestations of a non-conformity (art. 11 II).
    pub justifications_filed_on: Option<Date>,
    /// What the company's justifications and contestations say.
    pub justifications_content: Option<String>,
    /// Date MDA notified the bank that approved the project (art. 11 II and §1).
    pub bank_notified_on: Option<Date>,
    /// Reference of MDA's notice to the bank.
    pub bank_notice_reference: Option<String>,
    /// Date the company presented its physical-financial schedule to MDA (art. 10 caput).
    pub schedule_presented_on: Option<Date>,
    /// Date the bank accepted a delay of the implementation schedule: the bank's own act, without which MDA accepts no
    /// delay (art. 10 §2).
    pub delay_bank_accepted_on: Option<Date>,
    /// Who at the bank accepted the delay (officer, department or letter), as the bank states it.
    pub delay_bank_accepted_by: Option<String>,
    /// Date MDA updated the public database on its website with the unframing (art. 11 II).
    pub public_update_on: Option<Date>,
    /// Where the update was published (address or reference).
    pub public_update_reference: Option<String>,
    /// The day MDA accepted the delay of the implementation schedule (art. 10 §2), after the bank's acceptance; none
    /// with `schedule_delay_accepted` for a project recorded before the day was kept (accepted from the start).
    pub delay_accepted_on: Option<Date>,
    /// The implementation end scheduled before the first delay MDA accepted: the schedule ends on it until the
    /// acceptance's day (none: no delay accepted, or accepted before the earlier end was kept).
    pub original_implementation_end: Option<Date>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

/// The default finding as it was stored, in English, before it became a catalogue message (`sf-finding-default`,
/// `rules::social_fuel::finding`).
pub const STORED_DEFAULT_FINDING: &str = "external evaluation found non-conformity";

impl Model {
    /// The project as it was known at the end of `as_of`: every act dated later (framing, filing, decision, financing
    /// approval, schedule presentation, the bank's acceptance of a delay, industrial start, evaluation, seal request,
    /// extension, unframing, notice and public update, MDA's acceptance of a delay) is not yet done, and what it set is
    /// cleared. Rules judged `asOf` a date read this. The scheduled implementation end is a plan, not an act: kept,
    /// but before MDA accepted a delay it is the end scheduled before the delay.
    pub fn as_known_on(&self, as_of: Date) -> Model {
        let mut p = self.clone();
        let by = |d: Option<Date>| d.filter(|d| *d <= as_of);
        p.bank_framed_on = by(p.bank_framed_on);
        p.filed_on = by(p.filed_on);
        if p.decided_on.is_some_and(|d| d > as_of) {
            p.decided_on = None;
            p.decision = None;
            p.decision_letter = None;
            p.decision_grounds = None;
            p.decision_signatory = None;
        }
        p.financing_approved_on = by(p.financing_approved_on);
        p.industrial_start_on = by(p.industrial_start_on);
        p.evaluation_started_on = by(p.evaluation_started_on);
        if p.external_evaluation_on.is_some_and(|d| d > as_of) {
            p.external_evaluation_on = None;
            p.evaluation_result = None;
        }
        p.seal_requested_on = by(p.seal_requested_on);
        if p.extension_requested_on.is_some_and(|d| d > as_of) {
            p.extension_requested_on = None;
            p.extension_justification = None;
        }
        p.extension_granted_on = by(p.extension_granted_on);
        p.extension_refused_on = by(p.extension_refused_on);
        if p.extension_granted_on.is_none() && p.extension_refused_on.is_none() {
            p.extension_decision_reason = None;
        }
        if p.external_evaluation_on.is_none() {
            p.evaluation_finding = None;
        }
        if p.justifications_accepted_on.is_some_and(|d| d > as_of) {
            p.justifications_accepted_on = None;
            p.justifications_reason = None;
        }
        if p.justifications_filed_on.is_some_and(|d| d > as_of) {
            p.justifications_filed_on = None;
            p.justifications_content = None;
        }
        if p.bank_notified_on.is_some_and(|d| d > as_of) {
            p.bank_notified_on = None;
            p.bank_notice_reference = None;
        }
        p.schedule_presented_on = by(p.schedule_presented_on);
        if p.delay_bank_accepted_on.is_some_and(|d| d > as_of) {
            p.delay_bank_accepted_on = None;
            p.delay_bank_accepted_by = None;
        }
        if p.delay_accepted_on.is_some_and(|d| d > as_of) {
            p.delay_accepted_on = None;
            p.schedule_delay_accepted = false;
            if let Some(end) = p.original_implementation_end {
                p.scheduled_implementation_end = Some(end);
            }
        }
        if p.public_update_on.is_some_and(|d| d > as_of) {
            p.public_update_on = None;
            p.public_update_reference = None;
        }
        if p.unframed_on.is_some_and(|d| d > as_of) {
            p.unframed_on = None;
            p.unframing_reason = None;
        }
        p
    }
}
