//! The lifecycle acts of both programmes in the schema's one mutation style (issue 45): each takes one
//! `input: <Mutation>Input!` naming its object by global ID and answers a payload with the changed object. They replace
//! the loose-argument mutations of [`super::lifecycle`], which stay (deprecated) and call the same functions here, each
//! a thin adapter over `service::lifecycle`.
//!
//! Size: 24 acts, each an input, a payload and a thin resolver, alike by design.

use super::{
    Caller, db,
    error::Served,
    ids::{self, NodeKind},
    payloads::{FcoCartaPayload, SocialFuelProjectPayload},
    scalars::{Date, DateTime, Decimal},
    types::{
        enums::{AmendmentKind, Decision, FcoActivity, FcoLine, ProjectDocumentKind},
        financing::{FcoCarta, ProjectDocument, SocialFuelProject},
    },
};
use async_graphql::{Context, ID, InputObject, Object, Result, SimpleObject};
use entity::rules::lifecycle::{FcoEvent, SfEvent};
use service::lifecycle::{self as life, Act};

/// The act's author, from the request's caller.
pub(super) fn act(ctx: &Context<'_>) -> Act {
    Act::by(ctx.data_opt::<Caller>().cloned().unwrap_or_default())
}

fn day(act: &Act, d: Option<Date>) -> chrono::NaiveDate {
    act.day(d.map(|d| d.0))
}

/// An act's service errors, each field named as the form the act came in names it (`field`: the financing's ID as that
/// form names it). The services name the fields of the `input:` form (`input.on`, `input.projectId`), and the
/// financing a transition moves as `id`; the deprecated form of the same act takes the same values as flat arguments
/// (`on`), and the financing as `field` (`id`).
trait ServedAs<T> {
    fn served_as(self, ctx: &Context<'_>, field: &'static str) -> Result<T>;
}

impl<T> ServedAs<T> for std::result::Result<T, service::ServiceError> {
    fn served_as(self, ctx: &Context<'_>, field: &'static str) -> Result<T> {
        self.map_err(|e| named_as(field, e)).served(ctx)
    }
}

fn named_as(field: &'static str, e: service::ServiceError) -> service::ServiceError {
    use service::ServiceError::{BadInput, NotFound};
    let name = |f: &'static str| match f {
        "id" | "input.projectId" | "input.cartaId" => field,
        f if field.starts_with("input.") => f,
        f => f.strip_prefix("input.").unwrap_or(f),
    };
    match e {
        BadInput { field, message } => BadInput {
            field: name(field),
            message,
        },
        NotFound { field, message } => NotFound {
            field: name(field),
            message: as_sent(message),
        },
        e => e,
    }
}

/// A financing not found answers as a lookup of its global ID does (`node(id:)`, [`ids::no_such`]): the same message,
/// naming it by the ID the client sent, not by its row's number.
fn as_sent(message: service::messages::Message) -> service::messages::Message {
    use service::messages::code;
    let kind = match message.code.as_str() {
        code::PROJECT_UNKNOWN => NodeKind::SocialFuelProject,
        code::CARTA_UNKNOWN => NodeKind::FcoCarta,
        _ => return message,
    };
    match message.args.get("id").and_then(|k| k.parse().ok()) {
        Some(key) => ids::unknown(kind, &ids::encode(kind, key)),
        None => message,
    }
}

/// Runs one step of a project's lifecycle; `field` names the ID's argument in errors.
async fn step_sf(
    ctx: &Context<'_>,
    id: &ID,
    field: &'static str,
    event: impl FnOnce(&Act) -> SfEvent,
    note: Option<String>,
    override_reason: Option<String>,
) -> Result<SocialFuelProject> {
    let key = ids::arg(id, NodeKind::SocialFuelProject, field)?;
    let act = act(ctx);
    let event = event(&act);
    let p = life::transition_project_overriding(db(ctx), &act, key, event, note, override_reason)
        .await
        .served_as(ctx, field)?;
    Ok(SocialFuelProject(super::seen(ctx, p)?))
}

/// Runs one step of a carta's lifecycle; `field` names the ID's argument in errors.
async fn step_fco(
    ctx: &Context<'_>,
    id: &ID,
    field: &'static str,
    event: impl FnOnce(&Act) -> FcoEvent,
) -> Result<FcoCarta> {
    let key = ids::arg(id, NodeKind::FcoCarta, field)?;
    let act = act(ctx);
    let event = event(&act);
    let c = life::transition_carta(db(ctx), &act, key, event)
        .await
        .served_as(ctx, field)?;
    Ok(FcoCarta(super::seen(ctx, c)?))
}

