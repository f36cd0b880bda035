//! Recording the facts the rules read, as commands of `service/`: a carta's items (FCO-SIRE-*, FCO-BOAR-RATIO,
//! FCO-PANTANAL, FCO-WEANED-2000, FCO-USED-MACHINE, FCO-CLASSIFY read them), economic groups and their members
//! (FCO-CEILING, FCO-WEANED-2000), and a project's framing letter from its bank (SF-BANK-FIRST). Each mutation takes one
//! `input` object and answers a payload with the changed object, so a client asks for the new outcomes in the same
//! request (`carta { compliance { ruleCode status } }`).
//!
//! Size: one input, payload and mutation per fact, thin and alike.

use super::{
    db,
    error::Served,
    ids::{self, NodeKind},
    payloads::SocialFuelProjectPayload,
    scalars::{Date, Decimal},
    types::{
        enums::{CompanyChangeKind, InvestmentClass, ItemKind, RepresentationKind, SupplierKind},
        financing::{
            AssistancePlan, CartaItem, CompanyChangeNotice, ContractProposal, FcoCarta, FeedstockAcquisition,
            SocialFuelProject,
        },
        objects::EconomicGroup,
    },
};
use async_graphql::{Context, ID, InputObject, Object, Result, SimpleObject};
use chrono::NaiveDate;
use sea_orm::DatabaseConnection;
use service::{
    acquisitions, commitments, groups, items,
    lifecycle::{self as life, Act},
    versions,
};

/// An item of a carta, as filed.
#[derive(InputObject, Debug, Clone)]
pub struct FcoCartaItemFields {
    /// What it is.
    pub kind: ItemKind,
    /// Description as filed.
    pub description: String,
    /// Quantity (units, hectares, tonnes); the head count by default for animals.
    pub quantity: Option<Decimal>,
    /// Head count: required for animals, absent otherwise.
    pub head_count: Option<i32>,
    /// Age in months, for animals.
    pub age_months: Option<i32>,
    /// Year of manufacture, for machines (art. 11).
    pub manufacture_year: Option<i32>,
    /// Expected useful life in years (art. 17).
    pub useful_life_years: Option<i32>,
    /// Pedigree registration of a purchased sire: `PO_RGD`, `PO` (dairy, art. 7 I a), `LA` or `CEIP` (art. 6 I a).
    pub registration: Option<String>,
    /// Fixed, semi-fixed or operating (art. 17).
    pub investment_class: InvestmentClass,
    /// Value, in reais.
    pub value: Decimal,
}

impl From<FcoCartaItemFields> for items::Item {
    fn from(f: FcoCartaItemFields) -> Self {
        Self {
            kind: f.kind.into(),
            description: f.description,
            quantity: f.quantity.map(|q| q.0),
            head_count: f.head_count,
            age_months: f.age_months,
            manufacture_year: f.manufacture_year,
            useful_life_years: f.useful_life_years,
            registration: f.registration,
            investment_class: f.investment_class.into(),
            value: f.value.0,
        }
    }
}

/// Declares the inputs and the payload of a fact kept in versions: add (to a parent), update and remove (a version),
/// and the payload with the parent as it now stands and the version recorded.
macro_rules! versioned_fact_types {
    (
        $what:literal, $decision:literal,
        $add:ident { $parent:ident: $parent_doc:literal },
        $update:ident, $remove:ident { $id:ident },
        $fact:ident: $fields:ty,
        $payload:ident { $parent_out:ident: $parent_ty:ty, $fact_out:ty }
    ) => {
        #[doc = concat!("Adds ", $what, ".")]
        #[derive(InputObject, Debug)]
        pub struct $add {
            #[doc = $parent_doc]
            pub $parent: ID,
            #[doc = concat!("The ", $what, " as stated.")]
            pub $fact: $fields,
            #[doc = concat!("Why, once ", $decision, " (kept with it).")]
            pub reason: Option<String>,
            /// The day it happened or took effect (`compliance(asOf:)` counts it from then); today when not given.
            /// Not after today.
            pub effective_on: Option<Date>,
        }

        #[doc = concat!("Changes a version of ", $what, ".")]
        #[derive(InputObject, Debug)]
        pub struct $update {
            /// The version to change.
            pub $id: i64,
            #[doc = concat!("The ", $what, " as it should be.")]
            pub $fact: $fields,
            #[doc = concat!("Why: required once ", $decision, " (the change is then a new version; the old one stays).")]
            pub reason: Option<String>,
            #[doc = concat!("The day the change took effect: once ", $decision, ", the new version holds from then and the old one until the day before (today when not given; not before the old version took effect); until then the fact is corrected from the day it held (`effectiveOn` moves it).")]
            pub effective_on: Option<Date>,
        }

        #[doc = concat!("Removes a version of ", $what, ".")]
        #[derive(InputObject, Debug)]
        pub struct $remove {
            /// The version to remove.
            pub $id: i64,
            #[doc = concat!("Why: required once ", $decision, " (it is then kept, marked removed).")]
            pub reason: Option<String>,
            #[doc = concat!("Once ", $decision, ": the day it stopped holding (today when not given; not before it took effect).")]
            pub effective_on: Option<Date>,
        }

        #[doc = concat!("What a change of ", $what, " answers: what it belongs to, as it now stands (ask for its `compliance`), and the version recorded.")]
        #[derive(SimpleObject)]
        pub struct $payload {
            /// What it belongs to, as it now stands.
            pub $parent_out: $parent_ty,
            /// The version recorded (null after a removal).
            pub $fact: Option<$fact_out>,
        }
    };
}

