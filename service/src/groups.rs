//! Economic groups, cooperatives and associations: FCO-CEILING and FCO-WEANED-2000 count a borrower's whole group
//! (CDAE/MT 2019, arts. 4 and 6 §1), so who belongs to which group is a fact a person records. Each joining and
//! leaving is kept in `economic_group_membership` with the days it took effect (`joinedOn`, `leftOn`) beside when it
//! was recorded and by whom, so a rule judged `asOf` a day reads the groups as they stood that day;
//! `party.economic_group_id` is the membership now.

use crate::{
    ServiceError,
    lifecycle::Act,
    messages::{self, Message, code},
};
use entity::{domain::Document, economic_group, economic_group_membership as membership, party};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, IntoActiveModel, QueryFilter,
    TransactionSession, TransactionTrait,
};

type Result<T> = std::result::Result<T, ServiceError>;

/// The kinds of group the instruction names.
pub const KINDS: [&str; 3] = ["GROUP", "COOPERATIVE", "ASSOCIATION"];

async fn party_of(db: &impl ConnectionTrait, field: &'static str, document: &str) -> Result<party::Model> {
    let doc = Document::parse(document).map_err(|e| ServiceError::bad(field, messages::document(&e)))?;
    party::Entity::find()
        .filter(party::Column::Document.eq(doc.as_str()))
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found(field, Message::new(code::PARTY_UNKNOWN).arg("document", doc)))
}

/// A group by id.
pub async fn group(db: &impl ConnectionTrait, id: i64) -> Result<economic_group::Model> {
    economic_group::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| ServiceError::not_found("input.groupId", Message::new(code::GROUP_UNKNOWN).arg("id", id)))
}

/// Puts the parties with these documents in `group` from day `on`, in one transaction; a party already in another
/// group is refused (leave that group first), naming it, and so is a day before it left its last group.
async fn join(
    db: &impl ConnectionTrait,
    act: &Act,
    group: &economic_group::Model,
    documents: &[String],
    on: Option<chrono::NaiveDate>,
) -> Result<()> {
    let day = act.effective("input.joinedOn", on, None)?;
    for d in documents {
        let p = party_of(db, "input.memberDocuments", d).await?;
        match p.economic_group_id {
            Some(g) if g == group.id => continue,
            Some(g) => {
                let other = economic_group::Entity::find_by_id(g).one(db).await?;
                return Err(ServiceError::bad(
                    "input.memberDocuments",
                    Message::new(code::GROUP_MEMBER_ELSEWHERE)
                        .arg("document", &p.document)
                        .arg("group", other.map_or_else(|| format!("group {g}"), |o| o.name)),
                ));
            }
            None => {
                // A membership cannot begin before the party's last one ended: it was in that group until then.
                let last_left = membership::Entity::find()
                    .filter(membership::Column::PartyId.eq(p.id))
                    .all(db)
                    .await?
                    .into_iter()
                    .filter_map(|m| m.left_on)
                    .max();
                act.effective("input.joinedOn", Some(day), last_left)?;
                membership::ActiveModel {
                    group_id: Set(group.id),
                    party_id: Set(p.id),
                    joined_at: Set(Some(act.clock.now())),
                    recorded_by: Set(act.caller.actor()),
                    joined_on: Set(Some(day)),
                    ..Default::default()
                }
                .insert(db)
                .await?;
                let mut a = p.into_active_model();
                a.economic_group_id = Set(Some(group.id));
                a.update(db).await?;
            }
        }
    }
    Ok(())
}

/// Creates a group with its first members.
pub async fn create(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    name: &str,
    kind: &str,
    members: &[String],
    joined_on: Option<chrono::NaiveDate>,
) -> Result<economic_group::Model> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ServiceError::bad("input.name", Message::new(code::FIELD_EMPTY)));
    }
    let kind = kind.trim().to_ascii_uppercase();
    if !KINDS.contains(&kind.as_str()) {
        return Err(ServiceError::bad(
            "input.kind",
            Message::new(code::GROUP_KIND_INVALID).arg("value", format!("{kind:?}")),
        ));
    }
    let txn = crate::txn::write(db).await?;
    let g = economic_group::ActiveModel {
        name: Set(name.into()),
        kind: Set(kind),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    join(&txn, act, &g, members, joined_on).await?;
    txn.commit().await?;
    Ok(g)
}

/// Adds members to a group.
pub async fn add_members(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    group_id: i64,
    members: &[String],
    joined_on: Option<chrono::NaiveDate>,
) -> Result<economic_group::Model> {
    let txn = crate::txn::write(db).await?;
    let g = group(&txn, group_id).await?;
    join(&txn, act, &g, members, joined_on).await?;
    txn.commit().await?;
    Ok(g)
}

/// Takes a party out of a group from day `left_on` (today when not given; never before it joined).
pub async fn remove_member(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    group_id: i64,
    document: &str,
    left_on: Option<chrono::NaiveDate>,
) -> Result<economic_group::Model> {
    let g = group(db, group_id).await?;
    let p = party_of(db, "input.memberDocument", document).await?;
    if p.economic_group_id != Some(g.id) {
        return Err(ServiceError::bad(
            "input.memberDocument",
            Message::new(code::GROUP_NOT_MEMBER)
                .arg("document", &p.document)
                .arg("group", &g.name),
        ));
    }
    let joined = membership::Entity::find()
        .filter(membership::Column::PartyId.eq(p.id))
        .filter(membership::Column::GroupId.eq(g.id))
        .filter(membership::Column::LeftAt.is_null())
        .all(db)
        .await?
        .into_iter()
        .filter_map(|m| m.joined_on)
        .max();
    let day = act.effective("input.leftOn", left_on, joined)?;
    let txn = crate::txn::write(db).await?;
    membership::Entity::update_many()
        .col_expr(membership::Column::LeftAt, Expr::value(act.clock.now()))
        .col_expr(membership::Column::LeftOn, Expr::value(day))
        .col_expr(membership::Column::LeftRecordedBy, Expr::value(act.caller.actor()))
        .filter(membership::Column::PartyId.eq(p.id))
        .filter(membership::Column::GroupId.eq(g.id))
        .filter(membership::Column::LeftAt.is_null())
        .exec(&txn)
        .await?;
    let mut a = p.into_active_model();
    a.economic_group_id = Set(None);
    a.update(&txn).await?;
    txn.commit().await?;
    Ok(g)
}
