//! Lifecycle mutations: thin adapters over `service::lifecycle`, where each transition of a social-fuel project or an
//! FCO carta goes through the pure state machine, is refused with the rule that forbids it, and is written with its
//! history row in one transaction.
//!
//! Size: the deprecated loose-argument mutations (removed on 2027-06-30), each a thin call into `acts`; the file goes
//! with them.

use super::{
    acts::{self, act},
    db,
    error::Served,
    ids::{self, NodeKind},
    scalars::{Date, DateTime, Decimal},
    types::{
        enums::{AmendmentKind, Decision, FcoActivity, FcoLine, ProjectDocumentKind},
        financing::{FcoCarta, ProjectDocument, SocialFuelProject},
    },
};
use async_graphql::{Context, ID, InputObject, Object, Result, SimpleObject};
use entity::vocab::Programme;
use service::lifecycle as life;

/// One step of a financing's history.
#[derive(SimpleObject, Clone, Debug)]
pub struct Transition {
    /// The stage before (null on creation).
    pub from_stage: Option<String>,
    /// The stage after.
    pub to_stage: String,
    /// What happened (`FILE`, `DECIDE`, `CONTRACT`, ...).
    pub event: String,
    /// The legal date of the event.
    pub occurred_on: Date,
    /// When it was recorded.
    pub recorded_at: DateTime,
    /// Who recorded it.
    pub actor: String,
    /// What Fomento noted of the step (a document received, an act over violated rules, an expiry, ...) in the
    /// request's language, with a person's words (a reason, a reference) as written; or a person's note alone. Notes
    /// written before they were stored as messages read as written then (English).
    pub note: Option<String>,
}

/// The history of a financing, oldest first (a carta a bank's list created shows the report that created it first).
pub async fn history(
    ctx: &Context<'_>,
    programme: Programme,
    id: i64,
    known_at: Option<DateTime>,
) -> Result<Vec<Transition>> {
    let mut rows = life::history(db(ctx), programme, id, super::error::lang(ctx))
        .await
        .served(ctx)?;
    if let Some(at) = known_at {
        let at = service::known_at::instant(at.0);
        rows.retain(|r| r.recorded_at <= at);
    }
    let authority = service::compliance::authority(programme);
    Ok(rows
        .into_iter()
        .map(|r| Transition {
            from_stage: r.from_stage,
            to_stage: r.to_stage,
            event: r.event,
            occurred_on: Date(r.occurred_on),
            recorded_at: DateTime(r.recorded_at, authority),
            actor: r.actor,
            note: r.note,
        })
        .collect())
}

/// A new social-fuel project, in DRAFT.
#[derive(InputObject, Debug)]
pub struct NewSocialFuelProject {
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

/// A new FCO carta, in DRAFT.
#[derive(InputObject, Debug)]
pub struct NewFcoCarta {
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

/// `updateFcoCarta`'s input: the facts stated at the carta's creation that are corrected (each one given replaces the
/// stated value; the others stay), from which day, and why.
#[derive(InputObject, Debug)]
pub struct UpdateFcoCartaInput {
    /// The carta's global ID.
    pub carta_id: ID,
    /// Sires the producer already has, shown in the technical project (art. 6 I c).
    pub existing_sires: Option<i32>,
    /// Whether the herd breeds by artificial insemination (art. 6 §7, art. 7 §6, art. 8 §5).
    pub artificial_insemination: Option<bool>,
    /// The qualified professional for embryo transfer or fixed-time AI (art. 6 §6–8).
    pub professional_name: Option<String>,
    /// Term in months (0 to 600).
    pub term_months: Option<i32>,
    /// Grace period in months (0 to 600).
    pub grace_months: Option<i32>,
    /// A special demand (art. 14): corrected only before the submission, since it decides who analyses the carta.
    pub special_demand: Option<bool>,
    /// The first day the corrected facts hold; today by default; not after today. A day before the carta's creation
    /// corrects them from the start.
    pub effective_on: Option<Date>,
    /// Why they are corrected: kept in the history and with the version replaced.
    pub reason: String,
}

/// What `updateFcoCarta` answers.
#[derive(SimpleObject)]
pub struct FcoCartaPayload {
    /// The carta with the corrected facts (`statedOn` the day they hold from).
    pub carta: FcoCarta,
}

/// Lifecycle mutations of both programmes.
#[derive(Default)]
pub struct LifecycleMutation;

#[Object]
impl LifecycleMutation {
    /// Creates a social-fuel project in DRAFT.
    #[graphql(deprecation = "Use `draftSocialFuelProject(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn create_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project.")] input: NewSocialFuelProject,
    ) -> Result<SocialFuelProject> {
        let input = acts::DraftSocialFuelProjectInput {
            title: input.title,
            bank_id: input.bank_id,
            producer_document: input.producer_document,
            producer_name: input.producer_name,
            plant_municipality_code: input.plant_municipality_code,
            requested_amount: input.requested_amount,
            bank_framed_on: input.bank_framed_on,
            created_on: input.created_on,
        };
        acts::draft_project(ctx, input, "input.bankId").await
    }

