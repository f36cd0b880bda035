//! The lifecycles of both programmes as commands: each creates a financing or moves it through the pure state
//! machine (`entity::rules::lifecycle`), refuses with the rule that forbids it, and writes the change with its history
//! row in one transaction.
//!
//! Size: every act of both lifecycles as a use case (guard, state machine, history, in one transaction), alike by
//! design; to be split by programme.

use crate::{
    Caller, Clock, ServiceError,
    messages::{self, Message, code},
};
use chrono::NaiveDate;
use entity::{
    bank,
    domain::{Document, IbgeCode, Money},
    fco_carta, fco_carta_amendment, fco_carta_cycle, fco_carta_item, financing_transition, municipality,
    non_business_day, party, project_document, rule_parameter,
    rules::{
        Explanation,
        fco::amendment_judged,
        lifecycle::{FcoEvent, SfEvent, apply_fco, apply_sf},
    },
    social_fuel_project,
    vocab::{self, FcoCartaStage, Programme, SocialFuelStage},
};
use rust_decimal::Decimal;
use sea_orm::{
    ActiveEnum, ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel,
    PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, TransactionSession, TransactionTrait,
};

type Result<T> = std::result::Result<T, ServiceError>;

/// Who acts and when: every command records both in the history row it writes.
#[derive(Debug, Clone)]
pub struct Act {
    /// Who.
    pub caller: Caller,
    /// The clock of "now" and of "today" (the default legal date).
    pub clock: Clock,
}

impl Act {
    /// `caller` acting now.
    pub fn by(caller: Caller) -> Self {
        Self {
            caller,
            clock: Clock::System,
        }
    }

    /// The legal date of the act: `on`, or today in Brasília.
    pub fn day(&self, on: Option<NaiveDate>) -> NaiveDate {
        on.unwrap_or_else(|| self.clock.today())
    }

    /// The day a fact took effect, given in `field` (today in Brasília when not given, where that is the truth: the
    /// fact is being stated as it stands now). Refused after today, and before `since` (the day what the fact changes
    /// or ends holds from).
    pub fn effective(&self, field: &'static str, on: Option<NaiveDate>, since: Option<NaiveDate>) -> Result<NaiveDate> {
        let today = self.clock.today();
        let day = on.unwrap_or(today);
        if day > today {
            return Err(ServiceError::bad(
                field,
                Message::new(code::EFFECTIVE_IN_FUTURE)
                    .arg("date", day)
                    .arg("today", today),
            ));
        }
        if let Some(since) = since
            && day < since
        {
            return Err(ServiceError::bad(
                field,
                Message::new(code::EFFECTIVE_TOO_EARLY)
                    .arg("date", day)
                    .arg("since", since),
            ));
        }
        Ok(day)
    }
}

/// One step of a financing's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryEntry {
    /// The stage before (none on creation).
    pub from_stage: Option<String>,
    /// The stage after.
    pub to_stage: String,
    /// What happened (`CREATE`, `FILE`, `DECIDE`, `CONTRACT`, ...).
    pub event: String,
    /// The legal date of the event.
    pub occurred_on: NaiveDate,
    /// When it was recorded.
    pub recorded_at: chrono::DateTime<chrono::Utc>,
    /// Who recorded it.
    pub actor: String,
    /// A note, when given.
    pub note: Option<String>,
}

/// The history of a financing, oldest first, its notes in `lang` ([`crate::l10n::history_note`]). A carta a bank's
/// list created has no creation row of its own: its creation is the report that created it (provenance), shown first.
pub async fn history(
    db: &(impl ConnectionTrait + TransactionTrait),
    programme: Programme,
    id: i64,
    lang: messages::Lang,
) -> Result<Vec<HistoryEntry>> {
    let rows = financing_transition::Entity::find()
        .filter(financing_transition::Column::Programme.eq(programme))
        .filter(financing_transition::Column::FinancingId.eq(id))
        .order_by_asc(financing_transition::Column::Id)
        .all(db)
        .await?;
    let mut out: Vec<HistoryEntry> = rows
        .into_iter()
        .map(|r| HistoryEntry {
            note: crate::l10n::history_note(&r, lang),
            from_stage: r.from_stage,
            to_stage: r.to_stage,
            event: r.event,
            occurred_on: r.occurred_on,
            recorded_at: r.recorded_at,
            actor: r.actor,
        })
        .collect();
    if programme == Programme::FcoRural && !out.iter().any(|t| t.event == "CREATE") {
        let Some(c) = fco_carta::Entity::find_by_id(id).one(db).await? else {
            return Ok(out);
        };
        if let Some(r) = crate::reports::creating_report(db, &c).await? {
            let to_stage = out
                .first()
                .and_then(|t| t.from_stage.clone())
                .unwrap_or_else(|| c.stage.to_value());
            out.insert(
                0,
                HistoryEntry {
                    from_stage: None,
                    to_stage,
                    event: "CREATE".into(),
                    occurred_on: c.approved_on.unwrap_or_else(|| r.received_at.date_naive()),
                    recorded_at: r.processed_at.unwrap_or(r.received_at),
                    actor: format!("bank report {}", r.id),
                    note: crate::l10n::render(
                        "history-declared-in-list",
                        [("month", r.reference_month.as_str())],
                        lang,
                    ),
                },
            );
        }
    }
    Ok(out)
}

/// One history row.
struct Step<'a> {
    programme: Programme,
    id: i64,
    from: Option<String>,
    to: String,
    event: &'a str,
    on: NaiveDate,
    /// A person's note as written (an English text), or Fomento's own as a catalogue message.
    note: Option<Explanation>,
}

impl<'a> Step<'a> {
    /// The creation of a financing in `stage`, today.
    fn created(
        programme: Programme,
        id: i64,
        stage: String,
        event: &'a str,
        on: NaiveDate,
        note: Option<Explanation>,
    ) -> Self {
        Self {
            programme,
            id,
            from: None,
            to: stage,
            event,
            on,
            note,
        }
    }
}

/// Writes a financing as it becomes (`next`, from the state machine) and its history row, inside `txn`: the one
/// transition helper of both programmes.
async fn save<A, E, M>(txn: &impl ConnectionTrait, act: &Act, next: M, step: Step<'_>) -> Result<M>
where
    M: IntoActiveModel<A> + sea_orm::ModelTrait<Entity = E> + Send,
    E: EntityTrait<Model = M>,
    A: ActiveModelTrait<Entity = E> + sea_orm::ActiveModelBehavior + Send,
{
    let saved = next.into_active_model().reset_all().update(txn).await?;
    record(txn, act, step).await?;
    Ok(saved)
}

async fn record(db: &impl ConnectionTrait, act: &Act, s: Step<'_>) -> Result<()> {
    // A text is stored as written; a catalogue message as its id and values (migration 61), rendered when read.
    let (note, note_id, note_args) = match s.note {
        None => (None, None, None),
        Some(Explanation::English(text)) => (Some(text), None, None),
        Some(Explanation::Message { id, args }) => (
            None,
            Some(id.to_owned()),
            Some(crate::l10n::args_json(&args).to_string()),
        ),
    };
    financing_transition::ActiveModel {
        programme: Set(s.programme),
        financing_id: Set(s.id),
        from_stage: Set(s.from),
        to_stage: Set(s.to),
        event: Set(s.event.into()),
        occurred_on: Set(s.on),
        recorded_at: Set(act.clock.now()),
        actor: Set(act.caller.actor()),
        note: Set(note),
        note_id: Set(note_id),
        note_args: Set(note_args),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}

/// Writes a history row for a fact recorded on a financing that leaves its stage as it is (a document, a plan, a
/// schedule, an agenda placement), dated `on`, the day it happened: the one writer of such rows besides [`record`].
/// Its note is Fomento's words as a catalogue message (stored as its id and values, rendered when read) with a
/// person's words placed in it as written ([`because`]), or a person's words alone.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn note_in_history(
    db: &impl ConnectionTrait,
    act: &Act,
    programme: Programme,
    id: i64,
    stage: String,
    event: &str,
    on: NaiveDate,
    note: Option<Explanation>,
) -> Result<()> {
    let step = Step {
        programme,
        id,
        from: Some(stage.clone()),
        to: stage,
        event,
        on,
        note,
    };
    record(db, act, step).await
}

/// A social-fuel project by id.
pub async fn find_project(
    db: &impl ConnectionTrait,
    field: &'static str,
    id: i64,
) -> Result<social_fuel_project::Model> {
    social_fuel_project::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found(field, Message::new(code::PROJECT_UNKNOWN).arg("id", id)))
}

