//! A version of the facts an FCO carta states at its creation that a correction replaced (`updateFcoCarta`): the
//! sires the producer already has (art. 6 I c), whether the herd breeds by artificial insemination (art. 6 §7, art. 7
//! §6, art. 8 §5), the qualified professional (art. 6 §6–8), the term and grace, the special demand (art. 14). The
//! carta row holds the version in force now, from its `stated_on`; each earlier one is kept here with the first day it
//! held, so that a day before a correction took effect reads the facts as stated then
//! (`fco_carta::JudgedCarta::known_on`).
//!
//! The version that holds on a day is the last recorded of those in effect by it (the carta row counting as the last):
//! a correction dated back to an earlier day than a version it follows takes that version's place from then.

use sea_orm::entity::prelude::*;

/// A replaced version of a carta's stated facts.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fco_carta_statement")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The carta.
    pub carta_id: i64,
    /// Sires the producer already had, as stated then.
    pub existing_sires: Option<i32>,
    /// Whether the herd bred by artificial insemination, as stated then.
    pub artificial_insemination: Option<bool>,
    /// The qualified professional, as stated then.
    pub professional_name: Option<String>,
    /// Term in months, as stated then.
    pub term_months: Option<i32>,
    /// Grace period in months, as stated then.
    pub grace_months: Option<i32>,
    /// Whether it was a special demand (art. 14), as stated then.
    pub special_demand: bool,
    /// The first day this version held (none: from the carta's creation).
    pub effective_on: Option<Date>,
    /// Who replaced it (the caller's name).
    pub replaced_by: String,
    /// Why it was replaced.
    pub change_reason: String,
    /// When it was replaced (set by the database on insert).
    pub recorded_at: Option<DateTimeUtc>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
