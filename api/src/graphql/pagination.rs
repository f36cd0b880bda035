//! Relay pagination over offsets: the pure window arithmetic, and the connection types built from it.
//!
//! Cursors are opaque (base64 of the item's position). `first`/`after` page forward, `last`/`before` backward; a page
//! holds at most [`MAX_PAGE_SIZE`] items and [`DEFAULT_PAGE_SIZE`] when neither `first` nor `last` is given.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};

/// The largest page a client may ask for.
pub const MAX_PAGE_SIZE: u64 = 100;
/// The page size when the client gives neither `first` nor `last`.
pub const DEFAULT_PAGE_SIZE: u64 = 20;

/// What a client asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageArgs {
    /// Items after the cursor `after`, from the start.
    pub first: Option<i32>,
    /// Cursor to start after.
    pub after: Option<String>,
    /// Items before the cursor `before`, from the end.
    pub last: Option<i32>,
    /// Cursor to end before.
    pub before: Option<String>,
}

impl PageArgs {
    /// Relay's four window arguments.
    pub fn new(first: Option<i32>, after: Option<String>, last: Option<i32>, before: Option<String>) -> Self {
        Self {
            first,
            after,
            last,
            before,
        }
    }
}

/// Why a page request is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PageError {
    /// `first` or `last` below zero.
    #[error("`{0}` must not be negative")]
    Negative(&'static str),
    /// `first` or `last` above the cap.
    #[error("`{arg}` may be at most {max}; ask for further pages with `after`/`before` instead of {asked}")]
    TooLarge {
        /// Which argument.
        arg: &'static str,
        /// What was asked.
        asked: i32,
        /// The cap.
        max: u64,
    },
    /// A cursor that we did not issue.
    #[error("`{0}` is not a cursor issued by this server")]
    BadCursor(&'static str),
}

/// The slice of the ordered list to return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Position of the first item.
    pub offset: u64,
    /// How many items.
    pub limit: u64,
    /// Whether items exist before the window.
    pub has_previous_page: bool,
    /// Whether items exist after the window.
    pub has_next_page: bool,
}

/// The cursor of the item at `position`.
pub fn cursor(position: u64) -> String {
    URL_SAFE_NO_PAD.encode(format!("o:{position}"))
}

fn decode_cursor(s: &str, arg: &'static str) -> Result<u64, PageError> {
    let raw = URL_SAFE_NO_PAD
        .decode(s.trim())
        .map_err(|_| PageError::BadCursor(arg))?;
    let text = String::from_utf8(raw).map_err(|_| PageError::BadCursor(arg))?;
    text.strip_prefix("o:")
        .and_then(|n| n.parse().ok())
        .ok_or(PageError::BadCursor(arg))
}

fn size(arg: &'static str, v: Option<i32>, max: u64) -> Result<Option<u64>, PageError> {
    match v {
        None => Ok(None),
        Some(n) if n < 0 => Err(PageError::Negative(arg)),
        Some(n) if n as u64 > max => Err(PageError::TooLarge { arg, asked: n, max }),
        Some(n) => Ok(Some(n as u64)),
    }
}

/// Checks the arguments before anything is read, so a bad request costs no query.
pub fn check(args: &PageArgs) -> Result<(), PageError> {
    size("first", args.first, MAX_PAGE_SIZE)?;
    size("last", args.last, MAX_PAGE_SIZE)?;
    if let Some(a) = &args.after {
        decode_cursor(a, "after")?;
    }
    if let Some(b) = &args.before {
        decode_cursor(b, "before")?;
    }
    Ok(())
}

/// The window of a list of `total` items that the arguments select (Relay's algorithm over positions).
pub fn window(args: &PageArgs, total: u64) -> Result<Window, PageError> {
    let first = size("first", args.first, MAX_PAGE_SIZE)?;
    let last = size("last", args.last, MAX_PAGE_SIZE)?;
    let mut start = match &args.after {
        Some(a) => decode_cursor(a, "after")?.saturating_add(1),
        None => 0,
    };
    let mut end = match &args.before {
        Some(b) => decode_cursor(b, "before")?,
        None => total,
    };
    end = end.min(total);
    start = start.min(end);
    let first = if first.is_none() && last.is_none() {
        Some(DEFAULT_PAGE_SIZE)
    } else {
        first
    };
    if let Some(n) = first {
        end = end.min(start + n);
    }
    if let Some(n) = last {
        start = start.max(end.saturating_sub(n));
    }
    Ok(Window {
        offset: start,
        limit: end - start,
        has_previous_page: start > 0,
        has_next_page: end < total,
    })
}

