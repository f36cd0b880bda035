//! One event for one webhook receiver: its JSON body, where its delivery stands (`RECEIVED` waiting, `PROCESSING`
//! being sent or waiting for another attempt, `DELIVERED`, `FAILED` after the last attempt), and the last answer.

use sea_orm::entity::prelude::*;

/// A webhook delivery.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook_delivery")]
pub struct Model {
    /// Surrogate key: the delivery's number.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The receiver.
    pub webhook_id: i64,
    /// `flag.raised`, `flag.resolved`, `report.ingested`, `report.rejected` or `report.failed`.
    pub event: String,
    /// What the event is about (`flag.raised:12`): one delivery per receiver and event.
    pub event_key: String,
    /// The JSON body sent.
    pub payload: String,
    /// `RECEIVED`, `PROCESSING`, `DELIVERED` or `FAILED`.
    pub status: String,
    /// Attempts so far.
    pub attempts: i32,
    /// The worker sending it.
    pub claimed_by: Option<String>,
    /// Until when that worker holds it, or when the next attempt may start.
    pub lease_until: Option<DateTimeUtc>,
    /// The last attempt's error.
    pub last_error: Option<String>,
    /// The last HTTP status answered, if any.
    pub last_status: Option<i32>,
    /// When it was queued.
    pub created_at: DateTimeUtc,
    /// When it was delivered or failed for good.
    pub processed_at: Option<DateTimeUtc>,
    /// The W3C `traceparent` of the work that caused the event (the request whose act raised a flag, the job run
    /// that ingested a report): the delivery is sent in that trace. None for deliveries queued before migration 59.
    pub traceparent: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
