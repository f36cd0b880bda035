//! Transactions that write.
//!
//! On SQLite a transaction that writes begins `IMMEDIATE`: it takes the write lock at `BEGIN`, waiting its turn under
//! the busy timeout. A deferred one that read first and then wrote while another connection was writing would fail at
//! once with "database is locked" (SQLite does not wait when a reader asks to become a writer), and the request would
//! answer `INTERNAL`. On PostgreSQL the option changes nothing. Inside a transaction it is a savepoint, as `begin`.
//!
//! Every write of a request runs in one: a request stopped at its time limit drops the transaction, which rolls back
//! a statement already sent instead of letting it land after the answer.

use sea_orm::{DbErr, SqliteTransactionMode, TransactionOptions, TransactionTrait};

/// Begins a transaction that will write.
pub async fn write<C: TransactionTrait>(db: &C) -> Result<C::Transaction, DbErr> {
    db.begin_with_options(TransactionOptions {
        sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        ..Default::default()
    })
    .await
}

/// After a bulk write has committed (a bank's list, a sheet of facts) and when a server starts: on SQLite, gathers the
/// query planner's statistics where they are missing or stale (`PRAGMA optimize` over every table, 0x10002). SQLite
/// keeps none by itself, and without them it takes an equality for a narrow one: a bank's first page of `financings`
/// over a million of its cartas read all of them through the bank's index and sorted them (0.14–0.23 s), not the
/// first few by date. A full analysis, not SQLite's sampled one (0x10): the sample counted 1,942 cartas a bank when
/// there was one bank, and the plan stayed. It costs half a second on a million cartas, once: later calls find the
/// statistics current and do nothing until a table has grown many times over. PostgreSQL's autovacuum analyses by
/// itself.
pub async fn refresh_statistics(db: &impl sea_orm::ConnectionTrait) -> Result<(), DbErr> {
    if db.get_database_backend() == sea_orm::DbBackend::Sqlite {
        db.execute_unprepared("PRAGMA optimize=0x10002").await?;
    }
    Ok(())
}

/// A transaction that writes many rows at once: on PostgreSQL it can stream rows in by `COPY` ([`Bulk::copy_in`]),
/// which sea-orm's own transaction cannot run, so it is opened on the sqlx pool sea-orm exposes; on SQLite it is
/// sea-orm's transaction ([`write`]). Either way it is a [`ConnectionTrait`](sea_orm::ConnectionTrait): the sea-orm
/// queries of a use case run on it unchanged.
pub enum Bulk {
    /// sea-orm's transaction (SQLite).
    Orm(sea_orm::DatabaseTransaction),
    /// A transaction on one connection of the PostgreSQL pool.
    Postgres(tokio::sync::Mutex<sqlx::Transaction<'static, sqlx::Postgres>>),
}

fn exec_err(e: sqlx::Error) -> DbErr {
    DbErr::Exec(sea_orm::RuntimeErr::SqlxError(std::sync::Arc::new(e)))
}

fn query_err(e: sqlx::Error) -> DbErr {
    DbErr::Query(sea_orm::RuntimeErr::SqlxError(std::sync::Arc::new(e)))
}

/// `stmt` as sqlx's query, its values bound as sea-orm binds them.
fn pg_query(stmt: &sea_orm::Statement) -> sqlx::query::Query<'_, sqlx::Postgres, sea_query_sqlx::SqlxValues> {
    let values = stmt.values.clone().unwrap_or(sea_orm::sea_query::Values(Vec::new()));
    sqlx::query_with(
        sqlx::AssertSqlSafe(stmt.sql.as_str()),
        sea_query_sqlx::SqlxValues(values),
    )
}

