//! The `deliver-webhooks` job: sends each queued webhook delivery (`service::webhooks`) as a `POST` of its JSON body,
//! signed with HMAC-SHA256 under the receiver's secret. A delivery is claimed with a lease like a report (once across
//! workers); a receiver that is down or answers other than `2xx` gets it again after a backoff (3 minutes, doubling:
//! ten attempts over about 25 hours), after which it ends `FAILED`. Nothing is lost while the receiver comes back
//! within that window.

use crate::runs::JobReport;
use chrono::{DateTime, Duration, Utc};
use entity::{webhook, webhook_delivery};
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, sea_query::Expr};
use service::queue::Claimer;
use std::collections::{HashMap, HashSet};

/// The job's name.
pub const JOB: &str = "deliver-webhooks";

/// Attempts a delivery gets.
pub const ATTEMPTS: u32 = 10;

/// The wait after the first failed attempt; it doubles after each later one.
pub fn backoff() -> Duration {
    Duration::minutes(3)
}

/// Sends every delivery that is due as of `now`.
pub async fn run_once(db: &DatabaseConnection, worker: &str, now: DateTime<Utc>) -> Result<JobReport, DbErr> {
    let claimer = Claimer {
        db,
        worker,
        lease: Duration::minutes(2),
        max_attempts: ATTEMPTS,
        backoff: backoff(),
    };
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(10))
        .build()
        .map_err(|e| DbErr::Custom(format!("HTTP client: {e}")))?;
    let mut hooks: HashMap<i64, Option<webhook::Model>> = HashMap::new();
    let mut seen = HashSet::new();
    let (mut delivered, mut retrying, mut failed) = (0u32, 0u32, 0u32);
    while let Some(d) = claimer.claim::<webhook_delivery::Entity>(now).await? {
        if !seen.insert(d.id) {
            break;
        }
        let hook = match hooks.get(&d.webhook_id) {
            Some(h) => h.clone(),
            None => {
                let h = webhook::Entity::find_by_id(d.webhook_id).one(db).await?;
                hooks.insert(d.webhook_id, h.clone());
                h
            }
        };
        let Some(hook) = hook.filter(|h| h.removed_at.is_none()) else {
            if claimer
                .fail::<webhook_delivery::Entity>(&d, "the webhook was removed", now, false)
                .await?
            {
                failed += 1;
            }
            continue;
        };
        let mut request = client.post(&hook.url);
        // The receiver's trace goes on from the work that caused the event (W3C Trace Context), stored with the
        // delivery; from this run's for a delivery queued without one.
        let cause = d.traceparent.as_deref().and_then(service::trace::TraceContext::parse);
        if let Some(trace) = cause.or_else(service::trace::current) {
            request = request.header(service::trace::TRACEPARENT, trace.header());
        }
        let answer = request
            .header("Content-Type", "application/json")
            .header(
                service::webhooks::SIGNATURE_HEADER,
                service::webhooks::signature(&hook.secret, d.payload.as_bytes()),
            )
            .header("X-Fomento-Event", &d.event)
            .header("X-Fomento-Delivery", d.id.to_string())
            .body(d.payload.clone())
            .send()
            .await;
        let (status, error) = match answer {
            Ok(r) if r.status().is_success() => (Some(i32::from(r.status().as_u16())), None),
            Ok(r) => (
                Some(i32::from(r.status().as_u16())),
                Some(format!("the receiver answered {}", r.status())),
            ),
            Err(e) => (None, Some(format!("the receiver could not be reached: {e}"))),
        };
        match error {
            None => {
                let done = webhook_delivery::Entity::update_many()
                    .col_expr(webhook_delivery::Column::Status, Expr::value("DELIVERED"))
                    .col_expr(webhook_delivery::Column::LastStatus, Expr::value(status))
                    .col_expr(webhook_delivery::Column::ProcessedAt, Expr::value(Utc::now()))
                    .col_expr(
                        webhook_delivery::Column::LeaseUntil,
                        Expr::value(Option::<DateTime<Utc>>::None),
                    )
                    .filter(webhook_delivery::Column::Id.eq(d.id))
                    .filter(webhook_delivery::Column::ClaimedBy.eq(worker))
                    .exec(db)
                    .await?;
                delivered += u32::from(done.rows_affected == 1);
            }
            Some(e) => {
                webhook_delivery::Entity::update_many()
                    .col_expr(webhook_delivery::Column::LastStatus, Expr::value(status))
                    .filter(webhook_delivery::Column::Id.eq(d.id))
                    .exec(db)
                    .await?;
                match claimer.settle::<webhook_delivery::Entity>(&d, &e, true, now).await? {
                    service::queue::Settled::Retrying(_) => retrying += 1,
                    service::queue::Settled::Failed => failed += 1,
                    service::queue::Settled::LostLease => {}
                }
            }
        }
    }
    Ok(JobReport {
        processed: delivered,
        failed,
        message: service::messages::Message::new(service::messages::code::JOB_WEBHOOKS_DONE)
            .arg("delivered", delivered)
            .arg("retrying", retrying)
            .arg("failed", failed),
    })
}
