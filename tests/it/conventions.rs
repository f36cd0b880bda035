//! The schema's conventions (issue 45, `docs/graph.md`), checked over the parsed SDL for every field not deprecated:
//! a mutation takes one `input: <Mutation>Input!` (and a `file: Upload!` when it carries one) and answers a payload
//! object; no `Int` argument or input field is named like an ID; a list of records that grows is a connection with
//! `filter:` and `orderBy:`; a lookup by ID or code is nullable, so one miss leaves the rest of the response.
//!
//! `OFFENDERS` lists what broke a convention when the test was written; it only shrinks: an entry that no longer
//! offends fails the test until it is removed.

use crate::helpers::on_each_backend;
use async_graphql::Positioned;
use async_graphql::parser::{
    parse_schema,
    types::{BaseType, ConstDirective, FieldDefinition, Type, TypeDefinition, TypeKind, TypeSystemDefinition},
};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};

/// Short reference lists that stay plain lists (or connections without filters): they do not grow with use.
const REFERENCE_LISTS: &[&str] = &["rules", "nonBusinessDays", "ruleParameters", "banks"];

/// Conventions broken when the test was written, as `rule: Type.field`; to be emptied, never added to.
const OFFENDERS: &[&str] = &[
    "Int id: RemoveContractProposalInput.proposalId",
    "Int id: RemoveFcoCartaItemInput.itemId",
    "Int id: RemoveFeedstockAcquisitionInput.acquisitionId",
    "Int id: UpdateContractProposalInput.proposalId",
    "Int id: UpdateFcoCartaItemInput.itemId",
    "Int id: UpdateFeedstockAcquisitionInput.acquisitionId",
    "connection without filter and orderBy: Query.bankReports",
    "connection without filter and orderBy: Query.complianceFlags",
    "connection without filter and orderBy: Query.jobRuns",
    "connection without filter and orderBy: Query.webhookDeliveries",
    "list, not a connection: Query.auditLog",
    "list, not a connection: Query.factImports",
    "list, not a connection: Query.parties",
];

fn deprecated(directives: &[Positioned<ConstDirective>]) -> bool {
    directives.iter().any(|d| d.node.name.node == "deprecated")
}

fn named(ty: &Type) -> &str {
    match &ty.base {
        BaseType::Named(n) => n.as_str(),
        BaseType::List(inner) => named(inner),
    }
}

fn is_list(ty: &Type) -> bool {
    matches!(ty.base, BaseType::List(_))
}

