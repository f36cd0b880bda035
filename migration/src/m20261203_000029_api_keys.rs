//! API keys: who may call Fomento, in which role, bound to which bank. A key is stored as its SHA-256 (random 256-bit
//! keys need no slow password hash), never in clear; its first characters are kept to tell keys apart in listings.

use sea_orm_migration::{prelude::*, schema::big_pk_auto};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("api_key")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("name").string().not_null())
                    .col(ColumnDef::new("role").string_len(16).not_null())
                    .col(ColumnDef::new("bank_id").big_integer().null())
                    .col(ColumnDef::new("key_hash").string_len(64).not_null().unique_key())
                    .col(ColumnDef::new("prefix").string_len(16).not_null())
                    .col(ColumnDef::new("created_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("created_by").string().not_null())
                    .col(ColumnDef::new("revoked_at").timestamp_with_time_zone().null())
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_api_key_bank_id")
                            .from("api_key", "bank_id")
                            .to("bank", "id")
                            .on_delete(ForeignKeyAction::Restrict),
                    )
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("api_key").if_exists().to_owned())
            .await
    }
}
