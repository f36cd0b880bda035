//! What a caller may see, decided where an object is produced, once. A [`Seen`] value can only be made here, by a
//! function that checks the caller's scope; the graph's object types hold a `Seen` (not the bare row), so a new root
//! field, relation, payload or event cannot hand a client an object without passing through this module. What lies
//! outside the caller's reach is left out, as if it did not exist.
//!
//! The rule for a `bank` key (every other role that may read sees everything, masked as [`crate::privacy`] says):
//! - its own cartas, projects, reports and their flags;
//! - the parties it finances (a borrower of one of its cartas or projects), and no other;
//! - an economic group with a member it finances, whose `members` are the ones it finances;
//! - banks, municipalities and chamber meetings (public reference data), but a meeting's agenda lists only its own
//!   cartas, and another bank's reporting deadlines are none of its business;
//! - no bulk import and no job run (operators' records).

use crate::{Caller, ServiceError, caller::Scope};
use entity::{
    bank, bank_report, chamber_meeting, compliance_flag, economic_group, fact_import, fco_carta, job_run, municipality,
    party, social_fuel_project, vocab::Programme,
};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QuerySelect};
use std::collections::HashSet;

/// A value the caller may see. Only this module makes one.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen<T>(T);

impl<T> std::ops::Deref for Seen<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> Seen<T> {
    /// The value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

/// A row that belongs to one bank: seen by that bank's key and by every role that reads everything.
pub trait OfBank {
    /// The bank it belongs to.
    fn bank_of(&self) -> i64;
}

impl OfBank for fco_carta::Model {
    fn bank_of(&self) -> i64 {
        self.bank_id
    }
}

impl OfBank for social_fuel_project::Model {
    fn bank_of(&self) -> i64 {
        self.bank_id
    }
}

impl OfBank for bank_report::Model {
    fn bank_of(&self) -> i64 {
        self.bank_id
    }
}

/// Reference data every caller that may read sees whole.
pub trait Public {}

impl Public for bank::Model {}
impl Public for municipality::Model {}
impl Public for chamber_meeting::Model {}

/// A financing row: it names its borrower.
pub trait Financed: OfBank {
    /// The borrower (or producer company).
    fn party_of(&self) -> i64;

    /// Its programme and id, as its flags name it.
    fn financing(&self) -> (Programme, i64);

    /// The borrower's name as the bank filed it on this financing, when it kept one.
    fn filed_name(&self) -> Option<&str>;
}

impl Financed for fco_carta::Model {
    fn party_of(&self) -> i64 {
        self.party_id
    }

    fn financing(&self) -> (Programme, i64) {
        (Programme::FcoRural, self.id)
    }

    fn filed_name(&self) -> Option<&str> {
        self.borrower_name.as_deref()
    }
}

impl Financed for social_fuel_project::Model {
    fn party_of(&self) -> i64 {
        self.party_id
    }

    fn financing(&self) -> (Programme, i64) {
        (Programme::SocialFuel, self.id)
    }

    fn filed_name(&self) -> Option<&str> {
        // A project is filed by its producer company; a person's name is never filed with one.
        None
    }
}

/// Reference data, seen by any caller that may read.
pub fn public<T: Public>(value: T) -> Seen<T> {
    Seen(value)
}

/// A row of one bank, when the caller may see it.
pub fn of_bank<T: OfBank>(caller: &Caller, value: T) -> Option<Seen<T>> {
    caller.scope().sees_bank(value.bank_of()).then_some(Seen(value))
}

/// The rows of `values` the caller may see, in their order.
pub fn of_banks<T: OfBank>(caller: &Caller, values: impl IntoIterator<Item = T>) -> Vec<Seen<T>> {
    let scope = caller.scope();
    values
        .into_iter()
        .filter(|v| scope.sees_bank(v.bank_of()))
        .map(Seen)
        .collect()
}

/// A page of rows of banks, with the rows the caller may not see left out.
pub fn page_of_banks<T: OfBank>(caller: &Caller, page: crate::page::Page<T>) -> crate::page::Page<Seen<T>> {
    let scope = caller.scope();
    crate::page::Page {
        items: page
            .items
            .into_iter()
            .filter(|(_, v)| scope.sees_bank(v.bank_of()))
            .map(|(id, v)| (id, Seen(v)))
            .collect(),
        has_next_page: page.has_next_page,
        has_previous_page: page.has_previous_page,
        total_count: page.total_count,
    }
}

/// Whether the caller may see what belongs to bank `bank` (its reporting record, its financings).
pub fn sees_bank(caller: &Caller, bank: i64) -> bool {
    caller.scope().sees_bank(bank)
}

/// The borrower of a financing the caller sees: seen with it (`None` when `party` is not that borrower), a person
/// under the name the financing's bank filed when the caller is that bank ([`as_filed`]).
pub fn borrower<F: Financed>(caller: &Caller, financing: &Seen<F>, party: party::Model) -> Option<Seen<party::Model>> {
    if financing.party_of() != party.id {
        return None;
    }
    Some(Seen(match caller.scope() {
        Scope::Bank(_) => as_filed(party, financing.filed_name()),
        _ => party,
    }))
}

/// A party as a bank sees it: a person under the name the bank itself filed (`filed`; the recorded name's initials
/// when it filed none), never under the name another bank recorded. A person's record keeps the name its first filer
/// sent, and a bank that files a carta for any CPF must not learn that name from it. A company is shown as recorded
/// (its corporate name is public).
pub fn as_filed(mut party: party::Model, filed: Option<&str>) -> party::Model {
    if crate::privacy::is_person(&party) {
        party.name = match filed.map(str::trim).filter(|n| !n.is_empty()) {
            Some(name) => name.to_owned(),
            None => crate::privacy::initials(&party.name),
        };
    }
    party
}

/// The names bank `bank` filed for the persons among `parties`: each one's latest (by carta), by party id.
async fn filed_names(
    db: &impl ConnectionTrait,
    bank: i64,
    parties: impl Iterator<Item = i64>,
) -> Result<std::collections::HashMap<i64, String>, ServiceError> {
    use sea_orm::QueryOrder;
    let ids: Vec<i64> = parties.collect::<HashSet<_>>().into_iter().collect();
    let mut out = std::collections::HashMap::new();
    for chunk in ids.chunks(5_000) {
        let rows: Vec<(i64, String)> = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::PartyId)
            .column(fco_carta::Column::BorrowerName)
            .filter(fco_carta::Column::BankId.eq(bank))
            .filter(fco_carta::Column::PartyId.is_in(chunk.to_vec()))
            .filter(fco_carta::Column::BorrowerName.is_not_null())
            .order_by_asc(fco_carta::Column::Id)
            .into_tuple()
            .all(db)
            .await?;
        // The latest carta's name wins.
        out.extend(rows);
    }
    Ok(out)
}

