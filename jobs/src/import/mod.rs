//! The import job: claims a received fact import (a conditional claim with a lease, safe with several workers on one
//! database, as the monthly reports' ingestion does), reads its file, and either applies every row in one transaction
//! through the service's commands (`APPLIED`) or applies nothing and keeps every row error (`REJECTED`). An attempt
//! that fails is tried again after a backoff while attempts remain and the error can pass; otherwise the import ends
//! `FAILED`. The raw file always stays in the store.

pub mod sheet;

use crate::{
    report::{
        ingest::{Drain, IngestError, UploadContext},
        messages::{Message, code},
        read::read,
        rows::RowError,
    },
    runs::JobReport,
};
use chrono::{DateTime, Utc};
use entity::{fact_import, fact_import_error};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, DbErr, EntityTrait, IntoActiveModel, QueryFilter};
/// How one import ended (the queue's outcome of a claimed row).
pub use service::queue::Outcome;
use service::{
    caller::Caller,
    clock::Clock,
    imports::{self, Kind},
    lifecycle::Act,
};

/// The job's name in `job_run`.
pub const JOB: &str = "import";

/// Claims the oldest import that is received, or whose lease expired; each claim is an attempt. One whose worker
/// died during its last attempt ends `FAILED`.
pub async fn claim(ctx: &UploadContext, now: DateTime<Utc>) -> Result<Option<fact_import::Model>, DbErr> {
    ctx.claimer().claim::<fact_import::Entity>(now).await
}

/// One step: process every claimable import.
pub async fn run_once(ctx: &UploadContext, now: DateTime<Utc>) -> Result<JobReport, IngestError> {
    let mut drain = Drain::default();
    while let Some(r) = drain.next::<fact_import::Entity>(ctx, now).await? {
        let work = process(ctx, &r, now).await;
        drain.settle::<fact_import::Entity>(ctx, &r, work, now).await?;
    }
    Ok(drain.report(code::JOB_IMPORT_DONE))
}

/// Reads and applies one claimed import.
pub async fn process(ctx: &UploadContext, r: &fact_import::Model, now: DateTime<Utc>) -> Result<Outcome, IngestError> {
    let Ok(kind) = Kind::parse(&r.kind) else {
        return Err(IngestError::Db(DbErr::Custom(format!(
            "import {} has an unknown kind {:?}",
            r.id, r.kind
        ))));
    };
    let bytes = ctx.store.get(&r.sha256).await?;
    let cells = match read(&bytes, &ctx.limits) {
        Ok(c) => c,
        Err(e) => return finish(ctx, r, now, 0, Some(e.message()), Vec::new()).await,
    };
    let header = match sheet::find_header(kind, &cells) {
        Ok(h) => h,
        Err(m) => return finish(ctx, r, now, 0, Some(m), Vec::new()).await,
    };
    let (rows, errors, read_count) = sheet::parse(kind, &cells, &header, r.year);
    if !errors.is_empty() {
        return finish(ctx, r, now, read_count, None, errors).await;
    }
    if read_count == 0 {
        return finish(ctx, r, now, 0, Some(Message::new(code::FILE_NO_ROWS)), Vec::new()).await;
    }
    let act = Act {
        caller: Caller::Import {
            id: r.id,
            by: r.received_by.clone(),
        },
        clock: Clock::Fixed(now),
    };
    let txn = service::txn::write(&ctx.db).await?;
    if !ctx.still_mine::<fact_import::Entity>(&txn, r.id).await? {
        txn.rollback().await?;
        return Ok(Outcome::LostLease);
    }
    let problems = match imports::apply(&txn, &act, r, rows).await {
        Ok(p) => p,
        Err(e) => {
            txn.rollback().await?;
            return Err(IngestError::Db(DbErr::Custom(e.to_string())));
        }
    };
    if !problems.is_empty() {
        txn.rollback().await?;
        let errors = problems
            .into_iter()
            .map(|p| RowError {
                row: p.row,
                column: sheet::column_for_field(kind, &header, p.field),
                value: None,
                message: p.message,
                rule_code: p.rule_code,
            })
            .collect();
        return finish(ctx, r, now, read_count, None, errors).await;
    }
    let mut a = r.clone().into_active_model();
    a.status = Set("APPLIED".into());
    a.rows_read = Set(Some(read_count as i32));
    a.rows_applied = Set(Some(read_count as i32));
    a.processed_at = Set(Some(now));
    a.lease_until = Set(None);
    a.update(&txn).await?;
    txn.commit().await?;
    // The import is applied whatever happens here: a failure is logged, not returned.
    if let Err(e) = service::txn::refresh_statistics(&ctx.db).await {
        tracing::warn!(import = r.id, error = %e, "the planner's statistics were not refreshed");
    }
    Ok(Outcome::Applied { rows: read_count })
}

/// Ends an import `REJECTED` with its errors (a file-level one, or every row's), nothing applied.
async fn finish(
    ctx: &UploadContext,
    r: &fact_import::Model,
    now: DateTime<Utc>,
    rows: usize,
    file_error: Option<Message>,
    errors: Vec<RowError>,
) -> Result<Outcome, IngestError> {
    let txn = service::txn::write(&ctx.db).await?;
    if !ctx.still_mine::<fact_import::Entity>(&txn, r.id).await? {
        txn.rollback().await?;
        return Ok(Outcome::LostLease);
    }
    fact_import_error::Entity::delete_many()
        .filter(fact_import_error::Column::ImportId.eq(r.id))
        .exec(&txn)
        .await?;
    for chunk in errors.chunks(500) {
        fact_import_error::Entity::insert_many(chunk.iter().map(|e| fact_import_error::ActiveModel {
            import_id: Set(r.id),
            row_number: Set(e.row as i32),
            column_name: Set(e.column.clone()),
            value: Set(e.value.clone()),
            message_code: Set(e.message.code.clone()),
            message_args: Set(Some(e.message.args_json())),
            rule_code: Set(e.rule_code.clone()),
            ..Default::default()
        }))
        .exec_without_returning(&txn)
        .await?;
    }
    let mut a = r.clone().into_active_model();
    a.status = Set("REJECTED".into());
    a.rows_read = Set(Some(rows as i32));
    a.rows_applied = Set(Some(0));
    a.file_error_code = Set(file_error.as_ref().map(|m| m.code.clone()));
    a.file_error_args = Set(file_error.as_ref().map(Message::args_json));
    a.processed_at = Set(Some(now));
    a.lease_until = Set(None);
    a.update(&txn).await?;
    txn.commit().await?;
    Ok(Outcome::Rejected {
        rows,
        errors: errors.len().max(usize::from(file_error.is_some())),
    })
}