/// Declares the input of a new financing's draft and, with the same fields, the input of the deprecated `create…`
/// mutation under its old name, which becomes the draft's.
macro_rules! draft_inputs {
    (
        $(#[$doc:meta])* $name:ident,
        $(#[$old_doc:meta])* $old:ident {
            $($(#[$field_meta:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$doc])*
        #[derive(InputObject, Debug)]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        $(#[$old_doc])*
        #[derive(InputObject, Debug)]
        pub struct $old {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        impl From<$old> for $name {
            fn from(old: $old) -> Self {
                Self {
                    $($field: old.$field,)*
                }
            }
        }
    };
}

draft_inputs!(
    /// `draftSocialFuelProject`'s input: a new social-fuel project, in DRAFT.
    DraftSocialFuelProjectInput,
    /// A new social-fuel project, in DRAFT.
    NewSocialFuelProject {
        /// Title of the project.
        pub title: String,
        /// The bank where financing is sought.
        pub bank_id: ID,
        /// The producer's CNPJ, in any punctuation.
        pub producer_document: String,
        /// The producer's name, needed when the CNPJ is new to Fomento.
        pub producer_name: Option<String>,
        /// IBGE code of the plant's municipality.
        pub plant_municipality_code: i32,
        /// Financing sought, in reais.
        pub requested_amount: Decimal,
        /// Date of the bank's framing letter, if it framed the project already (art. 7).
        pub bank_framed_on: Option<Date>,
        /// The day the request was made (its history's first row); today when not given; not after today.
        pub created_on: Option<Date>,
    }
);

/// Creates a project in DRAFT.
pub async fn draft_project(
    ctx: &Context<'_>,
    input: DraftSocialFuelProjectInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let new = life::NewProject {
        bank_id: ids::arg(&input.bank_id, NodeKind::Bank, field)?,
        title: input.title,
        producer_document: input.producer_document,
        producer_name: input.producer_name,
        plant_municipality_code: input.plant_municipality_code,
        requested_amount: input.requested_amount.0,
        bank_framed_on: input.bank_framed_on.map(|d| d.0),
        created_on: input.created_on.map(|d| d.0),
    };
    let p = life::create_project(db(ctx), &act(ctx), new).await.served(ctx)?;
    super::guard::audit_target(ctx, &ids::encode(NodeKind::SocialFuelProject, p.id));
    Ok(SocialFuelProject(super::seen(ctx, p)?))
}

/// `receiveProjectDocument`'s input: an annex-I document received for a project.
#[derive(InputObject, Debug)]
pub struct ReceiveProjectDocumentInput {
    /// The project's global ID.
    pub project_id: ID,
    /// Which of the six documents.
    pub kind: ProjectDocumentKind,
    /// When it was received; today by default; not after today.
    pub received_on: Option<Date>,
    /// Protocol or file reference.
    pub reference: Option<String>,
    /// Why it is received again, once the request is filed.
    pub reason: Option<String>,
}

/// What `receiveProjectDocument` answers.
#[derive(SimpleObject)]
pub struct ReceiveProjectDocumentPayload {
    /// The document as recorded (a new version when one of its kind was received before).
    pub document: ProjectDocument,
}

/// Records a document received.
pub async fn receive_document(
    ctx: &Context<'_>,
    input: ReceiveProjectDocumentInput,
    field: &'static str,
) -> Result<ProjectDocument> {
    let key = ids::arg(&input.project_id, NodeKind::SocialFuelProject, field)?;
    let on = input.received_on.map(|d| d.0);
    let d = life::add_project_document(
        db(ctx),
        &act(ctx),
        key,
        input.kind.into(),
        on,
        input.reference,
        input.reason.as_deref(),
    )
    .await
    .served_as(ctx, field)?;
    Ok(ProjectDocument(d))
}

/// An input naming a project and the day of an act.
macro_rules! dated_project_input {
    ($name:ident, $doc:literal, $on:literal) => {
        #[doc = $doc]
        #[derive(InputObject, Debug)]
        pub struct $name {
            /// The project's global ID.
            pub project_id: ID,
            #[doc = $on]
            pub on: Option<Date>,
        }
    };
}

dated_project_input!(
    RecordSocialFuelFilingInput,
    "`recordSocialFuelFiling`'s input: the project whose request is filed with MDA.",
    "Filing date; today by default."
);
dated_project_input!(
    RecordIndustrialOperationStartInput,
    "`recordIndustrialOperationStart`'s input: the project whose industrial operation started.",
    "Start date; today by default."
);
dated_project_input!(
    RecordExternalEvaluationStartInput,
    "`recordExternalEvaluationStart`'s input: the project whose external evaluation started.",
    "Start date; today by default."
);
dated_project_input!(
    RecordSocialFuelSealRequestInput,
    "`recordSocialFuelSealRequest`'s input: the project whose company requested the seal.",
    "Request date; today by default."
);

/// `recordSocialFuelDecision`'s input: MDA's decision letter (art. 9).
#[derive(InputObject, Debug)]
pub struct RecordSocialFuelDecisionInput {
    /// The project's global ID.
    pub project_id: ID,
    /// Conformity (FAVOURABLE) or non-conformity (UNFAVOURABLE).
    pub decision: Decision,
    /// Date of the letter; today by default.
    pub on: Option<Date>,
    /// Reference of the letter (ofício) naming the company and its CNPJ (art. 9 I–II); blank is refused
    /// (SF-DECISION-LETTER).
    pub letter: String,
    /// What the analysis was based on (art. 9 II): required of a non-conformity letter (SF-DECISION-LETTER).
    pub grounds: Option<String>,
    /// Who signed the letter: the Secretary of Family Agriculture or a legal representative (art. 9 I–II).
    pub signatory: Option<String>,
    /// Why MDA decides favourably over rules the project violates; kept in the history.
    pub override_reason: Option<String>,
}

/// `recordSocialFuelFinancingApproval`'s input: the bank's financing approval (art. 10).
#[derive(InputObject, Debug)]
pub struct RecordSocialFuelFinancingApprovalInput {
    /// The project's global ID.
    pub project_id: ID,
    /// Approval date; today by default.
    pub on: Option<Date>,
    /// Scheduled end of implementation.
    pub scheduled_end: Option<Date>,
}

/// `recordExternalEvaluationResult`'s input: the evaluation's result (art. 11 I–II).
#[derive(InputObject, Debug)]
pub struct RecordExternalEvaluationResultInput {
    /// The project's global ID.
    pub project_id: ID,
    /// Conformity (FAVOURABLE) or not.
    pub result: Decision,
    /// Conclusion date; today by default.
    pub on: Option<Date>,
    /// Why, on non-conformity.
    pub reason: Option<String>,
    /// Why MDA finds conformity over a violated SF-SCHEDULE; kept in the history.
    pub override_reason: Option<String>,
}

/// `recordSocialFuelExtensionRequest`'s input: the company's request for the one extension (art. 11 §2).
#[derive(InputObject, Debug)]
pub struct RecordSocialFuelExtensionRequestInput {
    /// The project's global ID.
    pub project_id: ID,
    /// The company's justification.
    pub justification: String,
    /// Whether the contracted purchases are honoured.
    pub purchases_honoured: bool,
    /// Whether the contracted farmers have technical assistance.
    pub farmers_assisted: bool,
    /// Request date; today by default.
    pub on: Option<Date>,
}

/// `recordSocialFuelExtensionDecision`'s input: MDA's grant or refusal of the extension (art. 11 §2).
#[derive(InputObject, Debug)]
pub struct RecordSocialFuelExtensionDecisionInput {
    /// The project's global ID.
    pub project_id: ID,
    /// Granted (true) or refused.
    pub granted: bool,
    /// MDA's reason.
    pub reason: String,
    /// Date of the decision; today by default.
    pub on: Option<Date>,
}

/// An input naming a project, a text and the day of an act.
macro_rules! project_text_input {
    ($name:ident, $doc:literal, $field:ident, $field_doc:literal, $on:literal) => {
        #[doc = $doc]
        #[derive(InputObject, Debug)]
        pub struct $name {
            /// The project's global ID.
            pub project_id: ID,
            #[doc = $field_doc]
            pub $field: String,
            #[doc = $on]
            pub on: Option<Date>,
        }
    };
}

project_text_input!(
    RecordSocialFuelJustificationsAcceptanceInput,
    "`recordSocialFuelJustificationsAcceptance`'s input: MDA accepts the company's justifications (art. 11 II).",
    reason,
    "Why MDA accepts them.",
    "Date; today by default."
);
project_text_input!(
    RecordNonConformityJustificationsInput,
    "`recordNonConformityJustifications`'s input: the company's justifications and contestations (art. 11 II).",
    content,
    "What the company's justifications and contestations say.",
    "When they were filed; today by default; not after today."
);
project_text_input!(
    RecordBankNoticeInput,
    "`recordBankNotice`'s input: MDA's notice to the bank that approved the project (art. 11 II and §1).",
    reference,
    "Reference of the notice (ofício).",
    "When it was sent; today by default; not after today."
);
project_text_input!(
    RecordPublicDatabaseUpdateInput,
    "`recordPublicDatabaseUpdate`'s input: MDA's update of its public database with the unframing (art. 11 II).",
    reference,
    "Where the update was published (address or reference).",
    "When it was published; today by default; not after today."
);
project_text_input!(
    RecordSocialFuelUnframingInput,
    "`recordSocialFuelUnframing`'s input: the unframing after MDA did not accept the justifications (art. 11 II).",
    reason,
    "Why MDA did not accept the justifications.",
    "Date; today by default."
);

/// Files the request with MDA.
pub async fn file(ctx: &Context<'_>, i: RecordSocialFuelFilingInput, field: &'static str) -> Result<SocialFuelProject> {
    step_sf(
        ctx,
        &i.project_id,
        field,
        |a| SfEvent::File { on: day(a, i.on) },
        None,
        None,
    )
    .await
}

/// Records MDA's decision letter; `letter` `None` only from the deprecated mutation, where it is refused by the rule.
pub async fn decide(
    ctx: &Context<'_>,
    i: RecordSocialFuelDecisionInput,
    letter: Option<String>,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let event = |a: &Act| SfEvent::Decide {
        on: day(a, i.on),
        decision: i.decision.into(),
        letter,
        grounds: i.grounds,
        signatory: i.signatory,
    };
    step_sf(ctx, &i.project_id, field, event, None, i.override_reason).await
}

/// Records the bank's financing approval.
pub async fn approve(
    ctx: &Context<'_>,
    i: RecordSocialFuelFinancingApprovalInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let event = |a: &Act| SfEvent::ApproveFinancing {
        on: day(a, i.on),
        scheduled_end: i.scheduled_end.map(|d| d.0),
    };
    step_sf(ctx, &i.project_id, field, event, None, None).await
}

/// Records the start of industrial operations.
pub async fn start_operation(
    ctx: &Context<'_>,
    i: RecordIndustrialOperationStartInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let event = |a: &Act| SfEvent::StartOperation { on: day(a, i.on) };
    step_sf(ctx, &i.project_id, field, event, None, None).await
}

/// Records the start of the external evaluation.
pub async fn start_evaluation(
    ctx: &Context<'_>,
    i: RecordExternalEvaluationStartInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let event = |a: &Act| SfEvent::StartEvaluation { on: day(a, i.on) };
    step_sf(ctx, &i.project_id, field, event, None, None).await
}

/// Records the evaluation's result.
pub async fn conclude_evaluation(
    ctx: &Context<'_>,
    i: RecordExternalEvaluationResultInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let event = |a: &Act| SfEvent::ConcludeEvaluation {
        on: day(a, i.on),
        result: i.result.into(),
        reason: i.reason,
    };
    step_sf(ctx, &i.project_id, field, event, None, i.override_reason).await
}

/// Records the request for the seal.
pub async fn request_seal(
    ctx: &Context<'_>,
    i: RecordSocialFuelSealRequestInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let event = |a: &Act| SfEvent::RequestSeal { on: day(a, i.on) };
    step_sf(ctx, &i.project_id, field, event, None, None).await
}

/// Records the company's request for the extension.
pub async fn request_extension(
    ctx: &Context<'_>,
    i: RecordSocialFuelExtensionRequestInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let event = |a: &Act| SfEvent::RequestExtension {
        on: day(a, i.on),
        justification: i.justification,
        purchases_honoured: i.purchases_honoured,
        farmers_assisted: i.farmers_assisted,
    };
    step_sf(ctx, &i.project_id, field, event, None, None).await
}

/// Records MDA's decision on the extension.
pub async fn decide_extension(
    ctx: &Context<'_>,
    i: RecordSocialFuelExtensionDecisionInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let note = Some(i.reason.clone());
    let event = |a: &Act| SfEvent::DecideExtension {
        on: day(a, i.on),
        granted: i.granted,
        reason: i.reason,
    };
    step_sf(ctx, &i.project_id, field, event, note, None).await
}

/// Records MDA's acceptance of the justifications.
pub async fn accept_justifications(
    ctx: &Context<'_>,
    i: RecordSocialFuelJustificationsAcceptanceInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let note = Some(i.reason.clone());
    let event = |a: &Act| SfEvent::AcceptJustifications {
        on: day(a, i.on),
        reason: i.reason,
    };
    step_sf(ctx, &i.project_id, field, event, note, None).await
}

/// Records the company's justifications.
pub async fn record_justifications(
    ctx: &Context<'_>,
    i: RecordNonConformityJustificationsInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let key = ids::arg(&i.project_id, NodeKind::SocialFuelProject, field)?;
    let p = life::record_justifications(db(ctx), &act(ctx), key, i.on.map(|d| d.0), &i.content)
        .await
        .served_as(ctx, field)?;
    Ok(SocialFuelProject(super::seen(ctx, p)?))
}

/// Records MDA's notice to the bank.
pub async fn record_bank_notice(
    ctx: &Context<'_>,
    i: RecordBankNoticeInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let key = ids::arg(&i.project_id, NodeKind::SocialFuelProject, field)?;
    let p = life::record_bank_notice(db(ctx), &act(ctx), key, i.on.map(|d| d.0), &i.reference)
        .await
        .served_as(ctx, field)?;
    Ok(SocialFuelProject(super::seen(ctx, p)?))
}

/// Records MDA's update of its public database.
pub async fn record_public_update(
    ctx: &Context<'_>,
    i: RecordPublicDatabaseUpdateInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let key = ids::arg(&i.project_id, NodeKind::SocialFuelProject, field)?;
    let p = life::record_public_update(db(ctx), &act(ctx), key, i.on.map(|d| d.0), &i.reference)
        .await
        .served_as(ctx, field)?;
    Ok(SocialFuelProject(super::seen(ctx, p)?))
}

/// Unframes a project.
pub async fn unframe(
    ctx: &Context<'_>,
    i: RecordSocialFuelUnframingInput,
    field: &'static str,
) -> Result<SocialFuelProject> {
    let note = Some(i.reason.clone());
    let event = |a: &Act| SfEvent::Unframe {
        on: day(a, i.on),
        reason: i.reason,
    };
    step_sf(ctx, &i.project_id, field, event, note, None).await
}

draft_inputs!(
    /// `draftFcoCarta`'s input: a new FCO carta, in DRAFT.
    DraftFcoCartaInput,
    /// A new FCO carta, in DRAFT.
    NewFcoCarta {
        /// The bank's number for the carta.
        pub number: String,
        /// The bank it is filed through.
        pub bank_id: ID,
        /// The borrower's CPF or CNPJ, in any punctuation.
        pub borrower_document: String,
        /// The borrower's name, needed when the document is new to Fomento.
        pub borrower_name: Option<String>,
        /// Programme line.
        pub line: FcoLine,
        /// Financed activity.
        pub activity: FcoActivity,
        /// Financed value, in reais.
        pub financed_amount: Decimal,
        /// IBGE code of the property's municipality (Mato Grosso).
        pub municipality_code: i32,
        /// Term in months.
        pub term_months: Option<i32>,
        /// Grace period in months.
        pub grace_months: Option<i32>,
        /// Sires the producer already has, shown in the technical project: they count for FCO-SIRE-RATIO with the
        /// registered ones bought (art. 6 I c).
        pub existing_sires: Option<i32>,
        /// Whether the swine herd breeds by artificial insemination: FCO-BOAR-RATIO then allows a family farmer 1 boar per
        /// 100 sows, not per 20 (art. 8 §5).
        pub artificial_insemination: Option<bool>,
        /// A special demand the instruction does not prioritise: the chamber analyses it whatever its amount (art. 14).
        #[graphql(default)]
        pub special_demand: bool,
        /// The day the borrower filed the carta with the bank (its history's first row); today when not given; not after
        /// today.
        pub created_on: Option<Date>,
    }
);

/// Creates a carta in DRAFT.
pub async fn draft_carta(ctx: &Context<'_>, input: DraftFcoCartaInput, field: &'static str) -> Result<FcoCarta> {
    let new = life::NewCarta {
        bank_id: ids::arg(&input.bank_id, NodeKind::Bank, field)?,
        number: input.number,
        borrower_document: input.borrower_document,
        borrower_name: input.borrower_name,
        line: input.line.into(),
        activity: input.activity.into(),
        financed_amount: input.financed_amount.0,
        municipality_code: input.municipality_code,
        term_months: input.term_months,
        grace_months: input.grace_months,
        existing_sires: input.existing_sires,
        artificial_insemination: input.artificial_insemination,
        special_demand: input.special_demand,
        created_on: input.created_on.map(|d| d.0),
    };
    let c = life::create_carta(db(ctx), &act(ctx), new).await.served(ctx)?;
    super::guard::audit_target(ctx, &ids::encode(NodeKind::FcoCarta, c.id));
    Ok(FcoCarta(super::seen(ctx, c)?))
}

/// `recordFcoCartaSubmission`'s input: the carta submitted and when.
#[derive(InputObject, Debug)]
pub struct RecordFcoCartaSubmissionInput {
    /// The carta's global ID.
    pub carta_id: ID,
    /// Submission date; today by default.
    pub on: Option<Date>,
    /// When it reached SEDEC (72 hours before the meeting, art. 2 §7).
    pub received_at: Option<DateTime>,
}

/// `recordFcoCartaDecision`'s input: the chamber's opinion or the bank's decision.
#[derive(InputObject, Debug)]
pub struct RecordFcoCartaDecisionInput {
    /// The carta's global ID.
    pub carta_id: ID,
    /// Favourable or unfavourable.
    pub decision: Decision,
    /// Whether the CPACR chamber decided (else the bank).
    pub by_chamber: bool,
    /// Date; today by default (the meeting's day for a carta on an agenda).
    pub on: Option<Date>,
    /// Why the chamber (or the bank) approves the carta over rules it violates on the decision's day; required then,
    /// and kept in the history.
    pub override_reason: Option<String>,
}

/// `recordFcoCartaContract`'s input: the contracting.
#[derive(InputObject, Debug)]
pub struct RecordFcoCartaContractInput {
    /// The carta's global ID.
    pub carta_id: ID,
    /// Contracting date; today by default.
    pub on: Option<Date>,
    /// Contracted value; the financed value by default.
    pub amount: Option<Decimal>,
}

/// An input naming a carta and the day of an act.
macro_rules! dated_carta_input {
    ($name:ident, $doc:literal, $on:literal) => {
        #[doc = $doc]
        #[derive(InputObject, Debug)]
        pub struct $name {
            /// The carta's global ID.
            pub carta_id: ID,
            #[doc = $on]
            pub on: Option<Date>,
        }
    };
}

dated_carta_input!(
    RecordFcoProjectPresentationInput,
    "`recordFcoProjectPresentation`'s input: the carta whose project the borrower presented to the bank.",
    "Presentation date; today by default."
);
dated_carta_input!(
    RecordFcoCartaExpiryInput,
    "`recordFcoCartaExpiry`'s input: the approved carta whose 120-day validity ran out.",
    "Date; today by default."
);

/// `draftFcoCartaResubmission`'s input: the unfavourable carta reformulated.
#[derive(InputObject, Debug)]
pub struct DraftFcoCartaResubmissionInput {
    /// The unfavourable carta's global ID.
    pub carta_id: ID,
    /// The bank's number for the new carta.
    pub number: String,
    /// The reformulated financed value; the old one by default.
    pub financed_amount: Option<Decimal>,
}

/// `recordFcoCartaAmendment`'s input: what changes in an approved or contracted carta.
#[derive(InputObject, Debug)]
pub struct RecordFcoCartaAmendmentInput {
    /// The carta's global ID.
    pub carta_id: ID,
    /// What changes.
    pub kind: AmendmentKind,
    /// What was asked.
    pub description: String,
    /// The new financed value, for value changes.
    pub new_amount: Option<Decimal>,
    /// Request date; today by default.
    pub on: Option<Date>,
    /// For a change of municipality (art. 15 d): whether the properties of the municipality the financing moves to are
    /// listed in the carta. The change is exempt from a new approval only when they are; unstated, it needs one.
    pub properties_listed: Option<bool>,
}

/// Submits a carta.
pub async fn submit(ctx: &Context<'_>, i: RecordFcoCartaSubmissionInput, field: &'static str) -> Result<FcoCarta> {
    let event = |a: &Act| FcoEvent::Submit {
        on: day(a, i.on),
        received_at: i.received_at.map(|d| d.0),
    };
    step_fco(ctx, &i.carta_id, field, event).await
}

/// Records the chamber's opinion or the bank's decision.
pub async fn decide_carta(ctx: &Context<'_>, i: RecordFcoCartaDecisionInput, field: &'static str) -> Result<FcoCarta> {
    service::access::decides_carta(&act(ctx).caller, i.by_chamber).served(ctx)?;
    let key = ids::arg(&i.carta_id, NodeKind::FcoCarta, field)?;
    let c = life::decide_carta(
        db(ctx),
        &act(ctx),
        key,
        i.decision.into(),
        i.by_chamber,
        i.on.map(|d| d.0),
        i.override_reason,
    )
    .await
    .served_as(ctx, field)?;
    Ok(FcoCarta(super::seen(ctx, c)?))
}

/// Records the contracting; `amount_field` names the amount in errors.
pub async fn contract(
    ctx: &Context<'_>,
    i: RecordFcoCartaContractInput,
    field: &'static str,
    amount_field: &'static str,
) -> Result<FcoCarta> {
    let amount = i
        .amount
        .map(|a| life::money(amount_field, a.0))
        .transpose()
        .served_as(ctx, field)?;
    step_fco(ctx, &i.carta_id, field, |a| FcoEvent::Contract {
        on: day(a, i.on),
        amount,
    })
    .await
}

/// Records the presentation of the project to the bank.
pub async fn present(ctx: &Context<'_>, i: RecordFcoProjectPresentationInput, field: &'static str) -> Result<FcoCarta> {
    step_fco(ctx, &i.carta_id, field, |a| FcoEvent::Present { on: day(a, i.on) }).await
}

/// Marks an approved carta expired.
pub async fn expire(ctx: &Context<'_>, i: RecordFcoCartaExpiryInput, field: &'static str) -> Result<FcoCarta> {
    step_fco(ctx, &i.carta_id, field, |a| FcoEvent::Expire { on: day(a, i.on) }).await
}

/// Resubmits an unfavourable carta as a new DRAFT.
pub async fn resubmit(ctx: &Context<'_>, i: DraftFcoCartaResubmissionInput, field: &'static str) -> Result<FcoCarta> {
    let key = ids::arg(&i.carta_id, NodeKind::FcoCarta, field)?;
    let amount = i.financed_amount.map(|a| a.0);
    let c = life::resubmit_carta(db(ctx), &act(ctx), key, &i.number, amount)
        .await
        .served_as(ctx, field)?;
    Ok(FcoCarta(super::seen(ctx, c)?))
}

/// Amends a carta.
pub async fn amend(ctx: &Context<'_>, i: RecordFcoCartaAmendmentInput, field: &'static str) -> Result<FcoCarta> {
    let key = ids::arg(&i.carta_id, NodeKind::FcoCarta, field)?;
    let c = life::amend_carta(
        db(ctx),
        &act(ctx),
        key,
        i.kind.into(),
        i.description,
        i.new_amount.map(|a| a.0),
        i.on.map(|d| d.0),
        i.properties_listed,
    )
    .await
    .served_as(ctx, field)?;
    Ok(FcoCarta(super::seen(ctx, c)?))
}

fn project(p: SocialFuelProject) -> SocialFuelProjectPayload {
    SocialFuelProjectPayload { project: p }
}

fn carta(c: FcoCarta) -> FcoCartaPayload {
    FcoCartaPayload { carta: c }
}

const PROJECT: &str = "input.projectId";
const CARTA: &str = "input.cartaId";

/// The lifecycle acts of both programmes, one `input` each.
#[derive(Default)]
pub struct ActsMutation;

#[Object]
impl ActsMutation {
    /// Creates a social-fuel project in DRAFT.
    async fn draft_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project.")] input: DraftSocialFuelProjectInput,
    ) -> Result<SocialFuelProjectPayload> {
        draft_project(ctx, input, "input.bankId").await.map(project)
    }

    /// Records an annex-I document received for a project (art. 8). A document of a kind already received is a new
    /// version; the earlier one is kept and still counts as received on its day. Once the request is filed, receiving
    /// a document again needs a `reason` (kept in the history) and is dated no earlier than the filing.
    async fn receive_project_document(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, the document and when it was received.")] input: ReceiveProjectDocumentInput,
    ) -> Result<ReceiveProjectDocumentPayload> {
        let document = receive_document(ctx, input, PROJECT).await?;
        Ok(ReceiveProjectDocumentPayload { document })
    }

    /// Files the request with MDA: needs the bank's framing (SF-BANK-FIRST) and the six documents (SF-DOCUMENTS).
    async fn record_social_fuel_filing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the filing date.")] input: RecordSocialFuelFilingInput,
    ) -> Result<SocialFuelProjectPayload> {
        file(ctx, input, PROJECT).await.map(project)
    }

    /// Records MDA's decision letter (art. 9). A favourable decision over SF-SHARE-MIN, SF-REPRESENTATION,
    /// SF-CONTRACT-TERMS, SF-ASSISTANCE-PLAN (no plan, or an incomplete one: art. 2), SF-BANK-FIRST or SF-DOCUMENTS
    /// violated on its day is refused by that rule unless `overrideReason` says why MDA decides so (kept in the
    /// history). A non-conformity letter states its grounds (art. 9 II). A decision dated after IN MDA nº 2/2005 was
    /// revoked is refused by none of its guards.
    async fn record_social_fuel_decision(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the letter's facts.")] input: RecordSocialFuelDecisionInput,
    ) -> Result<SocialFuelProjectPayload> {
        let letter = Some(input.letter.clone());
        decide(ctx, input, letter, PROJECT).await.map(project)
    }

    /// Records the bank's financing approval and the schedule's end (art. 10).
    async fn record_social_fuel_financing_approval(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, the approval date and the schedule's end.")]
        input: RecordSocialFuelFinancingApprovalInput,
    ) -> Result<SocialFuelProjectPayload> {
        approve(ctx, input, PROJECT).await.map(project)
    }

    /// Records the start of industrial operations (art. 10, 11).
    async fn record_industrial_operation_start(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the start date.")] input: RecordIndustrialOperationStartInput,
    ) -> Result<SocialFuelProjectPayload> {
        start_operation(ctx, input, PROJECT).await.map(project)
    }

    /// Records that MDA's external evaluation started (art. 11).
    async fn record_external_evaluation_start(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the start date.")] input: RecordExternalEvaluationStartInput,
    ) -> Result<SocialFuelProjectPayload> {
        start_evaluation(ctx, input, PROJECT).await.map(project)
    }

    /// Records the evaluation's result: conformity makes the project seal-eligible, non-conformity opens the hearing
    /// (art. 11 I–II).
    async fn record_external_evaluation_result(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the result.")] input: RecordExternalEvaluationResultInput,
    ) -> Result<SocialFuelProjectPayload> {
        conclude_evaluation(ctx, input, PROJECT).await.map(project)
    }

    /// Records the company's request for the social-fuel seal (art. 11 I).
    async fn record_social_fuel_seal_request(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the request date.")] input: RecordSocialFuelSealRequestInput,
    ) -> Result<SocialFuelProjectPayload> {
        request_seal(ctx, input, PROJECT).await.map(project)
    }

    /// The company asks for the one 6-month extension (art. 11 §2), stating its three conditions; MDA then decides it
    /// (`recordSocialFuelExtensionDecision`). Asked while operating, under evaluation, or during the non-conformity
    /// hearing.
    async fn record_social_fuel_extension_request(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the request.")] input: RecordSocialFuelExtensionRequestInput,
    ) -> Result<SocialFuelProjectPayload> {
        request_extension(ctx, input, PROJECT).await.map(project)
    }

    /// MDA grants or refuses the extension the company asked for (art. 11 §2), with its reason.
    async fn record_social_fuel_extension_decision(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and MDA's decision.")] input: RecordSocialFuelExtensionDecisionInput,
    ) -> Result<SocialFuelProjectPayload> {
        decide_extension(ctx, input, PROJECT).await.map(project)
    }

    /// MDA accepts the company's justifications and contestations of the non-conformity the evaluation found (art.
    /// 11 II): the framing is kept and the seal may be requested within 30 days.
    async fn record_social_fuel_justifications_acceptance(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and why MDA accepts.")] input: RecordSocialFuelJustificationsAcceptanceInput,
    ) -> Result<SocialFuelProjectPayload> {
        accept_justifications(ctx, input, PROJECT).await.map(project)
    }

    /// Records the company's justifications and contestations of the non-conformity found (art. 11 II), with their
    /// date and content: only during `NON_CONFORMITY_HEARING`, not before the evaluation's conclusion.
    async fn record_non_conformity_justifications(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the justifications.")] input: RecordNonConformityJustificationsInput,
    ) -> Result<SocialFuelProjectPayload> {
        record_justifications(ctx, input, PROJECT).await.map(project)
    }

    /// Records MDA's notice to the bank that approved the project (art. 11 II and §1): once it is `UNFRAMED` or
    /// `SEAL_ELIGIBLE`, not before the act it reports.
    async fn record_bank_notice(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and the notice.")] input: RecordBankNoticeInput,
    ) -> Result<SocialFuelProjectPayload> {
        record_bank_notice(ctx, input, PROJECT).await.map(project)
    }

    /// Records MDA's update of its public database with the unframing (art. 11 II): once the project is `UNFRAMED`,
    /// not before the unframing.
    async fn record_public_database_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and where the update was published.")] input: RecordPublicDatabaseUpdateInput,
    ) -> Result<SocialFuelProjectPayload> {
        record_public_update(ctx, input, PROJECT).await.map(project)
    }

    /// Unframes a project once MDA did not accept the company's justifications of the non-conformity found (art. 11
    /// II): only from `NON_CONFORMITY_HEARING`.
    async fn record_social_fuel_unframing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project and why.")] input: RecordSocialFuelUnframingInput,
    ) -> Result<SocialFuelProjectPayload> {
        unframe(ctx, input, PROJECT).await.map(project)
    }

    /// Creates an FCO carta in DRAFT.
    async fn draft_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta.")] input: DraftFcoCartaInput,
    ) -> Result<FcoCartaPayload> {
        draft_carta(ctx, input, "input.bankId").await.map(carta)
    }

    /// Submits a carta: to the chamber at or above the threshold, to the bank below it.
    async fn record_fco_carta_submission(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta and the submission's date.")] input: RecordFcoCartaSubmissionInput,
    ) -> Result<FcoCartaPayload> {
        submit(ctx, input, CARTA).await.map(carta)
    }

    /// Records the chamber's opinion or the bank's decision; the threshold decides who may decide
    /// (FCO-CHAMBER-THRESHOLD: a bank's key records its own decision on its cartas below it), the chamber decides at
    /// the meeting whose agenda holds the carta and not for an absent bank (FCO-ATTENDANCE), a favourable one must keep
    /// the group under the ceiling (FCO-CEILING), and one over a rule the carta violates needs `overrideReason`.
    async fn record_fco_carta_decision(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta and the decision.")] input: RecordFcoCartaDecisionInput,
    ) -> Result<FcoCartaPayload> {
        decide_carta(ctx, input, CARTA).await.map(carta)
    }

    /// Records the contracting: within the 120 days of a CDAE approval, or later once the project was presented to the
    /// bank within them (FCO-VALIDITY-120D, art. 3 sole §).
    async fn record_fco_carta_contract(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta, the contracting date and value.")] input: RecordFcoCartaContractInput,
    ) -> Result<FcoCartaPayload> {
        contract(ctx, input, CARTA, "input.amount").await.map(carta)
    }

    /// Records the day the borrower presented the project to the bank: the act the 120 days of a CDAE approval wait
    /// for (FCO-VALIDITY-120D, art. 3 sole §). Once presented in time, the carta may be contracted later.
    async fn record_fco_project_presentation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta and the presentation date.")] input: RecordFcoProjectPresentationInput,
    ) -> Result<FcoCartaPayload> {
        present(ctx, input, CARTA).await.map(carta)
    }

    /// Marks an approved carta expired once its 120-day validity has run out.
    async fn record_fco_carta_expiry(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta and the date.")] input: RecordFcoCartaExpiryInput,
    ) -> Result<FcoCartaPayload> {
        expire(ctx, input, CARTA).await.map(carta)
    }

    /// Resubmits an unfavourable carta once reformulated (FCO-RESUBMIT): answers the new DRAFT carta, which points to
    /// it.
    async fn draft_fco_carta_resubmission(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The unfavourable carta and the new one's number and value.")]
        input: DraftFcoCartaResubmissionInput,
    ) -> Result<FcoCartaPayload> {
        resubmit(ctx, input, CARTA).await.map(carta)
    }

    /// Amends an approved or contracted carta (FCO-AMENDMENT): exempt changes apply directly; any other reopens the
    /// approval (the carta goes back to SUBMITTED).
    async fn record_fco_carta_amendment(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta and the change.")] input: RecordFcoCartaAmendmentInput,
    ) -> Result<FcoCartaPayload> {
        amend(ctx, input, CARTA).await.map(carta)
    }
}
