//! A carta's items (animals, machines, buildings, working capital: CDAE/MT 2019, arts. 6–17) as facts a person
//! records. Until the chamber or the bank decides on the carta they are edited and removed freely; after the
//! decision a change is a new version with its author and reason, and the old one stays, so that a rule judged
//! `asOf` an earlier day reads what was known then.

use crate::{
    ServiceError,
    lifecycle::{Act, money},
    messages::{self, Message, code},
    versions,
};
use entity::{
    domain::Quantity,
    fco_carta, fco_carta_item,
    vocab::{FcoCartaStage, InvestmentClass, ItemKind},
};
use rust_decimal::Decimal;
use sea_orm::{ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, TransactionTrait};

type Result<T> = std::result::Result<T, ServiceError>;

/// An item as a person states it.
#[derive(Debug, Clone)]
pub struct Item {
    /// What it is.
    pub kind: ItemKind,
    /// Description as filed.
    pub description: String,
    /// Quantity (units, hectares, tonnes); the head count for animals when not given.
    pub quantity: Option<Decimal>,
    /// Head count, for animals.
    pub head_count: Option<i32>,
    /// Age in months, for animals.
    pub age_months: Option<i32>,
    /// Year of manufacture, for machines.
    pub manufacture_year: Option<i32>,
    /// Expected useful life in years.
    pub useful_life_years: Option<i32>,
    /// Pedigree registration of a purchased sire: `PO_RGD` (PO with its definitive RGD), `PO` (without it: dairy
    /// only, art. 7 I a), `LA` or `CEIP`.
    pub registration: Option<String>,
    /// Fixed, semi-fixed or operating.
    pub investment_class: InvestmentClass,
    /// Value, in reais.
    pub value: Decimal,
}

const ANIMALS: [ItemKind; 6] = [
    ItemKind::Dam,
    ItemKind::Sire,
    ItemKind::Boar,
    ItemKind::Sow,
    ItemKind::WeanedCalf,
    ItemKind::OtherAnimal,
];

/// Checks an item and makes its row's values.
fn checked(item: Item, act: &Act) -> Result<fco_carta_item::ActiveModel> {
    if item.description.trim().is_empty() {
        return Err(ServiceError::bad("input.description", Message::new(code::FIELD_EMPTY)));
    }
    let animal = ANIMALS.contains(&item.kind);
    for (field, v) in [
        ("input.headCount", item.head_count),
        ("input.ageMonths", item.age_months),
        ("input.usefulLifeYears", item.useful_life_years),
    ] {
        if v.is_some_and(|v| v < 0) {
            return Err(ServiceError::bad(field, Message::new(code::NUMBER_NEGATIVE)));
        }
    }
    if animal && item.head_count.is_none() {
        return Err(ServiceError::bad(
            "input.headCount",
            Message::new(code::HEAD_COUNT_REQUIRED),
        ));
    }
    if !animal && item.head_count.is_some() {
        return Err(ServiceError::bad(
            "input.headCount",
            Message::new(code::HEAD_COUNT_NOT_ANIMAL),
        ));
    }
    let this_year = chrono::Datelike::year(&act.day(None));
    if let Some(y) = item.manufacture_year
        && !(1900..=this_year + 1).contains(&y)
    {
        return Err(ServiceError::bad(
            "input.manufactureYear",
            Message::new(code::MANUFACTURE_YEAR_INVALID).arg("value", y),
        ));
    }
    if let Some(r) = item.registration.as_deref()
        && !matches!(r, "PO_RGD" | "PO" | "LA" | "CEIP")
    {
        return Err(ServiceError::bad(
            "input.registration",
            Message::new(code::REGISTRATION_INVALID).arg("value", format!("{r:?}")),
        ));
    }
    let quantity = match (item.quantity, item.head_count) {
        (Some(q), _) => {
            Quantity::from_decimal(q).map_err(|e| ServiceError::bad("input.quantity", messages::amount(&e)))?
        }
        (None, Some(h)) => Quantity(i64::from(h) * 10_000),
        (None, None) => {
            return Err(ServiceError::bad(
                "input.quantity",
                Message::new(code::QUANTITY_REQUIRED),
            ));
        }
    };
    Ok(fco_carta_item::ActiveModel {
        kind: Set(item.kind),
        description: Set(item.description.trim().into()),
        quantity: Set(quantity),
        head_count: Set(item.head_count),
        age_months: Set(item.age_months),
        manufacture_year: Set(item.manufacture_year),
        useful_life_years: Set(item.useful_life_years),
        registration: Set(item.registration),
        investment_class: Set(item.investment_class),
        value: Set(money("input.value", item.value)?),
        ..Default::default()
    })
}

/// Whether the chamber or the bank has decided on the carta: its items are then corrected by new versions.
fn decided(c: &fco_carta::Model) -> bool {
    !matches!(c.stage, FcoCartaStage::Draft | FcoCartaStage::Submitted)
}

/// The current items of a carta, in id order.
pub async fn current(
    db: &(impl ConnectionTrait + TransactionTrait),
    carta_id: i64,
) -> Result<Vec<fco_carta_item::Model>> {
    Ok(fco_carta_item::Entity::find()
        .filter(fco_carta_item::Column::CartaId.eq(carta_id))
        .filter(fco_carta_item::Column::SupersededAt.is_null())
        .order_by_asc(fco_carta_item::Column::Id)
        .all(db)
        .await?)
}

/// A carta's items, kept in versions once the chamber or the bank has decided ([`versions::record`],
/// [`versions::correct`], [`versions::withdraw`], [`versions::visible`]).
impl versions::Fact for fco_carta_item::ActiveModel {
    type Stated = Item;
    type Parent = fco_carta::Entity;
    const FIELD: &'static str = "input.itemId";
    const PARENT_FIELD: &'static str = "input.cartaId";
    const UNKNOWN: &'static str = code::ITEM_UNKNOWN;
    const PARENT_UNKNOWN: &'static str = code::CARTA_UNKNOWN;

    fn parent(id: i64) -> sea_orm::Select<fco_carta::Entity> {
        fco_carta::Entity::find_by_id(id)
    }
    fn parent_id(m: &fco_carta_item::Model) -> i64 {
        m.carta_id
    }
    fn parent_keys(c: &fco_carta::Model) -> (i64, i64) {
        (c.id, c.bank_id)
    }
    fn decided(c: &fco_carta::Model) -> bool {
        decided(c)
    }
    async fn checked(
        _db: &(impl ConnectionTrait + TransactionTrait),
        act: &Act,
        item: Item,
        carta: i64,
    ) -> Result<Self> {
        let mut row = checked(item, act)?;
        row.carta_id = Set(carta);
        Ok(row)
    }
}
