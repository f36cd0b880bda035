//! Webhooks: receivers the operator registers (`fomento webhooks add URL --secret S`), narrowed to a programme, a bank
//! and a list of events, and their deliveries. A delivery is queued, in the same way for every door, when a flag is
//! raised or resolved ([`crate::flags::write::announce`]) and when a bank's report ends `INGESTED`, `REJECTED` or `FAILED`
//! ([`enqueue_report`]); the `deliver-webhooks` job sends it, signed with HMAC-SHA256 of its body under the receiver's
//! secret (header `X-Fomento-Signature: sha256=<hex>`).

use crate::{
    Caller, ServiceError,
    flags::event::{FlagChange, FlagEvent},
    messages::{Lang, Message, code},
    page::{self, Keyset, Page},
};
use chrono::{DateTime, Utc};
use entity::{bank, bank_report, compliance_flag, fco_carta, social_fuel_project, webhook, webhook_delivery};
use hmac::{KeyInit, Mac};
use sea_orm::{
    ActiveEnum, ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter,
    QueryOrder,
};
use serde_json::json;
use std::collections::HashMap;

type Result<T> = std::result::Result<T, ServiceError>;

/// Every event a webhook can hear of.
pub const EVENTS: &[&str] = &[
    "flag.raised",
    "flag.resolved",
    "report.ingested",
    "report.rejected",
    "report.failed",
];

/// The header carrying a delivery's signature.
pub const SIGNATURE_HEADER: &str = "X-Fomento-Signature";

/// `sha256=<hex>`: HMAC-SHA256 of `body` under `secret`.
pub fn signature(secret: &str, body: &[u8]) -> String {
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes())
        .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// A receiver to register.
#[derive(Debug, Clone, Default)]
pub struct NewWebhook {
    /// Where deliveries are POSTed (`http://` or `https://`).
    pub url: String,
    /// The signature's key.
    pub secret: String,
    /// Only this programme's events (`SOCIAL_FUEL`, `FCO_RURAL`).
    pub programme: Option<String>,
    /// Only this bank's events (its code).
    pub bank_code: Option<String>,
    /// Only these events; empty for all.
    pub events: Vec<String>,
    /// The language of the texts it is sent (`pt-BR`, the default, or `en`).
    pub lang: Option<String>,
}

