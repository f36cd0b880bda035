//! Value types parsed once at the edge: documents, municipality codes, money.

pub mod document;
pub mod ibge;
pub mod money;
pub mod time;

pub use document::{Cnpj, Cpf, Document, DocumentError, DocumentKind};
pub use ibge::{IbgeCode, IbgeCodeError, Region, Uf};
pub use money::{AmountError, Money, Quantity};
pub use time::{Authority, brasilia_date, brasilia_day_end, known_on};
