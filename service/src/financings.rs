//! The financing query every list reads (and the exports to come): both programmes over the `financing` view, one
//! typed filter, explicit ordering with stable ties, and whose financings are listed.

use crate::{
    ServiceError,
    messages::{self, Message, code},
};
use chrono::NaiveDate;
use entity::{
    bank,
    domain::{Document, IbgeCode, Money},
    fco_carta, financing, party, social_fuel_project, vocab,
};
use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, Condition, ConnectionTrait, EntityTrait, Order, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
    QueryTrait, sea_query::NullOrdering,
};

type Result<T> = std::result::Result<T, ServiceError>;

/// Which financings: every given field must match; a list matches any of its values.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    /// Only these programmes.
    pub programmes: Option<Vec<vocab::Programme>>,
    /// Only through these banks.
    pub bank_ids: Option<Vec<i64>>,
    /// Only in these municipalities (IBGE codes).
    pub municipality_codes: Option<Vec<i32>>,
    /// Only with an IBGE code in one of the ranges of each list (a list of UFs' ranges, a list of regions').
    pub code_ranges: Vec<Vec<(i32, i32)>>,
    /// Only in these cross-programme statuses.
    pub statuses: Option<Vec<vocab::FinancingStatus>>,
    /// Filed or submitted on or after.
    pub submitted_from: Option<NaiveDate>,
    /// Filed or submitted on or before.
    pub submitted_to: Option<NaiveDate>,
    /// Amount at least.
    pub amount_min: Option<Decimal>,
    /// Amount at most.
    pub amount_max: Option<Decimal>,
    /// Of this CPF or CNPJ (a CNPJ matches every branch), in any punctuation.
    pub document: Option<String>,
    /// Of a borrower whose name contains this, accents and case ignored (resolved by [`resolve`]).
    pub borrower_name: Option<String>,
    /// Of these parties (what [`resolve`] makes of `borrower_name`).
    pub party_ids: Option<Vec<i64>>,
    /// Only social-fuel projects, in these stages.
    pub project_stages: Option<Vec<vocab::SocialFuelStage>>,
    /// Only FCO cartas, in these stages.
    pub carta_stages: Option<Vec<vocab::FcoCartaStage>>,
}

/// Whose financings are listed.
#[derive(Debug, Clone, Default)]
pub enum Whose {
    /// Everyone's.
    #[default]
    All,
    /// One bank's.
    Bank(i64),
    /// One party's.
    Party(i64),
    /// Every branch of one company.
    CnpjRoot(String),
}

/// What financings are sorted by; ties are broken by programme and then creation order, so pages are stable.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OrderField {
    /// Filing or submission date (undated last).
    #[default]
    SubmittedOn,
    /// Decision date (undecided last).
    DecidedOn,
    /// Financing approval or contracting date (not yet last).
    ContractedOn,
    /// Amount.
    Amount,
}

/// A listing: which, whose, and in what order.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Which.
    pub filter: Filter,
    /// Whose.
    pub whose: Whose,
    /// Sorted by.
    pub order: OrderField,
    /// Largest first.
    pub descending: bool,
    /// Only this bank's: the caller's scope, set by [`resolve`].
    pub bank_scope: Option<i64>,
}

fn bad(field: &'static str, message: Message) -> ServiceError {
    ServiceError::bad(field, message)
}

fn money(field: &'static str, d: Decimal) -> Result<Money> {
    Money::from_decimal(d).map_err(|e| bad(field, messages::amount(&e)))
}

fn parties_of_root(root: &str) -> sea_orm::sea_query::SelectStatement {
    party::Entity::find()
        .select_only()
        .column(party::Column::Id)
        .filter(party::Column::CnpjRoot.eq(root))
        .into_query()
}

fn parties_of(document: &Document) -> sea_orm::sea_query::SelectStatement {
    match document.cnpj_root() {
        Some(root) => parties_of_root(root),
        None => party::Entity::find()
            .select_only()
            .column(party::Column::Id)
            .filter(party::Column::Document.eq(document.as_str()))
            .into_query(),
    }
}

