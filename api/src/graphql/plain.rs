//! Selections read at once. async-graphql resolves an object by boxing one future per selected field, polling them
//! in a `FuturesUnordered` and gathering the values into a map: for a page of 50 cartas with their bank, borrower and
//! municipality that is some 450 futures, each allocated, polled and freed, for values already in memory. When every
//! field a selection asks of an object is plain — a stored value, or a relation read with the page, with no argument,
//! directive or fragment — [`object`] builds the object's value in one synchronous walk instead; any other selection
//! is left to the executor, whole, so the answer is the one the executor gives (a test compares the two on every
//! plain field, `graphql_http::plain_selections_answer_as_the_executor_does`).
//!
//! A request takes this path when [`AtOnce`] is in its data (`--no-plain-reads` leaves it out). It relies on the
//! schema having no extension, whose per-field hooks a selection read at once would skip (`docs/decisions.md`).

use super::{
    ids::{self, NodeKind},
    loaders::Prefetched,
    scalars::{Date, DateTime, Decimal},
    types::{
        enums::{
            Decision, DocumentKind, FcoActivity, FcoCartaStage, FcoLine, FinancingStatus, Programme, Region,
            SocialFuelStage, Uf,
        },
        financing::{
            FcoCarta, FcoCartaConnection, FcoCartaEdge, SocialFuelProject, SocialFuelProjectConnection,
            SocialFuelProjectEdge,
        },
        objects::{programmes_served, whole_document},
    },
};
use async_graphql::{
    ContextSelectionSet, InputType, OutputType, Positioned, ScalarType, ServerResult, Value,
    indexmap::IndexMap,
    parser::types::{Field, Selection},
    registry::Registry,
};
use entity::{bank, municipality, party};
use service::visible::Seen;
use std::borrow::Cow;

/// In a request's data: its plain selections may be read at once.
#[derive(Debug, Default, Clone, Copy)]
pub struct AtOnce;

/// A type whose plain fields can be read without awaiting anything.
pub trait Plain {
    /// The GraphQL type's name (`__typename`).
    const TYPE: &'static str;

    /// The value of one selected field (no arguments, no directives), or `None` when the executor must resolve it
    /// (a field that reads the database, takes arguments, or may fail).
    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value>;
}

/// The object's value for the selection of `ctx`, when every selected field is plain; `None` otherwise.
pub fn object<T: Plain + ?Sized>(ctx: &ContextSelectionSet<'_>, value: &T) -> Option<Value> {
    let items = &ctx.item.node.items;
    let mut map = IndexMap::with_capacity(items.len());
    for selection in items {
        let Selection::Field(f) = &selection.node else {
            return None;
        };
        if !f.node.directives.is_empty() || !f.node.arguments.is_empty() {
            return None;
        }
        let key = &f.node.response_key().node;
        // The same key twice merges sub-selections in the executor: left to it.
        if map.contains_key(key) {
            return None;
        }
        let v = if f.node.name.node == "__typename" {
            Value::String(T::TYPE.to_owned())
        } else {
            value.field(ctx, f)?
        };
        map.insert(key.clone(), v);
    }
    // An empty selection is the executor's to answer (and, for the specification, `complete`'s).
    (!map.is_empty()).then_some(Value::Object(map))
}

/// A field's object value read at once: `value`'s fields for the field's own selection.
pub fn nested<T: Plain + ?Sized>(ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>, value: &T) -> Option<Value> {
    object(&ctx.with_selection_set(&field.node.selection_set), value)
}

/// A field's list of objects read at once.
pub fn list<'a, T: Plain + 'a>(
    ctx: &ContextSelectionSet<'_>,
    field: &Positioned<Field>,
    items: impl ExactSizeIterator<Item = &'a T>,
) -> Option<Value> {
    let ctx = ctx.with_selection_set(&field.node.selection_set);
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        out.push(object(&ctx, item)?);
    }
    Some(Value::List(out))
}

/// A scalar's value.
pub fn scalar<S: ScalarType>(s: S) -> Value {
    s.to_value()
}

/// An enum's value.
pub fn enumerated<E: InputType>(e: E) -> Value {
    e.to_value()
}

/// An optional date's value.
pub fn date(d: Option<chrono::NaiveDate>) -> Value {
    d.map_or(Value::Null, |d| scalar(Date(d)))
}

/// The language of the request (`Accept-Language`; Portuguese by default).
fn lang_of(ctx: &ContextSelectionSet<'_>) -> service::messages::Lang {
    ctx.data_opt::<service::messages::Lang>().copied().unwrap_or_default()
}

/// A string's value.
pub fn text(s: &str) -> Value {
    Value::String(s.to_owned())
}

