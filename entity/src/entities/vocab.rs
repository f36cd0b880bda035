//! Closed vocabularies stored as text: lifecycle stages, supplier kinds, item kinds, and the coarse status that
//! both programmes share in the unified `financing` view.

use sea_orm::entity::prelude::*;

/// The cross-programme status of a financing, so that one filter fits both programmes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum FinancingStatus {
    /// Being prepared; not yet filed with the deciding body.
    #[sea_orm(string_value = "DRAFT")]
    Draft,
    /// Filed and waiting for a decision.
    #[sea_orm(string_value = "IN_ANALYSIS")]
    InAnalysis,
    /// Decided favourably, not yet running.
    #[sea_orm(string_value = "APPROVED")]
    Approved,
    /// Running: contracted (FCO) or in industrial operation (social fuel).
    #[sea_orm(string_value = "ACTIVE")]
    Active,
    /// Decided unfavourably.
    #[sea_orm(string_value = "DENIED")]
    Denied,
    /// Over: expired unused (FCO) or unframed (social fuel).
    #[sea_orm(string_value = "ENDED")]
    Ended,
}

/// The programme a financing belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum Programme {
    /// Social-fuel framing of a biodiesel project (IN MDA nº 2/2005).
    #[sea_orm(string_value = "SOCIAL_FUEL")]
    SocialFuel,
    /// FCO Rural carta-consulta in Mato Grosso (CDAE/MT 2019).
    #[sea_orm(string_value = "FCO_RURAL")]
    FcoRural,
}

/// Stages of a social-fuel project (IN MDA nº 2/2005, arts. 7–11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum SocialFuelStage {
    /// Being prepared by the company.
    #[sea_orm(string_value = "DRAFT")]
    Draft,
    /// Filed with MDA (art. 8); the 30-day decision clock runs (art. 9).
    #[sea_orm(string_value = "FILED")]
    Filed,
    /// MDA issued a letter of conformity (art. 9).
    #[sea_orm(string_value = "CONFORMING")]
    Conforming,
    /// MDA issued a letter of non-conformity (art. 9).
    #[sea_orm(string_value = "NON_CONFORMING")]
    NonConforming,
    /// The bank approved the financing; the schedule is presented (art. 10).
    #[sea_orm(string_value = "FINANCING_APPROVED")]
    FinancingApproved,
    /// Industrial operation started; the 6-month external evaluation clock runs (art. 11).
    #[sea_orm(string_value = "OPERATING")]
    Operating,
    /// MDA's external evaluation is under way (art. 11).
    #[sea_orm(string_value = "EXTERNAL_EVALUATION")]
    ExternalEvaluation,
    /// The evaluation found conformity; the seal must be requested within 30 days (art. 11 I).
    #[sea_orm(string_value = "SEAL_ELIGIBLE")]
    SealEligible,
    /// The company requested the social-fuel seal (art. 11 I).
    #[sea_orm(string_value = "SEAL_REQUESTED")]
    SealRequested,
    /// The evaluation found non-conformity; MDA hears the company's justifications and contestations before it may
    /// unframe the project (art. 11 II).
    #[sea_orm(string_value = "NON_CONFORMITY_HEARING")]
    NonConformityHearing,
    /// The framing was lost (art. 11 II).
    #[sea_orm(string_value = "UNFRAMED")]
    Unframed,
}

impl SocialFuelStage {
    /// Its name as MDA's staff say it.
    pub fn name_pt(self) -> &'static str {
        match self {
            Self::Draft => "em elaboração",
            Self::Filed => "protocolado no MDA",
            Self::Conforming => "enquadrado (ofício de conformidade)",
            Self::NonConforming => "não enquadrado (ofício de não conformidade)",
            Self::FinancingApproved => "financiamento aprovado",
            Self::Operating => "em operação industrial",
            Self::ExternalEvaluation => "em avaliação externa",
            Self::SealEligible => "apto ao selo",
            Self::SealRequested => "selo solicitado",
            Self::NonConformityHearing => "não conformidade em análise de justificativas",
            Self::Unframed => "desenquadrado",
        }
    }

    /// The cross-programme status of this stage.
    pub fn status(self) -> FinancingStatus {
        match self {
            Self::Draft => FinancingStatus::Draft,
            Self::Filed => FinancingStatus::InAnalysis,
            Self::Conforming | Self::FinancingApproved => FinancingStatus::Approved,
            Self::NonConforming => FinancingStatus::Denied,
            Self::Operating
            | Self::ExternalEvaluation
            | Self::SealEligible
            | Self::SealRequested
            | Self::NonConformityHearing => FinancingStatus::Active,
            Self::Unframed => FinancingStatus::Ended,
        }
    }
}

