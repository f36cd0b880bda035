//! Rows read by position, straight from the driver's row: for the tables read by the hundred thousand (the flag job
//! reads every carta; a graph page reads fifty cartas with their borrowers for every request).
//!
//! sea-orm's derived reader looks every column up by name and, for every `NULL` it reads into an `Option`, formats an
//! error message it then throws away: costly on the wide, mostly empty rows of a carta. [`Positional::decode`] reads
//! column `i` into field `i` of the model (the order of the entity's `Column` enum, which is the order
//! `Entity::find()` selects; a test holds the two together) and turns a `NULL` into `None` without a message. Any
//! other row (sea-orm's mock or proxy) is read through sea-orm. The entities' models are read here, beside the
//! database code, and not in `entity`, which holds no row access.

use chrono::{DateTime, NaiveDate, Utc};
use entity::domain::{Money, Quantity};
use entity::fco_carta;
use entity::vocab::*;
use sea_orm::{
    ActiveEnum, DbErr, EntityTrait, QueryResult, Select,
    sqlx::{self, Row as _},
};

/// Whether column `i` of `row` is `NULL` (whatever its type).
fn is_null(row: &QueryResult, i: usize) -> bool {
    use sqlx::ValueRef as _;
    if let Some(r) = row.try_as_pg_row() {
        return r.try_get_raw(i).is_ok_and(|v| v.is_null());
    }
    if let Some(r) = row.try_as_sqlite_row() {
        return r.try_get_raw(i).is_ok_and(|v| v.is_null());
    }
    matches!(row.try_get_by_index::<Option<i64>>(i), Ok(None))
        || matches!(row.try_get_by_index::<Option<i32>>(i), Ok(None))
}

/// One column's value read by position, `None` for `NULL`.
pub trait Cell: Sized {
    /// Column `i` of `row`.
    fn read(row: &QueryResult, i: usize) -> Result<Option<Self>, DbErr>;
}

/// A model field read by position: a `NOT NULL` column into its type, a nullable one into an `Option` (declared
/// with each [`Cell`] type, so a type read by position is a field type too).
pub trait Field: Sized {
    /// Column `i` of `row`.
    fn field(row: &QueryResult, i: usize) -> Result<Self, DbErr>;
}

macro_rules! fields {
    ($($t:ty),* $(,)?) => {$(
        impl Field for $t {
            fn field(row: &QueryResult, i: usize) -> Result<Self, DbErr> {
                <$t as Cell>::read(row, i)?.ok_or_else(|| DbErr::Type(format!("column {i} is NULL")))
            }
        }
        impl Field for Option<$t> {
            fn field(row: &QueryResult, i: usize) -> Result<Self, DbErr> {
                <$t as Cell>::read(row, i)
            }
        }
    )*};
}

fn decode_err(i: usize, e: sqlx::Error) -> DbErr {
    DbErr::Type(format!("column {i}: {e}"))
}

macro_rules! driver_cells {
    ($($t:ty),* $(,)?) => {$(
        impl Cell for $t {
            // The driver's type check is skipped (`try_get_unchecked`), as costly as the decoding: the column types
            // are the entity's own, and a test reads every positional model both ways on both backends.
            fn read(row: &QueryResult, i: usize) -> Result<Option<Self>, DbErr> {
                if let Some(r) = row.try_as_pg_row() {
                    return r.try_get_unchecked::<Option<$t>, _>(i).map_err(|e| decode_err(i, e));
                }
                if let Some(r) = row.try_as_sqlite_row() {
                    return r.try_get_unchecked::<Option<$t>, _>(i).map_err(|e| decode_err(i, e));
                }
                row.try_get_by_index::<Option<$t>>(i)
            }
        }
        fields!($t);
    )*};
}
driver_cells!(i64, i32, bool, String, DateTime<Utc>);

/// `2000-01-01`, PostgreSQL's day 0, counted from the first day of the common era (chrono's count).
const PG_DAY_ZERO_FROM_CE: i32 = 730_120;

