//! Tables over `check_all` for the rules not covered by their own module's boundary tests: one row per case, each
//! with the message a failure prints.
//!
//! Size: a table of cases, one row each; its length is data, and splitting it by rule would scatter rows that share
//! helpers.

use super::{
    Status, Texts,
    calendar::Calendar,
    fco::{self, CartaFacts},
    params::Params,
    social_fuel::{self, ProjectFacts},
};
use crate::{
    domain::{Money, Quantity},
    entities::{
        chamber_meeting, contract_proposal, fco_carta, fco_carta_item, feedstock_acquisition, project_document,
        social_fuel_project, vocab::*,
    },
};
use chrono::{NaiveDate, TimeZone, Utc};

pub(super) fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).expect("date")
}

pub(super) fn carta(activity: FcoActivity, amount: i64, term: i32, grace: i32) -> fco_carta::Model {
    fco_carta::Model {
        id: 1,
        number: "C-1".into(),
        bank_id: 1,
        party_id: 1,
        line: FcoLine::Rural,
        activity,
        financed_amount: Money::from_reais(amount),
        municipality_code: 5107909,
        stage: FcoCartaStage::Submitted,
        status: FinancingStatus::InAnalysis,
        submitted_on: Some(d(2026, 3, 2)),
        received_by_council_at: None,
        chamber_meeting_id: None,
        decision: None,
        decided_by: None,
        decided_on: None,
        approved_on: None,
        contracted_on: None,
        contracted_amount: None,
        term_months: Some(term),
        grace_months: Some(grace),
        resubmission_of: None,
        professional_name: None,
        created_at: Utc::now(),
        created_by_report: None,
        existing_sires: None,
        artificial_insemination: None,
        presented_on: None,
        special_demand: false,
        borrower_name: None,
        expired_on: None,
        stated_on: None,
    }
}

/// `c` on `line`.
pub(super) fn on_line(line: FcoLine, mut c: fco_carta::Model) -> fco_carta::Model {
    c.line = line;
    c
}

/// A carta the chamber approved on `on` (decided and approved that day), in stage `stage`.
pub(super) fn approved_by_chamber(
    activity: FcoActivity,
    amount: i64,
    on: NaiveDate,
    stage: FcoCartaStage,
) -> fco_carta::Model {
    let mut c = carta(activity, amount, 96, 24);
    c.stage = stage;
    c.decided_by = Some("CHAMBER".into());
    c.decided_on = Some(on);
    c.approved_on = Some(on);
    c
}

pub(super) fn item(
    kind: ItemKind,
    heads: Option<i32>,
    age: Option<i32>,
    class: InvestmentClass,
) -> fco_carta_item::Model {
    fco_carta_item::Model {
        id: 1,
        carta_id: 1,
        kind,
        description: format!("{kind:?}"),
        quantity: Quantity(10_000),
        head_count: heads,
        age_months: age,
        manufacture_year: None,
        useful_life_years: None,
        registration: None,
        investment_class: class,
        value: Money::from_reais(1000),
        recorded_at: None,
        recorded_by: None,
        superseded_at: None,
        superseded_by: None,
        change_reason: None,
        effective_on: None,
        ended_on: None,
        dated_by: None,
    }
}

fn outcome_of(
    c: &fco_carta::Model,
    items: &[fco_carta_item::Model],
    group_weaned: i64,
    code: &str,
) -> (Status, String) {
    let facts = CartaFacts {
        carta: &fco_carta::JudgedCarta::from(c),
        items,
        amendments: &[],
        meeting: None,
        bank_present: None,
        group_exposure: c.financed_amount,
        group_weaned_heads: group_weaned,
        producer_other_pantanal_dams: 0,
        resubmitted_stage: None,
        reformulation: None,
    };
    let all = fco::check_all(
        &facts,
        &Params::baseline(),
        &Calendar::national(),
        d(2026, 4, 1),
        Texts::Written,
    )
    .expect("params");
    let o = all.into_iter().find(|o| o.code == code).expect("outcome");
    (o.status, o.explanation.english())
}

#[test]
fn carta_rules_over_items_and_terms() {
    use InvestmentClass::*;
    type Case = (
        &'static str,
        fco_carta::Model,
        Vec<fco_carta_item::Model>,
        i64,
        Status,
        &'static str,
    );
    let cases: Vec<Case> = vec![
        (
            "FCO-WEANED-2000",
            carta(FcoActivity::WeanedCattleFinishing, 500_000, 24, 6),
            vec![item(ItemKind::WeanedCalf, Some(2000), Some(8), Operating)],
            2000,
            Status::Met,
            "2,000 head across the group",
        ),
        (
            "FCO-WEANED-2000",
            carta(FcoActivity::WeanedCattleFinishing, 500_000, 24, 6),
            vec![item(ItemKind::WeanedCalf, Some(1500), Some(8), Operating)],
            2001,
            Status::Violated,
            "2,001 head across the group",
        ),
        (
            "FCO-PANTANAL",
            carta(FcoActivity::PantanalDamRetention, 900_000, 96, 48),
            vec![item(ItemKind::Dam, Some(2000), None, SemiFixed)],
            0,
            Status::Met,
            "8 years with 4 of grace, 2,000 dams",
        ),
        (
            "FCO-PANTANAL",
            carta(FcoActivity::PantanalDamRetention, 900_000, 97, 48),
            vec![item(ItemKind::Dam, Some(100), None, SemiFixed)],
            0,
            Status::Violated,
            "97 months",
        ),
        (
            "FCO-PANTANAL",
            carta(FcoActivity::PantanalDamRetention, 900_000, 96, 49),
            vec![item(ItemKind::Dam, Some(100), None, SemiFixed)],
            0,
            Status::Violated,
            "49 months of grace",
        ),
        (
            "FCO-PANTANAL",
            carta(FcoActivity::PantanalDamRetention, 900_000, 96, 48),
            vec![item(ItemKind::Dam, Some(2001), None, SemiFixed)],
            0,
            Status::Violated,
            "2,001 dams",
        ),
        (
            "FCO-SWINE-RETENTION",
            carta(FcoActivity::SowRetention, 300_000, 36, 24),
            vec![item(ItemKind::Sow, Some(100), Some(6), Operating)],
            0,
            Status::Met,
            "3 years with 2 of grace, sows of 6 months",
        ),
        (
            "FCO-SWINE-RETENTION",
            carta(FcoActivity::SowRetention, 300_000, 37, 24),
            vec![item(ItemKind::Sow, Some(100), Some(20), Operating)],
            0,
            Status::Violated,
            "37 months",
        ),
        (
            "FCO-SWINE-RETENTION",
            carta(FcoActivity::SowRetention, 300_000, 36, 25),
            vec![item(ItemKind::Sow, Some(100), Some(20), Operating)],
            0,
            Status::Violated,
            "25 months of grace",
        ),
        (
            "FCO-SWINE-RETENTION",
            carta(FcoActivity::SowRetention, 300_000, 36, 24),
            vec![item(ItemKind::Sow, Some(100), Some(41), Operating)],
            0,
            Status::Violated,
            "sows of 41 months",
        ),
        (
            "FCO-OPERATING-ONLY",
            carta(FcoActivity::FishFarming, 300_000, 24, 6),
            vec![item(ItemKind::OperatingExpense, None, None, Operating)],
            0,
            Status::Met,
            "fish farming may take stand-alone operating credit",
        ),
        (
            "FCO-OPERATING-ONLY",
            carta(FcoActivity::Grains, 300_000, 24, 6),
            vec![item(ItemKind::OperatingExpense, None, None, Operating)],
            0,
            Status::Violated,
            "grains may not",
        ),
        (
            "FCO-OPERATING-ONLY",
            carta(FcoActivity::Grains, 300_000, 24, 6),
            vec![
                item(ItemKind::GrainStorage, None, None, Fixed),
                item(ItemKind::OperatingExpense, None, None, Operating),
            ],
            0,
            Status::NotApplicable,
            "operating credit tied to an investment",
        ),
        (
            "FCO-CLASSIFY",
            carta(FcoActivity::Grains, 300_000, 24, 6),
            vec![item(ItemKind::GrainStorage, None, None, SemiFixed)],
            0,
            Status::Violated,
            "grain storage is always fixed",
        ),
        (
            "FCO-SIRE-PEDIGREE",
            carta(FcoActivity::BeefCattle, 300_000, 120, 36),
            vec![
                item(ItemKind::Dam, Some(30), None, SemiFixed),
                item(ItemKind::Sire, Some(1), None, SemiFixed),
            ],
            0,
            Status::Violated,
            "a sire without registration",
        ),
        (
            "FCO-BOAR-RATIO",
            on_line(FcoLine::Pronaf, carta(FcoActivity::Swine, 300_000, 120, 36)),
            vec![
                item(ItemKind::Sow, Some(39), Some(10), SemiFixed),
                item(ItemKind::Boar, Some(2), None, SemiFixed),
            ],
            0,
            Status::Violated,
            "2 boars for 39 sows: more than 1 per 20",
        ),
        (
            "FCO-BOAR-RATIO",
            carta(FcoActivity::Swine, 300_000, 120, 36),
            vec![
                item(ItemKind::Sow, Some(39), Some(10), SemiFixed),
                item(ItemKind::Boar, Some(2), None, SemiFixed),
            ],
            0,
            Status::NotApplicable,
            "art. 8 §5 is family farmers' (Pronaf)",
        ),
        (
            "FCO-SWINE-RETENTION",
            carta(FcoActivity::SowRetention, 300_000, 36, 24),
            vec![
                item(ItemKind::Sow, Some(100), Some(20), Operating),
                item(ItemKind::Sow, Some(10), None, Operating),
            ],
            0,
            Status::Pending,
            "sows of no stated age are not shown to be 6 to 40 months old",
        ),
        (
            "FCO-CHAMBER-THRESHOLD",
            carta(FcoActivity::Grains, 1_000_000, 24, 6),
            vec![],
            0,
            Status::Pending,
            "R$ 1.000.000,00 waits for the chamber",
        ),
        (
            "FCO-CHAMBER-THRESHOLD",
            carta(FcoActivity::Grains, 999_999, 24, 6),
            vec![],
            0,
            Status::Met,
            "below the threshold the bank decides",
        ),
    ];
    for (code, c, items, weaned, expected, why) in cases {
        let (status, explanation) = outcome_of(&c, &items, weaned, code);
        assert_eq!(status, expected, "{code}, {why}: {explanation}");
    }
}

