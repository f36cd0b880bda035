//! Public enums, mirrored from the domain vocabularies so the schema does not follow table shape by accident.

use async_graphql::Enum;
use entity::{domain, vocab};

/// The cross-programme status of a financing, so that one filter fits both programmes.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::FinancingStatus")]
pub enum FinancingStatus {
    /// Being prepared; not yet filed.
    Draft,
    /// Filed and waiting for a decision.
    InAnalysis,
    /// Decided favourably, not yet running.
    Approved,
    /// Running: contracted (FCO) or in industrial operation (social fuel).
    Active,
    /// Decided unfavourably.
    Denied,
    /// Over: expired unused (FCO) or unframed (social fuel).
    Ended,
}

/// The programme a financing belongs to.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::Programme")]
pub enum Programme {
    /// Social-fuel framing of a biodiesel project (IN MDA nº 2/2005).
    SocialFuel,
    /// FCO Rural carta-consulta in Mato Grosso (CDAE/MT 2019).
    FcoRural,
}

/// Lifecycle stage of a social-fuel project (IN MDA nº 2/2005, arts. 7–11).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::SocialFuelStage")]
pub enum SocialFuelStage {
    /// Being prepared by the company.
    Draft,
    /// Filed with MDA; the 30-day decision clock runs (art. 9).
    Filed,
    /// MDA issued a letter of conformity (art. 9).
    Conforming,
    /// MDA issued a letter of non-conformity (art. 9).
    NonConforming,
    /// The bank approved the financing; the schedule is presented (art. 10).
    FinancingApproved,
    /// Industrial operation started; the 6-month evaluation clock runs (art. 11).
    Operating,
    /// MDA's external evaluation is under way (art. 11).
    ExternalEvaluation,
    /// Evaluated as conforming; the seal must be requested within 30 days (art. 11 I).
    SealEligible,
    /// The social-fuel seal was requested (art. 11 I).
    SealRequested,
    /// The evaluation found non-conformity; MDA hears the company's justifications and contestations before it may
    /// unframe the project (art. 11 II).
    NonConformityHearing,
    /// The social framing was lost (art. 11 II).
    Unframed,
}

/// Lifecycle stage of an FCO carta-consulta (CDAE/MT 2019, arts. 2–3).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::FcoCartaStage")]
pub enum FcoCartaStage {
    /// Being prepared.
    Draft,
    /// Submitted to the chamber (at or above the threshold) or the bank (below it).
    Submitted,
    /// Approved; valid 120 days for presenting the project to the bank.
    Approved,
    /// Unfavourable opinion; may be resubmitted once reformulated.
    Unfavourable,
    /// Contracted.
    Contracted,
    /// The 120-day validity ran out before contracting.
    Expired,
}

/// A decision or opinion.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::Decision")]
pub enum Decision {
    /// Conformity (social fuel) or a favourable opinion (FCO).
    Favourable,
    /// Non-conformity (social fuel) or an unfavourable opinion (FCO).
    Unfavourable,
}

/// From whom feedstock came (IN MDA nº 2/2005, art. 3).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::SupplierKind")]
pub enum SupplierKind {
    /// A family farmer (Pronaf).
    FamilyFarmer,
    /// A cooperative of family farmers.
    FamilyFarmCooperative,
    /// Any other third party.
    OtherThirdParty,
    /// The producer's own production (art. 3 §2).
    OwnProduction,
    /// The producer's part in sharecropping (art. 3 §3).
    Sharecropping,
}

/// What kind of group a set of borrowers forms (CDAE/MT 2019, art. 4: the ceiling counts them together).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
pub enum EconomicGroupKind {
    /// An economic group (companies and people under common control).
    Group,
    /// A cooperative.
    Cooperative,
    /// An association.
    Association,
}

impl EconomicGroupKind {
    /// The stored name (`GROUP`, `COOPERATIVE`, `ASSOCIATION`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Group => "GROUP",
            Self::Cooperative => "COOPERATIVE",
            Self::Association => "ASSOCIATION",
        }
    }
}

/// What changed in a company, reported to MDA (IN MDA nº 2/2005, art. 12).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::CompanyChangeKind")]
pub enum CompanyChangeKind {
    /// The plant's address.
    PlantAddress,
    /// The corporate name.
    CorporateName,
    /// The incorporation (merger, split, acquisition).
    Incorporation,
    /// The start of the activity.
    ActivityStart,
}

/// Farmers' representation signing contract proposals (IN MDA nº 2/2005, art. 5).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::RepresentationKind")]
pub enum RepresentationKind {
    /// Union or federation affiliated to Contag.
    Contag,
    /// Union or federation affiliated to Fetraf.
    Fetraf,
    /// Union linked to ANPA.
    Anpa,
    /// Another MDA-accredited institution.
    MdaAccredited,
}

/// The six documents of a social-fuel request (IN MDA nº 2/2005, art. 8, annex I).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::ProjectDocumentKind")]
pub enum ProjectDocumentKind {
    /// The request letter.
    RequestLetter,
    /// Authenticated copy of the bank's framing letter.
    BankFramingLetter,
    /// The social-fuel project (annex II model).
    SocialFuelProject,
    /// The contract to be negotiated with farmers or cooperatives.
    FarmerContract,
    /// CNPJ registration.
    CnpjRegistration,
    /// Declaration of good standing (adimplência).
    GoodStandingDeclaration,
}

