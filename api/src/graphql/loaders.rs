//! DataLoaders: one per key, each gathering the keys a page asks for into one batch read of `service::facts` (a
//! single `IN (...)` query), so nested fields never run one query per parent.

use super::types::objects::{Bank, Municipality, Party};
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
    visible::Seen,
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

/// Related rows a page read in its own statement (joined), kept for the request so that the nodes' fields
/// (`bank`, `party`, `municipality`) answer from them instead of a lookup. Request data: what one request read is
/// never served to another.
#[derive(Debug, Default)]
pub struct Prefetched {
    banks: std::sync::Mutex<HashMap<i64, Bank>>,
    /// Each financing's borrower, by the financing (programme and id): seen through it, under the name its bank filed
    /// when the caller is that bank.
    parties: std::sync::Mutex<HashMap<(Programme, i64), Party>>,
    municipalities: std::sync::Mutex<HashMap<i32, Municipality>>,
}

impl Prefetched {
    /// Keeps the related rows of a page.
    pub fn keep(
        &self,
        rows: impl Iterator<
            Item = (
                Option<Seen<bank::Model>>,
                Option<((Programme, i64), Seen<party::Model>)>,
                Option<Seen<municipality::Model>>,
            ),
        >,
    ) {
        let (mut banks, mut parties, mut towns) = (
            self.banks.lock().unwrap_or_else(|e| e.into_inner()),
            self.parties.lock().unwrap_or_else(|e| e.into_inner()),
            self.municipalities.lock().unwrap_or_else(|e| e.into_inner()),
        );
        for (b, p, m) in rows {
            if let Some(b) = b {
                banks.insert(b.id, Bank(b));
            }
            if let Some((financing, p)) = p {
                parties.insert(financing, Party(p));
            }
            if let Some(m) = m {
                towns.insert(m.ibge_code, Municipality(m));
            }
        }
    }

    /// A bank read with the page.
    pub fn bank(&self, id: i64) -> Option<Bank> {
        self.banks.lock().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
    }

    /// The borrower of a financing read with the page.
    pub fn party(&self, financing: (Programme, i64)) -> Option<Party> {
        self.parties
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&financing)
            .cloned()
    }

    /// `f` of a bank read with the page, borrowed.
    pub fn with_bank<R>(&self, id: i64, f: impl FnOnce(&Bank) -> R) -> Option<R> {
        self.banks.lock().unwrap_or_else(|e| e.into_inner()).get(&id).map(f)
    }

    /// `f` of the borrower of a financing read with the page, borrowed.
    pub fn with_party<R>(&self, financing: (Programme, i64), f: impl FnOnce(&Party) -> R) -> Option<R> {
        self.parties
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&financing)
            .map(f)
    }

    /// `f` of a municipality read with the page, borrowed.
    pub fn with_municipality<R>(&self, code: i32, f: impl FnOnce(&Municipality) -> R) -> Option<R> {
        self.municipalities
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&code)
            .map(f)
    }

    /// A municipality read with the page.
    pub fn municipality(&self, code: i32) -> Option<Municipality> {
        self.municipalities
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&code)
            .cloned()
    }
}
