//! The financing query every list reads (and the exports to come): both programmes over the `financing` view, one
//! typed filter, explicit ordering with stable ties, and whose financings are listed.
//!
//! Size: the one financing query with its filter, orderings and cursors, kept together because each must match the
//! others (a cursor is valid only for its ordering).

use crate::positional::Positional;
use crate::{
    ServiceError,
    messages::{self, Message, code},
    page,
};
use chrono::NaiveDate;
use entity::{
    bank,
    domain::{Document, IbgeCode, Money},
    fco_carta, financing, municipality, party, social_fuel_project, vocab,
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
    /// Decided (an FCO carta approved or not, a social-fuel project's MDA decision) on or after.
    pub decided_from: Option<NaiveDate>,
    /// Decided on or before.
    pub decided_to: Option<NaiveDate>,
    /// Contracted (an FCO carta) or its financing approved (a social-fuel project) on or after.
    pub contracted_from: Option<NaiveDate>,
    /// Contracted on or before.
    pub contracted_to: Option<NaiveDate>,
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

/// The columns a query's condition and order read, in the `financing` view or in one programme's own table.
pub struct Cols<C> {
    /// The view's programme column; `None` for a programme's own table, which is of `own`.
    programme: Option<C>,
    own: Option<vocab::Programme>,
    record_id: C,
    bank_id: C,
    party_id: C,
    municipality_code: C,
    amount: C,
    status: C,
    submitted_on: C,
    decided_on: C,
    contracted_on: C,
}

fn view_cols() -> Cols<financing::Column> {
    use financing::Column as C;
    Cols {
        programme: Some(C::Programme),
        own: None,
        record_id: C::RecordId,
        bank_id: C::BankId,
        party_id: C::PartyId,
        municipality_code: C::MunicipalityCode,
        amount: C::Amount,
        status: C::Status,
        submitted_on: C::SubmittedOn,
        decided_on: C::DecidedOn,
        contracted_on: C::ContractedOn,
    }
}

fn carta_cols() -> Cols<fco_carta::Column> {
    use fco_carta::Column as C;
    Cols {
        programme: None,
        own: Some(<fco_carta::Entity as Listed>::PROGRAMME),
        record_id: C::Id,
        bank_id: C::BankId,
        party_id: C::PartyId,
        municipality_code: C::MunicipalityCode,
        amount: C::FinancedAmount,
        status: C::Status,
        submitted_on: C::SubmittedOn,
        decided_on: C::DecidedOn,
        contracted_on: C::ContractedOn,
    }
}

fn project_cols() -> Cols<social_fuel_project::Column> {
    use social_fuel_project::Column as C;
    Cols {
        programme: None,
        own: Some(<social_fuel_project::Entity as Listed>::PROGRAMME),
        record_id: C::Id,
        bank_id: C::BankId,
        party_id: C::PartyId,
        municipality_code: C::PlantMunicipalityCode,
        amount: C::RequestedAmount,
        status: C::Status,
        submitted_on: C::FiledOn,
        decided_on: C::DecidedOn,
        contracted_on: C::FinancingApprovedOn,
    }
}

/// A condition no row meets (a programme's own table asked for the other programme).
fn nothing() -> Condition {
    use sea_orm::sea_query::{Expr, ExprTrait};
    Condition::all().add(Expr::val(1).eq(Expr::val(0)))
}

/// The SQL condition of a query over the `financing` view, refusing bad values with the field named.
fn condition(q: &Query) -> Result<Condition> {
    use financing::Column as C;
    let f = &q.filter;
    let mut c = condition_on(q, &view_cols())?;
    let in_stages = [
        in_stages::<social_fuel_project::Entity>(f),
        in_stages::<fco_carta::Entity>(f),
    ];
    for (programme, ids) in in_stages.into_iter().flatten() {
        c = c.add(C::Programme.eq(programme)).add(C::RecordId.in_subquery(ids));
    }
    Ok(c)
}

/// When the filter names `E`'s stages: its programme, and the ids of its rows in them (for the view's condition).
fn in_stages<E: Listed>(f: &Filter) -> Option<(vocab::Programme, sea_orm::sea_query::SelectStatement)> {
    let (_, own) = E::stages(f);
    let own = own?;
    let cols = E::cols();
    let ids = E::find().select_only().column(cols.record_id).filter(own).into_query();
    Some((cols.own?, ids))
}

/// The condition of the fields both programmes share, over `cols`.
fn condition_on<C: ColumnTrait>(q: &Query, cols: &Cols<C>) -> Result<Condition> {
    let f = &q.filter;
    let mut c = Condition::all();
    if let Some(p) = &f.programmes {
        match (&cols.programme, cols.own) {
            (Some(col), _) => c = c.add(col.is_in(p.iter().copied())),
            (None, Some(own)) if !p.contains(&own) => c = c.add(nothing()),
            (None, _) => {}
        }
    }
    if let Some(ids) = &f.bank_ids {
        c = c.add(cols.bank_id.is_in(ids.iter().copied()));
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
        c = c.add(cols.municipality_code.is_in(codes.iter().copied()));
    }
    for ranges in &f.code_ranges {
        c = c.add(ranges.iter().fold(Condition::any(), |any, (lo, hi)| {
            any.add(cols.municipality_code.between(*lo, *hi))
        }));
    }
    if let Some(s) = &f.statuses {
        c = c.add(cols.status.is_in(s.iter().copied()));
    }
    for (from, to, from_name, to_name, col) in [
        (
            f.submitted_from,
            f.submitted_to,
            "filter.submittedFrom",
            "filter.submittedTo",
            &cols.submitted_on,
        ),
        (
            f.decided_from,
            f.decided_to,
            "filter.decidedFrom",
            "filter.decidedTo",
            &cols.decided_on,
        ),
        (
            f.contracted_from,
            f.contracted_to,
            "filter.contractedFrom",
            "filter.contractedTo",
            &cols.contracted_on,
        ),
    ] {
        if let (Some(from), Some(to)) = (from, to)
            && from > to
        {
            return Err(bad(
                from_name,
                Message::new(code::DATE_RANGE_INVERTED).arg("other", to_name),
            ));
        }
        if let Some(d) = from {
            c = c.add(col.gte(d));
        }
        if let Some(d) = to {
            c = c.add(col.lte(d));
        }
    }
    if let Some(d) = f.amount_min {
        c = c.add(cols.amount.gte(money("filter.amountMin", d)?));
    }
    if let Some(d) = f.amount_max {
        c = c.add(cols.amount.lte(money("filter.amountMax", d)?));
    }
    if let Some(doc) = &f.document {
        let document = Document::parse(doc).map_err(|e| bad("filter.document", messages::document(&e)))?;
        c = c.add(cols.party_id.in_subquery(parties_of(&document)));
    }
    if let Some(ids) = &f.party_ids {
        c = c.add(cols.party_id.is_in(ids.iter().copied()));
    }
    if let Some(b) = q.bank_scope {
        c = c.add(cols.bank_id.eq(b));
    }
    match &q.whose {
        Whose::All => {}
        Whose::Bank(id) => c = c.add(cols.bank_id.eq(*id)),
        Whose::Party(id) => c = c.add(cols.party_id.eq(*id)),
        Whose::CnpjRoot(root) => c = c.add(cols.party_id.in_subquery(parties_of_root(root))),
    }
    Ok(c)
}

/// A programme's own table, as its typed list reads it ([`listed_rows`], [`listed_count`]).
pub trait Listed: EntityTrait<Model: Positional + Send + Sync> {
    /// The programme whose financings it holds.
    const PROGRAMME: vocab::Programme;
    /// Its columns under the query's names (its bank, party and municipality are also the keys of the related rows a
    /// page joins).
    fn cols() -> Cols<Self::Column>;
    /// What the filter's stages make of it: whether the filter names the other programme's stages (so none of this
    /// table matches), and the condition on its own.
    fn stages(f: &Filter) -> (bool, Option<Condition>);
}

impl Listed for fco_carta::Entity {
    const PROGRAMME: vocab::Programme = vocab::Programme::FcoRural;

    fn cols() -> Cols<fco_carta::Column> {
        carta_cols()
    }

    fn stages(f: &Filter) -> (bool, Option<Condition>) {
        let own = f.carta_stages.as_ref();
        let own = own.map(|s| Condition::all().add(fco_carta::Column::Stage.is_in(s.iter().copied())));
        (f.project_stages.is_some(), own)
    }
}

impl Listed for social_fuel_project::Entity {
    const PROGRAMME: vocab::Programme = vocab::Programme::SocialFuel;

    fn cols() -> Cols<social_fuel_project::Column> {
        project_cols()
    }

    fn stages(f: &Filter) -> (bool, Option<Condition>) {
        let own = f.project_stages.as_ref();
        let own = own.map(|s| Condition::all().add(social_fuel_project::Column::Stage.is_in(s.iter().copied())));
        (f.carta_stages.is_some(), own)
    }
}

/// The condition of a query over a programme's own table (a typed list).
fn listed_condition<E: Listed>(q: &Query) -> Result<Condition> {
    let mut c = condition_on(q, &E::cols())?;
    let (other, own) = E::stages(&q.filter);
    if other {
        c = c.add(nothing());
    }
    if let Some(own) = own {
        c = c.add(own);
    }
    Ok(c)
}

/// How many borrowers a name search may stand for in a financing filter.
const BORROWERS_PER_NAME: u64 = 1000;

/// Limits the query to what `caller` may read, and turns its borrower name into the parties it names (one search,
/// before the count and the page). Every listing and export of financings goes through it.
pub async fn resolve(db: &impl ConnectionTrait, caller: &crate::Caller, q: &mut Query) -> Result<()> {
    q.bank_scope = crate::access::read_scope(caller)?;
    if let Some(doc) = &q.filter.document
        && let Ok(document) = Document::parse(doc)
        && matches!(document, Document::Cpf(_))
    {
        crate::privacy::may_look_up_cpf(caller, "filter.document")?;
        // A person the caller sees masked matches nothing, as one that does not exist.
        let persons = party::Entity::find_by_document(&document).all(db).await?;
        let ids: Vec<i64> = crate::privacy::findable(db, caller, persons)
            .await?
            .into_iter()
            .map(|p| p.id)
            .collect();
        q.filter.party_ids = Some(match q.filter.party_ids.take() {
            Some(before) => before.into_iter().filter(|id| ids.contains(id)).collect(),
            None => ids,
        });
    }
    if let Some(name) = q.filter.borrower_name.take() {
        let found = parties_by_name(db, caller, &name, BORROWERS_PER_NAME)
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

impl OrderField {
    /// The schema's name of the ordering (`AMOUNT`), written into cursors so that a cursor is read only by the
    /// ordering it was issued for.
    pub fn name(self) -> &'static str {
        match self {
            OrderField::SubmittedOn => "SUBMITTED_ON",
            OrderField::DecidedOn => "DECIDED_ON",
            OrderField::ContractedOn => "CONTRACTED_ON",
            OrderField::Amount => "AMOUNT",
        }
    }

    /// Whether a financing may have no value of the field (an undated one), which then sorts last.
    fn nullable(self) -> bool {
        self != OrderField::Amount
    }

    /// The field's column among `cols`.
    fn column<C: Copy>(self, cols: &Cols<C>) -> C {
        match self {
            OrderField::SubmittedOn => cols.submitted_on,
            OrderField::DecidedOn => cols.decided_on,
            OrderField::ContractedOn => cols.contracted_on,
            OrderField::Amount => cols.amount,
        }
    }
}

/// A financing's value of the sorted field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SortValue {
    /// A date.
    Date(NaiveDate),
    /// An amount.
    Amount(Money),
}

impl From<SortValue> for sea_orm::Value {
    fn from(v: SortValue) -> Self {
        match v {
            SortValue::Date(d) => d.into(),
            SortValue::Amount(m) => m.into(),
        }
    }
}

/// Where a financing stands in a list sorted by one field: its value of the field (none sorts last), then its
/// programme and id, which no other financing shares. A cursor holds it ([`cursor`]), so the next page starts right
/// after this financing whatever was inserted, changed or deleted since, the financing itself included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    value: Option<SortValue>,
    programme: vocab::Programme,
    id: i64,
}

