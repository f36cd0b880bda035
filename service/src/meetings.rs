//! A chamber meeting and its attendance, read for the chamber's commands (`crate::chamber`) and for the decisions the
//! lifecycle records on a meeting's cartas.

use crate::{
    ServiceError,
    messages::{Message, code},
};
use entity::{chamber_attendance, chamber_meeting};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, TransactionTrait};

type Result<T> = std::result::Result<T, ServiceError>;

/// A meeting by id.
pub async fn meeting(db: &impl ConnectionTrait, field: &'static str, id: i64) -> Result<chamber_meeting::Model> {
    chamber_meeting::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found(field, Message::new(code::MEETING_UNKNOWN).arg("id", id)))
}

/// The attendance recorded for a meeting, by bank.
pub async fn attendance(
    db: &(impl ConnectionTrait + TransactionTrait),
    meeting_id: i64,
) -> Result<Vec<chamber_attendance::Model>> {
    Ok(chamber_attendance::Entity::find()
        .filter(chamber_attendance::Column::MeetingId.eq(meeting_id))
        .order_by_asc(chamber_attendance::Column::BankId)
        .all(db)
        .await?)
}
