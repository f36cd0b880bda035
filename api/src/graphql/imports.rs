//! Bulk imports of facts in the graph: the `importFacts` mutation (GraphQL multipart request), `factImport(id:)` and
//! `factImports`, and the `FactImport` object with its row errors. The service and the import job do the work
//! (`service::imports`, `jobs::import`).

use super::{
    db,
    error::{ApiError, Served, gql},
    ids::{self, NodeKind},
    reports::{ReportRowError, lang},
    scalars::DateTime,
};
use async_graphql::{Context, Enum, ID, InputObject, Object, Result, SimpleObject, Upload};
use entity::fact_import;
use jobs::report::messages::{Message, code};
use service::imports::{self, Kind, Target};
use std::io::Read;

/// What an imported sheet holds (each kind has its template at `/imports/{kind}/template.xlsx`).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum ImportKind {
    /// A social-fuel project's feedstock acquisitions of one year (IN MDA 2/2005, arts. 3–4); the file replaces the
    /// year's list.
    Acquisitions,
    /// An FCO carta's items (CDAE/MT 2019, arts. 6–17); the file replaces the carta's list.
    CartaItems,
    /// The cartas a chamber meeting received, with when each reached SEDEC (CDAE/MT 2019, art. 2 §7).
    MeetingAgenda,
}

impl From<ImportKind> for Kind {
    fn from(k: ImportKind) -> Self {
        match k {
            ImportKind::Acquisitions => Kind::Acquisitions,
            ImportKind::CartaItems => Kind::CartaItems,
            ImportKind::MeetingAgenda => Kind::MeetingAgenda,
        }
    }
}

impl From<Kind> for ImportKind {
    fn from(k: Kind) -> Self {
        match k {
            Kind::Acquisitions => ImportKind::Acquisitions,
            Kind::CartaItems => ImportKind::CartaItems,
            Kind::MeetingAgenda => ImportKind::MeetingAgenda,
        }
    }
}

/// The node kind of an import kind's target (the graph's `FactImport.targetId` and the REST answers' `targetId`).
pub fn target_node(k: Kind) -> NodeKind {
    match k {
        Kind::Acquisitions => NodeKind::SocialFuelProject,
        Kind::CartaItems => NodeKind::FcoCarta,
        Kind::MeetingAgenda => NodeKind::ChamberMeeting,
    }
}

/// Where an import stands.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum ImportStatus {
    /// Stored, waiting for the import job.
    Received,
    /// Claimed by a worker.
    Processing,
    /// Every row applied.
    Applied,
    /// Nothing applied: see `errors` or `fileError`.
    Rejected,
    /// Nothing applied: the import failed on Fomento's side after its attempts; sending the same file again queues
    /// it again.
    Failed,
}

impl ImportStatus {
    fn of(s: &str) -> Self {
        match s {
            "PROCESSING" => Self::Processing,
            "APPLIED" => Self::Applied,
            "REJECTED" => Self::Rejected,
            "FAILED" => Self::Failed,
            _ => Self::Received,
        }
    }
}

/// A spreadsheet of facts sent for a project, a carta or a chamber meeting, and what became of it.
#[derive(Clone, Debug)]
pub struct FactImport(pub service::visible::Seen<fact_import::Model>);

/// A spreadsheet of facts sent for a project, a carta or a chamber meeting, and what became of it.
#[fomento_macros::shared_fields]
#[Object]
impl FactImport {
    // `id` and `number`, as every record kept by number answers them (`fomento_macros`).
    numbered_fields!(
        node = FactImport,
        number = "The import's number (`fomento import` prints it)."
    );

    /// What the sheet holds.
    async fn kind(&self) -> Result<ImportKind> {
        Ok(Kind::parse(&self.0.kind)
            .map_err(|e| gql(ApiError::Internal(e.to_string())))?
            .into())
    }

    /// The global ID of the project, carta or chamber meeting the sheet is for.
    async fn target_id(&self) -> Result<ID> {
        let kind = Kind::parse(&self.0.kind).map_err(|e| gql(ApiError::Internal(e.to_string())))?;
        Ok(ids::encode(target_node(kind), self.0.target_id))
    }

    /// The acquisition year (acquisitions only).
    async fn year(&self) -> Option<i32> {
        self.0.year
    }

    /// The reason given for the change (required once the decision relying on the facts was taken).
    async fn reason(&self) -> Option<&str> {
        self.0.reason.as_deref()
    }

    /// Where it stands.
    async fn status(&self) -> ImportStatus {
        ImportStatus::of(&self.0.status)
    }

    // `fileName`, `byteSize`, `sha256`, `receivedAt`: as every file received (`fomento_macros`).
    received_file_fields!();

    /// Who sent it.
    async fn received_by(&self) -> &str {
        &self.0.received_by
    }

