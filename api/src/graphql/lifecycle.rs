//! Lifecycle mutations: each transition of a social-fuel project or an FCO carta goes through the pure state
//! machine, is refused with the rule that forbids it, and is written with its history row in one transaction.

use super::{
    Caller, db,
    error::{ApiError, gql},
    ids::{self, NodeKind},
    rules::today_in_brasilia,
    scalars::{Date, DateTime, Decimal},
    types::{
        enums::{AmendmentKind, Decision, FcoActivity, FcoLine, ProjectDocumentKind},
        financing::{FcoCarta, ProjectDocument, SocialFuelProject},
    },
};
use async_graphql::{Context, ID, InputObject, Object, Result, SimpleObject};
use chrono::{NaiveDate, Utc};
use entity::{
    bank,
    domain::{Document, IbgeCode, Money},
    fco_carta, fco_carta_amendment, financing_transition, municipality, non_business_day, party, project_document,
    rule_parameter,
    rules::{
        fco::amendment_needs_approval,
        lifecycle::{FcoEvent, SfEvent, apply_fco, apply_sf},
    },
    social_fuel_project,
    vocab::{self, FcoCartaStage, Programme, SocialFuelStage},
};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter,
    QueryOrder, TransactionTrait,
};

fn bad(field: &str, msg: impl std::fmt::Display) -> async_graphql::Error {
    gql(ApiError::BadUserInput(format!("{field}: {msg}")))
}

fn actor(ctx: &Context<'_>) -> String {
    match ctx.data_opt::<Caller>() {
        Some(Caller::Anonymous) | None => "anonymous".into(),
        Some(Caller::System) => "system".into(),
    }
}

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
    /// A note, when given.
    pub note: Option<String>,
}