/// The window the arguments select when the total is not read (the client did not ask for `totalCount`): `None` when
/// it cannot be known without it (`last` without `before`, counted from the end of the list). `has_next_page` is left `false`: the
/// caller reads one row past the window ([`Window::limit`] + 1) and sets it when that row exists, which is what the
/// counted window says too (an item at the window's end).
pub fn open_window(args: &PageArgs) -> Result<Option<Window>, PageError> {
    let first = size("first", args.first, MAX_PAGE_SIZE)?;
    let last = size("last", args.last, MAX_PAGE_SIZE)?;
    let mut start = match &args.after {
        Some(a) => decode_cursor(a, "after")?.saturating_add(1),
        None => 0,
    };
    let mut end = match &args.before {
        Some(b) => Some(decode_cursor(b, "before")?),
        None => None,
    };
    let first = if first.is_none() && last.is_none() {
        Some(DEFAULT_PAGE_SIZE)
    } else {
        first
    };
    if let Some(n) = first {
        end = Some(end.map_or(start + n, |e| e.min(start + n)));
    }
    // `last` counts back from the window's end, which only the total places unless `before` gives it.
    let (Some(mut end), false) = (end, last.is_some() && args.before.is_none()) else {
        return Ok(None);
    };
    start = start.min(end);
    if let Some(n) = last {
        start = start.max(end.saturating_sub(n));
    }
    end = end.max(start);
    Ok(Some(Window {
        offset: start,
        limit: end - start,
        has_previous_page: start > 0,
        has_next_page: false,
    }))
}

/// Declares a connection and its edge type for one node type, with descriptions and `totalCount`.
macro_rules! connection {
    ($conn:ident, $edge:ident, $node:ty, $conn_doc:literal, $edge_doc:literal) => {
        #[doc = $conn_doc]
        pub struct $conn {
            /// The edges of the page.
            pub edges: Vec<$edge>,
            /// Where the page sits.
            pub page_info: $crate::graphql::pagination::PageInfo,
            /// Items matching, over all pages.
            pub total_count: u64,
        }

        #[doc = $conn_doc]
        #[async_graphql::Object]
        impl $conn {
            /// The items of this page with their cursors, in order.
            async fn edges(&self) -> &[$edge] {
                &self.edges
            }

            /// The items of this page, in order (the edges without cursors).
            async fn nodes(&self) -> Vec<&$node> {
                self.edges.iter().map(|e| &e.node).collect()
            }

            /// Where this page sits in the whole list.
            async fn page_info(&self) -> &$crate::graphql::pagination::PageInfo {
                &self.page_info
            }

            /// How many items match the filter, over all pages.
            async fn total_count(&self) -> u64 {
                self.total_count
            }
        }

        #[doc = $edge_doc]
        #[derive(async_graphql::SimpleObject)]
        pub struct $edge {
            /// Opaque cursor of this item, for `after`/`before`.
            pub cursor: String,
            /// The item.
            pub node: $node,
        }

        impl $conn {
            /// Builds the connection from a window and the page's nodes, in order.
            pub fn build(window: $crate::graphql::pagination::Window, total: u64, nodes: Vec<$node>) -> Self {
                let edges = nodes
                    .into_iter()
                    .enumerate()
                    .map(|(i, node)| $edge {
                        cursor: $crate::graphql::pagination::cursor(window.offset + i as u64),
                        node,
                    })
                    .collect::<Vec<_>>();
                let page_info = $crate::graphql::pagination::PageInfo::of(&window, edges.len() as u64);
                Self {
                    edges,
                    page_info,
                    total_count: total,
                }
            }
        }
    };
}
pub(crate) use connection;

/// Declares a keyset connection (newest first; cursors name items, so pages stay put when rows are inserted) and its
/// edge type, built from a service page.
macro_rules! keyset_connection {
    ($conn:ident, $edge:ident, $node:ty, $conn_doc:literal, $edge_doc:literal) => {
        $crate::graphql::pagination::connection!($conn, $edge, $node, $conn_doc, $edge_doc);

        impl $conn {
            /// Builds the connection from a service page, converting each item.
            pub fn from_page<T>(page: service::page::Page<T>, node: impl Fn(T) -> $node) -> Self {
                let start_cursor = page.items.first().map(|(id, _)| service::page::cursor(*id));
                let end_cursor = page.items.last().map(|(id, _)| service::page::cursor(*id));
                Self {
                    edges: page
                        .items
                        .into_iter()
                        .map(|(id, item)| $edge {
                            cursor: service::page::cursor(id),
                            node: node(item),
                        })
                        .collect(),
                    page_info: $crate::graphql::pagination::PageInfo {
                        has_previous_page: page.has_previous_page,
                        has_next_page: page.has_next_page,
                        start_cursor,
                        end_cursor,
                    },
                    total_count: page.total_count,
                }
            }
        }
    };
}
pub(crate) use keyset_connection;

/// Relay page information.
#[derive(Debug, Clone, async_graphql::SimpleObject)]
pub struct PageInfo {
    /// Whether items exist before this page.
    pub has_previous_page: bool,
    /// Whether items exist after this page.
    pub has_next_page: bool,
    /// Cursor of the first item of the page, if any.
    pub start_cursor: Option<String>,
    /// Cursor of the last item of the page, if any.
    pub end_cursor: Option<String>,
}