/// Declares the inputs of the acts that correct and remove a version of a fact named by its global ID (the
/// deprecated `update…`/`remove…` mutations take its number).
macro_rules! versioned_fact_acts {
    (
        $what:literal, $decision:literal,
        $correct:ident, $removal:ident { $id:ident },
        $fact:ident: $fields:ty
    ) => {
        #[doc = concat!("Corrects a version of ", $what, ", named by its global ID.")]
        #[derive(InputObject, Debug)]
        pub struct $correct {
            /// The version's global ID (its `id`).
            pub $id: ID,
            #[doc = concat!("The ", $what, " as it should be.")]
            pub $fact: $fields,
            #[doc = concat!("Why: required once ", $decision, " (the change is then a new version; the old one stays).")]
            pub reason: Option<String>,
            #[doc = concat!("The day the change took effect: once ", $decision, ", the new version holds from then and the old one until the day before (today when not given; not before the old version took effect); until then the fact is corrected from the day it held (`effectiveOn` moves it).")]
            pub effective_on: Option<Date>,
        }

        #[doc = concat!("Removes a version of ", $what, ", named by its global ID.")]
        #[derive(InputObject, Debug)]
        pub struct $removal {
            /// The version's global ID (its `id`).
            pub $id: ID,
            #[doc = concat!("Why: required once ", $decision, " (it is then kept, marked removed).")]
            pub reason: Option<String>,
            #[doc = concat!("Once ", $decision, ": the day it stopped holding (today when not given; not before it took effect).")]
            pub effective_on: Option<Date>,
        }
    };
}

versioned_fact_acts!(
    "a carta's item", "the chamber or the bank has decided on the carta",
    RecordFcoCartaItemCorrectionInput, RecordFcoCartaItemRemovalInput { item_id },
    item: FcoCartaItemFields
);

versioned_fact_acts!(
    "a project's feedstock acquisition", "MDA has decided on the framing",
    RecordFeedstockAcquisitionCorrectionInput, RecordFeedstockAcquisitionRemovalInput { acquisition_id },
    acquisition: FeedstockAcquisitionFields
);

versioned_fact_acts!(
    "a project's contract proposal", "MDA has decided on the framing",
    RecordContractProposalCorrectionInput, RecordContractProposalRemovalInput { proposal_id },
    proposal: ContractProposalFields
);

versioned_fact_types!(
    "a carta's item", "the chamber or the bank has decided on the carta",
    AddFcoCartaItemInput { carta_id: "The carta's global ID." },
    UpdateFcoCartaItemInput, RemoveFcoCartaItemInput { item_id },
    item: FcoCartaItemFields,
    FcoCartaItemPayload { carta: FcoCarta, CartaItem }
);

versioned_fact_types!(
    "a project's feedstock acquisition", "MDA has decided on the framing",
    AddFeedstockAcquisitionInput { project_id: "The project's global ID." },
    UpdateFeedstockAcquisitionInput, RemoveFeedstockAcquisitionInput { acquisition_id },
    acquisition: FeedstockAcquisitionFields,
    FeedstockAcquisitionPayload { project: SocialFuelProject, FeedstockAcquisition }
);

versioned_fact_types!(
    "a project's contract proposal", "MDA has decided on the framing",
    AddContractProposalInput { project_id: "The project's global ID." },
    UpdateContractProposalInput, RemoveContractProposalInput { proposal_id },
    proposal: ContractProposalFields,
    ContractProposalPayload { project: SocialFuelProject, ContractProposal }
);

/// `recordBankFraming`'s input.
#[derive(InputObject, Debug)]
pub struct RecordBankFramingInput {
    /// The project's global ID.
    pub project_id: ID,
    /// Date of the bank's framing letter (art. 7).
    pub on: Date,
    /// Whether the bank analyses the project itself under a technical-cooperation agreement (art. 9).
    #[graphql(default = false)]
    pub analysed_by_bank: bool,
    /// Why, when the project is already filed (kept in its history).
    pub reason: Option<String>,
}

