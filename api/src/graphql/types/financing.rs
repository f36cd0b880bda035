//! The two kinds of financing and their facts (the interfaces they share are in [`super`]).
//!
//! Size: every field of the two financings and of their facts, each a documented resolver of a line or two.

use super::super::{
    error::{ApiError, Served, gql},
    loader,
    loaders::{
        AcquisitionsByProject, AmendmentsByCarta, BankLoader, CyclesByCarta, DocumentsByProject, FcoCartaLoader,
        ItemsByCarta, MunicipalityLoader, PartyLoader, ProposalsByProject,
    },
    prefetched::Prefetched,
    scalars::{Date, DateTime, Decimal},
};
use super::{
    enums::{
        AmendmentKind, Decision, FcoActivity, FcoCartaStage, FcoLine, InvestmentClass, ItemKind, ProjectDocumentKind,
        RepresentationKind, SupplierKind,
    },
    objects::{Bank, Municipality, Party},
};
use async_graphql::Result;
use async_graphql::{Context, Object};
use entity::Versioned;
use entity::{
    contract_proposal, fco_carta, fco_carta_amendment, fco_carta_item, feedstock_acquisition, project_document,
    social_fuel_project,
};
use service::visible::{self, Seen};

pub(crate) async fn bank_of(ctx: &Context<'_>, id: i64) -> Result<Bank> {
    if let Some(b) = ctx.data_opt::<Prefetched>().and_then(|p| p.bank(id)) {
        return Ok(b);
    }
    loader::<BankLoader>(ctx)
        .load_one(id)
        .await
        .map_err(gql)?
        .map(|b| Bank(visible::public(b)))
        .ok_or_else(|| gql(ApiError::Internal(format!("bank {id} is referenced but missing"))))
}

/// The borrower of a financing the caller sees (seen with it).
pub(crate) async fn borrower_of<F: visible::Financed>(ctx: &Context<'_>, financing: &Seen<F>) -> Result<Party> {
    let id = financing.party_of();
    if let Some(p) = ctx
        .data_opt::<Prefetched>()
        .and_then(|p| p.party(financing.financing()))
    {
        return Ok(p);
    }
    loader::<PartyLoader>(ctx)
        .load_one(id)
        .await
        .map_err(gql)?
        .and_then(|p| visible::borrower(&super::super::caller(ctx), financing, p))
        .map(Party)
        .ok_or_else(|| gql(ApiError::Internal(format!("party {id} is referenced but missing"))))
}

/// A party by id, when the caller may see it.
pub(crate) async fn party_of(ctx: &Context<'_>, id: i64) -> Result<Option<Party>> {
    let Some(p) = loader::<PartyLoader>(ctx).load_one(id).await.map_err(gql)? else {
        return Ok(None);
    };
    Ok(visible::party(super::super::db(ctx), &super::super::caller(ctx), p)
        .await
        .served(ctx)?
        .map(Party))
}

pub(crate) async fn municipality_of(ctx: &Context<'_>, code: i32) -> Result<Municipality> {
    if let Some(m) = ctx.data_opt::<Prefetched>().and_then(|p| p.municipality(code)) {
        return Ok(m);
    }
    loader::<MunicipalityLoader>(ctx)
        .load_one(code)
        .await
        .map_err(gql)?
        .map(|m| Municipality(visible::public(m)))
        .ok_or_else(|| {
            gql(ApiError::Internal(format!(
                "municipality {code} is referenced but missing"
            )))
        })
}

fn date(d: Option<chrono::NaiveDate>) -> Option<Date> {
    d.map(Date)
}

/// A biodiesel producer's project seeking MDA's social framing (IN MDA nº 2/2005).
#[derive(Clone, Debug)]
pub struct SocialFuelProject(pub Seen<social_fuel_project::Model>);

/// A biodiesel producer's project seeking MDA's social framing (IN MDA nº 2/2005).
#[fomento_macros::shared_fields]
#[Object]
impl SocialFuelProject {
    // The `Financing` interface's fields and `stage`, declared once for both financings (`fomento_macros`).
    financing_fields!(
        kind = SocialFuelProject,
        programme = SocialFuel,
        stage = SocialFuelStage,
        bank = "The bank where financing is sought; it must have framed the project first \
                (IN MDA nº 2/2005, art. 7).",
        party = "The producer company.",
        municipality = (
            plant_municipality_code,
            "The plant's municipality; its region sets the minimum family-farm share (art. 3)."
        ),
        amount = (requested_amount, "Financing sought, in reais."),
        submitted_on = (
            filed_on,
            "Filing date (protocolização), which starts MDA's 30-day decision clock (art. 9)."
        ),
        decided_on = (decided_on, "Date of MDA's decision letter (art. 9)."),
        contracted_on = (financing_approved_on, "Date the bank approved the financing (art. 10)."),
    );

    /// Title of the project.
    pub(crate) async fn title(&self) -> &str {
        &self.0.title
    }

    /// Date of the bank's framing letter (art. 7).
    pub(crate) async fn bank_framed_on(&self) -> Option<Date> {
        date(self.0.bank_framed_on)
    }

    /// Whether the bank analyses the social criteria itself under a cooperation agreement (art. 7).
    pub(crate) async fn analysed_by_bank(&self) -> bool {
        self.0.analysed_by_bank
    }

