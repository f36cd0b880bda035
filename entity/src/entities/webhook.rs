//! A webhook receiver registered by the operator: a URL, the secret its deliveries are signed with (HMAC-SHA256), and
//! what it hears of (a programme, a bank, a list of events; empty means all).

use sea_orm::entity::prelude::*;

/// A webhook receiver.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "webhook")]
pub struct Model {
    /// Surrogate key: the webhook's number.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Where deliveries are POSTed.
    pub url: String,
    /// The key of each delivery's signature.
    pub secret: String,
    /// Only events of this programme (`SOCIAL_FUEL`, `FCO_RURAL`), if set.
    pub programme: Option<String>,
    /// Only events of this bank, if set.
    pub bank_id: Option<i64>,
    /// The events it hears of, comma-separated (`flag.raised,report.rejected`); empty for all.
    pub events: String,
    /// When it was added.
    pub created_at: DateTimeUtc,
    /// When it was removed (its deliveries stay listed).
    pub removed_at: Option<DateTimeUtc>,
    /// The language of the texts it is sent (flag messages): `en` for English; Portuguese otherwise (`NULL`, `pt-BR`).
    pub lang: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