impl Position {
    /// Reads a cursor given as `arg` for a list sorted by `order`.
    fn decode(order: OrderField, text: &str, arg: &'static str) -> Result<Self> {
        let c = page::decode_sorted(text, arg, order.name())?;
        let value = match (c.value.as_str(), order) {
            ("null", o) if o.nullable() => None,
            (v, OrderField::Amount) => Some(SortValue::Amount(Money::from_cents(
                v.parse().map_err(|_| page::bad_cursor(arg))?,
            ))),
            (v, _) => Some(SortValue::Date(
                NaiveDate::parse_from_str(v, "%Y-%m-%d").map_err(|_| page::bad_cursor(arg))?,
            )),
        };
        let programme = <vocab::Programme as sea_orm::ActiveEnum>::try_from_value(&c.programme)
            .map_err(|_| page::bad_cursor(arg))?;
        Ok(Self {
            value,
            programme,
            id: c.id,
        })
    }

    /// The id to break ties with in a list of one programme (`own`): a position in the other programme stands before
    /// or after every row of `own` with the same value, as the programmes sort.
    fn tie_id(&self, own: Option<vocab::Programme>) -> i64 {
        use sea_orm::ActiveEnum;
        match own.map(|own| own.to_value().cmp(&self.programme.to_value())) {
            None | Some(std::cmp::Ordering::Equal) => self.id,
            Some(std::cmp::Ordering::Greater) => i64::MIN,
            Some(std::cmp::Ordering::Less) => i64::MAX,
        }
    }
}