    /// MDA's decision: conformity or non-conformity (art. 9).
    pub(crate) async fn decision(&self) -> Option<Decision> {
        self.0.decision.map(Into::into)
    }

    /// Reference of the decision letter (ofício).
    pub(crate) async fn decision_letter(&self) -> Option<&str> {
        self.0.decision_letter.as_deref()
    }

    /// What a non-conformity letter says the analysis was based on (art. 9 II).
    pub(crate) async fn decision_grounds(&self) -> Option<&str> {
        self.0.decision_grounds.as_deref()
    }

    /// Who signed the decision letter (art. 9 I–II).
    pub(crate) async fn decision_signatory(&self) -> Option<&str> {
        self.0.decision_signatory.as_deref()
    }

    /// Date the company filed its justifications and contestations of a non-conformity (art. 11 II).
    pub(crate) async fn justifications_filed_on(&self) -> Option<Date> {
        date(self.0.justifications_filed_on)
    }

    /// What the company's justifications and contestations say (art. 11 II).
    pub(crate) async fn justifications_content(&self) -> Option<&str> {
        self.0.justifications_content.as_deref()
    }

    /// Date MDA notified the bank that approved the project (art. 11 II and §1).
    pub(crate) async fn bank_notified_on(&self) -> Option<Date> {
        date(self.0.bank_notified_on)
    }

    /// Reference of MDA's notice to the bank.
    pub(crate) async fn bank_notice_reference(&self) -> Option<&str> {
        self.0.bank_notice_reference.as_deref()
    }

    /// Scheduled end of implementation in the physical-financial schedule (art. 10).
    pub(crate) async fn scheduled_implementation_end(&self) -> Option<Date> {
        date(self.0.scheduled_implementation_end)
    }

    /// Whether MDA accepted a schedule delay, which it does only once the bank has (art. 10 §2).
    pub(crate) async fn schedule_delay_accepted(&self) -> bool {
        self.0.schedule_delay_accepted
    }

    /// Date the company presented its physical-financial schedule to MDA (art. 10 caput).
    pub(crate) async fn schedule_presented_on(&self) -> Option<Date> {
        date(self.0.schedule_presented_on)
    }

    /// Date MDA accepted the delay of the implementation schedule, after the bank (art. 10 §2); null when no delay was
    /// accepted, or for a delay accepted before the day was kept.
    pub(crate) async fn delay_accepted_on(&self) -> Option<Date> {
        date(self.0.delay_accepted_on)
    }

    /// The implementation end scheduled before the first delay MDA accepted: the schedule ends on it until
    /// `delayAcceptedOn` (`scheduledImplementationEnd` is the end in force now).
    pub(crate) async fn original_implementation_end(&self) -> Option<Date> {
        date(self.0.original_implementation_end)
    }

    /// Date the bank accepted a delay of the implementation schedule: the bank's own act (art. 10 §2).
    pub(crate) async fn delay_bank_accepted_on(&self) -> Option<Date> {
        date(self.0.delay_bank_accepted_on)
    }

    /// Who at the bank accepted the delay, as the bank states it.
    pub(crate) async fn delay_bank_accepted_by(&self) -> Option<&str> {
        self.0.delay_bank_accepted_by.as_deref()
    }

    /// Date MDA updated its public database with the unframing (art. 11 II).
    pub(crate) async fn public_update_on(&self) -> Option<Date> {
        date(self.0.public_update_on)
    }

    /// Where MDA published the update (address or reference).
    pub(crate) async fn public_update_reference(&self) -> Option<&str> {
        self.0.public_update_reference.as_deref()
    }

    /// Start of industrial operations (art. 11).
    pub(crate) async fn industrial_start_on(&self) -> Option<Date> {
        date(self.0.industrial_start_on)
    }

    /// Date MDA's external evaluation concluded (art. 11).
    pub(crate) async fn external_evaluation_on(&self) -> Option<Date> {
        date(self.0.external_evaluation_on)
    }

    /// Outcome of the external evaluation.
    pub(crate) async fn evaluation_result(&self) -> Option<Decision> {
        self.0.evaluation_result.map(Into::into)
    }

    /// Date the social-fuel seal was requested (art. 11 I).
    pub(crate) async fn seal_requested_on(&self) -> Option<Date> {
        date(self.0.seal_requested_on)
    }

    /// Date the one 6-month extension was requested (art. 11 §2).
    pub(crate) async fn extension_requested_on(&self) -> Option<Date> {
        date(self.0.extension_requested_on)
    }

    /// Date MDA granted the extension (art. 11 §2).
    pub(crate) async fn extension_granted_on(&self) -> Option<Date> {
        date(self.0.extension_granted_on)
    }

    /// The company's justification for the extension (art. 11 §2 I).
    pub(crate) async fn extension_justification(&self) -> Option<&str> {
        self.0.extension_justification.as_deref()
    }

    /// Date MDA refused the extension.
    pub(crate) async fn extension_refused_on(&self) -> Option<Date> {
        date(self.0.extension_refused_on)
    }

    /// MDA's reason for granting or refusing the extension.
    pub(crate) async fn extension_decision_reason(&self) -> Option<&str> {
        self.0.extension_decision_reason.as_deref()
    }

