//! The CPACR chamber's meetings (CDAE/MT 2019, arts. 2–3): when a meeting starts, which banks attended, which cartas
//! reached SEDEC for it and when, and when the result went to the banks. FCO-ATTENDANCE, FCO-72H-BEFORE and
//! FCO-72H-RESULT read them.

use crate::{
    ServiceError,
    lifecycle::{Act, find_carta},
    messages::{Message, code},
};
use chrono::{DateTime, Utc};
use entity::{
    bank, chamber_attendance, chamber_meeting, chamber_meeting_result_bank, fco_carta, fco_carta_cycle, rule_parameter,
    rules::fco::needs_chamber,
    vocab::{FcoCartaStage, Programme},
};
use sea_orm::{
    ActiveEnum, ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel,
    QueryFilter, QueryOrder, TransactionSession, TransactionTrait,
};
use std::collections::HashMap;

pub use crate::meetings::{attendance, meeting};

type Result<T> = std::result::Result<T, ServiceError>;

/// Schedules a meeting.
pub async fn schedule(
    db: &(impl ConnectionTrait + TransactionTrait),
    starts_at: DateTime<Utc>,
    notes: Option<String>,
) -> Result<chamber_meeting::Model> {
    Ok(chamber_meeting::ActiveModel {
        starts_at: Set(starts_at),
        results_sent_at: Set(None),
        notes: Set(notes.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty())),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// Records which banks were present and which absent (a bank named again replaces its earlier record).
pub async fn record_attendance(
    db: &(impl ConnectionTrait + TransactionTrait),
    meeting_id: i64,
    present: &[i64],
    absent: &[i64],
) -> Result<chamber_meeting::Model> {
    let m = meeting(db, "input.meetingId", meeting_id).await?;
    if let Some(both) = present.iter().find(|b| absent.contains(b)) {
        return Err(ServiceError::bad(
            "input.absentBankIds",
            Message::new(code::ATTENDANCE_BOTH).arg("bank", both),
        ));
    }
    let txn = crate::txn::write(db).await?;
    for (&bank_id, is_present) in present
        .iter()
        .map(|b| (b, true))
        .chain(absent.iter().map(|b| (b, false)))
    {
        if bank::Entity::find_by_id(bank_id).one(&txn).await?.is_none() {
            let field = if is_present {
                "input.presentBankIds"
            } else {
                "input.absentBankIds"
            };
            return Err(ServiceError::bad(field, Message::new(code::BANK_ID_UNKNOWN)));
        }
        chamber_attendance::Entity::delete_many()
            .filter(chamber_attendance::Column::MeetingId.eq(m.id))
            .filter(chamber_attendance::Column::BankId.eq(bank_id))
            .exec(&txn)
            .await?;
        chamber_attendance::ActiveModel {
            meeting_id: Set(m.id),
            bank_id: Set(bank_id),
            present: Set(is_present),
        }
        .insert(&txn)
        .await?;
    }
    txn.commit().await?;
    Ok(m)
}

/// The cartas on a meeting's agenda, in the order they reached SEDEC, each once: those the meeting considers in their
/// open approval cycle and those it considered in a cycle an amendment later closed (listed as they now stand).
pub async fn agenda(db: &(impl ConnectionTrait + TransactionTrait), meeting_id: i64) -> Result<Vec<fco_carta::Model>> {
    let open = fco_carta::Entity::find()
        .filter(fco_carta::Column::ChamberMeetingId.eq(meeting_id))
        .all(db)
        .await?;
    let closed = fco_carta_cycle::Entity::find()
        .filter(fco_carta_cycle::Column::ChamberMeetingId.eq(meeting_id))
        .all(db)
        .await?;
    let earlier: Vec<i64> = closed
        .iter()
        .map(|y| y.carta_id)
        .filter(|id| !open.iter().any(|c| c.id == *id))
        .collect();
    let mut received: HashMap<i64, Option<DateTime<Utc>>> =
        closed.iter().map(|y| (y.carta_id, y.received_by_council_at)).collect();
    received.extend(open.iter().map(|c| (c.id, c.received_by_council_at)));
    let mut cartas = open;
    cartas.extend(crate::facts::cartas(db, &earlier).await?.into_values());
    // A carta goes on an agenda with the time it reached SEDEC (`place_on_agenda`).
    cartas.sort_by_key(|c| (received.get(&c.id).copied().flatten(), c.id));
    Ok(cartas)
}

/// Puts a submitted carta that needs the chamber (FCO-CHAMBER-THRESHOLD, or a special demand of art. 14 whatever its
/// amount) on a meeting's agenda, with the time it reached SEDEC (72 hours before the meeting, art. 2 §7), and writes
/// it in the carta's history.
pub async fn place_on_agenda(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    carta_id: i64,
    meeting_id: i64,
    received_at: DateTime<Utc>,
) -> Result<fco_carta::Model> {
    let c = find_carta(db, "input.cartaId", carta_id).await?;
    let m = meeting(db, "input.meetingId", meeting_id).await?;
    if c.stage != FcoCartaStage::Submitted {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_72H_BEFORE,
            entity::rules::lifecycle::in_stage(code::REFUSE_AGENDA_STAGE, c.stage),
        ));
    }
    let params = rule_parameter::Entity::params(db).await?;
    let on = c.submitted_on.unwrap_or_else(|| act.day(None));
    let (chamber, threshold) = needs_chamber(c.financed_amount, &params, on)?;
    // Art. 14: a special demand goes to the CPACR whatever its amount, so it takes a place on the agenda too.
    if !chamber && !c.special_demand {
        return Err(ServiceError::rule(
            entity::rules::code::FCO_CHAMBER_THRESHOLD,
            entity::rules::Explanation::message(code::REFUSE_AGENDA_BELOW_THRESHOLD)
                .arg("amount", c.financed_amount.to_decimal())
                .arg("threshold", threshold),
        ));
    }
    let stage = c.stage.to_value();
    let mut a = c.clone().into_active_model();
    a.chamber_meeting_id = Set(Some(m.id));
    a.received_by_council_at = Set(Some(received_at));
    let txn = crate::txn::write(db).await?;
    let saved = a.update(&txn).await?;
    // The meeting's day, time and zone on the chamber's clock, written by the reader's language.
    let starts = entity::domain::Authority::Cdae.local(m.starts_at);
    let note = entity::rules::Explanation::message("history-agenda")
        .arg("day", starts.date_naive())
        .arg("time", starts.format("%H:%M"))
        .arg("zone", starts.format("%:z"));
    let on = entity::domain::brasilia_date(received_at);
    crate::lifecycle::note_in_history(&txn, act, Programme::FcoRural, c.id, stage, "AGENDA", on, Some(note)).await?;
    txn.commit().await?;
    Ok(saved)
}

