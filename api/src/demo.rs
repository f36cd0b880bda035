//! The deterministic demo dataset: banks, parties (some in both programmes), a few dozen social-fuel projects across
//! the five regions in every stage, and a few hundred FCO cartas in Mato Grosso with items. Loaded only into an empty
//! database; the same every time.

use chrono::{Duration, NaiveDate, TimeZone, Utc};

use entity::{
    bank, chamber_meeting, contract_proposal,
    domain::{
        Money, Quantity,
        document::{cnpj_with_check_digits, cpf_with_check_digits},
    },
    economic_group, fco_carta, fco_carta_amendment, fco_carta_item, feedstock_acquisition, party, project_document,
    semi_arid_membership, social_fuel_project,
    vocab::{
        AmendmentKind, Decision, FcoActivity, FcoCartaStage, FcoLine, InvestmentClass, ItemKind, ProjectDocumentKind,
        RepresentationKind, SocialFuelStage, SupplierKind,
    },
};
use sea_orm::{ActiveValue::Set, DatabaseConnection, DbErr, EntityTrait, PaginatorTrait, TransactionTrait};

/// A small deterministic generator (SplitMix64), so the demo is the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

/// Plant municipalities by region: North, Northeast (two in the semi-arid), Southeast, South, Centre-West.
const PLANTS: [(i32, &str); 16] = [
    (1302603, "Manaus"),
    (1501402, "Belém"),
    (1721000, "Palmas"),
    (2611101, "Petrolina"),
    (2918407, "Juazeiro"),
    (2304400, "Fortaleza"),
    (2211001, "Teresina"),
    (3550308, "São Paulo"),
    (3106200, "Belo Horizonte"),
    (4106902, "Curitiba"),
    (4314902, "Porto Alegre"),
    (5103403, "Cuiabá"),
    (5107602, "Rondonópolis"),
    (5208707, "Goiânia"),
    (5002704, "Campo Grande"),
    (1100205, "Porto Velho"),
];

/// Mato Grosso municipalities of FCO properties.
const MT: [i32; 20] = [
    5103403, 5107602, 5107909, 5107925, 5105259, 5107040, 5107958, 5102504, 5101803, 5100250, 5106224, 5102637,
    5105150, 5100201, 5107065, 5106505, 5108402, 5107875, 5103502, 5102678,
];

const SF_STAGES: [SocialFuelStage; 10] = [
    SocialFuelStage::Draft,
    SocialFuelStage::Filed,
    SocialFuelStage::Conforming,
    SocialFuelStage::NonConforming,
    SocialFuelStage::FinancingApproved,
    SocialFuelStage::Operating,
    SocialFuelStage::ExternalEvaluation,
    SocialFuelStage::SealEligible,
    SocialFuelStage::SealRequested,
    SocialFuelStage::Unframed,
];

const FCO_STAGES: [FcoCartaStage; 6] = [
    FcoCartaStage::Draft,
    FcoCartaStage::Submitted,
    FcoCartaStage::Approved,
    FcoCartaStage::Unfavourable,
    FcoCartaStage::Contracted,
    FcoCartaStage::Expired,
];

/// Loads the demo dataset if the database has no bank yet; returns whether it loaded.
pub async fn load_if_empty(db: &DatabaseConnection) -> Result<bool, DbErr> {
    if bank::Entity::find().count(db).await? > 0 {
        tracing::info!("database not empty: demo data not loaded");
        return Ok(false);
    }
    let txn = db.begin().await?;
    load(&txn).await?;
    txn.commit().await?;
    tracing::info!("demo data loaded");
    Ok(true)
}

