//! Recording the facts the rules read, as commands of `service/`: a carta's items (FCO-SIRE-*, FCO-BOAR-RATIO,
//! FCO-PANTANAL, FCO-WEANED-2000, FCO-USED-MACHINE, FCO-CLASSIFY read them), economic groups and their members
//! (FCO-CEILING, FCO-WEANED-2000), and a project's framing letter from its bank (SF-BANK-FIRST). Each mutation takes one
//! `input` object and answers a payload with the changed object, so a client asks for the new outcomes in the same
//! request (`carta { compliance { ruleCode status } }`).

use super::{
    db,
    error::Served,
    ids::{self, NodeKind},
    scalars::{Date, Decimal},
    types::{
        enums::{InvestmentClass, ItemKind, SupplierKind},
        financing::{CartaItem, FcoCarta, FeedstockAcquisition, SocialFuelProject},
        objects::EconomicGroup,
    },
};
use async_graphql::{Context, ID, InputObject, Object, Result, SimpleObject};
use service::{
    acquisitions, groups, items,
    lifecycle::{self as life, Act},
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
    /// Pedigree registration of a purchased sire: `PO_RGD`, `LA` or `CEIP` (art. 6 I a).
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

/// `addFcoCartaItem`'s input.
#[derive(InputObject, Debug)]
pub struct AddFcoCartaItemInput {
    /// The carta's global ID.
    pub carta_id: ID,
    /// The item.
    pub item: FcoCartaItemFields,
    /// Why, when the carta is already decided (kept with the item).
    pub reason: Option<String>,
}

/// `updateFcoCartaItem`'s input.
#[derive(InputObject, Debug)]
pub struct UpdateFcoCartaItemInput {
    /// The version to change (`itemId`).
    pub item_id: i64,
    /// The item as it should be.
    pub item: FcoCartaItemFields,
    /// Why: required once the carta is decided (the change is then a new version; the old one stays).
    pub reason: Option<String>,
}

/// `removeFcoCartaItem`'s input.
#[derive(InputObject, Debug)]
pub struct RemoveFcoCartaItemInput {
    /// The version to remove (`itemId`).
    pub item_id: i64,
    /// Why: required once the carta is decided (the item is then kept, marked removed).
    pub reason: Option<String>,
}

/// What a change of a carta's items answers: the carta (ask for its `compliance`) and the item as recorded.
#[derive(SimpleObject)]
pub struct FcoCartaItemPayload {
    /// The carta, as it now stands.
    pub carta: FcoCarta,
    /// The item version recorded (null after a removal).
    pub item: Option<CartaItem>,
}

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

/// What a change of a project's facts answers: the project as it now stands (ask for its `compliance`).
#[derive(SimpleObject)]
pub struct SocialFuelProjectPayload {
    /// The project.
    pub project: SocialFuelProject,
}

/// `createEconomicGroup`'s input.
#[derive(InputObject, Debug)]
pub struct CreateEconomicGroupInput {
    /// The group's name.
    pub name: String,
    /// `GROUP`, `COOPERATIVE` or `ASSOCIATION`.
    pub kind: String,
    /// CPFs or CNPJs of its first members (parties Fomento knows), in any punctuation.
    #[graphql(default)]
    pub member_documents: Vec<String>,
}

/// `addEconomicGroupMembers`'s input.
#[derive(InputObject, Debug)]
pub struct AddEconomicGroupMembersInput {
    /// The group's global ID.
    pub group_id: ID,
    /// CPFs or CNPJs of the parties that join it.
    pub member_documents: Vec<String>,
}

/// `removeEconomicGroupMember`'s input.
#[derive(InputObject, Debug)]
pub struct RemoveEconomicGroupMemberInput {
    /// The group's global ID.
    pub group_id: ID,
    /// CPF or CNPJ of the party that leaves it.
    pub member_document: String,
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

/// `addFeedstockAcquisition`'s input.
#[derive(InputObject, Debug)]
pub struct AddFeedstockAcquisitionInput {
    /// The project's global ID.
    pub project_id: ID,
    /// The acquisition.
    pub acquisition: FeedstockAcquisitionFields,
    /// Why, when MDA has already decided on the framing (kept with it).
    pub reason: Option<String>,
}

/// `updateFeedstockAcquisition`'s input.
#[derive(InputObject, Debug)]
pub struct UpdateFeedstockAcquisitionInput {
    /// The version to change (`acquisitionId`).
    pub acquisition_id: i64,
    /// The acquisition as it should be.
    pub acquisition: FeedstockAcquisitionFields,
    /// Why: required once MDA has decided (the change is then a new version; the old one stays).
    pub reason: Option<String>,
}

/// `removeFeedstockAcquisition`'s input.
#[derive(InputObject, Debug)]
pub struct RemoveFeedstockAcquisitionInput {
    /// The version to remove (`acquisitionId`).
    pub acquisition_id: i64,
    /// Why: required once MDA has decided (the acquisition is then kept, marked removed).
    pub reason: Option<String>,
}

/// What a change of a project's acquisitions answers: the project (ask for its `compliance`) and the acquisition.
#[derive(SimpleObject)]
pub struct FeedstockAcquisitionPayload {
    /// The project, as it now stands.
    pub project: SocialFuelProject,
    /// The acquisition version recorded (null after a removal).
    pub acquisition: Option<FeedstockAcquisition>,
}

async fn acquisition_payload(
    ctx: &Context<'_>,
    project: i64,
    acquisition: Option<entity::feedstock_acquisition::Model>,
) -> Result<FeedstockAcquisitionPayload> {
    let p = life::project(db(ctx), "input.projectId", project).await.served(ctx)?;
    Ok(FeedstockAcquisitionPayload {
        project: SocialFuelProject(p),
        acquisition: acquisition.map(FeedstockAcquisition),
    })
}

/// Mutations that record facts.
#[derive(Default)]
pub struct FactsMutation;

fn act(ctx: &Context<'_>) -> Act {
    Act::by(super::caller(ctx))
}

async fn payload(
    ctx: &Context<'_>,
    carta_id: i64,
    item: Option<entity::fco_carta_item::Model>,
) -> Result<FcoCartaItemPayload> {
    let carta = life::carta(db(ctx), "input.cartaId", carta_id).await.served(ctx)?;
    Ok(FcoCartaItemPayload {
        carta: FcoCarta(carta),
        item: item.map(CartaItem),
    })
}

#[Object]
impl FactsMutation {
    /// Adds an item to a carta. After the chamber's or the bank's decision it needs a `reason`.
    async fn add_fco_carta_item(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta, the item and, after the decision, why.")] input: AddFcoCartaItemInput,
    ) -> Result<FcoCartaItemPayload> {
        let carta = ids::arg(&input.carta_id, NodeKind::FcoCarta, "input.cartaId")?;
        let item = items::add(db(ctx), &act(ctx), carta, input.item.into(), input.reason.as_deref())
            .await
            .served(ctx)?;
        payload(ctx, item.carta_id, Some(item)).await
    }

    /// Changes an item: in place until the decision; after it, a new version with the `reason`, the old one kept
    /// (`items(includeSuperseded: true)`), so `compliance(asOf:)` of an earlier day reads what was known then.
    async fn update_fco_carta_item(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version to change, the item as it should be and, after the decision, why.")]
        input: UpdateFcoCartaItemInput,
    ) -> Result<FcoCartaItemPayload> {
        let item = items::update(
            db(ctx),
            &act(ctx),
            input.item_id,
            input.item.into(),
            input.reason.as_deref(),
        )
        .await
        .served(ctx)?;
        payload(ctx, item.carta_id, Some(item)).await
    }

    /// Removes an item: deleted until the decision; after it, kept and marked removed with the `reason`.
    async fn remove_fco_carta_item(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version to remove and, after the decision, why.")] input: RemoveFcoCartaItemInput,
    ) -> Result<FcoCartaItemPayload> {
        let carta = items::remove(db(ctx), &act(ctx), input.item_id, input.reason.as_deref())
            .await
            .served(ctx)?;
        payload(ctx, carta.id, None).await
    }

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
        Ok(SocialFuelProjectPayload {
            project: SocialFuelProject(p),
        })
    }

    /// Creates an economic group, cooperative or association with its first members: FCO-CEILING and
    /// FCO-WEANED-2000 then count their cartas together.
    async fn create_economic_group(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Name, kind and first members.")] input: CreateEconomicGroupInput,
    ) -> Result<EconomicGroupPayload> {
        let g = groups::create(db(ctx), &input.name, &input.kind, &input.member_documents)
            .await
            .served(ctx)?;
        Ok(EconomicGroupPayload {
            group: EconomicGroup(g),
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
        let g = groups::add_members(db(ctx), group, &input.member_documents)
            .await
            .served(ctx)?;
        Ok(EconomicGroupPayload {
            group: EconomicGroup(g),
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
        let g = groups::remove_member(db(ctx), group, &input.member_document)
            .await
            .served(ctx)?;
        Ok(EconomicGroupPayload {
            group: EconomicGroup(g),
        })
    }

    /// Records a feedstock acquisition of a project (SF-SHARE-MIN and its companions read them). After MDA's framing
    /// decision it needs a `reason`.
    async fn add_feedstock_acquisition(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, the acquisition and, after MDA's decision, why.")]
        input: AddFeedstockAcquisitionInput,
    ) -> Result<FeedstockAcquisitionPayload> {
        let project = ids::arg(&input.project_id, NodeKind::SocialFuelProject, "input.projectId")?;
        let a = acquisitions::add(
            db(ctx),
            &act(ctx),
            project,
            input.acquisition.into(),
            input.reason.as_deref(),
        )
        .await
        .served(ctx)?;
        acquisition_payload(ctx, a.project_id, Some(a)).await
    }

    /// Changes an acquisition: in place until MDA's decision; after it, a new version with the `reason`, the old one
    /// kept (`acquisitions(includeSuperseded: true)`).
    async fn update_feedstock_acquisition(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version to change, the acquisition as it should be and, after MDA's decision, why.")]
        input: UpdateFeedstockAcquisitionInput,
    ) -> Result<FeedstockAcquisitionPayload> {
        let a = acquisitions::update(
            db(ctx),
            &act(ctx),
            input.acquisition_id,
            input.acquisition.into(),
            input.reason.as_deref(),
        )
        .await
        .served(ctx)?;
        acquisition_payload(ctx, a.project_id, Some(a)).await
    }

    /// Removes an acquisition: deleted until MDA's decision; after it, kept and marked removed with the `reason`.
    async fn remove_feedstock_acquisition(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The version to remove and, after MDA's decision, why.")]
        input: RemoveFeedstockAcquisitionInput,
    ) -> Result<FeedstockAcquisitionPayload> {
        let p = acquisitions::remove(db(ctx), &act(ctx), input.acquisition_id, input.reason.as_deref())
            .await
            .served(ctx)?;
        acquisition_payload(ctx, p.id, None).await
    }
}
