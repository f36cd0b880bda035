//! DataLoaders: one per key, each a single `IN (...)` query, so nested fields never run one query per parent.

use async_graphql::dataloader::Loader;
use entity::{
    bank, contract_proposal, economic_group, fco_carta, fco_carta_amendment, fco_carta_item, feedstock_acquisition,
    municipality, party, project_document, social_fuel_project,
};
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder};
use std::{collections::HashMap, sync::Arc};

/// Declares a loader of one row per key.
macro_rules! by_key {
    ($(#[$doc:meta])* $name:ident, $module:ident, $column:ident, $key:ty, $field:ident) => {
        $(#[$doc])*
        pub struct $name(pub DatabaseConnection);

        impl Loader<$key> for $name {
            type Value = $module::Model;
            type Error = Arc<DbErr>;

            async fn load(&self, keys: &[$key]) -> Result<HashMap<$key, Self::Value>, Self::Error> {
                let rows = $module::Entity::find()
                    .filter($module::Column::$column.is_in(keys.iter().copied()))
                    .all(&self.0)
                    .await
                    .map_err(Arc::new)?;
                Ok(rows.into_iter().map(|m| (m.$field, m)).collect())
            }
        }
    };
}

/// Declares a loader of all children per parent key, in id order.
macro_rules! children {
    ($(#[$doc:meta])* $name:ident, $module:ident, $column:ident, $field:ident) => {
        $(#[$doc])*
        pub struct $name(pub DatabaseConnection);

        impl Loader<i64> for $name {
            type Value = Vec<$module::Model>;
            type Error = Arc<DbErr>;

            async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Self::Value>, Self::Error> {
                let rows = $module::Entity::find()
                    .filter($module::Column::$column.is_in(keys.iter().copied()))
                    .order_by_asc($module::Column::Id)
                    .all(&self.0)
                    .await
                    .map_err(Arc::new)?;
                let mut out: HashMap<i64, Self::Value> = HashMap::new();
                for row in rows {
                    out.entry(row.$field).or_default().push(row);
                }
                Ok(out)
            }
        }
    };
}

by_key!(
    /// Banks by id.
    BankLoader, bank, Id, i64, id
);
by_key!(
    /// Parties by id.
    PartyLoader, party, Id, i64, id
);
by_key!(
    /// Economic groups by id.
    EconomicGroupLoader, economic_group, Id, i64, id
);
by_key!(
    /// Municipalities by IBGE code.
    MunicipalityLoader, municipality, IbgeCode, i32, ibge_code
);
by_key!(
    /// Social-fuel projects by id.
    SocialFuelProjectLoader, social_fuel_project, Id, i64, id
);
by_key!(
    /// FCO cartas by id.
    FcoCartaLoader, fco_carta, Id, i64, id
);
children!(
    /// Feedstock acquisitions by project.
    AcquisitionsByProject, feedstock_acquisition, ProjectId, project_id
);
children!(
    /// Contract proposals by project.
    ProposalsByProject, contract_proposal, ProjectId, project_id
);
children!(
    /// Annex-I documents by project.
    DocumentsByProject, project_document, ProjectId, project_id
);
children!(
    /// Items by carta.
    ItemsByCarta, fco_carta_item, CartaId, carta_id
);
children!(
    /// Amendments by carta.
    AmendmentsByCarta, fco_carta_amendment, CartaId, carta_id
);