/// An FCO carta by id.
pub async fn find_carta(db: &impl ConnectionTrait, field: &'static str, id: i64) -> Result<fco_carta::Model> {
    fco_carta::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found(field, Message::new(code::CARTA_UNKNOWN).arg("id", id)))
}

/// An FCO carta by id, when the caller may act on it: another bank's carta answers as one that does not exist.
pub async fn own_carta(
    db: &impl ConnectionTrait,
    caller: &Caller,
    field: &'static str,
    id: i64,
) -> Result<fco_carta::Model> {
    let c = find_carta(db, field, id).await?;
    crate::access::within(caller, c.bank_id, field, || {
        Message::new(code::CARTA_UNKNOWN).arg("id", id)
    })?;
    Ok(c)
}

async fn bank_model(db: &impl ConnectionTrait, field: &'static str, id: i64) -> Result<bank::Model> {
    bank::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::bad(field, Message::new(code::BANK_ID_UNKNOWN)))
}

/// The party with this document, created with `name` when new (a supplier recorded before any financing of its own).
pub async fn party_for(
    db: &impl ConnectionTrait,
    field: &'static str,
    document: &str,
    name: Option<&str>,
) -> Result<i64> {
    let doc = Document::parse(document).map_err(|e| ServiceError::bad(field, messages::document(&e)))?;
    if let Some(p) = party::Entity::find()
        .filter(party::Column::Document.eq(doc.as_str()))
        .one(db)
        .await?
    {
        return Ok(p.id);
    }
    let name = name
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| ServiceError::bad(field, Message::new(code::PARTY_NAME_REQUIRED).arg("document", &doc)))?;
    let p = party::ActiveModel {
        document: Set(doc.as_str().into()),
        document_kind: Set(doc.kind().as_str().into()),
        cnpj_root: Set(doc.cnpj_root().map(Into::into)),
        name: Set(name.into()),
        economic_group_id: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(p.id)
}

async fn municipality_code(db: &impl ConnectionTrait, field: &'static str, code: i32) -> Result<i32> {
    u32::try_from(code)
        .ok()
        .and_then(|c| IbgeCode::new(c).ok())
        .ok_or_else(|| ServiceError::bad(field, Message::new(code::IBGE_INVALID).arg("value", code)))?;
    municipality::Entity::find_by_id(code)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::bad(field, Message::new(code::IBGE_UNKNOWN)))?;
    Ok(code)
}

/// A non-negative amount of money, exact to the centavo.
pub fn money(field: &'static str, d: Decimal) -> Result<Money> {
    Money::from_non_negative(d).map_err(|e| ServiceError::bad(field, messages::amount(&e)))
}

/// An amount financed or requested: more than R$ 0,00.
fn positive_money(field: &'static str, d: Decimal) -> Result<Money> {
    let m = money(field, d)?;
    if m.cents() <= 0 {
        return Err(ServiceError::bad(field, Message::new(code::AMOUNT_NOT_POSITIVE)));
    }
    Ok(m)
}

/// Refuses an act dated after today (in Brasília, the clock of `act`).
fn not_in_future(act: &Act, event: &str, on: NaiveDate) -> Result<()> {
    let today = act.clock.today();
    if on > today {
        return Err(ServiceError::bad(
            "input.on",
            Message::new(code::DATE_IN_FUTURE)
                .arg("event", event)
                .arg("date", on)
                .arg("today", today),
        ));
    }
    Ok(())
}

pub(crate) fn required(field: &'static str, text: &str) -> Result<String> {
    match text.trim() {
        "" => Err(ServiceError::bad(field, Message::new(code::FIELD_EMPTY))),
        t => Ok(t.to_owned()),
    }
}

/// A new social-fuel project, in DRAFT.
#[derive(Debug, Clone)]
pub struct NewProject {
    /// Title.
    pub title: String,
    /// The bank where financing is sought.
    pub bank_id: i64,
    /// The producer's CNPJ, in any punctuation.
    pub producer_document: String,
    /// The producer's name, when the CNPJ is new.
    pub producer_name: Option<String>,
    /// IBGE code of the plant's municipality.
    pub plant_municipality_code: i32,
    /// Financing sought.
    pub requested_amount: Decimal,
    /// Date of the bank's framing letter (art. 7).
    pub bank_framed_on: Option<NaiveDate>,
    /// The day the request was made (its history's first row); today when not given.
    pub created_on: Option<NaiveDate>,
}

