//! The social-fuel rules' instrument is IN MDA nº 2 of 28 September 2005 (published, and in force, 30 September
//! 2005), not IN MDA nº 01/2005 (the seal's criteria, which its art. 1 III and art. 2 cite). The baseline versions
//! stored under the wrong name and from 5 July 2005 are corrected as any version is: withdrawn with the reason, and
//! replaced by a version citing the right instrument from the right day; both stay in the history. The same pass
//! corrects citations of incisos the articles do not have: IN MDA nº 2/2005 art. 3 sets the three shares in its
//! caput (no incisos), and CDAE/MT art. 15 lists its exemptions as alíneas (the 10 % is alínea a).

use sea_orm_migration::{
    prelude::*,
    sea_orm::{ConnectionTrait, FromQueryResult, Statement, prelude::Date},
};

const WRONG: &str = "IN MDA nº 01/2005";
const RIGHT: &str = "IN MDA nº 2/2005";
const REASON: &str = "wrong instrument: the social-fuel framing is IN MDA nº 2 of 28 September 2005, in force from \
                      its publication on 30 September 2005; IN MDA nº 01/2005 is the seal's (and art. 3 sets the shares in \
                      its caput, without incisos)";

/// The articles cited as they are written: `(wrong, right)`.
const ARTICLES: [(&str, &str); 4] = [
    (", art. 3, III", ", art. 3 (Norte e Centro-Oeste)"),
    (", art. 3, II", ", art. 3 (Sudeste e Sul)"),
    (", art. 3, I", ", art. 3 (Nordeste e semi-árido)"),
    (", art. 15, I", ", art. 15, a"),
];

fn cited_right(source: &str) -> String {
    let source = source.replacen(WRONG, RIGHT, 1);
    ARTICLES
        .iter()
        .find(|(wrong, _)| source.ends_with(wrong))
        .map_or(source.clone(), |(wrong, right)| {
            format!("{}{right}", &source[..source.len() - wrong.len()])
        })
}

#[derive(FromQueryResult)]
struct Version {
    id: i64,
    effective_from: Date,
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
                    "SELECT id, effective_from, key, rule_code, value, unit, effective_to, legal_source \
                     FROM rule_parameter WHERE (legal_source LIKE $1 OR legal_source = $2) AND withdrawn_at IS NULL \
                     ORDER BY id"
                }
                _ => {
                    "SELECT id, effective_from, key, rule_code, value, unit, effective_to, legal_source \
                     FROM rule_parameter WHERE (legal_source LIKE ? OR legal_source = ?) AND withdrawn_at IS NULL \
                     ORDER BY id"
                }
            },
            [format!("{WRONG}%").into(), "IN CDAE/MT 2019, art. 15, I".into()],
        ))
        .all(db)
        .await?;
        let from = Date::from_ymd_opt(2005, 9, 30);
        for v in wrong {
            let source = cited_right(&v.legal_source);
            // The MDA instrument's versions start on its publication; a corrected citation keeps its day.
            let (from, reason) = if v.legal_source.starts_with(WRONG) {
                (from, REASON)
            } else {
                (
                    Some(v.effective_from),
                    "art. 15 lists its exemptions as alíneas: the 10 % increase is alínea a",
                )
            };
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
                        .value("withdrawal_reason", reason)
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