impl Cell for NaiveDate {
    // PostgreSQL's binary date is a count of days since 2000-01-01, turned into a date directly: the driver's decoder
    // builds a date and adds a `Duration` to it for each value.
    fn read(row: &QueryResult, i: usize) -> Result<Option<Self>, DbErr> {
        if let Some(r) = row.try_as_pg_row() {
            use sqlx::ValueRef as _;
            let v = r.try_get_raw(i).map_err(|e| decode_err(i, e))?;
            if v.is_null() {
                return Ok(None);
            }
            if v.format() == sqlx::postgres::PgValueFormat::Binary
                && let Ok(bytes) = v.as_bytes()
                && let Ok(days) = <[u8; 4]>::try_from(bytes)
                && let Some(day) = i32::from_be_bytes(days)
                    .checked_add(PG_DAY_ZERO_FROM_CE)
                    .and_then(NaiveDate::from_num_days_from_ce_opt)
            {
                return Ok(Some(day));
            }
            return r
                .try_get_unchecked::<Option<NaiveDate>, _>(i)
                .map_err(|e| decode_err(i, e));
        }
        if let Some(r) = row.try_as_sqlite_row() {
            // SQLite's date is the text `YYYY-MM-DD`, read here: the driver's `%F` parse walks its format string for
            // every date. Any other text goes to the driver.
            match r.try_get_unchecked::<Option<&str>, _>(i) {
                Ok(None) => return Ok(None),
                Ok(Some(s)) => {
                    if let Some(d) = ymd(s) {
                        return Ok(Some(d));
                    }
                }
                Err(_) => {}
            }
            return r
                .try_get_unchecked::<Option<NaiveDate>, _>(i)
                .map_err(|e| decode_err(i, e));
        }
        row.try_get_by_index::<Option<NaiveDate>>(i)
    }
}
fields!(NaiveDate);

/// The date written `YYYY-MM-DD` (four, two and two digits), if it is one; `None` for any other text.
fn ymd(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        b[r].iter()
            .try_fold(0u32, |n, c| c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0')))
    };
    NaiveDate::from_ymd_opt(i32::try_from(num(0..4)?).ok()?, num(5..7)?, num(8..10)?)
}

macro_rules! enum_cells {
    ($($t:ty),* $(,)?) => {$(
        impl Cell for $t {
            fn read(row: &QueryResult, i: usize) -> Result<Option<Self>, DbErr> {
                // Borrowed from the row and matched against the enum's names (listed once), without an owned
                // `String` per cell.
                static NAMES: std::sync::OnceLock<Vec<(String, $t)>> = std::sync::OnceLock::new();
                let names = NAMES.get_or_init(|| {
                    <$t as sea_orm::Iterable>::iter().map(|v| (v.to_value(), v)).collect()
                });
                let known = |s: &str| -> Result<$t, DbErr> {
                    match names.iter().find(|(n, _)| n == s) {
                        Some((_, v)) => Ok(*v),
                        None => <$t as ActiveEnum>::try_from_value(&s.to_owned()),
                    }
                };
                if let Some(r) = row.try_as_pg_row() {
                    let s = r.try_get_unchecked::<Option<&str>, _>(i).map_err(|e| decode_err(i, e))?;
                    return s.map(known).transpose();
                }
                if let Some(r) = row.try_as_sqlite_row() {
                    let s = r.try_get_unchecked::<Option<&str>, _>(i).map_err(|e| decode_err(i, e))?;
                    return s.map(known).transpose();
                }
                String::read(row, i)?.map(|s| <$t as ActiveEnum>::try_from_value(&s)).transpose()
            }
        }
        fields!($t);
    )*};
}
enum_cells!(
    FcoLine,
    FcoActivity,
    FcoCartaStage,
    FinancingStatus,
    Decision,
    SocialFuelStage,
    SupplierKind
);

impl Cell for Money {
    fn read(row: &QueryResult, i: usize) -> Result<Option<Self>, DbErr> {
        Ok(i64::read(row, i)?.map(Money))
    }
}
fields!(Money);

impl Cell for Quantity {
    fn read(row: &QueryResult, i: usize) -> Result<Option<Self>, DbErr> {
        Ok(i64::read(row, i)?.map(Quantity))
    }
}
fields!(Quantity);

