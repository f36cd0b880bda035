//! The schema's conventions (issue 45, `docs/graph.md`), checked over the parsed SDL for every field not deprecated:
//! a mutation takes one `input: <Mutation>Input!` (and a `file: Upload!` when it carries one) and answers a payload
//! object; no `Int` argument or input field is named like an ID; a list of records that grows is a connection with
//! `filter:` and `orderBy:`; a lookup by ID or code is nullable, so one miss leaves the rest of the response.
//!
//! `OFFENDERS` lists what broke a convention when the test was written; it only shrinks: an entry that no longer
//! offends fails the test until it is removed.

use async_graphql::Positioned;
use async_graphql::parser::{
    parse_schema,
    types::{BaseType, ConstDirective, FieldDefinition, Type, TypeDefinition, TypeKind, TypeSystemDefinition},
};
use std::collections::{BTreeSet, HashMap};

/// Short reference lists that stay plain lists (or connections without filters): they do not grow with use.
const REFERENCE_LISTS: &[&str] = &["rules", "nonBusinessDays", "ruleParameters", "banks"];

/// Conventions broken when the test was written, as `rule: Type.field`; to be emptied, never added to.
const OFFENDERS: &[&str] = &[
    "Int id: Mutation.correctRuleParameterVersion(versionId)",
    "Int id: Mutation.withdrawRuleParameterVersion(versionId)",
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
    "lookup not nullable: Query.bank",
    "lookup not nullable: Query.bankByCode",
    "lookup not nullable: Query.bankReport",
    "lookup not nullable: Query.factImport",
    "lookup not nullable: Query.municipality",
    "mutation input: Mutation.acceptSocialFuelJustifications",
    "mutation input: Mutation.addNonBusinessDay",
    "mutation input: Mutation.addProjectDocument",
    "mutation input: Mutation.addRuleParameterVersion",
    "mutation input: Mutation.amendFcoCarta",
    "mutation input: Mutation.approveSocialFuelFinancing",
    "mutation input: Mutation.concludeExternalEvaluation",
    "mutation input: Mutation.confirmChecklistItem",
    "mutation input: Mutation.contractFcoCarta",
    "mutation input: Mutation.correctRuleParameterVersion",
    "mutation input: Mutation.createFcoCarta",
    "mutation input: Mutation.createSocialFuelProject",
    "mutation input: Mutation.decideFcoCarta",
    "mutation input: Mutation.decideSocialFuelExtension",
    "mutation input: Mutation.decideSocialFuelProject",
    "mutation input: Mutation.expireFcoCarta",
    "mutation input: Mutation.fileSocialFuelProject",
    "mutation input: Mutation.presentFcoProject",
    "mutation input: Mutation.recordOfficeOpen",
    "mutation input: Mutation.recordSocialFuelBankNotice",
    "mutation input: Mutation.recordSocialFuelJustifications",
    "mutation input: Mutation.recordSocialFuelPublicUpdate",
    "mutation input: Mutation.requestSocialFuelExtension",
    "mutation input: Mutation.requestSocialFuelSeal",
    "mutation input: Mutation.resubmitFcoCarta",
    "mutation input: Mutation.startExternalEvaluation",
    "mutation input: Mutation.startIndustrialOperation",
    "mutation input: Mutation.submitFcoCarta",
    "mutation input: Mutation.unframeSocialFuelProject",
    "mutation input: Mutation.uploadBankReport",
    "mutation input: Mutation.withdrawRuleParameterVersion",
    "mutation payload: Mutation.acceptSocialFuelJustifications",
    "mutation payload: Mutation.addNonBusinessDay",
    "mutation payload: Mutation.addProjectDocument",
    "mutation payload: Mutation.addRuleParameterVersion",
    "mutation payload: Mutation.amendFcoCarta",
    "mutation payload: Mutation.approveSocialFuelFinancing",
    "mutation payload: Mutation.concludeExternalEvaluation",
    "mutation payload: Mutation.confirmChecklistItem",
    "mutation payload: Mutation.contractFcoCarta",
    "mutation payload: Mutation.correctRuleParameterVersion",
    "mutation payload: Mutation.createFcoCarta",
    "mutation payload: Mutation.createSocialFuelProject",
    "mutation payload: Mutation.decideFcoCarta",
    "mutation payload: Mutation.decideSocialFuelExtension",
    "mutation payload: Mutation.decideSocialFuelProject",
    "mutation payload: Mutation.expireFcoCarta",
    "mutation payload: Mutation.fileSocialFuelProject",
    "mutation payload: Mutation.presentFcoProject",
    "mutation payload: Mutation.recordOfficeOpen",
    "mutation payload: Mutation.recordSocialFuelBankNotice",
    "mutation payload: Mutation.recordSocialFuelJustifications",
    "mutation payload: Mutation.recordSocialFuelPublicUpdate",
    "mutation payload: Mutation.requestSocialFuelExtension",
    "mutation payload: Mutation.requestSocialFuelSeal",
    "mutation payload: Mutation.resubmitFcoCarta",
    "mutation payload: Mutation.startExternalEvaluation",
    "mutation payload: Mutation.startIndustrialOperation",
    "mutation payload: Mutation.submitFcoCarta",
    "mutation payload: Mutation.unframeSocialFuelProject",
    "mutation payload: Mutation.uploadBankReport",
    "mutation payload: Mutation.withdrawRuleParameterVersion",
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
