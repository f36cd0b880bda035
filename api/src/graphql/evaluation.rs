//! MDA's external evaluation in the graph (IN MDA 2/2005, art. 11): `recordEvaluationFindings` (the
//! `EvaluationFinding` object, `SocialFuelProject.evaluationFindings`, is beside the project's other facts in
//! [`super::types::financing`]). `concludeExternalEvaluation` reads the findings: conformity cannot be concluded
//! over a finding of non-conformity.

use super::{
    db,
    error::Served,
    ids::{self, NodeKind},
    payloads::SocialFuelProjectPayload,
    scalars::Date,
};
use async_graphql::{Context, ID, InputObject, Object, Result};
use service::{
    evaluation::{self, Finding, Report},
    lifecycle::Act,
};

/// One criterion's finding.
#[derive(InputObject, Debug)]
pub struct EvaluationFindingInput {
    /// The criterion's rule code: `SF-SHARE-MIN`, `SF-REPRESENTATION`, `SF-CONTRACT-TERMS` or `SF-ASSISTANCE-PLAN`.
    pub criterion: String,
    /// Whether it was found met.
    pub conforming: bool,
    /// What the evaluation says about it.
    pub note: Option<String>,
}

/// `recordEvaluationFindings`' input.
#[derive(InputObject, Debug)]
pub struct RecordEvaluationFindingsInput {
    /// The project's global ID (under external evaluation).
    pub project_id: ID,
    /// The external evaluator.
    pub evaluator: String,
    /// The evaluation report's reference.
    pub report_reference: Option<String>,
    /// When the findings were made; today by default.
    pub found_on: Option<Date>,
    /// One finding per criterion; a criterion recorded again replaces its earlier finding.
    pub findings: Vec<EvaluationFindingInput>,
}

/// Mutations about the external evaluation.
#[derive(Default)]
pub struct EvaluationMutation;

#[Object]
impl EvaluationMutation {
    /// Records the external evaluation's findings for a project under evaluation (art. 11), one per criterion of
    /// the seal; `concludeExternalEvaluation` then cannot conclude conformity over a finding of non-conformity.
    async fn record_evaluation_findings(
        &self,
        ctx: &Context<'_>,
        #[graphql(desc = "The project, the evaluator, the report and the findings.")]
        input: RecordEvaluationFindingsInput,
    ) -> Result<SocialFuelProjectPayload> {
        let project = ids::arg(&input.project_id, NodeKind::SocialFuelProject, "input.projectId")?;
        let report = Report {
            evaluator: input.evaluator,
            reference: input.report_reference,
            found_on: input.found_on.map(|d| d.0),
            findings: input
                .findings
                .into_iter()
                .map(|f| Finding {
                    criterion: f.criterion,
                    conforming: f.conforming,
                    note: f.note,
                })
                .collect(),
        };
        let p = evaluation::record(db(ctx), &Act::by(super::caller(ctx)), project, report)
            .await
            .served(ctx)?;
        SocialFuelProjectPayload::of(ctx, p)
    }
}