/// A model whose rows are read by position.
pub trait Positional: Sized {
    /// The fields in the order they are read, which must be the order of the entity's columns.
    const FIELDS: &'static [&'static str];
    /// The model from the row's columns `start..start + FIELDS.len()`.
    fn decode_at(row: &QueryResult, start: usize) -> Result<Self, DbErr>;
    /// A whole row, as `Entity::find()` selects it.
    fn decode(row: &QueryResult) -> Result<Self, DbErr> {
        Self::decode_at(row, 0)
    }
    /// The model from columns `start..`, or none when its first column (the key) is `NULL`: the side of a left join
    /// that found no row.
    fn decode_joined_at(row: &QueryResult, start: usize) -> Result<Option<Self>, DbErr> {
        if is_null(row, start) {
            return Ok(None);
        }
        Self::decode_at(row, start).map(Some)
    }
}

/// Declares a model's fields in column order, so its rows are read by position ([`Positional`]). Every field must be
/// named (the struct literal does not compile otherwise); the order is checked by a test against the entity's
/// columns.
macro_rules! positional {
    ($model:path { $($f:ident),* $(,)? }) => {
        impl $crate::positional::Positional for $model {
            const FIELDS: &'static [&'static str] = &[$(stringify!($f)),*];
            fn decode_at(row: &sea_orm::QueryResult, start: usize) -> Result<Self, sea_orm::DbErr> {
                let mut i = start;
                let mut next = || {
                    i += 1;
                    i - 1
                };
                Ok(Self { $($f: $crate::positional::Field::field(row, next())?),* })
            }
        }
    };
}

/// Every row a whole-entity select finds, read by position.
pub async fn all<E, C>(select: Select<E>, db: &C) -> Result<Vec<E::Model>, DbErr>
where
    E: EntityTrait,
    E::Model: Positional,
    C: sea_orm::ConnectionTrait,
{
    use sea_orm::QueryTrait as _;
    decoded(db, select.build(db.get_database_backend()), E::Model::decode).await
}

/// Every row `statement` finds, each read by `decode`.
pub async fn decoded<T, C: sea_orm::ConnectionTrait>(
    db: &C,
    statement: sea_orm::Statement,
    decode: impl Fn(&QueryResult) -> Result<T, DbErr>,
) -> Result<Vec<T>, DbErr> {
    let rows = db.query_all_raw(statement).await?;
    // Sized once: a vector grown by doubling asks the kernel for fresh pages at each growth, which a large read
    // feels.
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(decode(&row)?);
    }
    Ok(out)
}

positional!(entity::fco_carta::Model {
    id,
    number,
    bank_id,
    party_id,
    line,
    activity,
    financed_amount,
    municipality_code,
    stage,
    status,
    submitted_on,
    received_by_council_at,
    chamber_meeting_id,
    decision,
    decided_by,
    decided_on,
    approved_on,
    contracted_on,
    contracted_amount,
    term_months,
    grace_months,
    resubmission_of,
    professional_name,
    created_at,
    created_by_report,
    existing_sires,
    artificial_insemination,
    presented_on,
    special_demand,
    borrower_name,
    expired_on,
    stated_on,
});

positional!(entity::fco_carta::JudgedCarta {
    id,
    number,
    bank_id,
    party_id,
    line,
    activity,
    financed_amount,
    municipality_code,
    stage,
    submitted_on,
    received_by_council_at,
    chamber_meeting_id,
    decision,
    decided_by,
    decided_on,
    approved_on,
    contracted_on,
    contracted_amount,
    term_months,
    grace_months,
    resubmission_of,
    professional_name,
    existing_sires,
    artificial_insemination,
    presented_on,
    special_demand,
    expired_on,
    stated_on,
});

positional!(entity::party::Model {
    id,
    document,
    document_kind,
    cnpj_root,
    name,
    economic_group_id,
});

positional!(entity::bank::Model {
    id,
    code,
    name,
    serves_social_fuel,
    serves_fco,
    mda_cooperation_agreement,
});

positional!(entity::municipality::Model { ibge_code, name });

positional!(entity::economic_group_membership::Model {
    id,
    group_id,
    party_id,
    joined_at,
    recorded_by,
    left_at,
    left_recorded_by,
    joined_on,
    left_on,
});

