//! Banks' monthly reports and job runs in the graph, and the upload mutation (GraphQL multipart request).

use super::{
    db,
    error::{ApiError, Served, gql},
    ids::{self, NodeKind},
    loader,
    scalars::DateTime,
    types::objects::Bank,
};
use async_graphql::{Context, Enum, ID, InputObject, Object, Result, SimpleObject, Upload};
use entity::bank_report;
use jobs::report::messages::{Message, code};
use std::io::Read;

/// The language the request asked for (`Accept-Language`), for the texts banks read.
pub(crate) use super::error::lang;

use super::pagination::keyset;

/// Where a report stands.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum BankReportStatus {
    /// Stored, waiting for the ingestion job.
    Received,
    /// Claimed by a worker.
    Processing,
    /// Every row applied.
    Ingested,
    /// Nothing applied: see `errors` or `fileError`.
    Rejected,
    /// Applied, then replaced by a later file for the same bank and month.
    Superseded,
    /// Nothing applied: the ingestion failed for a reason on Fomento's side, after its attempts (see `failure`).
    /// Uploading the same bytes again, or `fomento bank-reports retry NUMBER`, queues it again.
    Failed,
}

impl BankReportStatus {
    fn of(s: &str) -> Self {
        match s {
            "PROCESSING" => Self::Processing,
            "INGESTED" => Self::Ingested,
            "REJECTED" => Self::Rejected,
            "SUPERSEDED" => Self::Superseded,
            "FAILED" => Self::Failed,
            _ => Self::Received,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::Received => "RECEIVED",
            Self::Processing => "PROCESSING",
            Self::Ingested => "INGESTED",
            Self::Rejected => "REJECTED",
            Self::Superseded => "SUPERSEDED",
            Self::Failed => "FAILED",
        }
    }
}

/// A problem on one row of an uploaded sheet: a bank's monthly report or an import of facts.
#[derive(SimpleObject, Clone, Debug)]
pub struct ReportRowError {
    /// The sheet's row number, as the bank sees it.
    pub row: i32,
    /// The column's header as found in the file.
    pub column: Option<String>,
    /// The offending value.
    pub value: Option<String>,
    /// What is wrong.
    pub message: String,
    /// The rule code, when a rule is broken.
    pub rule_code: Option<String>,
}

/// Why a report's ingestion failed, in words for the bank, with a reference to quote to the operator.
#[derive(SimpleObject, Clone, Debug)]
pub struct IngestionFailure {
    /// What happened, for the bank (the technical detail is in the operator's log, under `reference`).
    pub message: String,
    /// The reference to quote to Fomento's operator (report and attempt).
    pub reference: String,
    /// Attempts made.
    pub attempts: i32,
}

/// A bank's monthly report of the cartas it approved and contracted (CDAE/MT 2019, art. 2 §5).
#[derive(Clone, Debug)]
pub struct BankReport(pub service::visible::Seen<bank_report::Model>);

/// A bank's monthly report of the cartas it approved and contracted (CDAE/MT 2019, art. 2 §5).
#[fomento_macros::shared_fields]
#[Object]
impl BankReport {
    // `id` and `number`, as every record kept by number answers them (`fomento_macros`).
    numbered_fields!(
        node = BankReport,
        number = "The number used in `/bank-reports/{number}/errors.xlsx`."
    );

    /// The reporting bank.
    async fn bank(&self, ctx: &Context<'_>) -> Result<Bank> {
        super::types::financing::bank_of(ctx, self.0.bank_id).await
    }

    /// The month reported, `YYYY-MM`.
    async fn reference_month(&self) -> &str {
        &self.0.reference_month
    }

    /// Where it stands.
    async fn status(&self) -> BankReportStatus {
        BankReportStatus::of(&self.0.status)
    }

    // `fileName`, `byteSize`, `sha256`, `receivedAt`: as every file received (`fomento_macros`).
    received_file_fields!();

    /// When processing ended, on Cuiabá's clock.
    async fn processed_at(&self) -> Option<DateTime> {
        self.0.processed_at.map(DateTime::cdae)
    }

    /// Data rows read.
    async fn row_count(&self) -> Option<i32> {
        self.0.row_count
    }

    /// Errors found.
    async fn error_count(&self) -> Option<i32> {
        self.0.error_count
    }

    /// Why the file could not be read at all, when that is the case; in the language of `Accept-Language`
    /// (Portuguese by default).
    async fn file_error(&self, ctx: &Context<'_>) -> Option<String> {
        crate::http::reports::file_error_of(&self.0).map(|m| m.render(lang(ctx)))
    }