/// The flags raised on a financing the caller sees: seen with it (a flag of another financing is left out).
pub fn flags_on<F: Financed>(
    financing: &Seen<F>,
    rows: impl IntoIterator<Item = compliance_flag::Model>,
) -> Vec<Seen<compliance_flag::Model>> {
    let (programme, id) = financing.financing();
    rows.into_iter()
        .filter(|f| f.programme == programme && f.financing_id == Some(id))
        .map(Seen)
        .collect()
}

/// The parties of `rows` the caller may see, in their order: all of them for a role that reads everything, the ones
/// it finances for a bank (one statement).
pub async fn parties(
    db: &impl ConnectionTrait,
    caller: &Caller,
    rows: Vec<party::Model>,
) -> Result<Vec<Seen<party::Model>>, ServiceError> {
    let scope = readable(caller)?;
    let Scope::Bank(bank) = scope else {
        return Ok(rows.into_iter().map(Seen).collect());
    };
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let financed = financed_by(db, bank, rows.iter().map(|p| p.id)).await?;
    let persons = rows
        .iter()
        .filter(|p| financed.contains(&p.id) && crate::privacy::is_person(p))
        .map(|p| p.id);
    let names = filed_names(db, bank, persons).await?;
    Ok(rows
        .into_iter()
        .filter(|p| financed.contains(&p.id))
        .map(|p| {
            let filed = names.get(&p.id).map(String::as_str);
            Seen(as_filed(p, filed))
        })
        .collect())
}

/// One party, when the caller may see it.
pub async fn party(
    db: &impl ConnectionTrait,
    caller: &Caller,
    row: party::Model,
) -> Result<Option<Seen<party::Model>>, ServiceError> {
    Ok(parties(db, caller, vec![row]).await?.pop())
}

/// The economic groups of `rows` the caller may see: all for a role that reads everything; for a bank, the groups
/// with a member it finances.
pub async fn groups(
    db: &impl ConnectionTrait,
    caller: &Caller,
    rows: Vec<economic_group::Model>,
) -> Result<Vec<Seen<economic_group::Model>>, ServiceError> {
    let Scope::Bank(bank) = readable(caller)? else {
        return Ok(rows.into_iter().map(Seen).collect());
    };
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<i64> = rows.iter().map(|g| g.id).collect();
    let members: Vec<(i64, Option<i64>)> = party::Entity::find()
        .select_only()
        .column(party::Column::Id)
        .column(party::Column::EconomicGroupId)
        .filter(party::Column::EconomicGroupId.is_in(ids))
        .into_tuple()
        .all(db)
        .await?;
    let financed = financed_by(db, bank, members.iter().map(|(p, _)| *p)).await?;
    let seen: HashSet<i64> = members
        .into_iter()
        .filter(|(p, _)| financed.contains(p))
        .filter_map(|(_, g)| g)
        .collect();
    Ok(rows.into_iter().filter(|g| seen.contains(&g.id)).map(Seen).collect())
}

/// One economic group, when the caller may see it.
pub async fn group(
    db: &impl ConnectionTrait,
    caller: &Caller,
    row: economic_group::Model,
) -> Result<Option<Seen<economic_group::Model>>, ServiceError> {
    Ok(groups(db, caller, vec![row]).await?.pop())
}

