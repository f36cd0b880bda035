//! The lifecycles of both programmes as explicit state machines. A transition either returns the financing as it
//! becomes, or a [`Violation`] naming the rule that forbids it, its legal basis, and why.
//!
//! Size: the two state machines side by side, so that their guards read alike; each transition is one match arm.

use super::{
    Explanation, RuleCode, Texts,
    calendar::Calendar,
    code,
    fco::needs_chamber,
    params::{ParamError, Params},
};
use crate::{
    domain::Money,
    entities::{
        fco_carta, social_fuel_project,
        vocab::{Decision, FcoCartaStage, ProjectDocumentKind, SocialFuelStage},
    },
};
use chrono::NaiveDate;
use sea_orm::ActiveEnum;

/// A refused transition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule that forbids it.
    pub code: &'static str,
    /// Its legal basis.
    pub legal_basis: &'static str,
    /// Why, in the user's terms.
    pub explanation: Explanation,
}

fn violation(code: RuleCode, explanation: Explanation) -> Violation {
    // An explanation, not a text: a refusal is read in the request's language, from the catalogue.
    Violation {
        code: code.as_str(),
        legal_basis: code.legal_basis(),
        explanation,
    }
}

/// Refuses an act that leaves a rule violated, with the rule's own outcome: the guard and the rule are one check.
fn refused_by(outcome: super::Outcome) -> Result<(), Violation> {
    if outcome.status != super::Status::Violated {
        return Ok(());
    }
    Err(Violation {
        code: outcome.code,
        legal_basis: outcome.legal_basis,
        explanation: outcome.explanation,
    })
}

impl From<ParamError> for Violation {
    fn from(e: ParamError) -> Self {
        Violation {
            code: "PARAMETERS",
            legal_basis: "",
            explanation: e.problem(),
        }
    }
}

/// Events of a social-fuel project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SfEvent {
    /// The company files the request with MDA (art. 8).
    File {
        /// Filing date.
        on: NaiveDate,
    },
    /// MDA decides (art. 9).
    Decide {
        /// Date of the letter.
        on: NaiveDate,
        /// Conformity or not.
        decision: Decision,
        /// Letter reference.
        letter: Option<String>,
        /// What the analysis was based on: required of a non-conformity letter (art. 9 II).
        grounds: Option<String>,
        /// Who signed the letter (art. 9 I–II: the Secretary of Family Agriculture or a legal representative).
        signatory: Option<String>,
    },
    /// The bank approves the financing and the schedule is presented (art. 10).
    ApproveFinancing {
        /// Approval date.
        on: NaiveDate,
        /// Scheduled end of implementation.
        scheduled_end: Option<NaiveDate>,
    },
    /// Industrial operation starts (art. 10, 11).
    StartOperation {
        /// Start date.
        on: NaiveDate,
    },
    /// MDA starts the external evaluation (art. 11).
    StartEvaluation {
        /// Start date.
        on: NaiveDate,
    },
    /// MDA concludes the external evaluation (art. 11 I–II).
    ConcludeEvaluation {
        /// Conclusion date.
        on: NaiveDate,
        /// Conformity or not.
        result: Decision,
        /// Why, on non-conformity.
        reason: Option<String>,
    },
    /// The company requests the seal (art. 11 I).
    RequestSeal {
        /// Request date.
        on: NaiveDate,
    },
    /// The company asks for the one 6-month extension (art. 11 §2).
    RequestExtension {
        /// Request date.
        on: NaiveDate,
        /// The company's justification.
        justification: String,
        /// Whether the contracted purchases are honoured.
        purchases_honoured: bool,
        /// Whether the contracted farmers have technical assistance.
        farmers_assisted: bool,
    },
    /// MDA decides the extension the company asked for (art. 11 §2: it "poderá" be kept).
    DecideExtension {
        /// Date of MDA's decision.
        on: NaiveDate,
        /// Granted or refused.
        granted: bool,
        /// MDA's reason.
        reason: String,
    },
    /// MDA accepts the company's justifications and contestations of the non-conformity found (art. 11 II): the
    /// framing is kept and the seal may be requested.
    AcceptJustifications {
        /// Date.
        on: NaiveDate,
        /// Why MDA accepted them.
        reason: String,
    },
    /// MDA did not accept the justifications: the framing is lost (art. 11 II).
    Unframe {
        /// Date.
        on: NaiveDate,
        /// Why.
        reason: String,
    },
}