async fn load(db: &impl sea_orm::ConnectionTrait) -> Result<(), DbErr> {
    let mut rng = Rng(20_190_320);
    let now = Utc.with_ymd_and_hms(2026, 1, 5, 12, 0, 0).single().unwrap_or_default();

    // Banks: (code, name, social fuel, FCO, MDA agreement).
    let banks = [
        (
            "BNDES",
            "Banco Nacional de Desenvolvimento Econômico e Social",
            true,
            false,
            true,
        ),
        ("BB", "Banco do Brasil", true, true, true),
        ("BNB", "Banco do Nordeste do Brasil", true, false, false),
        ("BASA", "Banco da Amazônia", true, false, false),
        ("SICREDI", "Sicredi", false, true, false),
        ("DESENVOLVE_MT", "Desenvolve MT", false, true, false),
    ];
    bank::Entity::insert_many(banks.iter().map(|(code, name, sf, fco, agr)| bank::ActiveModel {
        code: Set((*code).into()),
        name: Set((*name).into()),
        serves_social_fuel: Set(*sf),
        serves_fco: Set(*fco),
        mda_cooperation_agreement: Set(*agr),
        ..Default::default()
    }))
    .exec(db)
    .await?;
    let bank_ids: Vec<i64> = bank::Entity::find().all(db).await?.iter().map(|b| b.id).collect();
    let bank_id = |code: &str| {
        banks
            .iter()
            .position(|b| b.0 == code)
            .map(|i| bank_ids[i])
            .unwrap_or(bank_ids[0])
    };
    let sf_banks = [bank_id("BNDES"), bank_id("BB"), bank_id("BNB"), bank_id("BASA")];
    let fco_banks = [bank_id("BB"), bank_id("SICREDI"), bank_id("DESENVOLVE_MT")];

    economic_group::Entity::insert_many(
        [
            ("Grupo Chapada Agro", "GROUP"),
            ("Cooperativa Vale do Teles Pires", "COOPERATIVE"),
            ("Associação Pantaneira", "ASSOCIATION"),
        ]
        .iter()
        .map(|(name, kind)| economic_group::ActiveModel {
            name: Set((*name).into()),
            kind: Set((*kind).into()),
            ..Default::default()
        }),
    )
    .exec(db)
    .await?;
    let group_ids: Vec<i64> = economic_group::Entity::find()
        .all(db)
        .await?
        .iter()
        .map(|g| g.id)
        .collect();

    // Biodiesel companies: 12 roots, the first three also borrow FCO money (through another branch for two of them).
    let companies = [
        ("Biodiesel Cerrado S.A.", "112223330001"),
        ("Óleos do Araguaia Ltda.", "223334440001"),
        ("Energia Verde do Nordeste S.A.", "12ABC3450001"),
        ("Amazônia Bioenergia Ltda.", "334445550001"),
        ("Sertão Biocombustíveis S.A.", "445556660001"),
        ("Paraná Óleos Vegetais Ltda.", "556667770001"),
        ("Gaúcha Biodiesel S.A.", "667778880001"),
        ("Mineira Energia Renovável Ltda.", "778889990001"),
        ("Paulista Bioenergia S.A.", "889990000001"),
        ("Goiás Biodiesel Ltda.", "990001110001"),
        ("Pantanal Óleos S.A.", "101112130001"),
        ("Tocantins Agroenergia Ltda.", "141516170001"),
    ];
    let mut parties = Vec::new();
    for (i, (name, first12)) in companies.iter().enumerate() {
        let cnpj = cnpj_with_check_digits(first12).ok_or_else(|| DbErr::Custom(format!("demo CNPJ {first12}")))?;
        parties.push(party_model(
            cnpj.as_str(),
            "CNPJ",
            Some(cnpj.root()),
            name,
            (i == 0).then(|| group_ids[0]),
        ));
    }
    // Second branches of the first two companies, which file FCO cartas.
    for (root, name) in [
        ("11222333", "Biodiesel Cerrado S.A. — filial Sorriso"),
        ("22333444", "Óleos do Araguaia Ltda. — filial Barra do Garças"),
    ] {
        let cnpj =
            cnpj_with_check_digits(&format!("{root}0002")).ok_or_else(|| DbErr::Custom(format!("demo CNPJ {root}")))?;
        parties.push(party_model(
            cnpj.as_str(),
            "CNPJ",
            Some(cnpj.root()),
            name,
            (root == "11222333").then(|| group_ids[0]),
        ));
    }
    // Rural borrowers: 60 people and 12 farms.
    let first = [
        "João",
        "Maria",
        "Antônio",
        "Ana",
        "Francisco",
        "Francisca",
        "José",
        "Luiza",
        "Carlos",
        "Helena",
        "Paulo",
        "Rita",
    ];
    let last = [
        "Silva",
        "Santos",
        "Oliveira",
        "Souza",
        "Pereira",
        "Costa",
        "Rodrigues",
        "Almeida",
        "Nascimento",
        "Lima",
    ];
    for i in 0..60u64 {
        let cpf = cpf_with_check_digits(&format!("{:09}", 100_000_000 + i * 7_919_113 % 800_000_000))
            .ok_or_else(|| DbErr::Custom("demo CPF".into()))?;
        let name = format!(
            "{} {} {}",
            first[(i % 12) as usize],
            last[(i / 12 % 10) as usize],
            last[(i * 7 % 10) as usize]
        );
        let group = match i % 15 {
            0 => Some(group_ids[1]),
            7 => Some(group_ids[2]),
            _ => None,
        };
        parties.push(party_model(cpf.as_str(), "CPF", None, &name, group));
    }
    for i in 0..12u64 {
        let cnpj = cnpj_with_check_digits(&format!("{:08}0001", 30_000_000 + i * 1_234_567))
            .ok_or_else(|| DbErr::Custom("demo farm CNPJ".into()))?;
        let name = format!(
            "Fazenda {} Agropecuária Ltda.",
            [
                "Boa Vista",
                "Santa Rita",
                "Três Irmãos",
                "Primavera",
                "Esperança",
                "Aurora"
            ][(i % 6) as usize]
        );
        parties.push(party_model(
            cnpj.as_str(),
            "CNPJ",
            Some(cnpj.root()),
            &format!("{name} {}", i + 1),
            (i % 4 == 0).then(|| group_ids[1]),
        ));
    }
    party::Entity::insert_many(parties).exec(db).await?;
    let all_parties = party::Entity::find().all(db).await?;
    // The groups' members, known from the start (as migration 25 records the members it found).
    let memberships: Vec<entity::economic_group_membership::ActiveModel> = all_parties
        .iter()
        .filter_map(|p| {
            p.economic_group_id
                .map(|g| entity::economic_group_membership::ActiveModel {
                    group_id: Set(g),
                    party_id: Set(p.id),
                    joined_at: Set(None),
                    recorded_by: Set("demo".into()),
                    ..Default::default()
                })
        })
        .collect();
    if !memberships.is_empty() {
        entity::economic_group_membership::Entity::insert_many(memberships)
            .exec(db)
            .await?;
    }
    let by_doc = |prefix: &str| {
        all_parties
            .iter()
            .find(|p| p.document.starts_with(prefix))
            .map(|p| p.id)
            .unwrap_or(0)
    };
    let company_ids: Vec<i64> = companies.iter().map(|(_, f)| by_doc(&f[..8])).collect();
    let borrower_ids: Vec<i64> = all_parties
        .iter()
        .filter(|p| p.document_kind == "CPF" || p.name.starts_with("Fazenda"))
        .map(|p| p.id)
        .collect();
    let branch_ids = [
        all_parties
            .iter()
            .find(|p| p.document.starts_with("112223330002"))
            .map(|p| p.id)
            .unwrap_or(0),
        all_parties
            .iter()
            .find(|p| p.document.starts_with("223334440002"))
            .map(|p| p.id)
            .unwrap_or(0),
    ];

    semi_arid_membership::Entity::insert_many([2611101, 2918407].into_iter().map(|code| {
        semi_arid_membership::ActiveModel {
            ibge_code: Set(code),
            effective_from: Set(day(2017, 11, 23)),
            effective_to: Set(None),
            source: Set("Resolução Condel/SUDENE nº 107/2017".into()),
            ..Default::default()
        }
    }))
    .exec(db)
    .await?;

    // Social-fuel projects: 40, four per stage, plants cycling through all five regions.
    let mut projects = Vec::new();
    for i in 0..40usize {
        let stage = SF_STAGES[i % SF_STAGES.len()];
        let (plant, city) = PLANTS[(i * 7) % PLANTS.len()];
        let company = company_ids[i % company_ids.len()];
        projects.push(project_model(
            &mut rng,
            i,
            stage,
            plant,
            city,
            company,
            sf_banks[i % sf_banks.len()],
            now,
        ));
    }
    social_fuel_project::Entity::insert_many(projects).exec(db).await?;
    let project_rows = social_fuel_project::Entity::find().all(db).await?;

    let mut acquisitions = Vec::new();
    let mut proposals = Vec::new();
    let mut documents = Vec::new();
    for p in &project_rows {
        let year = p.filed_on.map(|d| chrono::Datelike::year(&d)).unwrap_or(2025);
        let kinds = [
            SupplierKind::FamilyFarmer,
            SupplierKind::FamilyFarmCooperative,
            SupplierKind::OtherThirdParty,
            SupplierKind::OwnProduction,
            SupplierKind::Sharecropping,
        ];
        for (k, kind) in kinds.iter().enumerate().take(3 + (p.id as usize % 3)) {
            let crop = *rng.pick(&["soja", "mamona", "dendê", "girassol", "algodão"]);
            let kg = 50_000 + rng.below(400_000) as i64;
            let price_cents = 180 + rng.below(90) as i64; // R$ 1,80 to R$ 2,70 per kg
            let perennial = crop == "dendê" && k == 0;
            acquisitions.push(feedstock_acquisition::ActiveModel {
                project_id: Set(p.id),
                year: Set(year),
                supplier_kind: Set(*kind),
                supplier_party_id: Set(None),
                crop: Set(crop.into()),
                quantity_kg: Set(Quantity(kg * 10_000)),
                cost: Set(Money(kg * price_cents)),
                perennial_area_ha: Set(perennial.then_some(Quantity(1_200 * 10_000))),
                productivity_kg_per_ha: Set(perennial.then_some(Quantity(4_000 * 10_000))),
                coefficient_source: Set(perennial.then(|| "Embrapa".to_owned())),
                ..Default::default()
            });
        }
        if p.stage != SocialFuelStage::Draft || p.id % 2 == 0 {
            proposals.push(contract_proposal::ActiveModel {
                project_id: Set(p.id),
                representation_kind: Set(*rng.pick(&[
                    RepresentationKind::Contag,
                    RepresentationKind::Fetraf,
                    RepresentationKind::Anpa,
                ])),
                representation_name: Set(format!(
                    "Sindicato dos Trabalhadores Rurais de {}",
                    PLANTS
                        .iter()
                        .find(|c| c.0 == p.plant_municipality_code)
                        .map(|c| c.1)
                        .unwrap_or("—")
                )),
                term_months: Set(Some(36)),
                purchase_price: Set(Some("preço de referência Conab + 5 %".into())),
                price_adjustment: Set(Some("IPCA anual".into())),
                delivery_conditions: Set(Some("entrega no armazém da cooperativa, safra".into())),
                safeguards: Set((p.id % 7 != 3).then(|| "multa de 10 % por inadimplemento".to_owned())),
                representation_agreed: Set(true),
                ..Default::default()
            });
        }
        let doc_kinds = ProjectDocumentKind::ANNEX_I;
        let received = p.filed_on.unwrap_or(p.created_at.date_naive());
        let count = if p.stage == SocialFuelStage::Draft { 4 } else { 6 };
        for kind in doc_kinds.iter().take(count) {
            documents.push(project_document::ActiveModel {
                project_id: Set(p.id),
                kind: Set(*kind),
                received_on: Set(received),
                reference: Set(Some(format!("MDA-{}-{:?}", p.id, kind))),
                ..Default::default()
            });
        }
    }
    feedstock_acquisition::Entity::insert_many(acquisitions)
        .exec(db)
        .await?;
    contract_proposal::Entity::insert_many(proposals).exec(db).await?;
    project_document::Entity::insert_many(documents).exec(db).await?;

    // Chamber meetings: monthly, first Tuesday-ish of 2024–2026.
    let meetings: Vec<_> = (0..30)
        .map(|m| {
            let d = day(2024, 1, 9) + Duration::days(m * 30);
            chamber_meeting::ActiveModel {
                starts_at: Set(Utc.from_utc_datetime(&d.and_hms_opt(13, 0, 0).unwrap_or_default())),
                results_sent_at: Set(Some(
                    Utc.from_utc_datetime(&(d + Duration::days(2)).and_hms_opt(17, 0, 0).unwrap_or_default()),
                )),
                notes: Set(None),
                ..Default::default()
            }
        })
        .collect();
    chamber_meeting::Entity::insert_many(meetings).exec(db).await?;
    let meeting_rows = chamber_meeting::Entity::find().all(db).await?;

    // FCO cartas: 300 in Mato Grosso; the first twelve belong to companies of the social-fuel programme.
    let mut cartas = Vec::new();
    for i in 0..300usize {
        let stage = FCO_STAGES[i % FCO_STAGES.len()];
        let borrower = match i {
            0..=3 => branch_ids[i % 2],
            4..=11 => company_ids[i % 3],
            _ => borrower_ids[i % borrower_ids.len()],
        };
        let submitted = day(2024, 2, 1) + Duration::days((i as i64 * 3) % 900);
        cartas.push(carta_model(
            &mut rng,
            i,
            stage,
            borrower,
            fco_banks[i % 3],
            submitted,
            &meeting_rows,
            now,
        ));
    }
    fco_carta::Entity::insert_many(cartas).exec(db).await?;
    let carta_rows = fco_carta::Entity::find().all(db).await?;
    let mut items = Vec::new();
    let mut amendments = Vec::new();
    for c in &carta_rows {
        items.extend(items_for(&mut rng, c));
        if c.stage == FcoCartaStage::Contracted && c.id % 4 == 0 {
            let old = c.financed_amount.cents();
            let increase = old / 100 * (5 + (c.id % 10)); // 5 % to 14 %
            amendments.push(fco_carta_amendment::ActiveModel {
                carta_id: Set(c.id),
                kind: Set(AmendmentKind::ValueIncrease),
                requested_on: Set(c.contracted_on.unwrap_or_default() - Duration::days(10)),
                old_amount: Set(Some(Money(old))),
                new_amount: Set(Some(Money(old + increase))),
                description: Set("reajuste de orçamento dos itens".into()),
                requires_new_approval: Set(increase * 100 > old * 10),
                ..Default::default()
            });
        }
    }
    for chunk in items.chunks(400) {
        fco_carta_item::Entity::insert_many(chunk.to_vec()).exec(db).await?;
    }
    fco_carta_amendment::Entity::insert_many(amendments).exec(db).await?;
    Ok(())
}