/// Stages of an FCO carta-consulta (CDAE/MT 2019, arts. 2–3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum FcoCartaStage {
    /// Being prepared by the borrower and the bank.
    #[sea_orm(string_value = "DRAFT")]
    Draft,
    /// Submitted: to the CPACR chamber at or above the threshold, to the bank below it (art. 2 §3).
    #[sea_orm(string_value = "SUBMITTED")]
    Submitted,
    /// Approved; valid 120 days for presenting the project to the bank (art. 3 sole §).
    #[sea_orm(string_value = "APPROVED")]
    Approved,
    /// Unfavourable opinion; may be resubmitted once reformulated (art. 3 sole §).
    #[sea_orm(string_value = "UNFAVOURABLE")]
    Unfavourable,
    /// The financing was contracted.
    #[sea_orm(string_value = "CONTRACTED")]
    Contracted,
    /// The 120-day validity ran out before contracting.
    #[sea_orm(string_value = "EXPIRED")]
    Expired,
}

impl FcoCartaStage {
    /// Its name as the chamber's staff say it.
    pub fn name_pt(self) -> &'static str {
        match self {
            Self::Draft => "em elaboração",
            Self::Submitted => "submetida",
            Self::Approved => "aprovada",
            Self::Unfavourable => "com parecer desfavorável",
            Self::Contracted => "contratada",
            Self::Expired => "com validade expirada",
        }
    }

    /// The cross-programme status of this stage.
    pub fn status(self) -> FinancingStatus {
        match self {
            Self::Draft => FinancingStatus::Draft,
            Self::Submitted => FinancingStatus::InAnalysis,
            Self::Approved => FinancingStatus::Approved,
            Self::Unfavourable => FinancingStatus::Denied,
            Self::Contracted => FinancingStatus::Active,
            Self::Expired => FinancingStatus::Ended,
        }
    }
}

/// Who decided on something: MDA or the chamber, or the bank itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum Decision {
    /// Conformity (social fuel) or a favourable opinion (FCO).
    #[sea_orm(string_value = "FAVOURABLE")]
    Favourable,
    /// Non-conformity (social fuel) or an unfavourable opinion (FCO).
    #[sea_orm(string_value = "UNFAVOURABLE")]
    Unfavourable,
}

/// From whom a biodiesel producer bought (or got) feedstock (IN MDA nº 2/2005, art. 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum SupplierKind {
    /// A family farmer (Pronaf).
    #[sea_orm(string_value = "FAMILY_FARMER")]
    FamilyFarmer,
    /// A cooperative of family farmers.
    #[sea_orm(string_value = "FAMILY_FARM_COOPERATIVE")]
    FamilyFarmCooperative,
    /// Any other third party.
    #[sea_orm(string_value = "OTHER_THIRD_PARTY")]
    OtherThirdParty,
    /// The producer's own production, valued at the period's average third-party price (art. 3 §2).
    #[sea_orm(string_value = "OWN_PRODUCTION")]
    OwnProduction,
    /// The producer's part in a partnership or sharecropping, valued at the price paid to the partner (art. 3 §3).
    #[sea_orm(string_value = "SHARECROPPING")]
    Sharecropping,
}

/// Farmers' representations that may sign contract proposals (IN MDA nº 2/2005, art. 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum RepresentationKind {
    /// Rural workers' union or federation affiliated to Contag.
    #[sea_orm(string_value = "CONTAG")]
    Contag,
    /// Union or federation affiliated to Fetraf.
    #[sea_orm(string_value = "FETRAF")]
    Fetraf,
    /// Union linked to ANPA.
    #[sea_orm(string_value = "ANPA")]
    Anpa,
    /// Another institution accredited by MDA.
    #[sea_orm(string_value = "MDA_ACCREDITED")]
    MdaAccredited,
}

/// The six documents of a social-fuel request (IN MDA nº 2/2005, art. 8 and annex I).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ProjectDocumentKind {
    /// The request letter.
    #[sea_orm(string_value = "REQUEST_LETTER")]
    RequestLetter,
    /// Authenticated copy of the bank's framing letter.
    #[sea_orm(string_value = "BANK_FRAMING_LETTER")]
    BankFramingLetter,
    /// The social-fuel project on the annex II model.
    #[sea_orm(string_value = "SOCIAL_FUEL_PROJECT")]
    SocialFuelProject,
    /// Copy of the contract to be negotiated with farmers or cooperatives.
    #[sea_orm(string_value = "FARMER_CONTRACT")]
    FarmerContract,
    /// CNPJ registration card.
    #[sea_orm(string_value = "CNPJ_REGISTRATION")]
    CnpjRegistration,
    /// Declaration of being up to date with obligations (adimplência).
    #[sea_orm(string_value = "GOOD_STANDING_DECLARATION")]
    GoodStandingDeclaration,
}

