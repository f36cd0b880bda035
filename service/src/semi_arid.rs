//! An operator loads another delimitation of the semi-arid from a CSV (`fomento import semi-arid FILE
//! --effective-from DATE`), all or nothing (issue 16, point 7): the 2005 list (Portaria MI nº 89/2005), say, which is not
//! shipped. Its municipalities become memberships from that day until the next later delimitation starts (the
//! earlier delimitation in force then is closed the day before), and `semi_arid_delimitation` records the delimitation
//! itself, so that a municipality outside it reads as outside (the rules see it as a row of IBGE code 0).

use crate::{
    ServiceError,
    messages::{Message, code},
};
use chrono::NaiveDate;
use entity::{municipality, semi_arid_delimitation, semi_arid_membership};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, TransactionSession,
    TransactionTrait, sea_query::Expr,
};
use std::collections::HashSet;

/// The IBGE code of the rows that stand, for the rules, for a loaded delimitation (no municipality has it).
pub const DESCRIPTOR: i32 = 0;

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// Municipalities in the delimitation.
    pub municipalities: usize,
    /// Its first day.
    pub effective_from: NaiveDate,
    /// Its last day: the day before the next later delimitation, if any.
    pub effective_to: Option<NaiveDate>,
    /// The earlier delimitations closed the day before it.
    pub closed: Vec<String>,
}

/// Loads a delimitation: every line's first column is an IBGE code (a header line is skipped); every code must be a
/// municipality, or nothing is loaded and each bad line is named.
pub async fn import(
    db: &(impl ConnectionTrait + TransactionTrait),
    csv: &str,
    effective_from: NaiveDate,
    source: &str,
) -> Result<Imported, ServiceError> {
    let source = source.trim();
    if source.is_empty() {
        return Err(ServiceError::bad("source", Message::new(code::FIELD_EMPTY)));
    }
    let known: HashSet<i32> = municipality::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|m| m.ibge_code)
        .collect();
    let (mut codes, mut errors) = (Vec::new(), Vec::new());
    for (n, line) in csv.lines().enumerate() {
        let first = line.split([',', ';']).next().unwrap_or("").trim().trim_matches('"');
        if first.is_empty() || (n == 0 && first.parse::<i32>().is_err()) {
            continue;
        }
        match first.parse::<i32>() {
            Ok(c) if known.contains(&c) => codes.push(c),
            _ => errors.push(format!("{} ({first})", n + 1)),
        }
    }
    if !errors.is_empty() {
        return Err(ServiceError::bad(
            "file",
            Message::new(code::SEMI_ARID_BAD_LINES).arg("lines", errors.join(", ")),
        ));
    }
    codes.sort_unstable();
    codes.dedup();
    if codes.is_empty() {
        return Err(ServiceError::bad("file", Message::new(code::SEMI_ARID_EMPTY)));
    }
    let existing = semi_arid_membership::Entity::find().all(db).await?;
    let loaded = semi_arid_delimitation::Entity::find().all(db).await?;
    if existing.iter().any(|m| m.source == source) || loaded.iter().any(|d| d.source == source) {
        return Err(ServiceError::bad(
            "source",
            Message::new(code::SEMI_ARID_LOADED).arg("source", source),
        ));
    }
    // In force until the next later delimitation starts.
    let effective_to = existing
        .iter()
        .map(|m| m.effective_from)
        .filter(|d| *d > effective_from)
        .min()
        .and_then(|d| d.pred_opt());
    let closing: Vec<String> = {
        let mut v: Vec<String> = existing
            .iter()
            .filter(|m| m.effective_from < effective_from && m.effective_to.is_none_or(|to| to >= effective_from))
            .map(|m| m.source.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let txn = crate::txn::write(db).await?;
    if let Some(day_before) = effective_from.pred_opt() {
        semi_arid_membership::Entity::update_many()
            .col_expr(semi_arid_membership::Column::EffectiveTo, Expr::value(day_before))
            .filter(semi_arid_membership::Column::Source.is_in(closing.clone()))
            .filter(semi_arid_membership::Column::EffectiveFrom.lt(effective_from))
            .exec(&txn)
            .await?;
        semi_arid_delimitation::Entity::update_many()
            .col_expr(semi_arid_delimitation::Column::EffectiveTo, Expr::value(day_before))
            .filter(semi_arid_delimitation::Column::Source.is_in(closing.clone()))
            .exec(&txn)
            .await?;
    }
    semi_arid_delimitation::ActiveModel {
        source: Set(source.to_owned()),
        effective_from: Set(effective_from),
        effective_to: Set(effective_to),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    let rows = codes.iter().copied().map(|c| semi_arid_membership::ActiveModel {
        ibge_code: Set(c),
        effective_from: Set(effective_from),
        effective_to: Set(effective_to),
        source: Set(source.to_owned()),
        ..Default::default()
    });
    for chunk in rows.collect::<Vec<_>>().chunks(400) {
        semi_arid_membership::Entity::insert_many(chunk.to_vec())
            .exec(&txn)
            .await?;
    }
    txn.commit().await?;
    Ok(Imported {
        municipalities: codes.len(),
        effective_from,
        effective_to,
        closed: closing,
    })
}