    /// What the external evaluation found, on non-conformity: MDA's words as written, or, when MDA gave none, the
    /// default finding in the request's language.
    pub(crate) async fn evaluation_finding(&self, ctx: &Context<'_>) -> Option<String> {
        let lang = crate::graphql::error::lang(ctx);
        entity::rules::social_fuel::finding(&self.0).map(|f| service::l10n::explanation(&f, lang))
    }

    /// Date MDA accepted the company's justifications of a non-conformity (art. 11 II): the framing was kept.
    pub(crate) async fn justifications_accepted_on(&self) -> Option<Date> {
        date(self.0.justifications_accepted_on)
    }

    /// Why MDA accepted them.
    pub(crate) async fn justifications_reason(&self) -> Option<&str> {
        self.0.justifications_reason.as_deref()
    }

    /// Date of unframing (art. 11 II).
    pub(crate) async fn unframed_on(&self) -> Option<Date> {
        date(self.0.unframed_on)
    }

    /// Why the project was unframed.
    pub(crate) async fn unframing_reason(&self) -> Option<&str> {
        self.0.unframing_reason.as_deref()
    }

    // `compliance`, `deadlines` and `history`, declared once for both financings (`fomento_macros`).
    judged_fields!(Project, SocialFuel, "project");

    /// The compliance flags raised on this project, newest first.
    pub(crate) async fn flags(&self, ctx: &Context<'_>) -> Result<Vec<super::super::flags::ComplianceFlag>> {
        flags_of(ctx, &self.0).await
    }

    /// Feedstock acquisitions, the terms of the family-farm share (art. 3, 4).
    async fn acquisitions(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Also the corrected and removed versions.", default = false)] include_superseded: bool,
    ) -> Result<Vec<FeedstockAcquisition>> {
        let rows = loader::<AcquisitionsByProject>(ctx)
            .load_one(self.0.id)
            .await
            .map_err(gql)?;
        Ok(versions(rows, include_superseded).map(FeedstockAcquisition).collect())
    }

    /// Contract proposals with family farmers (art. 5): the versions in force, or every version on request.
    async fn contract_proposals(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Also the corrected and removed versions.", default = false)] include_superseded: bool,
    ) -> Result<Vec<ContractProposal>> {
        let rows = loader::<ProposalsByProject>(ctx)
            .load_one(self.0.id)
            .await
            .map_err(gql)?;
        Ok(versions(rows, include_superseded).map(ContractProposal).collect())
    }

    /// The technical-assistance plan (art. 6), when recorded.
    async fn assistance_plan(&self, ctx: &Context<'_>) -> Result<Option<AssistancePlan>> {
        let rows = loader::<super::super::loaders::PlansByProject>(ctx)
            .load_one(self.0.id)
            .await
            .map_err(gql)?;
        Ok(rows
            .unwrap_or_default()
            .into_iter()
            .find(|p| p.is_current())
            .map(AssistancePlan))
    }

    /// The external evaluation's findings (art. 11), one per criterion of the seal.
    async fn evaluation_findings(&self, ctx: &Context<'_>) -> Result<Vec<EvaluationFinding>> {
        let rows = loader::<super::super::loaders::FindingsByProject>(ctx)
            .load_one(self.0.id)
            .await
            .map_err(gql)?;
        Ok(rows.unwrap_or_default().into_iter().map(EvaluationFinding).collect())
    }

    /// The company's notices of changes (art. 12), oldest first.
    async fn change_notices(&self, ctx: &Context<'_>) -> Result<Vec<CompanyChangeNotice>> {
        let rows = loader::<super::super::loaders::ChangeNoticesByProject>(ctx)
            .load_one(self.0.id)
            .await
            .map_err(gql)?;
        Ok(rows.unwrap_or_default().into_iter().map(CompanyChangeNotice).collect())
    }

    /// The annex-I documents received with the request (art. 8): the latest of each kind, or, with
    /// `includeSuperseded`, every one received (a document received again is a new version; the dossier as filed
    /// keeps the earlier one).
    async fn documents(
        &self,
        ctx: &Context<'_>,
        #[graphql(default = false, desc = "List the earlier versions too.")] include_superseded: bool,
    ) -> Result<Vec<ProjectDocument>> {
        let rows = loader::<DocumentsByProject>(ctx)
            .load_one(self.0.id)
            .await
            .map_err(gql)?;
        Ok(versions(rows, include_superseded).map(ProjectDocument).collect())
    }
}

/// The versions of a fact a field lists: those in force, or every one when `all`.
fn versions<T: Versioned>(rows: Option<Vec<T>>, all: bool) -> impl Iterator<Item = T> {
    rows.unwrap_or_default()
        .into_iter()
        .filter(move |v| all || v.is_current())
}