/// The history of a financing, oldest first.
pub async fn history(ctx: &Context<'_>, programme: Programme, id: i64) -> Result<Vec<Transition>> {
    let rows = financing_transition::Entity::find()
        .filter(financing_transition::Column::Programme.eq(programme))
        .filter(financing_transition::Column::FinancingId.eq(id))
        .order_by_asc(financing_transition::Column::Id)
        .all(db(ctx))
        .await
        .map_err(gql)?;
    let mut out: Vec<Transition> = rows
        .into_iter()
        .map(|r| Transition {
            from_stage: r.from_stage,
            to_stage: r.to_stage,
            event: r.event,
            occurred_on: Date(r.occurred_on),
            recorded_at: DateTime(r.recorded_at, super::rules::authority(programme)),
            actor: r.actor,
            note: r.note,
        })
        .collect();
    // A carta a bank's list created has no creation row: its creation is the report that created it.
    if programme == Programme::FcoRural && !out.iter().any(|t| t.event == "CREATE") {
        let carta = super::loader::<super::loaders::FcoCartaLoader>(ctx)
            .load_one(id)
            .await
            .map_err(gql)?;
        let created = match &carta {
            Some(c) => service::reports::creating_report(db(ctx), c)
                .await
                .map_err(|e| gql(ApiError::Internal(e.to_string())))?,
            None => None,
        };
        if let (Some(r), Some(c)) = (created, carta) {
            let to_stage = out
                .first()
                .and_then(|t| t.from_stage.clone())
                .unwrap_or_else(|| sea_orm::ActiveEnum::to_value(&c.stage));
            out.insert(
                0,
                Transition {
                    from_stage: None,
                    to_stage,
                    event: "CREATE".into(),
                    occurred_on: Date(c.approved_on.unwrap_or_else(|| r.received_at.date_naive())),
                    recorded_at: DateTime::cdae(r.processed_at.unwrap_or(r.received_at)),
                    actor: format!("bank report {}", r.id),
                    note: Some(format!("declared in the monthly list of {}", r.reference_month)),
                },
            );
        }
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
async fn record(
    db: &impl ConnectionTrait,
    programme: Programme,
    id: i64,
    from: Option<String>,
    to: String,
    event: &str,
    on: NaiveDate,
    actor: String,
    note: Option<String>,
) -> Result<(), sea_orm::DbErr> {
    financing_transition::ActiveModel {
        programme: Set(programme),
        financing_id: Set(id),
        from_stage: Set(from),
        to_stage: Set(to),
        event: Set(event.into()),
        occurred_on: Set(on),
        recorded_at: Set(Utc::now()),
        actor: Set(actor),
        note: Set(note),
        ..Default::default()
    }
    .insert(db)
    .await
    .map(|_| ())
}

fn stage_name<T: sea_orm::ActiveEnum<Value = String>>(s: T) -> String {
    s.to_value()
}

async fn project(ctx: &Context<'_>, id: &ID) -> Result<social_fuel_project::Model> {
    let key = ids::arg(id, NodeKind::SocialFuelProject, "id")?;
    social_fuel_project::Entity::find_by_id(key)
        .one(db(ctx))
        .await
        .map_err(gql)?
        .ok_or_else(|| {
            gql(ApiError::NotFound(format!(
                "no social-fuel project with ID {:?}",
                id.as_str()
            )))
        })
}

async fn carta(ctx: &Context<'_>, id: &ID) -> Result<fco_carta::Model> {
    let key = ids::arg(id, NodeKind::FcoCarta, "id")?;
    fco_carta::Entity::find_by_id(key)
        .one(db(ctx))
        .await
        .map_err(gql)?
        .ok_or_else(|| gql(ApiError::NotFound(format!("no FCO carta with ID {:?}", id.as_str()))))
}

async fn transition_sf(ctx: &Context<'_>, id: &ID, event: SfEvent, note: Option<String>) -> Result<SocialFuelProject> {
    let p = project(ctx, id).await?;
    let docs: Vec<vocab::ProjectDocumentKind> = project_document::Entity::find()
        .filter(project_document::Column::ProjectId.eq(p.id))
        .all(db(ctx))
        .await
        .map_err(gql)?
        .into_iter()
        .map(|d| d.kind)
        .collect();
    let next = apply_sf(&p, &docs, &event).map_err(gql)?;
    let txn = db(ctx).begin().await.map_err(gql)?;
    let saved = next
        .clone()
        .into_active_model()
        .reset_all()
        .update(&txn)
        .await
        .map_err(gql)?;
    record(
        &txn,
        Programme::SocialFuel,
        p.id,
        Some(stage_name(p.stage)),
        stage_name(next.stage),
        event.name(),
        event.on(),
        actor(ctx),
        note,
    )
    .await
    .map_err(gql)?;
    txn.commit().await.map_err(gql)?;
    Ok(SocialFuelProject(saved))
}

async fn transition_fco(
    ctx: &Context<'_>,
    c: fco_carta::Model,
    event: FcoEvent,
    note: Option<String>,
) -> Result<FcoCarta> {
    let txn = db(ctx).begin().await.map_err(gql)?;
    let saved = transition_fco_in(&txn, ctx, c, event, note).await?;
    txn.commit().await.map_err(gql)?;
    Ok(saved)
}

/// A carta's transition with its history row, inside `txn` (the caller commits).
async fn transition_fco_in(
    txn: &sea_orm::DatabaseTransaction,
    ctx: &Context<'_>,
    c: fco_carta::Model,
    event: FcoEvent,
    note: Option<String>,
) -> Result<FcoCarta> {
    let params = rule_parameter::Entity::params(txn).await.map_err(gql)?;
    let cal = non_business_day::Entity::calendar(txn).await.map_err(gql)?;
    let next = apply_fco(&c, &event, &params, &cal).map_err(gql)?;
    let saved = next
        .clone()
        .into_active_model()
        .reset_all()
        .update(txn)
        .await
        .map_err(gql)?;
    record(
        txn,
        Programme::FcoRural,
        c.id,
        Some(stage_name(c.stage)),
        stage_name(next.stage),
        event.name(),
        event.on(),
        actor(ctx),
        note,
    )
    .await
    .map_err(gql)?;
    Ok(FcoCarta(saved))
}

async fn bank_id(ctx: &Context<'_>, id: &ID) -> Result<i64> {
    let key = ids::arg(id, NodeKind::Bank, "bankId")?;
    bank::Entity::find_by_id(key)
        .one(db(ctx))
        .await
        .map_err(gql)?
        .ok_or_else(|| bad("bankId", "no such bank"))?;
    Ok(key)
}

/// The party with this document, created with `name` when new.
async fn party_for(db: &impl ConnectionTrait, field: &str, document: &str, name: Option<&str>) -> Result<i64> {
    let doc =
        Document::parse(document).map_err(|e| bad(field, format!("{document:?} is not a valid CPF or CNPJ: {e}")))?;
    if let Some(p) = party::Entity::find()
        .filter(party::Column::Document.eq(doc.as_str()))
        .one(db)
        .await
        .map_err(gql)?
    {
        return Ok(p.id);
    }
    let name = name
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| bad(field, "a new party needs a name"))?;
    let p = party::ActiveModel {
        document: Set(doc.as_str().into()),
        document_kind: Set(doc.kind().as_str().into()),
        cnpj_root: Set(doc.cnpj_root().map(Into::into)),
        name: Set(name.into()),
        economic_group_id: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await
    .map_err(gql)?;
    Ok(p.id)
}

async fn municipality_code(ctx: &Context<'_>, field: &str, code: i32) -> Result<i32> {
    u32::try_from(code)
        .ok()
        .and_then(|c| IbgeCode::new(c).ok())
        .ok_or_else(|| bad(field, format!("{code} is not an IBGE municipality code")))?;
    municipality::Entity::find_by_id(code)
        .one(db(ctx))
        .await
        .map_err(gql)?
        .ok_or_else(|| bad(field, format!("no municipality {code}")))?;
    Ok(code)
}

fn money(field: &str, d: Decimal) -> Result<Money> {
    Money::from_non_negative(d.0).map_err(|e| bad(field, e))
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
}

/// Lifecycle mutations of both programmes.
#[derive(Default)]
pub struct LifecycleMutation;

fn day(d: Option<Date>) -> NaiveDate {
    d.map_or_else(today_in_brasilia, |d| d.0)
}

#[Object]
impl LifecycleMutation {
    /// Creates a social-fuel project in DRAFT.
    async fn create_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project.")] input: NewSocialFuelProject,
    ) -> Result<SocialFuelProject> {
        if input.title.trim().is_empty() {
            return Err(bad("input.title", "must not be empty"));
        }
        let bank = bank_id(ctx, &input.bank_id).await?;
        let code = municipality_code(ctx, "input.plantMunicipalityCode", input.plant_municipality_code).await?;
        let amount = money("input.requestedAmount", input.requested_amount)?;
        if !matches!(Document::parse(&input.producer_document), Ok(Document::Cnpj(_))) {
            return Err(bad(
                "input.producerDocument",
                "a biodiesel producer is a company: give a valid CNPJ",
            ));
        }
        let txn = db(ctx).begin().await.map_err(gql)?;
        let party = party_for(
            &txn,
            "input.producerDocument",
            &input.producer_document,
            input.producer_name.as_deref(),
        )
        .await?;
        let stage = SocialFuelStage::Draft;
        let p = social_fuel_project::ActiveModel {
            title: Set(input.title.trim().into()),
            bank_id: Set(bank),
            party_id: Set(party),
            plant_municipality_code: Set(code),
            requested_amount: Set(amount),
            stage: Set(stage),
            status: Set(stage.status()),
            bank_framed_on: Set(input.bank_framed_on.map(|d| d.0)),
            analysed_by_bank: Set(false),
            schedule_delay_accepted: Set(false),
            created_at: Set(Utc::now()),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(gql)?;
        record(
            &txn,
            Programme::SocialFuel,
            p.id,
            None,
            stage_name(stage),
            "CREATE",
            today_in_brasilia(),
            actor(ctx),
            None,
        )
        .await
        .map_err(gql)?;
        txn.commit().await.map_err(gql)?;
        Ok(SocialFuelProject(p))
    }

    /// Records an annex-I document received for a project (art. 8).
    async fn add_project_document(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] project_id: ID,
        #[graphql(desc = "Which of the six documents.")] kind: ProjectDocumentKind,
        #[graphql(desc = "When it was received; today by default.")] received_on: Option<Date>,
        #[graphql(desc = "Protocol or file reference.")] reference: Option<String>,
    ) -> Result<ProjectDocument> {
        let p = project(ctx, &project_id).await?;
        let kind: vocab::ProjectDocumentKind = kind.into();
        project_document::Entity::delete_many()
            .filter(project_document::Column::ProjectId.eq(p.id))
            .filter(project_document::Column::Kind.eq(kind))
            .exec(db(ctx))
            .await
            .map_err(gql)?;
        let d = project_document::ActiveModel {
            project_id: Set(p.id),
            kind: Set(kind),
            received_on: Set(day(received_on)),
            reference: Set(reference),
            ..Default::default()
        }
        .insert(db(ctx))
        .await
        .map_err(gql)?;
        Ok(ProjectDocument(d))
    }

    /// Files the request with MDA: needs the bank's framing (SF-BANK-FIRST) and the six documents (SF-DOCUMENTS).
    async fn file_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Filing date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        transition_sf(ctx, &id, SfEvent::File { on: day(on) }, None).await
    }

    /// Records MDA's decision letter (art. 9).
    async fn decide_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Conformity (FAVOURABLE) or non-conformity (UNFAVOURABLE).")] decision: Decision,
        #[graphql(desc = "Date of the letter; today by default.")] on: Option<Date>,
        #[graphql(desc = "Reference of the letter (ofício).")] letter: Option<String>,
    ) -> Result<SocialFuelProject> {
        transition_sf(
            ctx,
            &id,
            SfEvent::Decide {
                on: day(on),
                decision: decision.into(),
                letter,
            },
            None,
        )
        .await
    }

    /// Records the bank's financing approval and the schedule's end (art. 10).
    async fn approve_social_fuel_financing(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Approval date; today by default.")] on: Option<Date>,
        #[graphql(desc = "Scheduled end of implementation.")] scheduled_end: Option<Date>,
    ) -> Result<SocialFuelProject> {
        transition_sf(
            ctx,
            &id,
            SfEvent::ApproveFinancing {
                on: day(on),
                scheduled_end: scheduled_end.map(|d| d.0),
            },
            None,
        )
        .await
    }

    /// Records the start of industrial operations (art. 10, 11).
    async fn start_industrial_operation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Start date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        transition_sf(ctx, &id, SfEvent::StartOperation { on: day(on) }, None).await
    }

    /// Records that MDA's external evaluation started (art. 11).
    async fn start_external_evaluation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Start date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        transition_sf(ctx, &id, SfEvent::StartEvaluation { on: day(on) }, None).await
    }

    /// Records the evaluation's result: conformity makes the project seal-eligible, non-conformity unframes it
    /// (art. 11 I–II).
    async fn conclude_external_evaluation(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Conformity (FAVOURABLE) or not.")] result: Decision,
        #[graphql(desc = "Conclusion date; today by default.")] on: Option<Date>,
        #[graphql(desc = "Why, on non-conformity.")] reason: Option<String>,
    ) -> Result<SocialFuelProject> {
        transition_sf(
            ctx,
            &id,
            SfEvent::ConcludeEvaluation {
                on: day(on),
                result: result.into(),
                reason,
            },
            None,
        )
        .await
    }

    /// Records the company's request for the social-fuel seal (art. 11 I).
    async fn request_social_fuel_seal(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Request date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        transition_sf(ctx, &id, SfEvent::RequestSeal { on: day(on) }, None).await
    }

    /// Grants the one 6-month extension when its three conditions hold (art. 11 §2).
    async fn request_social_fuel_extension(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "The company's justification.")] justification: String,
        #[graphql(desc = "Whether the contracted purchases are honoured.")] purchases_honoured: bool,
        #[graphql(desc = "Whether the contracted farmers have technical assistance.")] farmers_assisted: bool,
        #[graphql(desc = "Request date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        let event = SfEvent::RequestExtension {
            on: day(on),
            justification,
            purchases_honoured,
            farmers_assisted,
        };
        transition_sf(ctx, &id, event, None).await
    }

    /// Unframes a project (art. 11 II).
    async fn unframe_social_fuel_project(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project's global ID.")] id: ID,
        #[graphql(desc = "Why.")] reason: String,
        #[graphql(desc = "Date; today by default.")] on: Option<Date>,
    ) -> Result<SocialFuelProject> {
        transition_sf(
            ctx,
            &id,
            SfEvent::Unframe {
                on: day(on),
                reason: reason.clone(),
            },
            Some(reason),
        )
        .await
    }

    /// Creates an FCO carta in DRAFT.
    async fn create_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta.")] input: NewFcoCarta,
    ) -> Result<FcoCarta> {
        if input.number.trim().is_empty() {
            return Err(bad("input.number", "must not be empty"));
        }
        let bank = bank_id(ctx, &input.bank_id).await?;
        let code = municipality_code(ctx, "input.municipalityCode", input.municipality_code).await?;
        if code / 100_000 != 51 {
            return Err(bad(
                "input.municipalityCode",
                format!("{code} is not in Mato Grosso; this FCO Rural instruction is CDAE/MT's"),
            ));
        }
        let amount = money("input.financedAmount", input.financed_amount)?;
        if fco_carta::Entity::find()
            .filter(fco_carta::Column::BankId.eq(bank))
            .filter(fco_carta::Column::Number.eq(input.number.trim()))
            .one(db(ctx))
            .await
            .map_err(gql)?
            .is_some()
        {
            return Err(bad(
                "input.number",
                format!("the bank already has a carta numbered {:?}", input.number.trim()),
            ));
        }
        let txn = db(ctx).begin().await.map_err(gql)?;
        let party = party_for(
            &txn,
            "input.borrowerDocument",
            &input.borrower_document,
            input.borrower_name.as_deref(),
        )
        .await?;
        let stage = FcoCartaStage::Draft;
        let c = new_carta(
            bank,
            party,
            input.number.trim().into(),
            input.line.into(),
            input.activity.into(),
            amount,
            code,
            input.term_months,
            input.grace_months,
            None,
        )
        .insert(&txn)
        .await
        .map_err(gql)?;
        record(
            &txn,
            Programme::FcoRural,
            c.id,
            None,
            stage_name(stage),
            "CREATE",
            today_in_brasilia(),
            actor(ctx),
            None,
        )
        .await
        .map_err(gql)?;
        txn.commit().await.map_err(gql)?;
        Ok(FcoCarta(c))
    }

    /// Submits a carta: to the chamber at or above the threshold, to the bank below it.
    async fn submit_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Submission date; today by default.")] on: Option<Date>,
        #[graphql(desc = "When it reached SEDEC (72 hours before the meeting, art. 2 §7).")] received_at: Option<
            DateTime,
        >,
    ) -> Result<FcoCarta> {
        let c = carta(ctx, &id).await?;
        transition_fco(
            ctx,
            c,
            FcoEvent::Submit {
                on: day(on),
                received_at: received_at.map(|d| d.0),
            },
            None,
        )
        .await
    }

    /// Records the chamber's opinion or the bank's decision; the threshold decides who may decide
    /// (FCO-CHAMBER-THRESHOLD), and a favourable one must keep the group under the ceiling (FCO-CEILING).
    async fn decide_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Favourable or unfavourable.")] decision: Decision,
        #[graphql(desc = "Whether the CPACR chamber decided (else the bank).")] by_chamber: bool,
        #[graphql(desc = "Date; today by default.")] on: Option<Date>,
    ) -> Result<FcoCarta> {
        let c = carta(ctx, &id).await?;
        if decision == Decision::Favourable {
            check_ceiling(ctx, &c, c.financed_amount, c.submitted_on.unwrap_or(day(on))).await?;
        }
        transition_fco(
            ctx,
            c,
            FcoEvent::Decide {
                on: day(on),
                decision: decision.into(),
                by_chamber,
            },
            None,
        )
        .await
    }

    /// Records the contracting, within the 120-day validity (FCO-VALIDITY-120D).
    async fn contract_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Contracting date; today by default.")] on: Option<Date>,
        #[graphql(desc = "Contracted value; the financed value by default.")] amount: Option<Decimal>,
    ) -> Result<FcoCarta> {
        let c = carta(ctx, &id).await?;
        let amount = amount.map(|a| money("amount", a)).transpose()?;
        transition_fco(ctx, c, FcoEvent::Contract { on: day(on), amount }, None).await
    }

    /// Marks an approved carta expired once its 120-day validity has run out.
    async fn expire_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "Date; today by default.")] on: Option<Date>,
    ) -> Result<FcoCarta> {
        let c = carta(ctx, &id).await?;
        transition_fco(ctx, c, FcoEvent::Expire { on: day(on) }, None).await
    }

    /// Resubmits an unfavourable carta once reformulated (FCO-RESUBMIT): a new DRAFT carta that points to it.
    async fn resubmit_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The unfavourable carta's global ID.")] id: ID,
        #[graphql(desc = "The bank's number for the new carta.")] number: String,
        #[graphql(desc = "The reformulated financed value; the old one by default.")] financed_amount: Option<Decimal>,
    ) -> Result<FcoCarta> {
        let old = carta(ctx, &id).await?;
        if old.stage != FcoCartaStage::Unfavourable {
            let v = entity::rules::lifecycle::Violation {
                code: "FCO-RESUBMIT",
                legal_basis: entity::rules::rule("FCO-RESUBMIT").map(|r| r.legal_basis).unwrap_or(""),
                explanation: format!(
                    "only a carta with an unfavourable opinion may be resubmitted; this one is {:?}",
                    old.stage
                ),
            };
            return Err(gql(v));
        }
        let amount = financed_amount
            .map(|a| money("financedAmount", a))
            .transpose()?
            .unwrap_or(old.financed_amount);
        let txn = db(ctx).begin().await.map_err(gql)?;
        let c = new_carta(
            old.bank_id,
            old.party_id,
            number.trim().into(),
            old.line,
            old.activity,
            amount,
            old.municipality_code,
            old.term_months,
            old.grace_months,
            Some(old.id),
        )
        .insert(&txn)
        .await
        .map_err(gql)?;
        record(
            &txn,
            Programme::FcoRural,
            c.id,
            None,
            stage_name(FcoCartaStage::Draft),
            "RESUBMIT",
            today_in_brasilia(),
            actor(ctx),
            Some(format!("reformulates carta {}", old.number)),
        )
        .await
        .map_err(gql)?;
        txn.commit().await.map_err(gql)?;
        Ok(FcoCarta(c))
    }

    /// Amends an approved or contracted carta (FCO-AMENDMENT): exempt changes apply directly; any other reopens
    /// the approval (the carta goes back to SUBMITTED).
    async fn amend_fco_carta(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The carta's global ID.")] id: ID,
        #[graphql(desc = "What changes.")] kind: AmendmentKind,
        #[graphql(desc = "What was asked.")] description: String,
        #[graphql(desc = "The new financed value, for value changes.")] new_amount: Option<Decimal>,
        #[graphql(desc = "Request date; today by default.")] on: Option<Date>,
    ) -> Result<FcoCarta> {
        let c = carta(ctx, &id).await?;
        if !matches!(c.stage, FcoCartaStage::Approved | FcoCartaStage::Contracted) {
            return Err(gql(entity::rules::lifecycle::Violation {
                code: "FCO-AMENDMENT",
                legal_basis: entity::rules::rule("FCO-AMENDMENT")
                    .map(|r| r.legal_basis)
                    .unwrap_or(""),
                explanation: format!(
                    "only approved or contracted cartas are amended; this one is {:?}",
                    c.stage
                ),
            }));
        }
        let on = day(on);
        let new = new_amount.map(|a| money("newAmount", a)).transpose()?;
        let params = rule_parameter::Entity::params(db(ctx)).await.map_err(gql)?;
        let exposure_after = match new {
            Some(n) => Some(group_exposure(ctx, &c).await?.checked_add(n).unwrap_or(n)),
            None => None,
        };
        let kind: vocab::AmendmentKind = kind.into();
        let (needs, why) = amendment_needs_approval(kind, Some(c.financed_amount), new, exposure_after, &params, on)
            .map_err(|e| gql(ApiError::Internal(e.to_string())))?;
        let txn = db(ctx).begin().await.map_err(gql)?;
        fco_carta_amendment::ActiveModel {
            carta_id: Set(c.id),
            kind: Set(kind),
            requested_on: Set(on),
            old_amount: Set(Some(c.financed_amount)),
            new_amount: Set(new),
            description: Set(description),
            requires_new_approval: Set(needs),
            ..Default::default()
        }
        .insert(&txn)
        .await
        .map_err(gql)?;
        // The amendment, the carta's change and its history row commit together, or not at all.
        let saved = if needs {
            transition_fco_in(
                &txn,
                ctx,
                c,
                FcoEvent::Reopen { on, amount: new },
                Some(format!("FCO-AMENDMENT: {why}")),
            )
            .await?
        } else {
            let mut active = c.clone().into_active_model();
            if let Some(n) = new {
                active.financed_amount = Set(n);
            }
            let saved = active.update(&txn).await.map_err(gql)?;
            record(
                &txn,
                Programme::FcoRural,
                c.id,
                Some(stage_name(c.stage)),
                stage_name(c.stage),
                "AMEND",
                on,
                actor(ctx),
                Some(format!("FCO-AMENDMENT: {why}")),
            )
            .await
            .map_err(gql)?;
            FcoCarta(saved)
        };
        txn.commit().await.map_err(gql)?;
        Ok(saved)
    }
}

