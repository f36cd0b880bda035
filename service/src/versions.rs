//! Facts kept in versions (a carta's items, a project's acquisitions): edited in place until the decision that
//! relies on them; after it, a change is a new version with its author and reason, and the old version stays, marked
//! superseded, so that a rule judged `asOf` an earlier day reads what was known then
//! (`entity::domain::known_on`).

use crate::{
    ServiceError,
    lifecycle::Act,
    messages::{Message, code},
};
use sea_orm::{
    ActiveModelBehavior, ActiveModelTrait, ActiveValue::Set, ConnectionTrait, EntityTrait, IntoActiveModel,
    TransactionSession, TransactionTrait,
};

type Result<T> = std::result::Result<T, ServiceError>;
type ModelOf<A> = <<A as ActiveModelTrait>::Entity as EntityTrait>::Model;

/// An entity whose rows carry the version columns (migration 18's `version_columns`).
pub trait Versioned: ActiveModelTrait + ActiveModelBehavior + Send + Sync + Sized
where
    ModelOf<Self>: IntoActiveModel<Self> + entity::Versioned + Send + Sync,
{
    /// The row's id.
    fn id_of(m: &ModelOf<Self>) -> i64;
    /// Sets the id (to change a row in place).
    fn set_id(&mut self, id: i64);
    /// Sets who recorded it, when, and why.
    fn stamp(&mut self, at: Option<chrono::DateTime<chrono::Utc>>, by: String, reason: Option<String>);
    /// Marks it superseded by `by` (none: removed) at `at`, with the reason.
    fn supersede(&mut self, at: chrono::DateTime<chrono::Utc>, by: Option<i64>, reason: Option<String>);
}

macro_rules! versioned {
    ($($module:ident),*) => {$(
        impl Versioned for entity::$module::ActiveModel {
            fn id_of(m: &entity::$module::Model) -> i64 {
                m.id
            }
            fn set_id(&mut self, id: i64) {
                self.id = Set(id);
            }
            fn stamp(&mut self, at: Option<chrono::DateTime<chrono::Utc>>, by: String, reason: Option<String>) {
                self.recorded_at = Set(at);
                self.recorded_by = Set(Some(by));
                self.change_reason = Set(reason);
            }
            fn supersede(&mut self, at: chrono::DateTime<chrono::Utc>, by: Option<i64>, reason: Option<String>) {
                self.superseded_at = Set(Some(at));
                self.superseded_by = Set(by);
                self.change_reason = Set(reason);
            }
        }
    )*};
}

versioned!(
    fco_carta_item,
    feedstock_acquisition,
    contract_proposal,
    assistance_plan
);

/// The reason a change needs: required once `decided`, kept when given.
pub fn reason(decided: bool, reason: Option<&str>) -> Result<Option<String>> {
    match reason.map(str::trim).filter(|r| !r.is_empty()) {
        Some(r) => Ok(Some(r.to_owned())),
        None if decided => Err(ServiceError::bad("input.reason", Message::new(code::REASON_REQUIRED))),
        None => Ok(None),
    }
}

/// Refuses a version that is no longer in force.
pub fn in_force<A: Versioned>(old: &ModelOf<A>, field: &'static str) -> Result<()>
where
    ModelOf<A>: IntoActiveModel<A> + entity::Versioned + Send + Sync,
{
    if entity::Versioned::is_current(old) {
        return Ok(());
    }
    Err(ServiceError::bad(
        field,
        Message::new(code::VERSION_SUPERSEDED).arg("id", A::id_of(old)),
    ))
}

/// Records a new fact.
pub async fn add<A: Versioned>(
    db: &impl ConnectionTrait,
    act: &Act,
    mut row: A,
    reason: Option<String>,
) -> Result<ModelOf<A>>
where
    ModelOf<A>: IntoActiveModel<A> + entity::Versioned + Send + Sync,
{
    row.stamp(Some(act.clock.now()), act.caller.actor(), reason);
    Ok(row.insert(db).await?)
}

/// Changes a fact to `row`: in place before the decision (keeping when it was first recorded), by a new version
/// after it, the old one superseded, in one transaction (nested in the caller's when `db` is one).
pub async fn change<A: Versioned>(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    old: ModelOf<A>,
    mut row: A,
    decided: bool,
    reason: Option<String>,
) -> Result<ModelOf<A>>
where
    ModelOf<A>: IntoActiveModel<A> + entity::Versioned + Send + Sync,
{
    if !decided {
        row.set_id(A::id_of(&old));
        row.stamp(entity::Versioned::recorded_at(&old), act.caller.actor(), reason);
        return Ok(row.update(db).await?);
    }
    let txn = db.begin().await?;
    row.stamp(Some(act.clock.now()), act.caller.actor(), reason.clone());
    let new = row.insert(&txn).await?;
    let mut superseded = old.into_active_model();
    superseded.supersede(act.clock.now(), Some(A::id_of(&new)), reason);
    superseded.update(&txn).await?;
    txn.commit().await?;
    Ok(new)
}

/// Removes a fact: deleted before the decision; after it, kept and marked removed with the reason.
pub async fn remove<A: Versioned>(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    old: ModelOf<A>,
    decided: bool,
    reason: Option<String>,
) -> Result<()>
where
    ModelOf<A>: IntoActiveModel<A> + entity::Versioned + Send + Sync,
{
    let mut row = old.into_active_model();
    if !decided {
        row.delete(db).await?;
        return Ok(());
    }
    row.supersede(act.clock.now(), None, reason);
    row.update(db).await?;
    Ok(())
}