/// The SQL condition of a query, refusing bad values with the field named.
fn condition(q: &Query) -> Result<Condition> {
    use financing::Column as C;
    let f = &q.filter;
    let mut c = Condition::all();
    if let Some(p) = &f.programmes {
        c = c.add(C::Programme.is_in(p.iter().copied()));
    }
    if let Some(ids) = &f.bank_ids {
        c = c.add(C::BankId.is_in(ids.iter().copied()));
    }
    if let Some(codes) = &f.municipality_codes {
        if let Some(bad_code) = codes
            .iter()
            .find(|code| u32::try_from(**code).ok().and_then(|c| IbgeCode::new(c).ok()).is_none())
        {
            return Err(bad(
                "filter.municipalityCodes",
                Message::new(code::IBGE_INVALID).arg("value", bad_code),
            ));
        }
        c = c.add(C::MunicipalityCode.is_in(codes.iter().copied()));
    }
    for ranges in &f.code_ranges {
        c = c.add(ranges.iter().fold(Condition::any(), |any, (lo, hi)| {
            any.add(C::MunicipalityCode.between(*lo, *hi))
        }));
    }
    if let Some(s) = &f.statuses {
        c = c.add(C::Status.is_in(s.iter().copied()));
    }
    if let (Some(from), Some(to)) = (f.submitted_from, f.submitted_to)
        && from > to
    {
        return Err(bad(
            "filter.submittedFrom",
            Message::new(code::DATE_RANGE_INVERTED).arg("other", "filter.submittedTo"),
        ));
    }
    if let Some(d) = f.submitted_from {
        c = c.add(C::SubmittedOn.gte(d));
    }
    if let Some(d) = f.submitted_to {
        c = c.add(C::SubmittedOn.lte(d));
    }
    if let Some(d) = f.amount_min {
        c = c.add(C::Amount.gte(money("filter.amountMin", d)?));
    }
    if let Some(d) = f.amount_max {
        c = c.add(C::Amount.lte(money("filter.amountMax", d)?));
    }
    if let Some(doc) = &f.document {
        let document = Document::parse(doc).map_err(|e| bad("filter.document", messages::document(&e)))?;
        c = c.add(C::PartyId.in_subquery(parties_of(&document)));
    }
    if let Some(ids) = &f.party_ids {
        c = c.add(C::PartyId.is_in(ids.iter().copied()));
    }
    if let Some(stages) = &f.project_stages {
        let ids = social_fuel_project::Entity::find()
            .select_only()
            .column(social_fuel_project::Column::Id)
            .filter(social_fuel_project::Column::Stage.is_in(stages.iter().copied()))
            .into_query();
        c = c
            .add(C::Programme.eq(vocab::Programme::SocialFuel))
            .add(C::RecordId.in_subquery(ids));
    }
    if let Some(stages) = &f.carta_stages {
        let ids = fco_carta::Entity::find()
            .select_only()
            .column(fco_carta::Column::Id)
            .filter(fco_carta::Column::Stage.is_in(stages.iter().copied()))
            .into_query();
        c = c
            .add(C::Programme.eq(vocab::Programme::FcoRural))
            .add(C::RecordId.in_subquery(ids));
    }
    if let Some(b) = q.bank_scope {
        c = c.add(C::BankId.eq(b));
    }
    match &q.whose {
        Whose::All => {}
        Whose::Bank(id) => c = c.add(C::BankId.eq(*id)),
        Whose::Party(id) => c = c.add(C::PartyId.eq(*id)),
        Whose::CnpjRoot(root) => c = c.add(C::PartyId.in_subquery(parties_of_root(root))),
    }
    Ok(c)
}

/// How many borrowers a name search may stand for in a financing filter.
const BORROWERS_PER_NAME: u64 = 1000;

/// Limits the query to what `caller` may read, and turns its borrower name into the parties it names (one search,
/// before the count and the page). Every listing and export of financings goes through it.
pub async fn resolve(db: &impl ConnectionTrait, caller: &crate::Caller, q: &mut Query) -> Result<()> {
    q.bank_scope = crate::access::read_scope(caller)?;
    if let Some(name) = q.filter.borrower_name.take() {
        let found = parties_by_name(db, &name, BORROWERS_PER_NAME)
            .await
            .map_err(|e| match e {
                ServiceError::BadInput { message, .. } => ServiceError::bad("filter.borrowerName", message),
                other => other,
            })?;
        q.filter.party_ids = Some(found.into_iter().map(|p| p.id).collect());
    }
    Ok(())
}

/// The SQL condition of a query over the `financing` view (for the exports).
pub(crate) fn condition_of(q: &Query) -> Result<Condition> {
    condition(q)
}

/// Checks a query without running it: its errors name the field.
pub fn check(q: &Query) -> Result<()> {
    condition(q).map(|_| ())
}

/// How many financings the query matches.
pub async fn count(db: &impl ConnectionTrait, q: &Query) -> Result<u64> {
    Ok(financing::Entity::find().filter(condition(q)?).count(db).await?)
}

/// One window of the query's rows, in its order.
pub async fn rows(db: &impl ConnectionTrait, q: &Query, offset: u64, limit: u64) -> Result<Vec<financing::Model>> {
    use financing::Column as C;
    let column = match q.order {
        OrderField::SubmittedOn => C::SubmittedOn,
        OrderField::DecidedOn => C::DecidedOn,
        OrderField::ContractedOn => C::ContractedOn,
        OrderField::Amount => C::Amount,
    };
    let order = if q.descending { Order::Desc } else { Order::Asc };
    Ok(financing::Entity::find()
        .filter(condition(q)?)
        .order_by_with_nulls(column, order, NullOrdering::Last)
        .order_by_asc(C::Programme)
        .order_by_asc(C::RecordId)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?)
}

