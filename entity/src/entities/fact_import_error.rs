//! A problem found on a row of a fact import: which row, which column, what value, what is wrong, which rule.

use sea_orm::entity::prelude::*;

/// A row error.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fact_import_error")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The import.
    pub import_id: i64,
    /// Row number in the sheet (1-based).
    pub row_number: i32,
    /// Column header as found in the file (or the template's, when the column is missing).
    pub column_name: Option<String>,
    /// The offending value, as text.
    pub value: Option<String>,
    /// The message's catalogue code, rendered in the reader's language when read.
    pub message_code: String,
    /// The message's values, as a JSON object.
    pub message_args: Option<String>,
    /// The rule code, when a rule is broken.
    pub rule_code: Option<String>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
