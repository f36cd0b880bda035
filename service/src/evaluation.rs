//! The findings of MDA's external evaluation (IN MDA 2/2005, art. 11): while the evaluation runs, MDA records for each
//! criterion of the seal whether it was found met; the conclusion then reads them (a conformity cannot be concluded
//! over a finding of non-conformity). Recording a criterion again before the conclusion replaces its finding; after
//! the conclusion the findings stand as they were.

use crate::{
    ServiceError,
    lifecycle::{Act, find_project},
    messages::{Message, code},
};
use chrono::NaiveDate;
use entity::{
    evaluation_finding,
    rules::{RuleCode, code as rule},
    social_fuel_project,
    vocab::SocialFuelStage,
};
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, TransactionSession,
    TransactionTrait,
};

pub use crate::findings::{CRITERIA, check_conclusion, findings};

type Result<T> = std::result::Result<T, ServiceError>;

/// One finding as MDA states it.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The criterion's rule code (`SF-SHARE-MIN`).
    pub criterion: String,
    /// Whether it was found met.
    pub conforming: bool,
    /// What the evaluation says about it.
    pub note: Option<String>,
}

/// The evaluation's report: who evaluated, its reference, when, and its findings.
#[derive(Debug, Clone)]
pub struct Report {
    /// The external evaluator.
    pub evaluator: String,
    /// The report's reference.
    pub reference: Option<String>,
    /// When the findings were made; today by default.
    pub found_on: Option<NaiveDate>,
    /// The findings, one per criterion.
    pub findings: Vec<Finding>,
}

/// Records the findings of a project under external evaluation, replacing earlier findings on the same criteria, in
/// one transaction.
pub async fn record(
    db: &(impl ConnectionTrait + TransactionTrait),
    act: &Act,
    project_id: i64,
    report: Report,
) -> Result<social_fuel_project::Model> {
    let p = find_project(db, "input.projectId", project_id).await?;
    if p.stage != SocialFuelStage::ExternalEvaluation {
        return Err(ServiceError::rule(
            rule::SF_EXTERNAL_EVAL_6M,
            entity::rules::lifecycle::in_stage(code::REFUSE_FINDINGS_STAGE, p.stage),
        ));
    }
    let evaluator = report.evaluator.trim();
    if evaluator.is_empty() {
        return Err(ServiceError::bad("input.evaluator", Message::new(code::FIELD_EMPTY)));
    }
    if report.findings.is_empty() {
        return Err(ServiceError::bad("input.findings", Message::new(code::FIELD_EMPTY)));
    }
    let mut seen = Vec::new();
    for f in &report.findings {
        let Some(c) = CRITERIA.iter().find(|c| c.as_str() == f.criterion.trim()) else {
            return Err(ServiceError::bad(
                "input.findings.criterion",
                Message::new(code::VALUE_NOT_IN_LIST)
                    .arg("value", format!("{:?}", f.criterion))
                    .arg("values", CRITERIA.map(RuleCode::as_str).join(", ")),
            ));
        };
        if seen.contains(c) {
            return Err(ServiceError::bad(
                "input.findings.criterion",
                Message::new(code::CRITERION_REPEATED).arg("value", c.as_str()),
            ));
        }
        seen.push(*c);
    }
    let found_on = act.effective("input.foundOn", report.found_on, None)?;
    // A finding is made by the evaluation: not before it started (art. 11).
    if let Some(started) = p.evaluation_started_on
        && found_on < started
    {
        return Err(ServiceError::rule(
            rule::SF_EXTERNAL_EVAL_6M,
            entity::rules::Explanation::message(code::REFUSE_FINDINGS_BEFORE_START)
                .arg("on", found_on)
                .arg("started", started),
        ));
    }
    let txn = crate::txn::write(db).await?;
    evaluation_finding::Entity::delete_many()
        .filter(evaluation_finding::Column::ProjectId.eq(p.id))
        .filter(evaluation_finding::Column::Criterion.is_in(seen.iter().map(|c| c.as_str())))
        .exec(&txn)
        .await?;
    for f in report.findings {
        evaluation_finding::ActiveModel {
            project_id: Set(p.id),
            criterion: Set(f.criterion.trim().to_owned()),
            conforming: Set(f.conforming),
            note: Set(f.note.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty())),
            evaluator: Set(evaluator.to_owned()),
            report_reference: Set(report
                .reference
                .as_deref()
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .map(str::to_owned)),
            found_on: Set(found_on),
            recorded_at: Set(act.clock.now()),
            recorded_by: Set(act.caller.actor()),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
    }
    txn.commit().await?;
    Ok(p)
}