/// A row a financing list is sorted over.
pub trait Sorted {
    /// Where the row stands in a list sorted by `order`.
    fn position(&self, order: OrderField) -> Position;
}

/// The position of a financing of `programme` with these dates (submission, decision, contracting), amount and id.
fn position(
    order: OrderField,
    dates: [Option<NaiveDate>; 3],
    amount: Money,
    programme: vocab::Programme,
    id: i64,
) -> Position {
    let value = match order {
        OrderField::SubmittedOn => dates[0].map(SortValue::Date),
        OrderField::DecidedOn => dates[1].map(SortValue::Date),
        OrderField::ContractedOn => dates[2].map(SortValue::Date),
        OrderField::Amount => Some(SortValue::Amount(amount)),
    };
    Position { value, programme, id }
}

impl Sorted for financing::Model {
    fn position(&self, order: OrderField) -> Position {
        let dates = [self.submitted_on, self.decided_on, self.contracted_on];
        position(order, dates, self.amount, self.programme, self.record_id)
    }
}

impl Sorted for fco_carta::Model {
    fn position(&self, order: OrderField) -> Position {
        let dates = [self.submitted_on, self.decided_on, self.contracted_on];
        position(order, dates, self.financed_amount, vocab::Programme::FcoRural, self.id)
    }
}

impl Sorted for social_fuel_project::Model {
    fn position(&self, order: OrderField) -> Position {
        let dates = [self.filed_on, self.decided_on, self.financing_approved_on];
        position(
            order,
            dates,
            self.requested_amount,
            vocab::Programme::SocialFuel,
            self.id,
        )
    }
}

/// The cursor of `row` in a list sorted by `order`: `v2:<ordering>:<value or null>:<programme>:<id>` in base64, the
/// same for the row in every list of financings (both programmes' or its own programme's).
pub fn cursor(order: OrderField, row: &impl Sorted) -> String {
    use sea_orm::ActiveEnum;
    let p = row.position(order);
    let value = p.value.map(|v| match v {
        SortValue::Date(d) => d.format("%Y-%m-%d").to_string(),
        SortValue::Amount(m) => m.cents().to_string(),
    });
    page::sorted_cursor(order.name(), value.as_deref(), &p.programme.to_value(), p.id)
}

/// A page request over a list of financings.
pub type Seek = page::Seek<Position>;

/// Checks a client's page arguments for a list sorted by `order`, reading its cursors.
pub fn seek(
    order: OrderField,
    first: Option<i32>,
    after: Option<&str>,
    last: Option<i32>,
    before: Option<&str>,
) -> Result<Seek> {
    Seek::parse(first, after, last, before, |text, arg| {
        Position::decode(order, text, arg)
    })
}