positional!(entity::feedstock_acquisition::Model {
    id,
    project_id,
    year,
    supplier_kind,
    supplier_party_id,
    crop,
    quantity_kg,
    cost,
    perennial_area_ha,
    productivity_kg_per_ha,
    coefficient_source,
    recorded_at,
    recorded_by,
    superseded_at,
    superseded_by,
    change_reason,
    effective_on,
    ended_on,
    dated_by,
});

positional!(entity::social_fuel_project::Model {
    id,
    title,
    bank_id,
    party_id,
    plant_municipality_code,
    requested_amount,
    stage,
    status,
    bank_framed_on,
    analysed_by_bank,
    filed_on,
    decision,
    decided_on,
    decision_letter,
    financing_approved_on,
    scheduled_implementation_end,
    schedule_delay_accepted,
    industrial_start_on,
    evaluation_started_on,
    external_evaluation_on,
    evaluation_result,
    seal_requested_on,
    extension_requested_on,
    extension_justification,
    extension_granted_on,
    extension_refused_on,
    extension_decision_reason,
    evaluation_finding,
    justifications_accepted_on,
    justifications_reason,
    unframed_on,
    unframing_reason,
    created_at,
    decision_grounds,
    decision_signatory,
    justifications_filed_on,
    justifications_content,
    bank_notified_on,
    bank_notice_reference,
    schedule_presented_on,
    delay_bank_accepted_on,
    delay_bank_accepted_by,
    public_update_on,
    public_update_reference,
    delay_accepted_on,
    original_implementation_end,
});

/// A carta's commitment, from a row of [`fco_carta::Committed::COLUMNS`] (its earlier cycles are read apart).
pub fn committed(row: &QueryResult) -> Result<fco_carta::Committed, DbErr> {
    use Field as F;
    Ok(fco_carta::Committed {
        id: F::field(row, 0)?,
        party_id: F::field(row, 1)?,
        activity: F::field(row, 2)?,
        financed_amount: F::field(row, 3)?,
        acts: fco_carta::Acts {
            stage: F::field(row, 4)?,
            submitted_on: F::field(row, 5)?,
            received_by_council_at: F::field(row, 6)?,
            decided_on: F::field(row, 7)?,
            decision: F::field(row, 8)?,
            approved_on: F::field(row, 9)?,
            contracted_on: F::field(row, 10)?,
            expired_on: F::field(row, 11)?,
        },
        earlier: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::{IdenStatic, Iterable};

    fn columns<E: EntityTrait>() -> Vec<String> {
        E::Column::iter().map(|c| c.as_str().to_owned()).collect()
    }

    #[test]
    fn sqlite_dates_are_read_as_the_driver_reads_them() {
        for text in ["2026-12-03", "2024-02-29", "0001-01-01", "9999-12-31", "2026-01-09"] {
            assert_eq!(ymd(text), NaiveDate::parse_from_str(text, "%F").ok(), "{text}");
        }
        // Not a date, or not in this form: left to the driver.
        for text in [
            "2025-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-1-01",
            "2026/12/03",
            "20261203",
            "2026-12-0x",
            "",
        ] {
            assert_eq!(ymd(text), None, "{text}");
        }
    }

    #[test]
    fn postgres_day_zero_is_2000_01_01() {
        let zero = NaiveDate::from_ymd_opt(2000, 1, 1).expect("date");
        assert_eq!(
            NaiveDate::from_num_days_from_ce_opt(super::PG_DAY_ZERO_FROM_CE),
            Some(zero)
        );
    }

    #[test]
    fn the_fields_are_read_in_the_order_the_entity_selects_its_columns() {
        macro_rules! same_order {
            ($($m:ident),*) => {$(
                assert_eq!(
                    <entity::$m::Model as Positional>::FIELDS,
                    columns::<entity::$m::Entity>(),
                    stringify!($m)
                );
            )*};
        }
        same_order!(
            fco_carta,
            party,
            bank,
            municipality,
            social_fuel_project,
            feedstock_acquisition,
            economic_group_membership
        );
        let judged: Vec<&str> = fco_carta::JUDGED.iter().map(|c| c.as_str()).collect();
        assert_eq!(<fco_carta::JudgedCarta as Positional>::FIELDS, judged, "a judged carta");
    }
}