/// Records the CPACR's opinion on a meeting's cartas: when it was given (at the meeting, not before it starts) and
/// the reference of the opinion or of the minutes. Art. 3's 72 hours count from it (FCO-72H-RESULT); recorded again,
/// it is corrected.
pub async fn record_opinion(
    db: &(impl ConnectionTrait + TransactionTrait),
    meeting_id: i64,
    given_at: DateTime<Utc>,
    reference: &str,
) -> Result<chamber_meeting::Model> {
    let m = meeting(db, "input.meetingId", meeting_id).await?;
    let reference = reference.trim();
    if reference.is_empty() {
        return Err(ServiceError::bad("input.reference", Message::new(code::FIELD_EMPTY)));
    }
    if given_at < m.starts_at {
        return Err(ServiceError::bad(
            "input.givenAt",
            Message::new(code::OPINION_BEFORE_MEETING),
        ));
    }
    let mut a = m.into_active_model();
    a.opinion_at = Set(Some(given_at));
    a.opinion_reference = Set(Some(reference.to_owned()));
    Ok(a.update(db).await?)
}

/// Records when the meeting's result went to the banks (art. 3), not before the meeting nor before the opinion
/// recorded, and which banks received it (`bank_ids`, added to those recorded before).
pub async fn record_results_sent(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    meeting_id: i64,
    sent_at: DateTime<Utc>,
    bank_ids: &[i64],
) -> Result<chamber_meeting::Model> {
    let m = meeting(db, "input.meetingId", meeting_id).await?;
    if sent_at < m.starts_at {
        return Err(ServiceError::bad(
            "input.sentAt",
            Message::new(code::RESULT_BEFORE_MEETING),
        ));
    }
    if let Some(opinion) = m.opinion_at.filter(|o| sent_at < *o) {
        return Err(ServiceError::bad(
            "input.sentAt",
            Message::new(code::RESULT_BEFORE_OPINION).arg("opinion", entity::domain::Authority::Cdae.show(opinion)),
        ));
    }
    let txn = crate::txn::write(db).await?;
    let known: Vec<i64> = results_sent_to(&txn, m.id).await?.iter().map(|r| r.bank_id).collect();
    for &bank_id in bank_ids {
        if bank::Entity::find_by_id(bank_id).one(&txn).await?.is_none() {
            return Err(ServiceError::bad("input.bankIds", Message::new(code::BANK_ID_UNKNOWN)));
        }
        if known.contains(&bank_id) {
            continue;
        }
        chamber_meeting_result_bank::ActiveModel {
            meeting_id: Set(m.id),
            bank_id: Set(bank_id),
            recorded_at: Set(act.clock.now()),
            recorded_by: Set(act.caller.actor()),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
    }
    let mut a = m.into_active_model();
    a.results_sent_at = Set(Some(sent_at));
    let saved = a.update(&txn).await?;
    txn.commit().await?;
    Ok(saved)
}

/// The banks recorded as having received a meeting's result report, by bank.
pub async fn results_sent_to(
    db: &impl ConnectionTrait,
    meeting_id: i64,
) -> Result<Vec<chamber_meeting_result_bank::Model>> {
    Ok(chamber_meeting_result_bank::Entity::find()
        .filter(chamber_meeting_result_bank::Column::MeetingId.eq(meeting_id))
        .order_by_asc(chamber_meeting_result_bank::Column::BankId)
        .all(db)
        .await?)
}