/// The query's order over `cols`: its field (nulls last), then programme, then creation order; reversed for a page
/// read from its end (`last`), which the same indexes serve read backwards.
fn ordered<E: EntityTrait>(
    select: sea_orm::Select<E>,
    q: &Query,
    cols: &Cols<E::Column>,
    backward: bool,
) -> sea_orm::Select<E> {
    let key = if q.descending != backward {
        Order::Desc
    } else {
        Order::Asc
    };
    let (ties, nulls) = if backward {
        (Order::Desc, NullOrdering::First)
    } else {
        (Order::Asc, NullOrdering::Last)
    };
    let mut select = select.order_by_with_nulls(q.order.column(cols), key, nulls);
    if let Some(p) = cols.programme {
        select = select.order_by(p, ties.clone());
    }
    select.order_by(cols.record_id, ties)
}

/// A page's two runs, when the list is sorted by a field that may be unset: the financings with the field set, in its
/// order, then those without (nulls last), by programme and id. A cursor stands in one run, so each bound is written
/// per run: after a set value come the rest of the set run and the whole unset run; after an unset one, only the rest
/// of the unset run (and before them, the other way round). So no predicate depends on where a backend sorts nulls,
/// and each run's bound ([`page::beyond`]) starts an index scan at the cursor. A list sorted by a field always set is
/// one run (`unset` is `None`).
struct Runs {
    /// The set run's condition with its bounds; `None` when the page's cursors leave nothing of it.
    set: Option<Condition>,
    /// The unset run's bounds: the cursors standing in it, each with whether the page reads after it; `None` when the
    /// page's cursors leave nothing of it, or the field is always set.
    unset: Option<Vec<(Position, bool)>>,
}

/// The keys that break ties at a position: programme and id over the `financing` view, the id (written for this
/// programme, [`Position::tie_id`]) over a programme's own table.
fn ties<C: ColumnTrait>(cols: &Cols<C>, p: &Position) -> Vec<page::SortKey> {
    use sea_orm::ActiveEnum;
    match cols.programme {
        Some(programme) => vec![
            (programme.into_expr(), p.programme.to_value().into(), false),
            (cols.record_id.into_expr(), p.id.into(), false),
        ],
        None => vec![(cols.record_id.into_expr(), p.tie_id(cols.own).into(), false)],
    }
}

/// The runs of a page of the query over `cols` ([`Runs`]).
fn runs<C: ColumnTrait>(q: &Query, cols: &Cols<C>, seek: &Seek) -> Runs {
    use sea_orm::sea_query::ExprTrait;
    let nullable = q.order.nullable();
    let key = q.order.column(cols).into_expr();
    let mut set = Some(Condition::all());
    let mut unset = nullable.then(Vec::new);
    for (bound, after) in [(&seek.after, true), (&seek.before, false)] {
        let Some(p) = bound else { continue };
        match p.value {
            Some(v) => {
                let mut keys = vec![(key.clone(), v.into(), q.descending)];
                keys.extend(ties(cols, p));
                set = set.map(|c| c.add(page::beyond(&keys, after)));
                if !after {
                    unset = None;
                }
            }
            None => {
                if let Some(bounds) = unset.as_mut() {
                    bounds.push((*p, after));
                }
                if after {
                    set = None;
                }
            }
        }
    }
    let set = set.map(|c| if nullable { c.add(key.is_not_null()) } else { c });
    Runs { set, unset }
}

/// The statements a page of a programme's own list reads, in turn, as the condition each adds to the query's: without
/// a cursor, the whole sort in one statement (the indexes serve it); with one, each run the cursors leave
/// ([`runs`]), the next read only when the first did not fill the page.
fn parts<C: ColumnTrait>(q: &Query, cols: &Cols<C>, seek: &Seek) -> Vec<Condition> {
    use sea_orm::sea_query::ExprTrait;
    if seek.from_an_end() {
        return vec![Condition::all()];
    }
    let Runs { set, unset } = runs(q, cols, seek);
    let key = q.order.column(cols).into_expr();
    let unset = unset.map(|bounds| {
        bounds
            .iter()
            .fold(Condition::all(), |c, (p, after)| {
                c.add(page::beyond(&ties(cols, p), *after))
            })
            .add(key.is_null())
    });
    let mut parts: Vec<Condition> = set.into_iter().chain(unset).collect();
    if seek.backward() {
        parts.reverse();
    }
    parts
}

/// A statement of a page of the list over both programmes.
enum ViewPart {
    /// Over the `financing` view, with this condition added to the query's.
    View(Condition),
    /// The unset run of one programme, from its own table by id, within these bounds ([`unset_rows`]).
    Unset(vocab::Programme, Vec<(Position, bool)>),
}

/// The statements a page of the list over both programmes reads, in turn: its set run over the `financing` view, then
/// its unset run one programme at a time, each from its own table by id ([`unset_programmes`]), from either end too.
/// Most of a bank's cartas are undated, and neither backend merges the two tables' id orders under the view's
/// constant `programme`: one statement over the view sorted every undated carta to find a page's first rows (a million
/// cartas: 300–450 ms a page on PostgreSQL, 170–430 ms on SQLite, against about a millisecond from the table).
fn view_parts(q: &Query, seek: &Seek) -> Vec<ViewPart> {
    let Runs { set, unset } = runs(q, &view_cols(), seek);
    let unset = unset.into_iter().flat_map(|bounds| {
        unset_programmes(q, &bounds)
            .into_iter()
            .map(move |own| ViewPart::Unset(own, bounds.clone()))
    });
    let mut parts: Vec<ViewPart> = set.map(ViewPart::View).into_iter().chain(unset).collect();
    if seek.backward() {
        parts.reverse();
    }
    parts
}