fn pascal(name: &str) -> String {
    let mut c = name.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn id_like(name: &str) -> bool {
    name == "id" || name.ends_with("Id") || name.ends_with("Ids")
}

/// What a mutation must look like: one `input: <Mutation>Input!` (and `file: Upload!` beside it), a payload object.
fn mutation_offences(f: &FieldDefinition, types: &HashMap<String, TypeDefinition>, out: &mut BTreeSet<String>) {
    let name = f.name.node.as_str();
    let input = format!("{}Input", pascal(name));
    let args: Vec<_> = f.arguments.iter().map(|a| &a.node).collect();
    let takes_input = args
        .iter()
        .any(|a| a.name.node == "input" && !a.ty.node.nullable && !is_list(&a.ty.node) && named(&a.ty.node) == input);
    let others_are_files = args
        .iter()
        .filter(|a| a.name.node != "input")
        .all(|a| a.name.node == "file" && named(&a.ty.node) == "Upload");
    if !takes_input || !others_are_files {
        out.insert(format!("mutation input: Mutation.{name}"));
    }
    let answer = named(&f.ty.node);
    let is_payload = !f.ty.node.nullable
        && !is_list(&f.ty.node)
        && answer.ends_with("Payload")
        && matches!(types.get(answer).map(|t| &t.kind), Some(TypeKind::Object(_)));
    if !is_payload {
        out.insert(format!("mutation payload: Mutation.{name}"));
    }
}

/// Every breach of the conventions in the SDL.
fn offences(sdl: &str) -> BTreeSet<String> {
    let doc = parse_schema(sdl).expect("the SDL parses");
    let types: HashMap<String, TypeDefinition> = doc
        .definitions
        .into_iter()
        .filter_map(|d| match d {
            TypeSystemDefinition::Type(t) => Some((t.node.name.node.to_string(), t.node)),
            _ => None,
        })
        .collect();
    let mut out = BTreeSet::new();
    for (type_name, t) in &types {
        match &t.kind {
            TypeKind::Object(_) | TypeKind::Interface(_) => {
                let fields = match &t.kind {
                    TypeKind::Object(o) => &o.fields,
                    TypeKind::Interface(i) => &i.fields,
                    _ => unreachable!("matched above"),
                };
                for f in fields.iter().map(|f| &f.node) {
                    if deprecated(&f.directives) {
                        continue;
                    }
                    let field = f.name.node.as_str();
                    for a in f.arguments.iter().map(|a| &a.node) {
                        if !deprecated(&a.directives) && named(&a.ty.node) == "Int" && id_like(&a.name.node) {
                            out.insert(format!("Int id: {type_name}.{field}({})", a.name.node));
                        }
                    }
                    if type_name == "Mutation" {
                        mutation_offences(f, &types, &mut out);
                    }
                    if type_name == "Query" {
                        query_offences(f, &types, &mut out);
                    }
                }
            }
            TypeKind::InputObject(i) => {
                for f in i.fields.iter().map(|f| &f.node) {
                    if !deprecated(&f.directives) && named(&f.ty.node) == "Int" && id_like(&f.name.node) {
                        out.insert(format!("Int id: {type_name}.{}", f.name.node));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// A root query field: a growing list is a connection with `filter` and `orderBy`; a lookup is nullable.
fn query_offences(f: &FieldDefinition, types: &HashMap<String, TypeDefinition>, out: &mut BTreeSet<String>) {
    let field = f.name.node.as_str();
    let answer = named(&f.ty.node);
    let records = matches!(
        types.get(answer).map(|t| &t.kind),
        Some(TypeKind::Object(_) | TypeKind::Interface(_) | TypeKind::Union(_))
    );
    let arg = |n: &str| {
        f.arguments
            .iter()
            .any(|a| a.node.name.node == n && !deprecated(&a.node.directives))
    };
    if !REFERENCE_LISTS.contains(&field) {
        if is_list(&f.ty.node) && records {
            out.insert(format!("list, not a connection: Query.{field}"));
        }
        if answer.ends_with("Connection") && !(arg("filter") && arg("orderBy")) {
            out.insert(format!("connection without filter and orderBy: Query.{field}"));
        }
    }
    let lookup = !is_list(&f.ty.node)
        && records
        && f.arguments.iter().any(|a| {
            let n = a.node.name.node.as_str();
            !a.node.ty.node.nullable && (n == "id" || n == "code" || n.ends_with("Code"))
        });
    if lookup && !f.ty.node.nullable {
        out.insert(format!("lookup not nullable: Query.{field}"));
    }
}

#[test]
fn every_field_not_deprecated_follows_the_schema_conventions_but_the_listed_offenders() {
    let found = offences(&fomento_api::graphql::sdl());
    let allowed: BTreeSet<String> = OFFENDERS.iter().map(|s| (*s).to_owned()).collect();
    let new: Vec<_> = found.difference(&allowed).collect();
    let mended: Vec<_> = allowed.difference(&found).collect();
    assert!(
        new.is_empty(),
        "breaking the conventions of docs/graph.md (follow them, or deprecate the field):\n{}",
        new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    assert!(
        mended.is_empty(),
        "no longer offending: remove from OFFENDERS:\n{}",
        mended.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_schema_lint_catches_each_kind_of_breach() {
    let sdl = r#"
        type Query {
          thing(id: ID!): Thing!
          things(first: Int): [Thing!]!
          pages(filter: String, first: Int): ThingConnection!
          old(id: ID!): Thing! @deprecated(reason: "Use `thing`.")
        }
        type Thing { id: ID! }
        type ThingConnection { totalCount: Int! }
        type DoItPayload { thing: Thing! }
        input DoItInput { versionId: Int! }
        type Mutation {
          doIt(input: DoItInput!): DoItPayload!
          loose(id: ID!, versionId: Int!): Thing!
        }
    "#;
    let found: Vec<String> = offences(sdl).into_iter().collect();
    assert_eq!(
        found,
        [
            "Int id: DoItInput.versionId",
            "Int id: Mutation.loose(versionId)",
            "connection without filter and orderBy: Query.pages",
            "list, not a connection: Query.things",
            "lookup not nullable: Query.thing",
            "mutation input: Mutation.loose",
            "mutation payload: Mutation.loose",
        ]
    );
}

/// Runs a new-style mutation `name` with `input`, answering its payload.
async fn act(app: &crate::helpers::TestApp, name: &str, input_type: &str, input: Value, selection: &str) -> Value {
    let q = format!("mutation M($input: {input_type}!) {{ {name}(input: $input) {{ {selection} }} }}");
    app.data(&q, json!({ "input": input })).await[name].clone()
}

#[tokio::test]
async fn both_lifecycles_are_walked_with_one_input_and_a_payload_per_act() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();

        // A social-fuel project from draft to the seal's request.
        let p = act(&app, "draftSocialFuelProject", "DraftSocialFuelProjectInput",
            json!({ "title": "Usina", "bankId": bank, "producerDocument": "11.222.333/0001-81", "producerName": "Biodiesel S.A.",
                "plantMunicipalityCode": 5103403, "requestedAmount": "1000.00", "bankFramedOn": "2026-01-05" }),
            "project { id stage }").await;
        assert_eq!(p["project"]["stage"], "DRAFT");
        let id = p["project"]["id"].clone();
        for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT", "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
            let d = act(&app, "receiveProjectDocument", "ReceiveProjectDocumentInput",
                json!({ "projectId": id, "kind": kind, "receivedOn": "2026-01-08" }), "document { kind }").await;
            assert_eq!(d["document"]["kind"], kind);
        }
        let walk = [
            ("recordSocialFuelFiling", json!({ "on": "2026-01-10" }), "FILED"),
            ("recordSocialFuelDecision", json!({ "decision": "FAVOURABLE", "on": "2026-02-05", "letter": "Ofício 1/2026" }), "CONFORMING"),
            ("recordSocialFuelFinancingApproval", json!({ "on": "2026-03-02", "scheduledEnd": "2027-03-02" }), "FINANCING_APPROVED"),
            ("recordIndustrialOperationStart", json!({ "on": "2026-04-01" }), "OPERATING"),
            ("recordSocialFuelExtensionRequest", json!({ "justification": "safra", "purchasesHonoured": true, "farmersAssisted": true, "on": "2026-09-01" }), "OPERATING"),
            ("recordSocialFuelExtensionDecision", json!({ "granted": true, "reason": "seca", "on": "2026-09-10" }), "OPERATING"),
            ("recordExternalEvaluationStart", json!({ "on": "2026-10-01" }), "EXTERNAL_EVALUATION"),
            ("recordExternalEvaluationResult", json!({ "result": "FAVOURABLE", "on": "2026-10-20" }), "SEAL_ELIGIBLE"),
            ("recordSocialFuelSealRequest", json!({ "on": "2026-11-03" }), "SEAL_REQUESTED"),
        ];
        for (name, mut input, stage) in walk {
            input["projectId"] = id.clone();
            let mut ty = name.to_owned();
            ty.replace_range(..1, &name[..1].to_uppercase());
            let d = act(&app, name, &format!("{ty}Input"), input, "project { stage }").await;
            assert_eq!(d["project"]["stage"], stage, "{name}");
        }
        // The letter is required by the schema itself, and an ID of another kind is refused naming the input's field.
        let (_, body) = app
            .gql("mutation { recordSocialFuelDecision(input: { projectId: \"x\", decision: FAVOURABLE }) { project { id } } }", json!({}))
            .await;
        assert!(body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT" && body["data"].is_null() && body["errors"][0]["message"].as_str().is_some_and(|m| m.contains("letter")), "{body}");
        let (message, code) = app
            .error("mutation M($i: RecordSocialFuelFilingInput!) { recordSocialFuelFiling(input: $i) { project { id } } }", json!({ "i": { "projectId": bank } }))
            .await;
        assert!(code == "BAD_USER_INPUT" && message.contains("input.projectId"), "{code}: {message}");

        // An FCO carta below the threshold: drafted, submitted, decided by the bank, presented, contracted, amended.
        let c = act(&app, "draftFcoCarta", "DraftFcoCartaInput",
            json!({ "number": "FCO-1", "bankId": bank, "borrowerDocument": "529.982.247-25", "borrowerName": "João Silva",
                "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "500000.00", "municipalityCode": 5107909 }),
            "carta { id stage }").await;
        let carta = c["carta"]["id"].clone();
        let walk = [
            ("recordFcoCartaSubmission", json!({ "on": "2026-03-02" }), "SUBMITTED"),
            ("recordFcoCartaDecision", json!({ "decision": "FAVOURABLE", "byChamber": false, "on": "2026-03-03" }), "APPROVED"),
            ("recordFcoProjectPresentation", json!({ "on": "2026-03-10" }), "APPROVED"),
            ("recordFcoCartaContract", json!({ "on": "2026-03-20" }), "CONTRACTED"),
            ("recordFcoCartaAmendment", json!({ "kind": "VALUE_INCREASE", "description": "orçamento", "newAmount": "510000.00", "on": "2026-03-21" }), "CONTRACTED"),
        ];
        for (name, mut input, stage) in walk {
            input["cartaId"] = carta.clone();
            let mut ty = name.to_owned();
            ty.replace_range(..1, &name[..1].to_uppercase());
            let d = act(&app, name, &format!("{ty}Input"), input, "carta { stage }").await;
            assert_eq!(d["carta"]["stage"], stage, "{name}");
        }
        // An unfavourable carta reformulated: the payload is the new draft, pointing to the old one.
        let c = act(&app, "draftFcoCarta", "DraftFcoCartaInput",
            json!({ "number": "FCO-2", "bankId": bank, "borrowerDocument": "529.982.247-25",
                "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "500000.00", "municipalityCode": 5107909 }),
            "carta { id }").await;
        let old = c["carta"]["id"].clone();
        act(&app, "recordFcoCartaSubmission", "RecordFcoCartaSubmissionInput", json!({ "cartaId": old, "on": "2026-03-02" }), "carta { id }").await;
        act(&app, "recordFcoCartaDecision", "RecordFcoCartaDecisionInput",
            json!({ "cartaId": old, "decision": "UNFAVOURABLE", "byChamber": false, "on": "2026-03-03" }), "carta { id }").await;
        let again = act(&app, "draftFcoCartaResubmission", "DraftFcoCartaResubmissionInput",
            json!({ "cartaId": old, "number": "FCO-2B" }), "carta { stage resubmissionOf { id } }").await;
        assert_eq!((again["carta"]["stage"].as_str(), &again["carta"]["resubmissionOf"]["id"]), (Some("DRAFT"), &old));
    })
    .await;
}

#[tokio::test]
async fn every_deprecated_mutation_names_its_replacement_and_the_removal_date() {
    on_each_backend(false, |app| async move {
        let d = app
            .data("{ __type(name: \"Mutation\") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }", json!({}))
            .await;
        let fields = d["__type"]["fields"].as_array().cloned().unwrap_or_default();
        let names: BTreeSet<&str> = fields.iter().filter_map(|f| f["name"].as_str()).collect();
        let deprecated: Vec<_> = fields.iter().filter(|f| f["isDeprecated"] == true).collect();
        assert!(deprecated.len() >= 24, "{deprecated:?}");
        for f in deprecated {
            let reason = f["deprecationReason"].as_str().unwrap_or("");
            let replacement = reason.split('`').nth(1).and_then(|r| r.split('(').next()).unwrap_or("");
            assert!(
                names.contains(replacement) && reason.contains("2027-06-30"),
                "{}: {reason}",
                f["name"]
            );
        }
    })
    .await;
}

#[tokio::test]
async fn rule_parameters_the_calendar_and_checklists_take_one_input_and_name_versions_by_global_id() {
    on_each_backend(false, |app| async move {
        let add = act(&app, "recordRuleParameterVersion", "RecordRuleParameterVersionInput",
            json!({ "key": "SF-DECISION-30D.DAYS", "value": "45", "unit": "DAYS", "effectiveFrom": "2024-01-01", "legalSource": "Portaria X" }),
            "parameter { id versionId value }").await;
        let id = add["parameter"]["id"].clone();
        // The version is a node, fetched again by its ID.
        let node = app.data("query N($id: ID!) { node(id: $id) { ... on RuleParameter { value versionId } } }", json!({ "id": id })).await;
        assert_eq!((&node["node"]["value"], &node["node"]["versionId"]), (&json!("45"), &add["parameter"]["versionId"]));
        let fixed = act(&app, "recordRuleParameterCorrection", "RecordRuleParameterCorrectionInput",
            json!({ "versionId": id, "value": "40", "reason": "typo" }), "parameter { id value }").await;
        assert_eq!(fixed["parameter"]["value"], "40");
        assert_ne!(fixed["parameter"]["id"], id, "the correction is a new version");
        let gone = act(&app, "recordRuleParameterWithdrawal", "RecordRuleParameterWithdrawalInput",
            json!({ "versionId": fixed["parameter"]["id"], "reason": "never published" }), "parameter { withdrawnAt }").await;
        assert!(gone["parameter"]["withdrawnAt"].is_string(), "{gone}");
        // A raw number is no version's ID, and the error names the input's field.
        let (message, code) = app
            .error("mutation { recordRuleParameterWithdrawal(input: { versionId: \"42\", reason: \"x\" }) { parameter { id } } }", json!({}))
            .await;
        assert!(code == "BAD_USER_INPUT" && message.contains("input.versionId"), "{code}: {message}");

        let day = act(&app, "recordNonBusinessDay", "RecordNonBusinessDayInput",
            json!({ "day": "2031-11-20", "reason": "Consciência Negra", "authority": "MATO_GROSSO" }), "nonBusinessDay { day open }").await;
        assert_eq!((&day["nonBusinessDay"]["day"], &day["nonBusinessDay"]["open"]), (&json!("2031-11-20"), &json!(false)));
        let open = act(&app, "recordOfficeOpenDay", "RecordOfficeOpenDayInput",
            json!({ "day": "2031-02-24", "authority": "FEDERAL", "reason": "Portaria Y" }), "nonBusinessDay { open }").await;
        assert_eq!(open["nonBusinessDay"]["open"], true);

        // A checklist confirmation names a financing by global ID; another kind is refused naming the field.
        let (message, code) = app
            .error("mutation M($i: RecordChecklistConfirmationInput!) { recordChecklistConfirmation(input: $i) { outcome { status } } }",
                json!({ "i": { "financingId": id, "ruleCode": "SF-ASSISTANCE-PLAN", "confirmedBy": "Ana" } }))
            .await;
        assert!(code == "BAD_USER_INPUT" && message.contains("input.financingId"), "{code}: {message}");
    })
    .await;
}

#[tokio::test]
async fn a_lookup_that_misses_answers_null_and_keeps_the_rest_of_the_response() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let (status, body) = app
            .gql(
                "{ ok: banks(first: 1) { totalCount } bank(id: \"QmFuazo5OQ\") { name } bankByCode(code: \"ZZ\") { name }
                   municipality(ibgeCode: 9999999) { name } bankReport(id: \"QmFua1JlcG9ydDo5OTk\") { number }
                   factImport(id: \"RmFjdEltcG9ydDo5OTk\") { number } }",
                json!({}),
            )
            .await;
        assert_eq!(status, 200);
        assert_eq!(body["data"]["ok"]["totalCount"], 1, "{body}");
        for field in ["bank", "bankByCode", "municipality", "bankReport", "factImport"] {
            assert!(body["data"][field].is_null(), "{field}: {body}");
            let error = body["errors"]
                .as_array()
                .and_then(|e| e.iter().find(|e| e["path"] == json!([field])).cloned())
                .unwrap_or_default();
            assert_eq!(error["extensions"]["code"], "NOT_FOUND", "{field}: {body}");
        }
    })
    .await;
}

#[tokio::test]
async fn a_financing_answers_compliance_deadlines_history_and_flags_without_a_fragment_per_programme() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        act(&app, "draftFcoCarta", "DraftFcoCartaInput",
            json!({ "number": "FCO-1", "bankId": bank, "borrowerDocument": "529.982.247-25", "borrowerName": "João Silva",
                "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "500000.00", "municipalityCode": 5107909 }),
            "carta { id }").await;
        act(&app, "draftSocialFuelProject", "DraftSocialFuelProjectInput",
            json!({ "title": "Usina", "bankId": bank, "producerDocument": "11.222.333/0001-81", "producerName": "Biodiesel S.A.",
                "plantMunicipalityCode": 5103403, "requestedAmount": "1000.00" }),
            "project { id }").await;
        let selection = "compliance(asOf: \"2026-03-01\") { ruleCode status } deadlines(asOf: \"2026-03-01\") { ruleCode status } history { event } flags { id }";
        let shared = app
            .data(&format!("{{ financings(first: 10) {{ nodes {{ __typename {selection} }} }} }}"), json!({}))
            .await;
        let fragments = app
            .data(
                &format!("{{ financings(first: 10) {{ nodes {{ __typename ... on FcoCarta {{ {selection} }} ... on SocialFuelProject {{ {selection} }} }} }} }}"),
                json!({}),
            )
            .await;
        let nodes = shared["financings"]["nodes"].as_array().cloned().unwrap_or_default();
        assert_eq!(nodes.len(), 2, "{shared}");
        assert!(nodes.iter().all(|n| n["compliance"].as_array().is_some_and(|c| !c.is_empty()) && n["history"][0]["event"] == "CREATE"), "{shared}");
        assert_eq!(shared, fragments);
    })
    .await;
}

#[tokio::test]
async fn unknown_names_are_refused_naming_the_field_not_answered_empty() {
    on_each_backend(false, |app| async move {
        let add = "mutation A($i: RecordRuleParameterVersionInput!) { recordRuleParameterVersion(input: $i) { parameter { id } } }";
        for (input, field) in [
            (json!({ "key": "NOPE.X", "value": "1", "unit": "DAYS", "effectiveFrom": "2027-01-01", "legalSource": "x" }), "key:"),
            (json!({ "key": "FCO-CEILING.AMOUNT", "value": "1", "unit": "DAYS", "effectiveFrom": "2027-01-01", "legalSource": "x" }), "unit:"),
            (json!({ "key": "FCO-CEILING.AMOUNT", "value": "-5", "unit": "BRL", "effectiveFrom": "2027-01-01", "legalSource": "x" }), "value:"),
            (json!({ "key": "FCO-CEILING.AMOUNT", "value": "5", "unit": "BRL", "effectiveFrom": "2027-01-01", "effectiveTo": "2026-01-01", "legalSource": "x" }), "effectiveTo:"),
        ] {
            let (message, code) = app.error(add, json!({ "i": input })).await;
            assert!(code == "BAD_USER_INPUT" && message.starts_with(field), "{input}: {code} {message}");
        }
        for (query, field) in [
            ("{ ruleParameters(rule: \"NOPE\") { value } }", "rule:"),
            ("{ complianceDashboard { table(name: \"nope\") { rows } } }", "name:"),
        ] {
            let (message, code) = app.error(query, json!({})).await;
            assert!(code == "BAD_USER_INPUT" && message.starts_with(field) && (message.contains("nope") || message.contains("NOPE")), "{query}: {code} {message}");
        }
        // A rule without parameters, or a parameter's key, is known: an empty list or its versions.
        let d = app.data("{ a: ruleParameters(rule: \"SF-DOCUMENTS\") { value } b: ruleParameters(rule: \"FCO-CEILING\") { value } }", json!({})).await;
        assert_eq!((d["a"].as_array().map(Vec::len), d["b"].as_array().is_some_and(|b| !b.is_empty())), (Some(0), true), "{d}");
    })
    .await;
}

#[tokio::test]
async fn social_fuel_projects_filter_submitted_on_by_submitted_from_and_to() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let draft = json!({ "title": "Usina", "bankId": bank, "producerDocument": "11.222.333/0001-81", "producerName": "Biodiesel S.A.",
            "plantMunicipalityCode": 5103403, "requestedAmount": "1000.00", "bankFramedOn": "2026-01-05" });
        let filed = act(&app, "draftSocialFuelProject", "DraftSocialFuelProjectInput", draft.clone(), "project { id }").await["project"]["id"].clone();
        act(&app, "draftSocialFuelProject", "DraftSocialFuelProjectInput", draft, "project { id }").await;
        for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT", "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
            act(&app, "receiveProjectDocument", "ReceiveProjectDocumentInput",
                json!({ "projectId": filed, "kind": kind, "receivedOn": "2026-01-08" }), "document { kind }").await;
        }
        act(&app, "recordSocialFuelFiling", "RecordSocialFuelFilingInput", json!({ "projectId": filed, "on": "2026-01-10" }), "project { id }").await;
        let q = "query Q($f: SocialFuelProjectFilter) { socialFuelProjects(filter: $f) { nodes { id submittedOn } } }";
        let ids = |d: Value| d["socialFuelProjects"]["nodes"].as_array().cloned().unwrap_or_default();
        let new = ids(app.data(q, json!({ "f": { "submittedFrom": "2026-01-10", "submittedTo": "2026-01-10" } })).await);
        assert_eq!(new, [json!({ "id": filed, "submittedOn": "2026-01-10" })]);
        assert!(ids(app.data(q, json!({ "f": { "submittedFrom": "2026-01-11" } })).await).is_empty());
        // The old names filter the same until their removal, and are marked deprecated.
        let old = ids(app.data(q, json!({ "f": { "filedFrom": "2026-01-10", "filedTo": "2026-01-10" } })).await);
        assert_eq!(old, new);
        let t = app
            .data("{ __type(name: \"SocialFuelProjectFilter\") { inputFields(includeDeprecated: true) { name isDeprecated deprecationReason } } }", json!({}))
            .await;
        let fields = t["__type"]["inputFields"].as_array().cloned().unwrap_or_default();
        let filed_from = fields.iter().find(|f| f["name"] == "filedFrom").cloned().unwrap_or_default();
        assert!(filed_from["isDeprecated"] == true && filed_from["deprecationReason"].as_str().is_some_and(|r| r.contains("submittedFrom")), "{t}");
    })
    .await;
}

#[tokio::test]
async fn a_batched_request_is_refused_with_its_own_code_in_the_senders_language() {
    on_each_backend(false, |app| async move {
        let batch = json!([{ "query": "{ rules { code } }" }, { "query": "{ banks { totalCount } }" }]);
        for (lang, fragment) in [(None, "em lote"), (Some("en"), "batched requests are not supported")] {
            let mut request = app.post("/graphql").header("accept", "application/json").json(&batch);
            if let Some(l) = lang {
                request = request.header("accept-language", l);
            }
            let r = request.send().await.expect("answer");
            let status = r.status().as_u16();
            let body: Value = r.json().await.expect("json");
            let error = &body["errors"][0];
            assert_eq!(
                (status, &error["extensions"]["code"]),
                (400, &json!("BATCH_NOT_SUPPORTED")),
                "{body}"
            );
            assert!(
                error["message"]
                    .as_str()
                    .is_some_and(|m| m.contains(fragment) && m.contains('2')),
                "{body}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn a_list_size_out_of_its_bounds_is_refused_naming_the_bound_on_every_list() {
    on_each_backend(false, |app| async move {
        for (query, bound) in [
            ("{ parties(search: \"jo\", first: -1) { name } }", None),
            ("{ parties(search: \"jo\", first: 101) { name } }", Some("100")),
            ("{ fcoCartas(first: 101) { totalCount } }", Some("100")),
            ("{ fcoCartas(first: -1) { totalCount } }", None),
            ("{ auditLog(first: 501) { number } }", Some("500")),
            ("{ auditLog(first: -1) { number } }", None),
            ("{ factImports(first: 101) { number } }", Some("100")),
        ] {
            let (message, code) = app.error(query, json!({})).await;
            assert!(
                code == "BAD_USER_INPUT" && message.starts_with("first:") && bound.is_none_or(|b| message.contains(b)),
                "{query}: {code} {message}"
            );
        }
        // Within the bounds, an empty page or a page: no error.
        app.data(
            "{ parties(search: \"jo\", first: 0) { name } auditLog(first: 500) { number } }",
            json!({}),
        )
        .await;
    })
    .await;
}
