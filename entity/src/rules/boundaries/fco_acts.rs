//! Boundary cases of the FCO acts (issue 42): the conditions put before contracting (art. 6 §7, 7 §6, 8 §2, 10 sole
//! §), the amendments art. 15 exempts, the day an approval lapses (art. 3 sole §) and the 72 hours from the CPACR's
//! opinion (art. 3). One case on each side of each boundary.

use super::super::{
    Outcome, RuleCode, Status, Texts,
    calendar::Calendar,
    code,
    fco::{self, CartaFacts},
    params::Params,
    rule_tables::{approved_by_chamber, carta, item},
    social_fuel::DeadlineStatus,
};
use crate::{
    domain::Money,
    entities::{chamber_meeting, fco_carta, fco_carta_item, vocab::*},
};
use chrono::{Duration, NaiveDate, TimeZone, Utc};

/// The rule codes these cases pin.
pub(super) fn covered() -> Vec<&'static str> {
    vec![
        code::FCO_IA_INFO.as_str(),
        code::FCO_GTA.as_str(),
        code::FCO_SMALL_ANIMALS.as_str(),
        code::FCO_AMENDMENT.as_str(),
        code::FCO_VALIDITY_120D.as_str(),
        code::FCO_72H_RESULT.as_str(),
    ]
}

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).expect("date")
}

fn facts<'a>(
    c: &'a fco_carta::JudgedCarta,
    items: &'a [fco_carta_item::Model],
    meeting: Option<&'a chamber_meeting::Model>,
) -> CartaFacts<'a> {
    CartaFacts {
        carta: c,
        items,
        amendments: &[],
        meeting,
        bank_present: meeting.map(|_| true),
        group_exposure: c.financed_amount,
        group_weaned_heads: 0,
        producer_other_pantanal_dams: 0,
        resubmitted_stage: None,
        reformulation: None,
    }
}

fn outcomes(c: &fco_carta::Model, items: &[fco_carta_item::Model]) -> Vec<Outcome> {
    fco::check_all(
        &facts(&fco_carta::JudgedCarta::from(c), items, None),
        &Params::baseline(),
        &Calendar::national(),
        d(2026, 4, 1),
        Texts::Written,
    )
    .expect("params")
}

fn status(all: &[Outcome], code: RuleCode) -> Status {
    all.iter().find(|o| o.code == code.as_str()).expect("outcome").status
}

/// Each condition on contracting: unmet while pending, met once its fact is there; a contracted carta with it unmet
/// is VIOLATED (flagged), an approved one not yet contracted stays pending.
#[test]
fn a_condition_on_contracting_is_unmet_until_its_fact_is_there_and_violated_once_contracted() {
    let on = d(2026, 3, 20);
    let cases: [(FcoActivity, Vec<fco_carta_item::Model>, RuleCode, &str); 3] = [
        (
            FcoActivity::BeefCattle,
            vec![item(ItemKind::Sire, Some(2), None, InvestmentClass::SemiFixed)],
            code::FCO_IA_INFO,
            "art. 6, §7",
        ),
        (FcoActivity::Swine, vec![], code::FCO_GTA, "art. 8, §2"),
        (
            FcoActivity::SmallAnimals,
            vec![],
            code::FCO_SMALL_ANIMALS,
            "art. 10, sole §",
        ),
    ];
    for (activity, items, rule, article) in cases {
        let mut c = approved_by_chamber(activity, 1_500_000, on, FcoCartaStage::Approved);
        let mut all = outcomes(&c, &items);
        let unmet = fco::unmet_contract_conditions(activity, &all);
        assert_eq!(unmet.len(), 1, "{rule}: {unmet:?}");
        assert_eq!(unmet[0].0.code.as_str(), rule.as_str());
        assert!(unmet[0].0.article.contains(article), "{}", unmet[0].0.article);
        // Not contracted: pending, no flag.
        fco::contracted_over_conditions(&fco_carta::JudgedCarta::from(&c), &mut all);
        assert_eq!(status(&all, rule), Status::Pending, "{rule}");
        // The other side: the fact is there (stated, or the checklist item confirmed).
        let mut met = all.clone();
        if rule == code::FCO_IA_INFO {
            c.artificial_insemination = Some(false);
            met = outcomes(&c, &items);
        } else if let Some(o) = met.iter_mut().find(|o| o.code == rule.as_str()) {
            o.status = Status::Met;
        }
        assert!(fco::unmet_contract_conditions(activity, &met).is_empty(), "{rule}");
        // Contracted with it unmet: VIOLATED, naming the contract's day and the article.
        let mut contracted = approved_by_chamber(activity, 1_500_000, on, FcoCartaStage::Contracted);
        contracted.contracted_on = Some(on + Duration::days(10));
        let mut after = outcomes(&contracted, &items);
        fco::contracted_over_conditions(&fco_carta::JudgedCarta::from(&contracted), &mut after);
        let o = after.iter().find(|o| o.code == rule.as_str()).expect("outcome");
        assert_eq!(o.status, Status::Violated, "{rule}");
        assert!(
            o.explanation.contains("2026-03-30") && o.explanation.contains(article),
            "{}",
            o.explanation
        );
        // Contracted with it met: stays met.
        fco::contracted_over_conditions(&fco_carta::JudgedCarta::from(&contracted), &mut met);
        assert_eq!(status(&met, rule), Status::Met, "{rule}");
    }
    // Cattle's GTA conditions the *release*, not the contract (art. 6 §3): no condition on contracting.
    let beef = approved_by_chamber(FcoActivity::BeefCattle, 1_500_000, on, FcoCartaStage::Approved);
    assert!(fco::unmet_contract_conditions(FcoActivity::BeefCattle, &outcomes(&beef, &[])).is_empty());
}

