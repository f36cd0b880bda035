//! The graph's door to access control: every root field is an [`Operation`] (each mutation named below; every query
//! and subscription field reads), checked by `service::access` for the request's caller before the field runs. A
//! mutation missing from the table is refused as administration, so a new mutation is closed until it is placed.

use async_graphql::{
    ErrorExtensions, ServerResult, Value,
    extensions::{Extension, ExtensionContext, ExtensionFactory, NextPrepareRequest, NextResolve, ResolveInfo},
};
use service::{Caller, access::Operation};
use std::sync::{Arc, Mutex};

/// The operation of a mutation.
pub fn operation_of(mutation: &str) -> Operation {
    use Operation as O;
    match mutation {
        "createSocialFuelProject"
        | "draftSocialFuelProject"
        | "addProjectDocument"
        | "receiveProjectDocument"
        | "recordSocialFuelFiling"
        | "recordSocialFuelDecision"
        | "recordSocialFuelFinancingApproval"
        | "recordIndustrialOperationStart"
        | "recordExternalEvaluationStart"
        | "recordExternalEvaluationResult"
        | "recordSocialFuelSealRequest"
        | "recordSocialFuelExtensionRequest"
        | "recordSocialFuelExtensionDecision"
        | "recordSocialFuelJustificationsAcceptance"
        | "recordNonConformityJustifications"
        | "recordBankNotice"
        | "recordPublicDatabaseUpdate"
        | "recordSocialFuelUnframing"
        | "fileSocialFuelProject"
        | "decideSocialFuelProject"
        | "approveSocialFuelFinancing"
        | "startIndustrialOperation"
        | "startExternalEvaluation"
        | "concludeExternalEvaluation"
        | "requestSocialFuelSeal"
        | "requestSocialFuelExtension"
        | "decideSocialFuelExtension"
        | "acceptSocialFuelJustifications"
        | "recordSocialFuelJustifications"
        | "recordSocialFuelBankNotice"
        | "recordSocialFuelPublicUpdate"
        | "recordScheduleDelayBankAcceptance"
        | "unframeSocialFuelProject"
        | "recordBankFraming"
        | "addFeedstockAcquisition"
        | "updateFeedstockAcquisition"
        | "removeFeedstockAcquisition"
        | "recordFeedstockAcquisitionCorrection"
        | "recordFeedstockAcquisitionRemoval"
        | "addContractProposal"
        | "updateContractProposal"
        | "removeContractProposal"
        | "recordContractProposalCorrection"
        | "recordContractProposalRemoval"
        | "recordAssistancePlan"
        | "addCompanyChangeNotice"
        | "recordProjectSchedule"
        | "recordEvaluationFindings" => O::SocialFuel,
        "draftFcoCarta"
        | "recordFcoCartaSubmission"
        | "recordFcoCartaContract"
        | "recordFcoProjectPresentation"
        | "draftFcoCartaResubmission"
        | "recordFcoCartaAmendment"
        | "createFcoCarta"
        | "submitFcoCarta"
        | "contractFcoCarta"
        | "presentFcoProject"
        | "resubmitFcoCarta"
        | "amendFcoCarta"
        | "updateFcoCarta"
        | "addFcoCartaItem"
        | "updateFcoCartaItem"
        | "removeFcoCartaItem"
        | "recordFcoCartaItemCorrection"
        | "recordFcoCartaItemRemoval"
        | "uploadBankReport"
        | "submitBankReport" => O::BankData,
        // The chamber's opinion or a bank's own decision below the threshold: the resolver tells them apart first.
        "decideFcoCarta" | "recordFcoCartaDecision" => O::DecideCarta,
        "expireFcoCarta"
        | "recordFcoCartaExpiry"
        | "scheduleChamberMeeting"
        | "recordChamberAttendance"
        | "placeFcoCartaOnAgenda"
        | "recordChamberResultsSent"
        | "recordChamberOpinion"
        | "recordBbPeriodicReport"
        | "createEconomicGroup"
        | "addEconomicGroupMembers"
        | "removeEconomicGroupMember" => O::Chamber,
        "confirmChecklistItem" | "recordChecklistConfirmation" => O::Confirm,
        // recordOfficeOpen, like addNonBusinessDay, is the administrator's (below).
        "resolveComplianceFlag" => O::ResolveFlag,
        "revokeApiKey" => O::Administer,
        // createBank, updateBank, the rule parameters, non-business days, importFacts, and anything not placed.
        _ => O::Administer,
    }
}