/// What an FCO carta finances.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::FcoActivity")]
pub enum FcoActivity {
    /// Beef cattle.
    BeefCattle,
    /// Dairy cattle.
    DairyCattle,
    /// Weaned cattle for early finishing (art. 6 §1).
    WeanedCattleFinishing,
    /// Swine (art. 8).
    Swine,
    /// Sow retention (art. 8 §3).
    SowRetention,
    /// Pantanal dam retention (art. 9).
    PantanalDamRetention,
    /// Fish farming.
    FishFarming,
    /// Small animals.
    SmallAnimals,
    /// Grains and annual crops.
    Grains,
    /// Perennial crops (art. 5).
    PerennialCrops,
    /// Forestry (art. 13).
    Forestry,
    /// Machinery and equipment (art. 11).
    Machinery,
    /// Rural infrastructure.
    Infrastructure,
    /// Pasture formation and recovery.
    PastureRecovery,
}

/// The FCO programme line.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::FcoLine")]
pub enum FcoLine {
    /// FCO Rural.
    Rural,
    /// FCO Verde (art. 13).
    Verde,
    /// Pronaf.
    Pronaf,
}

/// What a carta item is.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::ItemKind")]
pub enum ItemKind {
    /// Breeding female.
    Dam,
    /// Breeding male.
    Sire,
    /// Boar.
    Boar,
    /// Sow.
    Sow,
    /// Weaned calf for early finishing.
    WeanedCalf,
    /// Other animals.
    OtherAnimal,
    /// New machine or equipment.
    Machine,
    /// Used machine or equipment (art. 11).
    UsedMachine,
    /// Tractor, harvester or vehicle.
    Vehicle,
    /// Building or installation.
    Building,
    /// Grain storage.
    GrainStorage,
    /// Irrigation.
    Irrigation,
    /// Pasture.
    Pasture,
    /// Soil correction.
    SoilCorrection,
    /// Permanent crop or forestry planting.
    PermanentCrop,
    /// Working capital.
    OperatingExpense,
    /// Genetic-improvement inputs and equipment: semen, embryos, hormones, artificial-insemination equipment and
    /// utensils (art. 6 I b and §4; art. 7 I b and §3). Such an item is genetic improvement for FCO-IA-INFO.
    GeneticInput,
}

/// Investment class (CDAE/MT 2019, art. 17).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::InvestmentClass")]
pub enum InvestmentClass {
    /// Fixed investment.
    Fixed,
    /// Semi-fixed investment.
    SemiFixed,
    /// Working capital.
    Operating,
}

/// Kind of carta amendment (CDAE/MT 2019, art. 15).
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "vocab::AmendmentKind")]
pub enum AmendmentKind {
    /// Value increase.
    ValueIncrease,
    /// Value reduction.
    ValueReduction,
    /// Swap of an item for a related one.
    ItemSwap,
    /// Change of municipality among listed properties.
    MunicipalityChange,
    /// Change of producer size.
    ProducerSizeChange,
    /// Anything else.
    Other,
}

/// The five regions of Brazil.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "domain::Region")]
pub enum Region {
    /// Norte.
    North,
    /// Nordeste.
    Northeast,
    /// Sudeste.
    Southeast,
    /// Sul.
    South,
    /// Centro-Oeste.
    CentreWest,
}

/// Kind of taxpayer document.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "domain::DocumentKind")]
pub enum DocumentKind {
    /// CPF: a person.
    Cpf,
    /// CNPJ: a legal entity.
    Cnpj,
}

/// The 27 federative units, by abbreviation.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq)]
#[graphql(remote = "domain::Uf", rename_items = "UPPERCASE")]
pub enum Uf {
    /// Rondônia.
    Ro,
    /// Acre.
    Ac,
    /// Amazonas.
    Am,
    /// Roraima.
    Rr,
    /// Pará.
    Pa,
    /// Amapá.
    Ap,
    /// Tocantins.
    To,
    /// Maranhão.
    Ma,
    /// Piauí.
    Pi,
    /// Ceará.
    Ce,
    /// Rio Grande do Norte.
    Rn,
    /// Paraíba.
    Pb,
    /// Pernambuco.
    Pe,
    /// Alagoas.
    Al,
    /// Sergipe.
    Se,
    /// Bahia.
    Ba,
    /// Minas Gerais.
    Mg,
    /// Espírito Santo.
    Es,
    /// Rio de Janeiro.
    Rj,
    /// São Paulo.
    Sp,
    /// Paraná.
    Pr,
    /// Santa Catarina.
    Sc,
    /// Rio Grande do Sul.
    Rs,
    /// Mato Grosso do Sul.
    Ms,
    /// Mato Grosso.
    Mt,
    /// Goiás.
    Go,
    /// Distrito Federal.
    Df,
}

/// Sort direction.
#[derive(Enum, Copy, Clone, Debug, Eq, PartialEq, Default)]
pub enum OrderDirection {
    /// Smallest or earliest first.
    Asc,
    /// Largest or latest first.
    #[default]
    Desc,
}
