//! The social-fuel rules' instrument is IN MDA nº 2 of 28 September 2005 (published, and in force, 30 September
//! 2005), not IN MDA nº 01/2005 (the seal's criteria, which its art. 1 III and art. 2 cite). The baseline versions
//! stored under the wrong name and from 5 July 2005 are corrected as any version is: withdrawn with the reason, and
//! replaced by a version citing the right instrument from the right day; both stay in the history.

use sea_orm_migration::{
    prelude::*,
    sea_orm::{ConnectionTrait, FromQueryResult, Statement, prelude::Date},
};

const WRONG: &str = "IN MDA nº 01/2005";
const RIGHT: &str = "IN MDA nº 2/2005";
const REASON: &str = "wrong instrument: the social-fuel framing is IN MDA nº 2 of 28 September 2005, in force from \
                      its publication on 30 September 2005; IN MDA nº 01/2005 is the seal's";

#[derive(FromQueryResult)]
struct Version {
    id: i64,
    key: String,
    rule_code: String,
    value: String,
    unit: String,
    effective_to: Option<Date>,
    legal_source: String,
}

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let db = manager.get_connection();
        let backend = db.get_database_backend();
        let wrong: Vec<Version> = Version::find_by_statement(Statement::from_sql_and_values(
            backend,
            match backend {
                sea_orm_migration::sea_orm::DbBackend::Postgres => {
                    "SELECT id, key, rule_code, value, unit, effective_to, legal_source FROM rule_parameter \
                     WHERE legal_source LIKE $1 AND withdrawn_at IS NULL ORDER BY id"
                }
                _ => {
                    "SELECT id, key, rule_code, value, unit, effective_to, legal_source FROM rule_parameter \
                     WHERE legal_source LIKE ? AND withdrawn_at IS NULL ORDER BY id"
                }
            },
            [format!("{WRONG}%").into()],
        ))
        .all(db)
        .await?;
        let from = Date::from_ymd_opt(2005, 9, 30);
        for v in wrong {
            let source = v.legal_source.replacen(WRONG, RIGHT, 1);
            let insert = Query::insert()
                .into_table("rule_parameter")
                .columns([
                    "key",
                    "rule_code",
                    "value",
                    "unit",
                    "effective_from",
                    "effective_to",
                    "legal_source",
                    "created_at",
                ])
                .values_panic([
                    v.key.into(),
                    v.rule_code.into(),
                    v.value.into(),
                    v.unit.into(),
                    from.into(),
                    v.effective_to.into(),
                    source.into(),
                    Expr::current_timestamp(),
                ])
                .returning_col("id")
                .to_owned();
            let row = db
                .query_one(&insert)
                .await?
                .ok_or_else(|| DbErr::Migration("the corrected version has no id".into()))?;
            let new_id: i64 = row.try_get("", "id")?;
            manager
                .exec_stmt(
                    Query::update()
                        .table("rule_parameter")
                        .value("withdrawn_at", Expr::current_timestamp())
                        .value("withdrawal_reason", REASON)
                        .value("replaced_by", new_id)
                        .and_where(Expr::col("id").eq(v.id))
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, _manager: &SchemaManager) -> Result<(), DbErr> {
        // A correction is history: going down leaves both versions as they are.
        Ok(())
    }
}