fn party_model(document: &str, kind: &str, root: Option<&str>, name: &str, group: Option<i64>) -> party::ActiveModel {
    party::ActiveModel {
        document: Set(document.into()),
        document_kind: Set(kind.into()),
        cnpj_root: Set(root.map(Into::into)),
        name: Set(name.into()),
        economic_group_id: Set(group),
        ..Default::default()
    }
}

#[allow(clippy::too_many_arguments)]
fn project_model(
    rng: &mut Rng,
    i: usize,
    stage: SocialFuelStage,
    plant: i32,
    city: &str,
    company: i64,
    bank: i64,
    now: chrono::DateTime<Utc>,
) -> social_fuel_project::ActiveModel {
    use SocialFuelStage as S;
    let order = SF_STAGES.iter().position(|s| *s == stage).unwrap_or(0);
    // Later stages imply earlier facts; non-conforming and unframed branch off.
    let reached = |s: S| {
        let p = SF_STAGES.iter().position(|x| *x == s).unwrap_or(0);
        match stage {
            S::NonConforming => matches!(s, S::Filed),
            S::Unframed => {
                p <= SF_STAGES.iter().position(|x| *x == S::ExternalEvaluation).unwrap_or(0) && s != S::NonConforming
            }
            _ => p <= order && s != S::NonConforming,
        }
    };
    // Every event lies before the demo's anchor date: the chain of steps is laid back from it.
    let chain: i64 = [
        (S::Filed, 12),
        (S::Conforming, 40),
        (S::FinancingApproved, 60),
        (S::Operating, 180),
        (S::SealEligible, 210),
        (S::SealRequested, 20),
    ]
    .iter()
    .filter(|(s, _)| reached(*s) || (*s == S::Conforming && stage == S::NonConforming))
    .map(|(_, d)| d)
    .sum::<i64>()
        + if stage == S::Unframed { 200 } else { 0 };
    let framed = day(2026, 11, 30) - Duration::days(chain + 5 + (i as i64 * 37) % 400);
    let filed = (stage != S::Draft).then(|| framed + Duration::days(12));
    // Every fourth decided project was decided late (over 30 days) so the deadlines have something to show.
    let decision_days = if i % 4 == 1 { 41 } else { 18 + (i as i64 % 10) };
    let decided = (reached(S::Conforming) || stage == S::NonConforming)
        .then(|| filed.unwrap_or(framed) + Duration::days(decision_days));
    let approved = reached(S::FinancingApproved).then(|| decided.unwrap_or(framed) + Duration::days(60));
    let industrial = reached(S::Operating).then(|| approved.unwrap_or(framed) + Duration::days(180));
    let evaluated =
        reached(S::SealEligible).then(|| industrial.unwrap_or(framed) + Duration::days(150 + (i as i64 % 3) * 30));
    let seal = reached(S::SealRequested).then(|| evaluated.unwrap_or(framed) + Duration::days(20));
    let unframed = (stage == S::Unframed).then(|| industrial.unwrap_or(framed) + Duration::days(200));
    let amount = 200_000_000 + (rng.below(48_000) as i64) * 100_000; // R$ 2 M to R$ 50 M
    social_fuel_project::ActiveModel {
        title: Set(format!("Usina de biodiesel de {city} — fase {}", i / 16 + 1)),
        bank_id: Set(bank),
        party_id: Set(company),
        plant_municipality_code: Set(plant),
        requested_amount: Set(Money(amount)),
        stage: Set(stage),
        status: Set(stage.status()),
        bank_framed_on: Set(Some(framed)),
        analysed_by_bank: Set(false),
        filed_on: Set(filed),
        decision: Set(decided.map(|_| {
            if stage == S::NonConforming {
                Decision::Unfavourable
            } else {
                Decision::Favourable
            }
        })),
        decided_on: Set(decided),
        decision_letter: Set(decided.map(|d| format!("Ofício nº {}/{}/MDA", 100 + i, chrono::Datelike::year(&d)))),
        financing_approved_on: Set(approved),
        scheduled_implementation_end: Set(approved.map(|d| d + Duration::days(365))),
        schedule_delay_accepted: Set(false),
        industrial_start_on: Set(industrial),
        external_evaluation_on: Set(evaluated),
        evaluation_result: Set(evaluated
            .map(|_| Decision::Favourable)
            .or(unframed.map(|_| Decision::Unfavourable))),
        seal_requested_on: Set(seal),
        extension_requested_on: Set(None),
        extension_justification: Set(None),
        extension_granted_on: Set(None),
        unframed_on: Set(unframed),
        unframing_reason: Set(
            unframed.map(|_| "aquisições da agricultura familiar abaixo do mínimo; justificativas não aceitas".into())
        ),
        created_at: Set(now - Duration::days(800) + Duration::days(i as i64 * 17)),
        ..Default::default()
    }
}

