//! The exports' doors: `GET /exports/{name}.csv|.xlsx` and `fomento export NAME`. Both take the graph's own filter
//! as JSON (`ComplianceFlagFilter` for `flags`, `FinancingFilter` for `financings` and `cartas`), so an analyst
//! exports exactly what the front-end shows; the rows and the file formats are `service::exports`.

use async_graphql::{InputType, Value, registry::MetaType};
use service::{
    Db, ServiceError,
    exports::{Export, NAMES},
    financings::{self, Query},
    messages::{Lang, Message, code},
};

/// Why an export cannot be made: a refusal of the service, or of its parameters (a message for the reader, and the
/// parameter it is about).
#[derive(Debug)]
pub enum ExportError {
    /// Refused by the service (access, a filter the service refuses).
    Service(ServiceError),
    /// No export of that name.
    Unknown(Message),
    /// A parameter that is wrong.
    Parameter(&'static str, Message),
}

impl ExportError {
    /// The text in `lang`, the parameter first.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Self::Service(e) => match e.field() {
                Some(f) => format!("{f}: {}", e.render(lang)),
                None => e.render(lang),
            },
            Self::Unknown(m) => m.render(lang),
            Self::Parameter(p, m) => format!("{p}: {}", m.render(lang)),
        }
    }
}