/// An optional string's value.
pub fn opt_text(s: Option<&str>) -> Value {
    s.map_or(Value::Null, text)
}

/// An optional value.
pub fn opt<T>(v: Option<T>, f: impl FnOnce(T) -> Value) -> Value {
    v.map_or(Value::Null, f)
}

/// `T` in the schema, read at once when its selection is plain and the request allows it ([`AtOnce`]), by the
/// executor otherwise. The schema does not see the wrapper: it names, describes and registers `T`.
pub struct Resolved<T>(pub T);

impl<T: OutputType + Plain> OutputType for Resolved<T> {
    fn type_name() -> Cow<'static, str> {
        T::type_name()
    }

    fn qualified_type_name() -> String {
        T::qualified_type_name()
    }

    fn introspection_type_name(&self) -> Cow<'static, str> {
        self.0.introspection_type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        T::create_type_info(registry)
    }

    async fn resolve(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> ServerResult<Value> {
        if ctx.data_opt::<AtOnce>().is_some()
            && let Some(v) = object(ctx, &self.0)
        {
            return Ok(v);
        }
        self.0.resolve(ctx, field).await
    }
}

/// A list of `T` in the schema (`[T!]!`), each item read at once when the selection is plain and the request allows
/// it, all of them by the executor otherwise (a judged financing's 40 outcomes were 40 objects of futures).
pub struct List<T>(pub Vec<T>);

impl<T: OutputType + Plain> OutputType for List<T> {
    fn type_name() -> Cow<'static, str> {
        Vec::<T>::type_name()
    }

    fn qualified_type_name() -> String {
        Vec::<T>::qualified_type_name()
    }

    fn create_type_info(registry: &mut Registry) -> String {
        Vec::<T>::create_type_info(registry)
    }

    async fn resolve(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> ServerResult<Value> {
        if ctx.data_opt::<AtOnce>().is_some() {
            let mut out = Vec::with_capacity(self.0.len());
            for item in &self.0 {
                match object(ctx, item) {
                    Some(v) => out.push(v),
                    None => return self.0.resolve(ctx, field).await,
                }
            }
            return Ok(Value::List(out));
        }
        self.0.resolve(ctx, field).await
    }
}

/// Implements [`Plain`] for a connection and its edge (`connection!`), over a node type that is [`Plain`].
macro_rules! plain_connection {
    ($conn:ty, $edge:ty, $conn_name:literal, $edge_name:literal) => {
        impl $crate::graphql::plain::Plain for $conn {
            const TYPE: &'static str = $conn_name;

            fn field(
                &self,
                ctx: &async_graphql::ContextSelectionSet<'_>,
                field: &async_graphql::Positioned<async_graphql::parser::types::Field>,
            ) -> Option<async_graphql::Value> {
                use $crate::graphql::plain;
                Some(match field.node.name.node.as_str() {
                    "edges" => plain::list(ctx, field, self.edges.iter())?,
                    "nodes" => plain::list(ctx, field, self.edges.iter().map(|e| &e.node))?,
                    "pageInfo" => plain::nested(ctx, field, &self.page_info)?,
                    "totalCount" => async_graphql::Value::from(self.total_count),
                    _ => return None,
                })
            }
        }

        impl $crate::graphql::plain::Plain for $edge {
            const TYPE: &'static str = $edge_name;

            fn field(
                &self,
                ctx: &async_graphql::ContextSelectionSet<'_>,
                field: &async_graphql::Positioned<async_graphql::parser::types::Field>,
            ) -> Option<async_graphql::Value> {
                use $crate::graphql::plain;
                Some(match field.node.name.node.as_str() {
                    "cursor" => plain::text(&self.cursor),
                    "node" => plain::nested(ctx, field, &self.node)?,
                    _ => return None,
                })
            }
        }
    };
}

impl Plain for super::pagination::PageInfo {
    const TYPE: &'static str = "PageInfo";

    fn field(&self, _: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        Some(match field.node.name.node.as_str() {
            "hasPreviousPage" => Value::Boolean(self.has_previous_page),
            "hasNextPage" => Value::Boolean(self.has_next_page),
            "startCursor" => opt_text(self.start_cursor.as_deref()),
            "endCursor" => opt_text(self.end_cursor.as_deref()),
            _ => return None,
        })
    }
}

plain_connection!(FcoCartaConnection, FcoCartaEdge, "FcoCartaConnection", "FcoCartaEdge");
plain_connection!(
    SocialFuelProjectConnection,
    SocialFuelProjectEdge,
    "SocialFuelProjectConnection",
    "SocialFuelProjectEdge"
);