impl ProjectDocumentKind {
    /// Its name as annex I writes it.
    pub fn name_pt(self) -> &'static str {
        match self {
            Self::RequestLetter => "ofício de solicitação",
            Self::BankFramingLetter => "cópia autenticada da carta de enquadramento do agente financeiro",
            Self::SocialFuelProject => "projeto combustível social (modelo do anexo II)",
            Self::FarmerContract => "cópia do contrato a ser negociado com os agricultores familiares",
            Self::CnpjRegistration => "cartão do CNPJ",
            Self::GoodStandingDeclaration => "declaração de adimplência",
        }
    }

    /// The six documents annex I requires, in its order.
    pub const ANNEX_I: [ProjectDocumentKind; 6] = [
        Self::RequestLetter,
        Self::BankFramingLetter,
        Self::SocialFuelProject,
        Self::FarmerContract,
        Self::CnpjRegistration,
        Self::GoodStandingDeclaration,
    ];
}

/// Changes a company must report (IN MDA nº 2/2005, art. 12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum CompanyChangeKind {
    /// The plant moved.
    #[sea_orm(string_value = "PLANT_ADDRESS")]
    PlantAddress,
    /// The corporate name changed.
    #[sea_orm(string_value = "CORPORATE_NAME")]
    CorporateName,
    /// The company was incorporated into another.
    #[sea_orm(string_value = "INCORPORATION")]
    Incorporation,
    /// Start of activity.
    #[sea_orm(string_value = "ACTIVITY_START")]
    ActivityStart,
}

/// What an FCO carta finances (CDAE/MT 2019, arts. 6–16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum FcoActivity {
    /// Beef cattle.
    #[sea_orm(string_value = "BEEF_CATTLE")]
    BeefCattle,
    /// Dairy cattle.
    #[sea_orm(string_value = "DAIRY_CATTLE")]
    DairyCattle,
    /// Weaned cattle for early finishing (art. 6 §1).
    #[sea_orm(string_value = "WEANED_CATTLE_FINISHING")]
    WeanedCattleFinishing,
    /// Swine (art. 8).
    #[sea_orm(string_value = "SWINE")]
    Swine,
    /// Sow retention (art. 8 §3).
    #[sea_orm(string_value = "SOW_RETENTION")]
    SowRetention,
    /// Pantanal dam retention (art. 9).
    #[sea_orm(string_value = "PANTANAL_DAM_RETENTION")]
    PantanalDamRetention,
    /// Fish farming.
    #[sea_orm(string_value = "FISH_FARMING")]
    FishFarming,
    /// Small animals (poultry, sheep, goats).
    #[sea_orm(string_value = "SMALL_ANIMALS")]
    SmallAnimals,
    /// Grains and other annual crops.
    #[sea_orm(string_value = "GRAINS")]
    Grains,
    /// Perennial crops (art. 5).
    #[sea_orm(string_value = "PERENNIAL_CROPS")]
    PerennialCrops,
    /// Forestry (art. 13).
    #[sea_orm(string_value = "FORESTRY")]
    Forestry,
    /// Machinery and equipment (art. 11).
    #[sea_orm(string_value = "MACHINERY")]
    Machinery,
    /// Rural infrastructure: buildings, storage, irrigation, electrification.
    #[sea_orm(string_value = "INFRASTRUCTURE")]
    Infrastructure,
    /// Pasture formation and recovery.
    #[sea_orm(string_value = "PASTURE_RECOVERY")]
    PastureRecovery,
}

impl FcoActivity {
    /// Its name as the chamber writes it.
    pub fn name_pt(self) -> &'static str {
        match self {
            Self::BeefCattle => "bovinocultura de corte",
            Self::DairyCattle => "bovinocultura de leite",
            Self::WeanedCattleFinishing => "recria e engorda de bezerros desmamados",
            Self::Swine => "suinocultura",
            Self::SowRetention => "retenção de matrizes suínas",
            Self::PantanalDamRetention => "retenção de matrizes no Pantanal",
            Self::FishFarming => "piscicultura",
            Self::SmallAnimals => "pequenos animais",
            Self::Grains => "grãos",
            Self::PerennialCrops => "culturas perenes",
            Self::Forestry => "silvicultura",
            Self::Machinery => "máquinas e equipamentos",
            Self::Infrastructure => "infraestrutura rural",
            Self::PastureRecovery => "formação e recuperação de pastagens",
        }
    }
}