/// A version of a recorded fact (a carta's item, a project's acquisition): facts are edited freely until the decision
/// that relies on them, and corrected by new versions after it, the old one kept.
#[derive(async_graphql::SimpleObject, Clone, Debug)]
pub struct FactVersion {
    /// When this version was recorded (null for facts recorded before versions were kept).
    pub recorded_at: Option<DateTime>,
    /// Who recorded it.
    pub recorded_by: Option<String>,
    /// When it was corrected or removed; null while in force.
    pub superseded_at: Option<DateTime>,
    /// The version that corrected it; null when removed or in force.
    pub superseded_by: Option<i64>,
    /// Why it was recorded after the decision, corrected or removed.
    pub change_reason: Option<String>,
    /// The first day this version holds: the day the fact happened or took this form (`compliance(asOf:)` reads it
    /// from then, whenever it was recorded); null: from the start.
    pub effective_on: Option<Date>,
    /// The day a later version or a removal took its place (it holds until the day before); null: still holds.
    pub ended_on: Option<Date>,
    /// How `effectiveOn` was set when no person gave it (facts recorded before the days were kept: the best day
    /// known, named); null when given.
    pub dated_by: Option<String>,
}

impl FactVersion {
    fn of(clock: fn(chrono::DateTime<chrono::Utc>) -> DateTime, v: &impl entity::Versioned) -> Self {
        Self {
            recorded_at: v.recorded_at().map(clock),
            recorded_by: v.recorded_by().map(Into::into),
            superseded_at: v.superseded_at().map(clock),
            superseded_by: v.superseded_by(),
            change_reason: v.change_reason().map(Into::into),
            effective_on: v.effective_on().map(Date),
            ended_on: v.ended_on().map(Date),
            dated_by: v.dated_by().map(Into::into),
        }
    }
}

/// Feedstock a producer acquired, or produced itself, in a year (IN MDA nº 2/2005, art. 3).
#[derive(Clone, Debug)]
pub struct FeedstockAcquisition(pub feedstock_acquisition::Model);

/// Feedstock a producer acquired, or produced itself, in a year (IN MDA nº 2/2005, art. 3).
#[fomento_macros::shared_fields]
#[Object]
impl FeedstockAcquisition {
    // The version's `id`, its number and `version`, as every fact kept in versions answers them (`fomento_macros`).
    versioned_fact_fields!(
        node = FeedstockAcquisition,
        name = "FeedstockAcquisition",
        number = acquisition_id,
        clock = mda
    );

    /// The acquisition year.
    async fn year(&self) -> i32 {
        self.0.year
    }

    /// From whom.
    async fn supplier_kind(&self) -> SupplierKind {
        self.0.supplier_kind.into()
    }

    /// Crop.
    async fn crop(&self) -> &str {
        &self.0.crop
    }

    /// Quantity in kilograms.
    async fn quantity_kg(&self) -> Decimal {
        self.0.quantity_kg.to_decimal().into()
    }

    /// Cost paid, in reais (own production and sharecropping are valued by the share rule).
    async fn cost(&self) -> Decimal {
        self.0.cost.to_decimal().into()
    }

    /// For perennial crops: contracted area in hectares (art. 4).
    async fn perennial_area_ha(&self) -> Option<Decimal> {
        self.0.perennial_area_ha.map(|q| q.to_decimal().into())
    }

    /// For perennial crops: average productivity in kg/ha over the useful life (art. 4).
    async fn productivity_kg_per_ha(&self) -> Option<Decimal> {
        self.0.productivity_kg_per_ha.map(|q| q.to_decimal().into())
    }

    /// For perennial crops: who published the productivity coefficient (MAPA, Conab, Embrapa).
    async fn coefficient_source(&self) -> Option<&str> {
        self.0.coefficient_source.as_deref()
    }

    /// The supplier, when recorded by its CPF or CNPJ.
    async fn supplier(&self, ctx: &Context<'_>) -> Result<Option<Party>> {
        match self.0.supplier_party_id {
            Some(id) => party_of(ctx, id).await,
            None => Ok(None),
        }
    }
}

/// A project's technical-assistance plan (IN MDA nº 2/2005, art. 6).
#[derive(Clone, Debug)]
pub struct AssistancePlan(pub entity::assistance_plan::Model);

/// A project's technical-assistance plan (IN MDA nº 2/2005, art. 6).
#[Object]
impl AssistancePlan {
    /// Who recorded this version and when; why it was re-recorded after MDA's decision.
    async fn version(&self) -> FactVersion {
        FactVersion::of(DateTime::mda, &self.0)
    }

    /// I: staff, with CVs and roles.
    async fn staff_description(&self) -> Option<&str> {
        self.0.staff_description.as_deref()
    }

    /// Whether the assistance is outsourced.
    async fn outsourced(&self) -> bool {
        self.0.outsourced
    }

    /// II: the outsourcing contract, when outsourced.
    async fn outsourcing_contract(&self) -> Option<&str> {
        self.0.outsourcing_contract.as_deref()
    }

    /// III: coverage (states, municipalities, communities, settlements).
    async fn coverage_area(&self) -> Option<&str> {
        self.0.coverage_area.as_deref()
    }

    /// IV: number of farmers assisted.
    async fn farmers_assisted(&self) -> Option<i32> {
        self.0.farmers_assisted
    }

    /// V: methodology and activities.
    async fn methodology(&self) -> Option<&str> {
        self.0.methodology.as_deref()
    }

