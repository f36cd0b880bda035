//! The exports' doors: `GET /exports/{name}.csv|.xlsx` and `fomento export NAME`. Both take the graph's own filter
//! as JSON (`ComplianceFlagFilter` for `flags`, `FinancingFilter` for `financings` and `cartas`), so an analyst
//! exports exactly what the front-end shows; the rows and the file formats are `service::exports`.

use async_graphql::{InputType, Value};
use service::{
    Db,
    exports::{Export, NAMES},
    financings::{self, Query},
};

/// The export called `name`, narrowed by `filter` (the graph's filter input as JSON); an error names what is wrong.
pub async fn build(
    db: &Db,
    caller: &service::Caller,
    name: &str,
    filter: Option<&str>,
    as_of: Option<chrono::NaiveDate>,
) -> Result<Export, String> {
    service::access::authorize(caller, operation_of(name)).map_err(english)?;
    if name == "audit" {
        return audit_table(db, caller).await;
    }
    if let Some(table) = name.strip_prefix("dashboard-") {
        let as_of = as_of.unwrap_or_else(|| service::Clock::System.today());
        let d = service::dashboard::get(db, as_of).await.map_err(english)?;
        let names: Vec<String> = d.tables.iter().map(|t| format!("dashboard-{}", t.name)).collect();
        return d.table(table).cloned().map(Export::Table).ok_or_else(|| {
            format!(
                "no export {name:?}; the exports are {}, {}",
                NAMES.join(", "),
                names.join(", ")
            )
        });
    }
    let json: Option<serde_json::Value> = match filter.map(str::trim).filter(|f| !f.is_empty()) {
        Some(f) => Some(serde_json::from_str(f).map_err(|e| format!("filter: not JSON: {e}"))?),
        None => None,
    };
    let value = json
        .map(Value::from_json)
        .transpose()
        .map_err(|e| format!("filter: {e}"))?;
    match name {
        "flags" => {
            let f = Option::<crate::graphql::flags::ComplianceFlagFilter>::parse(value)
                .map_err(|e| format!("filter: {}", e.into_server_error(Default::default()).message))?
                .unwrap_or_default();
            let filter = f.to_service().map_err(|e| format!("filter: {}", e.message))?;
            Ok(Export::Flags(service::flags::scoped(caller, filter).map_err(english)?))
        }
        "financings" | "cartas" => {
            let f = Option::<crate::graphql::list::FinancingFilter>::parse(value)
                .map_err(|e| format!("filter: {}", e.into_server_error(Default::default()).message))?
                .unwrap_or_default();
            let mut filter = f.into_service().map_err(|e| format!("filter: {}", e.message))?;
            if name == "cartas" {
                filter.programmes = Some(vec![entity::vocab::Programme::FcoRural]);
            }
            let mut q = Query {
                filter,
                ..Query::default()
            };
            financings::resolve(db, caller, &mut q).await.map_err(english)?;
            financings::check(&q).map_err(english)?;
            Ok(if name == "cartas" {
                Export::Cartas(q)
            } else {
                Export::Financings(q)
            })
        }
        other => Err(format!("no export {other:?}; the exports are {}", NAMES.join(", "))),
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
async fn audit_table(db: &Db, caller: &service::Caller) -> Result<Export, String> {
    use service::exports::Cell;
    // One line per record, whatever a value holds: control characters are escaped (`service::audit::printable`).
    let text = |s: &str| Cell::Text(service::audit::printable(s).into_owned());
    let opt = |s: &Option<String>| s.as_deref().map_or(Cell::Empty, text);
    let rows = service::audit::list(db, caller, None, 100_000)
        .await
        .map_err(english)?
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
    Ok(Export::Table(service::dashboard::Table {
        name: "audit".into(),
        title: "The audit log, newest first".into(),
        columns: ["id", "at", "actor", "action", "target", "outcome", "detail", "remote"]
            .map(str::to_owned)
            .to_vec(),
        rows,
    }))
}

fn english(e: service::ServiceError) -> String {
    crate::commands::in_english(&e)
}