/// The flags of `rows` the caller may see: all for a role that reads everything; for a bank, the flags of its own
/// cartas, projects and reports, and its own (one statement).
pub async fn flags(
    db: &impl ConnectionTrait,
    caller: &Caller,
    rows: Vec<compliance_flag::Model>,
) -> Result<Vec<Seen<compliance_flag::Model>>, ServiceError> {
    let Scope::Bank(_) = readable(caller)? else {
        return Ok(rows.into_iter().map(Seen).collect());
    };
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let filter = crate::flags::scoped(caller, crate::flags::FlagFilter::default())?;
    let ids: Vec<i64> = rows.iter().map(|f| f.id).collect();
    let within: HashSet<i64> = compliance_flag::Entity::find()
        .select_only()
        .column(compliance_flag::Column::Id)
        .filter(compliance_flag::Column::Id.is_in(ids))
        .filter(filter.condition())
        .into_tuple::<i64>()
        .all(db)
        .await?
        .into_iter()
        .collect();
    Ok(rows.into_iter().filter(|f| within.contains(&f.id)).map(Seen).collect())
}

/// A page of flags, with the flags the caller may not see left out.
pub async fn flag_page(
    db: &impl ConnectionTrait,
    caller: &Caller,
    page: crate::page::Page<compliance_flag::Model>,
) -> Result<crate::page::Page<Seen<compliance_flag::Model>>, ServiceError> {
    let (ids, rows): (Vec<i64>, Vec<compliance_flag::Model>) = page.items.into_iter().unzip();
    let seen = flags(db, caller, rows).await?;
    let mut seen = seen.into_iter().peekable();
    let mut items = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(f) = seen.next_if(|f| f.id == id) {
            items.push((id, f));
        }
    }
    Ok(crate::page::Page {
        items,
        has_next_page: page.has_next_page,
        has_previous_page: page.has_previous_page,
        total_count: page.total_count,
    })
}

/// One flag, when the caller may see it.
pub async fn flag(
    db: &impl ConnectionTrait,
    caller: &Caller,
    row: compliance_flag::Model,
) -> Result<Option<Seen<compliance_flag::Model>>, ServiceError> {
    Ok(flags(db, caller, vec![row]).await?.pop())
}

/// A bulk import: an administrator's record, seen by the roles that read everything, never by a bank.
pub fn fact_import(caller: &Caller, row: fact_import::Model) -> Option<Seen<fact_import::Model>> {
    matches!(caller.scope(), Scope::All).then_some(Seen(row))
}

/// A job run: an operator's record (every bank's ingestion counts), never seen by a bank.
pub fn job_run(caller: &Caller, row: job_run::Model) -> Option<Seen<job_run::Model>> {
    matches!(caller.scope(), Scope::All).then_some(Seen(row))
}

/// The caller's scope, refusing a caller who may read nothing.
fn readable(caller: &Caller) -> Result<Scope, ServiceError> {
    crate::access::read_scope(caller)?;
    Ok(caller.scope())
}

/// Which of `parties` bank `bank` finances (a carta or project through it).
async fn financed_by(
    db: &impl ConnectionTrait,
    bank: i64,
    parties: impl Iterator<Item = i64>,
) -> Result<HashSet<i64>, ServiceError> {
    use entity::financing::{Column as C, Entity};
    let ids: Vec<i64> = parties.collect::<HashSet<_>>().into_iter().collect();
    let mut out = HashSet::new();
    // Bounded lists of placeholders (SQLite's limit is 32,766).
    for chunk in ids.chunks(5_000) {
        let rows: Vec<i64> = Entity::find()
            .select_only()
            .column(C::PartyId)
            .distinct()
            .filter(C::BankId.eq(bank))
            .filter(C::PartyId.is_in(chunk.to_vec()))
            .into_tuple()
            .all(db)
            .await?;
        out.extend(rows);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caller::Role;

    /// A row of one bank, as a carta, project or report is.
    #[derive(Debug)]
    struct Row(i64);

    impl OfBank for Row {
        fn bank_of(&self) -> i64 {
            self.0
        }
    }

    fn carta(bank: i64) -> Row {
        Row(bank)
    }

    #[test]
    fn a_bank_sees_its_own_rows_and_every_other_reader_all_of_them() {
        let bank = Caller::Key {
            id: 1,
            name: "b".into(),
            role: Role::Bank,
            bank: Some(7),
        };
        let analyst = Caller::Key {
            id: 2,
            name: "a".into(),
            role: Role::Analyst,
            bank: None,
        };
        assert!(of_bank(&bank, carta(7)).is_some());
        assert!(of_bank(&bank, carta(8)).is_none());
        assert!(of_bank(&analyst, carta(8)).is_some());
        assert!(of_bank(&Caller::Anonymous, carta(7)).is_none());
        let seen = of_banks(&bank, [carta(8), carta(7), carta(9)]);
        assert_eq!(seen.iter().map(|c| c.bank_of()).collect::<Vec<_>>(), vec![7]);
    }
}