/// Creates a social-fuel project in DRAFT, with its creation row.
pub async fn create_project(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    input: NewProject,
) -> Result<social_fuel_project::Model> {
    let title = required("input.title", &input.title)?;
    // Which banks take part in the social-fuel programme is data kept per bank (`servesSocialFuel`).
    let bank = bank_model(db, "input.bankId", input.bank_id).await?;
    if !bank.serves_social_fuel {
        return Err(ServiceError::bad(
            "input.bankId",
            Message::new(code::BANK_NOT_SOCIAL_FUEL).arg("code", &bank.code),
        ));
    }
    let bank = bank.id;
    let code = municipality_code(db, "input.plantMunicipalityCode", input.plant_municipality_code).await?;
    let amount = positive_money("input.requestedAmount", input.requested_amount)?;
    let created_on = act.effective("input.createdOn", input.created_on, None)?;
    if !matches!(Document::parse(&input.producer_document), Ok(Document::Cnpj(_))) {
        return Err(ServiceError::bad(
            "input.producerDocument",
            Message::new(code::PRODUCER_NEEDS_CNPJ),
        ));
    }
    let txn = crate::txn::write(db).await?;
    let party = party_for(
        &txn,
        "input.producerDocument",
        &input.producer_document,
        input.producer_name.as_deref(),
    )
    .await?;
    let stage = SocialFuelStage::Draft;
    let p = social_fuel_project::ActiveModel {
        title: Set(title),
        bank_id: Set(bank),
        party_id: Set(party),
        plant_municipality_code: Set(code),
        requested_amount: Set(amount),
        stage: Set(stage),
        status: Set(stage.status()),
        bank_framed_on: Set(input.bank_framed_on),
        analysed_by_bank: Set(false),
        schedule_delay_accepted: Set(false),
        created_at: Set(act.clock.now()),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    let step = Step::created(
        Programme::SocialFuel,
        p.id,
        stage.to_value(),
        "CREATE",
        created_on,
        None,
    );
    record(&txn, act, step).await?;
    txn.commit().await?;
    Ok(p)
}

/// Records an annex-I document received for a project (art. 8), replacing an earlier one of the same kind.
pub async fn add_project_document(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    kind: vocab::ProjectDocumentKind,
    received_on: Option<NaiveDate>,
    reference: Option<String>,
    reason: Option<&str>,
) -> Result<project_document::Model> {
    let p = find_project(db, "input.projectId", project_id).await?;
    // Once the request is filed, the dossier as filed is evidence: a document received again needs a reason, is dated
    // no earlier than the filing (it cannot be slipped into it), and is a new version beside the one filed.
    let filed = p.filed_on.filter(|_| p.stage != SocialFuelStage::Draft);
    let day = act.effective("input.receivedOn", received_on, filed)?;
    let current = project_document::Entity::find()
        .filter(project_document::Column::ProjectId.eq(p.id))
        .filter(project_document::Column::Kind.eq(kind))
        .filter(project_document::Column::SupersededAt.is_null())
        .one(db)
        .await?;
    let reason = reason.map(str::trim).filter(|r| !r.is_empty()).map(str::to_owned);
    if filed.is_some() && current.is_some() && reason.is_none() {
        return Err(ServiceError::bad("input.reason", Message::new(code::REASON_REQUIRED)));
    }
    let txn = crate::txn::write(db).await?;
    // The version in force steps aside first (one per kind is in force), then names the one that took its place.
    let replaced = match current {
        Some(old) => {
            let mut a = old.into_active_model();
            a.superseded_at = Set(Some(act.clock.now()));
            a.change_reason = Set(reason.clone());
            Some(a.update(&txn).await?)
        }
        None => None,
    };
    let d = project_document::ActiveModel {
        project_id: Set(p.id),
        kind: Set(kind),
        received_on: Set(day),
        reference: Set(reference),
        recorded_at: Set(Some(act.clock.now())),
        recorded_by: Set(Some(act.caller.actor())),
        change_reason: Set(reason.clone()),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    if let Some(old) = replaced {
        let mut a = old.into_active_model();
        a.superseded_by = Set(Some(d.id));
        a.update(&txn).await?;
    }
    if filed.is_some() {
        let document = Explanation::message("sf-document")
            .arg("name", kind.name_pt())
            .arg("code", kind.to_value());
        let note = because(
            Explanation::message("history-document-received")
                .nested("document", document)
                .arg("day", day),
            reason,
        );
        note_in_history(
            &txn,
            act,
            Programme::SocialFuel,
            p.id,
            p.stage.to_value(),
            "DOCUMENT",
            day,
            Some(note),
        )
        .await?;
    }
    txn.commit().await?;
    Ok(d)
}

/// Records the bank's framing letter of a project (art. 7), which MDA's analysis requires (SF-BANK-FIRST): a fact
/// that may arrive after the project was created. Changing it once the project is filed needs a reason, kept in the
/// history.
pub async fn record_bank_framing(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    on: NaiveDate,
    analysed_by_bank: bool,
    reason: Option<&str>,
) -> Result<social_fuel_project::Model> {
    let p = find_project(db, "input.projectId", project_id).await?;
    let filed = p.stage != SocialFuelStage::Draft;
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    if filed && reason.is_none() {
        return Err(ServiceError::bad("input.reason", Message::new(code::REASON_REQUIRED)));
    }
    let stage = p.stage.to_value();
    let note = because(
        Explanation::message("history-bank-framing")
            .arg("on", on)
            .arg("analysed", if analysed_by_bank { "yes" } else { "no" }),
        reason.map(str::to_owned),
    );
    let mut a = p.clone().into_active_model();
    a.bank_framed_on = Set(Some(on));
    a.analysed_by_bank = Set(analysed_by_bank);
    let txn = crate::txn::write(db).await?;
    let saved = a.update(&txn).await?;
    let step = Step {
        programme: Programme::SocialFuel,
        id: p.id,
        from: Some(stage.clone()),
        to: stage,
        event: "BANK_FRAMING",
        on,
        note: Some(note),
    };
    record(&txn, act, step).await?;
    txn.commit().await?;
    Ok(saved)
}

/// Records the company's justifications and contestations of the non-conformity the evaluation found (art. 11 II):
/// their date and content, while MDA hears them (`NON_CONFORMITY_HEARING`), not before the evaluation's conclusion
/// nor after today; MDA then accepts them or unframes the project. Filed again, they replace the earlier ones, and the
/// history keeps both.
pub async fn record_justifications(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    on: Option<NaiveDate>,
    content: &str,
) -> Result<social_fuel_project::Model> {
    let fact = DatedText {
        fields: ["input.projectId", "input.on", "input.content"],
        event: "JUSTIFICATIONS",
        words: "content",
        admit: |p| match p.stage {
            SocialFuelStage::NonConformityHearing => {
                Ok((p.external_evaluation_on, Explanation::message("history-justifications")))
            }
            stage => Err(refused(code::REFUSE_JUSTIFICATIONS_STAGE, stage)),
        },
        set: |a, day, content| {
            a.justifications_filed_on = Set(Some(day));
            a.justifications_content = Set(Some(content));
        },
    };
    record_dated_text(db, act, project_id, on, content, fact).await
}

/// Records MDA's notice to the bank that approved the project (art. 11 II: of an unframing; §1: of an unframing or of a
/// seal not requested in time): its date and reference, once the project is unframed or seal-eligible, not before
/// the act it reports nor after today.
pub async fn record_bank_notice(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    on: Option<NaiveDate>,
    reference: &str,
) -> Result<social_fuel_project::Model> {
    let fact = DatedText {
        fields: ["input.projectId", "input.on", "input.reference"],
        event: "BANK_NOTICE",
        words: "reference",
        admit: |p| {
            let since = match p.stage {
                SocialFuelStage::Unframed => p.unframed_on,
                SocialFuelStage::SealEligible => p.justifications_accepted_on.or(p.external_evaluation_on),
                stage => return Err(refused(code::REFUSE_BANK_NOTICE_STAGE, stage)),
            };
            Ok((since, Explanation::message("history-bank-notice")))
        },
        set: |a, day, reference| {
            a.bank_notified_on = Set(Some(day));
            a.bank_notice_reference = Set(Some(reference));
        },
    };
    record_dated_text(db, act, project_id, on, reference, fact).await
}

/// Records MDA's update of its public database with an unframing (art. 11 II, "será atualizada a base de dados no
/// endereço eletrônico do MDA"): its date and where it was published, once the project is unframed, not before the
/// unframing nor after today.
pub async fn record_public_update(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    on: Option<NaiveDate>,
    reference: &str,
) -> Result<social_fuel_project::Model> {
    let fact = DatedText {
        fields: ["input.projectId", "input.on", "input.reference"],
        event: "PUBLIC_UPDATE",
        words: "reference",
        admit: |p| match p.stage {
            SocialFuelStage::Unframed => Ok((p.unframed_on, Explanation::message("history-public-update"))),
            stage => Err(refused(code::REFUSE_PUBLIC_UPDATE_STAGE, stage)),
        },
        set: |a, day, reference| {
            a.public_update_on = Set(Some(day));
            a.public_update_reference = Set(Some(reference));
        },
    };
    record_dated_text(db, act, project_id, on, reference, fact).await
}

/// SF-UNFRAMING's refusal of an act of the unframing's course in a stage that does not admit it.
fn refused(message: &'static str, stage: SocialFuelStage) -> ServiceError {
    ServiceError::rule(
        entity::rules::code::SF_UNFRAMING,
        entity::rules::lifecycle::in_stage(message, stage),
    )
}

/// A project's dated fact in a person's words that leaves its stage as it is (the company's justifications, MDA's
/// notices, the bank's acceptance of a delay), as [`record_dated_text`] records it.
pub(crate) struct DatedText {
    /// The fields the errors name: the project's, the day's and the words'.
    pub(crate) fields: [&'static str; 3],
    /// The history row's event.
    pub(crate) event: &'static str,
    /// The history note's argument that holds the words (the day is `day`).
    pub(crate) words: &'static str,
    /// Whether the project admits the fact (else the refusal), the earliest day it may bear, and the history note,
    /// which the day and the words complete.
    pub(crate) admit: fn(&social_fuel_project::Model) -> Result<Admitted>,
    /// Writes the day and the words into the project's columns.
    pub(crate) set: fn(&mut social_fuel_project::ActiveModel, NaiveDate, String),
}

/// What a project that admits a [`DatedText`] gives it: the earliest day it may bear and the start of its history note.
pub(crate) type Admitted = (Option<NaiveDate>, Explanation);

/// Records a [`DatedText`]: the project found and admitting it, the words required, the day not before the earliest
/// nor after today (today by default), the project and its history row written in one transaction.
pub(crate) async fn record_dated_text(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    on: Option<NaiveDate>,
    words: &str,
    fact: DatedText,
) -> Result<social_fuel_project::Model> {
    let [project_field, day_field, words_field] = fact.fields;
    let p = find_project(db, project_field, project_id).await?;
    let (since, note) = (fact.admit)(&p)?;
    let words = required(words_field, words)?;
    let day = act.effective(day_field, on, since)?;
    let note = note.arg("day", day).arg(fact.words, &words);
    let mut a = p.clone().into_active_model();
    (fact.set)(&mut a, day, words);
    write_fact(db, act, &p, a, fact.event, day, note).await
}

/// Writes a fact of a project that leaves its stage as it is, with its history row, in one transaction.
pub(crate) async fn write_fact(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    p: &social_fuel_project::Model,
    a: social_fuel_project::ActiveModel,
    event: &str,
    on: NaiveDate,
    note: Explanation,
) -> Result<social_fuel_project::Model> {
    let stage = p.stage.to_value();
    let txn = crate::txn::write(db).await?;
    let saved = a.update(&txn).await?;
    let step = Step {
        programme: Programme::SocialFuel,
        id: p.id,
        from: Some(stage.clone()),
        to: stage,
        event,
        on,
        note: Some(note),
    };
    record(&txn, act, step).await?;
    txn.commit().await?;
    Ok(saved)
}

/// A history note with a person's words after it, as written (`history-because`), or the note alone when they gave
/// none.
pub(crate) fn because(note: Explanation, words: Option<String>) -> Explanation {
    match words {
        Some(why) => Explanation::message("history-because")
            .nested("what", note)
            .arg("why", why),
        None => note,
    }
}

/// Moves a project through `event`, with its history row.
pub async fn transition_project(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    event: SfEvent,
    note: Option<String>,
) -> Result<social_fuel_project::Model> {
    transition_project_overriding(db, act, id, event, note, None).await
}

/// The rules a favourable act may not pass over unless MDA says why: the framing decision over the request's own
/// criteria (art. 9: arts. 3, 5, 7, 8, and the assistance plan art. 2 makes a minimum criterion: none recorded, or one
/// lacking a content of art. 6), the conforming evaluation over the schedule (art. 10). MDA analyses and decides
/// (art. 9 "avaliar"), so it may still decide over them, saying why.
fn guarded_by(event: &SfEvent) -> &'static [entity::rules::RuleCode] {
    use entity::rules::code as r;
    match event {
        SfEvent::Decide {
            decision: vocab::Decision::Favourable,
            ..
        } => &[
            r::SF_SHARE_MIN,
            r::SF_REPRESENTATION,
            r::SF_CONTRACT_TERMS,
            r::SF_ASSISTANCE_PLAN,
            r::SF_BANK_FIRST,
            r::SF_DOCUMENTS,
        ],
        SfEvent::ConcludeEvaluation {
            result: vocab::Decision::Favourable,
            ..
        } => &[r::SF_SCHEDULE],
        _ => &[],
    }
}

/// Moves a project through `event`, as [`transition_project`]; a favourable decision or evaluation over a rule the
/// project `VIOLATED` on the event's day is refused by that rule, unless `override_reason` says why MDA decides so:
/// the override is then written in the history with the rules it passed over.
pub async fn transition_project_overriding(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    event: SfEvent,
    note: Option<String>,
    override_reason: Option<String>,
) -> Result<social_fuel_project::Model> {
    let p = find_project(db, "id", id).await?;
    let override_reason = override_reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
    // The documents received by the event's day (a filing carries only what had arrived).
    let docs: Vec<vocab::ProjectDocumentKind> = project_document::Entity::find()
        .filter(project_document::Column::ProjectId.eq(p.id))
        .all(db)
        .await?
        .into_iter()
        .filter(|d| d.received_on <= event.on())
        .map(|d| d.kind)
        .collect();
    // IN MDA nº 2/2005 judges only acts dated while it was in force: after its revocation none of its guards refuses.
    let in_force = entity::rules::mda_2005().in_force_on(event.on());
    if let SfEvent::ConcludeEvaluation { result, on, .. } = &event {
        let conforming = *result == vocab::Decision::Favourable;
        crate::findings::check_conclusion(db, p.id, conforming, *on, in_force).await?;
    }
    not_in_future(act, event.name(), event.on())?;
    let params = rule_parameter::Entity::params(db).await?;
    let calendar = non_business_day::Entity::calendar(db).await?;
    let next = apply_sf(&p, &docs, &event, &params, &calendar)?;
    let mut note = note.map(Explanation::from);
    let guarded = if in_force { guarded_by(&event) } else { &[] };
    if !guarded.is_empty() {
        let basis = crate::compliance::Basis {
            params: &params,
            calendar: &calendar,
            texts: entity::rules::Texts::Written,
        };
        // Judged on the act's own day: the facts in effect that day (whenever they were recorded), the project as it
        // stood before the act. A decision allowed on its day is never shown as taken over a rule violated that day.
        let (outcomes, _) =
            crate::compliance::judge_project(&crate::compliance::DbFacts(db), basis, &p, event.on()).await?;
        let violated: Vec<&entity::rules::Outcome> = outcomes
            .iter()
            .filter(|o| o.status == entity::rules::Status::Violated && guarded.iter().any(|g| *g == o.code))
            .collect();
        if let Some(first) = violated.first() {
            match &override_reason {
                None => {
                    return Err(ServiceError::rule(
                        entity::rules::rule(first.code).map_or(entity::rules::code::SF_DECISION_30D, |r| r.code),
                        entity::rules::Explanation::message("explain-override-project")
                            .clauses("rules", violated.iter().map(|o| quoted(o))),
                    ));
                }
                Some(why) => {
                    let line = override_note(&violated, why.clone());
                    note = Some(match note {
                        Some(n) => Explanation::message("history-joined")
                            .nested("first", n)
                            .nested("then", line),
                        None => line,
                    });
                }
            }
        }
    }
    let step = Step {
        programme: Programme::SocialFuel,
        id: p.id,
        from: Some(p.stage.to_value()),
        to: next.stage.to_value(),
        event: event.name(),
        on: event.on(),
        note,
    };
    let txn = crate::txn::write(db).await?;
    let saved = save(&txn, act, next, step).await?;
    txn.commit().await?;
    Ok(saved)
}

/// Moves a carta through `event`, with its history row.
pub async fn transition_carta(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    event: FcoEvent,
) -> Result<fco_carta::Model> {
    let c = own_carta(db, &act.caller, "id", id).await?;
    // A carta is submitted once: a second submission is refused by the carta's state, not by a rule.
    if matches!(event, FcoEvent::Submit { .. }) && c.stage != FcoCartaStage::Draft {
        return Err(ServiceError::bad(
            "id",
            Message::new(code::CARTA_ALREADY_SUBMITTED)
                .arg("number", c.number.clone())
                .arg("stage", c.stage.to_value()),
        ));
    }
    if let (FcoEvent::Submit { on, .. }, Some(original)) = (&event, c.resubmission_of) {
        unchanged_resubmission(db, &c, original, *on).await?;
    }
    if let FcoEvent::Contract { on, .. } = &event
        && c.stage == FcoCartaStage::Approved
    {
        contract_conditions_met(db, &c, *on).await?;
    }
    let txn = crate::txn::write(db).await?;
    let saved = transition_carta_in(&txn, act, c, event, None).await?;
    txn.commit().await?;
    Ok(saved)
}

/// The conditions the instruction puts before contracting ([`entity::rules::fco::CONTRACT_CONDITIONS`]: art. 6 §7, art.
/// 7 §6, art. 8 §2, art. 10 sole §), judged on the contract's day with the facts effective then: the contract is
/// refused by the first unmet one, with no override ("fica condicionada" leaves the bank no discretion).
async fn contract_conditions_met(
    db: &(impl ConnectionTrait + TransactionTrait),
    c: &fco_carta::Model,
    on: NaiveDate,
) -> Result<()> {
    let params = rule_parameter::Entity::params(db).await?;
    let calendar = non_business_day::Entity::calendar(db).await?;
    let basis = crate::compliance::Basis {
        params: &params,
        calendar: &calendar,
        texts: entity::rules::Texts::Written,
    };
    let (outcomes, _) = crate::compliance::judge_carta(&crate::compliance::DbFacts(db), basis, c, on).await?;
    let unmet = entity::rules::fco::unmet_contract_conditions(c.activity, &outcomes);
    let Some((first, _)) = unmet.first() else {
        return Ok(());
    };
    let listed = unmet.iter().map(|(k, o)| {
        entity::rules::Explanation::message("fco-condition-unmet")
            .arg("code", o.code)
            .arg("basis", k.article)
            .nested("what", entity::rules::Explanation::message(k.what))
    });
    Err(ServiceError::Rule(entity::rules::lifecycle::Violation {
        code: first.code.as_str(),
        legal_basis: first.article,
        explanation: entity::rules::Explanation::message(code::REFUSE_CONTRACT_CONDITIONS)
            .arg("on", on)
            .clauses("listed", listed),
    }))
}

/// Art. 3 sole §: an unfavourable carta may be resubmitted *reformulated* ([`entity::rules::fco::reformulation`]): one
/// submitted with nothing the opinion judged changed, or with no items where the original listed some, is refused.
/// Both cartas' items are those in effect on the submission's day `on` (as the decision's guard reads them).
async fn unchanged_resubmission(
    db: &impl ConnectionTrait,
    c: &fco_carta::Model,
    original: i64,
    on: NaiveDate,
) -> Result<()> {
    use entity::Versioned;
    use entity::rules::fco::{Reformulation, reformulation};
    let Some(old) = fco_carta::Entity::find_by_id(original).one(db).await? else {
        return Ok(());
    };
    let mut by_carta = crate::facts::items_by_carta(db, &[c.id, old.id]).await?;
    let in_force = |items: Vec<fco_carta_item::Model>| -> Vec<fco_carta_item::Model> {
        items.into_iter().filter(|i| i.known_on(on)).collect()
    };
    let items = in_force(by_carta.remove(&c.id).unwrap_or_default());
    let before = in_force(by_carta.remove(&old.id).unwrap_or_default());
    let explanation = match reformulation(&old, &before, &fco_carta::JudgedCarta::from(c), &items) {
        Reformulation::Changed(_) => return Ok(()),
        Reformulation::NoItems(n) => entity::rules::Explanation::message(code::REFUSE_RESUBMIT_NO_ITEMS)
            .arg("number", &old.number)
            .arg("count", n),
        Reformulation::Unchanged => {
            entity::rules::Explanation::message(code::REFUSE_RESUBMIT_UNCHANGED).arg("number", &old.number)
        }
    };
    Err(ServiceError::rule(entity::rules::code::FCO_RESUBMIT, explanation))
}

/// A carta's transition with its history row, inside `txn` (the caller commits).
async fn transition_carta_in(
    txn: &impl ConnectionTrait,
    act: &Act,
    c: fco_carta::Model,
    event: FcoEvent,
    note: Option<Explanation>,
) -> Result<fco_carta::Model> {
    let params = rule_parameter::Entity::params(txn).await?;
    let cal = non_business_day::Entity::calendar(txn).await?;
    not_in_future(act, event.name(), event.on())?;
    let next = apply_fco(&c, &event, &params, &cal)?;
    let step = Step {
        programme: Programme::FcoRural,
        id: c.id,
        from: Some(c.stage.to_value()),
        to: next.stage.to_value(),
        event: event.name(),
        on: event.on(),
        note,
    };
    save(txn, act, next, step).await
}

/// A new FCO carta, in DRAFT.
#[derive(Debug, Clone)]
pub struct NewCarta {
    /// The bank's number for the carta.
    pub number: String,
    /// The bank it is filed through.
    pub bank_id: i64,
    /// The borrower's CPF or CNPJ, in any punctuation.
    pub borrower_document: String,
    /// The borrower's name, when the document is new.
    pub borrower_name: Option<String>,
    /// Programme line.
    pub line: vocab::FcoLine,
    /// Financed activity.
    pub activity: vocab::FcoActivity,
    /// Financed value.
    pub financed_amount: Decimal,
    /// IBGE code of the property's municipality (Mato Grosso).
    pub municipality_code: i32,
    /// Term in months.
    pub term_months: Option<i32>,
    /// Grace period in months.
    pub grace_months: Option<i32>,
    /// Sires the producer already has, shown in the technical project (art. 6 I c).
    pub existing_sires: Option<i32>,
    /// Whether the swine herd breeds by artificial insemination (art. 8 §5).
    pub artificial_insemination: Option<bool>,
    /// A special demand the chamber analyses whatever its amount (art. 14).
    pub special_demand: bool,
    /// The day the borrower filed the carta with the bank (its history's first row); today when not given.
    pub created_on: Option<NaiveDate>,
}

/// Creates an FCO carta in DRAFT, with its creation row.
pub async fn create_carta(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    input: NewCarta,
) -> Result<fco_carta::Model> {
    let number = required("input.number", &input.number)?;
    crate::access::within(&act.caller, input.bank_id, "input.bankId", || {
        Message::new(code::BANK_UNKNOWN).arg("code", input.bank_id)
    })?;
    // Which banks pass FCO on in Mato Grosso (art. 1: Banco do Brasil, Sicredi, Desenvolve MT "e demais interessados")
    // is data kept per bank (`servesFco`).
    let bank = bank_model(db, "input.bankId", input.bank_id).await?;
    if !bank.serves_fco {
        return Err(ServiceError::bad(
            "input.bankId",
            Message::new(code::BANK_NOT_FCO_CARTA).arg("code", &bank.code),
        ));
    }
    let bank = bank.id;
    let code = municipality_code(db, "input.municipalityCode", input.municipality_code).await?;
    if code / 100_000 != 51 {
        return Err(ServiceError::bad(
            "input.municipalityCode",
            Message::new(code::MUNICIPALITY_OUTSIDE_MT),
        ));
    }
    let amount = positive_money("input.financedAmount", input.financed_amount)?;
    let created_on = act.effective("input.createdOn", input.created_on, None)?;
    let taken = fco_carta::Entity::find()
        .filter(fco_carta::Column::BankId.eq(bank))
        .filter(fco_carta::Column::Number.eq(number.as_str()))
        .one(db)
        .await?;
    if taken.is_some() {
        return Err(ServiceError::bad(
            "input.number",
            Message::new(code::CARTA_NUMBER_TAKEN).arg("number", &number),
        ));
    }
    let txn = crate::txn::write(db).await?;
    let party = party_for(
        &txn,
        "input.borrowerDocument",
        &input.borrower_document,
        input.borrower_name.as_deref(),
    )
    .await?;
    let borrower_name = filed_name(&txn, bank, party, input.borrower_name.as_deref()).await?;
    let draft = Draft {
        bank,
        party,
        number,
        line: input.line,
        activity: input.activity,
        amount,
        municipality_code: code,
        term_months: input.term_months,
        grace_months: input.grace_months,
        resubmission_of: None,
        existing_sires: input.existing_sires,
        artificial_insemination: input.artificial_insemination,
        special_demand: input.special_demand,
        borrower_name,
    };
    let c = draft.model(act).insert(&txn).await?;
    let step = Step::created(
        Programme::FcoRural,
        c.id,
        FcoCartaStage::Draft.to_value(),
        "CREATE",
        created_on,
        None,
    );
    record(&txn, act, step).await?;
    txn.commit().await?;
    Ok(c)
}

/// Records the chamber's opinion or the bank's decision; a favourable one must keep the group under the ceiling
/// (FCO-CEILING), checked before the state machine's own guards. The chamber decides at the meeting whose agenda holds
/// the carta, on that meeting's day, and not on the carta of a bank recorded absent from it (FCO-ATTENDANCE, art. 2
/// §6). A favourable decision over a rule the carta `VIOLATED` on the decision's day ([`fco_guarded_by`]) is refused by
/// that rule unless `override_reason` says why the authority decides so; the override is kept in the history. A bank
/// records its own decision only, on its own cartas (below the threshold: the state machine's FCO-CHAMBER-THRESHOLD).
pub async fn decide_carta(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    decision: vocab::Decision,
    by_chamber: bool,
    on: Option<NaiveDate>,
    override_reason: Option<String>,
) -> Result<fco_carta::Model> {
    crate::access::decides_carta(&act.caller, by_chamber)?;
    let c = own_carta(db, &act.caller, "id", id).await?;
    let on = act.day(on);
    if by_chamber && c.stage == FcoCartaStage::Submitted {
        chamber_may_decide(db, &c, on).await?;
    }
    if decision == vocab::Decision::Favourable {
        check_ceiling(db, &c, c.financed_amount, c.submitted_on.unwrap_or(on), on).await?;
    }
    let event = FcoEvent::Decide {
        on,
        decision,
        by_chamber,
    };
    let note = if decision == vocab::Decision::Favourable && c.stage == FcoCartaStage::Submitted {
        overridden_carta_rules(db, &c, on, override_reason).await?
    } else {
        None
    };
    let txn = crate::txn::write(db).await?;
    let saved = transition_carta_in(&txn, act, c, event, note).await?;
    txn.commit().await?;
    Ok(saved)
}

/// The chamber's opinion on a carta on a meeting's agenda: given at that meeting, so dated its day (in Cuiabá, the
/// CDAE's clock), and not given at all on the carta of a bank recorded absent (art. 2 §6: "não terá suas propostas
/// consideradas"). A carta on no agenda is not judged here (its meeting is not recorded).
async fn chamber_may_decide(
    db: &(impl ConnectionTrait + TransactionTrait),
    c: &fco_carta::Model,
    on: NaiveDate,
) -> Result<()> {
    let Some(meeting_id) = c.chamber_meeting_id else {
        return Ok(());
    };
    let m = crate::meetings::meeting(db, "id", meeting_id).await?;
    let day = entity::domain::Authority::Cdae.local(m.starts_at).date_naive();
    let absent = crate::meetings::attendance(db, meeting_id)
        .await?
        .iter()
        .any(|a| a.bank_id == c.bank_id && !a.present);
    if absent {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_ATTENDANCE,
            entity::rules::Explanation::message(code::REFUSE_BANK_ABSENT).arg("day", day),
        ));
    }
    if on != day {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_CHAMBER_THRESHOLD,
            entity::rules::Explanation::message(code::REFUSE_DECISION_AT_MEETING)
                .arg("day", day)
                .arg("on", on),
        ));
    }
    Ok(())
}