#[test]
fn chamber_deadlines_count_hours_and_attendance_counts() {
    let meeting = chamber_meeting::Model {
        id: 1,
        starts_at: Utc.with_ymd_and_hms(2026, 3, 10, 13, 0, 0).single().expect("ts"),
        results_sent_at: Some(Utc.with_ymd_and_hms(2026, 3, 13, 13, 0, 1).single().expect("ts")),
        notes: None,
        opinion_at: None,
        opinion_reference: None,
    };
    let mut c = carta(FcoActivity::Grains, 2_000_000, 24, 6);
    c.decided_by = Some("CHAMBER".into());
    let cases = [
        (
            Utc.with_ymd_and_hms(2026, 3, 7, 13, 0, 0).single(),
            social_fuel::DeadlineStatus::Met,
            "exactly 72 hours before",
        ),
        (
            Utc.with_ymd_and_hms(2026, 3, 7, 13, 0, 1).single(),
            social_fuel::DeadlineStatus::Overdue,
            "one second late",
        ),
    ];
    for (received, expected, why) in cases {
        c.received_by_council_at = received;
        let facts = CartaFacts {
            carta: &fco_carta::JudgedCarta::from(&c),
            items: &[],
            amendments: &[],
            meeting: Some(&meeting),
            bank_present: Some(false),
            group_exposure: c.financed_amount,
            group_weaned_heads: 0,
            producer_other_pantanal_dams: 0,
            resubmitted_stage: None,
            reformulation: None,
        };
        let dl = fco::deadlines(
            &facts,
            &Params::baseline(),
            &Calendar::national(),
            d(2026, 4, 1),
            Texts::Written,
        )
        .expect("params");
        assert_eq!(dl[0].status, expected, "FCO-72H-BEFORE, {why}: {}", dl[0].note);
        assert_eq!(
            dl[1].status,
            social_fuel::DeadlineStatus::Overdue,
            "results sent 72 hours and 1 second after: {}",
            dl[1].note
        );
        let all = fco::check_all(
            &facts,
            &Params::baseline(),
            &Calendar::national(),
            d(2026, 4, 1),
            Texts::Written,
        )
        .expect("params");
        let att = all.iter().find(|o| o.code == "FCO-ATTENDANCE").expect("attendance");
        assert_eq!(
            att.status,
            Status::Violated,
            "an absent bank's proposals are not considered"
        );
    }
}

/// FCO-72H-RESULT says why it has not started, and never "no chamber opinion" on a carta the chamber decided.
#[test]
fn the_chamber_result_deadline_says_why_it_has_not_started() {
    let mut c = carta(FcoActivity::Grains, 2_000_000, 60, 12);
    let note = |c: &fco_carta::Model| {
        let facts = CartaFacts {
            carta: &fco_carta::JudgedCarta::from(c),
            items: &[],
            amendments: &[],
            meeting: None,
            bank_present: None,
            group_exposure: c.financed_amount,
            group_weaned_heads: 0,
            producer_other_pantanal_dams: 0,
            resubmitted_stage: None,
            reformulation: None,
        };
        let dl = fco::deadlines(
            &facts,
            &Params::baseline(),
            &Calendar::national(),
            d(2026, 4, 1),
            Texts::Written,
        )
        .expect("params");
        let r = dl
            .into_iter()
            .find(|o| o.code == "FCO-72H-RESULT")
            .expect("FCO-72H-RESULT");
        (r.status, r.note)
    };
    assert!(note(&c).1.contains("Not decided yet"), "{:?}", note(&c));
    c.decided_by = Some("CHAMBER".into());
    c.decided_on = Some(d(2026, 3, 20));
    let (status, why) = note(&c);
    assert_eq!(status, social_fuel::DeadlineStatus::NotStarted);
    assert!(
        why.contains("The chamber decided on 2026-03-20") && why.contains("no chamber meeting is recorded"),
        "{why}"
    );
    c.decided_by = Some("BANK".into());
    assert!(note(&c).1.contains("Decided by the bank"), "{:?}", note(&c));
}

pub(super) fn project() -> social_fuel_project::Model {
    social_fuel_project::Model {
        id: 1,
        title: "P".into(),
        bank_id: 1,
        party_id: 1,
        plant_municipality_code: 2927408,
        requested_amount: Money::from_reais(1_000_000),
        stage: SocialFuelStage::Filed,
        status: FinancingStatus::InAnalysis,
        bank_framed_on: Some(d(2015, 1, 5)),
        analysed_by_bank: false,
        filed_on: Some(d(2015, 1, 10)),
        decision: None,
        decided_on: None,
        decision_letter: None,
        financing_approved_on: None,
        scheduled_implementation_end: None,
        schedule_delay_accepted: false,
        industrial_start_on: None,
        evaluation_started_on: None,
        external_evaluation_on: None,
        evaluation_result: None,
        seal_requested_on: None,
        extension_requested_on: None,
        extension_justification: None,
        extension_granted_on: None,
        unframed_on: None,
        unframing_reason: None,
        extension_refused_on: None,
        extension_decision_reason: None,
        evaluation_finding: None,
        justifications_accepted_on: None,
        justifications_reason: None,
        created_at: Utc::now(),
        decision_grounds: None,
        decision_signatory: None,
        justifications_filed_on: None,
        justifications_content: None,
        bank_notified_on: None,
        bank_notice_reference: None,
        schedule_presented_on: None,
        delay_bank_accepted_on: None,
        delay_bank_accepted_by: None,
        public_update_on: None,
        public_update_reference: None,
        delay_accepted_on: None,
        original_implementation_end: None,
    }
}

