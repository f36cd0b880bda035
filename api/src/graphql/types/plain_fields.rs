//! Which fields of the node types a plain selection reads at once ([`crate::graphql::plain`]): each read by the
//! type's own resolver, a relation from what was read with the page.

use super::{
    FcoCartaConnection, FcoCartaEdge, SocialFuelProjectConnection, SocialFuelProjectEdge,
    financing::{FcoCarta, SocialFuelProject},
    objects::{Bank, Municipality, Party},
};
use crate::graphql::{
    plain::{Plain, by_resolver, leaf, nested, plain_connection},
    prefetched::Prefetched,
    rules::{Deadline, RuleOutcome},
};
use async_graphql::{ContextSelectionSet, Positioned, Value, parser::types::Field};

plain_connection!(FcoCartaConnection, FcoCartaEdge, "FcoCartaConnection", "FcoCartaEdge");
plain_connection!(
    SocialFuelProjectConnection,
    SocialFuelProjectEdge,
    "SocialFuelProjectConnection",
    "SocialFuelProjectEdge"
);

/// The borrower of a financing read with the page: its value for the field's selection, when it is there and plain.
fn borrower(
    ctx: &ContextSelectionSet<'_>,
    field: &Positioned<Field>,
    financing: (entity::vocab::Programme, i64),
) -> Option<Value> {
    ctx.data_opt::<Prefetched>()?
        .with_party(financing, |b| nested(ctx, field, b))?
}

/// A relation read with the page: its value for the field's selection, when it is there and plain.
fn related(ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>, name: &str, key: i64) -> Option<Value> {
    let p = ctx.data_opt::<Prefetched>()?;
    match name {
        "bank" => p.with_bank(key, |b| nested(ctx, field, b))?,
        _ => p.with_municipality(i32::try_from(key).ok()?, |m| nested(ctx, field, m))?,
    }
}

impl Plain for SocialFuelProject {
    const TYPE: &'static str = "SocialFuelProject";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        let name = field.node.name.node.as_str();
        match name {
            "bank" => return related(ctx, field, name, self.0.bank_id),
            "party" => return borrower(ctx, field, service::visible::Financed::financing(&*self.0)),
            "municipality" => return related(ctx, field, name, i64::from(self.0.plant_municipality_code)),
            _ => {}
        }
        by_resolver!(self, ctx, field, {
            "id" => id,
            "programme" => programme,
            "title" => title,
            "amount" => amount,
            "status" => status,
            "stage" => stage,
            "submittedOn" => submitted_on,
            "decidedOn" => decided_on,
            "contractedOn" => contracted_on,
            "bankFramedOn" => bank_framed_on,
            "analysedByBank" => analysed_by_bank,
            "decision" => decision,
            "decisionLetter" => decision_letter,
            "decisionGrounds" => decision_grounds,
            "decisionSignatory" => decision_signatory,
            "justificationsFiledOn" => justifications_filed_on,
            "justificationsContent" => justifications_content,
            "bankNotifiedOn" => bank_notified_on,
            "bankNoticeReference" => bank_notice_reference,
            "scheduledImplementationEnd" => scheduled_implementation_end,
            "scheduleDelayAccepted" => schedule_delay_accepted,
            "schedulePresentedOn" => schedule_presented_on,
            "delayBankAcceptedOn" => delay_bank_accepted_on,
            "delayAcceptedOn" => delay_accepted_on,
            "originalImplementationEnd" => original_implementation_end,
            "delayBankAcceptedBy" => delay_bank_accepted_by,
            "publicUpdateOn" => public_update_on,
            "publicUpdateReference" => public_update_reference,
            "industrialStartOn" => industrial_start_on,
            "externalEvaluationOn" => external_evaluation_on,
            "evaluationResult" => evaluation_result,
            "sealRequestedOn" => seal_requested_on,
            "extensionRequestedOn" => extension_requested_on,
            "extensionGrantedOn" => extension_granted_on,
            "extensionJustification" => extension_justification,
            "extensionRefusedOn" => extension_refused_on,
            "extensionDecisionReason" => extension_decision_reason,
            "evaluationFinding" => evaluation_finding,
            "justificationsAcceptedOn" => justifications_accepted_on,
            "justificationsReason" => justifications_reason,
            "unframedOn" => unframed_on,
            "unframingReason" => unframing_reason,
        });
        None
    }
}

