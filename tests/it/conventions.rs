//! The schema's conventions (issue 45, `docs/graph.md`), checked over the parsed SDL for every field not deprecated:
//! a mutation takes one `input: <Mutation>Input!` (and a `file: Upload!` when it carries one) and answers a payload
//! object; no `Int` argument or input field is named like an ID; a list of records that grows is a connection with
//! `filter:` and `orderBy:`; a lookup by ID or code is nullable, so one miss leaves the rest of the response.
//!
//! `OFFENDERS` lists what broke a convention when the test was written; it only shrinks: an entry that no longer
//! offends fails the test until it is removed.
//!
//! Size: the tests of one area, each a scenario through the real server over HTTP; they share this file's helpers.

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
const OFFENDERS: &[&str] = &[];

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
    // The input types a field not deprecated takes, directly or through other inputs: an input only a deprecated
    // field takes goes with it (a required input field cannot itself be deprecated).
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut pending: Vec<String> = types
        .values()
        .flat_map(|t| match &t.kind {
            TypeKind::Object(o) => o.fields.as_slice(),
            TypeKind::Interface(i) => i.fields.as_slice(),
            _ => &[],
        })
        .filter(|f| !deprecated(&f.node.directives))
        .flat_map(|f| f.node.arguments.iter())
        .filter(|a| !deprecated(&a.node.directives))
        .map(|a| named(&a.node.ty.node).to_owned())
        .collect();
    while let Some(name) = pending.pop() {
        if let Some(TypeKind::InputObject(i)) = types.get(&name).map(|t| &t.kind)
            && used.insert(name)
        {
            pending.extend(
                i.fields
                    .iter()
                    .filter(|f| !deprecated(&f.node.directives))
                    .map(|f| named(&f.node.ty.node).to_owned()),
            );
        }
    }
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
            TypeKind::InputObject(i) if used.contains(type_name) => {
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
        input OldInput { versionId: Int! }
        type Mutation {
          doIt(input: DoItInput!): DoItPayload!
          loose(id: ID!, versionId: Int!): Thing!
          old(input: OldInput!): DoItPayload! @deprecated(reason: "Use `doIt`.")
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
async fn an_acts_refusal_names_the_field_as_the_form_it_was_sent_in_names_it() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let error = |q: String, i: Value| {
            let app = &app;
            async move { app.error(&q, json!({ "i": i })).await }
        };
        let input = |name: &str, ty: &str, selection: &str| format!("mutation M($i: {ty}!) {{ {name}(input: $i) {{ {selection} }} }}");

        // A social-fuel act dated after today: `input.on` sent as `input:`, `on` in the deprecated form.
        let p = act(&app, "draftSocialFuelProject", "DraftSocialFuelProjectInput",
            json!({ "title": "Usina", "bankId": bank, "producerDocument": "11.222.333/0001-81", "producerName": "Biodiesel S.A.",
                "plantMunicipalityCode": 5103403, "requestedAmount": "1000.00", "bankFramedOn": "2026-01-05" }),
            "project { id }").await;
        let id = p["project"]["id"].clone();
        let (message, code) = error(input("recordSocialFuelFiling", "RecordSocialFuelFilingInput", "project { id }"), json!({ "projectId": id, "on": "2999-01-01" })).await;
        assert!(code == "BAD_USER_INPUT" && message.starts_with("input.on:"), "{code}: {message}");
        let (message, _) = app.error("mutation M($id: ID!) { fileSocialFuelProject(id: $id, on: \"2999-01-01\") { id } }", json!({ "id": id })).await;
        assert!(message.starts_with("on:"), "{message}");
        // A document received again after the filing needs a reason: `input.reason`, or `reason`.
        let receive = input("receiveProjectDocument", "ReceiveProjectDocumentInput", "document { kind }");
        for kind in ["REQUEST_LETTER", "BANK_FRAMING_LETTER", "SOCIAL_FUEL_PROJECT", "FARMER_CONTRACT", "CNPJ_REGISTRATION", "GOOD_STANDING_DECLARATION"] {
            act(&app, "receiveProjectDocument", "ReceiveProjectDocumentInput", json!({ "projectId": id, "kind": kind, "receivedOn": "2026-01-08" }), "document { kind }").await;
        }
        act(&app, "recordSocialFuelFiling", "RecordSocialFuelFilingInput", json!({ "projectId": id, "on": "2026-01-10" }), "project { id }").await;
        let (message, _) = error(receive, json!({ "projectId": id, "kind": "REQUEST_LETTER", "receivedOn": "2026-01-12" })).await;
        assert!(message.starts_with("input.reason:"), "{message}");
        let (message, _) = app
            .error("mutation M($id: ID!) { addProjectDocument(projectId: $id, kind: REQUEST_LETTER, receivedOn: \"2026-01-12\") { kind } }", json!({ "id": id }))
            .await;
        assert!(message.starts_with("reason:"), "{message}");

        // An FCO carta: submitted twice (`input.cartaId`, or `id`), amended in value without the new amount.
        let c = act(&app, "draftFcoCarta", "DraftFcoCartaInput",
            json!({ "number": "FCO-1", "bankId": bank, "borrowerDocument": "529.982.247-25", "borrowerName": "João Silva",
                "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "500000.00", "municipalityCode": 5107909 }),
            "carta { id }").await;
        let carta = c["carta"]["id"].clone();
        let submit = input("recordFcoCartaSubmission", "RecordFcoCartaSubmissionInput", "carta { id }");
        act(&app, "recordFcoCartaSubmission", "RecordFcoCartaSubmissionInput", json!({ "cartaId": carta, "on": "2026-03-02" }), "carta { id }").await;
        let (message, code) = error(submit, json!({ "cartaId": carta, "on": "2026-03-02" })).await;
        assert!(code == "BAD_USER_INPUT" && message.starts_with("input.cartaId:"), "{code}: {message}");
        let (message, _) = app.error("mutation M($id: ID!) { submitFcoCarta(id: $id, on: \"2026-03-02\") { id } }", json!({ "id": carta })).await;
        assert!(message.starts_with("id:"), "{message}");
        for (name, i) in [
            ("recordFcoCartaDecision", json!({ "decision": "FAVOURABLE", "byChamber": false, "on": "2026-03-03" })),
            ("recordFcoProjectPresentation", json!({ "on": "2026-03-10" })),
            ("recordFcoCartaContract", json!({ "on": "2026-03-20" })),
        ] {
            let mut i = i;
            i["cartaId"] = carta.clone();
            let mut ty = name.to_owned();
            ty.replace_range(..1, &name[..1].to_uppercase());
            act(&app, name, &format!("{ty}Input"), i, "carta { id }").await;
        }
        let amend = input("recordFcoCartaAmendment", "RecordFcoCartaAmendmentInput", "carta { id }");
        let (message, _) = error(amend, json!({ "cartaId": carta, "kind": "VALUE_INCREASE", "description": "orçamento", "on": "2026-03-21" })).await;
        assert!(message.starts_with("input.newAmount:"), "{message}");
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

/// Pages through `field` (a connection selecting `nodes { key }`) two at a time, forward after each `endCursor`, then
/// backward before each `startCursor`, answering both walks' keys.
async fn walk(app: &crate::helpers::TestApp, field: &str, args: &str, key: &str) -> (Vec<Value>, Vec<Value>) {
    let q = format!(
        "query W($after: String, $before: String, $first: Int, $last: Int) {{ list: {field}({args} first: $first, \
         after: $after, last: $last, before: $before) {{ totalCount pageInfo {{ hasNextPage hasPreviousPage startCursor \
         endCursor }} nodes {{ {key} }} }} }}"
    );
    let keys = |d: &Value| {
        d["list"]["nodes"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .map(|n| n[key].clone())
            .collect::<Vec<_>>()
    };
    let mut forward = Vec::new();
    let mut after = Value::Null;
    for _ in 0..50 {
        let d = app.data(&q, json!({ "first": 2, "after": after })).await;
        forward.extend(keys(&d));
        if d["list"]["pageInfo"]["hasNextPage"] != true {
            break;
        }
        after = d["list"]["pageInfo"]["endCursor"].clone();
    }
    let mut backward = Vec::new();
    let mut before = Value::Null;
    for _ in 0..50 {
        let d = app.data(&q, json!({ "last": 2, "before": before })).await;
        let mut page = keys(&d);
        page.extend(backward);
        backward = page;
        if d["list"]["pageInfo"]["hasPreviousPage"] != true {
            break;
        }
        before = d["list"]["pageInfo"]["startCursor"].clone();
    }
    (forward, backward)
}

#[tokio::test]
async fn the_lists_of_records_page_by_cursor_in_either_order_with_their_filter() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        // Five audit lines that succeeded, one refused.
        for day in ["2031-11-20", "2031-11-21", "2031-11-24", "2031-11-25", "2031-11-26"] {
            act(&app, "recordNonBusinessDay", "RecordNonBusinessDayInput",
                json!({ "day": day, "reason": "feriado", "authority": "MATO_GROSSO" }), "nonBusinessDay { day }").await;
        }
        app.gql("mutation { recordNonBusinessDay(input: { day: \"2031-11-20\", reason: \"x\", authority: MATO_GROSSO }) { nonBusinessDay { day } } }", json!({})).await;

        let ok = "filter: { action: \"mutation recordNonBusinessDay\", outcome: \"OK\" }";
        for (order, reversed) in [("", false), ("orderBy: { direction: DESC }", false), ("orderBy: { direction: ASC }", true)] {
            let (forward, backward) = walk(&app, "auditLines", &format!("{ok} {order}"), "number").await;
            assert_eq!(forward.len(), 5, "{order}: {forward:?}");
            assert_eq!(forward, backward, "{order}");
            let numbers: Vec<i64> = forward.iter().filter_map(Value::as_i64).collect();
            let mut sorted = numbers.clone();
            sorted.sort_unstable();
            if !reversed {
                sorted.reverse();
            }
            assert_eq!(numbers, sorted, "{order}: newest first unless ASC");
        }
        let refused = app
            .data("{ auditLines(filter: { action: \"mutation recordNonBusinessDay\", outcome: \"ERROR\" }) { totalCount } }", json!({}))
            .await;
        assert_eq!(refused["auditLines"]["totalCount"], 1, "the day recorded twice: {refused}");
        let refused = app
            .data("{ auditLines(filter: { action: \"mutation recordNonBusinessDay\" }) { totalCount } }", json!({}))
            .await;
        assert_eq!(refused["auditLines"]["totalCount"], 6, "the refused act is a line too: {refused}");

        // The other lists take the same arguments; the deprecated loose ones still narrow, the filter winning.
        let d = app
            .data(
                "query L($bank: ID) { a: bankReports(filter: { bankId: $bank, statuses: [INGESTED] }, orderBy: { direction: ASC }) { totalCount }
                   b: bankReports(bankId: $bank, referenceMonth: \"2019-05\") { totalCount }
                   c: jobRuns(filter: { job: \"ingest\" }, orderBy: { field: STARTED, direction: ASC }) { totalCount }
                   d: complianceFlags(orderBy: { field: RAISED, direction: ASC }) { totalCount }
                   e: webhookDeliveries(orderBy: { direction: ASC }) { totalCount }
                   f: imports(filter: { kind: CARTA_ITEMS }, orderBy: { direction: ASC }) { totalCount } }",
                json!({ "bank": bank }),
            )
            .await;
        assert!(["a", "b", "c", "d", "e", "f"].iter().all(|k| d[*k]["totalCount"] == 0), "{d}");
        let (message, code) = app.error("{ bankReports(filter: { bankId: \"eA\" }) { totalCount } }", json!({})).await;
        assert!(code == "BAD_USER_INPUT" && message.contains("filter.bankId"), "{code}: {message}");
        let (message, code) = app.error("{ auditLines(first: 101) { totalCount } }", json!({})).await;
        assert!(code == "BAD_USER_INPUT" && message.starts_with("first:") && message.contains("100"), "{code}: {message}");
    })
    .await;
}

#[tokio::test]
async fn a_party_search_pages_by_name_and_a_bank_finds_only_its_borrowers() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        crate::lifecycle_support::seed_bank(&app, "SICREDI").await;
        let bank = |code: &'static str| {
            let app = &app;
            async move { app.data(&format!("{{ bankByCode(code: \"{code}\") {{ id }} }}"), json!({})).await["bankByCode"]["id"].clone() }
        };
        let (bb, sicredi) = (bank("BB").await, bank("SICREDI").await);
        let borrowers = [
            ("529.982.247-25", "João Silva", &bb),
            ("123.456.789-09", "Joana Souza", &bb),
            ("987.654.321-00", "Jorge Lima", &bb),
            ("111.444.777-35", "Joaquim Alves", &sicredi),
            ("222.555.888-46", "Maria Joaninha", &bb),
        ];
        for (n, (doc, name, bank)) in borrowers.iter().enumerate() {
            act(&app, "draftFcoCarta", "DraftFcoCartaInput",
                json!({ "number": format!("FCO-{n}"), "bankId": bank, "borrowerDocument": doc, "borrowerName": name,
                    "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "500000.00", "municipalityCode": 5107909 }),
                "carta { id }").await;
        }
        let all = ["Joana Souza", "Joaquim Alves", "João Silva", "Maria Joaninha"];
        // Accents and case ignored; by name, A to Z, pages of two meeting at their cursors, from either end.
        let (forward, backward) = walk(&app, "partySearch", "filter: { name: \"JOA\" }", "name").await;
        let names: Vec<&str> = forward.iter().filter_map(Value::as_str).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, all, "{forward:?}");
        assert_eq!(forward, backward);
        let (down, _) = walk(&app, "partySearch", "filter: { name: \"joa\" } orderBy: { direction: DESC }", "name").await;
        assert_eq!(down, forward.iter().rev().cloned().collect::<Vec<_>>());
        let total = app.data("{ partySearch(filter: { name: \"joa\" }) { totalCount } }", json!({})).await;
        assert_eq!(total["partySearch"]["totalCount"], 4, "{total}");
        // The deprecated list answers the same first page.
        let old = app.data("{ parties(search: \"joa\", first: 2) { name } }", json!({})).await;
        assert_eq!(old["parties"].as_array().map(|p| p.iter().map(|p| p["name"].clone()).collect::<Vec<_>>()), Some(forward[..2].to_vec()));

        // A bank finds only its own borrowers, through every page and in the count.
        let key = app.key_of("bank", Some("SICREDI")).await;
        let client = crate::helpers::client_with(&key);
        let body: Value = client
            .post(format!("{}/graphql", app.base))
            .json(&json!({ "query": "{ partySearch(filter: { name: \"jo\" }, first: 1) { totalCount nodes { name } pageInfo { hasNextPage } } }" }))
            .send()
            .await
            .expect("answer")
            .json()
            .await
            .expect("json");
        assert_eq!(body["data"]["partySearch"], json!({ "totalCount": 1, "nodes": [{ "name": "Joaquim Alves" }], "pageInfo": { "hasNextPage": false } }), "{body}");

        // The search's rules and bounds name the filter's field and the bound.
        let (message, code) = app.error("{ partySearch(filter: { name: \"j\" }) { totalCount } }", json!({})).await;
        assert!(code == "BAD_USER_INPUT" && message.starts_with("filter.name:"), "{code}: {message}");
        let (message, code) = app.error("{ partySearch(filter: { name: \"jo\" }, first: 101) { totalCount } }", json!({})).await;
        assert!(code == "BAD_USER_INPUT" && message.starts_with("first:") && message.contains("100"), "{code}: {message}");
    })
    .await;
}

#[tokio::test]
async fn a_second_submission_is_refused_by_the_cartas_state_not_by_a_rule() {
    on_each_backend(false, |app| async move {
        crate::lifecycle_support::seed_bank(&app, "BB").await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let c = act(&app, "draftFcoCarta", "DraftFcoCartaInput",
            json!({ "number": "FCO-9", "bankId": bank, "borrowerDocument": "529.982.247-25", "borrowerName": "João Silva",
                "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "2000000.00", "municipalityCode": 5107909 }),
            "carta { id }").await;
        let carta = c["carta"]["id"].clone();
        let submit = "mutation S($i: RecordFcoCartaSubmissionInput!) { recordFcoCartaSubmission(input: $i) { carta { stage } } }";
        let first = app.data(submit, json!({ "i": { "cartaId": carta, "on": "2026-03-02" } })).await;
        assert_eq!(first["recordFcoCartaSubmission"]["carta"]["stage"], "SUBMITTED");
        for (lang, text) in [(None, "já foi submetida"), (Some("en"), "was already submitted")] {
            let (_, body) = app.gql_in(lang, submit, json!({ "i": { "cartaId": carta, "on": "2026-03-03" } })).await;
            let e = &body["errors"][0];
            assert!(
                e["extensions"]["code"] == "BAD_USER_INPUT"
                    && e["extensions"]["ruleCode"].is_null()
                    && e["message"].as_str().is_some_and(|m| m.starts_with("input.cartaId:") && m.contains(text) && m.contains("FCO-9") && m.contains("SUBMITTED")),
                "{body}"
            );
        }
        // Nothing was recorded: one submission in the history.
        let h = app.data("query H($id: ID!) { node(id: $id) { ... on FcoCarta { history { event } } } }", json!({ "id": carta })).await;
        let submissions = h["node"]["history"].as_array().map(|h| h.iter().filter(|e| e["event"] == "SUBMIT").count());
        assert_eq!(submissions, Some(1), "{h}");
    })
    .await;
}

#[tokio::test]
async fn an_enum_written_as_a_string_in_the_query_is_refused_naming_the_argument_but_not_in_variables() {
    on_each_backend(false, |app| async move {
        for (query, arg) in [
            ("{ fcoCartas(filter: { stages: [\"DRAFT\"] }) { totalCount } }", "filter.stages"),
            ("{ fcoCartas(filter: { stages: \"DRAFT\" }) { totalCount } }", "filter.stages"),
            ("{ financings(orderBy: { field: \"AMOUNT\" }) { totalCount } }", "orderBy.field"),
            ("query Q($s: [FcoCartaStage!] = [\"DRAFT\"]) { fcoCartas(filter: { stages: $s }) { totalCount } }", "$s"),
            ("{ ...F } fragment F on Query { complianceDashboard(programme: \"FCO_RURAL\") { asOf } }", "programme"),
        ] {
            for (lang, words) in [(None, "está entre aspas"), (Some("en"), "is a string")] {
                let (status, body) = app.gql_in(lang, query, json!({})).await;
                let e = &body["errors"][0];
                // A request error: 400 and no `data` under graphql-response+json.
                assert!(
                    status == 400
                        && body.get("data").is_none()
                        && e["extensions"]["code"] == "BAD_USER_INPUT"
                        && e["message"].as_str().is_some_and(|m| m.starts_with(&format!("{arg}:")) && m.contains(words)),
                    "{query}: {body}"
                );
            }
        }
        // Under application/json it is 200 with the error, as every request error.
        let r = app
            .post("/graphql")
            .header("accept", "application/json")
            .json(&json!({ "query": "{ fcoCartas(filter: { stages: [\"DRAFT\"] }) { totalCount } }" }))
            .send()
            .await
            .expect("answer");
        assert_eq!(r.status().as_u16(), 200);
        let body: Value = r.json().await.expect("json");
        assert_eq!(body["errors"][0]["extensions"]["code"], "BAD_USER_INPUT", "{body}");
        // Bare in the text, or a string in JSON variables as the specification says: both accepted.
        app.data("{ fcoCartas(filter: { stages: [DRAFT] }) { totalCount } }", json!({})).await;
        app.data(
            "query Q($f: FcoCartaFilter, $o: FinancingOrder) { fcoCartas(filter: $f) { totalCount } financings(orderBy: $o) { totalCount } }",
            json!({ "f": { "stages": ["DRAFT"] }, "o": { "field": "AMOUNT" } }),
        )
        .await;
        // A string where a String is expected is no enum.
        app.data("{ ruleParameters(rule: \"FCO-CEILING\") { value } }", json!({})).await;
    })
    .await;
}

/// The operations a client written against the new conventions only sends (`tests/codegen/operations.graphql`, which
/// `npm run check` there type-checks and checks for deprecated fields, arguments and enum values).
const CLIENT_OPERATIONS: &str = include_str!("../codegen/operations.graphql");

/// Runs the operation `name` of [`CLIENT_OPERATIONS`] as a client does (the whole document, `operationName`),
/// answering the response.
async fn client_op(app: &crate::helpers::TestApp, name: &str, variables: Value) -> Value {
    let r = app
        .post("/graphql")
        .json(&json!({ "query": CLIENT_OPERATIONS, "operationName": name, "variables": variables }))
        .send()
        .await
        .expect("answer");
    assert_eq!(r.status().as_u16(), 200, "{name}");
    r.json().await.expect("json")
}

/// [`client_op`] that must succeed, answering its `data`.
async fn client_data(app: &crate::helpers::TestApp, name: &str, variables: Value) -> Value {
    let body = client_op(app, name, variables).await;
    assert!(body.get("errors").is_none(), "{name}: {body}");
    body["data"].clone()
}

#[tokio::test]
async fn a_client_written_against_the_new_conventions_walks_the_readmes_scenarios() {
    on_each_backend(false, |app| async move {
        let names: BTreeSet<String> = async_graphql::parser::parse_query(CLIENT_OPERATIONS)
            .expect("the client's operations parse")
            .operations
            .iter()
            .filter_map(|(name, _)| name.map(|n| n.to_string()))
            .collect();
        crate::lifecycle_support::seed_bank(&app, "BB").await;

        // A lookup by code, and one that misses: null, with its NOT_FOUND error.
        let bank = client_data(&app, "BankByCode", json!({ "code": "BB" })).await["bankByCode"].clone();
        assert_eq!(bank["name"], "BB");
        let miss = client_op(&app, "BankByCode", json!({ "code": "ZZ" })).await;
        assert!(miss["data"]["bankByCode"].is_null() && miss["errors"][0]["extensions"]["code"] == "NOT_FOUND", "{miss}");

        // A carta drafted, submitted and decided by its bank, each act one input and a payload.
        let draft = client_data(&app, "DraftCarta", json!({ "input": {
            "number": "FCO-0001/2026", "bankId": bank["id"], "borrowerDocument": "529.982.247-25", "borrowerName": "João Silva",
            "line": "RURAL", "activity": "GRAINS", "financedAmount": "500000.00", "municipalityCode": 5107909 } })).await;
        let carta = draft["draftFcoCarta"]["carta"].clone();
        assert_eq!((carta["number"].as_str(), carta["stage"].as_str()), (Some("FCO-0001/2026"), Some("DRAFT")));
        let id = carta["id"].clone();
        let submitted = client_data(&app, "SubmitCarta", json!({ "input": { "cartaId": id, "on": "2026-03-02" } })).await;
        assert_eq!(submitted["recordFcoCartaSubmission"]["carta"]["stage"], "SUBMITTED");
        let decided = client_data(&app, "DecideCarta", json!({ "input": { "cartaId": id, "decision": "FAVOURABLE", "byChamber": false, "on": "2026-03-03" } })).await;
        assert_eq!(decided["recordFcoCartaDecision"]["carta"]["stage"], "APPROVED");

        // Lists filtered (enum values as strings in variables) and ordered; the carta by its ID.
        let approved = client_data(&app, "Cartas", json!({ "filter": { "stages": ["APPROVED"] }, "orderBy": { "field": "AMOUNT", "direction": "DESC" } })).await;
        assert_eq!(approved["fcoCartas"]["totalCount"], 1);
        assert_eq!(approved["fcoCartas"]["nodes"][0]["id"], id);
        assert_eq!(approved["fcoCartas"]["nodes"][0]["bank"]["code"], "BB");
        let drafts = client_data(&app, "Cartas", json!({ "filter": { "stages": ["DRAFT"] } })).await;
        assert_eq!(drafts["fcoCartas"]["totalCount"], 0);
        let one = client_data(&app, "Carta", json!({ "id": id })).await;
        assert_eq!((one["node"]["number"].as_str(), one["node"]["amount"].as_str()), (Some("FCO-0001/2026"), Some("500000.00")));

        // Its compliance, deadlines and history through the Financing interface, alone and in the list.
        let obligations = client_data(&app, "CartaObligations", json!({ "id": id })).await["node"].clone();
        assert!(obligations["compliance"].as_array().is_some_and(|c| !c.is_empty()), "{obligations}");
        assert!(obligations["deadlines"].as_array().is_some_and(|d| d.iter().any(|d| d["ruleCode"] == "FCO-VALIDITY-120D")), "{obligations}");
        let events: Vec<&str> = obligations["history"].as_array().map(|h| h.iter().filter_map(|e| e["event"].as_str()).collect()).unwrap_or_default();
        assert_eq!(events, ["CREATE", "SUBMIT", "DECIDE"], "{obligations}");
        let financings = client_data(&app, "Financings", json!({})).await["financings"].clone();
        assert_eq!(financings["totalCount"], 1);
        let outcomes = |v: &Value| v.as_array().map(|c| c.iter().map(|o| (o["ruleCode"].clone(), o["status"].clone())).collect::<Vec<_>>());
        assert_eq!(outcomes(&financings["nodes"][0]["compliance"]), outcomes(&obligations["compliance"]));

        // A bank's monthly list sent with its file (GraphQL multipart), ingested, then listed.
        let file = crate::reports::workbook(&[crate::reports::good_row("MT-1", crate::reports::cpf(1), 250_000.0)]);
        let operations = json!({ "query": CLIENT_OPERATIONS, "operationName": "SendList",
            "variables": { "input": { "bankId": bank["id"], "referenceMonth": "2019-05" }, "file": null } });
        let form = reqwest::multipart::Form::new()
            .text("operations", operations.to_string())
            .text("map", r#"{ "0": ["variables.file"] }"#)
            .part("0", reqwest::multipart::Part::bytes(file).file_name("maio.xlsx"));
        let sent: Value = app.post("/graphql").multipart(form).send().await.expect("answer").json().await.expect("json");
        let report = sent["data"]["submitBankReport"]["report"].clone();
        assert_eq!(report["status"], "RECEIVED", "{sent}");
        jobs::report::ingest::run_once(&app.runtime.ctx, chrono::Utc::now()).await.expect("ingest");
        let read = client_data(&app, "Report", json!({ "id": report["id"] })).await["bankReport"].clone();
        assert_eq!((read["status"].as_str(), read["rowCount"].as_i64(), read["errorCount"].as_i64()), (Some("INGESTED"), Some(1), Some(0)), "{read}");
        let listed = client_data(&app, "Reports", json!({ "filter": { "bankId": bank["id"], "statuses": ["INGESTED"] } })).await;
        assert_eq!(listed["bankReports"]["nodes"], json!([{ "id": report["id"], "number": report["number"], "status": "INGESTED" }]));

        // The flags the deadline job raises, read newest first: the carta's 120 days lapsed without a presentation.
        let spec = jobs::registry::find("flag-deadlines").expect("registered");
        fomento_api::runtime::run_job_as_of(&app.runtime, spec, &format!("test:{}", uuid::Uuid::new_v4()), None)
            .await
            .expect("the job runs")
            .expect("the slot is ours");
        let flags = client_data(&app, "Flags", json!({ "filter": { "open": true } })).await["complianceFlags"].clone();
        let nodes = flags["nodes"].as_array().cloned().unwrap_or_default();
        assert!(flags["totalCount"].as_u64().is_some_and(|n| n >= 1) && nodes.iter().all(|f| f["open"] == true), "{flags}");
        assert!(nodes.iter().any(|f| f["ruleCode"] == "FCO-VALIDITY-120D" && f["message"].as_str().is_some_and(|m| !m.is_empty())), "{flags}");

        // Every operation of the file was walked.
        let walked = ["Financings", "BankByCode", "Carta", "Cartas", "CartaObligations", "DraftCarta", "SubmitCarta", "DecideCarta", "SendList", "Report", "Reports", "Flags"];
        assert_eq!(names, walked.iter().map(|s| (*s).to_owned()).collect::<BTreeSet<_>>());
    })
    .await;
}

#[tokio::test]
async fn item_acquisition_and_proposal_versions_are_nodes_corrected_and_removed_by_their_global_ids() {
    on_each_backend(false, |app| async move {
        // new_project seeds BB as a bank of both programmes.
        let project = crate::facts::new_project(&app, None).await;
        let bank = app.data("{ bankByCode(code: \"BB\") { id } }", json!({})).await["bankByCode"]["id"].clone();
        let c = act(&app, "draftFcoCarta", "DraftFcoCartaInput",
            json!({ "number": "FCO-1", "bankId": bank, "borrowerDocument": "529.982.247-25", "borrowerName": "João Silva",
                "line": "RURAL", "activity": "BEEF_CATTLE", "financedAmount": "500000.00", "municipalityCode": 5107909 }),
            "carta { id }").await;
        let carta = c["carta"]["id"].clone();
        let dams = |n: i32| json!({ "kind": "DAM", "description": "matrizes nelore", "headCount": n, "ageMonths": 30,
            "investmentClass": "SEMI_FIXED", "value": "90000.00" });
        let acquisition = |cost: &str| json!({ "year": 2015, "supplierKind": "FAMILY_FARMER", "crop": "soja", "quantityKg": "50000", "cost": cost });
        let proposal = |months: i32| json!({ "representationKind": "CONTAG", "representationName": "STR de Cuiabá",
            "representationAgreed": true, "termMonths": months, "purchasePrice": "preço mínimo", "priceAdjustment": "IPCA",
            "deliveryConditions": "na usina" });

        // (what, add, its input, the version's field, correct, its fields, remove)
        let kinds = [
            ("item", "addFcoCartaItem", json!({ "cartaId": carta, "item": dams(10) }), "CartaItem", "headCount",
                "recordFcoCartaItemCorrection", json!({ "item": dams(12) }), "recordFcoCartaItemRemoval", "itemId"),
            ("acquisition", "addFeedstockAcquisition", json!({ "projectId": project, "acquisition": acquisition("100.00") }), "FeedstockAcquisition", "cost",
                "recordFeedstockAcquisitionCorrection", json!({ "acquisition": acquisition("120.00") }), "recordFeedstockAcquisitionRemoval", "acquisitionId"),
            ("proposal", "addContractProposal", json!({ "projectId": project, "proposal": proposal(36) }), "ContractProposal", "termMonths",
                "recordContractProposalCorrection", json!({ "proposal": proposal(48) }), "recordContractProposalRemoval", "proposalId"),
        ];
        for (what, add, input, ty, field, correct, fields, remove, id_field) in kinds {
            let pascal = |n: &str| format!("{}{}", n[..1].to_uppercase(), &n[1..]);
            let added = act(&app, add, &format!("{}Input", pascal(add)), input, &format!("{what} {{ id {field} }}")).await;
            let id = added[what]["id"].clone();
            // A node, fetched by its ID.
            let node = app.data(&format!("query N($id: ID!) {{ node(id: $id) {{ __typename ... on {ty} {{ {field} }} }} }}"), json!({ "id": id })).await;
            assert_eq!((&node["node"]["__typename"], &node["node"][field]), (&json!(ty), &added[what][field]), "{what}");
            // Corrected by its global ID: a new version with its own ID.
            let mut input = fields;
            input[id_field] = id.clone();
            let fixed = act(&app, correct, &format!("{}Input", pascal(correct)), input, &format!("{what} {{ id {field} }}")).await;
            assert_ne!(fixed[what]["id"], id, "{what}: a new version");
            assert_ne!(fixed[what][field], added[what][field], "{what}");
            // A number, or another kind's ID, is refused naming the field.
            let q = format!("mutation M($i: {}Input!) {{ {remove}(input: $i) {{ {what} {{ id }} }} }}", pascal(remove));
            for wrong in [json!("7"), carta.clone()] {
                let (message, code) = app.error(&q, json!({ "i": { id_field: wrong } })).await;
                assert!(code == "BAD_USER_INPUT" && message.starts_with(&format!("input.{id_field}:")), "{what}: {code} {message}");
            }
            // Removed by its global ID: the payload's version is gone.
            let gone = act(&app, remove, &format!("{}Input", pascal(remove)), json!({ id_field: fixed[what]["id"] }), &format!("{what} {{ id }}")).await;
            assert!(gone[what].is_null(), "{what}: {gone}");
        }

        // Another bank's key reaches no version of BB's carta, by node or by act.
        crate::lifecycle_support::seed_bank(&app, "SICREDI").await;
        let item = act(&app, "addFcoCartaItem", "AddFcoCartaItemInput", json!({ "cartaId": carta, "item": dams(5) }), "item { id }").await["item"]["id"].clone();
        let key = app.key_of("bank", Some("SICREDI")).await;
        let client = crate::helpers::client_with(&key);
        let body: Value = client
            .post(format!("{}/graphql", app.base))
            .json(&json!({ "query": "query N($id: ID!) { node(id: $id) { id } }", "variables": { "id": item } }))
            .send()
            .await
            .expect("answer")
            .json()
            .await
            .expect("json");
        assert!(body["data"]["node"].is_null() && body["errors"][0]["extensions"]["code"] == "NOT_FOUND", "{body}");
        let own = app.key_of("bank", Some("BB")).await;
        let body: Value = crate::helpers::client_with(&own)
            .post(format!("{}/graphql", app.base))
            .json(&json!({ "query": "query N($id: ID!) { node(id: $id) { id } }", "variables": { "id": item } }))
            .send()
            .await
            .expect("answer")
            .json()
            .await
            .expect("json");
        assert_eq!(body["data"]["node"]["id"], item, "{body}");
    })
    .await;
}