/// The programmes whose unset run a page reads, in the order the programmes sort: those the filter leaves out
/// skipped, and those the bounds leave nothing of ([`Position::tie_id`]).
fn unset_programmes(q: &Query, bounds: &[(Position, bool)]) -> Vec<vocab::Programme> {
    use sea_orm::{ActiveEnum, Iterable};
    let mut programmes: Vec<vocab::Programme> = vocab::Programme::iter()
        .filter(|p| q.filter.programmes.as_ref().is_none_or(|only| only.contains(p)))
        .filter(|own| {
            // Every row of this programme is on a cursor's other side.
            !bounds.iter().any(|(p, after)| {
                let id = p.tie_id(Some(*own));
                (*after && id == i64::MAX) || (!*after && id == i64::MIN)
            })
        })
        .collect();
    programmes.sort_by_key(|p| p.to_value());
    programmes
}

/// The unset run of programme `E` in a page of the list over both programmes: the query's rows of its own table
/// without the sorted field, by id within `bounds`, read as rows of the `financing` view (the columns [`Cols`] maps).
fn unset_rows<E: Listed>(q: &Query, bounds: &[(Position, bool)], backward: bool) -> Result<sea_orm::Select<E>> {
    use sea_orm::{ActiveEnum, IdenStatic, sea_query::ExprTrait};
    let cols = E::cols();
    let mut c = listed_condition::<E>(q)?.add(q.order.column(&cols).into_expr().is_null());
    for (p, after) in bounds {
        let id = p.tie_id(Some(E::PROGRAMME));
        c = c.add(page::beyond(&[(cols.record_id.into_expr(), id.into(), false)], *after));
    }
    let view = view_cols();
    let mut select = E::find()
        .select_only()
        .expr_as(sea_orm::sea_query::Expr::val(E::PROGRAMME.to_value()), "programme");
    for (own, as_view) in [
        (cols.record_id, view.record_id),
        (cols.bank_id, view.bank_id),
        (cols.party_id, view.party_id),
        (cols.municipality_code, view.municipality_code),
        (cols.amount, view.amount),
        (cols.status, view.status),
        (cols.submitted_on, view.submitted_on),
        (cols.decided_on, view.decided_on),
        (cols.contracted_on, view.contracted_on),
    ] {
        select = select.column_as(own, as_view.as_str());
    }
    let order = if backward { Order::Desc } else { Order::Asc };
    Ok(select.filter(c).order_by(cols.record_id, order))
}

/// The statements that read a page of `base` (the query's rows of a programme's own table over `cols`), in turn
/// ([`parts`]), each sorted. The page reads them until it holds one row past its size.
fn statements<E: EntityTrait>(
    base: sea_orm::Select<E>,
    q: &Query,
    cols: &Cols<E::Column>,
    seek: &Seek,
) -> Vec<sea_orm::Select<E>> {
    parts(q, cols, seek)
        .into_iter()
        .map(|part| ordered(base.clone().filter(part), q, cols, seek.backward()))
        .collect()
}

/// How many more rows a page reads after `read`: up to one past its size, to tell whether more follow.
fn still_wanted(seek: &Seek, read: usize) -> u64 {
    (seek.size() + 1).saturating_sub(read as u64)
}

/// One page of the query's financings, in its order ([`view_parts`]).
pub async fn rows(db: &impl ConnectionTrait, q: &Query, seek: &Seek) -> Result<page::Slice<financing::Model>> {
    let backend = db.get_database_backend();
    let condition = condition(q)?;
    let mut rows = Vec::new();
    for part in view_parts(q, seek) {
        let left = still_wanted(seek, rows.len());
        if left == 0 {
            break;
        }
        let backward = seek.backward();
        let select = match part {
            ViewPart::View(c) => {
                let base = financing::Entity::find().filter(condition.clone()).filter(c);
                ordered(base, q, &view_cols(), backward).build(backend)
            }
            ViewPart::Unset(vocab::Programme::FcoRural, bounds) => {
                unset_rows::<fco_carta::Entity>(q, &bounds, backward)?.build(backend)
            }
            ViewPart::Unset(vocab::Programme::SocialFuel, bounds) => {
                unset_rows::<social_fuel_project::Entity>(q, &bounds, backward)?.build(backend)
            }
        };
        rows.extend(
            financing::Entity::find()
                .from_raw_sql(limited(select, left))
                .all(db)
                .await?,
        );
    }
    Ok(seek.slice(rows, None))
}

/// A statement with its limit written as a number (`LIMIT 51`), not as a parameter. With `LIMIT $1` PostgreSQL's
/// generic plan does not know how few rows are wanted and costs more than a plan for 51, so the server planned the
/// page's statement again at every execution; with the number in the text it keeps one plan per page size. The
/// limit is an integer of ours, never text from the request.
fn limited(mut statement: sea_orm::Statement, limit: u64) -> sea_orm::Statement {
    use std::fmt::Write;
    let _ = write!(statement.sql, " LIMIT {limit}");
    statement
}

/// Which related rows a typed page reads in its own statement (joined), because the caller will show them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Joined {
    /// The bank.
    pub bank: bool,
    /// The borrower.
    pub party: bool,
    /// The municipality (the plant's, for a project).
    pub municipality: bool,
}

/// A row of a typed page: the financing and the related rows asked for ([`Joined`]).
#[derive(Debug, Clone)]
pub struct Row<M> {
    /// The carta or project.
    pub model: M,
    /// Its bank, when joined.
    pub bank: Option<bank::Model>,
    /// Its borrower, when joined.
    pub party: Option<party::Model>,
    /// Its municipality, when joined.
    pub municipality: Option<municipality::Model>,
}