impl PageInfo {
    /// Page information for a window of which `len` items were read.
    pub fn of(w: &Window, len: u64) -> Self {
        Self {
            has_previous_page: w.has_previous_page,
            has_next_page: w.has_next_page,
            start_cursor: (len > 0).then(|| cursor(w.offset)),
            end_cursor: (len > 0).then(|| cursor(w.offset + len - 1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(first: Option<i32>, after: Option<u64>, last: Option<i32>, before: Option<u64>) -> PageArgs {
        PageArgs {
            first,
            after: after.map(cursor),
            last,
            before: before.map(cursor),
        }
    }

    fn w(offset: u64, limit: u64, prev: bool, next: bool) -> Window {
        Window {
            offset,
            limit,
            has_previous_page: prev,
            has_next_page: next,
        }
    }

    /// Without the total, every window that does not count from the end is the counted one, its `hasNextPage`
    /// learnt from one row past it.
    #[test]
    fn open_windows_match_counted_ones() {
        let total = 50u64;
        let mut compared = 0;
        for first in [None, Some(0), Some(5), Some(100)] {
            for last in [None, Some(0), Some(3), Some(60)] {
                for after in [None, Some(0), Some(10), Some(48), Some(49), Some(70)] {
                    for before in [None, Some(0), Some(12), Some(49), Some(80)] {
                        let a = args(first, after, last, before);
                        let counted = window(&a, total).expect("valid");
                        let Some(mut open) = open_window(&a).expect("valid") else {
                            assert!(last.is_some() && before.is_none(), "{a:?}");
                            continue;
                        };
                        // What reading `limit + 1` rows from the offset finds.
                        let read = total.saturating_sub(open.offset).min(open.limit + 1);
                        open.has_next_page = read > open.limit;
                        open.limit = open.limit.min(read);
                        if before.is_some_and(|b| b > total) {
                            // A cursor past the end (rows deleted since it was issued) reads what lies before it.
                            continue;
                        }
                        if after.is_some_and(|a| a >= total) {
                            assert_eq!((open.limit, counted.limit), (0, 0), "nothing after the end: {a:?}");
                            continue;
                        }
                        if counted.limit == 0 {
                            // An empty page: no cursors, so where it sits does not show.
                            assert_eq!(open.limit, 0, "{a:?}");
                            continue;
                        }
                        assert_eq!(open, counted, "{a:?}");
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 50, "the cases compared: {compared}");
    }

    #[test]
    fn windows_follow_relay_over_positions() {
        let cases = [
            (
                args(None, None, None, None),
                50,
                w(0, 20, false, true),
                "no arguments: the default page",
            ),
            (args(Some(10), None, None, None), 50, w(0, 10, false, true), "first 10"),
            (
                args(Some(10), Some(9), None, None),
                50,
                w(10, 10, true, true),
                "second page",
            ),
            (
                args(Some(10), Some(44), None, None),
                50,
                w(45, 5, true, false),
                "short last page",
            ),
            (
                args(Some(10), Some(49), None, None),
                50,
                w(50, 0, true, false),
                "after the last item: empty",
            ),
            (
                args(Some(10), Some(500), None, None),
                50,
                w(50, 0, true, false),
                "cursor beyond the end: empty",
            ),
            (args(None, None, Some(10), None), 50, w(40, 10, true, false), "last 10"),
            (
                args(None, None, Some(10), Some(40)),
                50,
                w(30, 10, true, true),
                "the page before the last",
            ),
            (
                args(None, None, Some(10), Some(5)),
                50,
                w(0, 5, false, true),
                "last near the start: short",
            ),
            (
                args(Some(5), Some(9), None, Some(12)),
                50,
                w(10, 2, true, true),
                "after and before narrow the list",
            ),
            (args(Some(0), None, None, None), 50, w(0, 0, false, true), "first 0"),
            (args(Some(10), None, None, None), 0, w(0, 0, false, false), "empty list"),
            (
                args(Some(100), None, None, None),
                100,
                w(0, 100, false, false),
                "exactly the cap",
            ),
        ];
        for (a, total, expected, why) in cases {
            assert_eq!(window(&a, total), Ok(expected), "{why}");
        }
    }

    #[test]
    fn bad_page_arguments_are_refused_with_the_argument_named() {
        assert_eq!(
            window(&args(Some(101), None, None, None), 10),
            Err(PageError::TooLarge {
                arg: "first",
                asked: 101,
                max: 100
            })
        );
        assert_eq!(
            window(&args(None, None, Some(-1), None), 10),
            Err(PageError::Negative("last"))
        );
        let bad = PageArgs {
            after: Some("bm9wZQ".into()),
            ..Default::default()
        };
        assert_eq!(window(&bad, 10), Err(PageError::BadCursor("after")));
        assert_eq!(
            check(&PageArgs {
                before: Some("!!".into()),
                ..Default::default()
            }),
            Err(PageError::BadCursor("before"))
        );
    }
}