    /// When processing ended, on Cuiabá's clock.
    async fn processed_at(&self) -> Option<DateTime> {
        self.0.processed_at.map(DateTime::cdae)
    }

    /// Data rows read.
    async fn rows_read(&self) -> Option<i32> {
        self.0.rows_read
    }

    /// Rows applied (all of them, or none).
    async fn rows_applied(&self) -> Option<i32> {
        self.0.rows_applied
    }

    /// Attempts made so far.
    async fn attempts(&self) -> i32 {
        self.0.attempts
    }

    /// Why the file as a whole was refused (unreadable, no header, no rows, or a refusal of the whole list such as a
    /// missing reason after the decision); in the language of `Accept-Language` (Portuguese by default).
    async fn file_error(&self, ctx: &Context<'_>) -> Option<String> {
        self.0
            .file_error_code
            .as_deref()
            .map(|c| Message::stored(c, self.0.file_error_args.as_deref()).render(lang(ctx)))
    }

    /// When the import is `FAILED`: why, in words for whoever sent it.
    async fn failure(&self, ctx: &Context<'_>) -> Option<String> {
        (self.0.status == "FAILED").then(|| {
            Message::new(code::IMPORT_FAILED)
                .arg("id", self.0.id)
                .arg("attempts", self.0.attempts)
                .render(lang(ctx))
        })
    }

    /// Every row error, by row; messages in the language of `Accept-Language` (Portuguese by default). Row 0 is the
    /// file as a whole.
    async fn errors(&self, ctx: &Context<'_>) -> Result<Vec<ReportRowError>> {
        let rows = imports::errors(db(ctx), self.0.id).await.served(ctx)?;
        let lang = lang(ctx);
        Ok(rows
            .into_iter()
            .map(|e| ReportRowError {
                row: e.row_number,
                message: Message::stored(&e.message_code, e.message_args.as_deref()).render(lang),
                column: e.column_name,
                value: e.value,
                rule_code: e.rule_code,
            })
            .collect())
    }
}

/// What `importFacts` sends.
#[derive(InputObject, Clone, Debug)]
pub struct ImportFactsInput {
    /// What the sheet holds.
    pub kind: ImportKind,
    /// The project (acquisitions), carta (carta items) or chamber meeting (agenda) the sheet is for: its global ID.
    pub target_id: ID,
    /// The acquisition year: required for acquisitions, ignored otherwise.
    pub year: Option<i32>,
    /// Why the facts change: required once the decision relying on them was taken (MDA's framing decision, the
    /// chamber's or bank's decision on the carta).
    pub reason: Option<String>,
}

/// What `importFacts` answers: the import, `RECEIVED` (the import job takes it right away), or the one already
/// received with the same bytes for the same target.
#[derive(SimpleObject, Clone, Debug)]
pub struct ImportFactsPayload {
    /// The import; poll `factImport(id:)` (or `node`) for its status and errors.
    pub fact_import: FactImport,
    /// Whether these bytes were already received for this target (the answer is that import).
    pub already_received: bool,
    /// Whether these bytes had failed before and were queued again.
    pub requeued: bool,
}

/// The target's global ID as a key, checked against the kind.
pub fn target_key(kind: Kind, id: &ID) -> Result<i64> {
    target_key_named(kind, id, "input.targetId")
}

/// The database key of an import's target given as `field`, checked against the kind's node type.
fn target_key_named(kind: Kind, id: &ID, field: &str) -> Result<i64> {
    ids::arg(id, target_node(kind), field)
}

/// Which imports `imports` lists; a field not given does not narrow.
#[derive(InputObject, Clone, Debug, Default)]
pub struct FactImportFilter {
    /// Only imports of this kind.
    pub kind: Option<ImportKind>,
    /// Only imports for this project, carta or meeting (global ID; requires `kind`).
    pub target_id: Option<ID>,
}

super::pagination::record_order!(
    FactImportOrder,
    FactImportOrderField,
    Received,
    "Sort order of `imports`.",
    "The order the sheets were received in."
);

super::pagination::keyset_connection!(
    FactImportConnection,
    FactImportEdge,
    FactImport,
    "A page of bulk imports of facts, newest first unless ordered otherwise.",
    "An import with its cursor."
);

/// Queries about imports.
#[derive(Default)]
pub struct ImportsQuery;

#[Object]
impl ImportsQuery {
    /// An import by its global ID. A miss answers null with a `NOT_FOUND` error, keeping the rest of the response.
    async fn fact_import(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The import's global ID.")] id: ID,
    ) -> Result<Option<FactImport>> {
        let key = ids::arg(&id, NodeKind::FactImport, "id")?;
        let row = match imports::get(db(ctx), key).await {
            Err(service::ServiceError::NotFound { .. }) => {
                return Err(super::ids::no_such(NodeKind::FactImport, &id));
            }
            found => found.served(ctx)?,
        };
        service::visible::fact_import(&super::caller(ctx), row)
            .map(|i| Some(FactImport(i)))
            .ok_or_else(|| super::ids::no_such(NodeKind::FactImport, &id))
    }

