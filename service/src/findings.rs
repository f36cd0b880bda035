//! The external evaluation's findings as the rules read them: the criteria of the seal, a project's findings, and the
//! guard over a conclusion (IN MDA 2/2005, art. 11). Recording findings is `crate::evaluation`'s; the lifecycle's
//! conclusion reads them here.

use crate::{ServiceError, messages::code};
use chrono::NaiveDate;
use entity::{
    evaluation_finding,
    rules::{RuleCode, code as rule},
};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

type Result<T> = std::result::Result<T, ServiceError>;

/// The criteria of the seal an external evaluation checks (arts. 3, 5 and 6).
pub const CRITERIA: [RuleCode; 4] = [
    rule::SF_SHARE_MIN,
    rule::SF_REPRESENTATION,
    rule::SF_CONTRACT_TERMS,
    rule::SF_ASSISTANCE_PLAN,
];

/// A project's findings, by criterion.
pub async fn findings(db: &impl ConnectionTrait, project_id: i64) -> Result<Vec<evaluation_finding::Model>> {
    Ok(evaluation_finding::Entity::find()
        .filter(evaluation_finding::Column::ProjectId.eq(project_id))
        .order_by_asc(evaluation_finding::Column::Id)
        .all(db)
        .await?)
}

/// Refuses a conclusion the findings do not support (art. 11 I–II): conformity over a finding of non-conformity, and
/// (for a conclusion dated while IN MDA nº 2/2005 was in force, `in_force`) conformity without a finding on every
/// criterion of the seal, or dated before the findings it reads. Art. 11 has MDA find conformity "mediante realização
/// de avaliação externa": a conformity with no evaluation behind it is not one.
pub async fn check_conclusion(
    db: &impl ConnectionTrait,
    project_id: i64,
    conforming: bool,
    on: NaiveDate,
    in_force: bool,
) -> Result<()> {
    if !conforming {
        return Ok(());
    }
    let found = findings(db, project_id).await?;
    let against: Vec<&str> = found
        .iter()
        .filter(|f| !f.conforming)
        .map(|f| f.criterion.as_str())
        .collect();
    if !against.is_empty() {
        return Err(ServiceError::rule(
            rule::SF_EXTERNAL_EVAL_6M,
            entity::rules::Explanation::message(code::REFUSE_CONFORMITY_AGAINST_FINDINGS)
                .arg("criteria", against.join(", ")),
        ));
    }
    if !in_force {
        return Ok(());
    }
    let missing: Vec<&str> = CRITERIA
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !found.iter().any(|f| f.criterion == *c))
        .collect();
    if !missing.is_empty() {
        return Err(ServiceError::rule(
            rule::SF_EXTERNAL_EVAL_6M,
            entity::rules::Explanation::message(code::REFUSE_CONFORMITY_WITHOUT_FINDINGS)
                .arg("criteria", missing.join(", ")),
        ));
    }
    if let Some(last) = found.iter().map(|f| f.found_on).max()
        && on < last
    {
        return Err(ServiceError::rule(
            rule::SF_EXTERNAL_EVAL_6M,
            entity::rules::Explanation::message(code::REFUSE_CONCLUSION_BEFORE_FINDINGS)
                .arg("on", on)
                .arg("last", last),
        ));
    }
    Ok(())
}