    /// Records an annex-I document received for a project (art. 8). A document of a kind already received is a new
    /// version; the earlier one is kept and still counts as received on its day. Once the request is filed, receiving
    /// a document again needs a `reason` (kept in the history) and is dated no earlier than the filing.
    #[graphql(deprecation = "Use `receiveProjectDocument(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn add_project_document(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] project_id: ID,
        #[graphql(desc = "Which of the six documents.")] kind: ProjectDocumentKind,
        #[graphql(desc = "When it was received; today by default; not after today.")] received_on: Option<Date>,
        #[graphql(desc = "Protocol or file reference.")] reference: Option<String>,
        #[graphql(desc = "Why it is received again, once the request is filed.")] reason: Option<String>,
    ) -> Result<ProjectDocument> {
        let input = acts::ReceiveProjectDocumentInput {
            project_id,
            kind,
            received_on,
            reference,
            reason,
        };
        acts::receive_document(ctx, input, "projectId").await
    }

    /// Files the request with MDA: needs the bank's framing (SF-BANK-FIRST) and the six documents (SF-DOCUMENTS).
    #[graphql(deprecation = "Use `recordSocialFuelFiling(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn file_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Filing date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        acts::file(ctx, acts::RecordSocialFuelFilingInput { project_id: id, on }, "id").await
    }

    /// Records MDA's decision letter (art. 9). A favourable decision over SF-SHARE-MIN, SF-REPRESENTATION,
    /// SF-CONTRACT-TERMS, SF-ASSISTANCE-PLAN (no plan, or an incomplete one: art. 2), SF-BANK-FIRST or SF-DOCUMENTS
    /// violated on its day is refused by that rule unless `overrideReason` says why MDA decides so (kept in the
    /// history). A non-conformity letter states its grounds (art. 9 II). A decision dated after IN MDA nº 2/2005 was
    /// revoked is refused by none of its guards.
    // Each argument is one of the letter's facts as the schema names them (art. 9).
    #[allow(clippy::too_many_arguments)]
    #[graphql(deprecation = "Use `recordSocialFuelDecision(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn decide_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Conformity (FAVOURABLE) or non-conformity (UNFAVOURABLE).")] decision: Decision,
        #[graphql(desc = "Date of the letter; today by default.")] on: Option<Date>,
        #[graphql(
            desc = "Reference of the letter (ofício) naming the company and its CNPJ (art. 9 I–II): required; a decision without it is refused (SF-DECISION-LETTER)."
        )]
        letter: Option<String>,
        #[graphql(
            desc = "What the analysis was based on (art. 9 II): required of a non-conformity letter (SF-DECISION-LETTER)."
        )]
        grounds: Option<String>,
        #[graphql(
            desc = "Who signed the letter: the Secretary of Family Agriculture or a legal representative (art. 9 I–II)."
        )]
        signatory: Option<String>,
        #[graphql(desc = "Why MDA decides favourably over rules the project violates; kept in the history.")]
        override_reason: Option<String>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordSocialFuelDecisionInput {
            project_id: id,
            decision,
            on,
            letter: String::new(),
            grounds,
            signatory,
            override_reason,
        };
        acts::decide(ctx, input, letter, "id").await
    }

    /// Records the bank's financing approval and the schedule's end (art. 10).
    #[graphql(
        deprecation = "Use `recordSocialFuelFinancingApproval(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn approve_social_fuel_financing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Approval date; today by default.")] on: Option<Date>,
        #[graphql(desc = "Scheduled end of implementation.")] scheduled_end: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordSocialFuelFinancingApprovalInput {
            project_id: id,
            on,
            scheduled_end,
        };
        acts::approve(ctx, input, "id").await
    }

    /// Records the start of industrial operations (art. 10, 11).
    #[graphql(
        deprecation = "Use `recordIndustrialOperationStart(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn start_industrial_operation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Start date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        acts::start_operation(
            ctx,
            acts::RecordIndustrialOperationStartInput { project_id: id, on },
            "id",
        )
        .await
    }

    /// Records that MDA's external evaluation started (art. 11).
    #[graphql(
        deprecation = "Use `recordExternalEvaluationStart(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn start_external_evaluation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Start date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        acts::start_evaluation(
            ctx,
            acts::RecordExternalEvaluationStartInput { project_id: id, on },
            "id",
        )
        .await
    }

    /// Records the evaluation's result: conformity makes the project seal-eligible, non-conformity unframes it
    /// (art. 11 I–II).
    #[graphql(
        deprecation = "Use `recordExternalEvaluationResult(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn conclude_external_evaluation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Conformity (FAVOURABLE) or not.")] result: Decision,
        #[graphql(desc = "Conclusion date; today by default.")] on: Option<Date>,
        #[graphql(desc = "Why, on non-conformity.")] reason: Option<String>,
        #[graphql(desc = "Why MDA finds conformity over a violated SF-SCHEDULE; kept in the history.")]
        override_reason: Option<String>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordExternalEvaluationResultInput {
            project_id: id,
            result,
            on,
            reason,
            override_reason,
        };
        acts::conclude_evaluation(ctx, input, "id").await
    }

    /// Records the company's request for the social-fuel seal (art. 11 I).
    #[graphql(
        deprecation = "Use `recordSocialFuelSealRequest(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn request_social_fuel_seal(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Request date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        acts::request_seal(ctx, acts::RecordSocialFuelSealRequestInput { project_id: id, on }, "id").await
    }

    /// The company asks for the one 6-month extension (art. 11 §2), stating its three conditions; MDA then decides it
    /// (`decideSocialFuelExtension`): the text says the framing "poderá" be kept. Asked while operating, under
    /// evaluation, or during the non-conformity hearing (where the framing is at stake: granted there, it keeps the
    /// framing to the end of the 12 months since the industrial start).
    #[graphql(
        deprecation = "Use `recordSocialFuelExtensionRequest(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn request_social_fuel_extension(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "The company's justification.")] justification: String,
        #[graphql(desc = "Whether the contracted purchases are honoured.")] purchases_honoured: bool,
        #[graphql(desc = "Whether the contracted farmers have technical assistance.")] farmers_assisted: bool,
        #[graphql(desc = "Request date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordSocialFuelExtensionRequestInput {
            project_id: id,
            justification,
            purchases_honoured,
            farmers_assisted,
            on,
        };
        acts::request_extension(ctx, input, "id").await
    }

    /// MDA grants or refuses the extension the company asked for (art. 11 §2), with its reason.
    #[graphql(
        deprecation = "Use `recordSocialFuelExtensionDecision(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn decide_social_fuel_extension(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Granted (true) or refused.")] granted: bool,
        #[graphql(desc = "MDA's reason.")] reason: String,
        #[graphql(desc = "Date of the decision; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordSocialFuelExtensionDecisionInput {
            project_id: id,
            granted,
            reason,
            on,
        };
        acts::decide_extension(ctx, input, "id").await
    }

    /// MDA accepts the company's justifications and contestations of the non-conformity the evaluation found (art.
    /// 11 II): the framing is kept and the seal may be requested within 30 days.
    #[graphql(
        deprecation = "Use `recordSocialFuelJustificationsAcceptance(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn accept_social_fuel_justifications(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Why MDA accepts them.")] reason: String,
        #[graphql(desc = "Date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordSocialFuelJustificationsAcceptanceInput {
            project_id: id,
            reason,
            on,
        };
        acts::accept_justifications(ctx, input, "id").await
    }

    /// Records the company's justifications and contestations of the non-conformity found (art. 11 II), with their
    /// date and content: only during `NON_CONFORMITY_HEARING`, not before the evaluation's conclusion.
    #[graphql(
        deprecation = "Use `recordNonConformityJustifications(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn record_social_fuel_justifications(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "What the company's justifications and contestations say.")] content: String,
        #[graphql(desc = "When they were filed; today by default; not after today.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordNonConformityJustificationsInput {
            project_id: id,
            content,
            on,
        };
        acts::record_justifications(ctx, input, "id").await
    }

    /// Records MDA's notice to the bank that approved the project (art. 11 II and §1): once it is `UNFRAMED` or
    /// `SEAL_ELIGIBLE`, not before the act it reports.
    #[graphql(deprecation = "Use `recordBankNotice(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn record_social_fuel_bank_notice(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Reference of the notice (ofício).")] reference: String,
        #[graphql(desc = "When it was sent; today by default; not after today.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordBankNoticeInput {
            project_id: id,
            reference,
            on,
        };
        acts::record_bank_notice(ctx, input, "id").await
    }

    /// Records MDA's update of its public database with the unframing (art. 11 II): once the project is `UNFRAMED`,
    /// not before the unframing.
    #[graphql(
        deprecation = "Use `recordPublicDatabaseUpdate(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn record_social_fuel_public_update(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Where the update was published (address or reference).")] reference: String,
        #[graphql(desc = "When it was published; today by default; not after today.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordPublicDatabaseUpdateInput {
            project_id: id,
            reference,
            on,
        };
        acts::record_public_update(ctx, input, "id").await
    }

    /// Unframes a project once MDA did not accept the company's justifications of the non-conformity found (art. 11
    /// II): only from `NON_CONFORMITY_HEARING`.
    #[graphql(deprecation = "Use `recordSocialFuelUnframing(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn unframe_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Why MDA did not accept the justifications.")] reason: String,
        #[graphql(desc = "Date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let input = acts::RecordSocialFuelUnframingInput {
            project_id: id,
            reason,
            on,
        };
        acts::unframe(ctx, input, "id").await
    }

    /// Creates an FCO carta in DRAFT.
    #[graphql(deprecation = "Use `draftFcoCarta(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn create_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta.")] input: NewFcoCarta,
    ) -> Result<FcoCarta> {
        let input = acts::DraftFcoCartaInput {
            number: input.number,
            bank_id: input.bank_id,
            borrower_document: input.borrower_document,
            borrower_name: input.borrower_name,
            line: input.line,
            activity: input.activity,
            financed_amount: input.financed_amount,
            municipality_code: input.municipality_code,
            term_months: input.term_months,
            grace_months: input.grace_months,
            existing_sires: input.existing_sires,
            artificial_insemination: input.artificial_insemination,
            special_demand: input.special_demand,
            created_on: input.created_on,
        };
        acts::draft_carta(ctx, input, "input.bankId").await
    }

    /// Submits a carta: to the chamber at or above the threshold, to the bank below it.
    #[graphql(deprecation = "Use `recordFcoCartaSubmission(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn submit_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Submission date; today by default.")] on: Option<Date>,
        #[graphql(desc = "When it reached SEDEC (72 hours before the meeting, art. 2 §7).")] received_at: Option<
            DateTime,
        >,
    ) -> Result<FcoCarta> {
        let input = acts::RecordFcoCartaSubmissionInput {
            carta_id: id,
            on,
            received_at,
        };
        acts::submit(ctx, input, "id").await
    }

    /// Records the chamber's opinion or the bank's decision; the threshold decides who may decide
    /// (FCO-CHAMBER-THRESHOLD: a bank's key records its own decision on its cartas below it), the chamber decides at
    /// the meeting whose agenda holds the carta and not for an absent bank (FCO-ATTENDANCE), a favourable one must keep
    /// the group under the ceiling (FCO-CEILING), and one over a rule the carta violates needs `overrideReason`.
    #[graphql(deprecation = "Use `recordFcoCartaDecision(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn decide_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Favourable or unfavourable.")] decision: Decision,
        #[graphql(desc = "Whether the CPACR chamber decided (else the bank).")] by_chamber: bool,
        #[graphql(desc = "Date; today by default (the meeting's day for a carta on an agenda).")] on: Option<Date>,
        #[graphql(
            desc = "Why the chamber (or the bank) approves the carta over rules it violates on the decision's day; \
                    required then, and kept in the history."
        )]
        override_reason: Option<String>,
    ) -> Result<FcoCarta> {
        let input = acts::RecordFcoCartaDecisionInput {
            carta_id: id,
            decision,
            by_chamber,
            on,
            override_reason,
        };
        acts::decide_carta(ctx, input, "id").await
    }

    /// Records the contracting: within the 120 days of a CDAE approval, or later once the project was presented to the
    /// bank within them (FCO-VALIDITY-120D, art. 3 sole §).
    #[graphql(deprecation = "Use `recordFcoCartaContract(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn contract_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Contracting date; today by default.")] on: Option<Date>,
        #[graphql(desc = "Contracted value; the financed value by default.")] amount: Option<Decimal>,
    ) -> Result<FcoCarta> {
        let input = acts::RecordFcoCartaContractInput {
            carta_id: id,
            on,
            amount,
        };
        acts::contract(ctx, input, "id", "amount").await
    }

    /// Records the day the borrower presented the project to the bank: the act the 120 days of a CDAE approval wait
    /// for (FCO-VALIDITY-120D, art. 3 sole §). Once presented in time, the carta may be contracted later.
    #[graphql(
        deprecation = "Use `recordFcoProjectPresentation(input:)`, which answers a payload; removed on 2027-06-30."
    )]
    async fn present_fco_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Presentation date; today by default.")] on: Option<Date>,
    ) -> Result<FcoCarta> {
        acts::present(ctx, acts::RecordFcoProjectPresentationInput { carta_id: id, on }, "id").await
    }

    /// Marks an approved carta expired once its 120-day validity has run out.
    #[graphql(deprecation = "Use `recordFcoCartaExpiry(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn expire_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Date; today by default.")] on: Option<Date>,
    ) -> Result<FcoCarta> {
        acts::expire(ctx, acts::RecordFcoCartaExpiryInput { carta_id: id, on }, "id").await
    }

    /// Resubmits an unfavourable carta once reformulated (FCO-RESUBMIT): a new DRAFT carta that points to it.
    #[graphql(deprecation = "Use `draftFcoCartaResubmission(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn resubmit_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The unfavourable carta's global ID.")] id: ID,
        #[graphql(desc = "The bank's number for the new carta.")] number: String,
        #[graphql(desc = "The reformulated financed value; the old one by default.")] financed_amount: Option<Decimal>,
    ) -> Result<FcoCarta> {
        let input = acts::DraftFcoCartaResubmissionInput {
            carta_id: id,
            number,
            financed_amount,
        };
        acts::resubmit(ctx, input, "id").await
    }

    /// Corrects the facts stated at the carta's creation (sires, artificial insemination, professional, term, grace,
    /// special demand) as a new dated version, never overwriting: the rules judged `asOf` a day before `effectiveOn`
    /// read the version stated then, and the history keeps the old and new values. A bank corrects its own cartas only;
    /// refused on a contracted carta (FCO-AMENDMENT: amend it), an unfavourable one (FCO-RESUBMIT) or an expired one
    /// (FCO-VALIDITY-120D); `specialDemand` only before the submission (FCO-SPECIAL-DEMAND).
    async fn update_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta, the corrected facts, from which day and why.")] input: UpdateFcoCartaInput,
    ) -> Result<FcoCartaPayload> {
        let key = ids::arg(&input.carta_id, NodeKind::FcoCarta, "input.cartaId")?;
        let statement = life::CartaStatement {
            existing_sires: input.existing_sires,
            artificial_insemination: input.artificial_insemination,
            professional_name: input.professional_name,
            term_months: input.term_months,
            grace_months: input.grace_months,
            special_demand: input.special_demand,
            effective_on: input.effective_on.map(|d| d.0),
            reason: input.reason,
        };
        let c = life::update_carta(db(ctx), &act(ctx), key, statement)
            .await
            .served(ctx)?;
        super::guard::audit_target(ctx, &ids::encode(NodeKind::FcoCarta, c.id));
        Ok(FcoCartaPayload {
            carta: FcoCarta(super::seen(ctx, c)?),
        })
    }

    /// Amends an approved or contracted carta (FCO-AMENDMENT): exempt changes apply directly; any other reopens
    /// the approval (the carta goes back to SUBMITTED).
    #[allow(clippy::too_many_arguments)]
    #[graphql(deprecation = "Use `recordFcoCartaAmendment(input:)`, which answers a payload; removed on 2027-06-30.")]
    async fn amend_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "What changes.")] kind: AmendmentKind,
        #[graphql(desc = "What was asked.")] description: String,
        #[graphql(desc = "The new financed value, for value changes.")] new_amount: Option<Decimal>,
        #[graphql(desc = "Request date; today by default.")] on: Option<Date>,
        #[graphql(
            desc = "For a change of municipality (art. 15 d): whether the properties of the municipality the financing \
                    moves to are listed in the carta. The change is exempt from a new approval only when they are; \
                    unstated, it needs one."
        )]
        properties_listed: Option<bool>,
    ) -> Result<FcoCarta> {
        let input = acts::RecordFcoCartaAmendmentInput {
            carta_id: id,
            kind,
            description,
            new_amount,
            on,
            properties_listed,
        };
        acts::amend(ctx, input, "id").await
    }
}
