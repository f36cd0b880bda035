//! Small fixtures shared by the lifecycle and rule tests.

use crate::helpers::TestApp;

/// Inserts a bank with this code that serves both programmes.
pub async fn seed_bank(app: &TestApp, code: &str) {
    use sea_orm::{ActiveModelTrait, ActiveValue::Set};
    entity::bank::ActiveModel {
        code: Set(code.into()),
        name: Set(code.into()),
        serves_social_fuel: Set(true),
        serves_fco: Set(true),
        mda_cooperation_agreement: Set(false),
        ..Default::default()
    }
    .insert(&app.db)
    .await
    .expect("bank");
}
