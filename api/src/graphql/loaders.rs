//! DataLoaders: one per key, each gathering the keys a page asks for into one batch read of `service::facts` (a
//! single `IN (...)` query), so nested fields never run one query per parent.

use async_graphql::dataloader::Loader;
use entity::{
    assistance_plan, bank, chamber_meeting, checklist_confirmation, company_change_notice, compliance_flag,
    contract_proposal, economic_group, evaluation_finding, fco_carta, fco_carta_amendment, fco_carta_cycle,
    fco_carta_item, fco_carta_statement, feedstock_acquisition, municipality, party, project_document,
    semi_arid_membership, social_fuel_project, vocab::Programme,
};
use service::{
    Db,
    facts::{self, LoadError},
};
use std::{collections::HashMap, sync::Arc};

/// Declares a DataLoader over a batch read of `service::facts`.
macro_rules! loader {
    ($(#[$doc:meta])* $name:ident, $key:ty => $value:ty, $read:path) => {
        $(#[$doc])*
        pub struct $name(pub Db);

        impl Loader<$key> for $name {
            type Value = $value;
            type Error = LoadError;

            async fn load(&self, keys: &[$key]) -> Result<HashMap<$key, Self::Value>, Self::Error> {
                $read(&self.0, keys).await.map_err(Arc::new)
            }
        }
    };
}

loader!(
    /// Banks by id.
    BankLoader, i64 => bank::Model, facts::banks
);
loader!(
    /// Parties by id.
    PartyLoader, i64 => party::Model, facts::parties
);
loader!(
    /// Economic groups by id.
    EconomicGroupLoader, i64 => economic_group::Model, facts::economic_groups
);
loader!(
    /// Municipalities by IBGE code.
    MunicipalityLoader, i32 => municipality::Model, facts::municipalities
);
loader!(
    /// Social-fuel projects by id.
    SocialFuelProjectLoader, i64 => social_fuel_project::Model, facts::projects
);
loader!(
    /// FCO cartas by id.
    FcoCartaLoader, i64 => fco_carta::Model, facts::cartas
);
loader!(
    /// CPACR chamber meetings by id.
    ChamberMeetingLoader, i64 => chamber_meeting::Model, facts::chamber_meetings
);
loader!(
    /// Feedstock acquisitions by project.
    AcquisitionsByProject, i64 => Vec<feedstock_acquisition::Model>, facts::acquisitions_by_project
);
loader!(
    /// Contract proposals by project.
    ProposalsByProject, i64 => Vec<contract_proposal::Model>, facts::proposals_by_project
);
loader!(
    /// Annex-I documents by project.
    DocumentsByProject, i64 => Vec<project_document::Model>, facts::documents_by_project
);
loader!(
    /// Technical-assistance plans by project.
    PlansByProject, i64 => Vec<assistance_plan::Model>, facts::plans_by_project
);
loader!(
    /// Notices of company changes by project.
    ChangeNoticesByProject, i64 => Vec<company_change_notice::Model>, facts::change_notices_by_project
);
loader!(
    /// The external evaluation's findings by project.
    FindingsByProject, i64 => Vec<evaluation_finding::Model>, facts::findings_by_project
);
loader!(
    /// Items by carta.
    ItemsByCarta, i64 => Vec<fco_carta_item::Model>, facts::items_by_carta
);
loader!(
    /// Amendments by carta.
    AmendmentsByCarta, i64 => Vec<fco_carta_amendment::Model>, facts::amendments_by_carta
);
loader!(
    /// The approval cycles an amendment closed, by carta.
    CyclesByCarta, i64 => Vec<fco_carta_cycle::Model>, facts::cycles_by_carta
);
loader!(
    /// The versions of the stated facts a correction replaced, by carta.
    StatementsByCarta, i64 => Vec<fco_carta_statement::Model>, facts::statements_by_carta
);
loader!(
    /// Semi-arid memberships (every period) by IBGE code.
    SemiAridByMunicipality, i32 => Vec<semi_arid_membership::Model>, facts::semi_arid_by_municipality
);
loader!(
    /// Checklist confirmations by financing (programme and id).
    ConfirmationsByFinancing, (Programme, i64) => Vec<checklist_confirmation::Model>, facts::confirmations
);
loader!(
    /// Whether a bank was present at a chamber meeting, by (meeting, bank).
    AttendanceLoader, (i64, i64) => bool, facts::attendance
);
loader!(
    /// By borrower (party id) and day: the committed cartas of its borrower group as known that day
    /// (`service::facts::group_commitments`).
    GroupCommitmentsByParty, (i64, chrono::NaiveDate) => std::sync::Arc<facts::Committed>, facts::group_commitments
);
loader!(
    /// Compliance flags per financing, newest first.
    FlagsByFinancing, (Programme, i64) => Vec<compliance_flag::Model>, service::flags::of_financings
);