impl Bulk {
    /// Begins a transaction that will write, on `db`'s backend.
    pub async fn begin(db: &sea_orm::DatabaseConnection) -> Result<Self, DbErr> {
        if db.get_database_backend() == sea_orm::DbBackend::Postgres {
            let txn = db
                .get_postgres_connection_pool()
                .begin()
                .await
                .map_err(|e| DbErr::Conn(sea_orm::RuntimeErr::SqlxError(std::sync::Arc::new(e))))?;
            return Ok(Self::Postgres(tokio::sync::Mutex::new(txn)));
        }
        Ok(Self::Orm(write(db).await?))
    }

    /// Streams `data`, rows in `COPY`'s text format, into `table(columns)` (PostgreSQL only): the number of rows copied.
    pub async fn copy_in(&self, table: &str, columns: &str, data: &[u8]) -> Result<u64, DbErr> {
        let Self::Postgres(txn) = self else {
            return Err(DbErr::Custom("COPY runs on PostgreSQL only".into()));
        };
        let mut txn = txn.lock().await;
        let mut copy = txn
            .copy_in_raw(&format!("COPY {table} ({columns}) FROM STDIN"))
            .await
            .map_err(exec_err)?;
        if let Err(e) = copy.send(data).await {
            // The connection must leave the copy state either way; the send's error is the one to report.
            let _ = copy.abort(e.to_string()).await;
            return Err(exec_err(e));
        }
        copy.finish().await.map_err(exec_err)
    }

    /// Commits.
    pub async fn commit(self) -> Result<(), DbErr> {
        match self {
            Self::Orm(txn) => txn.commit().await,
            Self::Postgres(txn) => txn.into_inner().commit().await.map_err(exec_err),
        }
    }

    /// Rolls back.
    pub async fn rollback(self) -> Result<(), DbErr> {
        match self {
            Self::Orm(txn) => txn.rollback().await,
            Self::Postgres(txn) => txn.into_inner().rollback().await.map_err(exec_err),
        }
    }
}

#[async_trait::async_trait]
impl sea_orm::ConnectionTrait for Bulk {
    fn get_database_backend(&self) -> sea_orm::DbBackend {
        match self {
            Self::Orm(txn) => txn.get_database_backend(),
            Self::Postgres(_) => sea_orm::DbBackend::Postgres,
        }
    }

    async fn execute_raw(&self, stmt: sea_orm::Statement) -> Result<sea_orm::ExecResult, DbErr> {
        match self {
            Self::Orm(txn) => txn.execute_raw(stmt).await,
            Self::Postgres(txn) => {
                let mut txn = txn.lock().await;
                Ok(pg_query(&stmt).execute(&mut **txn).await.map_err(exec_err)?.into())
            }
        }
    }

    async fn execute_unprepared(&self, sql: &str) -> Result<sea_orm::ExecResult, DbErr> {
        match self {
            Self::Orm(txn) => txn.execute_unprepared(sql).await,
            Self::Postgres(txn) => {
                use sqlx::Executor;
                let mut txn = txn.lock().await;
                let done = (&mut **txn)
                    .execute(sqlx::raw_sql(sqlx::AssertSqlSafe(sql)))
                    .await
                    .map_err(exec_err)?;
                Ok(done.into())
            }
        }
    }

    async fn query_one_raw(&self, stmt: sea_orm::Statement) -> Result<Option<sea_orm::QueryResult>, DbErr> {
        match self {
            Self::Orm(txn) => txn.query_one_raw(stmt).await,
            Self::Postgres(txn) => {
                let mut txn = txn.lock().await;
                let row = pg_query(&stmt).fetch_optional(&mut **txn).await.map_err(query_err)?;
                Ok(row.map(Into::into))
            }
        }
    }

    async fn query_all_raw(&self, stmt: sea_orm::Statement) -> Result<Vec<sea_orm::QueryResult>, DbErr> {
        match self {
            Self::Orm(txn) => txn.query_all_raw(stmt).await,
            Self::Postgres(txn) => {
                let mut txn = txn.lock().await;
                let rows = pg_query(&stmt).fetch_all(&mut **txn).await.map_err(query_err)?;
                Ok(rows.into_iter().map(Into::into).collect())
            }
        }
    }
}