impl Plain for FcoCarta {
    const TYPE: &'static str = "FcoCarta";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        let name = field.node.name.node.as_str();
        match name {
            "bank" => return related(ctx, field, name, self.0.bank_id),
            "party" => return borrower(ctx, field, service::visible::Financed::financing(&*self.0)),
            "municipality" => return related(ctx, field, name, i64::from(self.0.municipality_code)),
            _ => {}
        }
        by_resolver!(self, ctx, field, {
            "id" => id,
            "programme" => programme,
            "number" => number,
            "amount" => amount,
            "status" => status,
            "stage" => stage,
            "line" => line,
            "activity" => activity,
            "submittedOn" => submitted_on,
            "decidedOn" => decided_on,
            "contractedOn" => contracted_on,
            "receivedByCouncilAt" => received_by_council_at,
            "decision" => decision,
            "decidedBy" => decided_by,
            "approvedOn" => approved_on,
            "contractedAmount" => contracted_amount,
            "termMonths" => term_months,
            "graceMonths" => grace_months,
            "existingSires" => existing_sires,
            "artificialInsemination" => artificial_insemination,
            "presentedOn" => presented_on,
            "specialDemand" => special_demand,
            "professionalName" => professional_name,
            "statedOn" => stated_on,
        });
        None
    }
}

impl Plain for Bank {
    const TYPE: &'static str = "Bank";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        by_resolver!(self, ctx, field, {
            "id" => id,
            "code" => code,
            "name" => name,
            "programmes" => programmes,
            "mdaCooperationAgreement" => mda_cooperation_agreement,
        });
        None
    }
}

impl Plain for Party {
    const TYPE: &'static str = "Party";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        // `document` and `name` as the caller may see them: the resolver masks them, and waits (so the executor
        // answers) when that depends on the party's programmes, read from the database.
        by_resolver!(self, ctx, field, {
            "id" => id,
            "document" => document,
            "documentKind" => document_kind,
            "cnpjRoot" => cnpj_root,
            "name" => name,
        });
        None
    }
}

impl Plain for Municipality {
    const TYPE: &'static str = "Municipality";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        by_resolver!(self, ctx, field, {
            "id" => id,
            "ibgeCode" => ibge_code,
            "name" => name,
            "uf" => uf,
            "region" => region,
        });
        None
    }
}

impl Plain for RuleOutcome {
    const TYPE: &'static str = "RuleOutcome";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        // `ruleCode` and `status` are the object's own fields (`SimpleObject`), the texts its resolvers.
        match field.node.name.node.as_str() {
            "ruleCode" => return leaf(ctx, field, async { self.rule_code.as_str() }),
            "status" => return leaf(ctx, field, async { self.status }),
            _ => {}
        }
        by_resolver!(self, ctx, field, {
            "legalBasis" => legal_basis,
            "explanation" => explanation,
        });
        None
    }
}

impl Plain for Deadline {
    const TYPE: &'static str = "Deadline";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        // `ruleCode`, `dueDate`, `dueAt` and `status` are the object's own fields (`SimpleObject`), the texts its
        // resolvers.
        match field.node.name.node.as_str() {
            "ruleCode" => return leaf(ctx, field, async { self.rule_code.as_str() }),
            "dueDate" => return leaf(ctx, field, async { self.due_date }),
            "dueAt" => return leaf(ctx, field, async { self.due_at }),
            "status" => return leaf(ctx, field, async { self.status }),
            _ => {}
        }
        by_resolver!(self, ctx, field, {
            "legalBasis" => legal_basis,
            "countingNote" => counting_note,
        });
        None
    }
}