    /// Attempts made to ingest it so far (each claim by a worker is one).
    async fn attempts(&self) -> i32 {
        self.0.attempts
    }

    /// When the report is `FAILED`: why, in words for the bank (in the language of `Accept-Language`, Portuguese by
    /// default), and the reference for the operator.
    async fn failure(&self, ctx: &Context<'_>) -> Option<IngestionFailure> {
        (self.0.status == "FAILED").then(|| IngestionFailure {
            message: Message::new(code::INGESTION_FAILED)
                .arg("attempts", self.0.attempts)
                .arg("reference", self.0.failure_reference())
                .render(lang(ctx)),
            reference: self.0.failure_reference(),
            attempts: self.0.attempts,
        })
    }

    /// Every row error, by row; messages in the language of `Accept-Language` (Portuguese by default).
    async fn errors(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "At most this many (1,000 by default, at most 100,000).", default = 1000)] first: i32,
    ) -> Result<Vec<ReportRowError>> {
        let first = service::page::bounded("first", first, 100_000).served(ctx)?;
        let rows = service::reports::row_errors(db(ctx), self.0.id, Some(first))
            .await
            .served(ctx)?;
        let lang = lang(ctx);
        let whole =
            service::privacy::sees_personal(&crate::graphql::caller(ctx), &[entity::vocab::Programme::FcoRural]);
        Ok(rows
            .into_iter()
            .map(|e| {
                let message = crate::http::reports::stored_message(
                    e.message_code.as_deref(),
                    e.message_args.as_deref(),
                    &e.message,
                );
                let (message, value) = if whole {
                    (message, e.value)
                } else {
                    crate::http::reports::masked_error(message, e.column_name.as_deref(), e.value)
                };
                ReportRowError {
                    row: e.row_number,
                    message: message.render(lang),
                    column: e.column_name,
                    value,
                    rule_code: e.rule_code,
                }
            })
            .collect())
    }

    /// The cartas this report declared (the bank's list of the month, its last row per carta), newest first.
    async fn cartas(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<DeclaredCartaConnection> {
        let keyset = keyset(ctx, first, after, last, before)?;
        let page = service::reports::declared_cartas(db(ctx), &super::caller(ctx), self.0.id, keyset)
            .await
            .served(ctx)?;
        Ok(DeclaredCartaConnection::from_page(
            service::visible::page_of_banks(&super::caller(ctx), page),
            super::types::financing::FcoCarta,
        ))
    }

    /// The cartas the same bank's declaration of the month before listed and this one does not, newest first (empty
    /// when the bank declared nothing the month before).
    async fn dropped_cartas(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<DeclaredCartaConnection> {
        let keyset = keyset(ctx, first, after, last, before)?;
        let page = service::reports::dropped_cartas(db(ctx), &super::caller(ctx), &self.0, keyset)
            .await
            .served(ctx)?;
        Ok(DeclaredCartaConnection::from_page(
            service::visible::page_of_banks(&super::caller(ctx), page),
            super::types::financing::FcoCarta,
        ))
    }

    /// The later report that replaced this one.
    async fn superseded_by(&self, ctx: &Context<'_>) -> Result<Option<BankReport>> {
        let Some(id) = self.0.superseded_by else {
            return Ok(None);
        };
        let caller = super::caller(ctx);
        Ok(service::reports::report(db(ctx), &caller, id)
            .await
            .served(ctx)?
            .and_then(|r| service::visible::of_bank(&caller, r))
            .map(BankReport))
    }

    /// Where to download the bank's rows with the errors marked.
    async fn errors_url(&self) -> String {
        format!("/bank-reports/{}/errors.xlsx", self.0.id)
    }
}

/// One run of a scheduled job.
#[derive(SimpleObject, Clone, Debug)]
pub struct JobRun {
    /// The job (`ingest`).
    pub job: String,
    /// The schedule slot, or `upload:…` for a run triggered by an upload.
    pub slot: String,
    /// The process that ran it.
    pub worker: String,
    /// `RUNNING`, `SUCCEEDED` or `FAILED`.
    pub status: String,
    /// When it started.
    pub started_at: DateTime,
    /// When it finished.
    pub finished_at: Option<DateTime>,
    /// Items handled.
    pub processed: i32,
    /// Items that failed.
    pub failed: i32,
    /// What the run did, in the request's language, or why it failed (its error as written).
    pub message: Option<String>,
}

/// Queries about reports and jobs.
#[derive(Default)]
pub struct ReportsQuery;

#[Object]
impl ReportsQuery {
    /// One report by its global ID. A miss answers null with a `NOT_FOUND` error, keeping the rest of the response.
    async fn bank_report(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The report's global ID.")] id: ID,
    ) -> Result<Option<BankReport>> {
        let key = ids::arg(&id, NodeKind::BankReport, "id")?;
        let caller = super::caller(ctx);
        service::reports::report(db(ctx), &caller, key)
            .await
            .served(ctx)?
            .and_then(|r| service::visible::of_bank(&caller, r))
            .map(|r| Some(BankReport(r)))
            .ok_or_else(|| super::ids::no_such(NodeKind::BankReport, &id))
    }

    /// Reports, newest first (`orderBy` to turn it), in keyset pages (a page stays the same when reports arrive
    /// between two requests).
    #[allow(clippy::too_many_arguments)]
    async fn bank_reports(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which reports.")] filter: Option<BankReportFilter>,
        #[graphql(desc = "In which order: newest first by default.")] order_by: Option<BankReportOrder>,
        #[graphql(
            desc = "Only this bank's (global ID).",
            deprecation = "Use `filter.bankId`; removed on 2027-06-30."
        )]
        bank_id: Option<ID>,
        #[graphql(
            desc = "Only this month, `YYYY-MM`.",
            deprecation = "Use `filter.referenceMonth`; removed on 2027-06-30."
        )]
        reference_month: Option<String>,
        #[graphql(
            desc = "Only in these statuses.",
            deprecation = "Use `filter.statuses`; removed on 2027-06-30."
        )]
        statuses: Option<Vec<BankReportStatus>>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<BankReportConnection> {
        let keyset = BankReportOrder::keyset(order_by, keyset(ctx, first, after, last, before)?);
        // The filter's fields win over the deprecated arguments they replace.
        let filter = filter.unwrap_or_default();
        let bank_id = match (filter.bank_id, bank_id) {
            (Some(b), _) => Some(ids::arg(&b, NodeKind::Bank, "filter.bankId")?),
            (None, Some(b)) => Some(ids::arg(&b, NodeKind::Bank, "bankId")?),
            (None, None) => None,
        };
        let filter = service::reports::ReportFilter {
            bank_id,
            reference_month: filter.reference_month.or(reference_month),
            statuses: filter
                .statuses
                .or(statuses)
                .iter()
                .flatten()
                .map(|s| s.as_str())
                .collect(),
        };
        let caller = super::caller(ctx);
        let page = service::reports::list(db(ctx), &caller, &filter, keyset)
            .await
            .served(ctx)?;
        Ok(BankReportConnection::from_page(
            service::visible::page_of_banks(&caller, page),
            BankReport,
        ))
    }

    /// Job runs, newest first (`orderBy` to turn it), in keyset pages.
    #[allow(clippy::too_many_arguments)]
    async fn job_runs(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which runs.")] filter: Option<JobRunFilter>,
        #[graphql(desc = "In which order: newest first by default.")] order_by: Option<JobRunOrder>,
        #[graphql(
            desc = "Only this job's (`fomento jobs list` names them).",
            deprecation = "Use `filter.job`; removed on 2027-06-30."
        )]
        job: Option<String>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<JobRunConnection> {
        let keyset = JobRunOrder::keyset(order_by, keyset(ctx, first, after, last, before)?);
        let job = filter.and_then(|f| f.job).or(job);
        let caller = super::caller(ctx);
        let page = service::reports::job_runs(db(ctx), &caller, job.as_deref(), keyset)
            .await
            .served(ctx)?;
        let lang = crate::graphql::error::lang(ctx);
        Ok(JobRunConnection::from_page(page, |r| JobRun {
            message: service::reports::job_run_message(&r, lang),
            job: r.job,
            slot: r.slot,
            worker: r.worker,
            status: r.status,
            started_at: DateTime::mda(r.started_at),
            finished_at: r.finished_at.map(DateTime::mda),
            processed: r.processed,
            failed: r.failed,
        }))
    }
}