/// Every SF rule on `p` with none of its facts recorded but the project's own row, as of `as_of`.
fn bare_outcomes(p: &social_fuel_project::Model, as_of: NaiveDate) -> Vec<super::Outcome> {
    outcomes_with(p, &[], as_of)
}

/// Every SF rule on `p` with these acquisitions and none of its other facts recorded, as of `as_of`.
pub(super) fn outcomes_with(
    p: &social_fuel_project::Model,
    acquisitions: &[feedstock_acquisition::Model],
    as_of: NaiveDate,
) -> Vec<super::Outcome> {
    let facts = ProjectFacts {
        project: p,
        acquisitions,
        proposals: &[],
        documents: &[],
        plan: None,
        semi_arid: false,
        semi_arid_note: None,
        change_notices: &[],
    };
    social_fuel::check_all(
        &facts,
        &Params::baseline(),
        &Calendar::national(),
        as_of,
        Texts::Written,
    )
    .expect("params")
}

/// One SF rule's status and explanation on `p` as [`bare_outcomes`] judges it.
pub(super) fn bare_outcome(p: &social_fuel_project::Model, as_of: NaiveDate, code: &str) -> (Status, String) {
    bare_outcomes(p, as_of)
        .into_iter()
        .find(|o| o.code == code)
        .map(|o| (o.status, o.explanation.english()))
        .expect("outcome")
}

pub(super) fn proposal(safeguards: Option<&str>, agreed: bool) -> contract_proposal::Model {
    contract_proposal::Model {
        id: 1,
        project_id: 1,
        representation_kind: RepresentationKind::Contag,
        representation_name: "STR".into(),
        term_months: Some(36),
        purchase_price: Some("p".into()),
        price_adjustment: Some("a".into()),
        delivery_conditions: Some("d".into()),
        safeguards: safeguards.map(Into::into),
        representation_agreed: agreed,
        recorded_at: None,
        recorded_by: None,
        superseded_at: None,
        superseded_by: None,
        change_reason: None,
        effective_on: None,
        ended_on: None,
        dated_by: None,
    }
}

pub(super) fn doc(kind: ProjectDocumentKind) -> project_document::Model {
    project_document::Model {
        id: 1,
        project_id: 1,
        kind,
        received_on: d(2015, 1, 8),
        reference: None,
        recorded_at: None,
        recorded_by: None,
        superseded_at: None,
        superseded_by: None,
        change_reason: None,
    }
}

#[test]
fn project_rules_over_documents_proposals_and_the_bank() {
    let six = [
        ProjectDocumentKind::RequestLetter,
        ProjectDocumentKind::BankFramingLetter,
        ProjectDocumentKind::SocialFuelProject,
        ProjectDocumentKind::FarmerContract,
        ProjectDocumentKind::CnpjRegistration,
        ProjectDocumentKind::GoodStandingDeclaration,
    ];
    let all_docs: Vec<_> = six.iter().map(|k| doc(*k)).collect();
    let five_docs: Vec<_> = six[..5].iter().map(|k| doc(*k)).collect();
    let p = project();
    let mut late_bank = project();
    late_bank.bank_framed_on = Some(d(2015, 1, 11));
    let mut draft = project();
    draft.stage = SocialFuelStage::Draft;
    draft.filed_on = None;
    let good = [proposal(Some("s"), true)];
    let no_safeguards = [proposal(None, true)];
    let unagreed = [proposal(Some("s"), false)];
    type Case<'a> = (
        &'a str,
        &'a social_fuel_project::Model,
        &'a [project_document::Model],
        &'a [contract_proposal::Model],
        Status,
        &'a str,
    );
    let cases: Vec<Case> = vec![
        ("SF-DOCUMENTS", &p, &all_docs, &good, Status::Met, "six documents"),
        (
            "SF-DOCUMENTS",
            &p,
            &five_docs,
            &good,
            Status::Violated,
            "filed with five",
        ),
        (
            "SF-DOCUMENTS",
            &draft,
            &five_docs,
            &good,
            Status::Pending,
            "a draft with five",
        ),
        (
            "SF-BANK-FIRST",
            &p,
            &all_docs,
            &good,
            Status::Met,
            "framed before filing",
        ),
        (
            "SF-BANK-FIRST",
            &late_bank,
            &all_docs,
            &good,
            Status::Violated,
            "framed after filing",
        ),
        ("SF-CONTRACT-TERMS", &p, &all_docs, &good, Status::Met, "six terms"),
        (
            "SF-CONTRACT-TERMS",
            &p,
            &all_docs,
            &no_safeguards,
            Status::Violated,
            "no safeguards",
        ),
        (
            "SF-CONTRACT-TERMS",
            &draft,
            &all_docs,
            &no_safeguards,
            Status::Pending,
            "a draft without safeguards",
        ),
        (
            "SF-REPRESENTATION",
            &p,
            &all_docs,
            &good,
            Status::Met,
            "an agreed representation",
        ),
        (
            "SF-REPRESENTATION",
            &p,
            &all_docs,
            &unagreed,
            Status::Violated,
            "no agreed representation",
        ),
        ("SF-REPRESENTATION", &p, &all_docs, &[], Status::Violated, "no proposal"),
    ];
    for (code, project, docs, proposals, expected, why) in cases {
        let facts = ProjectFacts {
            project,
            acquisitions: &[],
            proposals,
            documents: docs,
            plan: None,
            semi_arid: false,
            semi_arid_note: None,
            change_notices: &[],
        };
        let all = social_fuel::check_all(
            &facts,
            &Params::baseline(),
            &Calendar::national(),
            d(2015, 1, 20),
            Texts::Written,
        )
        .expect("params");
        let o = all.iter().find(|o| o.code == code).expect("outcome");
        assert_eq!(o.status, expected, "{code}, {why}: {}", o.explanation);
    }
}

#[test]
fn evaluation_deadline_runs_six_months_or_twelve_with_the_extension() {
    let mut p = project();
    p.stage = SocialFuelStage::Operating;
    p.industrial_start_on = Some(d(2015, 1, 30));
    let dl = social_fuel::deadlines(
        &p,
        &Params::baseline(),
        &Calendar::national(),
        d(2015, 8, 1),
        Texts::Written,
    )
    .expect("params");
    // 30 January + 6 months = 30 July 2015, a Thursday.
    assert_eq!(
        (dl[1].code, dl[1].due, dl[1].status),
        (
            "SF-EXTERNAL-EVAL-6M",
            Some(d(2015, 7, 30)),
            social_fuel::DeadlineStatus::Overdue
        )
    );
    p.extension_requested_on = Some(d(2015, 7, 1));
    p.extension_granted_on = Some(d(2015, 7, 1));
    let dl = social_fuel::deadlines(
        &p,
        &Params::baseline(),
        &Calendar::national(),
        d(2015, 8, 1),
        Texts::Written,
    )
    .expect("params");
    assert_eq!(
        (dl[1].status, dl[1].due),
        (social_fuel::DeadlineStatus::Pending, Some(d(2016, 2, 1))),
        "the extension holds the evaluation open until the 12 months: {}",
        dl[1].note
    );
    assert!(
        !dl[1].note.contains("overdue") && dl[1].note.contains("granted on 2015-07-01"),
        "a pending deadline does not say it is overdue: {}",
        dl[1].note
    );
    // 30 January + 12 months = 30 January 2016, a Saturday: moved to Monday 1 February.
    assert_eq!(
        (dl[3].code, dl[3].due, dl[3].status),
        (
            "SF-EXTENSION-12M",
            Some(d(2016, 2, 1)),
            social_fuel::DeadlineStatus::Pending
        )
    );
}

