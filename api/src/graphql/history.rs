//! A financing's history in the graph (`history` of `SocialFuelProject` and `FcoCarta`): the steps of its lifecycle
//! as `service::lifecycle` recorded them.

use super::{
    db,
    error::Served,
    scalars::{Date, DateTime},
};
use async_graphql::{Context, Result, SimpleObject};
use entity::vocab::Programme;
use service::lifecycle as life;

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
    /// What Fomento noted of the step (a document received, an act over violated rules, an expiry, ...) in the
    /// request's language, with a person's words (a reason, a reference) as written; or a person's note alone. Notes
    /// written before they were stored as messages read as written then (English).
    pub note: Option<String>,
}

/// The history of a financing, oldest first (a carta a bank's list created shows the report that created it first).
pub async fn history(
    ctx: &Context<'_>,
    programme: Programme,
    id: i64,
    known_at: Option<DateTime>,
) -> Result<Vec<Transition>> {
    let mut rows = life::history(db(ctx), programme, id, super::error::lang(ctx))
        .await
        .served(ctx)?;
    if let Some(at) = known_at {
        let at = service::known_at::instant(at.0);
        rows.retain(|r| r.recorded_at <= at);
    }
    let authority = service::compliance::authority(programme);
    Ok(rows
        .into_iter()
        .map(|r| Transition {
            from_stage: r.from_stage,
            to_stage: r.to_stage,
            event: r.event,
            occurred_on: Date(r.occurred_on),
            recorded_at: DateTime(r.recorded_at, authority),
            actor: r.actor,
            note: r.note,
        })
        .collect())
}