/// The rules a favourable decision on a carta may not pass over unless the authority says why: the carta's own
/// criteria (arts. 2 §7, 3 sole §, 6–11, 16–17). The ceiling (art. 4), the threshold (art. 2 §3) and the attendance
/// (art. 2 §6) leave no discretion and are refused outright elsewhere.
pub fn fco_guarded_by() -> &'static [entity::rules::RuleCode] {
    use entity::rules::code as r;
    &[
        r::FCO_72H_BEFORE,
        r::FCO_RESUBMIT,
        r::FCO_SIRE_PEDIGREE,
        r::FCO_SIRE_RATIO,
        r::FCO_WEANED_2000,
        r::FCO_IA_INFO,
        r::FCO_PROFESSIONAL,
        r::FCO_SWINE_ORIGIN,
        r::FCO_SWINE_RETENTION,
        r::FCO_SWINE_ELIGIBLE,
        r::FCO_BOAR_RATIO,
        r::FCO_PANTANAL,
        r::FCO_PANTANAL_PLAIN,
        r::FCO_USED_MACHINE,
        r::FCO_PASTURE_SOIL,
        r::FCO_OPERATING_ONLY,
        r::FCO_CLASSIFY,
        r::FCO_PREDOMINANCE,
    ]
}

/// The history note of a favourable decision over guarded rules the carta `VIOLATED` on `on` (judged on the act's own
/// day, the carta as it stood before it), or the refusal by the first of them when no `override_reason` is given.
async fn overridden_carta_rules(
    db: &(impl ConnectionTrait + TransactionTrait),
    c: &fco_carta::Model,
    on: NaiveDate,
    override_reason: Option<String>,
) -> Result<Option<Explanation>> {
    let override_reason = override_reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
    let params = rule_parameter::Entity::params(db).await?;
    let calendar = non_business_day::Entity::calendar(db).await?;
    let basis = crate::compliance::Basis {
        params: &params,
        calendar: &calendar,
        texts: entity::rules::Texts::Written,
    };
    let (outcomes, _) = crate::compliance::judge_carta(&crate::compliance::DbFacts(db), basis, c, on).await?;
    let guarded = fco_guarded_by();
    let violated: Vec<&entity::rules::Outcome> = outcomes
        .iter()
        .filter(|o| o.status == entity::rules::Status::Violated && guarded.iter().any(|g| *g == o.code))
        .collect();
    let Some(first) = violated.first() else {
        return Ok(None);
    };
    match override_reason {
        None => Err(ServiceError::rule(
            entity::rules::rule(first.code).map_or(entity::rules::code::FCO_CHAMBER_THRESHOLD, |r| r.code),
            entity::rules::Explanation::message("explain-override-carta")
                .clauses("rules", violated.iter().map(|o| quoted(o))),
        )),
        Some(why) => Ok(Some(override_note(&violated, why))),
    }
}