/// FCO-SIRE-RATIO is beef cattle's (art. 6 I c), over dams without breed registration, counting the producer's own
/// sires shown in the project; FCO-BOAR-RATIO reads the breeding method (art. 8 §5: 20 sows per boar, 100 with AI).
#[test]
fn the_sire_and_boar_ratios_read_the_activity_registration_and_method_the_articles_name() {
    use InvestmentClass::*;
    let mut dam = item(ItemKind::Dam, Some(31), None, Fixed);
    let mut sire = item(ItemKind::Sire, Some(1), None, Fixed);
    let beef = carta(FcoActivity::BeefCattle, 500_000, 60, 12);
    let ratio = |c: &fco_carta::Model, items: &[fco_carta_item::Model]| outcome_of(c, items, 0, "FCO-SIRE-RATIO");
    // Art. 6 I c counts sires "nos padrões destacados no item a": an unregistered sire bought counts for nothing.
    let mut own = beef.clone();
    own.existing_sires = Some(1);
    let (status, why) = ratio(&own, &[dam.clone(), sire.clone()]);
    assert_eq!(status, Status::Violated, "{why}");
    assert!(
        why.contains("1 bought without the registration of art. 6 I a do not count"),
        "{why}"
    );
    sire.registration = Some("LA".into());
    // 31 unregistered dams, 1 registered sire bought: one dam too many...
    let (status, why) = ratio(&beef, &[dam.clone(), sire.clone()]);
    assert_eq!(status, Status::Violated, "{why}");
    // ...unless the project shows a sire of the producer's own.
    let (status, why) = ratio(&own, &[dam.clone(), sire.clone()]);
    assert_eq!(status, Status::Met, "{why}");
    assert!(why.contains("1 the producer's own"), "{why}");
    // Dairy and Pantanal retention have no such ratio.
    for activity in [FcoActivity::DairyCattle, FcoActivity::PantanalDamRetention] {
        let c = carta(activity, 500_000, 60, 12);
        assert_eq!(ratio(&c, &[dam.clone()]).0, Status::NotApplicable, "{activity:?}");
    }
    // Registered dams need no sire ratio.
    dam.registration = Some("PO_RGD".into());
    assert_eq!(ratio(&beef, &[dam]).0, Status::NotApplicable);

    // Art. 8 §5 limits the boars family farmers buy: 1 per 20 sows by natural service, 1 per 100 by AI.
    let sows = item(ItemKind::Sow, Some(150), Some(12), Fixed);
    let boars = item(ItemKind::Boar, Some(2), None, Fixed);
    let mut swine = carta(FcoActivity::Swine, 500_000, 60, 12);
    swine.line = FcoLine::Pronaf;
    let boar = |c: &fco_carta::Model| outcome_of(c, &[sows.clone(), boars.clone()], 0, "FCO-BOAR-RATIO");
    let (status, why) = boar(&swine);
    assert_eq!(status, Status::Met, "natural service read when not stated: {why}");
    assert!(why.contains("does not state artificial insemination"), "{why}");
    swine.artificial_insemination = Some(true);
    let (status, why) = boar(&swine);
    assert_eq!(status, Status::Violated, "150 sows by AI allow 1 boar, not 2: {why}");
    swine.line = FcoLine::Rural;
    assert_eq!(boar(&swine).0, Status::NotApplicable, "not a family farmer's carta");
}

/// FCO-PANTANAL's 2,000 head are per producer (art. 9): the dams on the borrower's other committed Pantanal cartas count.
#[test]
fn pantanal_retention_counts_the_producers_dams_across_its_cartas() {
    use InvestmentClass::*;
    let c = carta(FcoActivity::PantanalDamRetention, 900_000, 96, 48);
    let dams = [item(ItemKind::Dam, Some(1200), None, Fixed)];
    let judge = |others: i64| {
        let facts = CartaFacts {
            carta: &fco_carta::JudgedCarta::from(&c),
            items: &dams,
            amendments: &[],
            meeting: None,
            bank_present: None,
            group_exposure: c.financed_amount,
            group_weaned_heads: 0,
            producer_other_pantanal_dams: others,
            resubmitted_stage: None,
            reformulation: None,
        };
        let all = fco::check_all(
            &facts,
            &Params::baseline(),
            &Calendar::national(),
            d(2026, 4, 1),
            Texts::Written,
        )
        .expect("params");
        let o = all.into_iter().find(|o| o.code == "FCO-PANTANAL").expect("outcome");
        (o.status, o.explanation)
    };
    assert_eq!(judge(0).0, Status::Met, "{:?}", judge(0));
    assert_eq!(judge(800).0, Status::Met, "2,000 head exactly: {:?}", judge(800));
    let (status, why) = judge(801);
    assert_eq!(status, Status::Violated, "{why}");
    assert!(
        why.contains("2001 dams for the producer (1200 on this carta, 801 on its other Pantanal cartas)"),
        "{why}"
    );
}

/// SF-DECISION-30D gives way to the bank's own deadline when a cooperating bank analyses (art. 9 sole §);
/// SF-SEAL-REQUEST-30D shows both readings of its start and says which one its status follows (art. 11 I and §1).
#[test]
fn the_decision_and_seal_deadlines_say_which_article_they_follow() {
    let mut p = project();
    p.filed_on = Some(d(2015, 3, 2));
    p.analysed_by_bank = true;
    let dl = social_fuel::deadlines(
        &p,
        &Params::baseline(),
        &Calendar::national(),
        d(2015, 6, 1),
        Texts::Written,
    )
    .expect("params");
    assert_eq!(
        (dl[0].code, dl[0].status),
        ("SF-DECISION-30D", social_fuel::DeadlineStatus::NotApplicable)
    );
    assert!(dl[0].note.contains("art. 9, sole §"), "{}", dl[0].note);
    p.analysed_by_bank = false;
    let dl = social_fuel::deadlines(
        &p,
        &Params::baseline(),
        &Calendar::national(),
        d(2015, 6, 1),
        Texts::Written,
    )
    .expect("params");
    assert_eq!(
        dl[0].status,
        social_fuel::DeadlineStatus::Overdue,
        "MDA's own 30 days: {}",
        dl[0].note
    );

    p.industrial_start_on = Some(d(2015, 1, 30));
    p.external_evaluation_on = Some(d(2015, 7, 15));
    p.evaluation_result = Some(crate::entities::vocab::Decision::Favourable);
    let dl = social_fuel::deadlines(
        &p,
        &Params::baseline(),
        &Calendar::national(),
        d(2015, 8, 1),
        Texts::Written,
    )
    .expect("params");
    let seal = dl.iter().find(|o| o.code == "SF-SEAL-REQUEST-30D").expect("seal");
    assert_eq!(
        seal.due,
        Some(d(2015, 8, 14)),
        "30 days from the conformity on 15 July: {}",
        seal.note
    );
    assert!(
        seal.note.contains("art. 11 §1") && seal.note.contains("2015-01-30") && seal.note.contains("follows art. 11 I"),
        "{}",
        seal.note
    );
}