    /// What of the five contents is missing (empty when complete), in the request's language (Portuguese unless
    /// `Accept-Language: en`): SF-ASSISTANCE-PLAN is violated until none is.
    async fn missing(&self, ctx: &Context<'_>) -> Vec<String> {
        let lang = crate::graphql::error::lang(ctx);
        entity::rules::social_fuel::plan_gap_ids(&self.0)
            .into_iter()
            .map(|id| service::l10n::explanation(&entity::rules::Explanation::message(id), lang))
            .collect()
    }
}

/// A company's notice of a change, reported to MDA (IN MDA nº 2/2005, art. 12).
#[derive(Clone, Debug)]
pub struct CompanyChangeNotice(pub entity::company_change_notice::Model);

/// A company's notice of a change, reported to MDA (IN MDA nº 2/2005, art. 12).
#[Object]
impl CompanyChangeNotice {
    /// What changed.
    async fn kind(&self) -> super::enums::CompanyChangeKind {
        self.0.kind.into()
    }

    /// When it was reported.
    async fn notified_on(&self) -> Date {
        Date(self.0.notified_on)
    }

    /// What the company said.
    async fn description(&self) -> &str {
        &self.0.description
    }

    /// The supporting documents.
    async fn documents(&self) -> Option<&str> {
        self.0.documents.as_deref()
    }
}

/// A contract proposal with family farmers through a representation (IN MDA nº 2/2005, art. 5).
#[derive(Clone, Debug)]
pub struct ContractProposal(pub contract_proposal::Model);

/// A contract proposal with family farmers through a representation (IN MDA nº 2/2005, art. 5).
#[fomento_macros::shared_fields]
#[Object]
impl ContractProposal {
    // The version's `id`, its number and `version`, as every fact kept in versions answers them (`fomento_macros`).
    versioned_fact_fields!(
        node = ContractProposal,
        name = "ContractProposal",
        number = proposal_id,
        clock = mda
    );

    /// The kind of representation.
    async fn representation_kind(&self) -> RepresentationKind {
        self.0.representation_kind.into()
    }

    /// The representation's name.
    async fn representation_name(&self) -> &str {
        &self.0.representation_name
    }

    /// Contract term in months.
    async fn term_months(&self) -> Option<i32> {
        self.0.term_months
    }

    /// Purchase price.
    async fn purchase_price(&self) -> Option<&str> {
        self.0.purchase_price.as_deref()
    }

    /// Price-adjustment criteria.
    async fn price_adjustment(&self) -> Option<&str> {
        self.0.price_adjustment.as_deref()
    }

    /// Delivery conditions.
    async fn delivery_conditions(&self) -> Option<&str> {
        self.0.delivery_conditions.as_deref()
    }

    /// Safeguards for each party.
    async fn safeguards(&self) -> Option<&str> {
        self.0.safeguards.as_deref()
    }

    /// Whether the representation is identified and agreed.
    async fn representation_agreed(&self) -> bool {
        self.0.representation_agreed
    }
}

/// A document received with a social-fuel request (IN MDA nº 2/2005, annex I).
#[derive(Clone, Debug)]
pub struct ProjectDocument(pub project_document::Model);

/// A document received with a social-fuel request (IN MDA nº 2/2005, annex I).
#[Object]
impl ProjectDocument {
    /// Which of the six documents.
    async fn kind(&self) -> ProjectDocumentKind {
        self.0.kind.into()
    }

    /// When it was received.
    async fn received_on(&self) -> Date {
        Date(self.0.received_on)
    }

    /// Protocol or file reference.
    async fn reference(&self) -> Option<&str> {
        self.0.reference.as_deref()
    }

    /// When and by whom this version was recorded, and whether a document of the same kind received again took its
    /// place (it still counts as received on its day).
    async fn version(&self) -> FactVersion {
        FactVersion::of(DateTime::mda, &self.0)
    }
}

/// Whether MDA's external evaluation found one criterion of the seal met (art. 11).
#[derive(Clone, Debug)]
pub struct EvaluationFinding(pub entity::evaluation_finding::Model);

/// Whether MDA's external evaluation found one criterion of the seal met (art. 11).
#[Object]
impl EvaluationFinding {
    /// The criterion, by its rule code: `SF-SHARE-MIN`, `SF-REPRESENTATION`, `SF-CONTRACT-TERMS` or
    /// `SF-ASSISTANCE-PLAN`.
    async fn criterion(&self) -> &str {
        &self.0.criterion
    }

    /// Whether it was found met.
    async fn conforming(&self) -> bool {
        self.0.conforming
    }

    /// What the evaluation says about it.
    async fn note(&self) -> Option<&str> {
        self.0.note.as_deref()
    }

    /// The external evaluator.
    async fn evaluator(&self) -> &str {
        &self.0.evaluator
    }

    /// The evaluation report's reference.
    async fn report_reference(&self) -> Option<&str> {
        self.0.report_reference.as_deref()
    }

    /// When it was found.
    async fn found_on(&self) -> Date {
        Date(self.0.found_on)
    }

    /// When it was recorded, on Brasília's clock.
    async fn recorded_at(&self) -> DateTime {
        DateTime::mda(self.0.recorded_at)
    }

    /// Who recorded it.
    async fn recorded_by(&self) -> &str {
        &self.0.recorded_by
    }
}