impl SfEvent {
    /// The act, as MDA's staff name it.
    pub fn name_pt(&self) -> &'static str {
        match self {
            Self::File { .. } => "protocolar o pedido",
            Self::Decide { .. } => "decidir o enquadramento",
            Self::ApproveFinancing { .. } => "aprovar o financiamento",
            Self::StartOperation { .. } => "iniciar a operação industrial",
            Self::StartEvaluation { .. } => "iniciar a avaliação externa",
            Self::ConcludeEvaluation { .. } => "concluir a avaliação externa",
            Self::RequestSeal { .. } => "solicitar o selo",
            Self::RequestExtension { .. } => "pedir a prorrogação",
            Self::DecideExtension { .. } => "decidir a prorrogação",
            Self::AcceptJustifications { .. } => "acatar as justificativas",
            Self::Unframe { .. } => "desenquadrar",
        }
    }

    /// The event's name in the history.
    pub fn name(&self) -> &'static str {
        match self {
            Self::File { .. } => "FILE",
            Self::Decide { .. } => "DECIDE",
            Self::ApproveFinancing { .. } => "APPROVE_FINANCING",
            Self::StartOperation { .. } => "START_OPERATION",
            Self::StartEvaluation { .. } => "START_EVALUATION",
            Self::ConcludeEvaluation { .. } => "CONCLUDE_EVALUATION",
            Self::RequestSeal { .. } => "REQUEST_SEAL",
            Self::RequestExtension { .. } => "REQUEST_EXTENSION",
            Self::DecideExtension { .. } => "DECIDE_EXTENSION",
            Self::AcceptJustifications { .. } => "ACCEPT_JUSTIFICATIONS",
            Self::Unframe { .. } => "UNFRAME",
        }
    }

    /// The event's legal date.
    pub fn on(&self) -> NaiveDate {
        match self {
            Self::File { on }
            | Self::Decide { on, .. }
            | Self::ApproveFinancing { on, .. }
            | Self::StartOperation { on }
            | Self::StartEvaluation { on }
            | Self::ConcludeEvaluation { on, .. }
            | Self::RequestSeal { on }
            | Self::RequestExtension { on, .. }
            | Self::DecideExtension { on, .. }
            | Self::AcceptJustifications { on, .. }
            | Self::Unframe { on, .. } => *on,
        }
    }
}

/// An act dated before the act it follows is refused: `act` names the earlier act (`filing`, `submission`, …: a key
/// of `explain-not-before`).
fn not_before(code: RuleCode, on: NaiveDate, earlier: Option<NaiveDate>, act: &'static str) -> Result<(), Violation> {
    match earlier {
        Some(e) if on < e => Err(violation(
            code,
            Explanation::message("explain-not-before")
                .arg("on", on)
                .arg("act", act)
                .arg("earlier", e),
        )),
        _ => Ok(()),
    }
}

/// A stage of either lifecycle: its name as the staff say it, beside its stored value.
pub trait Stage: ActiveEnum<Value = String> + Copy {
    /// The name as the staff say it.
    fn name_pt(self) -> &'static str;
}

impl Stage for SocialFuelStage {
    fn name_pt(self) -> &'static str {
        SocialFuelStage::name_pt(self)
    }
}

impl Stage for FcoCartaStage {
    fn name_pt(self) -> &'static str {
        FcoCartaStage::name_pt(self)
    }
}

/// The explanation `message` of an act its financing's `stage` does not allow, naming the stage (`stage`, `stage_code`)
/// as every such refusal does.
pub fn in_stage<S: Stage>(message: &'static str, stage: S) -> Explanation {
    Explanation::message(message)
        .arg("stage", stage.name_pt())
        .arg("stage_code", stage.to_value())
}