/// FCO-SIRE-PEDIGREE: beef cattle's sires need PO with the definitive RGD (art. 6 I a); dairy's PO without it will do
/// (art. 7 I a).
#[test]
fn a_dairy_sire_may_be_po_without_rgd_and_a_beef_sire_may_not() {
    use InvestmentClass::*;
    let mut sire = item(ItemKind::Sire, Some(2), None, Fixed);
    sire.registration = Some("PO".into());
    let dairy = carta(FcoActivity::DairyCattle, 500_000, 60, 12);
    let beef = carta(FcoActivity::BeefCattle, 500_000, 60, 12);
    let (status, why) = outcome_of(&dairy, std::slice::from_ref(&sire), 0, "FCO-SIRE-PEDIGREE");
    assert_eq!(status, Status::Met, "{why}");
    let (status, why) = outcome_of(&beef, std::slice::from_ref(&sire), 0, "FCO-SIRE-PEDIGREE");
    assert_eq!(status, Status::Violated, "{why}");
    assert!(why.contains("PO with RGD"), "{why}");
    sire.registration = Some("PO_RGD".into());
    assert_eq!(outcome_of(&beef, &[sire], 0, "FCO-SIRE-PEDIGREE").0, Status::Met);
}

/// IN MDA nº 2/2005 judges a project filed up to its revocation on 24 May 2021 (the day before, the day itself), not
/// one filed the day after, nor a draft looked at after it; nor one filed before it took effect on 30 September 2005.
#[test]
fn the_social_fuel_rules_are_in_force_between_the_instruments_dates() {
    let judge = |filed: Option<NaiveDate>, as_of: NaiveDate| {
        let mut p = project();
        p.filed_on = filed;
        let dl = social_fuel::deadlines(&p, &Params::baseline(), &Calendar::national(), as_of, Texts::Written)
            .expect("params");
        (bare_outcomes(&p, as_of), dl)
    };
    let na = |(all, dl): &(Vec<super::Outcome>, Vec<social_fuel::DeadlineOutcome>)| {
        all.iter().all(|o| o.status == Status::NotApplicable)
            && dl
                .iter()
                .all(|d| d.status == social_fuel::DeadlineStatus::NotApplicable)
    };
    for (filed, revoked) in [
        (d(2021, 5, 23), false),
        (d(2021, 5, 24), false),
        (d(2021, 5, 25), true),
        (d(2005, 9, 29), true),
        (d(2005, 9, 30), false),
    ] {
        let judged = judge(Some(filed), filed + chrono::Days::new(5));
        assert_eq!(na(&judged), revoked, "filed on {filed}: {:?}", judged.0.first());
        let sf_codes = super::RULES
            .iter()
            .filter(|r| r.code.as_str().starts_with("SF-"))
            .count();
        if revoked {
            assert_eq!(judged.0.len(), sf_codes, "every SF rule answers");
        }
    }
    let (all, _) = judge(Some(d(2021, 5, 25)), d(2021, 6, 1));
    assert!(
        all[0].explanation.contains("revoked by Portaria n° 142, de 24/05/2021"),
        "{}",
        all[0].explanation
    );
    // A draft is judged on the day asked.
    assert!(!na(&judge(None, d(2021, 5, 24))));
    assert!(na(&judge(None, d(2021, 5, 25))));
}

/// The articles DOMAIN.md listed without a rule (issue 16, point 10), each judged where its article applies: art. 17 I
/// by one centavo either side of half the budget, art. 6 §7 by whether the carta states the insemination method, art.
/// 14 by who decided a special demand, and the checklist items by activity, line and items.
#[test]
fn the_articles_added_to_the_catalogue_apply_where_their_article_does() {
    use InvestmentClass::*;
    let priced = |kind: ItemKind, class: InvestmentClass, cents: i64| {
        let mut i = item(kind, None, None, class);
        i.value = Money(cents);
        i
    };
    // Half the budget in investment is not predominance; one centavo more is.
    let half = [
        priced(ItemKind::Machine, Fixed, 50_000),
        priced(ItemKind::OperatingExpense, Operating, 50_000),
    ];
    let machinery = carta(FcoActivity::Machinery, 1000, 60, 12);
    let (status, why) = outcome_of(&machinery, &half, 0, "FCO-PREDOMINANCE");
    assert_eq!(status, Status::Met, "art. 17 I classifies and refuses nothing: {why}");
    assert!(
        why.starts_with("operating credit") && why.contains("(50 %)") && why.contains("art. 16"),
        "{why}"
    );
    let more = [
        priced(ItemKind::Machine, Fixed, 50_001),
        priced(ItemKind::OperatingExpense, Operating, 50_000),
    ];
    let (status, why) = outcome_of(&machinery, &more, 0, "FCO-PREDOMINANCE");
    assert_eq!(status, Status::Met, "{why}");
    assert!(why.starts_with("investment credit"), "{why}");
    // Operating costs predominating are operating credit, in any activity.
    let fish = carta(FcoActivity::FishFarming, 1000, 24, 6);
    assert_eq!(outcome_of(&fish, &half, 0, "FCO-PREDOMINANCE").0, Status::Met);
    assert_eq!(outcome_of(&fish, &[], 0, "FCO-PREDOMINANCE").0, Status::Pending);

    // Genetic improvement of cattle needs the insemination information; other activities do not.
    let mut beef = carta(FcoActivity::BeefCattle, 1000, 60, 12);
    let sire = [item(ItemKind::Sire, Some(2), Some(24), SemiFixed)];
    assert_eq!(outcome_of(&beef, &sire, 0, "FCO-IA-INFO").0, Status::Pending);
    beef.artificial_insemination = Some(false);
    let (status, why) = outcome_of(&beef, &sire, 0, "FCO-IA-INFO");
    assert_eq!((status, why.contains("natural service")), (Status::Met, true), "{why}");
    assert_eq!(outcome_of(&machinery, &[], 0, "FCO-IA-INFO").0, Status::NotApplicable);

    // A special demand is the chamber's whatever its amount.
    let mut special = carta(FcoActivity::Grains, 300_000, 24, 6);
    assert_eq!(
        outcome_of(&special, &[], 0, "FCO-SPECIAL-DEMAND").0,
        Status::NotApplicable
    );
    special.special_demand = true;
    assert_eq!(outcome_of(&special, &[], 0, "FCO-SPECIAL-DEMAND").0, Status::Pending);
    special.decided_by = Some("CHAMBER".into());
    assert_eq!(outcome_of(&special, &[], 0, "FCO-SPECIAL-DEMAND").0, Status::Met);
    let (status, why) = outcome_of(&special, &[], 0, "FCO-CHAMBER-THRESHOLD");
    assert_eq!(
        (status, why.contains("special demand (art. 14)")),
        (Status::Met, true),
        "{why}"
    );
    special.decided_by = Some("BANK".into());
    assert_eq!(outcome_of(&special, &[], 0, "FCO-SPECIAL-DEMAND").0, Status::Violated);

    // Checklist items where their article applies, NOT_APPLICABLE (saying so) elsewhere.
    let pasture = [item(ItemKind::Pasture, None, None, Fixed)];
    for (code, c, items, expected) in [
        (
            "FCO-PASTURE-SOIL",
            carta(FcoActivity::BeefCattle, 1000, 60, 12),
            &pasture[..],
            Status::Pending,
        ),
        (
            "FCO-PASTURE-SOIL",
            carta(FcoActivity::BeefCattle, 1000, 60, 12),
            &[][..],
            Status::NotApplicable,
        ),
        (
            "FCO-PANTANAL-PLAIN",
            carta(FcoActivity::PantanalDamRetention, 1000, 96, 48),
            &[][..],
            Status::Pending,
        ),
        (
            "FCO-PANTANAL-PLAIN",
            carta(FcoActivity::BeefCattle, 1000, 60, 12),
            &[][..],
            Status::NotApplicable,
        ),
        (
            "FCO-SWINE-ELIGIBLE",
            carta(FcoActivity::SowRetention, 1000, 36, 24),
            &[][..],
            Status::Pending,
        ),
        (
            "FCO-SWINE-ELIGIBLE",
            carta(FcoActivity::Swine, 1000, 60, 12),
            &[][..],
            Status::NotApplicable,
        ),
        (
            "FCO-SWINE-REPORT",
            carta(FcoActivity::Swine, 1000, 60, 12),
            &[][..],
            Status::Pending,
        ),
        (
            "FCO-SMALL-ANIMALS",
            carta(FcoActivity::SmallAnimals, 1000, 60, 12),
            &[][..],
            Status::Pending,
        ),
        (
            "FCO-SMALL-ANIMALS",
            carta(FcoActivity::Grains, 1000, 60, 12),
            &[][..],
            Status::NotApplicable,
        ),
        (
            "FCO-SEED-MAPA",
            carta(FcoActivity::Forestry, 1000, 60, 12),
            &[][..],
            Status::Pending,
        ),
        (
            "FCO-SEED-MAPA",
            carta(FcoActivity::PerennialCrops, 1000, 60, 12),
            &[][..],
            Status::NotApplicable,
        ),
        (
            "FCO-GLOBAL-ASSISTANCE",
            carta(FcoActivity::Grains, 15_000_000, 60, 12),
            &[][..],
            Status::NotApplicable,
        ),
        (
            "FCO-GLOBAL-ASSISTANCE",
            carta(FcoActivity::Grains, 15_000_001, 60, 12),
            &[][..],
            Status::Pending,
        ),
    ] {
        let (status, why) = outcome_of(&c, items, 0, code);
        assert_eq!(status, expected, "{code} on {:?}: {why}", c.activity);
    }
    // Family-farm swine: the Pronaf line only.
    let mut pronaf = carta(FcoActivity::Swine, 1000, 60, 12);
    assert_eq!(outcome_of(&pronaf, &[], 0, "FCO-SWINE-FAMILY").0, Status::NotApplicable);
    pronaf.line = FcoLine::Pronaf;
    assert_eq!(outcome_of(&pronaf, &[], 0, "FCO-SWINE-FAMILY").0, Status::Pending);
}