/// An FCO Rural carta-consulta filed through a bank in Mato Grosso (CDAE/MT 2019).
#[derive(Clone, Debug)]
pub struct FcoCarta(pub Seen<fco_carta::Model>);

/// An FCO Rural carta-consulta filed through a bank in Mato Grosso (CDAE/MT 2019).
#[fomento_macros::shared_fields]
#[Object]
impl FcoCarta {
    // The `Financing` interface's fields and `stage`, declared once for both financings (`fomento_macros`).
    financing_fields!(
        kind = FcoCarta,
        programme = FcoRural,
        stage = FcoCartaStage,
        bank = "The bank the carta was filed through.",
        party = "The borrower (tomador).",
        municipality = (municipality_code, "Municipality of the property."),
        amount = (
            financed_amount,
            "Financed value, in reais; at or above the threshold the chamber must give its opinion (art. 2 §3)."
        ),
        submitted_on = (submitted_on, "Date of submission."),
        decided_on = (decided_on, "Date of the chamber's opinion or the bank's decision."),
        contracted_on = (contracted_on, "Date the financing was contracted."),
    );

    /// The bank's number for the carta.
    pub(crate) async fn number(&self) -> &str {
        &self.0.number
    }

    /// Programme line.
    pub(crate) async fn line(&self) -> FcoLine {
        self.0.line.into()
    }

    /// Financed activity.
    pub(crate) async fn activity(&self) -> FcoActivity {
        self.0.activity.into()
    }

    /// When the carta reached SEDEC; at least 72 hours before the meeting (art. 2 §7).
    pub(crate) async fn received_by_council_at(&self) -> Option<DateTime> {
        self.0.received_by_council_at.map(DateTime::cdae)
    }

    /// The chamber meeting whose agenda it is on in its open approval cycle, if any (an earlier cycle's meeting is in
    /// `approvalCycles`).
    async fn chamber_meeting(&self, ctx: &Context<'_>) -> Result<Option<super::super::chamber::ChamberMeeting>> {
        let Some(id) = self.0.chamber_meeting_id else {
            return Ok(None);
        };
        let m = loader::<super::super::loaders::ChamberMeetingLoader>(ctx)
            .load_one(id)
            .await
            .map_err(gql)?;
        Ok(m.map(|m| super::super::chamber::ChamberMeeting(visible::public(m))))
    }

    /// The opinion or decision.
    pub(crate) async fn decision(&self) -> Option<Decision> {
        self.0.decision.map(Into::into)
    }

    /// `CHAMBER` or `BANK`: who decided.
    pub(crate) async fn decided_by(&self) -> Option<&str> {
        self.0.decided_by.as_deref()
    }

    /// Date of approval; the carta is valid 120 days from it (art. 3 sole §).
    pub(crate) async fn approved_on(&self) -> Option<Date> {
        date(self.0.approved_on)
    }

    /// Contracted value, in reais.
    pub(crate) async fn contracted_amount(&self) -> Option<Decimal> {
        self.0.contracted_amount.map(|m| m.to_decimal().into())
    }

    /// Term in months.
    pub(crate) async fn term_months(&self) -> Option<i32> {
        self.0.term_months
    }

    /// Grace period in months (carência).
    pub(crate) async fn grace_months(&self) -> Option<i32> {
        self.0.grace_months
    }

    /// Sires the producer already has, shown in the technical project (art. 6 I c); null when not stated.
    pub(crate) async fn existing_sires(&self) -> Option<i32> {
        self.0.existing_sires
    }

    /// Whether the swine herd breeds by artificial insemination (art. 8 §5); null when not stated.
    pub(crate) async fn artificial_insemination(&self) -> Option<bool> {
        self.0.artificial_insemination
    }

    /// The day the borrower presented the project to the bank, the act the 120 days of a CDAE approval wait for
    /// (art. 3 sole §); null when not stated.
    pub(crate) async fn presented_on(&self) -> Option<Date> {
        self.0.presented_on.map(Date)
    }

    /// A special demand the instruction does not prioritise, analysed by the chamber whatever its amount (art. 14).
    pub(crate) async fn special_demand(&self) -> bool {
        self.0.special_demand
    }

    /// The unfavourable carta this one reformulates (art. 3 sole §).
    async fn resubmission_of(&self, ctx: &Context<'_>) -> Result<Option<FcoCarta>> {
        let Some(id) = self.0.resubmission_of else {
            return Ok(None);
        };
        Ok(loader::<FcoCartaLoader>(ctx)
            .load_one(id)
            .await
            .map_err(gql)?
            .and_then(|c| visible::of_bank(&super::super::caller(ctx), c))
            .map(FcoCarta))
    }

    /// Qualified professional for embryo transfer or fixed-time AI (art. 6 §6–8).
    pub(crate) async fn professional_name(&self) -> Option<&str> {
        self.0.professional_name.as_deref()
    }

    /// The first day the stated facts as shown here (`existingSires`, `artificialInsemination`, `professionalName`,
    /// `termMonths`, `graceMonths`, `specialDemand`) hold, once `updateFcoCarta` corrected them; null: from the
    /// carta's creation. `compliance(asOf:)` on an earlier day reads the version stated for it.
    pub(crate) async fn stated_on(&self) -> Option<Date> {
        date(self.0.stated_on)
    }