/// `createEconomicGroup`'s input.
#[derive(InputObject, Debug)]
pub struct CreateEconomicGroupInput {
    /// The group's name.
    pub name: String,
    /// Group, cooperative or association.
    pub kind: super::types::enums::EconomicGroupKind,
    /// CPFs or CNPJs of its first members (parties Fomento knows), in any punctuation.
    #[graphql(default)]
    pub member_documents: Vec<String>,
    /// The day they joined (today when not given; not after today).
    pub joined_on: Option<Date>,
}

/// `addEconomicGroupMembers`'s input.
#[derive(InputObject, Debug)]
pub struct AddEconomicGroupMembersInput {
    /// The group's global ID.
    pub group_id: ID,
    /// CPFs or CNPJs of the parties that join it.
    pub member_documents: Vec<String>,
    /// The day they joined (today when not given; not after today, nor before a member left its last group).
    pub joined_on: Option<Date>,
}

/// `removeEconomicGroupMember`'s input.
#[derive(InputObject, Debug)]
pub struct RemoveEconomicGroupMemberInput {
    /// The group's global ID.
    pub group_id: ID,
    /// CPF or CNPJ of the party that leaves it.
    pub member_document: String,
    /// The day it left: no longer a member from then (today when not given; not before it joined).
    pub left_on: Option<Date>,
}

/// What a change of an economic group answers: the group (ask for its `members`).
#[derive(SimpleObject)]
pub struct EconomicGroupPayload {
    /// The group.
    pub group: EconomicGroup,
}

/// A feedstock acquisition, as stated (IN MDA 2/2005, arts. 3–4).
#[derive(InputObject, Debug, Clone)]
pub struct FeedstockAcquisitionFields {
    /// The acquisition year.
    pub year: i32,
    /// From whom: family farmer, family-farm cooperative, other third party, own production, sharecropping.
    pub supplier_kind: SupplierKind,
    /// The supplier's CPF or CNPJ, when it is a party Fomento knows.
    pub supplier_document: Option<String>,
    /// Crop (soja, mamona, dendê, ...).
    pub crop: String,
    /// Quantity in kilograms.
    pub quantity_kg: Decimal,
    /// Cost paid, in reais (own production and sharecropping are valued by the share rule).
    pub cost: Decimal,
    /// Perennial crops: contracted area in hectares (art. 4); with `productivityKgPerHa` and `coefficientSource`.
    pub perennial_area_ha: Option<Decimal>,
    /// Perennial crops: average productivity coefficient in kg/ha (art. 4).
    pub productivity_kg_per_ha: Option<Decimal>,
    /// Who published the coefficient (MAPA, Conab, Embrapa).
    pub coefficient_source: Option<String>,
}

impl From<FeedstockAcquisitionFields> for acquisitions::Acquisition {
    fn from(f: FeedstockAcquisitionFields) -> Self {
        Self {
            year: f.year,
            supplier_kind: f.supplier_kind.into(),
            supplier_document: f.supplier_document,
            crop: f.crop,
            quantity_kg: f.quantity_kg.0,
            cost: f.cost.0,
            perennial_area_ha: f.perennial_area_ha.map(|d| d.0),
            productivity_kg_per_ha: f.productivity_kg_per_ha.map(|d| d.0),
            coefficient_source: f.coefficient_source,
        }
    }
}

/// A contract proposal, as stated (art. 5 and its sole §).
#[derive(InputObject, Debug, Clone)]
pub struct ContractProposalFields {
    /// The kind of farmers' representation.
    pub representation_kind: RepresentationKind,
    /// The representation's name.
    pub representation_name: String,
    /// Whether the representation is identified and has agreed.
    pub representation_agreed: bool,
    /// Term in months.
    pub term_months: Option<i32>,
    /// Purchase price.
    pub purchase_price: Option<String>,
    /// Price-adjustment criteria.
    pub price_adjustment: Option<String>,
    /// Delivery conditions.
    pub delivery_conditions: Option<String>,
    /// Safeguards for each party.
    pub safeguards: Option<String>,
}

impl From<ContractProposalFields> for commitments::Proposal {
    fn from(f: ContractProposalFields) -> Self {
        Self {
            representation_kind: f.representation_kind.into(),
            representation_name: f.representation_name,
            representation_agreed: f.representation_agreed,
            term_months: f.term_months,
            purchase_price: f.purchase_price,
            price_adjustment: f.price_adjustment,
            delivery_conditions: f.delivery_conditions,
            safeguards: f.safeguards,
        }
    }
}

/// A technical-assistance plan, as stated (art. 6 I–V).
#[derive(InputObject, Debug, Clone)]
pub struct AssistancePlanFields {
    /// I: staff, with CVs and roles (always: an outsourced plan describes its staff too, art. 6 II "apresentar também").
    pub staff_description: Option<String>,
    /// Whether the assistance is outsourced.
    #[graphql(default = false)]
    pub outsourced: bool,
    /// II: the outsourcing contract, when outsourced.
    pub outsourcing_contract: Option<String>,
    /// III: coverage (states, municipalities, communities, settlements).
    pub coverage_area: Option<String>,
    /// IV: number of farmers assisted.
    pub farmers_assisted: Option<i32>,
    /// V: methodology and activities.
    pub methodology: Option<String>,
}

