//! Browser sessions: the sign-in cookie carries an opaque random id, and the server keeps, under the id's SHA-256,
//! what it stands for (an API key's number, or a token's subject, role and bank), until when, and when it was ended
//! (signed out, or its key revoked). A cookie copied from a browser is worth nothing once the session ends.

use sea_orm_migration::{prelude::*, schema::big_pk_auto};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table("browser_session")
                    .if_not_exists()
                    .col(big_pk_auto("id"))
                    .col(ColumnDef::new("id_hash").string_len(64).not_null().unique_key())
                    .col(ColumnDef::new("api_key_id").big_integer().null())
                    .col(ColumnDef::new("token_subject").string().null())
                    .col(ColumnDef::new("token_role").string_len(16).null())
                    .col(ColumnDef::new("token_bank_id").big_integer().null())
                    .col(ColumnDef::new("created_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("expires_at").timestamp_with_time_zone().not_null())
                    .col(ColumnDef::new("ended_at").timestamp_with_time_zone().null())
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_browser_session_api_key_id")
                            .from("browser_session", "api_key_id")
                            .to("api_key", "id")
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_browser_session_api_key_id")
                    .table("browser_session")
                    .col("api_key_id")
                    .if_not_exists()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table("browser_session").if_exists().to_owned())
            .await
    }
}