/// The borrower of a financing read with the page: its value for the field's selection, when it is there and plain.
fn borrower(
    ctx: &ContextSelectionSet<'_>,
    field: &Positioned<Field>,
    financing: (entity::vocab::Programme, i64),
) -> Option<Value> {
    ctx.data_opt::<Prefetched>()?
        .with_party(financing, |b| nested(ctx, field, b))?
}

/// A relation read with the page: its value for the field's selection, when it is there and plain.
fn related(ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>, name: &str, key: i64) -> Option<Value> {
    let p = ctx.data_opt::<Prefetched>()?;
    match name {
        "bank" => p.with_bank(key, |b| nested(ctx, field, b))?,
        _ => p.with_municipality(i32::try_from(key).ok()?, |m| nested(ctx, field, m))?,
    }
}

impl Plain for SocialFuelProject {
    const TYPE: &'static str = "SocialFuelProject";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        let p = &self.0;
        let name = field.node.name.node.as_str();
        Some(match name {
            "id" => scalar(ids::encode(NodeKind::SocialFuelProject, p.id)),
            "programme" => enumerated(Programme::SocialFuel),
            "title" => text(&p.title),
            "bank" => related(ctx, field, name, p.bank_id)?,
            "party" => borrower(ctx, field, service::visible::Financed::financing(&**p))?,
            "municipality" => related(ctx, field, name, i64::from(p.plant_municipality_code))?,
            "amount" => scalar(Decimal::from(p.requested_amount.to_decimal())),
            "status" => enumerated(FinancingStatus::from(p.status)),
            "stage" => enumerated(SocialFuelStage::from(p.stage)),
            "submittedOn" => date(p.filed_on),
            "decidedOn" => date(p.decided_on),
            "contractedOn" => date(p.financing_approved_on),
            "bankFramedOn" => date(p.bank_framed_on),
            "analysedByBank" => Value::Boolean(p.analysed_by_bank),
            "decision" => opt(p.decision, |d| enumerated(Decision::from(d))),
            "decisionLetter" => opt_text(p.decision_letter.as_deref()),
            "decisionGrounds" => opt_text(p.decision_grounds.as_deref()),
            "decisionSignatory" => opt_text(p.decision_signatory.as_deref()),
            "justificationsFiledOn" => date(p.justifications_filed_on),
            "justificationsContent" => opt_text(p.justifications_content.as_deref()),
            "bankNotifiedOn" => date(p.bank_notified_on),
            "bankNoticeReference" => opt_text(p.bank_notice_reference.as_deref()),
            "scheduledImplementationEnd" => date(p.scheduled_implementation_end),
            "scheduleDelayAccepted" => Value::Boolean(p.schedule_delay_accepted),
            "schedulePresentedOn" => date(p.schedule_presented_on),
            "delayBankAcceptedOn" => date(p.delay_bank_accepted_on),
            "delayAcceptedOn" => date(p.delay_accepted_on),
            "originalImplementationEnd" => date(p.original_implementation_end),
            "delayBankAcceptedBy" => opt_text(p.delay_bank_accepted_by.as_deref()),
            "publicUpdateOn" => date(p.public_update_on),
            "publicUpdateReference" => opt_text(p.public_update_reference.as_deref()),
            "industrialStartOn" => date(p.industrial_start_on),
            "externalEvaluationOn" => date(p.external_evaluation_on),
            "evaluationResult" => opt(p.evaluation_result, |d| enumerated(Decision::from(d))),
            "sealRequestedOn" => date(p.seal_requested_on),
            "extensionRequestedOn" => date(p.extension_requested_on),
            "extensionGrantedOn" => date(p.extension_granted_on),
            "extensionJustification" => opt_text(p.extension_justification.as_deref()),
            "extensionRefusedOn" => date(p.extension_refused_on),
            "extensionDecisionReason" => opt_text(p.extension_decision_reason.as_deref()),
            "evaluationFinding" => opt_text(p.evaluation_finding.as_deref()),
            "justificationsAcceptedOn" => date(p.justifications_accepted_on),
            "justificationsReason" => opt_text(p.justifications_reason.as_deref()),
            "unframedOn" => date(p.unframed_on),
            "unframingReason" => opt_text(p.unframing_reason.as_deref()),
            _ => return None,
        })
    }
}

