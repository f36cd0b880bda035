//! Keyset pages: a cursor names an item, not its position, so the page asked for after another neither skips nor
//! repeats a row when rows are inserted, changed or deleted in between.
//!
//! Two kinds: lists ordered newest first by id ([`Keyset`], cursor `k:<id>`), and lists sorted by a field and then a
//! unique tie-break ([`Seek`], cursor `v2:<ordering>:<value or null>:<programme>:<id>`, see [`sorted_cursor`]).

use crate::{
    ServiceError,
    messages::{Message, code},
};
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Select,
    sea_query::{Expr, ExprTrait},
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
    oldest_first: bool,
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
    v.map(|n| bounded(arg, n, MAX_PAGE_SIZE)).transpose()
}

/// A list's size argument `arg` checked against its bound: a negative one or one over `max` is refused naming both
/// (the same rule for the connections and the plain lists).
pub fn bounded(arg: &'static str, n: i32, max: u64) -> Result<u64, ServiceError> {
    match u64::try_from(n) {
        Err(_) => Err(ServiceError::BadInput {
            field: arg,
            message: Message::new(code::PAGE_NEGATIVE).arg("arg", arg),
        }),
        Ok(n) if n > max => Err(ServiceError::BadInput {
            field: arg,
            message: Message::new(code::PAGE_TOO_LARGE)
                .arg("arg", arg)
                .arg("max", max)
                .arg("asked", n),
        }),
        Ok(n) => Ok(n),
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
            oldest_first: false,
        })
    }

    /// The same page of the list read oldest first (ascending ids) when `oldest_first`, newest first otherwise. A
    /// cursor names its item in either order: `after` is the items that follow it in the order asked.
    pub fn oldest_first(self, oldest_first: bool) -> Self {
        Self { oldest_first, ..self }
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

/// Reads one page of `select`, newest first by `id` (oldest first when the keyset says so).
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
    let ascending = args.oldest_first;
    if let Some(a) = args.after {
        q = q.filter(if ascending { id.gt(a) } else { id.lt(a) });
    }
    if let Some(b) = args.before {
        q = q.filter(if ascending { id.lt(b) } else { id.gt(b) });
    }
    q = if backward != ascending {
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

/// The version tag of a sorted list's cursor. The first version (`o:<position>`) named a position, which moves when
/// rows are inserted or deleted; it is refused with its own message ([`code::PAGE_CURSOR_OUTDATED`]).
const SORTED: &str = "v2";

/// The cursor of a row of a list sorted by `ordering` (the schema's name of the sort, `AMOUNT`): the row's value of
/// the sorted field (`None`: not set), its programme (empty in a list of one kind of row) and its id, which together
/// place it in the list whatever changed since.
pub fn sorted_cursor(ordering: &str, value: Option<&str>, programme: &str, id: i64) -> String {
    URL_SAFE_NO_PAD.encode(format!(
        "{SORTED}:{ordering}:{}:{programme}:{id}",
        value.unwrap_or("null")
    ))
}

/// What a sorted list's cursor holds ([`sorted_cursor`]); the list reads the value as its field's type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortedCursor {
    /// The row's value of the sorted field as written, `null` when it had none.
    pub value: String,
    /// The row's programme, or empty.
    pub programme: String,
    /// The row's id.
    pub id: i64,
}

/// The refusal of a cursor given as `arg`.
pub fn bad_cursor(arg: &'static str) -> ServiceError {
    ServiceError::BadInput {
        field: arg,
        message: Message::new(code::PAGE_CURSOR).arg("arg", arg),
    }
}

/// Reads a cursor of a list sorted by `ordering`. An old position cursor, or one of another ordering, is refused
/// with a message saying so, naming `arg`.
pub fn decode_sorted(s: &str, arg: &'static str, ordering: &str) -> Result<SortedCursor, ServiceError> {
    let text = URL_SAFE_NO_PAD
        .decode(s.trim())
        .ok()
        .and_then(|raw| String::from_utf8(raw).ok())
        .ok_or_else(|| bad_cursor(arg))?;
    if text.strip_prefix("o:").is_some_and(|n| n.parse::<u64>().is_ok()) {
        return Err(ServiceError::BadInput {
            field: arg,
            message: Message::new(code::PAGE_CURSOR_OUTDATED).arg("arg", arg),
        });
    }
    let rest = text
        .strip_prefix(SORTED)
        .and_then(|r| r.strip_prefix(':'))
        .ok_or_else(|| bad_cursor(arg))?;
    let (issued, rest) = rest.split_once(':').ok_or_else(|| bad_cursor(arg))?;
    if issued != ordering {
        // Only a name this server writes is repeated back; anything else is not one of its cursors.
        if issued.is_empty() || issued.len() > 32 || !issued.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') {
            return Err(bad_cursor(arg));
        }
        return Err(ServiceError::BadInput {
            field: arg,
            message: Message::new(code::PAGE_CURSOR_ORDER)
                .arg("arg", arg)
                .arg("issued", issued)
                .arg("asked", ordering),
        });
    }
    // The value may hold `:` (a name); the programme and the id never do.
    let (rest, id) = rest.rsplit_once(':').ok_or_else(|| bad_cursor(arg))?;
    let (value, programme) = rest.rsplit_once(':').ok_or_else(|| bad_cursor(arg))?;
    Ok(SortedCursor {
        value: value.to_owned(),
        programme: programme.to_owned(),
        id: id.parse().map_err(|_| bad_cursor(arg))?,
    })
}