/// The operation of a query field.
fn query_operation(field: &str) -> Operation {
    match field {
        "complianceDashboard" => Operation::Dashboards,
        "factImport" | "factImports" | "imports" | "webhookDeliveries" | "auditLog" | "auditLines" => {
            Operation::Administer
        }
        _ => Operation::Read,
    }
}

/// Whether `caller` may run every root field of the selected operation of `doc` and it is a query: then it can run
/// on the schema without the per-field extensions (their checks are all passed), which costs less per field. A
/// mutation (audited with its result), a subscription, a refused field or a root selection this cannot read go
/// through the guarded schema, which answers them as before.
pub fn query_allowed(
    caller: &Caller,
    doc: &async_graphql::parser::types::ExecutableDocument,
    operation_name: Option<&str>,
) -> bool {
    use async_graphql::parser::types::{OperationType, Selection, SelectionSet};
    /// Walks the root selection through fragments (not into fields); a fragment already found allowed at a depth is
    /// not walked again there, so a fragment spread many times costs one walk per depth.
    fn allowed<'a>(
        caller: &Caller,
        doc: &'a async_graphql::parser::types::ExecutableDocument,
        set: &'a SelectionSet,
        depth: u32,
        seen: &mut std::collections::HashSet<(&'a str, u32)>,
    ) -> bool {
        depth < 8
            && set.items.iter().all(|s| match &s.node {
                Selection::Field(f) => {
                    let name = f.node.name.node.as_str();
                    name.starts_with("__") || service::access::authorize(caller, query_operation(name)).is_ok()
                }
                Selection::InlineFragment(i) => allowed(caller, doc, &i.node.selection_set.node, depth + 1, seen),
                Selection::FragmentSpread(spread) => {
                    let name = spread.node.fragment_name.node.as_str();
                    match doc.fragments.get(&spread.node.fragment_name.node) {
                        None => false,
                        Some(_) if seen.contains(&(name, depth + 1)) => true,
                        Some(f) => {
                            let ok = allowed(caller, doc, &f.node.selection_set.node, depth + 1, seen);
                            if ok {
                                seen.insert((name, depth + 1));
                            }
                            ok
                        }
                    }
                }
            })
    }
    let Some(op) = super::complete::operation(doc, operation_name) else {
        return false;
    };
    op.ty == OperationType::Query && allowed(caller, doc, &op.selection_set.node, 0, &mut Default::default())
}

/// The extension that checks each root field, and records each mutation (and each refused field) in the audit log
/// with the object it acted on.
pub struct Authorize;

impl ExtensionFactory for Authorize {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(AuthorizeField::default())
    }
}

/// The object a mutation acted on, as a global ID, when none of its arguments names it: the resolver of a mutation
/// that creates an object names the new one ([`audit_target`]).
#[derive(Debug, Default)]
pub struct AuditTarget(Mutex<Option<String>>);

/// Names `id` as the object the running mutation acted on, for the audit log.
pub fn audit_target(ctx: &async_graphql::Context<'_>, id: &async_graphql::ID) {
    if let Some(slot) = ctx.data_opt::<Arc<AuditTarget>>()
        && let Ok(mut t) = slot.0.lock()
    {
        *t = Some(id.to_string());
    }
}

#[derive(Default)]
struct AuthorizeField {
    variables: Mutex<async_graphql::Variables>,
    target: Arc<AuditTarget>,
}

