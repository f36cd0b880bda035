//! Facts kept in versions (a carta's items, a project's acquisitions, proposals and assistance plan): nothing is
//! overwritten. A change is a new version with its author, the day it took effect and, once a decision relies on the
//! fact, its reason; the old version stays, marked superseded, holding until the day before. A rule judged `asOf` a
//! day reads the versions that held that day (`entity::Versioned::known_on`).

use crate::{
    ServiceError,
    lifecycle::Act,
    messages::{Message, code},
};
use chrono::NaiveDate;
use sea_orm::{
    ActiveModelBehavior, ActiveModelTrait, ActiveValue::Set, ConnectionTrait, EntityTrait, IntoActiveModel,
    TransactionSession, TransactionTrait,
};

type Result<T> = std::result::Result<T, ServiceError>;
type ModelOf<A> = <<A as ActiveModelTrait>::Entity as EntityTrait>::Model;
type ParentOf<F> = <<F as Fact>::Parent as EntityTrait>::Model;

/// An entity whose rows carry the version columns (migration 18's `version_columns`).
pub trait Versioned: ActiveModelTrait + ActiveModelBehavior + Send + Sync + Sized
where
    ModelOf<Self>: IntoActiveModel<Self> + entity::Versioned + Send + Sync,
{
    /// The row's id.
    fn id_of(m: &ModelOf<Self>) -> i64;
    /// Sets who recorded it, when, and why.
    fn stamp(&mut self, at: Option<chrono::DateTime<chrono::Utc>>, by: String, reason: Option<String>);
    /// Marks it superseded by `by` (none: removed) at `at`, with the reason.
    fn supersede(&mut self, at: chrono::DateTime<chrono::Utc>, by: Option<i64>, reason: Option<String>);
    /// Sets the first day it holds (given by a person: no `dated_by`).
    fn take_effect(&mut self, on: Option<NaiveDate>);
    /// Sets the day it stopped holding.
    fn end_on(&mut self, on: NaiveDate);
    /// The version `id`'s row, to read.
    fn by_id(id: i64) -> sea_orm::Select<Self::Entity>;
}