/// `recordAssistancePlan`'s input.
#[derive(InputObject, Debug)]
pub struct RecordAssistancePlanInput {
    /// The project's global ID.
    pub project_id: ID,
    /// The plan (it replaces the one recorded before).
    pub plan: AssistancePlanFields,
    /// Why, once MDA has decided (kept in the history with what the plan said before).
    pub reason: Option<String>,
    /// The day the plan took effect (presented to MDA, or changed); today when not given. Once MDA has decided, the
    /// plan before it holds until the day before.
    pub effective_on: Option<Date>,
}

/// What recording a plan answers: the project (ask for its `compliance`) and the plan.
#[derive(SimpleObject)]
pub struct AssistancePlanPayload {
    /// The project.
    pub project: SocialFuelProject,
    /// The plan as recorded.
    pub plan: AssistancePlan,
}

/// `recordProjectSchedule`'s input.
#[derive(InputObject, Debug)]
pub struct RecordProjectScheduleInput {
    /// The project's global ID.
    pub project_id: ID,
    /// The end of implementation, as scheduled (art. 10).
    pub scheduled_end: Date,
    /// Whether MDA accepted a delay (the end moves): only once the bank's acceptance is recorded (art. 10 §2).
    #[graphql(default = false)]
    pub delay_accepted: bool,
    /// The day MDA accepted the delay (with `delayAccepted: true`): today by default; not before the bank's acceptance
    /// nor after today. Before it, the schedule ends on the earlier end (`originalImplementationEnd`) and SF-SCHEDULE
    /// reads no acceptance of MDA's.
    pub delay_accepted_on: Option<Date>,
    /// Why: required when the end moves (kept in the history with the old and new end).
    pub reason: Option<String>,
    /// The day the company presented its physical-financial schedule to MDA (art. 10 caput): after the financing's
    /// approval, not after today; the history row is dated by it (else today).
    pub presented_on: Option<Date>,
}

/// `recordScheduleDelayBankAcceptance`'s input.
#[derive(InputObject, Debug)]
pub struct RecordScheduleDelayBankAcceptanceInput {
    /// The project's global ID.
    pub project_id: ID,
    /// Who at the bank accepted the delay (officer, department or letter).
    pub accepted_by: String,
    /// The day the bank accepted it; today by default; not before the financing's approval nor after today.
    pub accepted_on: Option<Date>,
}

/// `createBank`'s input.
#[derive(InputObject, Debug)]
pub struct CreateBankInput {
    /// The bank's code, as its scripts and uploads name it (`BB`, `SICREDI`).
    pub code: String,
    /// Its name.
    pub name: String,
    /// The programmes it operates.
    pub programmes: Vec<super::types::enums::Programme>,
    /// Whether it has MDA's technical-cooperation agreement (art. 7).
    #[graphql(default = false)]
    pub mda_cooperation_agreement: bool,
}

/// `updateBank`'s input: what is given changes, the rest stays.
#[derive(InputObject, Debug)]
pub struct UpdateBankInput {
    /// The bank's global ID.
    pub bank_id: ID,
    /// Its name.
    pub name: Option<String>,
    /// The programmes it operates.
    pub programmes: Option<Vec<super::types::enums::Programme>>,
    /// Whether it has MDA's technical-cooperation agreement (art. 7).
    pub mda_cooperation_agreement: Option<bool>,
}

/// What a change of a bank answers: the bank.
#[derive(SimpleObject)]
pub struct BankPayload {
    /// The bank.
    pub bank: super::types::objects::Bank,
}

async fn life_bank(ctx: &Context<'_>, id: i64) -> Result<super::types::objects::Bank> {
    let b = super::loader::<super::loaders::BankLoader>(ctx)
        .load_one(id)
        .await
        .map_err(super::error::gql)?
        .ok_or_else(|| {
            super::ids::no_such(
                super::ids::NodeKind::Bank,
                &super::ids::encode(super::ids::NodeKind::Bank, id),
            )
        })?;
    Ok(super::types::objects::Bank(service::visible::public(b)))
}

fn serves(programmes: &[super::types::enums::Programme], p: super::types::enums::Programme) -> bool {
    programmes.contains(&p)
}

/// `recordBbPeriodicReport`'s input.
#[derive(InputObject, Debug)]
pub struct RecordBbPeriodicReportInput {
    /// Banco do Brasil's global ID.
    pub bank_id: ID,
    /// When the CPACR received it.
    pub received_on: Date,
    /// First day of the period it covers.
    pub period_from: Option<Date>,
    /// Last day of the period it covers.
    pub period_to: Option<Date>,
    /// Protocol or letter reference.
    pub reference: Option<String>,
}

