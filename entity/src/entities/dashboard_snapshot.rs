//! The compliance dashboard as the `build-dashboards` job built it for a day: its key figures and tables as JSON, read
//! in one statement.

use sea_orm::entity::prelude::*;

/// A built dashboard.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "dashboard_snapshot")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The day it is as of.
    pub as_of: Date,
    /// When it was built.
    pub built_at: DateTimeUtc,
    /// The dashboard, as JSON (`service::dashboard::Dashboard`).
    pub body: String,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
