//! The table of who may do what (issue 15): every mutation of the schema, the guarded queries and the HTTP
//! endpoints, tried by each role: allowed (whatever the use case then answers) or `FORBIDDEN`. The mutations are read
//! from the schema itself, so a new one fails this test until it is placed in a family below.

use crate::helpers::{TestApp, client_with, on_each_backend};
use async_graphql::parser::{
    parse_schema,
    types::{BaseType, InputValueDefinition, Type, TypeDefinition, TypeKind, TypeSystemDefinition},
};
use serde_json::{Value, json};
use std::collections::HashMap;

/// Who may perform each family of mutations (the specification this test holds the code to).
const FAMILIES: &[(&str, &[&str], &[&str])] = &[
    (
        "social fuel (MDA)",
        &["mda", "admin"],
        &[
            "createSocialFuelProject",
            "addProjectDocument",
            "fileSocialFuelProject",
            "decideSocialFuelProject",
            "approveSocialFuelFinancing",
            "startIndustrialOperation",
            "startExternalEvaluation",
            "concludeExternalEvaluation",
            "requestSocialFuelSeal",
            "requestSocialFuelExtension",
            "decideSocialFuelExtension",
            "acceptSocialFuelJustifications",
            "recordSocialFuelJustifications",
            "recordSocialFuelBankNotice",
            "recordSocialFuelPublicUpdate",
            "unframeSocialFuelProject",
            "recordBankFraming",
            "addFeedstockAcquisition",
            "updateFeedstockAcquisition",
            "removeFeedstockAcquisition",
            "addContractProposal",
            "updateContractProposal",
            "removeContractProposal",
            "recordFeedstockAcquisitionCorrection",
            "recordFeedstockAcquisitionRemoval",
            "recordContractProposalCorrection",
            "recordContractProposalRemoval",
            "recordAssistancePlan",
            "addCompanyChangeNotice",
            "recordProjectSchedule",
            "recordScheduleDelayBankAcceptance",
            "recordEvaluationFindings",
            "draftSocialFuelProject",
            "receiveProjectDocument",
            "recordSocialFuelFiling",
            "recordSocialFuelDecision",
            "recordSocialFuelFinancingApproval",
            "recordIndustrialOperationStart",
            "recordExternalEvaluationStart",
            "recordExternalEvaluationResult",
            "recordSocialFuelSealRequest",
            "recordSocialFuelExtensionRequest",
            "recordSocialFuelExtensionDecision",
            "recordSocialFuelJustificationsAcceptance",
            "recordNonConformityJustifications",
            "recordBankNotice",
            "recordPublicDatabaseUpdate",
            "recordSocialFuelUnframing",
        ],
    ),
    (
        "a bank's own cartas",
        &["bank", "admin"],
        &[
            "createFcoCarta",
            "submitFcoCarta",
            "contractFcoCarta",
            "presentFcoProject",
            "resubmitFcoCarta",
            "amendFcoCarta",
            "updateFcoCarta",
            "addFcoCartaItem",
            "updateFcoCartaItem",
            "removeFcoCartaItem",
            "recordFcoCartaItemCorrection",
            "recordFcoCartaItemRemoval",
            "uploadBankReport",
            "submitBankReport",
            "draftFcoCarta",
            "recordFcoCartaSubmission",
            "recordFcoCartaContract",
            "recordFcoProjectPresentation",
            "draftFcoCartaResubmission",
            "recordFcoCartaAmendment",
        ],
    ),
    (
        "the chamber (CDAE)",
        &["council", "admin"],
        &[
            "decideFcoCarta",
            "recordFcoCartaDecision",
            "expireFcoCarta",
            "recordFcoCartaExpiry",
            "scheduleChamberMeeting",
            "recordChamberAttendance",
            "placeFcoCartaOnAgenda",
            "recordChamberResultsSent",
            "recordChamberOpinion",
            "recordBbPeriodicReport",
            "createEconomicGroup",
            "addEconomicGroupMembers",
            "removeEconomicGroupMember",
        ],
    ),
    (
        "confirming and resolving (each in its programme)",
        &["mda", "council", "admin"],
        &[
            "confirmChecklistItem",
            "recordChecklistConfirmation",
            "resolveComplianceFlag",
        ],
    ),
    (
        "administration",
        &["admin"],
        &[
            "createBank",
            "updateBank",
            "addRuleParameterVersion",
            "correctRuleParameterVersion",
            "withdrawRuleParameterVersion",
            "addNonBusinessDay",
            "recordOfficeOpen",
            "recordRuleParameterVersion",
            "recordRuleParameterCorrection",
            "recordRuleParameterWithdrawal",
            "recordNonBusinessDay",
            "recordOfficeOpenDay",
            "importFacts",
            "revokeApiKey",
        ],
    ),
];