/// An event refused because the financing is in the wrong stage: `what` (`project`, `carta`) names the financing,
/// `stage` is where it is, `event` the act as the staff name it, and `needs` the stages the act needs.
fn wrong_stage<S: Stage>(code: RuleCode, what: &'static str, stage: S, event: &'static str, needs: &[S]) -> Violation {
    let names = needs
        .iter()
        .map(|s| format!("«{}» ({})", s.name_pt(), s.to_value()))
        .collect::<Vec<_>>()
        .join(", ");
    violation(
        code,
        in_stage("explain-wrong-stage", stage)
            .arg("what", what)
            .arg("event", event)
            .arg("needs", names)
            .arg("count", needs.len()),
    )
}

/// Applies an event to a project: the project as it becomes, or the rule that forbids the event. The lifecycle's order
/// (stages, and dates not before the acts they follow) always holds; the instrument's own guards (documents, bank
/// framing, the letter and its grounds, the extension's conditions) judge only acts dated while IN MDA nº 2/2005 was
/// in force: an act after its revocation is recorded, refused by none of them.
pub fn apply_sf(
    p: &social_fuel_project::Model,
    documents: &[ProjectDocumentKind],
    event: &SfEvent,
    params: &Params,
    cal: &Calendar,
) -> Result<social_fuel_project::Model, Violation> {
    use SocialFuelStage as S;
    let mut n = p.clone();
    let in_force = super::mda_2005().in_force_on(event.on());
    let wrong = |code: RuleCode, stages: &[S]| wrong_stage(code, "project", p.stage, event.name_pt(), stages);
    match event {
        SfEvent::File { on } => {
            if p.stage != S::Draft {
                return Err(wrong(code::SF_DOCUMENTS, &[S::Draft]));
            }
            n.filed_on = Some(*on);
            if in_force {
                refused_by(super::social_fuel::check_bank_first(&n, Texts::Written))?;
            }
            let missing = super::social_fuel::missing_documents(documents, super::Texts::Written);
            if in_force && !missing.is_empty() {
                return Err(violation(
                    code::SF_DOCUMENTS,
                    Explanation::message("sf-request-lacks").list("missing", missing),
                ));
            }
            n.stage = S::Filed;
        }
        SfEvent::Decide {
            on,
            decision,
            letter,
            grounds,
            signatory,
        } => {
            if p.stage != S::Filed {
                return Err(wrong(code::SF_DECISION_30D, &[S::Filed]));
            }
            not_before(code::SF_DECISION_30D, *on, p.filed_on, "filing")?;
            let given = |t: &Option<String>| t.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
            n.decided_on = Some(*on);
            n.decision = Some(*decision);
            n.decision_letter = given(letter);
            n.decision_grounds = given(grounds);
            n.decision_signatory = given(signatory);
            if in_force {
                refused_by(super::social_fuel::check_decision_letter(&n, Texts::Written))?;
            }
            n.stage = if *decision == Decision::Favourable {
                S::Conforming
            } else {
                S::NonConforming
            };
        }
        SfEvent::ApproveFinancing { on, scheduled_end } => {
            if p.stage != S::Conforming {
                return Err(wrong(code::SF_SCHEDULE, &[S::Conforming]));
            }
            not_before(code::SF_SCHEDULE, *on, p.decided_on, "mda-decision")?;
            if let Some(end) = scheduled_end
                && end < on
            {
                return Err(violation(
                    code::SF_SCHEDULE,
                    Explanation::message("explain-schedule-before-approval")
                        .arg("end", end)
                        .arg("on", on),
                ));
            }
            n.financing_approved_on = Some(*on);
            n.scheduled_implementation_end = *scheduled_end;
            n.stage = S::FinancingApproved;
        }
        SfEvent::StartOperation { on } => {
            if p.stage != S::FinancingApproved {
                return Err(wrong(code::SF_SCHEDULE, &[S::FinancingApproved]));
            }
            not_before(code::SF_SCHEDULE, *on, p.financing_approved_on, "financing-approval")?;
            n.industrial_start_on = Some(*on);
            n.stage = S::Operating;
        }
        SfEvent::StartEvaluation { on } => {
            if p.stage != S::Operating {
                return Err(wrong(code::SF_EXTERNAL_EVAL_6M, &[S::Operating]));
            }
            not_before(
                code::SF_EXTERNAL_EVAL_6M,
                *on,
                p.industrial_start_on,
                "industrial-start",
            )?;
            n.evaluation_started_on = Some(*on);
            n.stage = S::ExternalEvaluation;
        }
        SfEvent::ConcludeEvaluation { on, result, reason } => {
            if p.stage != S::ExternalEvaluation {
                return Err(wrong(code::SF_EXTERNAL_EVAL_6M, &[S::ExternalEvaluation]));
            }
            not_before(
                code::SF_EXTERNAL_EVAL_6M,
                *on,
                p.industrial_start_on,
                "industrial-start",
            )?;
            not_before(
                code::SF_EXTERNAL_EVAL_6M,
                *on,
                p.evaluation_started_on,
                "evaluation-start",
            )?;
            n.external_evaluation_on = Some(*on);
            n.evaluation_result = Some(*result);
            if *result == Decision::Favourable {
                n.stage = S::SealEligible;
            } else {
                // Art. 11 II: the company is heard first; MDA unframes only if it does not accept the justifications.
                n.stage = S::NonConformityHearing;
                // MDA's words as written; none when it gave none, read as the catalogue's default finding.
                n.evaluation_finding = reason.clone().filter(|r| !r.trim().is_empty());
            }
        }
        SfEvent::RequestSeal { on } => {
            if p.stage != S::SealEligible {
                return Err(wrong(code::SF_SEAL_REQUEST_30D, &[S::SealEligible]));
            }
            not_before(code::SF_SEAL_REQUEST_30D, *on, p.external_evaluation_on, "evaluation")?;
            not_before(
                code::SF_SEAL_REQUEST_30D,
                *on,
                p.justifications_accepted_on,
                "justifications-accepted",
            )?;
            n.seal_requested_on = Some(*on);
            n.stage = S::SealRequested;
        }
        SfEvent::RequestExtension {
            on,
            justification,
            purchases_honoured,
            farmers_assisted,
        } => {
            if !matches!(p.stage, S::Operating | S::ExternalEvaluation | S::NonConformityHearing) {
                return Err(wrong(
                    code::SF_EXTENSION_12M,
                    &[S::Operating, S::ExternalEvaluation, S::NonConformityHearing],
                ));
            }
            if let Some(first) = p.extension_requested_on {
                return Err(violation(
                    code::SF_EXTENSION_12M,
                    Explanation::message("explain-extension-once").arg("first", first),
                ));
            }
            let mut unmet = Vec::new();
            if justification.trim().is_empty() {
                unmet.push(Explanation::message("explain-extension-needs-justification"));
            }
            if !purchases_honoured {
                unmet.push(Explanation::message("explain-extension-needs-purchases"));
            }
            if !farmers_assisted {
                unmet.push(Explanation::message("explain-extension-needs-assistance"));
            }
            if in_force && !unmet.is_empty() {
                return Err(violation(
                    code::SF_EXTENSION_12M,
                    Explanation::message("explain-extension-needs").list("unmet", unmet),
                ));
            }
            not_before(code::SF_EXTENSION_12M, *on, p.industrial_start_on, "industrial-start")?;
            // Art. 11 §2: six more months, "totalizando 12 (doze) meses desde a inicialização das operações
            // industriais": a request after those 12 months has nothing left to extend.
            let last = match p.industrial_start_on {
                Some(s) if in_force => Some(super::social_fuel::extended_end(s, params, cal, Texts::Skipped)?.due),
                _ => None,
            };
            if let Some(last) = last
                && *on > last
            {
                return Err(violation(
                    code::SF_EXTENSION_12M,
                    Explanation::message("explain-extension-late")
                        .arg("on", on)
                        .arg("last", last),
                ));
            }
            n.extension_requested_on = Some(*on);
            n.extension_justification = Some(justification.trim().into());
        }
        SfEvent::DecideExtension { on, granted, reason } => {
            let Some(asked) = p.extension_requested_on else {
                return Err(violation(
                    code::SF_EXTENSION_12M,
                    Explanation::message("explain-extension-not-asked"),
                ));
            };
            if let Some(d) = p.extension_granted_on.or(p.extension_refused_on) {
                return Err(violation(
                    code::SF_EXTENSION_12M,
                    Explanation::message("explain-extension-decided").arg("day", d),
                ));
            }
            if !matches!(p.stage, S::Operating | S::ExternalEvaluation | S::NonConformityHearing) {
                return Err(wrong(
                    code::SF_EXTENSION_12M,
                    &[S::Operating, S::ExternalEvaluation, S::NonConformityHearing],
                ));
            }
            not_before(code::SF_EXTENSION_12M, *on, Some(asked), "request")?;
            if reason.trim().is_empty() {
                return Err(violation(
                    code::SF_EXTENSION_12M,
                    Explanation::message("explain-extension-reason"),
                ));
            }
            if *granted {
                n.extension_granted_on = Some(*on);
            } else {
                n.extension_refused_on = Some(*on);
            }
            n.extension_decision_reason = Some(reason.trim().into());
        }
        SfEvent::AcceptJustifications { on, reason } => {
            if p.stage != S::NonConformityHearing {
                return Err(wrong(code::SF_UNFRAMING, &[S::NonConformityHearing]));
            }
            not_before(code::SF_UNFRAMING, *on, p.external_evaluation_on, "evaluation")?;
            if reason.trim().is_empty() {
                return Err(violation(
                    code::SF_UNFRAMING,
                    Explanation::message("explain-accept-justifications-reason"),
                ));
            }
            n.justifications_accepted_on = Some(*on);
            n.justifications_reason = Some(reason.trim().into());
            n.stage = S::SealEligible;
        }
        SfEvent::Unframe { on, reason } => {
            if p.stage != S::NonConformityHearing {
                return Err(violation(
                    code::SF_UNFRAMING,
                    in_stage("explain-unframe-stage", p.stage),
                ));
            }
            not_before(code::SF_UNFRAMING, *on, p.external_evaluation_on, "evaluation")?;
            if reason.trim().is_empty() {
                return Err(violation(
                    code::SF_UNFRAMING,
                    Explanation::message("explain-unframe-reason"),
                ));
            }
            // Art. 11 §2: an extension MDA granted during the hearing keeps the framing to the end of the 12 months
            // since the industrial start; the project is unframed on their last day at the earliest.
            let kept = match p.industrial_start_on {
                Some(s) if in_force && super::social_fuel::heard_extension(p) => {
                    Some(super::social_fuel::extended_end(s, params, cal, Texts::Skipped)?.due)
                }
                _ => None,
            };
            if let Some(kept) = kept
                && *on < kept
            {
                return Err(violation(
                    code::SF_EXTENSION_12M,
                    Explanation::message("explain-unframe-extension-kept")
                        .arg("granted", p.extension_granted_on.unwrap_or(kept))
                        .arg("kept", kept),
                ));
            }
            n.unframed_on = Some(*on);
            n.unframing_reason = Some(reason.trim().into());
            n.stage = S::Unframed;
        }
    }
    n.status = n.stage.status();
    Ok(n)
}