fn needs(kind: AmendmentKind, approved: i64, old: i64, new: i64) -> (bool, String) {
    fco::amendment_needs_approval(
        kind,
        Money(approved),
        Some(Money(old)),
        Some(Money(new)),
        None,
        &Params::baseline(),
        d(2026, 4, 1),
        Texts::Written,
    )
    .map(|(n, why)| (n, why.english()))
    .expect("params")
}

/// Art. 15 a with art. 2 §3: an increase within 10 % that keeps a bank-approved carta below R$ 1,000,000.00 is exempt;
/// one that reaches it goes to the chamber.
#[test]
fn an_exempt_increase_stops_at_the_chamber_threshold() {
    let base = 95_000_000; // R$ 950,000.00, approved by the bank
    let (below, why) = needs(AmendmentKind::ValueIncrease, base, base, 99_999_999);
    assert!(!below, "{why}");
    let (at, why) = needs(AmendmentKind::ValueIncrease, base, base, 100_000_000);
    assert!(at, "{why}");
    assert!(why.contains("art. 2 §3"), "{why}");
    // Approved by the chamber at or above it: the 10 % alone.
    let (chamber, why) = needs(AmendmentKind::ValueIncrease, 120_000_000, 120_000_000, 132_000_000);
    assert!(!chamber, "{why}");
}

/// Art. 15 b with c, d, e: a swap, a change of municipality or of size that lowers the value is exempt; one that
/// raises it is an increase, exempt up to 10 %.
#[test]
fn a_swap_or_municipality_change_that_moves_the_value_is_judged_by_the_move() {
    for kind in [
        AmendmentKind::ItemSwap,
        AmendmentKind::MunicipalityChange,
        AmendmentKind::ProducerSizeChange,
    ] {
        let (lower, why) = needs(kind, 10_000_000, 10_000_000, 9_999_999);
        assert!(!lower, "{kind:?}: {why}");
        assert!(why.contains("art. 15 b"), "{why}");
        let (within, why) = needs(kind, 10_000_000, 10_000_000, 11_000_000);
        assert!(!within, "{kind:?}: {why}");
        let (over, why) = needs(kind, 10_000_000, 10_000_000, 11_000_001);
        assert!(over, "{kind:?}: {why}");
    }
}