/// Resubmits an unfavourable carta once reformulated (FCO-RESUBMIT): a new DRAFT carta that points to it.
pub async fn resubmit_carta(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    number: &str,
    financed_amount: Option<Decimal>,
) -> Result<fco_carta::Model> {
    let old = own_carta(db, &act.caller, "id", id).await?;
    if old.stage != FcoCartaStage::Unfavourable {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_RESUBMIT,
            entity::rules::lifecycle::in_stage(code::REFUSE_RESUBMIT_STAGE, old.stage),
        ));
    }
    if let Some(again) = fco_carta::Entity::find()
        .filter(fco_carta::Column::ResubmissionOf.eq(old.id))
        .one(db)
        .await?
    {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_RESUBMIT,
            entity::rules::Explanation::message(code::REFUSE_RESUBMIT_AGAIN)
                .arg("number", &old.number)
                .arg("again", &again.number),
        ));
    }
    let number = required("input.number", number)?;
    let amount = financed_amount
        .map(|a| money("financedAmount", a))
        .transpose()?
        .unwrap_or(old.financed_amount);
    let txn = crate::txn::write(db).await?;
    let draft = Draft {
        bank: old.bank_id,
        party: old.party_id,
        number,
        line: old.line,
        activity: old.activity,
        amount,
        municipality_code: old.municipality_code,
        term_months: old.term_months,
        grace_months: old.grace_months,
        resubmission_of: Some(old.id),
        existing_sires: old.existing_sires,
        artificial_insemination: old.artificial_insemination,
        special_demand: old.special_demand,
        borrower_name: old.borrower_name.clone(),
    };
    let c = draft.model(act).insert(&txn).await?;
    let note = Some(Explanation::message("history-resubmits").arg("number", &old.number));
    let step = Step::created(
        Programme::FcoRural,
        c.id,
        FcoCartaStage::Draft.to_value(),
        "RESUBMIT",
        act.day(None),
        note,
    );
    record(&txn, act, step).await?;
    txn.commit().await?;
    Ok(c)
}