/// Adds to `select` the columns of `R`, each named `{prefix}{column}`, joined on `on`.
fn join_columns<E: EntityTrait, R: EntityTrait>(
    select: sea_orm::Select<E>,
    rel: sea_orm::RelationDef,
    prefix: &str,
) -> sea_orm::Select<E> {
    use sea_orm::{IdenStatic, Iterable, sea_query::JoinType};
    let mut select = select.join(JoinType::LeftJoin, rel);
    for col in R::Column::iter() {
        select = select.column_as(col, format!("{prefix}{}", col.as_str()));
    }
    select
}

/// Reads a typed page (the filter applied to the programme's own table) with the related rows asked for joined in,
/// in one statement.
async fn typed_rows<E>(
    db: &impl ConnectionTrait,
    select: sea_orm::Select<E>,
    limit: u64,
    keys: (E::Column, E::Column, E::Column),
    joined: Joined,
    count: Option<sea_orm::sea_query::SelectStatement>,
) -> Result<(Vec<Row<E::Model>>, Option<u64>)>
where
    E: EntityTrait,
    E::Model: Positional,
{
    let (bank_id, party_id, town) = keys;
    let mut select = select;
    if joined.bank {
        let rel = E::belongs_to(bank::Entity).from(bank_id).to(bank::Column::Id).into();
        select = join_columns::<E, bank::Entity>(select, rel, "jb_");
    }
    if joined.party {
        let rel = E::belongs_to(party::Entity).from(party_id).to(party::Column::Id).into();
        select = join_columns::<E, party::Entity>(select, rel, "jp_");
    }
    if joined.municipality {
        let rel = E::belongs_to(municipality::Entity)
            .from(town)
            .to(municipality::Column::IbgeCode)
            .into();
        select = join_columns::<E, municipality::Entity>(select, rel, "jm_");
    }
    // The count last, after the joined tables' columns: a sub-query the database runs once for the statement.
    let counted = count.is_some();
    if let Some(count) = count {
        select = select.expr_as(
            sea_orm::sea_query::Expr::SubQuery(None, Box::new(count.into())),
            "total_count",
        );
    }
    let statement = limited(select.build(db.get_database_backend()), limit);
    let rows = db.query_all_raw(statement).await?;
    // Read by position (`crate::positional`): the financing's columns first, then each joined table's, in the
    // order they were added above.
    fn joined_at<M: Positional>(r: &sea_orm::QueryResult, asked: bool, at: &mut usize) -> Option<M> {
        if !asked {
            return None;
        }
        let start = *at;
        *at += M::FIELDS.len();
        // A reference whose row is missing reads as not joined; the field's own lookup then says so.
        M::decode_joined_at(r, start).ok().flatten()
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut total = None;
    for r in &rows {
        let mut at = <E::Model as Positional>::FIELDS.len();
        out.push(Row {
            model: E::Model::decode(r)?,
            bank: joined_at(r, joined.bank, &mut at),
            party: joined_at(r, joined.party, &mut at),
            municipality: joined_at(r, joined.municipality, &mut at),
        });
        if counted && total.is_none() {
            total = Some(u64::try_from(r.try_get_by_index::<i64>(at)?).unwrap_or(0));
        }
    }
    Ok((out, total))
}

/// Reads a typed page of `base` (the query's rows of one programme over `cols`) with the related rows asked for,
/// each statement with the count when there is one; returns the rows and the total when it was read.
async fn typed_page<E>(
    db: &impl ConnectionTrait,
    (base, cols): (sea_orm::Select<E>, Cols<E::Column>),
    q: &Query,
    seek: &Seek,
    joined: Joined,
    count: Option<sea_orm::sea_query::SelectStatement>,
) -> Result<(Vec<Row<E::Model>>, Option<u64>)>
where
    E: EntityTrait,
    E::Model: Positional,
{
    let (mut rows, mut total) = (Vec::new(), None);
    let keys = (cols.bank_id, cols.party_id, cols.municipality_code);
    for select in statements(base, q, &cols, seek) {
        let left = still_wanted(seek, rows.len());
        if left == 0 {
            break;
        }
        let (more, counted) = typed_rows(db, select, left, keys, joined, count.clone()).await?;
        rows.extend(more);
        total = total.or(counted);
    }
    Ok((rows, total))
}

/// How many rows of `E` match `condition`, as a statement to run inside another.
fn count_of<E: EntityTrait>(condition: Condition) -> sea_orm::sea_query::SelectStatement {
    E::find()
        .select_only()
        .expr(sea_orm::sea_query::Expr::cust("COUNT(*)"))
        .filter(condition)
        .into_query()
}

/// The total of a page read with its count ([`listed_rows`] with `counted`): the one read with its rows; when no
/// row came back, none at all if the page read from an end of the list (so the list is empty), else counted apart.
async fn settled_total<F>(counted: bool, read: Option<u64>, seek: &Seek, count: F) -> Result<Option<u64>>
where
    F: std::future::Future<Output = Result<u64>>,
{
    Ok(match (counted, read) {
        (false, _) => None,
        (true, Some(total)) => Some(total),
        (true, None) if seek.from_an_end() => Some(0),
        (true, None) => Some(count.await?),
    })
}

/// How many financings of one programme the query matches, counted on its own table.
pub async fn listed_count<E: Listed>(db: &impl ConnectionTrait, q: &Query) -> Result<u64> {
    Ok(E::find().filter(listed_condition::<E>(q)?).count(db).await?)
}

/// One page of the FCO cartas or social-fuel projects the query matches, in its order, read from their own table
/// with the related rows asked for; with `counted`, the number the query matches is read in the same statement (one
/// round trip, one snapshot). One statement, unless the page runs from the dated rows into the undated ones
/// ([`parts`]).
pub async fn listed_rows<E: Listed>(
    db: &impl ConnectionTrait,
    q: &Query,
    seek: &Seek,
    joined: Joined,
    counted: bool,
) -> Result<page::Slice<Row<E::Model>>> {
    let condition = listed_condition::<E>(q)?;
    let count = counted.then(|| count_of::<E>(condition.clone()));
    let (rows, total) = typed_page(db, (E::find().filter(condition), E::cols()), q, seek, joined, count).await?;
    let total = settled_total(counted, total, seek, listed_count::<E>(db, q)).await?;
    Ok(seek.slice(rows, total))
}

/// The party with this CPF or CNPJ; for a CNPJ whose branch is not registered, another branch of the company.
pub async fn party_by_document(
    db: &impl ConnectionTrait,
    caller: &crate::Caller,
    document: &str,
) -> Result<crate::visible::Seen<party::Model>> {
    let doc = Document::parse(document).map_err(|e| bad("document", messages::document(&e)))?;
    if matches!(doc, Document::Cpf(_)) {
        crate::privacy::may_look_up_cpf(caller, "document")?;
    }
    let exact = party::Entity::find()
        .filter(party::Column::Document.eq(doc.as_str()))
        .one(db)
        .await?;
    let found = match exact {
        Some(p) => Some(p),
        None if doc.cnpj_root().is_some() => party::Entity::find_by_document(&doc).one(db).await?,
        None => None,
    };
    // A party outside the caller's scope (another bank's borrower), or a person the caller sees masked, answers as
    // one that does not exist.
    let found = match found {
        Some(p) => crate::privacy::findable(db, caller, vec![p]).await?.pop(),
        None => None,
    };
    let found = match found {
        Some(p) => crate::visible::party(db, caller, p).await?,
        None => None,
    };
    found.ok_or_else(|| ServiceError::not_found("document", Message::new(code::PARTY_UNKNOWN).arg("document", doc)))
}

/// How many banks there are.
pub async fn bank_count(db: &impl ConnectionTrait) -> Result<u64> {
    Ok(bank::Entity::find().count(db).await?)
}

/// The name of the sort by name, then id, in the cursors of the lists of banks and of parties found by name.
const NAME_ORDER: &str = "NAME";

/// Where a bank or a party stands in a list by name: its name (a party's as the caller reads it: a bank reads a
/// person under the name it filed), then its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamePosition {
    /// The name.
    pub name: String,
    /// The id.
    pub id: i64,
}