    /// Imports of facts, newest first (`orderBy` to turn it), in keyset pages: of a kind, for a target. Imports are
    /// an operator's record; a bank's key lists none.
    #[allow(clippy::too_many_arguments)]
    async fn imports(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Which imports.")] filter: Option<FactImportFilter>,
        #[graphql(desc = "In which order: newest first by default.")] order_by: Option<FactImportOrder>,
        #[graphql(desc = "At most this many (at most 100; 20 by default), after `after`.")] first: Option<i32>,
        #[graphql(desc = "A cursor of a previous page.")] after: Option<String>,
        #[graphql(desc = "At most this many before `before`.")] last: Option<i32>,
        #[graphql(desc = "A cursor of a later page.")] before: Option<String>,
    ) -> Result<FactImportConnection> {
        let keyset = FactImportOrder::keyset(order_by, super::pagination::keyset(ctx, first, after, last, before)?);
        let filter = filter.unwrap_or_default();
        let kind = filter.kind.map(Kind::from);
        let target = match (&filter.target_id, kind) {
            (Some(id), Some(k)) => Some(target_key_named(k, id, "filter.targetId")?),
            (Some(_), None) => {
                return Err(gql(ApiError::BadUserInput(
                    "filter.targetId: give filter.kind too".into(),
                )));
            }
            _ => None,
        };
        let caller = super::caller(ctx);
        let page = imports::page(db(ctx), &caller, kind, target, keyset)
            .await
            .served(ctx)?;
        let page = service::page::Page {
            items: page
                .items
                .into_iter()
                .filter_map(|(id, r)| service::visible::fact_import(&caller, r).map(|r| (id, r)))
                .collect(),
            has_next_page: page.has_next_page,
            has_previous_page: page.has_previous_page,
            total_count: page.total_count,
        };
        Ok(FactImportConnection::from_page(page, FactImport))
    }

    /// Imports, newest first: of a kind, for a target.
    #[graphql(deprecation = "Use `imports(filter:, orderBy:)`, a connection with cursors; removed on 2027-06-30.")]
    async fn fact_imports(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "Only imports of this kind.")] kind: Option<ImportKind>,
        #[graphql(desc = "Only imports for this project, carta or meeting (requires `kind`).")] target_id: Option<ID>,
        #[graphql(desc = "At most this many (at most 100; 20 by default).", default = 20)] first: i32,
    ) -> Result<Vec<FactImport>> {
        let first = service::page::bounded("first", first, service::page::MAX_PAGE_SIZE).served(ctx)?;
        let kind = kind.map(Kind::from);
        let target = match (&target_id, kind) {
            (Some(id), Some(k)) => Some(target_key(k, id)?),
            (Some(_), None) => {
                return Err(gql(ApiError::BadUserInput("targetId: give the kind too".into())));
            }
            _ => None,
        };
        Ok(imports::list(db(ctx), kind, target, first)
            .await
            .served(ctx)?
            .into_iter()
            .filter_map(|r| service::visible::fact_import(&super::caller(ctx), r))
            .map(FactImport)
            .collect())
    }
}

/// Mutations about imports.
#[derive(Default)]
pub struct ImportsMutation;

#[Object]
impl ImportsMutation {
    /// Imports a spreadsheet of facts (GraphQL multipart request): a project's acquisitions of a year, a carta's
    /// items, or a chamber meeting's agenda. The raw file is stored first; the import is `RECEIVED` and the import
    /// job applies it right away, all rows or none (`APPLIED` or `REJECTED` with every row error).
    async fn import_facts(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "What the sheet is and what it is for.")] input: ImportFactsInput,
        #[graphql(desc = "The spreadsheet (xlsx, xls, ods or CSV), filled from the kind's template.")] file: Upload,
    ) -> Result<ImportFactsPayload> {
        let kind = Kind::from(input.kind);
        let id = target_key(kind, &input.target_id)?;
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
        let target = Target {
            kind,
            id,
            year: input.year,
            reason: input.reason,
        };
        let act = service::lifecycle::Act::by(super::caller(ctx));
        let (r, received) = imports::receive(db(ctx), &runtime.ctx.store, &act, &target, &name, bytes)
            .await
            .served(ctx)?;
        runtime.wake.notify_one();
        super::guard::audit_target(ctx, &ids::encode(NodeKind::FactImport, r.id));
        Ok(ImportFactsPayload {
            fact_import: FactImport(
                service::visible::fact_import(&super::caller(ctx), r).ok_or_else(|| super::unseen(ctx))?,
            ),
            already_received: received == service::intake::Received::Known,
            requeued: received == service::intake::Received::Requeued,
        })
    }
}
