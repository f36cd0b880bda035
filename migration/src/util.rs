//! Small builders shared by the migration steps.

use sea_orm_migration::prelude::*;

/// A foreign key from `table.column` to `target.id`.
pub fn fk(table: &'static str, column: &'static str, target: &'static str) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .name(format!("fk_{table}_{column}"))
        .from(table, column)
        .to(target, "id")
        .on_delete(ForeignKeyAction::Restrict)
        .to_owned()
}

/// A (non-unique) index on `table(columns)`.
pub fn index(table: &'static str, columns: &[&'static str]) -> IndexCreateStatement {
    let mut idx = Index::create();
    idx.name(format!("idx_{table}_{}", columns.join("_"))).table(table);
    for c in columns {
        idx.col(*c);
    }
    idx.to_owned()
}

/// Drops each table, in the order given.
pub async fn drop_tables(manager: &SchemaManager<'_>, tables: &[&'static str]) -> Result<(), DbErr> {
    for t in tables {
        manager
            .drop_table(Table::drop().table(*t).if_exists().to_owned())
            .await?;
    }
    Ok(())
}

/// Adds each column to `table`, one `ALTER TABLE` per column (SQLite takes one at a time).
pub async fn add_columns(
    manager: &SchemaManager<'_>,
    table: &'static str,
    columns: impl IntoIterator<Item = ColumnDef>,
) -> Result<(), DbErr> {
    for mut def in columns {
        manager
            .alter_table(Table::alter().table(table).add_column(&mut def).to_owned())
            .await?;
    }
    Ok(())
}

/// The columns of a fact kept in versions: when and by whom each version was recorded, and, once corrected or
/// removed, when, by which version and why.
pub fn version_columns() -> [ColumnDef; 5] {
    [
        ColumnDef::new("recorded_at")
            .timestamp_with_time_zone()
            .null()
            .to_owned(),
        ColumnDef::new("recorded_by").string().null().to_owned(),
        ColumnDef::new("superseded_at")
            .timestamp_with_time_zone()
            .null()
            .to_owned(),
        ColumnDef::new("superseded_by").big_integer().null().to_owned(),
        ColumnDef::new("change_reason").string().null().to_owned(),
    ]
}

/// The names of [`version_columns`], in reverse order for dropping them.
pub const VERSION_COLUMNS: [&str; 5] = [
    "change_reason",
    "superseded_by",
    "superseded_at",
    "recorded_by",
    "recorded_at",
];

/// Drops each column of `table`, in the order given.
pub async fn drop_columns(
    manager: &SchemaManager<'_>,
    table: &'static str,
    columns: &[&'static str],
) -> Result<(), DbErr> {
    for column in columns {
        manager
            .alter_table(Table::alter().table(table).drop_column(*column).to_owned())
            .await?;
    }
    Ok(())
}