/// The object a root field's arguments name, for the audit log: the argument `id`, else `input.id`, else the first
/// argument (or `input` field) named `…Id`, else the natural key (`key`, `day`); a global ID as Fomento writes it, a
/// number as `versionId 42`, a key as `key fco.ceiling`.
fn target_of(field: &async_graphql::parser::types::Field, variables: &async_graphql::Variables) -> Option<String> {
    use async_graphql::{Name, Value as V};
    let args: Vec<(String, V)> = field
        .arguments
        .iter()
        .filter_map(|(name, value)| {
            let value = value
                .node
                .clone()
                .into_const_with(|var: Name| variables.get(&var).cloned().ok_or(()))
                .ok()?;
            Some((name.node.to_string(), value))
        })
        .collect();
    let input: Vec<(String, V)> = args
        .iter()
        .find_map(|(n, v)| match (n.as_str(), v) {
            ("input", V::Object(o)) => Some(o.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()),
            _ => None,
        })
        .unwrap_or_default();
    let named = |n: &str| n == "id";
    let an_id = |n: &str| n.ends_with("Id") && n.len() > 2;
    let first = |pick: &dyn Fn(&str) -> bool, from: &[(String, V)]| {
        from.iter().find_map(|(n, v)| {
            if !pick(n) {
                return None;
            }
            match v {
                V::String(s) => super::ids::decode(s).map(|(kind, key)| super::ids::encode(kind, key).to_string()),
                V::Number(k) => Some(format!("{n} {k}")),
                _ => None,
            }
        })
    };
    // A mutation that names no object by ID names it by its natural key: a rule parameter by `key`, a calendar day
    // by `day`.
    let natural = || {
        args.iter().find_map(|(n, v)| match (n.as_str(), v) {
            ("key" | "day", V::String(s)) => Some(format!("{n} {s}")),
            _ => None,
        })
    };
    first(&named, &args)
        .or_else(|| first(&named, &input))
        .or_else(|| first(&an_id, &args))
        .or_else(|| first(&an_id, &input))
        .or_else(natural)
}

#[async_trait::async_trait]
impl Extension for AuthorizeField {
    async fn prepare_request(
        &self,
        ctx: &ExtensionContext<'_>,
        request: async_graphql::Request,
        next: NextPrepareRequest<'_>,
    ) -> ServerResult<async_graphql::Request> {
        if let Ok(mut v) = self.variables.lock() {
            *v = request.variables.clone();
        }
        next.run(ctx, request.data(self.target.clone())).await
    }

    async fn resolve(
        &self,
        ctx: &ExtensionContext<'_>,
        info: ResolveInfo<'_>,
        next: NextResolve<'_>,
    ) -> ServerResult<Option<Value>> {
        if info.path_node.parent.is_none() && !info.is_for_introspection {
            let mutation = info.parent_type == "Mutation";
            let op = if mutation {
                operation_of(info.name)
            } else {
                query_operation(info.name)
            };
            let kind = match info.parent_type {
                "Mutation" => "mutation",
                "Subscription" => "subscription",
                _ => "query",
            };
            let caller = ctx.data_opt::<Caller>().cloned().unwrap_or_default();
            let remote = ctx.data_opt::<service::audit::Remote>().cloned().unwrap_or_default();
            let field = info.field;
            let audited = |code: Option<String>| {
                let (caller, remote, name) = (caller.clone(), remote.clone(), info.name.to_owned());
                // The object the resolver named (a created one), else the one the arguments name.
                let named = self.target.0.lock().ok().and_then(|mut t| t.take());
                let target = named.or_else(|| self.variables.lock().ok().and_then(|v| target_of(field, &v)));
                async move {
                    if let Some(db) = ctx.data_opt::<service::Db>() {
                        let action = format!("{kind} {name}");
                        service::audit::record(db, &caller, &action, target.as_deref(), code.as_deref(), &remote).await;
                    }
                }
            };
            if let Err(e) = service::access::authorize(&caller, op) {
                let code = e.code().to_owned();
                if mutation || code == "FORBIDDEN" {
                    audited(Some(code)).await;
                }
                let lang = ctx.data_opt::<service::messages::Lang>().copied().unwrap_or_default();
                let mut err = super::error::ApiError::from_service(e, lang)
                    .extend()
                    .into_server_error(async_graphql::Pos::default());
                // The path names the field; an extension is not told its place in the text, so no `locations`.
                err.locations.clear();
                err.path = vec![async_graphql::PathSegment::Field(
                    info.alias.unwrap_or(info.name).to_owned(),
                )];
                return Err(err);
            }
            if mutation {
                let result = next.run(ctx, info).await;
                let code = result.as_ref().err().map(|e| {
                    e.extensions
                        .as_ref()
                        .and_then(|x| x.get("code"))
                        .map_or_else(|| "ERROR".to_owned(), |v| v.to_string().trim_matches('"').to_owned())
                });
                audited(code).await;
                return result;
            }
        }
        next.run(ctx, info).await
    }
}
