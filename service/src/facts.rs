//! Batched reads of the stored facts: each function takes every key a page needs and answers with one `IN (...)`
//! query, so a door that batches (the graph's DataLoaders) never runs a query per parent.

use chrono::NaiveDate;
use entity::{
    assistance_plan, bank, chamber_attendance, chamber_meeting, checklist_confirmation, company_change_notice,
    contract_proposal, economic_group, economic_group_membership, evaluation_finding, fco_carta, fco_carta_amendment,
    fco_carta_item, feedstock_acquisition, municipality, party, project_document, semi_arid_membership,
    social_fuel_project, vocab::Programme,
};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use std::collections::{HashMap, HashSet};

/// The error of a batch read, shareable among the callers whose keys were batched together.
pub type LoadError = std::sync::Arc<DbErr>;

/// Declares a batch read of one row per key.
macro_rules! by_key {
    ($(#[$doc:meta])* $name:ident, $module:ident, $column:ident, $key:ty, $field:ident) => {
        $(#[$doc])*
        pub async fn $name(db: &impl ConnectionTrait, keys: &[$key]) -> Result<HashMap<$key, $module::Model>, DbErr> {
            let rows = $module::Entity::find()
                .filter($module::Column::$column.is_in(keys.iter().copied()))
                .all(db)
                .await?;
            Ok(rows.into_iter().map(|m| (m.$field, m)).collect())
        }
    };
}

/// Declares a batch read of all children per parent key, in id order.
macro_rules! children {
    ($(#[$doc:meta])* $name:ident, $module:ident, $column:ident, $key:ty, $field:ident) => {
        $(#[$doc])*
        pub async fn $name(
            db: &impl ConnectionTrait,
            keys: &[$key],
        ) -> Result<HashMap<$key, Vec<$module::Model>>, DbErr> {
            let rows = $module::Entity::find()
                .filter($module::Column::$column.is_in(keys.iter().copied()))
                .order_by_asc($module::Column::Id)
                .all(db)
                .await?;
            let mut out: HashMap<$key, Vec<$module::Model>> = HashMap::new();
            for row in rows {
                out.entry(row.$field).or_default().push(row);
            }
            Ok(out)
        }
    };
}

by_key!(
    /// Banks by id.
    banks, bank, Id, i64, id
);
by_key!(
    /// Parties by id.
    parties, party, Id, i64, id
);
by_key!(
    /// Economic groups by id.
    economic_groups, economic_group, Id, i64, id
);
by_key!(
    /// Municipalities by IBGE code.
    municipalities, municipality, IbgeCode, i32, ibge_code
);
by_key!(
    /// Social-fuel projects by id.
    projects, social_fuel_project, Id, i64, id
);
by_key!(
    /// FCO cartas by id.
    cartas, fco_carta, Id, i64, id
);
by_key!(
    /// CPACR chamber meetings by id.
    chamber_meetings, chamber_meeting, Id, i64, id
);
children!(
    /// Feedstock acquisitions by project.
    acquisitions_by_project, feedstock_acquisition, ProjectId, i64, project_id
);
children!(
    /// Contract proposals by project.
    proposals_by_project, contract_proposal, ProjectId, i64, project_id
);
children!(
    /// Annex-I documents by project.
    documents_by_project, project_document, ProjectId, i64, project_id
);
children!(
    /// Technical-assistance plans by project.
    plans_by_project, assistance_plan, ProjectId, i64, project_id
);
children!(
    /// Notices of company changes by project.
    change_notices_by_project, company_change_notice, ProjectId, i64, project_id
);
children!(
    /// The external evaluation's findings by project.
    findings_by_project, evaluation_finding, ProjectId, i64, project_id
);
children!(
    /// Items by carta.
    items_by_carta, fco_carta_item, CartaId, i64, carta_id
);
children!(
    /// Amendments by carta.
    amendments_by_carta, fco_carta_amendment, CartaId, i64, carta_id
);
children!(
    /// Semi-arid memberships (every period) by IBGE code.
    semi_arid_by_municipality, semi_arid_membership, IbgeCode, i32, ibge_code
);

/// The next `limit` projects after id `after`, by id: a page of a pass over every project (the flag and dashboard
/// jobs).
pub async fn projects_after(
    db: &impl ConnectionTrait,
    after: i64,
    limit: u64,
) -> Result<Vec<social_fuel_project::Model>, DbErr> {
    social_fuel_project::Entity::find()
        .filter(social_fuel_project::Column::Id.gt(after))
        .order_by_asc(social_fuel_project::Column::Id)
        .limit(limit)
        .all(db)
        .await
}

/// The next `limit` cartas after id `after`, by id: a page of a pass over every carta.
pub async fn cartas_after(db: &impl ConnectionTrait, after: i64, limit: u64) -> Result<Vec<fco_carta::Model>, DbErr> {
    fco_carta::Entity::find()
        .filter(fco_carta::Column::Id.gt(after))
        .order_by_asc(fco_carta::Column::Id)
        .limit(limit)
        .all(db)
        .await
}

/// Checklist confirmations by financing (programme and id), in id order.
pub async fn confirmations(
    db: &impl ConnectionTrait,
    keys: &[(Programme, i64)],
) -> Result<HashMap<(Programme, i64), Vec<checklist_confirmation::Model>>, DbErr> {
    let rows = checklist_confirmation::Entity::find()
        .filter(checklist_confirmation::Column::FinancingId.is_in(keys.iter().map(|k| k.1)))
        .order_by_asc(checklist_confirmation::Column::Id)
        .all(db)
        .await?;
    let wanted: HashSet<&(Programme, i64)> = keys.iter().collect();
    let mut out: HashMap<(Programme, i64), Vec<checklist_confirmation::Model>> = HashMap::new();
    for row in rows {
        let key = (row.programme, row.financing_id);
        if wanted.contains(&key) {
            out.entry(key).or_default().push(row);
        }
    }
    Ok(out)
}

/// Whether a bank was present at a chamber meeting, by (meeting, bank).
pub async fn attendance(db: &impl ConnectionTrait, keys: &[(i64, i64)]) -> Result<HashMap<(i64, i64), bool>, DbErr> {
    let rows = chamber_attendance::Entity::find()
        .filter(chamber_attendance::Column::MeetingId.is_in(keys.iter().map(|k| k.0)))
        .all(db)
        .await?;
    let wanted: HashSet<&(i64, i64)> = keys.iter().collect();
    Ok(rows
        .into_iter()
        .map(|a| ((a.meeting_id, a.bank_id), a.present))
        .filter(|(k, _)| wanted.contains(k))
        .collect())
}

/// By borrower (party id) and day: the committed (approved or contracted) cartas of its borrower group as known that
/// day, i.e. of every member of the economic group it belonged to then (by the membership history), or its own when
/// it had none. This is the one definition of the borrower group the rules read (FCO-CEILING, FCO-WEANED-2000); the
/// asking carta is among them when committed, and the caller leaves it out.
pub async fn group_commitments(
    db: &impl ConnectionTrait,
    keys: &[(i64, NaiveDate)],
) -> Result<HashMap<(i64, NaiveDate), Vec<fco_carta::Model>>, DbErr> {
    use economic_group_membership as m;
    let borrowers: HashSet<i64> = keys.iter().map(|k| k.0).collect();
    let own = m::Entity::find()
        .filter(m::Column::PartyId.is_in(borrowers.iter().copied()))
        .all(db)
        .await?;
    let group_on = |party: i64, day: NaiveDate| {
        own.iter()
            .find(|x| x.party_id == party && x.known_on(day))
            .map(|x| x.group_id)
    };
    let groups: HashSet<i64> = keys.iter().filter_map(|(p, d)| group_on(*p, *d)).collect();
    let members = if groups.is_empty() {
        Vec::new()
    } else {
        m::Entity::find()
            .filter(m::Column::GroupId.is_in(groups.iter().copied()))
            .all(db)
            .await?
    };
    let party_ids: HashSet<i64> = borrowers
        .iter()
        .copied()
        .chain(members.iter().map(|x| x.party_id))
        .collect();
    let cartas = fco_carta::Entity::find()
        .filter(fco_carta::Column::PartyId.is_in(party_ids))
        .filter(fco_carta::Column::Stage.is_in(fco_carta::COMMITTED))
        .order_by_asc(fco_carta::Column::Id)
        .all(db)
        .await?;
    let mut out = HashMap::new();
    for &(party, day) in keys {
        let mine: Vec<fco_carta::Model> = match group_on(party, day) {
            Some(g) => {
                let of_group: HashSet<i64> = members
                    .iter()
                    .filter(|x| x.group_id == g && x.known_on(day))
                    .map(|x| x.party_id)
                    .collect();
                cartas
                    .iter()
                    .filter(|c| of_group.contains(&c.party_id))
                    .cloned()
                    .collect()
            }
            None => cartas.iter().filter(|c| c.party_id == party).cloned().collect(),
        };
        out.insert((party, day), mine);
    }
    Ok(out)
}

/// The committed cartas of `carta`'s borrower group, `carta` itself left out: what FCO-CEILING adds up.
pub async fn committed_by_group(
    db: &impl ConnectionTrait,
    carta: &fco_carta::Model,
) -> Result<Vec<fco_carta::Model>, DbErr> {
    let key = (carta.party_id, entity::domain::brasilia_date(chrono::Utc::now()));
    let mut all = group_commitments(db, &[key]).await?;
    Ok(all
        .remove(&key)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.id != carta.id)
        .collect())
}