/// Issue 42, item 3: with a granted extension, SF-EXTERNAL-EVAL-6M and SF-EXTENSION-12M judge the evaluation against
/// the same day (12 months from the start) before and after the conclusion; a start later than the scheduled
/// implementation end does not move the deadline the schedule set running; a delay accepted (art. 10 §2) moves the
/// schedule's end, and so the deadline.
#[test]
fn the_evaluation_deadline_and_the_extension_agree_and_a_late_start_moves_nothing() {
    let both = |p: &social_fuel_project::Model, as_of: NaiveDate| {
        let dl = social_fuel::deadlines(p, &Params::baseline(), &Calendar::national(), as_of, Texts::Written)
            .expect("params");
        (
            (dl[1].code, dl[1].due, dl[1].status),
            (dl[3].code, dl[3].due, dl[3].status),
            dl[1].note.clone(),
        )
    };
    use social_fuel::DeadlineStatus as D;
    let mut p = project();
    p.industrial_start_on = Some(d(2015, 1, 30));
    p.extension_requested_on = Some(d(2015, 7, 1));
    p.extension_granted_on = Some(d(2015, 7, 10));
    // Concluded 167 days after the 6 months, within the 12: met by both, and on the last day too.
    for (concluded, expected) in [
        (d(2016, 1, 13), D::Met),
        (d(2016, 2, 1), D::Met),
        (d(2016, 2, 2), D::Overdue),
    ] {
        p.external_evaluation_on = Some(concluded);
        let (eval, ext, note) = both(&p, d(2016, 3, 1));
        assert_eq!(
            (eval, ext),
            (
                ("SF-EXTERNAL-EVAL-6M", Some(d(2016, 2, 1)), expected),
                ("SF-EXTENSION-12M", Some(d(2016, 2, 1)), expected)
            ),
            "concluded {concluded}: {note}"
        );
        assert!(
            note.contains("ended on 2015-07-30") && note.contains("art. 11 §2"),
            "{note}"
        );
    }
    // Scheduled to end on 30 June, started on 15 July, no delay accepted: 6 months from 30 June (30 December), not
    // from 15 July; on 31 December, overdue.
    let mut q = project();
    q.scheduled_implementation_end = Some(d(2015, 6, 30));
    q.industrial_start_on = Some(d(2015, 7, 15));
    let (eval, _, note) = both(&q, d(2015, 12, 31));
    assert_eq!(
        eval,
        ("SF-EXTERNAL-EVAL-6M", Some(d(2015, 12, 30)), D::Overdue),
        "{note}"
    );
    assert!(note.contains("whichever comes first"), "{note}");
    let (eval, _, _) = both(&q, d(2015, 12, 30));
    assert_eq!(eval.2, D::Pending, "the last day is still in time");
    // A delay accepted (art. 10 §2) is recorded as the schedule's new end, which is then read.
    q.schedule_delay_accepted = true;
    q.scheduled_implementation_end = Some(d(2015, 7, 31));
    let (eval, _, note) = both(&q, d(2015, 12, 31));
    assert_eq!(
        eval,
        ("SF-EXTERNAL-EVAL-6M", Some(d(2016, 1, 15)), D::Pending),
        "{note}"
    );
}

/// Issue 42, item 4: a deadline of IN MDA nº 2/2005 falling after its revocation (24 May 2021) is not applicable,
/// saying why; one due on that day still binds; an act done while it was in force stands.
#[test]
fn a_deadline_falling_after_the_revocation_is_not_applicable() {
    use social_fuel::DeadlineStatus as D;
    let at = |filed: NaiveDate, decided: Option<NaiveDate>| {
        let mut p = project();
        p.filed_on = Some(filed);
        p.decided_on = decided;
        let dl = social_fuel::deadlines(
            &p,
            &Params::baseline(),
            &Calendar::national(),
            d(2026, 12, 6),
            Texts::Written,
        )
        .expect("params");
        (dl[0].due, dl[0].status, dl[0].note.clone())
    };
    // Filed 23 April 2021: 30 days end on Sunday 23 May, moved to Monday 24 May, the last day in force.
    let (due, status, note) = at(d(2021, 4, 23), None);
    assert_eq!((due, status), (Some(d(2021, 5, 24)), D::Overdue), "{note}");
    let (due, status, note) = at(d(2021, 4, 26), None);
    assert_eq!((due, status), (Some(d(2021, 5, 26)), D::NotApplicable), "{note}");
    assert!(
        note.contains("Portaria n° 142, de 24/05/2021") && note.contains("2021-05-26") && !note.contains("MDA nº 142"),
        "{note}"
    );
    let (_, status, note) = at(d(2021, 4, 26), Some(d(2021, 5, 20)));
    assert_eq!(status, D::Met, "decided while in force: {note}");
}