/// Events of an FCO carta.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FcoEvent {
    /// Submitted to the chamber or the bank (art. 2).
    Submit {
        /// Submission date.
        on: NaiveDate,
        /// When it reached SEDEC.
        received_at: Option<chrono::DateTime<chrono::Utc>>,
    },
    /// The chamber's opinion or the bank's decision (art. 2 §3, art. 3).
    Decide {
        /// Date.
        on: NaiveDate,
        /// Favourable or not.
        decision: Decision,
        /// Whether the chamber decided (else the bank).
        by_chamber: bool,
    },
    /// The financing is contracted.
    Contract {
        /// Date.
        on: NaiveDate,
        /// Contracted value.
        amount: Option<Money>,
    },
    /// The borrower presented the project to the bank: the act the 120 days of a CDAE approval wait for (art. 3 sole
    /// §).
    Present {
        /// Date.
        on: NaiveDate,
    },
    /// The 120-day validity ran out.
    Expire {
        /// Date.
        on: NaiveDate,
    },
    /// An amendment that needs a new approval reopens the carta (art. 15): a new approval cycle, submitted that day.
    Reopen {
        /// Date.
        on: NaiveDate,
        /// New financed value, if it changes.
        amount: Option<Money>,
    },
}

impl FcoEvent {
    /// The act, as the chamber's staff name it.
    pub fn name_pt(&self) -> &'static str {
        match self {
            Self::Submit { .. } => "submeter a carta",
            Self::Decide { .. } => "decidir a carta",
            Self::Contract { .. } => "contratar",
            Self::Present { .. } => "apresentar o projeto ao banco",
            Self::Expire { .. } => "declarar a validade expirada",
            Self::Reopen { .. } => "reabrir a aprovação",
        }
    }

    /// The event's name in the history.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Submit { .. } => "SUBMIT",
            Self::Decide { .. } => "DECIDE",
            Self::Contract { .. } => "CONTRACT",
            Self::Present { .. } => "PRESENT_PROJECT",
            Self::Expire { .. } => "EXPIRE",
            Self::Reopen { .. } => "AMEND_REOPEN",
        }
    }

    /// The event's legal date.
    pub fn on(&self) -> NaiveDate {
        match self {
            Self::Submit { on, .. }
            | Self::Decide { on, .. }
            | Self::Contract { on, .. }
            | Self::Present { on }
            | Self::Expire { on }
            | Self::Reopen { on, .. } => *on,
        }
    }
}