#[allow(clippy::too_many_arguments)]
fn new_carta(
    bank: i64,
    party: i64,
    number: String,
    line: vocab::FcoLine,
    activity: vocab::FcoActivity,
    amount: Money,
    code: i32,
    term: Option<i32>,
    grace: Option<i32>,
    resubmission_of: Option<i64>,
) -> fco_carta::ActiveModel {
    let stage = FcoCartaStage::Draft;
    fco_carta::ActiveModel {
        number: Set(number),
        bank_id: Set(bank),
        party_id: Set(party),
        line: Set(line),
        activity: Set(activity),
        financed_amount: Set(amount),
        municipality_code: Set(code),
        stage: Set(stage),
        status: Set(stage.status()),
        term_months: Set(term),
        grace_months: Set(grace),
        resubmission_of: Set(resubmission_of),
        created_at: Set(Utc::now()),
        ..Default::default()
    }
}

/// Approved and contracted financed value of the carta's borrower group, this carta excluded.
async fn group_exposure(ctx: &Context<'_>, c: &fco_carta::Model) -> Result<Money> {
    let others = fco_carta::Entity::committed_by_group(db(ctx), c).await.map_err(gql)?;
    Ok(others
        .iter()
        .fold(Money::ZERO, |acc, o| acc.checked_add(o.financed_amount).unwrap_or(acc)))
}

/// FCO-CEILING before a favourable decision.
async fn check_ceiling(ctx: &Context<'_>, c: &fco_carta::Model, amount: Money, on: NaiveDate) -> Result<()> {
    let params = rule_parameter::Entity::params(db(ctx)).await.map_err(gql)?;
    let ceiling = params
        .value("FCO-CEILING.AMOUNT", on)
        .map_err(|e| gql(ApiError::Internal(e.to_string())))?;
    let others = group_exposure(ctx, c).await?;
    let total = others.checked_add(amount).unwrap_or(amount);
    let ceiling_brl = entity::rules::brl(ceiling);
    if total.to_decimal() > ceiling {
        return Err(gql(entity::rules::lifecycle::Violation {
            code: "FCO-CEILING",
            legal_basis: entity::rules::rule("FCO-CEILING").map(|r| r.legal_basis).unwrap_or(""),
            explanation: format!(
                "the borrower's group already has {others} approved or contracted; with {amount} it would reach {total}, over the {ceiling_brl} ceiling"
            ),
        }));
    }
    Ok(())
}