/// Which bank reports `bankReports` lists; a field not given does not narrow.
#[derive(InputObject, Clone, Debug, Default)]
pub struct BankReportFilter {
    /// Only this bank's (global ID).
    pub bank_id: Option<ID>,
    /// Only this month, `YYYY-MM`.
    pub reference_month: Option<String>,
    /// Only in these statuses.
    pub statuses: Option<Vec<BankReportStatus>>,
}

/// Which job runs `jobRuns` lists.
#[derive(InputObject, Clone, Debug, Default)]
pub struct JobRunFilter {
    /// Only this job's (`fomento jobs list` names them).
    pub job: Option<String>,
}

super::pagination::record_order!(
    BankReportOrder,
    BankReportOrderField,
    Received,
    "Sort order of `bankReports`.",
    "The order the reports were received in."
);
super::pagination::record_order!(
    JobRunOrder,
    JobRunOrderField,
    Started,
    "Sort order of `jobRuns`.",
    "The order the runs started in."
);

super::pagination::keyset_connection!(
    BankReportConnection,
    BankReportEdge,
    BankReport,
    "A page of banks' monthly reports, newest first.",
    "A bank report with its cursor."
);
super::pagination::keyset_connection!(
    DeclaredCartaConnection,
    DeclaredCartaEdge,
    super::types::financing::FcoCarta,
    "A page of the cartas a bank report declared (or dropped), newest first.",
    "An FCO carta with its cursor."
);
super::pagination::keyset_connection!(
    JobRunConnection,
    JobRunEdge,
    JobRun,
    "A page of job runs, newest first.",
    "A job run with its cursor."
);