/// The cursor of a bank in the list of banks ([`page::sorted_cursor`]).
pub fn bank_cursor(b: &bank::Model) -> String {
    page::sorted_cursor(NAME_ORDER, Some(&b.name), "", b.id)
}

/// The cursor of a party in a search by name.
pub fn party_cursor(p: &party::Model) -> String {
    page::sorted_cursor(NAME_ORDER, Some(&p.name), "", p.id)
}

/// Checks a client's page arguments for a list by name (of banks, of parties), reading its cursors.
pub fn name_seek(
    first: Option<i32>,
    after: Option<&str>,
    last: Option<i32>,
    before: Option<&str>,
) -> Result<page::Seek<NamePosition>> {
    page::Seek::parse(first, after, last, before, |text, arg| {
        let c = page::decode_sorted(text, arg, NAME_ORDER)?;
        if !c.programme.is_empty() {
            return Err(page::bad_cursor(arg));
        }
        Ok(NamePosition {
            name: c.value,
            id: c.id,
        })
    })
}

/// One page of the banks, by name and then id.
pub async fn banks(db: &impl ConnectionTrait, seek: &page::Seek<NamePosition>) -> Result<page::Slice<bank::Model>> {
    use sea_orm::IntoSimpleExpr;
    let mut select = bank::Entity::find();
    for (bound, after) in [(&seek.after, true), (&seek.before, false)] {
        if let Some(p) = bound {
            let keys = [
                (bank::Column::Name.into_simple_expr(), p.name.clone().into(), false),
                (bank::Column::Id.into_simple_expr(), p.id.into(), false),
            ];
            select = select.filter(page::beyond(&keys, after));
        }
    }
    let order = if seek.backward() { Order::Desc } else { Order::Asc };
    let rows = select
        .order_by(bank::Column::Name, order.clone())
        .order_by(bank::Column::Id, order)
        .limit(seek.size() + 1)
        .all(db)
        .await?;
    Ok(seek.slice(rows, None))
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

/// The longest name search accepted, in characters: longer than any name, and far below what SQLite refuses in a
/// `LIKE` pattern (50,000 bytes).
pub const MAX_SEARCH_CHARS: usize = 200;

/// Parties whose name contains `search` (2 to [`MAX_SEARCH_CHARS`] characters), accents and case ignored, by name;
/// at most `limit`, and of the persons only those `caller` sees whole: the first page of [`party_page`].
pub async fn parties_by_name(
    db: &impl ConnectionTrait,
    caller: &crate::Caller,
    search: &str,
    limit: u64,
) -> Result<Vec<party::Model>> {
    let seek = page::Seek {
        first: Some(limit),
        ..Default::default()
    };
    Ok(party_page(db, caller, search, &seek, false).await?.rows)
}

/// `search` checked and folded.
fn name_search(search: &str) -> Result<String> {
    let length = search.chars().count();
    if length > MAX_SEARCH_CHARS {
        return Err(ServiceError::bad(
            "search",
            Message::new(code::SEARCH_TOO_LONG)
                .arg("length", length)
                .arg("max", MAX_SEARCH_CHARS),
        ));
    }
    let folded = fold(search);
    if folded.chars().count() < 2 {
        return Err(ServiceError::bad("search", Message::new(code::SEARCH_TOO_SHORT)));
    }
    Ok(folded)
}

/// One keyset page of the parties whose name contains `search` (2 to [`MAX_SEARCH_CHARS`] characters), accents and
/// case ignored, by name and then id (`descending`: Z to A), as `caller` may see them: a bank sees only its borrowers,
/// a person under the name it filed; a person's name matches only for a caller who sees it whole. A cursor names a
/// party by the name the caller reads and its id.
pub async fn party_page(
    db: &impl ConnectionTrait,
    caller: &crate::Caller,
    search: &str,
    seek: &page::Seek<NamePosition>,
    descending: bool,
) -> Result<page::Slice<party::Model>> {
    let folded = name_search(search)?;
    let read_descending = descending != seek.backward();
    let want = seek.size() + 1;
    let rows = if let crate::caller::Scope::Bank(bank) = caller.scope() {
        // The names a bank reads are those it filed, so its borrowers are sorted and bounded here, as it reads them.
        let mut found = bank_parties_named(db, caller, bank, &folded).await?;
        let key = |p: &party::Model| (p.name.clone(), p.id);
        found.retain(|p| {
            let k = key(p);
            let beyond = |b: &NamePosition, after: bool| {
                let cursor = (b.name.clone(), b.id);
                (after != descending) == (k > cursor) && k != cursor
            };
            seek.after.as_ref().is_none_or(|a| beyond(a, true)) && seek.before.as_ref().is_none_or(|b| beyond(b, false))
        });
        found.sort_by_key(key);
        if read_descending {
            found.reverse();
        }
        found.truncate(usize::try_from(want).unwrap_or(usize::MAX));
        found
    } else {
        parties_named(db, caller, &folded, seek, descending, want).await?
    };
    Ok(seek.slice(rows, None))
}

/// How many candidates a party search reads from the database at once.
const PARTY_BATCH: u64 = 200;

/// Up to `want` parties (anyone's but a bank's) whose stored name contains `folded`, in the page's reading order
/// from its cursor: the database narrows and sorts, [`fold`] and [`crate::privacy::findable`] decide, batch by batch.
async fn parties_named(
    db: &impl ConnectionTrait,
    caller: &crate::Caller,
    folded: &str,
    seek: &page::Seek<NamePosition>,
    descending: bool,
    want: u64,
) -> Result<Vec<party::Model>> {
    use sea_orm::IntoSimpleExpr;
    use sea_orm::sea_query::{Expr, ExprTrait, Func};
    let keys = |p: &NamePosition| {
        [
            (
                party::Column::Name.into_simple_expr(),
                p.name.clone().into(),
                descending,
            ),
            (party::Column::Id.into_simple_expr(), p.id.into(), descending),
        ]
    };
    let order = if descending != seek.backward() {
        Order::Desc
    } else {
        Order::Asc
    };
    // Where the next batch starts: the page's own cursor, then the last candidate read.
    let (mut from, forward) = if seek.backward() {
        (seek.before.clone(), false)
    } else {
        (seek.after.clone(), true)
    };
    let mut out = Vec::new();
    loop {
        let mut select = party::Entity::find()
            .filter(Expr::expr(Func::lower(Expr::col(party::Column::Name))).like(like_pattern(folded)));
        if let Some(p) = &from {
            select = select.filter(page::beyond(&keys(p), forward));
        }
        // A forward page with `before` too stops there.
        if forward && let Some(b) = &seek.before {
            select = select.filter(page::beyond(&keys(b), false));
        }
        let batch = select
            .order_by(party::Column::Name, order.clone())
            .order_by(party::Column::Id, order.clone())
            .limit(PARTY_BATCH)
            .all(db)
            .await?;
        let full = batch.len() as u64 == PARTY_BATCH;
        from = batch.last().map(|p| NamePosition {
            name: p.name.clone(),
            id: p.id,
        });
        let named: Vec<party::Model> = batch.into_iter().filter(|p| fold(&p.name).contains(folded)).collect();
        // A person's name matches only for a caller who sees it whole: a match would confirm a masked name.
        out.extend(crate::privacy::findable(db, caller, named).await?);
        if !full || out.len() as u64 >= want {
            break;
        }
    }
    out.truncate(usize::try_from(want).unwrap_or(usize::MAX));
    Ok(out)
}

/// The borrowers of bank `bank` whose name, as the bank reads it, contains `folded`.
async fn bank_parties_named(
    db: &impl ConnectionTrait,
    caller: &crate::Caller,
    bank: i64,
    folded: &str,
) -> Result<Vec<party::Model>> {
    let financed: Vec<i64> = financing::Entity::find()
        .select_only()
        .column(financing::Column::PartyId)
        .distinct()
        .filter(financing::Column::BankId.eq(bank))
        .into_tuple()
        .all(db)
        .await?;
    let mut rows = Vec::new();
    // Bounded lists of placeholders (SQLite's limit is 32,766).
    for chunk in financed.chunks(5_000) {
        rows.extend(
            party::Entity::find()
                .filter(party::Column::Id.is_in(chunk.iter().copied()))
                .all(db)
                .await?,
        );
    }
    Ok(crate::visible::parties(db, caller, rows)
        .await?
        .into_iter()
        .map(crate::visible::Seen::into_inner)
        .filter(|p| fold(&p.name).contains(folded))
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