/// Art. 15 d: a change of municipality is exempt only when the properties of the new municipality are listed in the
/// carta; listed, it is judged by its value alone; not listed, or not stated, it needs a new approval.
#[test]
fn a_change_of_municipality_is_exempt_only_with_its_properties_listed() {
    let judged = |listed: Option<bool>, new: i64| {
        fco::amendment_judged(
            AmendmentKind::MunicipalityChange,
            listed,
            Money(10_000_000),
            Some(Money(10_000_000)),
            Some(Money(new)),
            None,
            &Params::baseline(),
            d(2026, 4, 1),
            Texts::Written,
        )
        .expect("params")
    };
    let (listed, why) = judged(Some(true), 10_000_000);
    assert!(!listed, "{why}");
    let (listed_lower, why) = judged(Some(true), 9_000_000);
    assert!(!listed_lower, "{why}");
    for unlisted in [Some(false), None] {
        let (needs, why) = judged(unlisted, 10_000_000);
        assert!(needs, "{unlisted:?}: {why}");
        assert!(why.contains("art. 15 d"), "{why}");
        // A lower value does not lift the condition of (d).
        assert!(judged(unlisted, 9_000_000).0, "{unlisted:?}");
    }
    // The condition is (d)'s only: a swap needs no statement about properties.
    let (swap, why) = fco::amendment_judged(
        AmendmentKind::ItemSwap,
        None,
        Money(10_000_000),
        Some(Money(10_000_000)),
        Some(Money(10_000_000)),
        None,
        &Params::baseline(),
        d(2026, 4, 1),
        Texts::Written,
    )
    .expect("params");
    assert!(!swap, "{why}");
}

/// Art. 3 sole §: the carta reads APPROVED up to the last day of its 120 days and EXPIRED from the day they lapsed,
/// whenever the job recorded it.
#[test]
fn an_approval_reads_expired_from_the_day_it_lapsed() {
    let approved = d(2026, 3, 20);
    let due = fco::validity_end(approved, &Params::baseline(), &Calendar::national())
        .expect("params")
        .due;
    let lapsed = due + Duration::days(1);
    let mut c = approved_by_chamber(FcoActivity::Grains, 1_500_000, approved, FcoCartaStage::Expired);
    c.expired_on = Some(lapsed);
    let c = fco_carta::JudgedCarta::from(&c);
    assert_eq!(c.known_on(&[], &[], due).stage, FcoCartaStage::Approved);
    assert_eq!(c.acts().stage_on(due), FcoCartaStage::Approved);
    assert_eq!(c.known_on(&[], &[], lapsed).stage, FcoCartaStage::Expired);
    assert_eq!(c.acts().stage_on(lapsed), FcoCartaStage::Expired);
    assert_eq!(c.known_on(&[], &[], lapsed).expired_on, Some(lapsed));
}

/// Art. 3: the result report is due 72 hours after the CPACR's opinion when it is recorded, else after the meeting's
/// start.
#[test]
fn the_result_report_counts_72_hours_from_the_opinion() {
    let starts = Utc.with_ymd_and_hms(2026, 3, 10, 13, 0, 0).single().expect("ts");
    let opinion = starts + Duration::hours(5);
    let mut c = carta(FcoActivity::Grains, 2_000_000, 24, 6);
    c.decided_by = Some("CHAMBER".into());
    let judge = |opinion_at: Option<chrono::DateTime<Utc>>, sent: chrono::DateTime<Utc>| {
        let m = chamber_meeting::Model {
            id: 1,
            starts_at: starts,
            results_sent_at: Some(sent),
            notes: None,
            opinion_at,
            opinion_reference: opinion_at.map(|_| "Ata 3/2026".to_owned()),
        };
        let dl = fco::deadlines(
            &facts(&fco_carta::JudgedCarta::from(&c), &[], Some(&m)),
            &Params::baseline(),
            &Calendar::national(),
            d(2026, 4, 1),
            Texts::Written,
        )
        .expect("params");
        let r = dl.into_iter().find(|o| o.code == "FCO-72H-RESULT").expect("outcome");
        (r.status, r.note)
    };
    let (met, note) = judge(Some(opinion), opinion + Duration::hours(72));
    assert_eq!(met, DeadlineStatus::Met, "{note}");
    assert!(note.contains("Ata 3/2026"), "{note}");
    let (late, note) = judge(Some(opinion), opinion + Duration::hours(72) + Duration::seconds(1));
    assert_eq!(late, DeadlineStatus::Overdue, "{note}");
    // No opinion recorded: from the meeting's start.
    let (met, note) = judge(None, starts + Duration::hours(72));
    assert_eq!(met, DeadlineStatus::Met, "{note}");
    let (late, note) = judge(None, starts + Duration::hours(72) + Duration::seconds(1));
    assert_eq!(late, DeadlineStatus::Overdue, "{note}");
}