/// The FCO programme line of a carta.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum FcoLine {
    /// FCO Rural, the general line.
    #[sea_orm(string_value = "FCO_RURAL")]
    Rural,
    /// FCO Verde, environmental investments (art. 13).
    #[sea_orm(string_value = "FCO_VERDE")]
    Verde,
    /// Pronaf, family farming.
    #[sea_orm(string_value = "PRONAF")]
    Pronaf,
}

impl FcoLine {
    /// Its name as banks write it.
    pub fn name_pt(self) -> &'static str {
        match self {
            Self::Rural => "FCO Rural",
            Self::Verde => "FCO Verde",
            Self::Pronaf => "Pronaf",
        }
    }
}

/// What a carta item is (CDAE/MT 2019, arts. 6–11, 17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum ItemKind {
    /// Breeding female (matriz).
    #[sea_orm(string_value = "DAM")]
    Dam,
    /// Breeding male (reprodutor).
    #[sea_orm(string_value = "SIRE")]
    Sire,
    /// Boar (cachaço).
    #[sea_orm(string_value = "BOAR")]
    Boar,
    /// Sow.
    #[sea_orm(string_value = "SOW")]
    Sow,
    /// Weaned calf for early finishing.
    #[sea_orm(string_value = "WEANED_CALF")]
    WeanedCalf,
    /// Other animals.
    #[sea_orm(string_value = "OTHER_ANIMAL")]
    OtherAnimal,
    /// Machine or equipment, new.
    #[sea_orm(string_value = "MACHINE")]
    Machine,
    /// Machine or equipment, used (art. 11).
    #[sea_orm(string_value = "USED_MACHINE")]
    UsedMachine,
    /// Tractor, harvester or vehicle.
    #[sea_orm(string_value = "VEHICLE")]
    Vehicle,
    /// Building or installation.
    #[sea_orm(string_value = "BUILDING")]
    Building,
    /// Grain storage (always fixed investment).
    #[sea_orm(string_value = "GRAIN_STORAGE")]
    GrainStorage,
    /// Irrigation.
    #[sea_orm(string_value = "IRRIGATION")]
    Irrigation,
    /// Pasture formation or recovery.
    #[sea_orm(string_value = "PASTURE")]
    Pasture,
    /// Soil correction.
    #[sea_orm(string_value = "SOIL_CORRECTION")]
    SoilCorrection,
    /// Permanent crop or forestry planting.
    #[sea_orm(string_value = "PERMANENT_CROP")]
    PermanentCrop,
    /// Working capital (custeio).
    #[sea_orm(string_value = "OPERATING_EXPENSE")]
    OperatingExpense,
    /// Genetic-improvement inputs and equipment: semen, embryos, hormones, artificial-insemination equipment and
    /// utensils (CDAE/MT 2019, art. 6 I b and §4; art. 7 I b and §3).
    #[sea_orm(string_value = "GENETIC_INPUT")]
    GeneticInput,
}

/// Investment class of an item (CDAE/MT 2019, art. 17).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum InvestmentClass {
    /// Fixed investment.
    #[sea_orm(string_value = "FIXED")]
    Fixed,
    /// Semi-fixed investment.
    #[sea_orm(string_value = "SEMI_FIXED")]
    SemiFixed,
    /// Working capital (custeio).
    #[sea_orm(string_value = "OPERATING")]
    Operating,
}

impl InvestmentClass {
    /// Its name as art. 17 writes it.
    pub fn name_pt(self) -> &'static str {
        match self {
            Self::Fixed => "investimento fixo",
            Self::SemiFixed => "investimento semifixo",
            Self::Operating => "custeio",
        }
    }
}

/// Kinds of carta amendment (CDAE/MT 2019, art. 15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, EnumIter, DeriveActiveEnum)]
#[sea_orm(rs_type = "String", db_type = "String(StringLen::None)")]
pub enum AmendmentKind {
    /// The financed value goes up.
    #[sea_orm(string_value = "VALUE_INCREASE")]
    ValueIncrease,
    /// The financed value goes down.
    #[sea_orm(string_value = "VALUE_REDUCTION")]
    ValueReduction,
    /// An item is swapped for a related one.
    #[sea_orm(string_value = "ITEM_SWAP")]
    ItemSwap,
    /// The municipality changes among the listed properties.
    #[sea_orm(string_value = "MUNICIPALITY_CHANGE")]
    MunicipalityChange,
    /// The producer's size class changes.
    #[sea_orm(string_value = "PRODUCER_SIZE_CHANGE")]
    ProducerSizeChange,
    /// Anything else.
    #[sea_orm(string_value = "OTHER")]
    Other,
}