/// Issue 42, item 5: the partial readings, each with its article.
#[test]
fn the_assistance_plan_the_change_notices_and_the_non_conformity_letter_are_read_whole() {
    use crate::entities::{assistance_plan, vocab::CompanyChangeKind};
    let mut p = project();
    let plan = |outsourced: bool, staff: Option<&str>, contract: Option<&str>| assistance_plan::Model {
        id: 1,
        project_id: 1,
        staff_description: staff.map(Into::into),
        outsourced,
        outsourcing_contract: contract.map(Into::into),
        coverage_area: Some("Bahia".into()),
        farmers_assisted: Some(300),
        methodology: Some("visitas".into()),
        confirmed_by: None,
        confirmed_at: None,
        recorded_at: None,
        recorded_by: None,
        superseded_at: None,
        superseded_by: None,
        change_reason: None,
        effective_on: None,
        ended_on: None,
        dated_by: None,
    };
    // Art. 2 and 6: none once filed is violated; an outsourced plan needs the staff (I) and the contract (II).
    assert_eq!(
        social_fuel::check_plan(&p, None, Texts::Written).status,
        Status::Violated
    );
    let cases = [
        (plan(false, Some("2 agrônomos"), None), Status::Pending, ""),
        (plan(false, None, None), Status::Violated, "staff"),
        (plan(true, None, Some("Contrato 4/2015")), Status::Violated, "staff"),
        (
            plan(true, Some("2 agrônomos"), None),
            Status::Violated,
            "outsourcing contract",
        ),
        (
            plan(true, Some("2 agrônomos"), Some("Contrato 4/2015")),
            Status::Pending,
            "",
        ),
    ];
    for (plan, expected, names) in cases {
        let o = social_fuel::check_plan(&p, Some(&plan), Texts::Written);
        assert_eq!(o.status, expected, "{}", o.explanation);
        assert!(
            o.explanation.contains(names) && o.explanation.contains("art. 6"),
            "{}",
            o.explanation
        );
    }
    p.filed_on = None;
    assert_eq!(
        social_fuel::check_plan(&p, None, Texts::Written).status,
        Status::Pending,
        "not filed yet"
    );
    // Art. 12: an industrial start is owed its notice.
    assert_eq!(
        social_fuel::check_changes(&p, &[], Texts::Written).status,
        Status::NotApplicable
    );
    p.industrial_start_on = Some(d(2015, 6, 1));
    let o = social_fuel::check_changes(&p, &[CompanyChangeKind::CorporateName], Texts::Written);
    assert!(
        o.status == Status::Pending && o.explanation.contains("art. 12"),
        "{}",
        o.explanation
    );
    let o = social_fuel::check_changes(&p, &[CompanyChangeKind::ActivityStart], Texts::Written);
    assert_eq!(o.status, Status::Met, "{}", o.explanation);
    // Art. 9 II: a non-conformity letter states its grounds.
    p.decided_on = Some(d(2015, 2, 5));
    p.decision = Some(crate::entities::vocab::Decision::Unfavourable);
    p.decision_letter = Some("Ofício 9/2015".into());
    let o = social_fuel::check_decision_letter(&p, Texts::Written);
    assert!(
        o.status == Status::Violated && o.explanation.contains("art. 9 II"),
        "{}",
        o.explanation
    );
    p.decision_grounds = Some("participação de 4 %".into());
    p.decision_signatory = Some("Secretário de Agricultura Familiar".into());
    let o = social_fuel::check_decision_letter(&p, Texts::Written);
    assert!(
        o.status == Status::Met && o.explanation.contains("participação de 4 %") && o.explanation.contains("signed by"),
        "{}",
        o.explanation
    );
}

/// Art. 9 I–II: a decision without its letter is a violation the rule shows (the lifecycle refuses it now; older rows
/// may lack it); art. 2 is a checklist item.
#[test]
fn the_decision_letter_and_the_brazilian_company_are_judged() {
    let mut p = project();
    p.filed_on = Some(d(2015, 1, 10));
    let judge = |p: &social_fuel_project::Model, code: &str| bare_outcome(p, d(2015, 3, 1), code);
    assert_eq!(judge(&p, "SF-DECISION-LETTER").0, Status::Pending);
    assert_eq!(judge(&p, "SF-COMPANY-BR").0, Status::Pending);
    p.decided_on = Some(d(2015, 2, 5));
    p.decision = Some(crate::entities::vocab::Decision::Favourable);
    assert_eq!(judge(&p, "SF-DECISION-LETTER").0, Status::Violated);
    p.decision_letter = Some("Ofício 12/2015/MDA".into());
    let (status, why) = judge(&p, "SF-DECISION-LETTER");
    assert_eq!(
        (status, why.contains("Ofício 12/2015/MDA") && why.contains("conformity")),
        (Status::Met, true),
        "{why}"
    );
}

/// SF-SCHEDULE (art. 10 §1–2): the industrial start the approved project scheduled is the criteria's deadline; a start
/// after it, or none by then, is a violation unless the delay was accepted (by the bank, then MDA).
#[test]
fn a_schedule_delay_counts_only_once_accepted() {
    let judge = |p: &social_fuel_project::Model, as_of: NaiveDate| bare_outcome(p, as_of, "SF-SCHEDULE");
    let mut p = project();
    p.scheduled_implementation_end = Some(d(2015, 6, 30));
    // The day of the scheduled end, not started: still pending; the day after, late.
    assert_eq!(judge(&p, d(2015, 6, 30)).0, Status::Pending);
    let (status, why) = judge(&p, d(2015, 7, 1));
    assert_eq!(status, Status::Violated, "{why}");
    assert!(
        why.contains("not started by the scheduled 2015-06-30") && why.contains("art. 10 §2"),
        "{why}"
    );
    // MDA's acceptance alone does not count (art. 10 §2: only once the bank accepted the delay); the bank's alone
    // neither; both, from the day the bank accepted.
    p.schedule_delay_accepted = true;
    let (status, why) = judge(&p, d(2015, 7, 1));
    assert_eq!(
        (status, why.contains("without the bank's")),
        (Status::Violated, true),
        "{why}"
    );
    p.delay_bank_accepted_on = Some(d(2015, 7, 1));
    p.delay_bank_accepted_by = Some("superintendência regional".into());
    let (status, why) = judge(&p, d(2015, 7, 1));
    assert_eq!(
        (
            status,
            why.contains("the bank accepted the delay on 2015-07-01 (superintendência regional) and MDA accepted it")
        ),
        (Status::Pending, true),
        "{why}"
    );
    p.schedule_delay_accepted = false;
    let (status, why) = judge(&p, d(2015, 7, 1));
    assert_eq!(
        (status, why.contains("MDA has not accepted it")),
        (Status::Violated, true),
        "{why}"
    );
    p.delay_bank_accepted_on = None;
    p.industrial_start_on = Some(d(2015, 7, 15));
    let (_, why) = judge(&p, d(2015, 8, 1));
    assert!(
        why.contains("started on 2015-07-15, after the scheduled 2015-06-30; no delay was accepted"),
        "{why}"
    );
}

