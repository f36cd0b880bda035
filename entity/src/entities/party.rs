//! A person (CPF) or legal entity (CNPJ) that borrows, produces or supplies.

use crate::domain::Document;
use sea_orm::QueryOrder;
use sea_orm::entity::prelude::*;

/// A party row. `document` holds the validated document without punctuation.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "party")]
pub struct Model {
    /// Surrogate key.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// CPF (11 digits) or CNPJ (14 characters), without punctuation, letters upper-case.
    #[sea_orm(unique)]
    pub document: String,
    /// `CPF` or `CNPJ`.
    pub document_kind: String,
    /// First 8 characters of a CNPJ (the company across its branches); `None` for a CPF.
    pub cnpj_root: Option<String>,
    /// Name or corporate name.
    pub name: String,
    /// The economic group the party belongs to, if any.
    pub economic_group_id: Option<i64>,
}

/// No declared relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}

impl Model {
    /// The parsed document; `None` only if the row was written around the domain type.
    pub fn parsed_document(&self) -> Option<Document> {
        Document::parse(&self.document).ok()
    }
}

impl Entity {
    /// Every party a document reaches: the exact CPF, or for a CNPJ every branch with the same root.
    pub fn find_by_document(document: &Document) -> Select<Entity> {
        match document.cnpj_root() {
            Some(root) => Self::find()
                .filter(Column::CnpjRoot.eq(root))
                .order_by_asc(Column::Document),
            None => Self::find().filter(Column::Document.eq(document.as_str())),
        }
    }
}