/// Applies an event to a carta: the carta as it becomes, or the rule that forbids the event.
pub fn apply_fco(
    c: &fco_carta::Model,
    event: &FcoEvent,
    params: &Params,
    cal: &Calendar,
) -> Result<fco_carta::Model, Violation> {
    use FcoCartaStage as S;
    let mut n = c.clone();
    let wrong = |code: RuleCode, stages: &[S]| wrong_stage(code, "carta", c.stage, event.name_pt(), stages);
    match event {
        FcoEvent::Submit { on, received_at } => {
            // A carta is submitted once: only one with an unfavourable opinion comes again, reformulated, as a new
            // carta (art. 3 sole §, `resubmitFcoCarta`).
            if c.stage != S::Draft {
                return Err(wrong(code::FCO_RESUBMIT, &[S::Draft]));
            }
            n.submitted_on = Some(*on);
            n.received_by_council_at = *received_at;
            n.stage = S::Submitted;
        }
        FcoEvent::Decide {
            on,
            decision,
            by_chamber,
        } => {
            if c.stage != S::Submitted {
                return Err(wrong(code::FCO_CHAMBER_THRESHOLD, &[S::Submitted]));
            }
            not_before(code::FCO_CHAMBER_THRESHOLD, *on, c.submitted_on, "submission")?;
            let (chamber, threshold_value) = needs_chamber(c.financed_amount, params, c.submitted_on.unwrap_or(*on))?;
            if chamber && !by_chamber {
                return Err(violation(
                    code::FCO_CHAMBER_THRESHOLD,
                    Explanation::message("explain-chamber-above")
                        .arg("amount", c.financed_amount.to_decimal())
                        .arg("threshold", threshold_value),
                ));
            }
            if !chamber && *by_chamber && !c.special_demand {
                return Err(violation(
                    code::FCO_CHAMBER_THRESHOLD,
                    Explanation::message("explain-chamber-below")
                        .arg("amount", c.financed_amount.to_decimal())
                        .arg("threshold", threshold_value),
                ));
            }
            n.decision = Some(*decision);
            n.decided_on = Some(*on);
            n.decided_by = Some(if *by_chamber { "CHAMBER" } else { "BANK" }.into());
            if *decision == Decision::Favourable {
                n.approved_on = Some(*on);
                n.stage = S::Approved;
            } else {
                n.stage = S::Unfavourable;
            }
        }
        FcoEvent::Contract { on, amount } => {
            // Before a decision the carta lacks the chamber's opinion or the bank's decision (art. 2 §3); after an
            // unfavourable one it may only be resubmitted reformulated (art. 3 sole §); an expired approval is the
            // 120 days' (art. 3 sole §).
            match c.stage {
                S::Approved => {}
                S::Draft | S::Submitted => return Err(wrong(code::FCO_CHAMBER_THRESHOLD, &[S::Approved])),
                S::Unfavourable => return Err(wrong(code::FCO_RESUBMIT, &[S::Approved])),
                _ => return Err(wrong(code::FCO_VALIDITY_120D, &[S::Approved])),
            }
            let approved = c.approved_on.unwrap_or(*on);
            not_before(code::FCO_VALIDITY_120D, *on, Some(approved), "approval")?;
            not_before(code::FCO_VALIDITY_120D, *on, c.presented_on, "presentation")?;
            // Art. 3 sole §: the 120 days are for presenting the project to the bank; the contract may come later.
            let due = super::fco::validity_end(approved, params, cal)?;
            if *on > due.due && c.presented_on.is_none() {
                return Err(violation(
                    code::FCO_VALIDITY_120D,
                    Explanation::message("explain-contract-not-presented")
                        .arg("due", due.due)
                        .nested("count", due.note),
                ));
            }
            if let Some(a) = amount
                && *a > c.financed_amount
            {
                return Err(violation(
                    code::FCO_AMENDMENT,
                    Explanation::message("explain-contract-over-approved")
                        .arg("amount", a.to_decimal())
                        .arg("approved", c.financed_amount.to_decimal()),
                ));
            }
            n.contracted_on = Some(*on);
            n.contracted_amount = Some(amount.unwrap_or(c.financed_amount));
            n.stage = S::Contracted;
        }
        FcoEvent::Present { on } => {
            if !matches!(c.stage, S::Approved | S::Contracted) {
                return Err(wrong(code::FCO_VALIDITY_120D, &[S::Approved, S::Contracted]));
            }
            not_before(code::FCO_VALIDITY_120D, *on, c.approved_on, "approval")?;
            if let Some(k) = c.contracted_on
                && *on > k
            {
                return Err(violation(
                    code::FCO_VALIDITY_120D,
                    Explanation::message("explain-presented-after-contract")
                        .arg("on", on)
                        .arg("contract", k),
                ));
            }
            if let Some(approved) = c.approved_on {
                let due = super::fco::validity_end(approved, params, cal)?;
                if *on > due.due {
                    return Err(violation(
                        code::FCO_VALIDITY_120D,
                        Explanation::message("explain-approval-expired")
                            .arg("due", due.due)
                            .nested("count", due.note),
                    ));
                }
            }
            n.presented_on = Some(*on);
        }
        FcoEvent::Expire { on } => {
            if c.stage != S::Approved {
                return Err(wrong(code::FCO_VALIDITY_120D, &[S::Approved]));
            }
            if let Some(p) = c.presented_on {
                return Err(violation(
                    code::FCO_VALIDITY_120D,
                    Explanation::message("explain-presented-in-time").arg("on", p),
                ));
            }
            let approved = c.approved_on.unwrap_or(*on);
            let due = super::fco::validity_end(approved, params, cal)?;
            if *on <= due.due {
                return Err(violation(
                    code::FCO_VALIDITY_120D,
                    Explanation::message("explain-approval-valid-until")
                        .arg("due", due.due)
                        .nested("count", due.note),
                ));
            }
            n.expired_on = Some(*on);
            n.stage = S::Expired;
        }
        FcoEvent::Reopen { on, amount } => {
            if !matches!(c.stage, S::Approved | S::Contracted) {
                return Err(wrong(code::FCO_AMENDMENT, &[S::Approved, S::Contracted]));
            }
            // A new approval cycle, submitted on the amendment's day: the cycle it closes is kept apart
            // (`fco_carta_cycle`), so nothing of it stays on the carta's open cycle.
            if let Some(a) = amount {
                n.financed_amount = *a;
            }
            n.submitted_on = Some(*on);
            n.received_by_council_at = None;
            n.chamber_meeting_id = None;
            n.decision = None;
            n.decided_on = None;
            n.decided_by = None;
            n.approved_on = None;
            n.presented_on = None;
            n.contracted_on = None;
            n.contracted_amount = None;
            n.stage = S::Submitted;
        }
    }
    n.status = n.stage.status();
    Ok(n)
}
