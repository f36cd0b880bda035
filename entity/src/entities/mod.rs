//! sea-orm entities, one module per table (and one for the `financing` view).

pub mod assistance_plan;
pub mod bank;
pub mod bank_report;
pub mod bank_report_error;
pub mod bank_report_row;
pub mod chamber_attendance;
pub mod chamber_meeting;
pub mod company_change_notice;
pub mod compliance_flag;
pub mod contract_proposal;
pub mod economic_group;
pub mod fco_carta;
pub mod fco_carta_amendment;
pub mod fco_carta_item;
pub mod feedstock_acquisition;
pub mod financing;
pub mod job_run;
pub mod municipality;
pub mod party;
pub mod project_document;
pub mod rule_parameter;
pub mod semi_arid_membership;
pub mod social_fuel_project;
pub mod vocab;
