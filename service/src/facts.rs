//! Batched reads of the stored facts: each function takes every key a page needs and answers with one `IN (...)`
//! query, so a door that batches (the graph's DataLoaders) never runs a query per parent.
//!
//! Size: one batched read per kind of fact, alike by design.

use crate::positional;
use chrono::NaiveDate;
use entity::Versioned;
use entity::{
    assistance_plan, bank, chamber_attendance, chamber_meeting, checklist_confirmation, company_change_notice,
    contract_proposal, economic_group, economic_group_membership, evaluation_finding, fco_carta, fco_carta_amendment,
    fco_carta_cycle, fco_carta_item, fco_carta_statement, feedstock_acquisition, municipality, party, project_document,
    semi_arid_membership, social_fuel_project, vocab::Programme,
};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect, StreamTrait};
use std::collections::{HashMap, HashSet};

/// The error of a batch read, shareable among the callers whose keys were batched together.
pub type LoadError = std::sync::Arc<DbErr>;

/// Declares a batch read of one row per key.
macro_rules! by_key {
    ($(#[$doc:meta])* $name:ident, $module:ident, $column:ident, $key:ty, $field:ident) => {
        $(#[$doc])*
        pub async fn $name(db: &impl ConnectionTrait, keys: &[$key]) -> Result<HashMap<$key, $module::Model>, DbErr> {
            if keys.is_empty() {
                return Ok(HashMap::new());
            }
            let rows = $module::Entity::find()
                .filter($module::Column::$column.is_in(keys.iter().copied()))
                .all(db)
                .await?;
            Ok(rows.into_iter().map(|m| (m.$field, m)).collect())
        }
    };
}

/// The range of `keys` when they nearly fill it (a batch of a pass over every carta, say): read by the range, the
/// statement has two parameters instead of thousands (building and binding a 2,000-value `IN` list cost more than
/// the read), and the rows outside `keys` are left out after.
fn dense(keys: &[i64]) -> Option<(i64, i64)> {
    let (lo, hi) = (keys.iter().min()?, keys.iter().max()?);
    let span = u64::try_from(hi.checked_sub(*lo)?).ok()?;
    (keys.len() >= 64 && span < 2 * keys.len() as u64).then_some((*lo, *hi))
}

/// Every row a select finds, read by sea-orm (by column name).
async fn by_name<E: EntityTrait>(
    select: sea_orm::Select<E>,
    db: &impl ConnectionTrait,
) -> Result<Vec<E::Model>, DbErr> {
    select.all(db).await
}

/// Declares a batch read of all children per parent key, in id order: read by name, or by position
/// (`crate::positional`) for the children read by the thousand in a pass.
macro_rules! children {
    ($(#[$doc:meta])* $name:ident, $module:ident, $column:ident, $key:ty, $field:ident) => {
        children!($(#[$doc])* $name, $module, $column, $key, $field, by_name);
    };
    ($(#[$doc:meta])* $name:ident, $module:ident, $column:ident, $key:ty, $field:ident, $read:path) => {
        $(#[$doc])*
        pub async fn $name(
            db: &impl ConnectionTrait,
            keys: &[$key],
        ) -> Result<HashMap<$key, Vec<$module::Model>>, DbErr> {
            if keys.is_empty() {
                return Ok(HashMap::new());
            }
            let span = dense(keys);
            let select = $module::Entity::find()
                .filter(match span {
                    Some((lo, hi)) => $module::Column::$column.between(lo, hi),
                    None => $module::Column::$column.is_in(keys.iter().copied()),
                })
                .order_by_asc($module::Column::Id);
            let rows = $read(select, db).await?;
            let wanted: Option<HashSet<$key>> = span.map(|_| keys.iter().copied().collect());
            let mut out: HashMap<$key, Vec<$module::Model>> = HashMap::new();
            for row in rows {
                if wanted.as_ref().is_none_or(|w| w.contains(&row.$field)) {
                    out.entry(row.$field).or_default().push(row);
                }
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
    /// Feedstock acquisitions by project (by position: a pass reads every project's).
    acquisitions_by_project, feedstock_acquisition, ProjectId, i64, project_id, positional::all
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
    /// The approval cycles an amendment closed, by carta, in the order they closed.
    cycles_by_carta, fco_carta_cycle, CartaId, i64, carta_id
);
children!(
    /// The versions of the stated facts a correction replaced, by carta, in the order recorded.
    statements_by_carta, fco_carta_statement, CartaId, i64, carta_id
);

/// The replaced versions of the stated facts of those of `cartas` whose facts were corrected with effect after
/// `as_of` ([`fco_carta::JudgedCarta::restated_after`]), by carta: nothing is read when none was.
pub async fn statements_in_force_on(
    db: &impl ConnectionTrait,
    cartas: &[fco_carta::JudgedCarta],
    as_of: NaiveDate,
) -> Result<HashMap<i64, Vec<fco_carta_statement::Model>>, DbErr> {
    let ids: Vec<i64> = cartas
        .iter()
        .filter(|c| c.restated_after(as_of))
        .map(|c| c.id)
        .collect();
    statements_by_carta(db, &ids).await
}

/// The closed approval cycles of those of `cartas` that may be in an earlier cycle at the end of `as_of`
/// ([`fco_carta::JudgedCarta::in_earlier_cycle_on`]), by carta: nothing is read when none may.
pub async fn cycles_in_force_on(
    db: &impl ConnectionTrait,
    cartas: &[fco_carta::JudgedCarta],
    as_of: NaiveDate,
) -> Result<HashMap<i64, Vec<fco_carta_cycle::Model>>, DbErr> {
    let ids: Vec<i64> = cartas
        .iter()
        .filter(|c| c.in_earlier_cycle_on(as_of))
        .map(|c| c.id)
        .collect();
    cycles_by_carta(db, &ids).await
}

/// The ids of the cartas with a closed approval cycle, as a subquery.
fn cycled_cartas() -> sea_orm::sea_query::SelectStatement {
    sea_orm::sea_query::Query::select()
        .column(fco_carta_cycle::Column::CartaId)
        .from(fco_carta_cycle::Entity)
        .to_owned()
}
/// Semi-arid memberships (every period) by IBGE code, each list followed by the descriptors of the delimitations an
/// operator imported (rows of IBGE code 0, `fomento import semi-arid`): with them a municipality outside an imported
/// list is known to be outside it.
pub async fn semi_arid_by_municipality(
    db: &impl ConnectionTrait,
    keys: &[i32],
) -> Result<HashMap<i32, Vec<semi_arid_membership::Model>>, DbErr> {
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = semi_arid_membership::Entity::find()
        .filter(semi_arid_membership::Column::IbgeCode.is_in(keys.iter().copied()))
        .order_by_asc(semi_arid_membership::Column::Id)
        .all(db)
        .await?;
    let descriptors: Vec<semi_arid_membership::Model> = entity::semi_arid_delimitation::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|d| semi_arid_membership::Model {
            id: 0,
            ibge_code: crate::semi_arid::DESCRIPTOR,
            effective_from: d.effective_from,
            effective_to: d.effective_to,
            source: d.source,
        })
        .collect();
    let mut out: HashMap<i32, Vec<semi_arid_membership::Model>> = HashMap::new();
    for row in rows {
        out.entry(row.ibge_code).or_default().push(row);
    }
    for k in keys {
        out.entry(*k).or_default().extend(descriptors.iter().cloned());
    }
    Ok(out)
}

/// The next `limit` projects after id `after`, by id: a page of a pass over every project (the flag and dashboard
/// jobs).
pub async fn projects_after(
    db: &impl ConnectionTrait,
    after: i64,
    limit: u64,
) -> Result<Vec<social_fuel_project::Model>, DbErr> {
    positional::all(
        social_fuel_project::Entity::find()
            .filter(social_fuel_project::Column::Id.gt(after))
            .order_by_asc(social_fuel_project::Column::Id)
            .limit(limit),
        db,
    )
    .await
}

/// The cartas with ids after `range.0` up to `range.1` that meet `condition`, by id, as the rules judge them: their
/// [`fco_carta::JUDGED`] columns, read by position into a [`fco_carta::JudgedCarta`].
pub async fn cartas_in_range_if(
    db: &impl ConnectionTrait,
    (after, upto): (i64, i64),
    condition: sea_orm::Condition,
) -> Result<Vec<fco_carta::JudgedCarta>, DbErr> {
    use sea_orm::QueryTrait;
    let select = fco_carta::Entity::find()
        .select_only()
        .columns(fco_carta::JUDGED)
        .filter(fco_carta::Column::Id.gt(after))
        .filter(fco_carta::Column::Id.lte(upto))
        .filter(condition)
        .order_by_asc(fco_carta::Column::Id);
    positional::decoded(
        db,
        select.build(db.get_database_backend()),
        <fco_carta::JudgedCarta as positional::Positional>::decode,
    )
    .await
}

/// Checklist confirmations by financing (programme and id), in id order.
pub async fn confirmations(
    db: &impl ConnectionTrait,
    keys: &[(Programme, i64)],
) -> Result<HashMap<(Programme, i64), Vec<checklist_confirmation::Model>>, DbErr> {
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    let ids: Vec<i64> = keys.iter().map(|k| k.1).collect();
    let rows = checklist_confirmation::Entity::find()
        .filter(match dense(&ids) {
            Some((lo, hi)) => checklist_confirmation::Column::FinancingId.between(lo, hi),
            None => checklist_confirmation::Column::FinancingId.is_in(ids),
        })
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
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
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

/// The committed cartas of a borrower group as known on a day (approved or contracted by their stored stage, or in an
/// earlier approval cycle: the rule reads each as known on the day), with the weaned calves on each carta's items
/// known that day.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Committed {
    /// The cartas, by id (in a pass's group commitments, those that are not settled: see `settled`).
    pub cartas: Vec<fco_carta::Committed>,
    /// Weaned calves by carta (its `WEANED_CALF` items known on the day); a carta without any is absent.
    pub weaned: HashMap<i64, i64>,
    /// Dams by Pantanal dam-retention carta (its `DAM` items known on the day): art. 9 counts 2,000 head per producer.
    pub pantanal_dams: HashMap<i64, i64>,
    /// What the cartas committed on the day add up to, worked out once for the group ([`Committed::others`]).
    totals: Option<Totals>,
    /// In a pass's group commitments ([`GroupCommitments::whole`]): what the group's settled cartas add up to on their
    /// day (they are not among `cartas`).
    settled: Option<Settled>,
}

/// The sum of a group's settled cartas on a day: stored as committed, with no act dated after the day (so committed
/// on it, their stage the stored one) and no weaned calves or dams among their items (so counting their amount
/// alone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Settled {
    day: NaiveDate,
    amount: i128,
}

/// The sums of a group's cartas committed on a day.
#[derive(Debug, Clone, PartialEq)]
struct Totals {
    day: NaiveDate,
    amount: i128,
    weaned: i64,
    pantanal_by_party: HashMap<i64, i64>,
}

impl Totals {
    /// What the cartas among `cartas` committed on `day` add up to.
    fn of(
        cartas: &[fco_carta::Committed],
        weaned: &HashMap<i64, i64>,
        dams: &HashMap<i64, i64>,
        day: NaiveDate,
    ) -> Self {
        let mut totals = Self {
            day,
            amount: 0,
            weaned: 0,
            pantanal_by_party: HashMap::new(),
        };
        for (c, amount) in cartas.iter().filter_map(|c| Some((c, c.committed_on(day)?))) {
            totals.amount += i128::from(amount.cents());
            totals.weaned += weaned.get(&c.id).copied().unwrap_or(0);
            if let Some(d) = dams.get(&c.id) {
                *totals.pantanal_by_party.entry(c.party_id).or_default() += d;
            }
        }
        totals
    }
}

impl Committed {
    /// The committed cartas of a group on `day`, with their sums.
    pub fn new(
        cartas: Vec<fco_carta::Committed>,
        weaned: HashMap<i64, i64>,
        pantanal_dams: HashMap<i64, i64>,
        day: NaiveDate,
    ) -> Self {
        let totals = Totals::of(&cartas, &weaned, &pantanal_dams, day);
        Self {
            cartas,
            weaned,
            pantanal_dams,
            totals: Some(totals),
            settled: None,
        }
    }

    /// What the group's cartas committed on `day` other than `c` (as stored) add up to: their amounts, their weaned
    /// calves, and the Pantanal dams of those of `c`'s own borrower (art. 9 counts per producer). From the group's
    /// sums when they are of `day` (a pass judges a group's every carta: adding the group up for each was quadratic),
    /// else added up. A pass's group commitments answer for their own day only.
    pub fn others(&self, c: &fco_carta::JudgedCarta, day: NaiveDate) -> (i128, i64, i64) {
        let other_day;
        let t = match self.totals.as_ref().filter(|t| t.day == day) {
            Some(t) => t,
            None => {
                other_day = Totals::of(&self.cartas, &self.weaned, &self.pantanal_dams, day);
                &other_day
            }
        };
        let (mut amount, mut weaned) = (t.amount, t.weaned);
        let mut pantanal = t.pantanal_by_party.get(&c.party_id).copied().unwrap_or(0);
        let listed = self.cartas.binary_search_by_key(&c.id, |o| o.id).ok();
        if let Some(own) = listed.and_then(|k| self.cartas.get(k))
            && let Some(committed) = own.committed_on(day)
        {
            amount -= i128::from(committed.cents());
            weaned -= self.weaned.get(&own.id).copied().unwrap_or(0);
            if own.party_id == c.party_id {
                pantanal -= self.pantanal_dams.get(&own.id).copied().unwrap_or(0);
            }
        }
        if let Some(s) = self.settled {
            debug_assert_eq!(s.day, day, "a pass's group commitments answer for their own day");
            amount += s.amount;
            // Not listed, stored as committed and none of its acts later: `c` is one of the settled (a carta with
            // an earlier cycle in force on the day is submitted later, so never settled).
            if listed.is_none() && fco_carta::COMMITTED.contains(&c.stage) && !c.acts().after(s.day) {
                amount -= i128::from(c.financed_amount.cents());
            }
        }
        (amount, weaned, pantanal)
    }
}

/// The borrower groups met so far, each read once: a pass over every carta meets the same economic group in many
/// batches, and keeps its committed cartas here instead of reading them again for each (a borrower alone, outside any
/// group, is read with its batch and not kept).
///
/// The borrower group is the economic group the borrower belonged to on the day (its members on that day), or the
/// borrower alone: the one definition, used by the graph, the commands, the jobs and `crate::ceiling`.
#[derive(Debug, Default)]
pub struct GroupCommitments {
    /// Each borrower met, with its memberships (every version).
    own: HashMap<i64, Vec<economic_group_membership::Model>>,
    /// Each economic group met, with its memberships (every version).
    members: HashMap<i64, Vec<economic_group_membership::Model>>,
    /// Each economic group and day read.
    groups: HashMap<(i64, NaiveDate), std::sync::Arc<Committed>>,
    /// For a pass over every carta on a day ([`GroupCommitments::whole`]): every committed carta, read once.
    whole: Option<Whole>,
}

/// A pass's group commitments on one day: every borrower's committed cartas, the settled ones (see [`Settled`]) as a
/// sum per borrower and the rest one by one.
#[derive(Debug)]
struct Whole {
    day: NaiveDate,
    /// What each borrower's settled cartas add up to.
    settled: HashMap<i64, i128>,
    /// The other committed cartas (an act dated after the day, or heads among their items), read narrow.
    rest: Commitments,
}

/// Committed cartas by borrower, with the weaned calves and dams on their items (every version): every borrower's
/// for a pass ([`GroupCommitments::whole`]), or those of a batch's borrowers.
#[derive(Debug, Default)]
struct Commitments {
    by_party: HashMap<i64, Vec<fco_carta::Committed>>,
    weaned_items: HashMap<i64, Vec<fco_carta_item::Model>>,
    dam_items: HashMap<i64, Vec<fco_carta_item::Model>>,
}

impl Commitments {
    /// The committed cartas of `parties`, or those of `ids` (a pass's cartas that are not settled, [`Settled`]), and
    /// their heads.
    async fn read(db: &impl ConnectionTrait, which: Which<'_>) -> Result<Self, DbErr> {
        let mut cartas: Vec<fco_carta::Committed> = Vec::new();
        let (Which::Parties(keys) | Which::Cartas(keys)) = which;
        for chunk in keys.chunks(5000) {
            cartas.extend(committed_cartas(db, which.with(chunk)).await?);
        }
        let pantanal: HashSet<i64> = cartas
            .iter()
            .filter(|c| c.activity == entity::vocab::FcoActivity::PantanalDamRetention)
            .map(|c| c.id)
            .collect();
        let ids: Vec<i64> = cartas.iter().map(|c| c.id).collect();
        let (weaned_items, dam_items) = heads_items(db, &ids, &pantanal).await?;
        let mut by_party: HashMap<i64, Vec<fco_carta::Committed>> = HashMap::new();
        for c in cartas {
            by_party.entry(c.party_id).or_default().push(c);
        }
        Ok(Self {
            by_party,
            weaned_items,
            dam_items,
        })
    }
}

/// Whose committed cartas [`Commitments::read`] reads: those of these borrowers, or these cartas.
#[derive(Debug, Clone, Copy)]
enum Which<'a> {
    Parties(&'a [i64]),
    Cartas(&'a [i64]),
}

impl<'a> Which<'a> {
    /// The same kind of keys, these ones.
    fn with(self, keys: &'a [i64]) -> Self {
        match self {
            Self::Parties(_) => Self::Parties(keys),
            Self::Cartas(_) => Self::Cartas(keys),
        }
    }
}

/// The cartas whose items count heads (weaned calves or dams, any version): a committed one is never settled.
fn heads_cartas() -> sea_orm::sea_query::SelectStatement {
    sea_orm::sea_query::Query::select()
        .column(fco_carta_item::Column::CartaId)
        .from(fco_carta_item::Entity)
        .and_where(
            fco_carta_item::Column::Kind.is_in([entity::vocab::ItemKind::WeanedCalf, entity::vocab::ItemKind::Dam]),
        )
        .to_owned()
}

/// The cartas that may commit money on some day: those stored as committed (approved or contracted) or as an approval
/// that lapsed (committed until the day it lapsed), and those with an earlier approval cycle (each was approved or
/// contracted when an amendment reopened it).
fn committed_sometime() -> sea_orm::Condition {
    sea_orm::Condition::any()
        .add(fco_carta::Column::Stage.is_in(fco_carta::COMMITTED_SOMETIME))
        .add(fco_carta::Column::Id.in_subquery(cycled_cartas()))
}

/// The cartas that may commit money on some day ([`committed_sometime`]) of these borrowers, or among these cartas,
/// read narrow in one statement, with their earlier approval cycles (read only for the cartas the statement finds to
/// have any: most have none).
async fn committed_cartas(db: &impl ConnectionTrait, which: Which<'_>) -> Result<Vec<fco_carta::Committed>, DbErr> {
    use sea_orm::sea_query::Expr;
    use sea_orm::{QuerySelect, QueryTrait};
    let cycled = fco_carta::Column::Id.in_subquery(cycled_cartas());
    let select = fco_carta::Entity::find()
        .select_only()
        .columns(fco_carta::Committed::COLUMNS)
        .expr_as(Expr::case(cycled, true).finally(false), "cycled")
        .filter(committed_sometime());
    let select = match which {
        Which::Parties(parties) => select.filter(fco_carta::Column::PartyId.is_in(parties.iter().copied())),
        Which::Cartas(ids) => select.filter(fco_carta::Column::Id.is_in(ids.iter().copied())),
    };
    let rows = db.query_all_raw(select.build(db.get_database_backend())).await?;
    let mut cartas = Vec::with_capacity(rows.len());
    let mut cycled = Vec::new();
    for row in &rows {
        let c = positional::committed(row)?;
        if row.try_get_by_index::<bool>(fco_carta::Committed::COLUMNS.len())? {
            cycled.push(c.id);
        }
        cartas.push(c);
    }
    let mut earlier = cycles_by_carta(db, &cycled).await?;
    for c in &mut cartas {
        c.earlier = earlier.remove(&c.id).unwrap_or_default();
    }
    Ok(cartas)
}

/// What each borrower's settled cartas on `day` add up to ([`Settled`]), and the ids of the committed cartas that are
/// not settled: every committed carta's borrower and amount, and whether it is settled as the database finds it, in
/// one scan (its acts are read only for the few that are not settled): pages by id would walk the primary key for
/// every page. PostgreSQL sends the scan as three arrays in one row ([`settled_arrays`]);
/// SQLite's rows are streamed one by one.
async fn settled_sums(
    db: &(impl ConnectionTrait + StreamTrait),
    day: NaiveDate,
) -> Result<(HashMap<i64, i128>, Vec<i64>), DbErr> {
    use fco_carta::Column as C;
    use futures::StreamExt;
    use sea_orm::sea_query::Expr;
    use sea_orm::{QuerySelect, QueryTrait};
    // A carta with an earlier cycle is read too: on a day before its reopening it is submitted later, so not
    // settled, and on a later day stored as submitted, not committed.
    let settled = sea_orm::Condition::all()
        .add(C::Stage.is_in(fco_carta::COMMITTED))
        .add(fco_carta::Acts::none_after_sql(day))
        .add(C::Id.not_in_subquery(heads_cartas()));
    let backend = ConnectionTrait::get_database_backend(db);
    let statement = fco_carta::Entity::find()
        .select_only()
        .columns([C::Id, C::PartyId, C::FinancedAmount])
        .expr_as(Expr::case(settled, true).finally(false), "settled")
        .filter(committed_sometime())
        .build(backend);
    let mut sums: HashMap<i64, i128> = HashMap::new();
    let mut rest = Vec::new();
    if backend == sea_orm::DbBackend::Postgres {
        let (parties, amounts, unsettled) = settled_arrays(db, statement).await?;
        for (party, amount) in parties.into_iter().zip(amounts) {
            *sums.entry(party).or_default() += i128::from(amount);
        }
        rest = unsettled;
    } else {
        let mut rows = std::pin::pin!(db.stream_raw(statement).await?);
        while let Some(row) = rows.next().await {
            let row = row?;
            let (id, party, amount, settled): (i64, i64, i64, bool) = (
                row.try_get_by_index(0)?,
                row.try_get_by_index(1)?,
                row.try_get_by_index(2)?,
                row.try_get_by_index(3)?,
            );
            if settled {
                *sums.entry(party).or_default() += i128::from(amount);
            } else {
                rest.push(id);
            }
        }
    }
    // In id order, as the rest is read.
    rest.sort_unstable();
    Ok((sums, rest))
}

/// The settled cartas' borrowers and amounts (in the same order) and the unsettled cartas' ids, of [`settled_sums`]'s
/// `scan` (id, borrower, amount, settled), each column aggregated into an array by PostgreSQL: one row of three
/// arrays, whose elements the driver decodes in a loop: streamed as rows, their decoding cost this process as much
/// as the database's scan.
async fn settled_arrays(
    db: &impl ConnectionTrait,
    scan: sea_orm::Statement,
) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>), DbErr> {
    use sea_orm::sqlx::Row as _;
    let statement = sea_orm::Statement {
        sql: format!(
            "SELECT array_agg(party_id) FILTER (WHERE settled), array_agg(financed_amount) FILTER (WHERE settled), \
             array_agg(id) FILTER (WHERE NOT settled) FROM ({}) AS book",
            scan.sql
        ),
        ..scan
    };
    let Some(row) = db.query_one_raw(statement).await? else {
        return Ok(Default::default());
    };
    let row = row
        .try_as_pg_row()
        .ok_or_else(|| DbErr::Type("the settled sums' arrays come from PostgreSQL only".into()))?;
    let column = |i: usize| -> Result<Vec<i64>, DbErr> {
        row.try_get::<Option<Vec<i64>>, _>(i)
            .map(Option::unwrap_or_default)
            .map_err(|e| DbErr::Type(format!("the settled sums' column {i}: {e}")))
    };
    let (parties, amounts) = (column(0)?, column(1)?);
    if parties.len() != amounts.len() {
        return Err(DbErr::Type(
            "the settled sums' borrowers and amounts differ in number".into(),
        ));
    }
    Ok((parties, amounts, column(2)?))
}

/// The first and last carta ids, if there is a carta.
pub(crate) async fn carta_id_bounds(db: &impl ConnectionTrait) -> Result<Option<(i64, i64)>, DbErr> {
    let bounds: Option<(Option<i64>, Option<i64>)> = fco_carta::Entity::find()
        .select_only()
        .column_as(fco_carta::Column::Id.min(), "lo")
        .column_as(fco_carta::Column::Id.max(), "hi")
        .into_tuple()
        .one(db)
        .await?;
    Ok(match bounds {
        Some((Some(lo), Some(hi))) => Some((lo, hi)),
        _ => None,
    })
}

/// The `WEANED_CALF` and `DAM` items (every version) of `cartas`, by carta: what the committed cartas of a group count
/// (dams only for Pantanal dam-retention cartas, `pantanal`).
async fn heads_items(
    db: &impl ConnectionTrait,
    cartas: &[i64],
    pantanal: &HashSet<i64>,
) -> Result<
    (
        HashMap<i64, Vec<fco_carta_item::Model>>,
        HashMap<i64, Vec<fco_carta_item::Model>>,
    ),
    DbErr,
> {
    let (mut weaned_items, mut dam_items): (HashMap<i64, Vec<_>>, HashMap<i64, Vec<_>>) = Default::default();
    let kinds = [entity::vocab::ItemKind::WeanedCalf, entity::vocab::ItemKind::Dam];
    for chunk in cartas.chunks(5000) {
        let select = fco_carta_item::Entity::find()
            .filter(fco_carta_item::Column::Kind.is_in(kinds))
            .filter(fco_carta_item::Column::CartaId.is_in(chunk.iter().copied()));
        for i in select.all(db).await? {
            match i.kind {
                entity::vocab::ItemKind::WeanedCalf => weaned_items.entry(i.carta_id).or_default().push(i),
                _ if pantanal.contains(&i.carta_id) => dam_items.entry(i.carta_id).or_default().push(i),
                _ => {}
            }
        }
    }
    Ok((weaned_items, dam_items))
}

impl GroupCommitments {
    /// The group commitments for a pass over every carta on `day`: every committed carta, every membership and every
    /// weaned-calf and dam item read once, instead of each batch's borrowers' by index lookups (which were a quarter of
    /// the database's work in the flag pass). The settled cartas ([`Settled`], most of them) are read as three numbers
    /// and summed per borrower, the rest narrow with their acts (as a batch's borrowers' are): reading every one with
    /// its acts was a sixth of the flag pass on 1M cartas. They answer for `day`; asked for another day they read the
    /// borrowers' cartas as a batch does.
    pub async fn whole(db: &(impl ConnectionTrait + StreamTrait), day: NaiveDate) -> Result<Self, DbErr> {
        let (settled, unsettled) = settled_sums(db, day).await?;
        let rest = Commitments::read(db, Which::Cartas(&unsettled)).await?;
        let mut commitments = Self {
            whole: Some(Whole { day, settled, rest }),
            ..Self::default()
        };
        // By position: sea-orm's reader formatted a message for every `NULL` it read (two a membership).
        for x in positional::all(economic_group_membership::Entity::find(), db).await? {
            commitments.members.entry(x.group_id).or_default().push(x.clone());
            commitments.own.entry(x.party_id).or_default().push(x);
        }
        Ok(commitments)
    }

    fn group_on(&self, party: i64, day: NaiveDate) -> Option<i64> {
        self.own
            .get(&party)?
            .iter()
            .find(|x| x.known_on(day))
            .map(|x| x.group_id)
    }

    /// The committed cartas of each borrower's group (by borrower and day), reading only what was not met before.
    pub async fn commitments(
        &mut self,
        db: &impl ConnectionTrait,
        keys: &[(i64, NaiveDate)],
    ) -> Result<HashMap<(i64, NaiveDate), std::sync::Arc<Committed>>, DbErr> {
        use economic_group_membership as m;
        use std::sync::Arc;
        if self.whole.is_none() {
            let new_parties: HashSet<i64> = keys.iter().map(|k| k.0).collect();
            read_memberships(db, m::Column::PartyId, new_parties, &mut self.own, |x| x.party_id).await?;
        }
        let needed: HashSet<(i64, NaiveDate)> = keys
            .iter()
            .filter_map(|&(p, d)| Some((self.group_on(p, d)?, d)))
            .filter(|k| !self.groups.contains_key(k))
            .collect();
        if self.whole.is_none() {
            let new_groups: HashSet<i64> = needed.iter().map(|k| k.0).collect();
            read_memberships(db, m::Column::GroupId, new_groups, &mut self.members, |x| x.group_id).await?;
        }
        let members_on = |g: i64, d: NaiveDate| -> HashSet<i64> {
            self.members
                .get(&g)
                .into_iter()
                .flatten()
                .filter(|x| x.known_on(d))
                .map(|x| x.party_id)
                .collect()
        };
        let alone: HashSet<i64> = keys
            .iter()
            .filter(|&&(p, d)| self.group_on(p, d).is_none())
            .map(|k| k.0)
            .collect();
        let read;
        let whole = self.whole.as_ref().filter(|w| keys.iter().all(|k| k.1 == w.day));
        let listed = match whole {
            Some(w) => &w.rest,
            None => {
                let parties: Vec<i64> = needed
                    .iter()
                    .flat_map(|&(g, d)| members_on(g, d))
                    .chain(alone.iter().copied())
                    .collect::<HashSet<_>>()
                    .into_iter()
                    .collect();
                read = Commitments::read(db, Which::Parties(&parties)).await?;
                &read
            }
        };
        let committed = |parties: &mut dyn Iterator<Item = i64>, d: NaiveDate| -> Committed {
            let mut cartas: Vec<fco_carta::Committed> = Vec::new();
            let mut settled = 0i128;
            for p in parties {
                cartas.extend(listed.by_party.get(&p).into_iter().flatten().cloned());
                settled += whole.and_then(|w| w.settled.get(&p)).copied().unwrap_or(0);
            }
            cartas.sort_by_key(|c| c.id);
            let heads_of = |items: &HashMap<i64, Vec<fco_carta_item::Model>>| -> HashMap<i64, i64> {
                cartas
                    .iter()
                    .filter_map(|c| {
                        let heads: i64 = items
                            .get(&c.id)?
                            .iter()
                            .filter(|i| i.known_on(d))
                            .map(|i| i64::from(i.head_count.unwrap_or(0)))
                            .sum();
                        Some((c.id, heads))
                    })
                    .collect()
            };
            let (weaned, pantanal_dams) = (heads_of(&listed.weaned_items), heads_of(&listed.dam_items));
            Committed {
                settled: whole.map(|w| Settled {
                    day: w.day,
                    amount: settled,
                }),
                ..Committed::new(cartas, weaned, pantanal_dams, d)
            }
        };
        let mut fresh = Vec::new();
        for (g, d) in needed {
            fresh.push(((g, d), Arc::new(committed(&mut members_on(g, d).into_iter(), d))));
        }
        let mut out = HashMap::new();
        for &(party, day) in keys {
            if self.group_on(party, day).is_none() {
                out.insert((party, day), Arc::new(committed(&mut std::iter::once(party), day)));
            }
        }
        self.groups.extend(fresh);
        for &(party, day) in keys {
            if let Some(g) = self.group_on(party, day) {
                out.insert((party, day), self.groups.get(&(g, day)).cloned().unwrap_or_default());
            }
        }
        Ok(out)
    }
}

/// Reads the memberships (every version) of the parties or groups in `ids` not yet in `into`, by `column`, keyed by
/// `key`; each id read gets an entry, empty when it has none.
async fn read_memberships(
    db: &impl ConnectionTrait,
    column: economic_group_membership::Column,
    ids: HashSet<i64>,
    into: &mut HashMap<i64, Vec<economic_group_membership::Model>>,
    key: fn(&economic_group_membership::Model) -> i64,
) -> Result<(), DbErr> {
    let new: Vec<i64> = ids.into_iter().filter(|id| !into.contains_key(id)).collect();
    for &id in &new {
        into.insert(id, Vec::new());
    }
    for chunk in new.chunks(5000) {
        for x in economic_group_membership::Entity::find()
            .filter(column.is_in(chunk.iter().copied()))
            .all(db)
            .await?
        {
            into.entry(key(&x)).or_default().push(x);
        }
    }
    Ok(())
}

/// By borrower (party id) and day: the committed cartas of its borrower group as known that day ([`GroupCommitments`]).
pub async fn group_commitments(
    db: &impl ConnectionTrait,
    keys: &[(i64, NaiveDate)],
) -> Result<HashMap<(i64, NaiveDate), std::sync::Arc<Committed>>, DbErr> {
    GroupCommitments::default().commitments(db, keys).await
}

/// The cartas of `carta`'s borrower group committed on `day` (an act's own day), `carta` itself left out: what
/// FCO-CEILING adds up, as the carta's compliance `asOf` that day reads it ([`group_commitments`]).
pub async fn committed_by_group(
    db: &impl ConnectionTrait,
    carta: &fco_carta::Model,
    day: NaiveDate,
) -> Result<Vec<fco_carta::Committed>, DbErr> {
    let today = day;
    let key = (carta.party_id, today);
    let mut all = group_commitments(db, &[key]).await?;
    Ok(all
        .remove(&key)
        .unwrap_or_default()
        .cartas
        .iter()
        .filter(|c| c.id != carta.id && c.committed_on(today).is_some())
        .cloned()
        .collect())
}