/// A page request over a sorted list: `first` rows after the row `after` names, or `last` rows before the row
/// `before` names (both bounds may be given). `K` is where a cursor places a row in the list's sort.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seek<K> {
    /// At most this many rows from the start (after `after`).
    pub first: Option<u64>,
    /// The page starts after this row.
    pub after: Option<K>,
    /// At most this many rows up to the end (before `before`).
    pub last: Option<u64>,
    /// The page ends before this row.
    pub before: Option<K>,
}

impl<K> Default for Seek<K> {
    fn default() -> Self {
        Self {
            first: None,
            after: None,
            last: None,
            before: None,
        }
    }
}

impl<K> Seek<K> {
    /// Checks a client's arguments, reading each cursor with `key` (given the argument's name for its errors).
    pub fn parse(
        first: Option<i32>,
        after: Option<&str>,
        last: Option<i32>,
        before: Option<&str>,
        key: impl Fn(&str, &'static str) -> Result<K, ServiceError>,
    ) -> Result<Self, ServiceError> {
        Ok(Self {
            first: size("first", first)?,
            after: after.map(|a| key(a, "after")).transpose()?,
            last: size("last", last)?,
            before: before.map(|b| key(b, "before")).transpose()?,
        })
    }

    /// Whether the page is read from its end (`last` without `first`): backwards from `before`, or from the list's
    /// end.
    pub fn backward(&self) -> bool {
        self.last.is_some() && self.first.is_none()
    }

    /// How many rows the page reads, in its direction; a forward page with `last` too keeps only the last of them.
    pub fn size(&self) -> u64 {
        if self.backward() {
            self.last.unwrap_or(DEFAULT_PAGE_SIZE)
        } else {
            self.first.unwrap_or(DEFAULT_PAGE_SIZE)
        }
    }

    /// Whether the page has no cursor, so it reads the list from one of its ends.
    pub fn from_an_end(&self) -> bool {
        self.after.is_none() && self.before.is_none()
    }

    /// The page made of `rows`, read in the page's direction (backward pages from their end), up to one past
    /// [`Self::size`] to tell whether more follow; `total` when it was read with them.
    pub fn slice<T>(&self, mut rows: Vec<T>, total: Option<u64>) -> Slice<T> {
        let n = usize::try_from(self.size()).unwrap_or(usize::MAX);
        let more = rows.len() > n;
        rows.truncate(n);
        if self.backward() {
            rows.reverse();
            return Slice {
                rows,
                has_next_page: self.before.is_some(),
                has_previous_page: more,
                total,
            };
        }
        let mut has_previous_page = self.after.is_some();
        if let Some(last) = self.last.and_then(|l| usize::try_from(l).ok())
            && rows.len() > last
        {
            rows.drain(..rows.len() - last);
            has_previous_page = true;
        }
        Slice {
            rows,
            has_next_page: more,
            has_previous_page,
            total,
        }
    }
}

/// One page of a sorted list, in the list's order.
#[derive(Debug, Clone)]
pub struct Slice<T> {
    /// The rows.
    pub rows: Vec<T>,
    /// Whether rows follow the page.
    pub has_next_page: bool,
    /// Whether rows precede the page.
    pub has_previous_page: bool,
    /// How many rows the list holds, when it was read with the page.
    pub total: Option<u64>,
}

/// One key of a sort: the column (or expression) sorted by, a position's value in it, and whether it sorts
/// descending.
pub type SortKey = (Expr, sea_orm::Value, bool);

/// The rows after (`after`) or before a position in a sort over `keys`, for rows whose keys are all set: the
/// lexicographic comparison written as `k1 >= v1 AND (k1 > v1 OR (k2 >= v2 AND (k2 > v2 OR ...)))` (`<=`/`<` where
/// the comparison runs against the key's direction). Its first term alone bounds the first key, so a database
/// starts reading an index on the keys at the position rather than at the list's start. No keys: no row.
pub fn beyond(keys: &[SortKey], after: bool) -> Expr {
    let Some(((column, value, descending), rest)) = keys.split_first() else {
        return Expr::val(1).eq(Expr::val(0));
    };
    let greater = after != *descending;
    let strict = if greater {
        column.clone().gt(value.clone())
    } else {
        column.clone().lt(value.clone())
    };
    if rest.is_empty() {
        return strict;
    }
    let reached = if greater {
        column.clone().gte(value.clone())
    } else {
        column.clone().lte(value.clone())
    };
    reached.and(strict.or(beyond(rest, after)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(r: Result<SortedCursor, ServiceError>) -> (String, Message) {
        match r {
            Err(ServiceError::BadInput { field, message }) => (field.to_owned(), message),
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_sorted_cursor_reads_back_what_it_names_even_a_value_with_colons() {
        let c = sorted_cursor("NAME", Some("Banco: do Brasil"), "", 7);
        assert_eq!(
            decode_sorted(&c, "after", "NAME").expect("ours"),
            SortedCursor {
                value: "Banco: do Brasil".into(),
                programme: String::new(),
                id: 7
            }
        );
        let c = sorted_cursor("DECIDED_ON", None, "FCO_RURAL", 12);
        assert_eq!(
            URL_SAFE_NO_PAD.decode(&c).ok(),
            Some(b"v2:DECIDED_ON:null:FCO_RURAL:12".to_vec())
        );
    }

    #[test]
    fn old_position_cursors_other_orderings_cursors_and_strangers_are_refused_with_the_argument_named() {
        let (field, m) = refused(decode_sorted("bzow", "before", "AMOUNT"));
        assert_eq!(
            (field.as_str(), m.code.as_str()),
            ("before", code::PAGE_CURSOR_OUTDATED)
        );
        let amount = sorted_cursor("AMOUNT", Some("100"), "FCO_RURAL", 1);
        let (_, m) = refused(decode_sorted(&amount, "after", "SUBMITTED_ON"));
        assert_eq!(m.code, code::PAGE_CURSOR_ORDER);
        assert!(
            m.render(crate::messages::Lang::En)
                .contains("ordered by AMOUNT, not by SUBMITTED_ON")
        );
        for stranger in ["", "!!", "k:12", "djI6", &URL_SAFE_NO_PAD.encode("v2:<script>:1::1")] {
            let (_, m) = refused(decode_sorted(stranger, "after", "AMOUNT"));
            assert_eq!(m.code, code::PAGE_CURSOR, "{stranger:?}");
        }
    }

    #[test]
    fn a_page_reads_one_row_past_its_size_and_keeps_relay_s_page_information() {
        let forward = Seek::<i64> {
            first: Some(2),
            after: Some(0),
            ..Default::default()
        };
        let p = forward.slice(vec![1, 2, 3], None);
        assert_eq!((p.rows, p.has_previous_page, p.has_next_page), (vec![1, 2], true, true));
        let backward = Seek::<i64> {
            last: Some(2),
            ..Default::default()
        };
        // Read from the end: newest last in the list, first in the read.
        let p = backward.slice(vec![9, 8, 7], None);
        assert_eq!(
            (p.rows, p.has_previous_page, p.has_next_page),
            (vec![8, 9], true, false)
        );
        let both = Seek::<i64> {
            first: Some(3),
            last: Some(1),
            ..Default::default()
        };
        let p = both.slice(vec![1, 2, 3], None);
        assert_eq!((p.rows, p.has_previous_page, p.has_next_page), (vec![3], true, false));
        assert_eq!(Seek::<i64>::default().size(), DEFAULT_PAGE_SIZE);
    }

    #[test]
    fn the_keyset_condition_bounds_its_first_key_alone_so_an_index_starts_at_the_cursor() {
        use sea_orm::sea_query::{Query, SqliteQueryBuilder};
        let keys = [
            (Expr::col("amount"), 5.into(), true),
            (Expr::col("programme"), "FCO_RURAL".into(), false),
            (Expr::col("id"), 9.into(), false),
        ];
        let sql = |after| {
            Query::select()
                .column("id")
                .from("financing")
                .and_where(beyond(&keys, after))
                .to_string(SqliteQueryBuilder)
        };
        assert_eq!(
            sql(true),
            "SELECT \"id\" FROM \"financing\" WHERE \"amount\" <= 5 AND (\"amount\" < 5 OR (\"programme\" >= 'FCO_RURAL' \
             AND (\"programme\" > 'FCO_RURAL' OR \"id\" > 9)))"
        );
        assert_eq!(
            sql(false),
            "SELECT \"id\" FROM \"financing\" WHERE \"amount\" >= 5 AND (\"amount\" > 5 OR (\"programme\" <= 'FCO_RURAL' \
             AND (\"programme\" < 'FCO_RURAL' OR \"id\" < 9)))"
        );
    }
}