macro_rules! versioned {
    ($($module:ident),*) => {$(
        impl Versioned for entity::$module::ActiveModel {
            fn id_of(m: &entity::$module::Model) -> i64 {
                m.id
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
            fn take_effect(&mut self, on: Option<NaiveDate>) {
                self.effective_on = Set(on);
                self.dated_by = Set(None);
            }
            fn end_on(&mut self, on: NaiveDate) {
                self.ended_on = Set(Some(on));
            }
            fn by_id(id: i64) -> sea_orm::Select<entity::$module::Entity> {
                entity::$module::Entity::find_by_id(id)
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

/// Records a new fact, in effect from `effective_on` (the day it happened: [`Act::effective`]).
pub async fn add<A: Versioned>(
    db: &impl ConnectionTrait,
    act: &Act,
    mut row: A,
    reason: Option<String>,
    effective_on: NaiveDate,
) -> Result<ModelOf<A>>
where
    ModelOf<A>: IntoActiveModel<A> + entity::Versioned + Send + Sync,
{
    row.stamp(Some(act.clock.now()), act.caller.actor(), reason);
    row.take_effect(Some(effective_on));
    Ok(row.insert(db).await?)
}

/// Changes a fact to `row`: always a new version, the old one kept and marked superseded, in one transaction (nested
/// in the caller's when `db` is one). The new version holds from `effective_on`; when not given, from the day the old
/// one took effect while nothing was decided on it (a correction of a draft, which may move the day too), from today
/// once decided (a change, never before the version it replaces). The old version holds until the day before.
pub async fn change<A: Versioned>(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    old: ModelOf<A>,
    mut row: A,
    decided: bool,
    reason: Option<String>,
    effective_on: Option<NaiveDate>,
) -> Result<ModelOf<A>>
where
    ModelOf<A>: IntoActiveModel<A> + entity::Versioned + Send + Sync,
{
    // Once decided, a change starts no earlier than the version it replaces; before, it may correct the day too.
    let held = entity::Versioned::effective_on(&old);
    let (default, since) = if decided { (None, held) } else { (held, None) };
    let day = act.effective("input.effectiveOn", effective_on.or(default), since)?;
    let txn = crate::txn::write(db).await?;
    row.stamp(Some(act.clock.now()), act.caller.actor(), reason.clone());
    row.take_effect(Some(day));
    let new = row.insert(&txn).await?;
    let mut superseded = old.into_active_model();
    superseded.supersede(act.clock.now(), Some(A::id_of(&new)), reason);
    superseded.end_on(day);
    superseded.update(&txn).await?;
    txn.commit().await?;
    Ok(new)
}

/// Removes a fact: kept and marked removed with the reason, holding until the day before `ended_on`; when not given,
/// it never held while nothing was decided on it (a draft's fact withdrawn), and holds until yesterday once decided
/// (never ending before it took effect).
pub async fn remove<A: Versioned>(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    old: ModelOf<A>,
    decided: bool,
    reason: Option<String>,
    ended_on: Option<NaiveDate>,
) -> Result<()>
where
    ModelOf<A>: IntoActiveModel<A> + entity::Versioned + Send + Sync,
{
    let held = entity::Versioned::effective_on(&old);
    let (default, since) = if decided { (None, held) } else { (held, None) };
    let day = act.effective("input.effectiveOn", ended_on.or(default), since)?;
    let mut row = old.into_active_model();
    row.supersede(act.clock.now(), None, reason);
    row.end_on(day);
    row.update(db).await?;
    Ok(())
}

/// A fact kept in versions under a parent that a decision relies on (a carta's items, a project's feedstock
/// acquisitions and contract proposals): what the one [`record`], [`correct`], [`withdraw`] and [`visible`] need to
/// know of it.
pub trait Fact: Versioned
where
    ModelOf<Self>: IntoActiveModel<Self> + entity::Versioned + Send + Sync,
{
    /// The fact as a person states it.
    type Stated: Send;
    /// The table of what it belongs to (the cartas, the projects).
    type Parent: EntityTrait;
    /// The input field that names a version (`input.itemId`).
    const FIELD: &'static str;
    /// The input field that names its parent (`input.cartaId`).
    const PARENT_FIELD: &'static str;
    /// The message code of a version that does not exist.
    const UNKNOWN: &'static str;
    /// The message code of a parent that does not exist.
    const PARENT_UNKNOWN: &'static str;
    /// The parent `id`'s row, to read.
    fn parent(id: i64) -> sea_orm::Select<Self::Parent>;
    /// A version's parent.
    fn parent_id(m: &ModelOf<Self>) -> i64;
    /// The parent's id and its bank (whose keys may act on it).
    fn parent_keys(p: &ParentOf<Self>) -> (i64, i64);
    /// Whether the parent's decision relies on its facts: they are then changed by new versions, with a reason.
    fn decided(p: &ParentOf<Self>) -> bool;
    /// The stated fact checked, as a row of parent `parent`.
    fn checked(
        db: &(impl ConnectionTrait + TransactionTrait),
        act: &Act,
        stated: Self::Stated,
        parent: i64,
    ) -> impl Future<Output = Result<Self>> + Send;
}

/// The parent `id`, named by input field `field`, when `act`'s caller may act on it: another bank's answers as one
/// that does not exist (`missing`).
async fn parent_for<F: Fact>(
    db: &impl ConnectionTrait,
    act: &Act,
    field: &'static str,
    id: i64,
    missing: impl FnOnce() -> Message,
) -> Result<ParentOf<F>>
where
    ModelOf<F>: IntoActiveModel<F> + entity::Versioned + Send + Sync,
{
    let p = F::parent(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found(field, Message::new(F::PARENT_UNKNOWN).arg("id", id)))?;
    crate::access::within(&act.caller, F::parent_keys(&p).1, field, missing)?;
    Ok(p)
}

/// The version `id`, in force, and its parent, when `act`'s caller may act on it.
async fn current<F: Fact>(db: &impl ConnectionTrait, act: &Act, id: i64) -> Result<(ModelOf<F>, ParentOf<F>)>
where
    ModelOf<F>: IntoActiveModel<F> + entity::Versioned + Send + Sync,
{
    let unknown = || Message::new(F::UNKNOWN).arg("id", id);
    let old = F::by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found(F::FIELD, unknown()))?;
    // A version under another bank's carta answers as one that does not exist.
    let p = parent_for::<F>(db, act, F::FIELD, F::parent_id(&old), unknown).await?;
    in_force::<F>(&old, F::FIELD)?;
    Ok((old, p))
}

/// Records a fact of parent `parent` ([`add`]); once the parent's decision relies on its facts, with a reason.
pub async fn record<F: Fact>(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    parent: i64,
    stated: F::Stated,
    reason: Option<&str>,
    effective_on: Option<NaiveDate>,
) -> Result<ModelOf<F>>
where
    ModelOf<F>: IntoActiveModel<F> + entity::Versioned + Send + Sync,
{
    let missing = || Message::new(F::PARENT_UNKNOWN).arg("id", parent);
    let p = parent_for::<F>(db, act, F::PARENT_FIELD, parent, missing).await?;
    let reason = self::reason(F::decided(&p), reason)?;
    let day = act.effective("input.effectiveOn", effective_on, None)?;
    let row = F::checked(db, act, stated, F::parent_keys(&p).0).await?;
    add(db, act, row, reason, day).await
}

/// Corrects the version `id` by a new one, the old one kept ([`change`]); once decided, with a reason.
pub async fn correct<F: Fact>(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    stated: F::Stated,
    reason: Option<&str>,
    effective_on: Option<NaiveDate>,
) -> Result<ModelOf<F>>
where
    ModelOf<F>: IntoActiveModel<F> + entity::Versioned + Send + Sync,
{
    let (old, p) = current::<F>(db, act, id).await?;
    let reason = self::reason(F::decided(&p), reason)?;
    let row = F::checked(db, act, stated, F::parent_keys(&p).0).await?;
    change(db, act, old, row, F::decided(&p), reason, effective_on).await
}

/// Removes the version `id`: kept and marked removed ([`remove`]); once decided, with a reason. Answers the parent.
pub async fn withdraw<F: Fact>(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    id: i64,
    reason: Option<&str>,
    ended_on: Option<NaiveDate>,
) -> Result<ParentOf<F>>
where
    ModelOf<F>: IntoActiveModel<F> + entity::Versioned + Send + Sync,
{
    let (old, p) = current::<F>(db, act, id).await?;
    let reason = self::reason(F::decided(&p), reason)?;
    remove::<F>(db, act, old, F::decided(&p), reason, ended_on).await?;
    Ok(p)
}

/// The version `id` (in force or not), when `caller` may read its parent: another bank's answers as none.
pub async fn visible<F: Fact>(db: &impl ConnectionTrait, caller: &crate::Caller, id: i64) -> Result<Option<ModelOf<F>>>
where
    ModelOf<F>: IntoActiveModel<F> + entity::Versioned + Send + Sync,
{
    crate::access::read_scope(caller)?;
    let Some(m) = F::by_id(id).one(db).await? else {
        return Ok(None);
    };
    let p = F::parent(F::parent_id(&m)).one(db).await?;
    Ok(p.filter(|p| caller.scope().sees_bank(F::parent_keys(p).1)).map(|_| m))
}
