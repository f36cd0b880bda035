//! The graph's door to access control: every root field is an [`Operation`] (each mutation named below; every query
//! and subscription field reads), checked by `service::access` for the request's caller before the field runs. A
//! mutation missing from the table is refused as administration, so a new mutation is closed until it is placed.

use async_graphql::{
    ContainerType, Context, ContextSelectionSet, ErrorExtensions, ObjectType, OutputType, Positioned, ServerError,
    ServerResult, SubscriptionType, Value, parser::types::Field, registry::Registry,
};
use futures::Stream;
use service::access::Operation;
use std::{
    borrow::Cow,
    pin::Pin,
    sync::{Arc, Mutex},
};

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

/// A root type (`Query`, `Mutation`, `Subscription`) whose every field is checked for the request's caller before it
/// runs, the mutations (and each refused field) recorded in the audit log with the object they acted on. Only the
/// root's own fields pay the check: the objects below are scoped where they are produced (`service::visible`).
#[derive(Default)]
pub struct Guarded<T>(pub T);

/// Checks `ctx`'s root field for the caller; a refusal is the field's error (its siblings still answer).
async fn check_root(ctx: &Context<'_>, root: &str) -> Result<(), ServerError> {
    let name = ctx.item.node.name.node.as_str();
    let op = if root == "Mutation" {
        operation_of(name)
    } else {
        query_operation(name)
    };
    let caller = super::caller(ctx);
    let Err(e) = service::access::authorize(&caller, op) else {
        return Ok(());
    };
    let code = e.code().to_owned();
    if root == "Mutation" || code == "FORBIDDEN" {
        audit(ctx, root, Some(code)).await;
    }
    let lang = ctx.data_opt::<service::messages::Lang>().copied().unwrap_or_default();
    let err = super::error::ApiError::from_service(e, lang).extend();
    Err(ctx.set_error_path(err.into_server_error(ctx.item.pos)))
}

/// Records `ctx`'s root field in the audit log with its outcome (`None` when it succeeded): the object its resolver
/// named (a created one, [`audit_target`]), else the one its arguments name.
async fn audit(ctx: &Context<'_>, root: &str, code: Option<String>) {
    let kind = match root {
        "Mutation" => "mutation",
        "Subscription" => "subscription",
        _ => "query",
    };
    let named = ctx
        .data_opt::<Arc<AuditTarget>>()
        .and_then(|t| t.0.lock().ok().and_then(|mut t| t.take()));
    let target = named.or_else(|| target_of(&ctx.item.node, &ctx.query_env.variables));
    if let Some(db) = ctx.data_opt::<service::Db>() {
        let caller = super::caller(ctx);
        let remote = ctx.data_opt::<service::audit::Remote>().cloned().unwrap_or_default();
        let action = format!("{kind} {}", ctx.item.node.name.node);
        service::audit::record(db, &caller, &action, target.as_deref(), code.as_deref(), &remote).await;
    }
}

/// The code of a failed mutation's error, for the audit log.
fn code_of(e: &ServerError) -> String {
    e.extensions
        .as_ref()
        .and_then(|x| x.get("code"))
        .map_or_else(|| "ERROR".to_owned(), |v| v.to_string().trim_matches('"').to_owned())
}

impl<T: ContainerType> OutputType for Guarded<T> {
    fn type_name() -> Cow<'static, str> {
        T::type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        T::create_type_info(registry)
    }

    async fn resolve(&self, ctx: &ContextSelectionSet<'_>, _field: &Positioned<Field>) -> ServerResult<Value> {
        async_graphql::resolver_utils::resolve_container(ctx, self).await
    }
}

impl<T: ContainerType> ContainerType for Guarded<T> {
    async fn resolve_field(&self, ctx: &Context<'_>) -> ServerResult<Option<Value>> {
        let root = T::type_name();
        check_root(ctx, &root).await?;
        if root != "Mutation" {
            return self.0.resolve_field(ctx).await;
        }
        let result = self.0.resolve_field(ctx).await;
        audit(ctx, &root, result.as_ref().err().map(code_of)).await;
        result
    }

    async fn find_entity(&self, ctx: &Context<'_>, params: &Value) -> ServerResult<Option<Value>> {
        self.0.find_entity(ctx, params).await
    }
}

impl<T: ObjectType> ObjectType for Guarded<T> {}

impl<T: SubscriptionType> SubscriptionType for Guarded<T> {
    fn type_name() -> Cow<'static, str> {
        T::type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        T::create_type_info(registry)
    }

    fn create_field_stream<'a>(
        &'a self,
        ctx: &'a Context<'_>,
    ) -> Option<Pin<Box<dyn Stream<Item = async_graphql::Response> + Send + 'a>>> {
        let caller = super::caller(ctx);
        if let Err(e) = service::access::authorize(&caller, query_operation(ctx.item.node.name.node.as_str())) {
            let lang = ctx.data_opt::<service::messages::Lang>().copied().unwrap_or_default();
            let err = super::error::ApiError::from_service(e, lang).extend();
            let err = ctx.set_error_path(err.into_server_error(ctx.item.pos));
            return Some(Box::pin(futures::stream::once(async move {
                async_graphql::Response::from_errors(vec![err])
            })));
        }
        self.0.create_field_stream(ctx)
    }
}