const ROLES: [&str; 5] = ["analyst", "bank", "mda", "council", "admin"];

/// The schema's type definitions by name.
fn types() -> HashMap<String, TypeDefinition> {
    let doc = parse_schema(fomento_api::graphql::sdl()).expect("the SDL parses");
    doc.definitions
        .into_iter()
        .filter_map(|d| match d {
            TypeSystemDefinition::Type(t) => Some((t.node.name.node.to_string(), t.node)),
            _ => None,
        })
        .collect()
}

/// A literal of type `ty` the schema's validation accepts (what it means is the use case's business); `None` for a
/// type that cannot be a literal (`Upload`).
fn literal(ty: &Type, types: &HashMap<String, TypeDefinition>) -> Option<String> {
    match &ty.base {
        BaseType::List(inner) => Some(format!("[{}]", literal(inner, types)?)),
        BaseType::Named(name) => match name.as_str() {
            "ID" => Some("\"WA==\"".into()),
            "String" => Some("\"x\"".into()),
            "Int" => Some("1".into()),
            "Float" => Some("1.5".into()),
            "Boolean" => Some("true".into()),
            "Date" => Some("\"2026-01-02\"".into()),
            "DateTime" => Some("\"2026-01-02T10:00:00Z\"".into()),
            "Decimal" => Some("\"1\"".into()),
            "Upload" => None,
            other => match &types.get(other)?.kind {
                TypeKind::Enum(e) => e.values.first().map(|v| v.node.value.node.to_string()),
                TypeKind::InputObject(i) => {
                    let fields = required(&i.fields)
                        .map(|f| Some(format!("{}: {}", f.name.node, literal(&f.ty.node, types)?)))
                        .collect::<Option<Vec<_>>>()?;
                    Some(format!("{{ {} }}", fields.join(", ")))
                }
                _ => None,
            },
        },
    }
}

fn required(args: &[async_graphql::Positioned<InputValueDefinition>]) -> impl Iterator<Item = &InputValueDefinition> {
    args.iter()
        .map(|a| &a.node)
        .filter(|a| !a.ty.node.nullable && a.default_value.is_none())
}

/// Every mutation as a well-typed request, or why it cannot be one.
fn mutations() -> Vec<(String, Option<String>)> {
    let types = types();
    let TypeKind::Object(mutation) = &types.get("Mutation").expect("a Mutation type").kind else {
        panic!("Mutation is an object type");
    };
    mutation
        .fields
        .iter()
        .map(|f| {
            let f = &f.node;
            let args = required(&f.arguments)
                .map(|a| Some(format!("{}: {}", a.name.node, literal(&a.ty.node, &types)?)))
                .collect::<Option<Vec<_>>>();
            let mut named = &f.ty.node;
            while let BaseType::List(inner) = &named.base {
                named = inner;
            }
            let selection = match &named.base {
                BaseType::Named(n) => match types.get(n.as_str()).map(|t| &t.kind) {
                    Some(TypeKind::Object(_) | TypeKind::Union(_) | TypeKind::Interface(_)) => " { __typename }",
                    _ => "",
                },
                BaseType::List(_) => "",
            };
            let request = args.map(|a| {
                let a = if a.is_empty() {
                    String::new()
                } else {
                    format!("({})", a.join(", "))
                };
                format!("mutation {{ {}{a}{selection} }}", f.name.node)
            });
            (f.name.node.to_string(), request)
        })
        .collect()
}

