//! The payloads that mutations of several areas answer (the lifecycle acts, the facts' corrections, the external
//! evaluation): the changed object, as it now stands.

use super::types::financing::{FcoCarta, SocialFuelProject};
use async_graphql::{Context, Result, SimpleObject};

/// What a change of a project's facts answers: the project as it now stands (ask for its `compliance`).
#[derive(SimpleObject)]
pub struct SocialFuelProjectPayload {
    /// The project.
    pub project: SocialFuelProject,
}

/// What `updateFcoCarta` answers.
#[derive(SimpleObject)]
pub struct FcoCartaPayload {
    /// The carta with the corrected facts (`statedOn` the day they hold from).
    pub carta: FcoCarta,
}

impl SocialFuelProjectPayload {
    /// The answer about a project a mutation changed, as the caller may see it.
    pub fn of(ctx: &Context<'_>, p: entity::social_fuel_project::Model) -> Result<Self> {
        Ok(Self {
            project: SocialFuelProject(super::seen(ctx, p)?),
        })
    }
}

impl FcoCartaPayload {
    /// The answer about a carta a mutation changed, as the caller may see it.
    pub fn of(ctx: &Context<'_>, c: entity::fco_carta::Model) -> Result<Self> {
        Ok(Self {
            carta: FcoCarta(super::seen(ctx, c)?),
        })
    }
}
