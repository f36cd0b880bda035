//! DataLoaders: one per key, each a single `IN (...)` query, so nested fields never run one query per parent.

use async_graphql::dataloader::Loader;
use entity::{
    assistance_plan, bank, chamber_attendance, chamber_meeting, checklist_confirmation, company_change_notice,
    contract_proposal, economic_group, fco_carta, fco_carta_amendment, fco_carta_item, feedstock_acquisition,
    municipality, party, project_document, semi_arid_membership, social_fuel_project, vocab::Programme,
};
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder};
use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
};

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
by_key!(
    /// CPACR chamber meetings by id.
    ChamberMeetingLoader, chamber_meeting, Id, i64, id
);
children!(
    /// Technical-assistance plans by project.
    PlansByProject, assistance_plan, ProjectId, project_id
);
children!(
    /// Notices of company changes by project.
    ChangeNoticesByProject, company_change_notice, ProjectId, project_id
);

/// Checklist confirmations by financing (programme and id).
pub struct ConfirmationsByFinancing(pub DatabaseConnection);

impl Loader<(Programme, i64)> for ConfirmationsByFinancing {
    type Value = Vec<checklist_confirmation::Model>;
    type Error = Arc<DbErr>;

    async fn load(&self, keys: &[(Programme, i64)]) -> Result<HashMap<(Programme, i64), Self::Value>, Self::Error> {
        let rows = checklist_confirmation::Entity::find()
            .filter(checklist_confirmation::Column::FinancingId.is_in(keys.iter().map(|k| k.1)))
            .order_by_asc(checklist_confirmation::Column::Id)
            .all(&self.0)
            .await
            .map_err(Arc::new)?;
        let wanted: HashSet<&(Programme, i64)> = keys.iter().collect();
        let mut out: HashMap<(Programme, i64), Self::Value> = HashMap::new();
        for row in rows {
            let key = (row.programme, row.financing_id);
            if wanted.contains(&key) {
                out.entry(key).or_default().push(row);
            }
        }
        Ok(out)
    }
}

/// Semi-arid memberships (every period) by IBGE code.
pub struct SemiAridByMunicipality(pub DatabaseConnection);

impl Loader<i32> for SemiAridByMunicipality {
    type Value = Vec<semi_arid_membership::Model>;
    type Error = Arc<DbErr>;

    async fn load(&self, keys: &[i32]) -> Result<HashMap<i32, Self::Value>, Self::Error> {
        let rows = semi_arid_membership::Entity::find()
            .filter(semi_arid_membership::Column::IbgeCode.is_in(keys.iter().copied()))
            .all(&self.0)
            .await
            .map_err(Arc::new)?;
        let mut out: HashMap<i32, Self::Value> = HashMap::new();
        for row in rows {
            out.entry(row.ibge_code).or_default().push(row);
        }
        Ok(out)
    }
}

/// Whether a bank was present at a chamber meeting, by (meeting, bank).
pub struct AttendanceLoader(pub DatabaseConnection);

impl Loader<(i64, i64)> for AttendanceLoader {
    type Value = bool;
    type Error = Arc<DbErr>;

    async fn load(&self, keys: &[(i64, i64)]) -> Result<HashMap<(i64, i64), bool>, Self::Error> {
        let rows = chamber_attendance::Entity::find()
            .filter(chamber_attendance::Column::MeetingId.is_in(keys.iter().map(|k| k.0)))
            .all(&self.0)
            .await
            .map_err(Arc::new)?;
        let wanted: HashSet<&(i64, i64)> = keys.iter().collect();
        Ok(rows
            .into_iter()
            .map(|a| ((a.meeting_id, a.bank_id), a.present))
            .filter(|(k, _)| wanted.contains(k))
            .collect())
    }
}

/// By borrower (party id): the committed cartas of its group, i.e. of every member of its economic group, or its own
/// when it has none ([`fco_carta::Entity::committed_by_group`] for a whole page at once). The asking carta is among
/// them when committed; the caller leaves it out.
pub struct GroupCommitmentsByParty(pub DatabaseConnection);

impl Loader<i64> for GroupCommitmentsByParty {
    type Value = Vec<fco_carta::Model>;
    type Error = Arc<DbErr>;

    async fn load(&self, keys: &[i64]) -> Result<HashMap<i64, Self::Value>, Self::Error> {
        let borrowers = party::Entity::find()
            .filter(party::Column::Id.is_in(keys.iter().copied()))
            .all(&self.0)
            .await
            .map_err(Arc::new)?;
        let groups: HashSet<i64> = borrowers.iter().filter_map(|p| p.economic_group_id).collect();
        let members = if groups.is_empty() {
            Vec::new()
        } else {
            party::Entity::find()
                .filter(party::Column::EconomicGroupId.is_in(groups.iter().copied()))
                .all(&self.0)
                .await
                .map_err(Arc::new)?
        };
        let mut group_of: HashMap<i64, i64> = HashMap::new();
        for p in &members {
            if let Some(g) = p.economic_group_id {
                group_of.insert(p.id, g);
            }
        }
        let party_ids: HashSet<i64> = keys.iter().copied().chain(members.iter().map(|p| p.id)).collect();
        let cartas = fco_carta::Entity::find()
            .filter(fco_carta::Column::PartyId.is_in(party_ids))
            .filter(fco_carta::Column::Stage.is_in(fco_carta::COMMITTED))
            .order_by_asc(fco_carta::Column::Id)
            .all(&self.0)
            .await
            .map_err(Arc::new)?;
        let mut out: HashMap<i64, Self::Value> = HashMap::new();
        for p in &borrowers {
            let mine: Vec<fco_carta::Model> = match p.economic_group_id {
                Some(g) => cartas
                    .iter()
                    .filter(|c| group_of.get(&c.party_id) == Some(&g))
                    .cloned()
                    .collect(),
                None => cartas.iter().filter(|c| c.party_id == p.id).cloned().collect(),
            };
            out.insert(p.id, mine);
        }
        Ok(out)
    }
}

/// Compliance flags per financing, newest first (`service::flags::of_financings`).
pub struct FlagsByFinancing(pub DatabaseConnection);

impl Loader<(Programme, i64)> for FlagsByFinancing {
    type Value = Vec<entity::compliance_flag::Model>;
    type Error = Arc<DbErr>;

    async fn load(&self, keys: &[(Programme, i64)]) -> Result<HashMap<(Programme, i64), Self::Value>, Self::Error> {
        service::flags::of_financings(&self.0, keys)
            .await
            .map_err(|e| Arc::new(DbErr::Custom(e.to_string())))
    }
}
