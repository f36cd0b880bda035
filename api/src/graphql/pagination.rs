//! Relay connections: the connection and edge types of each list, and its page information. Every cursor names its
//! item (its id, or its values of the list's sort: `service::page`), never its position, so the page after another
//! neither skips nor repeats an item when items are inserted, changed or deleted in between. `first`/`after` page
//! forward, `last`/`before` backward; a page holds at most `service::page::MAX_PAGE_SIZE` items, and
//! `service::page::DEFAULT_PAGE_SIZE` when neither `first` nor `last` is given.

/// A keyset page request from Relay's arguments (`service::page::Keyset`), refused in the request's language.
pub(crate) fn keyset(
    ctx: &async_graphql::Context<'_>,
    first: Option<i32>,
    after: Option<String>,
    last: Option<i32>,
    before: Option<String>,
) -> async_graphql::Result<service::page::Keyset> {
    use super::error::Served;
    service::page::Keyset::parse(first, after.as_deref(), last, before.as_deref()).served(ctx)
}

/// What a client asked for, as written (the service reads the cursors, for the list's ordering).
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
            /// Builds the connection from the page's information, its total and its nodes with their cursors, in
            /// order.
            pub fn build(
                page_info: $crate::graphql::pagination::PageInfo,
                total: u64,
                edges: Vec<(String, $node)>,
            ) -> Self {
                Self {
                    edges: edges
                        .into_iter()
                        .map(|(cursor, node)| $edge { cursor, node })
                        .collect(),
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
    /// The information of a page of a sorted list, its cursors those of its first and last rows as read: a row left
    /// out afterwards (deleted before its node was loaded) still bounds the next page.
    pub fn of<T>(page: &service::page::Slice<T>, cursor: impl Fn(&T) -> String) -> Self {
        Self {
            has_previous_page: page.has_previous_page,
            has_next_page: page.has_next_page,
            start_cursor: page.rows.first().map(&cursor),
            end_cursor: page.rows.last().map(&cursor),
        }
    }
}

/// Declares the `orderBy` input of a keyset list (`BankReportOrder { field: BankReportOrderField!, direction }`, in
/// `FinancingOrder`'s shape) whose one field is the order the items were recorded in: their ids, which the cursors
/// name, so a cursor stays right in either direction. `keyset(order)` applies it to a page request.
macro_rules! record_order {
    ($order:ident, $field:ident, $value:ident, $order_doc:literal, $value_doc:literal) => {
        #[doc = $order_doc]
        #[derive(async_graphql::InputObject, Copy, Clone, Debug, Default)]
        pub struct $order {
            /// What to sort by.
            #[graphql(default)]
            pub field: $field,
            /// Which way: `DESC` (the default) newest first, `ASC` oldest first.
            #[graphql(default)]
            pub direction: $crate::graphql::types::enums::OrderDirection,
        }

        #[doc = concat!("What to sort by in `", stringify!($order), "`.")]
        #[derive(async_graphql::Enum, Copy, Clone, Debug, Default, Eq, PartialEq)]
        pub enum $field {
            #[doc = $value_doc]
            #[default]
            $value,
        }

        impl $order {
            /// The page request read in this order.
            pub fn keyset(order: Option<Self>, keyset: service::page::Keyset) -> service::page::Keyset {
                let asc = order.is_some_and(|o| o.direction == $crate::graphql::types::enums::OrderDirection::Asc);
                keyset.oldest_first(asc)
            }
        }
    };
}
pub(crate) use record_order;