/// `submitBankReport`'s input: whose report and which month (the file travels beside it as `file`).
#[derive(InputObject, Debug)]
pub struct SubmitBankReportInput {
    /// The bank's global ID.
    pub bank_id: ID,
    /// The month reported, `YYYY-MM`.
    pub reference_month: String,
}

/// What `submitBankReport` answers.
#[derive(SimpleObject)]
pub struct SubmitBankReportPayload {
    /// The report, `RECEIVED` (or the earlier one when the same bytes were sent for the same bank and month).
    pub report: BankReport,
}

/// Stores a report's file and wakes the ingestion; `field` names the bank's ID in errors.
async fn receive(
    ctx: &Context<'_>,
    bank_id: &ID,
    field: &str,
    reference_month: &str,
    file: Upload,
) -> Result<BankReport> {
    let key = ids::arg(bank_id, NodeKind::Bank, field)?;
    let bank = loader::<super::loaders::BankLoader>(ctx)
        .load_one(key)
        .await
        .map_err(gql)?
        .ok_or_else(|| super::ids::no_such(NodeKind::Bank, bank_id))?;
    let upload = file
        .value(ctx)
        .map_err(|e| gql(ApiError::BadUserInput(format!("file: {e}"))))?;
    let name = upload.filename.clone();
    let mut bytes = Vec::new();
    upload
        .into_read()
        .read_to_end(&mut bytes)
        .map_err(|e| gql(ApiError::BadUserInput(format!("file: {e}"))))?;
    let runtime = ctx.data::<crate::runtime::JobsRuntime>()?;
    let (r, _) = crate::http::reports::receive(
        db(ctx),
        &super::caller(ctx),
        &runtime.ctx.store,
        &bank,
        reference_month,
        &name,
        bytes,
    )
    .await
    .map_err(|e| gql(ApiError::from_service(e, lang(ctx))))?;
    runtime.wake.notify_one();
    super::guard::audit_target(ctx, &ids::encode(NodeKind::BankReport, r.id));
    Ok(BankReport(super::seen(ctx, r)?))
}

/// Mutations about reports.
#[derive(Default)]
pub struct ReportsMutation;

#[Object]
impl ReportsMutation {
    /// Uploads a bank's monthly report (GraphQL multipart request). The raw file is stored first; the report is
    /// `RECEIVED` and the ingestion job picks it up right away. The same bytes for the same bank and month return the
    /// same report.
    #[graphql(deprecation = "Use `submitBankReport(input:, file:)`, which answers a payload; removed on 2027-06-30.")]
    async fn upload_bank_report(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The bank's global ID.")] bank_id: ID,
        #[graphql(desc = "The month reported, `YYYY-MM`.")] reference_month: String,
        #[graphql(desc = "The spreadsheet (xlsx, xls, ods or CSV).")] file: Upload,
    ) -> Result<BankReport> {
        receive(ctx, &bank_id, "bankId", &reference_month, file).await
    }

    /// Uploads a bank's monthly report (GraphQL multipart request: the file as `file`). The raw file is stored first;
    /// the report is `RECEIVED` and the ingestion job picks it up right away. The same bytes for the same bank and
    /// month answer the same report.
    async fn submit_bank_report(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The bank and the month.")] input: SubmitBankReportInput,
        #[graphql(desc = "The spreadsheet (xlsx, xls, ods or CSV).")] file: Upload,
    ) -> Result<SubmitBankReportPayload> {
        let report = receive(ctx, &input.bank_id, "input.bankId", &input.reference_month, file).await?;
        Ok(SubmitBankReportPayload { report })
    }
}
