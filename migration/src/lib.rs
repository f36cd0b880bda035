//! Fomento's migrations: one file per step, the same steps on SQLite and PostgreSQL. Old steps never import
//! today's entities; reference data goes in with plain statements.

pub use sea_orm_migration::prelude::*;

mod m20261202_000001_create_reference_tables;
mod m20261202_000002_create_social_fuel_tables;
mod m20261202_000003_create_fco_tables;
mod m20261202_000004_create_operations_tables;
mod m20261202_000005_create_financing_view;
mod m20261202_000006_create_rule_tables;
mod m20261202_000007_lean_report_rows;
mod m20261202_000008_set_based_carta_references;
mod m20261202_000009_report_rows_by_position;
mod m20261202_000010_statement_level_carta_checks;
mod m20261203_000011_rare_carta_statuses_index;
mod m20261203_000012_guard_truncate_of_carta_parents;
mod m20261203_000013_report_attempts;
mod m20261203_000014_rule_parameter_history;
mod m20261203_000015_report_message_codes;
mod m20261203_000016_flag_severity_and_due;
mod m20261203_000017_bank_report_carta;
mod m20261203_000018_carta_item_versions;
mod m20261203_000019_acquisition_versions;
mod m20261203_000020_proposal_versions;
mod m20261203_000021_bank_periodic_report;
mod m20261203_000022_plan_versions;
mod m20261203_000023_fact_imports;
mod m20261203_000024_evaluation_findings;
mod m20261203_000025_group_membership_history;
mod m20261203_000026_flag_subjects;
mod m20261203_000027_webhooks;
mod m20261203_000028_dashboard_snapshots;
mod m20261203_000029_api_keys;
mod m20261203_000030_audit_log;
mod m20261204_000031_key_rates_and_raw_file_purge;
mod m20261204_000032_semi_arid_delimitations;
mod m20261204_000033_social_fuel_instrument;
mod m20261204_000034_carta_reproduction_facts;
mod m20261204_000035_carta_presentation;
mod m20261204_000036_hearing_and_extension_decision;
mod m20261204_000037_special_demand;
mod m20261204_000038_calendar_per_authority;
mod m20261204_000039_evaluation_start;
mod m20261204_000040_semi_arid_delimitation;
mod m20261204_000041_list_order_indexes;
mod m20261205_000042_report_flags_index;
mod m20261205_000043_audit_log_no_truncate;
mod m20261205_000044_browser_sessions;
mod m20261205_000045_carta_borrower_name;
mod m20261205_000046_fact_effective_dates;
mod m20261205_000048_carta_approval_cycles;
mod m20261206_000049_decision_grounds;
mod m20261206_000050_hearing_and_bank_notice;
mod m20261206_000051_expiry_day_and_chamber_opinion;
mod m20261206_000052_schedule_and_unframing_facts;
pub mod m20261206_000055_revisions_known_at;
pub mod m20261206_000056_stated_fact_versions;
pub mod m20261206_000057_flag_messages_as_codes;
pub mod m20261206_000058_amendment_properties_listed;
mod m20261206_000059_webhook_trace_context;
mod m20261206_000060_flag_resolution_as_message;
mod m20261206_000061_history_note_as_message;
mod m20261206_000062_job_run_message_as_message;
mod m20261207_000063_one_read_carta_references;
pub mod revisions;
mod util;

/// Every migration, in order.
#[derive(Debug)]
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261202_000001_create_reference_tables::Migration),
            Box::new(m20261202_000002_create_social_fuel_tables::Migration),
            Box::new(m20261202_000003_create_fco_tables::Migration),
            Box::new(m20261202_000004_create_operations_tables::Migration),
            Box::new(m20261202_000005_create_financing_view::Migration),
            Box::new(m20261202_000006_create_rule_tables::Migration),
            Box::new(m20261202_000007_lean_report_rows::Migration),
            Box::new(m20261202_000008_set_based_carta_references::Migration),
            Box::new(m20261202_000009_report_rows_by_position::Migration),
            Box::new(m20261202_000010_statement_level_carta_checks::Migration),
            Box::new(m20261203_000011_rare_carta_statuses_index::Migration),
            Box::new(m20261203_000012_guard_truncate_of_carta_parents::Migration),
            Box::new(m20261203_000013_report_attempts::Migration),
            Box::new(m20261203_000014_rule_parameter_history::Migration),
            Box::new(m20261203_000015_report_message_codes::Migration),
            Box::new(m20261203_000016_flag_severity_and_due::Migration),
            Box::new(m20261203_000017_bank_report_carta::Migration),
            Box::new(m20261203_000018_carta_item_versions::Migration),
            Box::new(m20261203_000019_acquisition_versions::Migration),
            Box::new(m20261203_000020_proposal_versions::Migration),
            Box::new(m20261203_000021_bank_periodic_report::Migration),
            Box::new(m20261203_000022_plan_versions::Migration),
            Box::new(m20261203_000023_fact_imports::Migration),
            Box::new(m20261203_000024_evaluation_findings::Migration),
            Box::new(m20261203_000025_group_membership_history::Migration),
            Box::new(m20261203_000026_flag_subjects::Migration),
            Box::new(m20261203_000027_webhooks::Migration),
            Box::new(m20261203_000028_dashboard_snapshots::Migration),
            Box::new(m20261203_000029_api_keys::Migration),
            Box::new(m20261203_000030_audit_log::Migration),
            Box::new(m20261204_000031_key_rates_and_raw_file_purge::Migration),
            Box::new(m20261204_000032_semi_arid_delimitations::Migration),
            Box::new(m20261204_000033_social_fuel_instrument::Migration),
            Box::new(m20261204_000034_carta_reproduction_facts::Migration),
            Box::new(m20261204_000035_carta_presentation::Migration),
            Box::new(m20261204_000036_hearing_and_extension_decision::Migration),
            Box::new(m20261204_000037_special_demand::Migration),
            Box::new(m20261204_000038_calendar_per_authority::Migration),
            Box::new(m20261204_000039_evaluation_start::Migration),
            Box::new(m20261204_000040_semi_arid_delimitation::Migration),
            Box::new(m20261204_000041_list_order_indexes::Migration),
            Box::new(m20261205_000042_report_flags_index::Migration),
            Box::new(m20261205_000043_audit_log_no_truncate::Migration),
            Box::new(m20261205_000044_browser_sessions::Migration),
            Box::new(m20261205_000045_carta_borrower_name::Migration),
            Box::new(m20261205_000046_fact_effective_dates::Migration),
            Box::new(m20261205_000048_carta_approval_cycles::Migration),
            Box::new(m20261206_000049_decision_grounds::Migration),
            Box::new(m20261206_000050_hearing_and_bank_notice::Migration),
            Box::new(m20261206_000051_expiry_day_and_chamber_opinion::Migration),
            Box::new(m20261206_000052_schedule_and_unframing_facts::Migration),
            Box::new(m20261206_000055_revisions_known_at::Migration),
            Box::new(m20261206_000056_stated_fact_versions::Migration),
            Box::new(m20261206_000057_flag_messages_as_codes::Migration),
            Box::new(m20261206_000058_amendment_properties_listed::Migration),
            Box::new(m20261206_000059_webhook_trace_context::Migration),
            Box::new(m20261206_000060_flag_resolution_as_message::Migration),
            Box::new(m20261206_000061_history_note_as_message::Migration),
            Box::new(m20261206_000062_job_run_message_as_message::Migration),
            Box::new(m20261207_000063_one_read_carta_references::Migration),
        ]
    }
}
