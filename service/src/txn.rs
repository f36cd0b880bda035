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