/// Registers a receiver.
pub async fn add(
    db: &impl ConnectionTrait,
    caller: &Caller,
    now: DateTime<Utc>,
    w: NewWebhook,
) -> Result<webhook::Model> {
    let _scope = caller.scope();
    let url = w.url.trim();
    if !(url.starts_with("http://") || url.starts_with("https://")) || url.len() < 10 {
        return Err(ServiceError::bad(
            "url",
            Message::new(code::WEBHOOK_URL).arg("value", url),
        ));
    }
    if w.secret.trim().len() < 16 {
        return Err(ServiceError::bad("secret", Message::new(code::WEBHOOK_SECRET)));
    }
    let programme = match w.programme.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(p @ ("SOCIAL_FUEL" | "FCO_RURAL")) => Some(p.to_owned()),
        Some(other) => {
            return Err(ServiceError::bad(
                "programme",
                Message::new(code::WEBHOOK_PROGRAMME).arg("value", other),
            ));
        }
    };
    let bank_id = match w.bank_code.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => Some(
            bank::Entity::find()
                .filter(bank::Column::Code.eq(c.to_uppercase()))
                .one(db)
                .await?
                .ok_or_else(|| ServiceError::not_found("bank", Message::new(code::BANK_UNKNOWN).arg("code", c)))?
                .id,
        ),
        None => None,
    };
    let mut events = Vec::new();
    for e in w
        .events
        .iter()
        .flat_map(|e| e.split(','))
        .map(str::trim)
        .filter(|e| !e.is_empty())
    {
        if !EVENTS.contains(&e) {
            return Err(ServiceError::bad(
                "events",
                Message::new(code::WEBHOOK_EVENT)
                    .arg("value", e)
                    .arg("events", EVENTS.join(", ")),
            ));
        }
        if !events.contains(&e) {
            events.push(e);
        }
    }
    let lang = match w.lang.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        None => None,
        Some(l) => match Lang::from_tag(l) {
            Some(Lang::En) => Some("en".to_owned()),
            Some(Lang::PtBr) => Some("pt-BR".to_owned()),
            None => {
                return Err(ServiceError::bad(
                    "lang",
                    Message::new(code::WEBHOOK_LANG).arg("value", l),
                ));
            }
        },
    };
    Ok(webhook::ActiveModel {
        url: Set(url.to_owned()),
        lang: Set(lang),
        secret: Set(w.secret.trim().to_owned()),
        programme: Set(programme),
        bank_id: Set(bank_id),
        events: Set(events.join(",")),
        created_at: Set(now),
        removed_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// The receivers, removed ones too, by number.
pub async fn list(db: &impl ConnectionTrait) -> Result<Vec<webhook::Model>> {
    Ok(webhook::Entity::find()
        .order_by_asc(webhook::Column::Id)
        .all(db)
        .await?)
}

/// Removes a receiver: it hears of nothing more; its deliveries stay listed.
pub async fn remove(db: &impl ConnectionTrait, caller: &Caller, now: DateTime<Utc>, id: i64) -> Result<webhook::Model> {
    let _scope = caller.scope();
    let w = webhook::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found("id", Message::new(code::WEBHOOK_UNKNOWN).arg("id", id)))?;
    let mut a: webhook::ActiveModel = w.into();
    a.removed_at = Set(Some(now));
    Ok(a.update(db).await?)
}

/// What an event is about, for matching receivers.
struct Event {
    name: &'static str,
    key: String,
    programme: String,
    bank_id: Option<i64>,
    payload: serde_json::Value,
    /// The payload for a receiver that asked for English, where it carries texts (a flag's message).
    english: Option<serde_json::Value>,
}

fn hears(w: &webhook::Model, e: &Event) -> bool {
    w.removed_at.is_none()
        && w.programme.as_deref().is_none_or(|p| p == e.programme)
        && w.bank_id.is_none_or(|b| e.bank_id == Some(b))
        && (w.events.is_empty() || w.events.split(',').any(|x| x == e.name))
}

/// Queues one delivery per receiver that hears of each event; an event already queued for a receiver is not queued
/// again.
async fn enqueue(
    db: &impl ConnectionTrait,
    events: Vec<Event>,
    now: DateTime<Utc>,
) -> std::result::Result<usize, DbErr> {
    let hooks: Vec<webhook::Model> = webhook::Entity::find()
        .filter(webhook::Column::RemovedAt.is_null())
        .all(db)
        .await?;
    // The work queuing the event is its cause: its trace goes on at the receiver.
    let traceparent = crate::trace::current().map(|t| t.header());
    let rows: Vec<webhook_delivery::ActiveModel> = events
        .iter()
        .flat_map(|e| hooks.iter().filter(|w| hears(w, e)).map(move |w| (w, e)))
        .map(|(w, e)| webhook_delivery::ActiveModel {
            webhook_id: Set(w.id),
            event: Set(e.name.to_owned()),
            event_key: Set(e.key.clone()),
            payload: Set(match (&e.english, w.lang.as_deref()) {
                (Some(english), Some("en")) => english.to_string(),
                _ => e.payload.to_string(),
            }),
            status: Set("RECEIVED".into()),
            attempts: Set(0),
            created_at: Set(now),
            traceparent: Set(traceparent.clone()),
            ..Default::default()
        })
        .collect();
    let n = rows.len();
    for chunk in rows.chunks(500) {
        webhook_delivery::Entity::insert_many(chunk.to_vec())
            .on_conflict_do_nothing_on([webhook_delivery::Column::WebhookId, webhook_delivery::Column::EventKey])
            .exec_without_returning(db)
            .await?;
    }
    Ok(n)
}

/// The JSON of a flag in a delivery, its message in `lang`.
fn flag_json(f: &compliance_flag::Model, lang: Lang) -> serde_json::Value {
    json!({
        "number": f.id,
        "ruleCode": f.rule_code,
        "legalBasis": f.legal_basis,
        "severity": f.severity,
        // A receiver has no role: the CPFs a message may quote are masked for it.
        "message": crate::privacy::scrub_cpfs(&crate::l10n::flag_message(f, lang)),
        "source": f.source,
        "programme": f.programme.to_value(),
        "subjectKind": f.subject_kind,
        "subjectId": f.subject_id,
        "occurrence": Some(&f.occurrence).filter(|o| !o.is_empty()),
        "dueOn": f.due_on,
        "raisedAt": f.raised_at,
        "resolvedAt": f.resolved_at,
        "resolvedBy": f.resolved_by,
        "resolution": crate::l10n::flag_resolution(f, lang).as_deref().map(crate::privacy::scrub_cpfs),
    })
}

/// Queues the deliveries of flags raised and resolved (a change of severity is not an event of its own).
pub async fn enqueue_flags(db: &impl ConnectionTrait, events: &[FlagEvent]) -> std::result::Result<usize, DbErr> {
    let wanted: Vec<&FlagEvent> = events.iter().filter(|e| e.change != FlagChange::Changed).collect();
    if wanted.is_empty()
        || webhook::Entity::find()
            .filter(webhook::Column::RemovedAt.is_null())
            .one(db)
            .await?
            .is_none()
    {
        return Ok(0);
    }
    let now = Utc::now();
    let mut queued = 0;
    for chunk in wanted.chunks(500) {
        let flags: HashMap<i64, compliance_flag::Model> = compliance_flag::Entity::find()
            .filter(compliance_flag::Column::Id.is_in(chunk.iter().map(|e| e.id)))
            .all(db)
            .await?
            .into_iter()
            .map(|f| (f.id, f))
            .collect();
        let ids_of = |programme| {
            flags
                .values()
                .filter(|f| f.programme == programme)
                .filter_map(|f| f.financing_id)
                .collect::<Vec<_>>()
        };
        let mut banks: HashMap<(entity::vocab::Programme, i64), i64> = HashMap::new();
        let cartas = ids_of(entity::vocab::Programme::FcoRural);
        if !cartas.is_empty() {
            for c in fco_carta::Entity::find()
                .filter(fco_carta::Column::Id.is_in(cartas))
                .all(db)
                .await?
            {
                banks.insert((entity::vocab::Programme::FcoRural, c.id), c.bank_id);
            }
        }
        let projects = ids_of(entity::vocab::Programme::SocialFuel);
        if !projects.is_empty() {
            for p in social_fuel_project::Entity::find()
                .filter(social_fuel_project::Column::Id.is_in(projects))
                .all(db)
                .await?
            {
                banks.insert((entity::vocab::Programme::SocialFuel, p.id), p.bank_id);
            }
        }
        let list = chunk
            .iter()
            .filter_map(|e| {
                let f = flags.get(&e.id)?;
                let name = if e.change == FlagChange::Raised {
                    "flag.raised"
                } else {
                    "flag.resolved"
                };
                let bank_id = match f.subject() {
                    Some(compliance_flag::SubjectKind::Bank) => Some(f.subject_id),
                    _ => f.financing_id.and_then(|id| banks.get(&(f.programme, id)).copied()),
                };
                Some(Event {
                    name,
                    key: format!("{name}:{}", f.id),
                    programme: f.programme.to_value(),
                    bank_id,
                    payload: json!({ "event": name, "flag": flag_json(f, Lang::PtBr) }),
                    english: Some(json!({ "event": name, "flag": flag_json(f, Lang::En) })),
                })
            })
            .collect();
        queued += enqueue(db, list, now).await?;
    }
    Ok(queued)
}

/// Queues the delivery of a bank report that ended `INGESTED`, `REJECTED` or `FAILED`.
pub async fn enqueue_report(db: &impl ConnectionTrait, report: i64) -> std::result::Result<usize, DbErr> {
    let Some(r) = bank_report::Entity::find_by_id(report).one(db).await? else {
        return Ok(0);
    };
    let name = match r.status.as_str() {
        "INGESTED" => "report.ingested",
        "REJECTED" => "report.rejected",
        "FAILED" => "report.failed",
        _ => return Ok(0),
    };
    let bank = bank::Entity::find_by_id(r.bank_id).one(db).await?;
    let payload = json!({
        "event": name,
        "report": {
            "number": r.id,
            "bank": bank.map(|b| b.code),
            "referenceMonth": r.reference_month,
            "status": r.status,
            "fileName": r.file_name,
            "rowCount": r.row_count,
            "errorCount": r.error_count,
            "receivedAt": r.received_at,
            "processedAt": r.processed_at,
            "lastError": r.last_error.as_deref().map(crate::privacy::scrub_cpfs),
        }
    });
    let event = Event {
        name,
        key: format!("{name}:{}", r.id),
        programme: entity::vocab::Programme::FcoRural.to_value(),
        bank_id: Some(r.bank_id),
        payload,
        english: None,
    };
    enqueue(db, vec![event], Utc::now()).await
}

/// Which deliveries to list.
#[derive(Debug, Clone, Default)]
pub struct DeliveryFilter {
    /// Only these statuses (`RECEIVED`, `PROCESSING`, `DELIVERED`, `FAILED`).
    pub statuses: Vec<String>,
    /// Only this receiver's.
    pub webhook_id: Option<i64>,
}

/// One page of deliveries, newest first.
pub async fn deliveries(
    db: &impl ConnectionTrait,
    caller: &Caller,
    filter: &DeliveryFilter,
    keyset: Keyset,
) -> Result<Page<webhook_delivery::Model>> {
    let _scope = caller.scope();
    let mut select = webhook_delivery::Entity::find();
    if !filter.statuses.is_empty() {
        select = select.filter(webhook_delivery::Column::Status.is_in(filter.statuses.clone()));
    }
    if let Some(w) = filter.webhook_id {
        select = select.filter(webhook_delivery::Column::WebhookId.eq(w));
    }
    page::fetch(db, select, webhook_delivery::Column::Id, |d| d.id, keyset).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_hmac_sha256_as_rfc_4231_gives_it() {
        // RFC 4231, test case 2: key "Jefe", data "what do ya want for nothing?".
        assert_eq!(
            signature("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