impl From<ServiceError> for ExportError {
    fn from(e: ServiceError) -> Self {
        Self::Service(e)
    }
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

fn bad_filter(message: Message) -> ExportError {
    ExportError::Parameter("filter", message)
}

/// The export called `name`, narrowed by `filter` (the graph's filter input as JSON, as strict as the graph: an
/// unknown field or rule code is refused) and, for a dashboard table, by the day and the programme.
pub async fn build(
    db: &Db,
    caller: &service::Caller,
    name: &str,
    filter: Option<&str>,
    as_of: Option<chrono::NaiveDate>,
    programme: Option<entity::vocab::Programme>,
) -> Result<Export, ExportError> {
    service::access::authorize(caller, operation_of(name))?;
    if name == "audit" {
        return audit_table(db, caller).await;
    }
    if let Some(table) = name.strip_prefix("dashboard-") {
        let as_of = as_of.unwrap_or_else(|| service::Clock::System.today());
        let d = service::dashboard::get(db, as_of).await?.of_programme(programme);
        let names: Vec<String> = d.tables.iter().map(|t| format!("dashboard-{}", t.name)).collect();
        return d.table(table).cloned().map(Export::Table).ok_or_else(|| {
            ExportError::Unknown(
                Message::new(code::EXPORT_UNKNOWN)
                    .arg("name", name)
                    .arg("names", format!("{}, {}", NAMES.join(", "), names.join(", "))),
            )
        });
    }
    let json: Option<serde_json::Value> = match filter.map(str::trim).filter(|f| !f.is_empty()) {
        Some(f) => Some(serde_json::from_str(f).map_err(|e| {
            bad_filter(
                Message::new(code::FILTER_NOT_JSON)
                    .arg("line", e.line())
                    .arg("column", e.column()),
            )
        })?),
        None => None,
    };
    match name {
        "flags" => {
            let f: crate::graphql::flags::ComplianceFlagFilter = parse(json)?;
            if let Some(unknown) = f.rule_codes.iter().flatten().find(|c| entity::rules::rule(c).is_none()) {
                return Err(bad_filter(
                    Message::new(code::FILTER_UNKNOWN_RULE).arg("value", unknown),
                ));
            }
            let filter = f
                .to_service()
                .map_err(|e| bad_filter(Message::new(code::FILTER_INVALID).arg("detail", e.message)))?;
            Ok(Export::Flags(service::flags::scoped(caller, filter)?))
        }
        "financings" | "cartas" => {
            let f: crate::graphql::list::FinancingFilter = parse(json)?;
            let mut filter = f
                .into_service()
                .map_err(|e| bad_filter(Message::new(code::FILTER_INVALID).arg("detail", e.message)))?;
            if name == "cartas" {
                filter.programmes = Some(vec![entity::vocab::Programme::FcoRural]);
            }
            let mut q = Query {
                filter,
                ..Query::default()
            };
            financings::resolve(db, caller, &mut q).await?;
            financings::check(&q)?;
            Ok(if name == "cartas" {
                Export::Cartas(q)
            } else {
                Export::Financings(q)
            })
        }
        other => Err(ExportError::Unknown(
            Message::new(code::EXPORT_UNKNOWN)
                .arg("name", other)
                .arg("names", NAMES.join(", ")),
        )),
    }
}

/// The graph's filter input `T` of `json`, refused as the graph refuses it, an unknown field included.
fn parse<T: InputType + Default>(json: Option<serde_json::Value>) -> Result<T, ExportError> {
    let Some(json) = json else {
        return Ok(T::default());
    };
    let mut registry = async_graphql::registry::Registry::default();
    let ty = T::create_type_info(&mut registry);
    if let Some((field, allowed)) = unknown_field(&registry, bare(&ty), &json, "") {
        return Err(bad_filter(
            Message::new(code::FILTER_UNKNOWN_FIELD)
                .arg("name", field)
                .arg("names", allowed.join(", ")),
        ));
    }
    let value = Value::from_json(json).map_err(|e| bad_filter(Message::new(code::FILTER_INVALID).arg("detail", e)))?;
    T::parse(Some(value)).map_err(|e| {
        bad_filter(Message::new(code::FILTER_INVALID).arg("detail", e.into_server_error(Default::default()).message))
    })
}

/// A type's name without its list and non-null marks (`[FlagSeverity!]` → `FlagSeverity`).
fn bare(ty: &str) -> &str {
    ty.trim_matches(|c| matches!(c, '[' | ']' | '!'))
}

/// The first field in `json` (at any depth) that its input type `ty` does not have, with its path and the fields
/// the type has there.
fn unknown_field(
    registry: &async_graphql::registry::Registry,
    ty: &str,
    json: &serde_json::Value,
    path: &str,
) -> Option<(String, Vec<String>)> {
    let Some(MetaType::InputObject { input_fields, .. }) = registry.types.get(ty) else {
        return None;
    };
    match json {
        serde_json::Value::Object(map) => map.iter().find_map(|(k, v)| match input_fields.get(k) {
            None => Some((format!("{path}{k}"), input_fields.keys().cloned().collect())),
            Some(f) => unknown_field(registry, bare(&f.ty), v, &format!("{path}{k}.")),
        }),
        serde_json::Value::Array(items) => items.iter().find_map(|i| unknown_field(registry, ty, i, path)),
        _ => None,
    }
}

/// What exporting `name` is: the audit log is the administrator's, a dashboard table the dashboards' reading, the
/// rest an export of rows.
pub fn operation_of(name: &str) -> service::access::Operation {
    if name == "audit" {
        service::access::Operation::Administer
    } else if name.starts_with("dashboard-") {
        service::access::Operation::Dashboards
    } else {
        service::access::Operation::Export
    }
}

/// The audit log's latest 100,000 lines, newest first.
async fn audit_table(db: &Db, caller: &service::Caller) -> Result<Export, ExportError> {
    use service::exports::Cell;
    // One line per record, whatever a value holds: control characters are escaped (`service::audit::printable`).
    let text = |s: &str| Cell::Text(service::audit::printable(s).into_owned());
    let opt = |s: &Option<String>| s.as_deref().map_or(Cell::Empty, text);
    let rows = service::audit::list(db, caller, None, 100_000)
        .await?
        .into_iter()
        .map(|l| {
            vec![
                Cell::Int(l.id),
                Cell::Time(l.at),
                text(&l.actor),
                text(&l.action),
                opt(&l.target),
                text(&l.outcome),
                opt(&l.detail),
                opt(&l.remote),
            ]
        })
        .collect();
    Ok(Export::Table(service::dashboard::Table::plain(
        "audit",
        &["id", "at", "actor", "action", "target", "outcome", "detail", "remote"],
        rows,
    )))
}