/// Amends an approved or contracted carta (FCO-AMENDMENT): an exempt change applies directly; any other reopens the
/// approval: the carta's approval cycle is kept as it stands (`fco_carta_cycle`, closed on the amendment's day) and
/// the carta goes on in a new one, SUBMITTED that day at the new amount. The amendment, the closed cycle, the carta's
/// change and its history row commit together, or not at all. A change of municipality states whether the properties
/// of the municipality the financing moves to are listed in the carta (`properties_listed`, art. 15 d).
#[allow(clippy::too_many_arguments)]
pub async fn amend_carta(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    kind: vocab::AmendmentKind,
    description: String,
    new_amount: Option<Decimal>,
    on: Option<NaiveDate>,
    properties_listed: Option<bool>,
) -> Result<fco_carta::Model> {
    let c = own_carta(db, &act.caller, "id", id).await?;
    if !matches!(c.stage, FcoCartaStage::Approved | FcoCartaStage::Contracted) {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_AMENDMENT,
            entity::rules::lifecycle::in_stage(code::REFUSE_AMEND_STAGE, c.stage),
        ));
    }
    let on = act.day(on);
    not_in_future(act, "AMEND", on)?;
    if let Some(approved) = c.approved_on
        && on < approved
    {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_AMENDMENT,
            entity::rules::Explanation::message(code::REFUSE_AMEND_BEFORE)
                .arg("on", on)
                .arg("act", "approval")
                .arg("day", approved),
        ));
    }
    // A reopening closes the approval cycle on its day: every act of that cycle comes before it.
    for (act, day) in [("presentation", c.presented_on), ("contract", c.contracted_on)] {
        if let Some(day) = day.filter(|d| on < *d) {
            return Err(ServiceError::rule(
                entity::rules::code::FCO_AMENDMENT,
                entity::rules::Explanation::message(code::REFUSE_AMEND_BEFORE)
                    .arg("on", on)
                    .arg("act", act)
                    .arg("day", day),
            ));
        }
    }
    let new = new_amount.map(|a| positive_money("input.newAmount", a)).transpose()?;
    if new.is_none()
        && matches!(
            kind,
            vocab::AmendmentKind::ValueIncrease | vocab::AmendmentKind::ValueReduction
        )
    {
        return Err(ServiceError::bad(
            "input.newAmount",
            Message::new(code::AMENDMENT_AMOUNT_MISSING),
        ));
    }
    if properties_listed.is_some() && kind != vocab::AmendmentKind::MunicipalityChange {
        return Err(ServiceError::bad(
            "input.propertiesListed",
            Message::new(code::AMENDMENT_PROPERTIES_NOT_MUNICIPALITY),
        ));
    }
    let params = rule_parameter::Entity::params(db).await?;
    let exposure_after = match new {
        Some(n) => Some(group_exposure(db, &c, on).await?.checked_add(n).unwrap_or(n)),
        None => None,
    };
    // Increases are measured against the amount last approved: the amendments since then add up.
    let mut earlier = crate::facts::amendments_by_carta(db, &[c.id])
        .await?
        .remove(&c.id)
        .unwrap_or_default();
    earlier.sort_by_key(|a| (a.requested_on, a.id));
    let approved = entity::rules::fco::approved_base(&earlier, c.financed_amount);
    let (needs, why) = amendment_judged(
        kind,
        properties_listed,
        approved,
        Some(c.financed_amount),
        new,
        exposure_after,
        &params,
        on,
        entity::rules::Texts::Written,
    )?;
    let txn = crate::txn::write(db).await?;
    let amendment = fco_carta_amendment::ActiveModel {
        carta_id: Set(c.id),
        kind: Set(kind),
        requested_on: Set(on),
        old_amount: Set(Some(c.financed_amount)),
        new_amount: Set(new),
        description: Set(description),
        requires_new_approval: Set(needs),
        properties_listed: Set(properties_listed),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    // Stored as the message and its values (the judgement a clause), rendered when read.
    let note = Some(Explanation::message("history-amended").nested("why", why));
    let saved = if needs {
        // The cycle the amendment closes is kept as it stands; the carta goes on in a new one.
        let closed = fco_carta_cycle::Entity::find()
            .filter(fco_carta_cycle::Column::CartaId.eq(c.id))
            .count(&txn)
            .await?;
        let number = i32::try_from(closed + 1).unwrap_or(i32::MAX);
        fco_carta_cycle::Model::closing(&c, number, on, amendment.id)
            .insert(&txn)
            .await?;
        transition_carta_in(&txn, act, c, FcoEvent::Reopen { on, amount: new }, note).await?
    } else {
        let stage = c.stage.to_value();
        let mut active = c.clone().into_active_model();
        if let Some(n) = new {
            active.financed_amount = Set(n);
        }
        let saved = active.update(&txn).await?;
        let step = Step {
            programme: Programme::FcoRural,
            id: c.id,
            from: Some(stage.clone()),
            to: stage,
            event: "AMEND",
            on,
            note,
        };
        record(&txn, act, step).await?;
        saved
    };
    txn.commit().await?;
    Ok(saved)
}

