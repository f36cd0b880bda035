//! Keyset pages over lists ordered newest first (by id, descending): a cursor names an item's id, not its position,
//! so a page asked for after another stays the same when rows are inserted in between.

use crate::{
    ServiceError,
    messages::{Message, code},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Select,
};

/// The largest page a client may ask for.
pub const MAX_PAGE_SIZE: u64 = 100;
/// The page size when the client gives neither `first` nor `last`.
pub const DEFAULT_PAGE_SIZE: u64 = 20;

/// A page request: `first` items after the cursor `after`, or `last` items before `before`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Keyset {
    first: Option<u64>,
    after: Option<i64>,
    last: Option<u64>,
    before: Option<i64>,
}

/// The cursor of the item with this id.
pub fn cursor(id: i64) -> String {
    URL_SAFE_NO_PAD.encode(format!("k:{id}"))
}

fn decode(s: &str, arg: &'static str) -> Result<i64, ServiceError> {
    URL_SAFE_NO_PAD
        .decode(s.trim())
        .ok()
        .and_then(|raw| String::from_utf8(raw).ok())
        .and_then(|t| t.strip_prefix("k:").and_then(|n| n.parse().ok()))
        .ok_or_else(|| ServiceError::BadInput {
            field: arg,
            message: Message::new(code::PAGE_CURSOR).arg("arg", arg),
        })
}

fn size(arg: &'static str, v: Option<i32>) -> Result<Option<u64>, ServiceError> {
    match v {
        None => Ok(None),
        Some(n) if n < 0 => Err(ServiceError::BadInput {
            field: arg,
            message: Message::new(code::PAGE_NEGATIVE).arg("arg", arg),
        }),
        Some(n) if n as u64 > MAX_PAGE_SIZE => Err(ServiceError::BadInput {
            field: arg,
            message: Message::new(code::PAGE_TOO_LARGE)
                .arg("arg", arg)
                .arg("max", MAX_PAGE_SIZE)
                .arg("asked", n),
        }),
        Some(n) => Ok(Some(n as u64)),
    }
}

impl Keyset {
    /// Checks a client's arguments.
    pub fn parse(
        first: Option<i32>,
        after: Option<&str>,
        last: Option<i32>,
        before: Option<&str>,
    ) -> Result<Self, ServiceError> {
        Ok(Self {
            first: size("first", first)?,
            after: after.map(|a| decode(a, "after")).transpose()?,
            last: size("last", last)?,
            before: before.map(|b| decode(b, "before")).transpose()?,
        })
    }
}

/// One page of a list.
#[derive(Debug, Clone)]
pub struct Page<T> {
    /// The items with their ids, newest first.
    pub items: Vec<(i64, T)>,
    /// Whether older items follow.
    pub has_next_page: bool,
    /// Whether newer items precede.
    pub has_previous_page: bool,
    /// Items matching, over all pages.
    pub total_count: u64,
}

/// Reads one page of `select`, newest first by `id`.
pub async fn fetch<E, C>(
    db: &C,
    select: Select<E>,
    id: E::Column,
    id_of: impl Fn(&E::Model) -> i64,
    args: Keyset,
) -> Result<Page<E::Model>, ServiceError>
where
    E: EntityTrait,
    E::Model: Sync,
    C: ConnectionTrait,
{
    let total_count = select.clone().count(db).await?;
    let backward = args.last.is_some() && args.first.is_none();
    let n = if backward {
        args.last.unwrap_or(DEFAULT_PAGE_SIZE)
    } else {
        args.first.unwrap_or(DEFAULT_PAGE_SIZE)
    };
    let mut q = select;
    if let Some(a) = args.after {
        q = q.filter(id.lt(a));
    }
    if let Some(b) = args.before {
        q = q.filter(id.gt(b));
    }
    q = if backward {
        q.order_by_asc(id)
    } else {
        q.order_by_desc(id)
    };
    let mut rows = q.limit(n + 1).all(db).await?;
    let more = rows.len() as u64 > n;
    rows.truncate(n as usize);
    if backward {
        rows.reverse();
    }
    Ok(Page {
        items: rows.into_iter().map(|r| (id_of(&r), r)).collect(),
        has_next_page: if backward { args.before.is_some() } else { more },
        has_previous_page: if backward { more } else { args.after.is_some() },
        total_count,
    })
}