impl Plain for FcoCarta {
    const TYPE: &'static str = "FcoCarta";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        let c = &self.0;
        let name = field.node.name.node.as_str();
        Some(match name {
            "id" => scalar(ids::encode(NodeKind::FcoCarta, c.id)),
            "programme" => enumerated(Programme::FcoRural),
            "number" => text(&c.number),
            "bank" => related(ctx, field, name, c.bank_id)?,
            "party" => borrower(ctx, field, service::visible::Financed::financing(&**c))?,
            "municipality" => related(ctx, field, name, i64::from(c.municipality_code))?,
            "amount" => scalar(Decimal::from(c.financed_amount.to_decimal())),
            "status" => enumerated(FinancingStatus::from(c.status)),
            "stage" => enumerated(FcoCartaStage::from(c.stage)),
            "line" => enumerated(FcoLine::from(c.line)),
            "activity" => enumerated(FcoActivity::from(c.activity)),
            "submittedOn" => date(c.submitted_on),
            "decidedOn" => date(c.decided_on),
            "contractedOn" => date(c.contracted_on),
            "receivedByCouncilAt" => opt(c.received_by_council_at, |t| scalar(DateTime::cdae(t))),
            "decision" => opt(c.decision, |d| enumerated(Decision::from(d))),
            "decidedBy" => opt_text(c.decided_by.as_deref()),
            "approvedOn" => date(c.approved_on),
            "contractedAmount" => opt(c.contracted_amount, |m| scalar(Decimal::from(m.to_decimal()))),
            "termMonths" => opt(c.term_months, Value::from),
            "graceMonths" => opt(c.grace_months, Value::from),
            "existingSires" => opt(c.existing_sires, Value::from),
            "artificialInsemination" => opt(c.artificial_insemination, Value::Boolean),
            "presentedOn" => date(c.presented_on),
            "specialDemand" => Value::Boolean(c.special_demand),
            "professionalName" => opt_text(c.professional_name.as_deref()),
            "statedOn" => date(c.stated_on),
            _ => return None,
        })
    }
}

impl Plain for Seen<bank::Model> {
    const TYPE: &'static str = "Bank";

    fn field(&self, _: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        Some(match field.node.name.node.as_str() {
            "id" => scalar(ids::encode(NodeKind::Bank, self.id)),
            "code" => text(&self.code),
            "name" => text(&self.name),
            "programmes" => Value::List(programmes_served(self).into_iter().map(enumerated).collect()),
            "mdaCooperationAgreement" => Value::Boolean(self.mda_cooperation_agreement),
            _ => return None,
        })
    }
}

impl Plain for Seen<party::Model> {
    const TYPE: &'static str = "Party";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        let name = field.node.name.node.as_str();
        if matches!(name, "document" | "name") {
            // As the caller may see them; left to the executor when that depends on the party's programmes (read
            // from the database).
            let anonymous = service::Caller::default();
            let caller = ctx.data_opt::<service::Caller>().unwrap_or(&anonymous);
            if service::privacy::depends_on_programme(caller, self) {
                return None;
            }
            return Some(Value::String(if name == "document" {
                service::privacy::document_shown(caller, self, &[], || whole_document(self))
            } else {
                service::privacy::name_shown(caller, self, &[])
            }));
        }
        Some(match name {
            "id" => scalar(ids::encode(NodeKind::Party, self.id)),
            "documentKind" => enumerated(if self.document_kind == "CPF" {
                DocumentKind::Cpf
            } else {
                DocumentKind::Cnpj
            }),
            "cnpjRoot" => opt_text(self.cnpj_root.as_deref()),
            _ => return None,
        })
    }
}

impl Plain for Seen<municipality::Model> {
    const TYPE: &'static str = "Municipality";

    fn field(&self, _: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        Some(match field.node.name.node.as_str() {
            "id" => scalar(ids::encode(NodeKind::Municipality, i64::from(self.ibge_code))),
            "ibgeCode" => Value::from(self.ibge_code),
            "name" => text(&self.name),
            "uf" => enumerated(Uf::from(self.code()?.uf())),
            "region" => enumerated(Region::from(self.code()?.region())),
            _ => return None,
        })
    }
}

impl Plain for super::rules::RuleOutcome {
    const TYPE: &'static str = "RuleOutcome";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        Some(match field.node.name.node.as_str() {
            "ruleCode" => text(&self.rule_code),
            "status" => enumerated(self.status),
            "legalBasis" => text(&service::l10n::legal_basis(&self.legal_basis, lang_of(ctx))),
            "explanation" => text(&service::l10n::explanation(&self.explained, lang_of(ctx))),
            _ => return None,
        })
    }
}

impl Plain for super::rules::Deadline {
    const TYPE: &'static str = "Deadline";

    fn field(&self, ctx: &ContextSelectionSet<'_>, field: &Positioned<Field>) -> Option<Value> {
        Some(match field.node.name.node.as_str() {
            "ruleCode" => text(&self.rule_code),
            "dueDate" => opt(self.due_date, scalar),
            "dueAt" => opt(self.due_at, scalar),
            "status" => enumerated(self.status),
            "legalBasis" => text(&service::l10n::legal_basis(&self.legal_basis, lang_of(ctx))),
            "countingNote" => text(&service::l10n::explanation(&self.note, lang_of(ctx))),
            _ => return None,
        })
    }
}