/// The borrower's name a new carta of bank `bank` keeps as filed: the name the bank sent, else the one it sent on its
/// latest carta for the same party (a bank reads a person under its own names: [`crate::visible`]).
async fn filed_name(db: &impl ConnectionTrait, bank: i64, party: i64, sent: Option<&str>) -> Result<Option<String>> {
    if let Some(sent) = sent.map(str::trim).filter(|n| !n.is_empty()) {
        return Ok(Some(sent.to_owned()));
    }
    let earlier: Option<Option<String>> = fco_carta::Entity::find()
        .select_only()
        .column(fco_carta::Column::BorrowerName)
        .filter(fco_carta::Column::BankId.eq(bank))
        .filter(fco_carta::Column::PartyId.eq(party))
        .filter(fco_carta::Column::BorrowerName.is_not_null())
        .order_by_desc(fco_carta::Column::Id)
        .into_tuple()
        .one(db)
        .await?;
    Ok(earlier.flatten())
}

/// The fields of a new DRAFT carta.
struct Draft {
    bank: i64,
    party: i64,
    number: String,
    line: vocab::FcoLine,
    activity: vocab::FcoActivity,
    amount: Money,
    municipality_code: i32,
    term_months: Option<i32>,
    grace_months: Option<i32>,
    resubmission_of: Option<i64>,
    existing_sires: Option<i32>,
    artificial_insemination: Option<bool>,
    special_demand: bool,
    borrower_name: Option<String>,
}

impl Draft {
    fn model(self, act: &Act) -> fco_carta::ActiveModel {
        let stage = FcoCartaStage::Draft;
        fco_carta::ActiveModel {
            number: Set(self.number),
            bank_id: Set(self.bank),
            party_id: Set(self.party),
            line: Set(self.line),
            activity: Set(self.activity),
            financed_amount: Set(self.amount),
            municipality_code: Set(self.municipality_code),
            stage: Set(stage),
            status: Set(stage.status()),
            term_months: Set(self.term_months),
            grace_months: Set(self.grace_months),
            resubmission_of: Set(self.resubmission_of),
            existing_sires: Set(self.existing_sires),
            artificial_insemination: Set(self.artificial_insemination),
            special_demand: Set(self.special_demand),
            borrower_name: Set(self.borrower_name),
            created_at: Set(act.clock.now()),
            ..Default::default()
        }
    }
}

/// Approved and contracted financed value of the carta's borrower group, this carta excluded.
async fn group_exposure(
    db: &(impl ConnectionTrait + TransactionTrait),
    c: &fco_carta::Model,
    day: NaiveDate,
) -> Result<Money> {
    let others = crate::facts::committed_by_group(db, c, day).await?;
    Ok(others
        .iter()
        .fold(Money::ZERO, |acc, o| acc.checked_add(o.financed_amount).unwrap_or(acc)))
}

/// FCO-CEILING before a favourable decision on `day`: the group's cartas committed that day (an approval that
/// lapsed later still counts), against the ceiling in force on `on` (the submission's day).
async fn check_ceiling(
    db: &(impl ConnectionTrait + TransactionTrait),
    c: &fco_carta::Model,
    amount: Money,
    on: NaiveDate,
    day: NaiveDate,
) -> Result<()> {
    let params = rule_parameter::Entity::params(db).await?;
    let others = group_exposure(db, c, day).await?;
    let total = others.checked_add(amount).unwrap_or(amount);
    let judged = entity::rules::fco::ceiling(total, &params, on, entity::rules::Texts::Written)?;
    if judged.status == entity::rules::Status::Violated {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_CEILING,
            entity::rules::Explanation::message("explain-ceiling-group")
                .arg("others", others.to_decimal())
                .nested("why", judged.explanation),
        ));
    }
    Ok(())
}

/// The facts a carta states at its creation, as `updateFcoCarta` corrects them: each one given replaces the stated
/// value, the others stay.
#[derive(Debug, Clone, Default)]
pub struct CartaStatement {
    /// Sires the producer already has (art. 6 I c).
    pub existing_sires: Option<i32>,
    /// Whether the herd breeds by artificial insemination (art. 6 §7, art. 7 §6, art. 8 §5).
    pub artificial_insemination: Option<bool>,
    /// The qualified professional for embryo transfer or fixed-time AI (art. 6 §6–8).
    pub professional_name: Option<String>,
    /// Term in months.
    pub term_months: Option<i32>,
    /// Grace period in months.
    pub grace_months: Option<i32>,
    /// A special demand (art. 14).
    pub special_demand: Option<bool>,
    /// The first day the corrected facts hold; today by default; not after today.
    pub effective_on: Option<NaiveDate>,
    /// Why they are corrected (kept in the history and with the version replaced).
    pub reason: String,
}