/// The party with this CPF or CNPJ; for a CNPJ whose branch is not registered, another branch of the company.
pub async fn party_by_document(
    db: &impl ConnectionTrait,
    caller: &crate::Caller,
    document: &str,
) -> Result<party::Model> {
    let doc = Document::parse(document).map_err(|e| bad("document", messages::document(&e)))?;
    let exact = party::Entity::find()
        .filter(party::Column::Document.eq(doc.as_str()))
        .one(db)
        .await?;
    let found = match exact {
        Some(p) => Some(p),
        None if doc.cnpj_root().is_some() => party::Entity::find_by_document(&doc).one(db).await?,
        None => None,
    };
    // A party outside the caller's scope (another bank's borrower) answers as one that does not exist.
    let found = match found {
        Some(p) if crate::access::sees_party(db, caller, p.id).await? => Some(p),
        _ => None,
    };
    found.ok_or_else(|| ServiceError::not_found("document", Message::new(code::PARTY_UNKNOWN).arg("document", doc)))
}

/// How many banks there are.
pub async fn bank_count(db: &impl ConnectionTrait) -> Result<u64> {
    Ok(bank::Entity::find().count(db).await?)
}

/// One window of the banks, by name.
pub async fn banks(db: &impl ConnectionTrait, offset: u64, limit: u64) -> Result<Vec<bank::Model>> {
    Ok(bank::Entity::find()
        .order_by_asc(bank::Column::Name)
        .order_by_asc(bank::Column::Id)
        .offset(offset)
        .limit(limit)
        .all(db)
        .await?)
}

/// The other registered branches of a company (same CNPJ root), `except` left out, by document.
pub async fn branches(db: &impl ConnectionTrait, root: &str, except: i64) -> Result<Vec<party::Model>> {
    Ok(party::Entity::find()
        .filter(party::Column::CnpjRoot.eq(root))
        .filter(party::Column::Id.ne(except))
        .order_by_asc(party::Column::Document)
        .all(db)
        .await?)
}

/// The members of an economic group, by name.
pub async fn group_members(db: &impl ConnectionTrait, group: i64) -> Result<Vec<party::Model>> {
    Ok(party::Entity::find()
        .filter(party::Column::EconomicGroupId.eq(group))
        .order_by_asc(party::Column::Name)
        .all(db)
        .await?)
}

/// A name folded for searching: lower case, Portuguese accents removed, runs of spaces made one.
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        let plain = match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            c if c.is_whitespace() => ' ',
            c => c,
        };
        if !(plain == ' ' && out.ends_with(' ')) {
            out.push(plain);
        }
    }
    out.trim().to_owned()
}

/// The `LIKE` pattern that finds every name whose folded form contains `folded`: each letter that has accented forms
/// (and anything not a plain letter or digit) matches any one character, so the database narrows the candidates and
/// [`fold`] decides.
fn like_pattern(folded: &str) -> String {
    let body: String = folded
        .chars()
        .map(|c| match c {
            'a' | 'e' | 'i' | 'o' | 'u' | 'c' | 'n' => '_',
            c if c.is_ascii_alphanumeric() => c,
            _ => '_',
        })
        .collect();
    format!("%{body}%")
}

/// Parties whose name contains `search`, accents and case ignored, by name; at most `limit`.
pub async fn parties_by_name(db: &impl ConnectionTrait, search: &str, limit: u64) -> Result<Vec<party::Model>> {
    let folded = fold(search);
    if folded.chars().count() < 2 {
        return Err(ServiceError::bad("search", Message::new(code::SEARCH_TOO_SHORT)));
    }
    use sea_orm::sea_query::{Expr, ExprTrait, Func};
    let candidates = party::Entity::find()
        .filter(Expr::expr(Func::lower(Expr::col(party::Column::Name))).like(like_pattern(&folded)))
        .order_by_asc(party::Column::Name)
        .order_by_asc(party::Column::Id)
        .limit(std::cmp::Ord::max(limit.saturating_mul(20), 200))
        .all(db)
        .await?;
    Ok(candidates
        .into_iter()
        .filter(|p| fold(&p.name).contains(&folded))
        .take(usize::try_from(limit).unwrap_or(usize::MAX))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::{fold, like_pattern};

    #[test]
    fn names_fold_to_lower_case_without_accents() {
        assert_eq!(fold("  JOÃO  da Conceição "), "joao da conceicao");
        assert_eq!(fold("Açaí Ñandú"), "acai nandu");
        assert_eq!(like_pattern("joao"), "%j___%");
        assert_eq!(like_pattern("x1%"), "%x1_%");
    }
}