/// `addCompanyChangeNotice`'s input.
#[derive(InputObject, Debug)]
pub struct AddCompanyChangeNoticeInput {
    /// The project's global ID.
    pub project_id: ID,
    /// What changed.
    pub kind: CompanyChangeKind,
    /// When the company reported it.
    pub notified_on: Date,
    /// What the company said.
    pub description: String,
    /// The supporting documents.
    pub documents: Option<String>,
}

/// What recording a change notice answers: the project and the notice.
#[derive(SimpleObject)]
pub struct CompanyChangeNoticePayload {
    /// The project.
    pub project: SocialFuelProject,
    /// The notice.
    pub notice: CompanyChangeNotice,
}

async fn project_of(ctx: &Context<'_>, id: i64) -> Result<SocialFuelProject> {
    let p = life::find_project(db(ctx), "input.projectId", id).await.served(ctx)?;
    Ok(SocialFuelProject(super::seen(ctx, p)?))
}

async fn carta_of(ctx: &Context<'_>, id: i64) -> Result<FcoCarta> {
    let c = life::find_carta(db(ctx), "input.cartaId", id).await.served(ctx)?;
    Ok(FcoCarta(super::seen(ctx, c)?))
}

/// A group a mutation changed, as the caller may see it.
async fn seen_group(
    ctx: &Context<'_>,
    g: entity::economic_group::Model,
) -> Result<service::visible::Seen<entity::economic_group::Model>> {
    service::visible::group(db(ctx), &super::caller(ctx), g)
        .await
        .served(ctx)?
        .ok_or_else(|| super::unseen(ctx))
}

/// Mutations that record facts.
#[derive(Default)]
pub struct FactsMutation;

fn act(ctx: &Context<'_>) -> Act {
    Act::by(super::caller(ctx))
}