const ACTIVITIES: [FcoActivity; 13] = [
    FcoActivity::BeefCattle,
    FcoActivity::Grains,
    FcoActivity::DairyCattle,
    FcoActivity::Machinery,
    FcoActivity::Swine,
    FcoActivity::Infrastructure,
    FcoActivity::WeanedCattleFinishing,
    FcoActivity::PerennialCrops,
    FcoActivity::FishFarming,
    FcoActivity::SowRetention,
    FcoActivity::PantanalDamRetention,
    FcoActivity::Forestry,
    FcoActivity::SmallAnimals,
];

#[allow(clippy::too_many_arguments)]
fn carta_model(
    rng: &mut Rng,
    i: usize,
    stage: FcoCartaStage,
    borrower: i64,
    bank: i64,
    submitted: NaiveDate,
    meetings: &[chamber_meeting::Model],
    now: chrono::DateTime<Utc>,
) -> fco_carta::ActiveModel {
    use FcoCartaStage as S;
    // Amounts from R$ 80 thousand to R$ 14 million; every fifth carta sits at or above the chamber threshold.
    let amount = if i.is_multiple_of(5) {
        100_000_000 + rng.below(13_000) as i64 * 100_000
    } else {
        8_000_000 + rng.below(900) as i64 * 100_000
    };
    let chamber = amount >= 100_000_000;
    let decided = !matches!(stage, S::Draft | S::Submitted);
    let meeting = meetings
        .iter()
        .find(|m| m.starts_at.date_naive() >= submitted + Duration::days(4));
    let decided_on = decided.then(|| match (chamber, meeting) {
        (true, Some(m)) => m.starts_at.date_naive(),
        _ => submitted + Duration::days(10 + (i as i64 % 20)),
    });
    let approved_on =
        matches!(stage, S::Approved | S::Contracted | S::Expired).then(|| decided_on.unwrap_or(submitted));
    let contracted_on =
        (stage == S::Contracted).then(|| approved_on.unwrap_or(submitted) + Duration::days(30 + (i as i64 % 80)));
    let activity = ACTIVITIES[i % ACTIVITIES.len()];
    let line = match activity {
        FcoActivity::Forestry => FcoLine::Verde,
        _ if amount < 30_000_000 => FcoLine::Pronaf,
        _ => FcoLine::Rural,
    };
    let (term, grace) = match activity {
        FcoActivity::SowRetention => (36, 24),
        FcoActivity::PantanalDamRetention => (96, 48),
        FcoActivity::Grains | FcoActivity::FishFarming | FcoActivity::WeanedCattleFinishing => (24, 6),
        _ => (120, 36),
    };
    fco_carta::ActiveModel {
        number: Set(format!("FCO-{:04}/{}", i + 1, chrono::Datelike::year(&submitted))),
        bank_id: Set(bank),
        party_id: Set(borrower),
        line: Set(line),
        activity: Set(activity),
        financed_amount: Set(Money(amount)),
        municipality_code: Set(if activity == FcoActivity::PantanalDamRetention {
            5106505
        } else {
            MT[i % MT.len()]
        }),
        stage: Set(stage),
        status: Set(stage.status()),
        submitted_on: Set((stage != S::Draft).then_some(submitted)),
        received_by_council_at: Set((chamber && stage != S::Draft).then(|| match meeting {
            Some(m) if i.is_multiple_of(9) => m.starts_at - Duration::hours(48),
            Some(m) => m.starts_at - Duration::hours(96),
            None => Utc.from_utc_datetime(&submitted.and_hms_opt(9, 0, 0).unwrap_or_default()),
        })),
        chamber_meeting_id: Set(if chamber && decided {
            meeting.map(|m| m.id)
        } else {
            None
        }),
        decision: Set(decided.then_some(if stage == S::Unfavourable {
            Decision::Unfavourable
        } else {
            Decision::Favourable
        })),
        decided_by: Set(decided.then(|| {
            if chamber {
                "CHAMBER".to_owned()
            } else {
                "BANK".to_owned()
            }
        })),
        decided_on: Set(decided_on),
        approved_on: Set(approved_on),
        contracted_on: Set(contracted_on),
        contracted_amount: Set(contracted_on.map(|_| Money(amount))),
        term_months: Set(Some(term)),
        grace_months: Set(Some(grace)),
        resubmission_of: Set(None),
        professional_name: Set(
            (activity == FcoActivity::DairyCattle).then(|| "Dra. Paula Menezes, CRMV-MT 4321".to_owned())
        ),
        created_at: Set(now - Duration::days(900) + Duration::days(i as i64 * 3)),
        ..Default::default()
    }
}