/// Corrects the facts a carta states (sires, artificial insemination, professional, term, grace, special demand) as a
/// new dated version: the carta row takes the new values and the first day they hold (`stated_on`); the version
/// replaced is kept in `fco_carta_statement` with the day it held from, so the rules judged `asOf` an earlier day read
/// what was stated for that day ([`fco_carta::Model::known_on`]). A bank corrects its own cartas only.
///
/// The stages where a stated fact can still change (the reading of CDAE/MT 2019): the facts describe the project the
/// chamber or the bank judges and the bank contracts, and art. 6 §7, art. 7 §6 and art. 8 §2 put some of them before
/// the contract ("fica condicionada"), so they are corrected until the contract. A contracted carta changes only by
/// amendment (art. 15, FCO-AMENDMENT); an unfavourable one is reformulated as a new carta (art. 3 sole §,
/// FCO-RESUBMIT); an expired one has no contract left to condition (FCO-VALIDITY-120D). Whether a carta is a special
/// demand decides who analyses it (art. 14, art. 2 §3), so it is corrected only before submission (FCO-SPECIAL-DEMAND).
pub async fn update_carta(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    input: CartaStatement,
) -> Result<fco_carta::Model> {
    use entity::rules::code as rule;
    let c = own_carta(db, &act.caller, "input.cartaId", id).await?;
    let refused = |rule, why: &'static str| {
        Err(ServiceError::rule(
            rule,
            entity::rules::lifecycle::in_stage(code::REFUSE_STATEMENT, c.stage).arg("why", why),
        ))
    };
    match c.stage {
        FcoCartaStage::Contracted => {
            return refused(rule::FCO_AMENDMENT, "contracted");
        }
        FcoCartaStage::Unfavourable => {
            return refused(rule::FCO_RESUBMIT, "unfavourable");
        }
        FcoCartaStage::Expired => {
            return refused(rule::FCO_VALIDITY_120D, "expired");
        }
        FcoCartaStage::Draft | FcoCartaStage::Submitted | FcoCartaStage::Approved => {}
    }
    if input.special_demand.is_some_and(|s| s != c.special_demand) && c.stage != FcoCartaStage::Draft {
        return refused(rule::FCO_SPECIAL_DEMAND, "special-demand");
    }
    if let Some(n) = input.existing_sires.filter(|n| *n < 0) {
        return Err(ServiceError::bad(
            "input.existingSires",
            Message::new(code::COUNT_NEGATIVE).arg("value", n),
        ));
    }
    for (field, months) in [
        ("input.termMonths", input.term_months),
        ("input.graceMonths", input.grace_months),
    ] {
        if months.is_some_and(|m| !(0..=600).contains(&m)) {
            return Err(ServiceError::bad(field, Message::new(code::MONTHS_RANGE)));
        }
    }
    let professional = match input.professional_name.as_deref() {
        Some(name) => Some(required("input.professionalName", name)?),
        None => None,
    };
    let reason = required("input.reason", &input.reason)?;
    let day = act.effective("input.effectiveOn", input.effective_on, None)?;
    let mut next = c.clone();
    next.existing_sires = input.existing_sires.or(c.existing_sires);
    next.artificial_insemination = input.artificial_insemination.or(c.artificial_insemination);
    next.professional_name = professional.or_else(|| c.professional_name.clone());
    next.term_months = input.term_months.or(c.term_months);
    next.grace_months = input.grace_months.or(c.grace_months);
    next.special_demand = input.special_demand.unwrap_or(c.special_demand);
    // A value as the note shows it: a yes or no and "not stated" in the reader's language, a person's text as written.
    let shown = |v: Option<String>| match v.as_deref() {
        None => Explanation::message("history-value-unstated"),
        Some("true") => Explanation::message("history-value-yes"),
        Some("false") => Explanation::message("history-value-no"),
        Some(v) => Explanation::message("history-value-plain").arg("value", v),
    };
    let changes: Vec<Explanation> = [
        (
            "existingSires",
            c.existing_sires.map(|v| v.to_string()),
            next.existing_sires.map(|v| v.to_string()),
        ),
        (
            "artificialInsemination",
            c.artificial_insemination.map(|v| v.to_string()),
            next.artificial_insemination.map(|v| v.to_string()),
        ),
        (
            "professionalName",
            c.professional_name.clone(),
            next.professional_name.clone(),
        ),
        (
            "termMonths",
            c.term_months.map(|v| v.to_string()),
            next.term_months.map(|v| v.to_string()),
        ),
        (
            "graceMonths",
            c.grace_months.map(|v| v.to_string()),
            next.grace_months.map(|v| v.to_string()),
        ),
        (
            "specialDemand",
            Some(c.special_demand.to_string()),
            Some(next.special_demand.to_string()),
        ),
    ]
    .into_iter()
    .filter(|(_, old, new)| old != new)
    .map(|(name, old, new)| {
        Explanation::message("history-change")
            .arg("field", name)
            .nested("old", shown(old))
            .nested("new", shown(new))
    })
    .collect();
    if changes.is_empty() {
        return Err(ServiceError::bad("input", Message::new(code::NOTHING_TO_UPDATE)));
    }
    let note = Explanation::message("history-statement")
        .arg("day", day)
        .list("changes", changes)
        .arg("reason", &reason);
    let txn = crate::txn::write(db).await?;
    entity::fco_carta_statement::Model::replacing(&c, &act.caller.actor(), &reason)
        .insert(&txn)
        .await?;
    let mut a = c.clone().into_active_model();
    a.existing_sires = Set(next.existing_sires);
    a.artificial_insemination = Set(next.artificial_insemination);
    a.professional_name = Set(next.professional_name);
    a.term_months = Set(next.term_months);
    a.grace_months = Set(next.grace_months);
    a.special_demand = Set(next.special_demand);
    a.stated_on = Set(Some(day));
    let saved = a.update(&txn).await?;
    note_in_history(
        &txn,
        act,
        Programme::FcoRural,
        c.id,
        c.stage.to_value(),
        "STATEMENT",
        day,
        Some(note),
    )
    .await?;
    txn.commit().await?;
    Ok(saved)
}

/// What [`expire_lapsed_approvals`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expired {
    /// Approved cartas looked at.
    pub looked_at: usize,
    /// The cartas expired now, by id.
    pub expired: Vec<i64>,
}

/// FCO-VALIDITY-120D (art. 3 sole §): every CDAE approval whose 120 days ([`entity::rules::fco::validity_end`]) ended
/// before `as_of` with no presentation of the project to the bank recorded becomes EXPIRED, with a history row dated
/// the first day after the 120 days (the day it lapsed, whenever this runs), so FCO-CEILING counts only what is still
/// committed. A carta the bank approved below the threshold (art. 2 §3) lapses the same way, its 120 days counted from
/// the bank's approval ([`entity::rules::fco::bank_approval`], the reading made); a second pass finds nothing to do.
pub async fn expire_lapsed_approvals(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    as_of: NaiveDate,
) -> Result<Expired> {
    let params = rule_parameter::Entity::params(db).await?;
    let cal = non_business_day::Entity::calendar(db).await?;
    let approved = fco_carta::Entity::find()
        .filter(fco_carta::Column::Stage.eq(FcoCartaStage::Approved))
        .filter(fco_carta::Column::PresentedOn.is_null())
        .filter(fco_carta::Column::ApprovedOn.is_not_null())
        .order_by_asc(fco_carta::Column::Id)
        .all(db)
        .await?;
    let mut out = Expired {
        looked_at: approved.len(),
        expired: Vec::new(),
    };
    for c in approved {
        let Some(on) = c.approved_on else { continue };
        let due = entity::rules::fco::validity_end(on, &params, &cal)?;
        let Some(lapsed) = due.due.succ_opt().filter(|d| *d <= as_of) else {
            continue;
        };
        let id = c.id;
        // Stored as the message and its values (the counting note and the bank's approval clauses), rendered when read.
        let mut note = Explanation::message("history-expired")
            .arg("due", due.due)
            .nested("count", due.note);
        if let Some(by_bank) = entity::rules::fco::bank_approval(
            &fco_carta::JudgedCarta::from(&c),
            &params,
            entity::rules::Texts::Written,
        )? {
            note.push(by_bank);
        }
        let note = Some(note);
        let txn = crate::txn::write(db).await?;
        // Another process may have moved it since it was read: the state machine judges the carta as it stands.
        let Some(current) = fco_carta::Entity::find_by_id(id).one(&txn).await? else {
            continue;
        };
        if current.stage != FcoCartaStage::Approved || current.presented_on.is_some() {
            continue;
        }
        transition_carta_in(&txn, act, current, FcoEvent::Expire { on: lapsed }, note).await?;
        txn.commit().await?;
        out.expired.push(id);
    }
    Ok(out)
}

/// The history note of an act taken over violated rules: their codes and the person's reason, as written.
fn override_note(violated: &[&entity::rules::Outcome], why: String) -> Explanation {
    Explanation::message("history-override")
        .arg("codes", violated.iter().map(|o| o.code).collect::<Vec<_>>().join(", "))
        .nested("why", Explanation::from(why))
}

/// A rule outcome quoted in a refusal: its code and its explanation (rendered in the reader's language).
fn quoted(o: &entity::rules::Outcome) -> entity::rules::Explanation {
    entity::rules::Explanation::message("explain-rule-quoted")
        .arg("code", o.code)
        .nested("why", o.explanation.clone())
}
