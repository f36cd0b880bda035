//! The borrower's name as the bank filed it, kept on each carta. A person's record (`party`) holds the name its first
//! filer sent; a bank shown that name when it filed a carta for the same CPF under another name (or none) would learn
//! a name it did not know, so a bank reads a person under the names it sent itself.
//!
//! Cartas already recorded take the person's recorded name when their bank is the one whose carta came first (the
//! name most likely its own); the others keep none, and their bank is shown the person's initials until it files a
//! name again.

use crate::util::{add_columns, drop_columns};
use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        add_columns(
            manager,
            "fco_carta",
            [ColumnDef::new("borrower_name").text().null().to_owned()],
        )
        .await?;
        manager
            .get_connection()
            .execute_unprepared(
                "UPDATE fco_carta SET borrower_name = (SELECT p.name FROM party p WHERE p.id = fco_carta.party_id)
                 WHERE fco_carta.bank_id = (SELECT f.bank_id FROM fco_carta f
                                            WHERE f.party_id = fco_carta.party_id ORDER BY f.id LIMIT 1)",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        drop_columns(manager, "fco_carta", &["borrower_name"]).await
    }
}
