//! Webhook deliveries in the graph: `webhookDeliveries(filter:, first:, after:, last:, before:)`, so an operator sees
//! what was sent to each receiver, what it answered and what waits for another attempt. Receivers are registered with
//! `fomento webhooks add`.

use super::{db, error::Served, pagination::keyset_connection, scalars::DateTime};
use async_graphql::{Context, Enum, InputObject, Object, Result};
use entity::{domain::Authority, webhook_delivery};

/// Where a delivery stands.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum WebhookDeliveryStatus {
    /// Queued, not yet tried.
    Pending,
    /// Being sent, or refused and waiting for another attempt (`nextAttemptAt`).
    Retrying,
    /// The receiver answered `2xx`.
    Delivered,
    /// Refused on every attempt.
    Failed,
}

impl WebhookDeliveryStatus {
    fn of(s: &str) -> Self {
        match s {
            "RECEIVED" => Self::Pending,
            "PROCESSING" => Self::Retrying,
            "DELIVERED" => Self::Delivered,
            _ => Self::Failed,
        }
    }

    fn stored(self) -> &'static str {
        match self {
            Self::Pending => "RECEIVED",
            Self::Retrying => "PROCESSING",
            Self::Delivered => "DELIVERED",
            Self::Failed => "FAILED",
        }
    }
}

/// One event sent (or to be sent) to one webhook receiver.
#[derive(Clone, Debug)]
pub struct WebhookDelivery(pub webhook_delivery::Model);

/// One event sent (or to be sent) to one webhook receiver.
#[Object]
impl WebhookDelivery {
    /// The delivery's number (header `X-Fomento-Delivery`).
    async fn number(&self) -> i64 {
        self.0.id
    }

    /// The receiver's number (`fomento webhooks list`).
    async fn webhook_number(&self) -> i64 {
        self.0.webhook_id
    }

    /// `flag.raised`, `flag.resolved`, `report.ingested`, `report.rejected` or `report.failed`.
    async fn event(&self) -> &str {
        &self.0.event
    }

    /// The JSON body sent.
    async fn payload(&self) -> &str {
        &self.0.payload
    }

    /// Where it stands.
    async fn status(&self) -> WebhookDeliveryStatus {
        WebhookDeliveryStatus::of(&self.0.status)
    }

    /// Attempts so far (at most 10).
    async fn attempts(&self) -> i32 {
        self.0.attempts
    }

    /// The HTTP status the receiver last answered, if it answered.
    async fn last_status(&self) -> Option<i32> {
        self.0.last_status
    }

    /// Why the last attempt was not accepted.
    async fn last_error(&self) -> Option<&str> {
        self.0.last_error.as_deref()
    }

    /// When the next attempt may start, while it waits for one.
    async fn next_attempt_at(&self) -> Option<DateTime> {
        (self.0.status == "PROCESSING" && self.0.claimed_by.is_none())
            .then_some(self.0.lease_until)
            .flatten()
            .map(|t| DateTime(t, Authority::Cdae))
    }

    /// When it was queued.
    async fn created_at(&self) -> DateTime {
        DateTime(self.0.created_at, Authority::Cdae)
    }

    /// When it was delivered or failed for good.
    async fn processed_at(&self) -> Option<DateTime> {
        self.0.processed_at.map(|t| DateTime(t, Authority::Cdae))
    }
}

keyset_connection!(
    WebhookDeliveryConnection,
    WebhookDeliveryEdge,
    WebhookDelivery,
    "A page of webhook deliveries, newest first.",
    "A webhook delivery with its cursor."
);

/// Which deliveries to list.
#[derive(InputObject, Clone, Debug, Default)]
pub struct WebhookDeliveryFilter {
    /// Only these statuses.
    pub statuses: Option<Vec<WebhookDeliveryStatus>>,
    /// Only this receiver's (its number).
    pub webhook_number: Option<i64>,
}

super::pagination::record_order!(
    WebhookDeliveryOrder,
    WebhookDeliveryOrderField,
    Queued,
    "Sort order of `webhookDeliveries`.",
    "The order the deliveries were queued in."
);

/// Queries about webhooks.
#[derive(Default)]
pub struct WebhooksQuery;

#[Object]
impl WebhooksQuery {
    /// Webhook deliveries, newest first (`orderBy` to turn it).
    #[allow(clippy::too_many_arguments)]
    async fn webhook_deliveries(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which deliveries.")] filter: Option<WebhookDeliveryFilter>,
        #[graphql(desc = "In which order: newest first by default.")] order_by: Option<WebhookDeliveryOrder>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<WebhookDeliveryConnection> {
        let keyset =
            WebhookDeliveryOrder::keyset(order_by, super::pagination::keyset(ctx, first, after, last, before)?);
        let filter = filter.unwrap_or_default();
        let f = service::webhooks::DeliveryFilter {
            statuses: filter
                .statuses
                .iter()
                .flatten()
                .map(|s| s.stored().to_owned())
                .collect(),
            webhook_id: filter.webhook_number,
        };
        let page = service::webhooks::deliveries(db(ctx), &super::caller(ctx), &f, keyset)
            .await
            .served(ctx)?;
        Ok(WebhookDeliveryConnection::from_page(page, WebhookDelivery))
    }
}
