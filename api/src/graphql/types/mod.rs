//! The public object types of the graph, and what joins them: the `Financing` interface over the two kinds of
//! financing of [`financing`], whose fields reach the types of [`objects`] (and theirs back), and the connections that
//! page them.

pub mod enums;
pub mod financing;
pub mod objects;
pub mod plain_fields;

use super::{
    pagination::connection,
    scalars::{Date, Decimal},
};
use async_graphql::{ID, Interface};
use enums::{FinancingStatus, Programme};
use financing::{FcoCarta, SocialFuelProject};
use objects::{Bank, Municipality, Party};

/// A financing in either programme: what front-ends list, filter and open without caring which programme it is.
#[fomento_macros::shared_fields]
#[allow(clippy::duplicated_attributes)]
#[derive(Interface, Clone, Debug)]
#[graphql(
    // `id`, `programme`, `bank`, `party`, `municipality`, `amount`, `status` and the three dates, declared once for the
    // interface and both financings (`fomento_macros`).
    financing_fields!(),
    field(
        name = "flags",
        ty = "async_graphql::Result<Vec<super::flags::ComplianceFlag>>",
        desc = "The compliance flags raised on it, newest first."
    ),
    // `compliance`, `deadlines` and `history`, with the arguments the two financings declare (`fomento_macros`).
    judged_fields!()
)]
pub enum Financing {
    /// A social-fuel project.
    SocialFuelProject(SocialFuelProject),
    /// An FCO carta.
    FcoCarta(FcoCarta),
}

connection!(
    FinancingConnection,
    FinancingEdge,
    Financing,
    "A page of financings of both programmes.",
    "A financing with its cursor."
);
connection!(
    SocialFuelProjectConnection,
    SocialFuelProjectEdge,
    SocialFuelProject,
    "A page of social-fuel projects.",
    "A social-fuel project with its cursor."
);
connection!(
    FcoCartaConnection,
    FcoCartaEdge,
    FcoCarta,
    "A page of FCO cartas.",
    "An FCO carta with its cursor."
);
connection!(
    BankConnection,
    BankEdge,
    Bank,
    "A page of banks.",
    "A bank with its cursor."
);