fn items_for(rng: &mut Rng, c: &fco_carta::Model) -> Vec<fco_carta_item::ActiveModel> {
    let total = c.financed_amount.cents();
    let item = |kind: ItemKind,
                desc: &str,
                share: i64,
                heads: Option<i32>,
                age: Option<i32>,
                year: Option<i32>,
                class: InvestmentClass,
                reg: Option<&str>| {
        fco_carta_item::ActiveModel {
            carta_id: Set(c.id),
            kind: Set(kind),
            description: Set(desc.into()),
            quantity: Set(Quantity(i64::from(heads.unwrap_or(1)) * 10_000)),
            head_count: Set(heads),
            age_months: Set(age),
            manufacture_year: Set(year),
            useful_life_years: Set(None),
            registration: Set(reg.map(Into::into)),
            investment_class: Set(class),
            value: Set(Money(total / 100 * share)),
            ..Default::default()
        }
    };
    let heads = |rng: &mut Rng, lo: u64, span: u64| Some((lo + rng.below(span)) as i32);
    match c.activity {
        FcoActivity::BeefCattle | FcoActivity::DairyCattle | FcoActivity::PantanalDamRetention => {
            let dams = heads(rng, 60, 900);
            let ratio = if c.id % 7 == 0 { 34 } else { 28 }; // some cartas break the 1:30 sire ratio
            let sires = dams.map(|d| (d / ratio).max(1));
            vec![
                item(
                    ItemKind::Dam,
                    "matrizes nelore",
                    80,
                    dams,
                    Some(30),
                    None,
                    InvestmentClass::SemiFixed,
                    None,
                ),
                item(
                    ItemKind::Sire,
                    "reprodutores PO",
                    20,
                    sires,
                    Some(36),
                    None,
                    InvestmentClass::SemiFixed,
                    Some("PO_RGD"),
                ),
            ]
        }
        FcoActivity::WeanedCattleFinishing => {
            vec![item(
                ItemKind::WeanedCalf,
                "bezerros desmamados",
                100,
                heads(rng, 200, 1_900),
                Some(8),
                None,
                InvestmentClass::Operating,
                None,
            )]
        }
        FcoActivity::Swine | FcoActivity::SowRetention => {
            let sows = heads(rng, 40, 400);
            vec![
                item(
                    ItemKind::Sow,
                    "matrizes suínas de granja GRSC",
                    85,
                    sows,
                    Some(5 + (c.id % 37) as i32),
                    None,
                    if c.activity == FcoActivity::SowRetention {
                        InvestmentClass::Operating
                    } else {
                        InvestmentClass::SemiFixed
                    },
                    None,
                ),
                item(
                    ItemKind::Boar,
                    "cachaços",
                    15,
                    sows.map(|s| (s / 18).max(1)),
                    Some(12),
                    None,
                    InvestmentClass::SemiFixed,
                    None,
                ),
            ]
        }
        FcoActivity::Machinery => vec![
            item(
                ItemKind::Vehicle,
                "trator 120 cv",
                60,
                None,
                None,
                Some(2025),
                InvestmentClass::SemiFixed,
                None,
            ),
            item(
                ItemKind::UsedMachine,
                "colheitadeira usada",
                40,
                None,
                None,
                Some(2026 - 2 - (c.id % 5) as i32),
                InvestmentClass::SemiFixed,
                None,
            ),
        ],
        FcoActivity::Infrastructure | FcoActivity::Grains | FcoActivity::PastureRecovery => vec![
            item(
                ItemKind::GrainStorage,
                "armazém graneleiro",
                70,
                None,
                None,
                None,
                InvestmentClass::Fixed,
                None,
            ),
            item(
                ItemKind::SoilCorrection,
                "calcário e gesso",
                30,
                None,
                None,
                None,
                InvestmentClass::Fixed,
                None,
            ),
        ],
        FcoActivity::PerennialCrops | FcoActivity::Forestry => {
            vec![item(
                ItemKind::PermanentCrop,
                "mudas certificadas e plantio",
                100,
                None,
                None,
                None,
                InvestmentClass::Fixed,
                None,
            )]
        }
        FcoActivity::FishFarming | FcoActivity::SmallAnimals => {
            vec![item(
                ItemKind::OperatingExpense,
                "ração e alevinos",
                100,
                None,
                None,
                None,
                InvestmentClass::Operating,
                None,
            )]
        }
    }
}