/// A fact kept in versions: a carta's items, a project's feedstock acquisitions and its contract proposals. Each is
/// added to what it belongs to, corrected and removed by version through its own service functions, and answered with
/// what it belongs to as it now stands; [`add_fact`], [`correct_fact`] and [`remove_fact`] are the one path of the
/// three.
trait VersionedFact {
    /// The fact as the caller states it.
    type Fields: Into<Self::Stated> + Send;
    /// The fact as the service takes it.
    type Stated: Send;
    /// A stored version.
    type Row: Send;
    /// What the mutations answer.
    type Payload;
    /// The kind of what it belongs to, and the argument that names it.
    const PARENT: (NodeKind, &'static str);
    /// The kind of a version's global ID, and the argument that names it.
    const VERSION: (NodeKind, &'static str);

    /// What a version belongs to.
    fn parent_of(row: &Self::Row) -> i64;

    /// Records a new fact for `parent`.
    fn add(
        db: &DatabaseConnection,
        act: &Act,
        parent: i64,
        fact: Self::Stated,
        reason: Option<&str>,
        effective_on: Option<NaiveDate>,
    ) -> impl Future<Output = ServiceResult<Self::Row>> + Send;

    /// Records a new version of the version `id`.
    fn update(
        db: &DatabaseConnection,
        act: &Act,
        id: i64,
        fact: Self::Stated,
        reason: Option<&str>,
        effective_on: Option<NaiveDate>,
    ) -> impl Future<Output = ServiceResult<Self::Row>> + Send;

    /// Removes the version `id`; answers what it belonged to.
    fn remove(
        db: &DatabaseConnection,
        act: &Act,
        id: i64,
        reason: Option<&str>,
        ended_on: Option<NaiveDate>,
    ) -> impl Future<Output = ServiceResult<i64>> + Send;

    /// The answer: what the fact belongs to, as the caller may see it now, and the version recorded (none after a
    /// removal).
    fn payload(
        ctx: &Context<'_>,
        parent: i64,
        row: Option<Self::Row>,
    ) -> impl Future<Output = Result<Self::Payload>> + Send;
}

type ServiceResult<T> = std::result::Result<T, service::ServiceError>;

/// Declares a [`VersionedFact`] by its service functions and its payload's fields.
macro_rules! versioned_fact {
    (
        $(#[$doc:meta])* $name:ident: $fields:ty => $stated:ty, $row:ty;
        parent: ($parent_kind:ident, $parent_arg:literal), $parent_field:ident;
        version: ($version_kind:ident, $version_arg:literal);
        service: $service:ty;
        $payload:ident { $parent_out:ident: $parent_of:path, $fact_out:ident: $wrap:path }
    ) => {
        $(#[$doc])*
        struct $name;

        impl VersionedFact for $name {
            type Fields = $fields;
            type Stated = $stated;
            type Row = $row;
            type Payload = $payload;
            const PARENT: (NodeKind, &'static str) = (NodeKind::$parent_kind, $parent_arg);
            const VERSION: (NodeKind, &'static str) = (NodeKind::$version_kind, $version_arg);

            fn parent_of(row: &$row) -> i64 {
                row.$parent_field
            }

            async fn add(
                db: &DatabaseConnection,
                act: &Act,
                parent: i64,
                fact: $stated,
                reason: Option<&str>,
                effective_on: Option<NaiveDate>,
            ) -> ServiceResult<$row> {
                versions::record::<$service>(db, act, parent, fact, reason, effective_on).await
            }

            async fn update(
                db: &DatabaseConnection,
                act: &Act,
                id: i64,
                fact: $stated,
                reason: Option<&str>,
                effective_on: Option<NaiveDate>,
            ) -> ServiceResult<$row> {
                versions::correct::<$service>(db, act, id, fact, reason, effective_on).await
            }

            async fn remove(
                db: &DatabaseConnection,
                act: &Act,
                id: i64,
                reason: Option<&str>,
                ended_on: Option<NaiveDate>,
            ) -> ServiceResult<i64> {
                Ok(versions::withdraw::<$service>(db, act, id, reason, ended_on).await?.id)
            }

            async fn payload(ctx: &Context<'_>, parent: i64, row: Option<$row>) -> Result<$payload> {
                Ok($payload {
                    $parent_out: $parent_of(ctx, parent).await?,
                    $fact_out: row.map($wrap),
                })
            }
        }
    };
}

versioned_fact!(
    /// A carta's items.
    Items: FcoCartaItemFields => items::Item, entity::fco_carta_item::Model;
    parent: (FcoCarta, "input.cartaId"), carta_id;
    version: (CartaItem, "input.itemId");
    service: entity::fco_carta_item::ActiveModel;
    FcoCartaItemPayload { carta: carta_of, item: CartaItem }
);

versioned_fact!(
    /// A project's feedstock acquisitions.
    Acquisitions: FeedstockAcquisitionFields => acquisitions::Acquisition, entity::feedstock_acquisition::Model;
    parent: (SocialFuelProject, "input.projectId"), project_id;
    version: (FeedstockAcquisition, "input.acquisitionId");
    service: entity::feedstock_acquisition::ActiveModel;
    FeedstockAcquisitionPayload { project: project_of, acquisition: FeedstockAcquisition }
);

versioned_fact!(
    /// A project's contract proposals.
    Proposals: ContractProposalFields => commitments::Proposal, entity::contract_proposal::Model;
    parent: (SocialFuelProject, "input.projectId"), project_id;
    version: (ContractProposal, "input.proposalId");
    service: entity::contract_proposal::ActiveModel;
    ContractProposalPayload { project: project_of, proposal: ContractProposal }
);

/// Adds a fact to what `parent` names.
async fn add_fact<F: VersionedFact>(
    ctx: &Context<'_>,
    parent: &ID,
    fact: F::Fields,
    reason: Option<String>,
    effective_on: Option<Date>,
) -> Result<F::Payload> {
    let (kind, arg) = F::PARENT;
    let parent = ids::arg(parent, kind, arg)?;
    let on = effective_on.map(|d| d.0);
    let row = F::add(db(ctx), &act(ctx), parent, fact.into(), reason.as_deref(), on)
        .await
        .served(ctx)?;
    F::payload(ctx, F::parent_of(&row), Some(row)).await
}

/// Corrects the version `id` of a fact: a new version, the old one kept.
async fn correct_fact<F: VersionedFact>(
    ctx: &Context<'_>,
    id: i64,
    fact: F::Fields,
    reason: Option<String>,
    effective_on: Option<Date>,
) -> Result<F::Payload> {
    let on = effective_on.map(|d| d.0);
    let row = F::update(db(ctx), &act(ctx), id, fact.into(), reason.as_deref(), on)
        .await
        .served(ctx)?;
    F::payload(ctx, F::parent_of(&row), Some(row)).await
}

/// Removes the version `id` of a fact: kept, marked removed.
async fn remove_fact<F: VersionedFact>(
    ctx: &Context<'_>,
    id: i64,
    reason: Option<String>,
    effective_on: Option<Date>,
) -> Result<F::Payload> {
    let on = effective_on.map(|d| d.0);
    let parent = F::remove(db(ctx), &act(ctx), id, reason.as_deref(), on)
        .await
        .served(ctx)?;
    F::payload(ctx, parent, None).await
}

/// A version named by its global ID.
fn version<F: VersionedFact>(id: &ID) -> Result<i64> {
    let (kind, arg) = F::VERSION;
    ids::arg(id, kind, arg)
}

/// The facts kept in versions are added, changed and removed through the same five mutations each
/// (`versioned_fact_mutations!`, declared once in `fomento_macros`).
#[fomento_macros::shared_fields]
#[Object]
impl FactsMutation {
    versioned_fact_mutations!(
        kind = Items,
        name = "FcoCartaItem",
        parent = carta_id,
        parent_noun = "carta",
        fact = item,
        noun = "item",
        a_noun = "an item",
        decision = "the decision",
        list = "items",
        add = "Adds an item to a carta. After the chamber's or the bank's decision it needs a `reason`.",
    );

    /// Records the bank's framing letter of a project (art. 7), needed before filing (SF-BANK-FIRST); once the project
    /// is filed a change needs a `reason`, kept in its history.
    async fn record_bank_framing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, the letter's date and, once filed, why.")] input: RecordBankFramingInput,
    ) -> Result<SocialFuelProjectPayload> {
        let project = ids::arg(&input.project_id, NodeKind::SocialFuelProject, "input.projectId")?;
        let p = life::record_bank_framing(
            db(ctx),
            &act(ctx),
            project,
            input.on.0,
            input.analysed_by_bank,
            input.reason.as_deref(),
        )
        .await
        .served(ctx)?;
        SocialFuelProjectPayload::of(ctx, p)
    }

    /// Creates an economic group, cooperative or association with its first members: FCO-CEILING and
    /// FCO-WEANED-2000 then count their cartas together.
    async fn create_economic_group(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Name, kind and first members.")] input: CreateEconomicGroupInput,
    ) -> Result<EconomicGroupPayload> {
        let g = groups::create(
            db(ctx),
            &act(ctx),
            &input.name,
            input.kind.as_str(),
            &input.member_documents,
            input.joined_on.map(|d| d.0),
        )
        .await
        .served(ctx)?;
        super::guard::audit_target(ctx, &ids::encode(NodeKind::EconomicGroup, g.id));
        Ok(EconomicGroupPayload {
            group: EconomicGroup(seen_group(ctx, g).await?),
        })
    }

    /// Adds parties to a group (a party belongs to one group at most).
    async fn add_economic_group_members(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The group and the documents of the parties that join it.")]
        input: AddEconomicGroupMembersInput,
    ) -> Result<EconomicGroupPayload> {
        let group = ids::arg(&input.group_id, NodeKind::EconomicGroup, "input.groupId")?;
        let g = groups::add_members(
            db(ctx),
            &act(ctx),
            group,
            &input.member_documents,
            input.joined_on.map(|d| d.0),
        )
        .await
        .served(ctx)?;
        Ok(EconomicGroupPayload {
            group: EconomicGroup(seen_group(ctx, g).await?),
        })
    }

    /// Takes a party out of a group.
    async fn remove_economic_group_member(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The group and the document of the party that leaves it.")]
        input: RemoveEconomicGroupMemberInput,
    ) -> Result<EconomicGroupPayload> {
        let group = ids::arg(&input.group_id, NodeKind::EconomicGroup, "input.groupId")?;
        let g = groups::remove_member(
            db(ctx),
            &act(ctx),
            group,
            &input.member_document,
            input.left_on.map(|d| d.0),
        )
        .await
        .served(ctx)?;
        Ok(EconomicGroupPayload {
            group: EconomicGroup(seen_group(ctx, g).await?),
        })
    }

    versioned_fact_mutations!(
        kind = Acquisitions,
        name = "FeedstockAcquisition",
        parent = project_id,
        parent_noun = "project",
        fact = acquisition,
        noun = "acquisition",
        a_noun = "an acquisition",
        decision = "MDA's decision",
        list = "acquisitions",
        add = "Records a feedstock acquisition of a project (SF-SHARE-MIN and its companions read them). After MDA's \
               framing decision it needs a `reason`.",
    );

    versioned_fact_mutations!(
        kind = Proposals,
        name = "ContractProposal",
        parent = project_id,
        parent_noun = "project",
        fact = proposal,
        noun = "proposal",
        a_noun = "a contract proposal",
        decision = "MDA's decision",
        list = "contractProposals",
        add = "Records a contract proposal with its farmers' representation and terms (SF-REPRESENTATION, \
               SF-CONTRACT-TERMS); after MDA's decision it needs a `reason`.",
    );

    /// Records a project's technical-assistance plan (SF-ASSISTANCE-PLAN: violated while one of its five contents is
    /// missing, then pending until someone confirms its compatibility with `confirmChecklistItem`).
    async fn record_assistance_plan(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, the plan and, after MDA's decision, why.")] input: RecordAssistancePlanInput,
    ) -> Result<AssistancePlanPayload> {
        let project = ids::arg(&input.project_id, NodeKind::SocialFuelProject, "input.projectId")?;
        let f = input.plan;
        let plan = commitments::Plan {
            staff_description: f.staff_description,
            outsourced: f.outsourced,
            outsourcing_contract: f.outsourcing_contract,
            coverage_area: f.coverage_area,
            farmers_assisted: f.farmers_assisted,
            methodology: f.methodology,
        };
        let saved = commitments::record_plan(
            db(ctx),
            &act(ctx),
            project,
            plan,
            input.reason.as_deref(),
            input.effective_on.map(|d| d.0),
        )
        .await
        .served(ctx)?;
        Ok(AssistancePlanPayload {
            project: project_of(ctx, project).await?,
            plan: AssistancePlan(saved),
        })
    }

    /// Records the company's notice of a change (SF-CHANGES, art. 12).
    async fn add_company_change_notice(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, what changed, when it was reported and what was said.")]
        input: AddCompanyChangeNoticeInput,
    ) -> Result<CompanyChangeNoticePayload> {
        let project = ids::arg(&input.project_id, NodeKind::SocialFuelProject, "input.projectId")?;
        let n = commitments::add_change_notice(
            db(ctx),
            project,
            input.kind.into(),
            input.notified_on.0,
            &input.description,
            input.documents,
        )
        .await
        .served(ctx)?;
        Ok(CompanyChangeNoticePayload {
            project: project_of(ctx, project).await?,
            notice: CompanyChangeNotice(n),
        })
    }

    /// Records a project's scheduled end of implementation, or moves it by a delay MDA accepts (SF-EXTERNAL-EVAL-6M
    /// counts from it when industrial operation has not started).
    async fn record_project_schedule(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, the scheduled end and, when it moves, why.")] input: RecordProjectScheduleInput,
    ) -> Result<SocialFuelProjectPayload> {
        let project = ids::arg(&input.project_id, NodeKind::SocialFuelProject, "input.projectId")?;
        let p = commitments::record_schedule(
            db(ctx),
            &act(ctx),
            project,
            input.scheduled_end.0,
            input.delay_accepted,
            input.delay_accepted_on.map(|d| d.0),
            input.presented_on.map(|d| d.0),
            input.reason.as_deref(),
        )
        .await
        .served(ctx)?;
        SocialFuelProjectPayload::of(ctx, p)
    }

    /// Records the bank's acceptance of a delay of the implementation schedule (art. 10 §2): the bank's own act, with
    /// its day and who accepted it; MDA may then accept the delay (`recordProjectSchedule` with `delayAccepted`).
    async fn record_schedule_delay_bank_acceptance(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, who at the bank accepted the delay, and when.")]
        input: RecordScheduleDelayBankAcceptanceInput,
    ) -> Result<SocialFuelProjectPayload> {
        let project = ids::arg(&input.project_id, NodeKind::SocialFuelProject, "input.projectId")?;
        let p = commitments::record_delay_bank_acceptance(
            db(ctx),
            &act(ctx),
            project,
            input.accepted_on.map(|d| d.0),
            &input.accepted_by,
        )
        .await
        .served(ctx)?;
        SocialFuelProjectPayload::of(ctx, p)
    }

    /// Registers a bank: the programmes it operates and its agreement with MDA. A bank that operates FCO sends the
    /// monthly list (FCO-MONTHLY-LIST) and may upload it.
    async fn create_bank(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Code, name, programmes and agreement.")] input: CreateBankInput,
    ) -> Result<BankPayload> {
        use super::types::enums::Programme as P;
        let facts = service::banks::BankFacts {
            name: Some(input.name),
            serves_social_fuel: Some(serves(&input.programmes, P::SocialFuel)),
            serves_fco: Some(serves(&input.programmes, P::FcoRural)),
            mda_cooperation_agreement: Some(input.mda_cooperation_agreement),
        };
        let b = service::banks::create(db(ctx), &input.code, facts).await.served(ctx)?;
        super::guard::audit_target(ctx, &ids::encode(NodeKind::Bank, b.id));
        Ok(BankPayload {
            bank: super::types::objects::Bank(service::visible::public(b)),
        })
    }

    /// Changes a bank's name, programmes or agreement (its code stays).
    async fn update_bank(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The bank and what changes.")] input: UpdateBankInput,
    ) -> Result<BankPayload> {
        use super::types::enums::Programme as P;
        let bank = ids::arg(&input.bank_id, NodeKind::Bank, "input.bankId")?;
        let facts = service::banks::BankFacts {
            name: input.name,
            serves_social_fuel: input.programmes.as_deref().map(|p| serves(p, P::SocialFuel)),
            serves_fco: input.programmes.as_deref().map(|p| serves(p, P::FcoRural)),
            mda_cooperation_agreement: input.mda_cooperation_agreement,
        };
        let b = service::banks::update(db(ctx), bank, facts).await.served(ctx)?;
        Ok(BankPayload {
            bank: super::types::objects::Bank(service::visible::public(b)),
        })
    }

    /// Records Banco do Brasil's 60-day report to the CPACR (FCO-BB-60D: the next one is due 60 days after it).
    async fn record_bb_periodic_report(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The bank, when the report was received, its period and reference.")]
        input: RecordBbPeriodicReportInput,
    ) -> Result<BankPayload> {
        let bank = ids::arg(&input.bank_id, NodeKind::Bank, "input.bankId")?;
        let period = (input.period_from.map(|d| d.0), input.period_to.map(|d| d.0));
        service::banks::record_periodic_report(db(ctx), &act(ctx), bank, input.received_on.0, period, input.reference)
            .await
            .served(ctx)?;
        let b = life_bank(ctx, bank).await?;
        Ok(BankPayload { bank: b })
    }
}