    // `compliance`, `deadlines` and `history`, declared once for both financings (`fomento_macros`).
    judged_fields!(Carta, FcoRural, "carta");

    /// The compliance flags raised on this carta (the banks' monthly reports' cross-checks, ...), newest first.
    pub(crate) async fn flags(&self, ctx: &Context<'_>) -> Result<Vec<super::super::flags::ComplianceFlag>> {
        flags_of(ctx, &self.0).await
    }

    /// The items financed: the versions in force, or every version (corrected and removed ones too, with who, when
    /// and why) when `includeSuperseded` is true.
    async fn items(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Also the corrected and removed versions.", default = false)] include_superseded: bool,
    ) -> Result<Vec<CartaItem>> {
        let rows = loader::<ItemsByCarta>(ctx).load_one(self.0.id).await.map_err(gql)?;
        Ok(versions(rows, include_superseded).map(CartaItem).collect())
    }

    /// Amendments requested after approval (art. 15).
    async fn amendments(&self, ctx: &Context<'_>) -> Result<Vec<CartaAmendment>> {
        let rows = loader::<AmendmentsByCarta>(ctx)
            .load_one(self.0.id)
            .await
            .map_err(gql)?;
        Ok(rows.unwrap_or_default().into_iter().map(CartaAmendment).collect())
    }

    /// Its approval cycles, first to last: each earlier one as it stood when an amendment that needs a new approval
    /// closed it (art. 15), then the open one, whose dates and amounts are the carta's own. A carta never reopened
    /// has one.
    async fn approval_cycles(&self, ctx: &Context<'_>) -> Result<Vec<FcoCartaApprovalCycle>> {
        let mut closed = loader::<CyclesByCarta>(ctx)
            .load_one(self.0.id)
            .await
            .map_err(gql)?
            .unwrap_or_default();
        closed.sort_by_key(|y| y.number);
        let carta = fco_carta::JudgedCarta::from(&*self.0);
        let open = FcoCartaApprovalCycle {
            number: closed.last().map_or(1, |y| y.number.saturating_add(1)),
            carta: carta.clone(),
            closed: None,
        };
        Ok(closed
            .iter()
            .map(|y| FcoCartaApprovalCycle {
                number: y.number,
                carta: y.applied_to(&carta),
                closed: Some((y.closed_on, y.closed_by_amendment_id)),
            })
            .chain(std::iter::once(open))
            .collect())
    }
}

/// One approval cycle of an FCO carta: from its submission to the chamber or the bank to the amendment that needed a
/// new approval and closed it (CDAE/MT 2019, art. 15), or still open.
#[derive(Clone, Debug)]
pub struct FcoCartaApprovalCycle {
    /// Its number among the carta's cycles, from 1.
    number: i32,
    /// The carta as the cycle left it (its open cycle: the carta itself).
    carta: fco_carta::JudgedCarta,
    /// The day it closed and the amendment that closed it; none while open.
    closed: Option<(chrono::NaiveDate, i64)>,
}

/// One approval cycle of an FCO carta: from its submission to the chamber or the bank to the amendment that needed a
/// new approval and closed it (CDAE/MT 2019, art. 15), or still open.
#[Object]
impl FcoCartaApprovalCycle {
    /// Its number among the carta's cycles, from 1 (the first submission).
    async fn number(&self) -> i32 {
        self.number
    }

    /// Whether it is the carta's open cycle (the last); the others were closed by an amendment.
    async fn open(&self) -> bool {
        self.closed.is_none()
    }

    /// The stage it reached (an earlier cycle: the stage it had when the amendment closed it).
    async fn stage(&self) -> FcoCartaStage {
        self.carta.stage.into()
    }

    /// Financed value in this cycle, in reais (a reopening's new amount starts the next cycle).
    async fn amount(&self) -> Decimal {
        self.carta.financed_amount.to_decimal().into()
    }

    /// Date of submission (of a later cycle: the day the amendment reopened the approval).
    async fn submitted_on(&self) -> Option<Date> {
        date(self.carta.submitted_on)
    }

    /// When the carta reached SEDEC in this cycle (art. 2 §7).
    async fn received_by_council_at(&self) -> Option<DateTime> {
        self.carta.received_by_council_at.map(DateTime::cdae)
    }

    /// The chamber meeting that considered it in this cycle, if any.
    async fn chamber_meeting(&self, ctx: &Context<'_>) -> Result<Option<super::super::chamber::ChamberMeeting>> {
        let Some(id) = self.carta.chamber_meeting_id else {
            return Ok(None);
        };
        let m = loader::<super::super::loaders::ChamberMeetingLoader>(ctx)
            .load_one(id)
            .await
            .map_err(gql)?;
        Ok(m.map(|m| super::super::chamber::ChamberMeeting(visible::public(m))))
    }

    /// The opinion or decision of this cycle.
    async fn decision(&self) -> Option<Decision> {
        self.carta.decision.map(Into::into)
    }

    /// `CHAMBER` or `BANK`: who decided.
    async fn decided_by(&self) -> Option<&str> {
        self.carta.decided_by.as_deref()
    }