/// Judged without texts (the flag job's first look at each carta), a carta's outcomes and deadlines are those judged
/// with texts but for their texts, which are not written; judged with texts again afterwards, an outcome explains.
#[test]
fn a_judgement_without_texts_equals_the_one_with_texts_but_for_them() {
    use crate::rules::Texts;
    let approved = approved_by_chamber(
        FcoActivity::BeefCattle,
        2_000_000,
        d(2026, 1, 10),
        FcoCartaStage::Approved,
    );
    let mut by_bank = carta(FcoActivity::Grains, 800_000, 300, 200);
    by_bank.decided_by = Some("BANK".into());
    by_bank.approved_on = Some(d(2025, 1, 10));
    by_bank.contracted_on = Some(d(2025, 9, 10));
    let over = carta(FcoActivity::Machinery, 16_000_000, 60, 12);
    let items = [
        item(ItemKind::Dam, Some(300), Some(30), InvestmentClass::SemiFixed),
        item(ItemKind::WeanedCalf, Some(2500), Some(8), InvestmentClass::SemiFixed),
        item(ItemKind::Pasture, None, None, InvestmentClass::Operating),
    ];
    let (mut violations, mut with_texts) = (0, Vec::new());
    for (c, items) in [(&approved, &items[..]), (&by_bank, &[][..]), (&over, &items[2..])] {
        let facts = CartaFacts {
            carta: &fco_carta::JudgedCarta::from(c),
            items,
            amendments: &[],
            meeting: None,
            bank_present: None,
            group_exposure: c.financed_amount,
            group_weaned_heads: 2500,
            producer_other_pantanal_dams: 0,
            resubmitted_stage: None,
            reformulation: None,
        };
        let judge =
            |t| fco::check_all_and_deadlines(&facts, &Params::baseline(), &Calendar::national(), d(2026, 6, 1), t);
        let (hushed, hushed_deadlines) = judge(Texts::Skipped).expect("params");
        let (loud, loud_deadlines) = judge(Texts::Written).expect("params");
        violations += loud.iter().filter(|o| o.status == Status::Violated).count();
        assert!(loud.iter().all(|o| !o.explanation.is_empty()));
        assert_eq!(loud.len(), hushed.len());
        for (l, h) in loud.iter().zip(&hushed) {
            assert_eq!(
                (l.code, l.status, l.legal_basis, l.kind),
                (h.code, h.status, h.legal_basis, h.kind)
            );
            // A formatted text is not written; a fixed sentence may stay.
            assert!(
                h.explanation.is_empty() || h.explanation == l.explanation,
                "{}: {}",
                h.code,
                h.explanation
            );
        }
        let unwritten = hushed.iter().filter(|o| o.explanation.is_empty()).count();
        assert!(
            unwritten * 2 > hushed.len(),
            "most texts are not written: {unwritten} of {}",
            hushed.len()
        );
        assert_eq!(loud_deadlines.len(), hushed_deadlines.len());
        for (l, h) in loud_deadlines.iter().zip(&hushed_deadlines) {
            assert_eq!(
                (l.code, l.status, l.due, l.due_at, l.done),
                (h.code, h.status, h.due, h.due_at, h.done)
            );
            assert!(!l.note.is_empty());
        }
        with_texts.push(loud_deadlines);
    }
    assert!(violations > 0, "the cases break rules, whose explanations are compared");
    // The approved carta's 120 days are counted, with their note, when texts are asked for.
    let dl = &with_texts[0];
    let validity = dl.iter().find(|x| x.code == "FCO-VALIDITY-120D").expect("validity");
    assert!(
        validity.due.is_some() && validity.note.contains("120 days"),
        "{}",
        validity.note
    );
}

/// A carta as known on a day is borrowed when no act of it is dated later, and is then the carta itself; with any act
/// dated later (the presentation included) it is a copy without those acts.
#[test]
fn a_carta_known_on_a_day_is_borrowed_only_when_nothing_is_dated_later() {
    use std::borrow::Cow;
    let mut c = approved_by_chamber(
        FcoActivity::Grains,
        2_000_000,
        d(2026, 3, 20),
        FcoCartaStage::Contracted,
    );
    c.presented_on = Some(d(2026, 4, 10));
    c.contracted_on = Some(d(2026, 5, 5));
    let c = fco_carta::JudgedCarta::from(&c);
    for (day, stage) in [
        (d(2026, 3, 1), FcoCartaStage::Draft),
        (d(2026, 3, 20), FcoCartaStage::Approved),
        (d(2026, 4, 9), FcoCartaStage::Approved),
        (d(2026, 4, 10), FcoCartaStage::Approved),
        (d(2026, 5, 4), FcoCartaStage::Approved),
        (d(2026, 5, 5), FcoCartaStage::Contracted),
        (d(2027, 1, 1), FcoCartaStage::Contracted),
    ] {
        let known = c.known_on(&[], &[], day);
        assert_eq!(known.stage, stage, "{day}");
        assert_eq!(known.stage, c.acts().stage_on(day), "{day}");
        assert_eq!(matches!(known, Cow::Borrowed(_)), day >= d(2026, 5, 5), "{day}");
    }
    // Presented later than the day, nothing else: the copy, without the presentation.
    assert_eq!(c.known_on(&[], &[], d(2026, 4, 9)).presented_on, None);
}

/// An amendment that needs a new approval closes the carta's cycle and opens one submitted that day (art. 15): a day
/// before it reads the closed cycle (approved, presented and contracted at its amount, on its meeting), the day
/// itself and after the open one (submitted, the new amount, nothing of the closed cycle left on it).
#[test]
fn a_day_before_a_reopening_reads_the_cycle_it_closed() {
    use crate::entities::fco_carta_cycle;
    use crate::rules::lifecycle::{FcoEvent, apply_fco};
    let mut c = approved_by_chamber(
        FcoActivity::Grains,
        2_400_000,
        d(2025, 7, 10),
        FcoCartaStage::Contracted,
    );
    c.submitted_on = Some(d(2025, 7, 1));
    c.chamber_meeting_id = Some(7);
    c.decision = Some(Decision::Favourable);
    c.presented_on = Some(d(2025, 7, 20));
    c.contracted_on = Some(d(2025, 7, 25));
    c.contracted_amount = Some(Money::from_reais(2_400_000));
    c.status = c.stage.status();
    let reopened_on = d(2025, 9, 1);
    let closed = fco_carta_cycle::Model {
        id: 1,
        carta_id: c.id,
        number: 1,
        financed_amount: c.financed_amount,
        stage: c.stage,
        submitted_on: c.submitted_on,
        received_by_council_at: c.received_by_council_at,
        chamber_meeting_id: c.chamber_meeting_id,
        decision: c.decision,
        decided_by: c.decided_by.clone(),
        decided_on: c.decided_on,
        approved_on: c.approved_on,
        presented_on: c.presented_on,
        contracted_on: c.contracted_on,
        contracted_amount: c.contracted_amount,
        closed_on: reopened_on,
        closed_by_amendment_id: 1,
        recorded_at: None,
    };
    let event = FcoEvent::Reopen {
        on: reopened_on,
        amount: Some(Money::from_reais(2_664_000)),
    };
    let open = apply_fco(&c, &event, &Params::default(), &Calendar::default()).expect("reopened");
    assert_eq!(
        (open.stage, open.submitted_on, open.financed_amount),
        (
            FcoCartaStage::Submitted,
            Some(reopened_on),
            Money::from_reais(2_664_000)
        )
    );
    let cleared = (
        open.chamber_meeting_id,
        open.decision,
        open.approved_on,
        open.presented_on,
        open.contracted_on,
        open.contracted_amount,
    );
    assert_eq!(cleared, (None, None, None, None, None, None), "a new cycle starts bare");
    let closed = [closed];
    let open = fco_carta::JudgedCarta::from(&open);
    let then = open.known_on(&closed, &[], d(2025, 7, 30));
    assert_eq!(*then, fco_carta::JudgedCarta::from(&c), "the closed cycle, as it stood");
    let before_contract = open.known_on(&closed, &[], d(2025, 7, 24));
    assert_eq!(
        (
            before_contract.stage,
            before_contract.contracted_on,
            before_contract.presented_on
        ),
        (FcoCartaStage::Approved, None, Some(d(2025, 7, 20)))
    );
    for day in [reopened_on, d(2025, 12, 31)] {
        let now = open.known_on(&closed, &[], day);
        assert_eq!(
            (now.stage, now.financed_amount),
            (FcoCartaStage::Submitted, Money::from_reais(2_664_000)),
            "{day}"
        );
    }
    assert!(open.in_earlier_cycle_on(d(2025, 8, 31)) && !open.in_earlier_cycle_on(reopened_on));
    // The narrow form a group's book keeps counts the same amount on each day.
    let committed = fco_carta::Committed {
        id: open.id,
        party_id: open.party_id,
        activity: open.activity,
        financed_amount: open.financed_amount,
        acts: open.acts(),
        earlier: closed.to_vec(),
    };
    assert_eq!(
        committed.committed_on(d(2025, 7, 30)),
        Some(Money::from_reais(2_400_000))
    );
    assert_eq!(committed.committed_on(d(2025, 7, 9)), None, "not yet approved");
    assert_eq!(committed.committed_on(reopened_on), None, "submitted again");
}