async fn code_of(app: &TestApp, key: &str, query: &str) -> String {
    let r = client_with(key)
        .post(format!("{}/graphql", app.base))
        .header("accept", "application/json")
        .json(&json!({ "query": query }))
        .send()
        .await
        .expect("answer");
    let body: Value = r.json().await.expect("json");
    body["errors"][0]["extensions"]["code"]
        .as_str()
        .map_or_else(|| "OK".to_owned(), str::to_owned)
}

#[tokio::test]
async fn every_mutation_query_and_endpoint_is_allowed_or_forbidden_by_role_as_the_table_says() {
    on_each_backend(true, |app| async move {
        let mut keys = Vec::new();
        for role in ROLES {
            let bank = (role == "bank").then_some("SICREDI");
            keys.push((role, app.key_of(role, bank).await));
        }
        let family_of = |m: &str| FAMILIES.iter().find(|(_, _, ms)| ms.contains(&m));
        let mut wrong = Vec::new();
        let mut tried = 0;
        for (mutation, request) in mutations() {
            let Some((family, allowed, _)) = family_of(&mutation) else {
                wrong.push(format!(
                    "{mutation}: in no family of this test; decide who may perform it"
                ));
                continue;
            };
            // A file upload cannot be a literal: `uploadBankReport` and `importFacts` are tried over their REST
            // doors below, which the same operations guard.
            let Some(request) = request else {
                continue;
            };
            for (role, key) in &keys {
                let code = code_of(&app, key, &request).await;
                tried += 1;
                let may = allowed.contains(role);
                if may == (code == "FORBIDDEN") || code == "UNAUTHENTICATED" {
                    wrong.push(format!("{role} on {mutation} ({family}): {code}"));
                }
            }
        }
        assert!(tried >= 5 * 45, "every mutation but the uploads was tried: {tried}");
        // The guarded queries.
        for (query, allowed) in [
            ("{ banks(first: 1) { totalCount } }", &ROLES[..]),
            (
                "{ complianceDashboard { asOf } }",
                &["analyst", "mda", "council", "admin"][..],
            ),
            ("{ factImports { id } }", &["admin"][..]),
            ("{ webhookDeliveries(first: 1) { totalCount } }", &["admin"][..]),
            ("{ auditLog(first: 1) { number actor action outcome } }", &["admin"][..]),
        ] {
            for (role, key) in &keys {
                let code = code_of(&app, key, query).await;
                if allowed.contains(role) == (code == "FORBIDDEN") {
                    wrong.push(format!("{role} on {query}: {code}"));
                }
            }
        }
        // The HTTP endpoints (a request that passes the guard may still be refused for what it lacks).
        for (method, path, allowed) in [
            ("GET", "/exports/flags.csv", &ROLES[..]),
            ("GET", "/exports/cartas.csv", &ROLES[..]),
            ("GET", "/exports/audit.csv", &["admin"][..]),
            ("GET", "/dashboard", &["analyst", "mda", "council", "admin"][..]),
            ("GET", "/bank-reports/template.xlsx", &ROLES[..]),
            ("POST", "/bank-reports", &["bank", "admin"][..]),
            ("POST", "/imports/acquisitions", &["admin"][..]),
        ] {
            for (role, key) in &keys {
                let client = client_with(key);
                let url = format!("{}{path}", app.base);
                let r = if method == "GET" {
                    client.get(url)
                } else {
                    let form = reqwest::multipart::Form::new()
                        .text("bank", "SICREDI")
                        .text("month", "2019-05")
                        .part(
                            "file",
                            reqwest::multipart::Part::bytes(b"a;b\n".to_vec()).file_name("x.csv"),
                        );
                    client.post(url).multipart(form)
                }
                .send()
                .await
                .expect("answer");
                let status = r.status().as_u16();
                if allowed.contains(role) == (status == 403) || status == 401 {
                    wrong.push(format!("{role} on {method} {path}: {status}"));
                }
            }
        }
        assert!(wrong.is_empty(), "not as the table says:\n{}", wrong.join("\n"));
    })
    .await;
}