    /// Date of the opinion or decision.
    async fn decided_on(&self) -> Option<Date> {
        date(self.carta.decided_on)
    }

    /// Date of approval; the 120 days of art. 3 sole § count from it.
    async fn approved_on(&self) -> Option<Date> {
        date(self.carta.approved_on)
    }

    /// The day the project was presented to the bank.
    async fn presented_on(&self) -> Option<Date> {
        date(self.carta.presented_on)
    }

    /// Date the financing was contracted in this cycle.
    async fn contracted_on(&self) -> Option<Date> {
        date(self.carta.contracted_on)
    }

    /// Contracted value, in reais.
    async fn contracted_amount(&self) -> Option<Decimal> {
        self.carta.contracted_amount.map(|m| m.to_decimal().into())
    }

    /// The day it closed: the legal date of the amendment that reopened the approval; null while open.
    async fn closed_on(&self) -> Option<Date> {
        self.closed.map(|(on, _)| Date(on))
    }

    /// The amendment that closed it; null while open.
    async fn closed_by(&self, ctx: &Context<'_>) -> Result<Option<CartaAmendment>> {
        let Some((_, amendment)) = self.closed else {
            return Ok(None);
        };
        let rows = loader::<AmendmentsByCarta>(ctx)
            .load_one(self.carta.id)
            .await
            .map_err(gql)?;
        Ok(rows
            .unwrap_or_default()
            .into_iter()
            .find(|a| a.id == amendment)
            .map(CartaAmendment))
    }
}

/// An item financed by a carta: animals, machines, buildings, working capital.
#[derive(Clone, Debug)]
pub struct CartaItem(pub fco_carta_item::Model);

/// An item financed by a carta: animals, machines, buildings, working capital.
#[fomento_macros::shared_fields]
#[Object]
impl CartaItem {
    // The version's `id`, its number and `version`, as every fact kept in versions answers them (`fomento_macros`).
    versioned_fact_fields!(node = CartaItem, name = "FcoCartaItem", number = item_id, clock = cdae);

    /// What the item is.
    async fn kind(&self) -> ItemKind {
        self.0.kind.into()
    }

    /// Description as filed.
    async fn description(&self) -> &str {
        &self.0.description
    }

    /// Quantity (units, hectares, tonnes).
    async fn quantity(&self) -> Decimal {
        self.0.quantity.to_decimal().into()
    }

    /// Head count, for animals.
    async fn head_count(&self) -> Option<i32> {
        self.0.head_count
    }

    /// Age in months, for animals.
    async fn age_months(&self) -> Option<i32> {
        self.0.age_months
    }

    /// Year of manufacture, for machines (art. 11).
    async fn manufacture_year(&self) -> Option<i32> {
        self.0.manufacture_year
    }

    /// Expected useful life in years (art. 17).
    async fn useful_life_years(&self) -> Option<i32> {
        self.0.useful_life_years
    }

    /// Pedigree registration of a purchased sire: `PO_RGD`, `PO` (dairy, art. 7 I a), `LA` or `CEIP` (art. 6 I a).
    async fn registration(&self) -> Option<&str> {
        self.0.registration.as_deref()
    }

    /// Fixed, semi-fixed or operating (art. 17).
    async fn investment_class(&self) -> InvestmentClass {
        self.0.investment_class.into()
    }

    /// Value, in reais.
    async fn value(&self) -> Decimal {
        self.0.value.to_decimal().into()
    }
}

/// A change requested to an approved carta (CDAE/MT 2019, art. 15).
#[derive(Clone, Debug)]
pub struct CartaAmendment(pub fco_carta_amendment::Model);

/// A change requested to an approved carta (CDAE/MT 2019, art. 15).
#[Object]
impl CartaAmendment {
    /// What changes.
    async fn kind(&self) -> AmendmentKind {
        self.0.kind.into()
    }

    /// When it was requested.
    async fn requested_on(&self) -> Date {
        Date(self.0.requested_on)
    }

    /// Financed value before, in reais.
    async fn old_amount(&self) -> Option<Decimal> {
        self.0.old_amount.map(|m| m.to_decimal().into())
    }

    /// Financed value after, in reais.
    async fn new_amount(&self) -> Option<Decimal> {
        self.0.new_amount.map(|m| m.to_decimal().into())
    }

    /// What was asked.
    async fn description(&self) -> &str {
        &self.0.description
    }

    /// Whether the change needs a new approval (FCO-AMENDMENT).
    async fn requires_new_approval(&self) -> bool {
        self.0.requires_new_approval
    }

    /// For a change of municipality (art. 15 d): whether the properties of the municipality the financing moves to
    /// are listed in the carta; null when not stated.
    async fn properties_listed(&self) -> Option<bool> {
        self.0.properties_listed
    }
}

async fn flags_of<F: visible::Financed>(
    ctx: &Context<'_>,
    financing: &Seen<F>,
) -> Result<Vec<super::super::flags::ComplianceFlag>> {
    let rows = loader::<super::super::loaders::FlagsByFinancing>(ctx)
        .load_one(financing.financing())
        .await
        .map_err(gql)?
        .unwrap_or_default();
    Ok(visible::flags_on(financing, rows)
        .into_iter()
        .map(super::super::flags::ComplianceFlag)
        .collect())
}
