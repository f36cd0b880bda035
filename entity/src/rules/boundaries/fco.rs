//! Boundary cases of every FCO rule code (IN CDAE/MT 2019): each rule's pure function (or, for the rules judged only
//! over a whole carta, [`fco::check_all`] and [`fco::deadlines`]) evaluated just inside and just outside its boundary.
//!
//! Size: one boundary table per FCO rule code; its length is data.

use crate::{
    domain::{Money, Quantity},
    entities::{
        chamber_meeting, fco_carta, fco_carta_item,
        vocab::{AmendmentKind, FcoActivity, FcoCartaStage, FcoLine, InvestmentClass, ItemKind},
    },
    rules::{
        Status, Texts,
        calendar::Calendar,
        fco::{self, CartaFacts, SentReport},
        params::Params,
        rule_tables::{approved_by_chamber, carta, d, item, on_line},
        social_fuel::DeadlineStatus,
    },
};
use chrono::{DateTime, Duration, TimeZone, Utc};
use std::collections::BTreeMap;

/// What a rule answered: a status, a deadline's status, an item's class, or whether an amendment needs approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Judged {
    Rule(Status),
    Deadline(DeadlineStatus),
    Class(InvestmentClass),
    NeedsApproval(bool),
    ConditionsContracting(bool),
    InvestmentCredit(Option<bool>),
}

/// One boundary case: a rule code, the case, what the rule answered and what the text warrants.
struct Case {
    code: &'static str,
    case: &'static str,
    got: Judged,
    expected: Judged,
}

fn case(code: &'static str, case: &'static str, got: Judged, expected: Judged) -> Case {
    Case {
        code,
        case,
        got,
        expected,
    }
}

fn p() -> Params {
    Params::baseline()
}

/// The facts of a carta beyond the carta and its items, defaulting to none.
#[derive(Default)]
struct Around {
    meeting: Option<chamber_meeting::Model>,
    bank_present: Option<bool>,
    group_exposure: Option<Money>,
    group_weaned_heads: i64,
    resubmitted_stage: Option<FcoCartaStage>,
    reformulation: Option<fco::Reformulation>,
}

/// The status `code` has among every rule of the programme on `c` with `items`, as of 1 April 2026.
fn judge(c: &fco_carta::Model, items: &[fco_carta_item::Model], around: &Around, code: &str) -> Judged {
    let facts = CartaFacts {
        carta: &fco_carta::JudgedCarta::from(c),
        items,
        amendments: &[],
        meeting: around.meeting.as_ref(),
        bank_present: around.bank_present,
        group_exposure: around.group_exposure.unwrap_or(c.financed_amount),
        producer_other_pantanal_dams: 0,
        group_weaned_heads: around.group_weaned_heads,
        resubmitted_stage: around.resubmitted_stage,
        reformulation: around.reformulation.as_ref(),
    };
    let all = fco::check_all(&facts, &p(), &Calendar::national(), d(2026, 4, 1), Texts::Written).expect("params");
    Judged::Rule(
        all.into_iter()
            .find(|o| o.code == code)
            .map(|o| o.status)
            .expect("outcome"),
    )
}

/// The status of `code` on a bare carta of `activity` on `line` with `items` (checklist items, activity and line).
fn judge_carta(activity: FcoActivity, line: FcoLine, items: &[fco_carta_item::Model], code: &str) -> Judged {
    judge(
        &on_line(line, carta(activity, 500_000, 36, 12)),
        items,
        &Around::default(),
        code,
    )
}

/// The status of deadline `code` as of `as_of`.
fn deadline(
    c: &fco_carta::Model,
    meeting: Option<&chamber_meeting::Model>,
    as_of: chrono::NaiveDate,
    code: &str,
) -> Judged {
    let facts = CartaFacts {
        carta: &fco_carta::JudgedCarta::from(c),
        items: &[],
        amendments: &[],
        meeting,
        bank_present: Some(true),
        group_exposure: c.financed_amount,
        producer_other_pantanal_dams: 0,
        group_weaned_heads: 0,
        resubmitted_stage: None,
        reformulation: None,
    };
    let all = fco::deadlines(&facts, &p(), &Calendar::national(), as_of, Texts::Written).expect("params");
    Judged::Deadline(
        all.into_iter()
            .find(|o| o.code == code)
            .map(|o| o.status)
            .expect("deadline"),
    )
}

fn at(y: i32, m: u32, day: u32, h: u32, min: u32, s: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(y, m, day, h, min, s).single().expect("instant")
}

fn meeting(results_sent_at: Option<DateTime<Utc>>) -> chamber_meeting::Model {
    chamber_meeting::Model {
        id: 1,
        starts_at: at(2026, 3, 10, 13, 0, 0),
        results_sent_at,
        notes: None,
        opinion_at: None,
        opinion_reference: None,
    }
}

fn heads(kind: ItemKind, n: i32, class: InvestmentClass) -> fco_carta_item::Model {
    item(kind, Some(n), None, class)
}

fn registered(mut i: fco_carta_item::Model, registration: &str) -> fco_carta_item::Model {
    i.registration = Some(registration.into());
    i
}

fn with_life(kind: ItemKind, life: Option<i32>, class: InvestmentClass) -> fco_carta_item::Model {
    let mut i = item(kind, None, None, class);
    i.useful_life_years = life;
    i
}

/// The boundary cases of every FCO rule code.
fn cases() -> Vec<Case> {
    use InvestmentClass::{Fixed, Operating, SemiFixed};
    use Judged::{Deadline as D, Rule as R};
    use Status::{Met, NotApplicable, Pending, Violated};
    let on = d(2026, 3, 2);
    let mut out = Vec::new();

    // FCO-CHAMBER-THRESHOLD (art. 2 §3): the bank decides below R$ 1,000,000.00, the chamber from it.
    let mut bank = carta(FcoActivity::Grains, 0, 24, 6);
    bank.decided_by = Some("BANK".into());
    bank.financed_amount = Money(99_999_999);
    let below = judge(&bank, &[], &Around::default(), "FCO-CHAMBER-THRESHOLD");
    bank.financed_amount = Money(100_000_000);
    let at_threshold = judge(&bank, &[], &Around::default(), "FCO-CHAMBER-THRESHOLD");
    out.push(case(
        "FCO-CHAMBER-THRESHOLD",
        "R$ 999.999,99 decided by the bank",
        below,
        R(Met),
    ));
    out.push(case(
        "FCO-CHAMBER-THRESHOLD",
        "R$ 1.000.000,00 decided by the bank",
        at_threshold,
        R(Violated),
    ));

    // FCO-BB-60D (art. 2 §1): 60 days after the report of 20 Oct 2026 end on Saturday 19 Dec, moved to Monday 21st.
    let cal = Calendar::national();
    let bb =
        |as_of| D(fco::bank_deadlines(true, &[], &[d(2026, 10, 20)], &p(), &cal, as_of).expect("params")[0].status);
    out.push(case(
        "FCO-BB-60D",
        "on the moved day 60",
        bb(d(2026, 12, 21)),
        D(DeadlineStatus::Pending),
    ));
    out.push(case(
        "FCO-BB-60D",
        "the day after it",
        bb(d(2026, 12, 22)),
        D(DeadlineStatus::Overdue),
    ));

    // FCO-TEMPLATE (art. 2 §2): the 90 days after publication on 20 Mar 2019 end on 18 Jun 2019.
    let template = |s| R(fco::template(s, &p(), Texts::Written).expect("params").status);
    out.push(case(
        "FCO-TEMPLATE",
        "submitted on day 90",
        template(d(2019, 6, 18)),
        R(NotApplicable),
    ));
    out.push(case(
        "FCO-TEMPLATE",
        "submitted on day 91",
        template(d(2019, 6, 19)),
        R(Pending),
    ));

    // FCO-MONTHLY-LIST (art. 2 §5): October 2026's list is due by Monday 30 November.
    let list = |received| {
        let sent = [SentReport {
            month: d(2026, 10, 1),
            received_on: received,
        }];
        D(fco::bank_deadlines(false, &sent, &[], &p(), &cal, d(2026, 12, 2)).expect("params")[0].status)
    };
    out.push(case(
        "FCO-MONTHLY-LIST",
        "received on 30 Nov",
        list(d(2026, 11, 30)),
        D(DeadlineStatus::Met),
    ));
    out.push(case(
        "FCO-MONTHLY-LIST",
        "received on 1 Dec",
        list(d(2026, 12, 1)),
        D(DeadlineStatus::Overdue),
    ));

    // FCO-ATTENDANCE (art. 2 §6): the bank present or absent at the meeting.
    let grains = carta(FcoActivity::Grains, 2_000_000, 24, 6);
    let attendance = |present| {
        let around = Around {
            meeting: Some(meeting(None)),
            bank_present: Some(present),
            ..Around::default()
        };
        judge(&grains, &[], &around, "FCO-ATTENDANCE")
    };
    out.push(case("FCO-ATTENDANCE", "bank present", attendance(true), R(Met)));
    out.push(case("FCO-ATTENDANCE", "bank absent", attendance(false), R(Violated)));

    // FCO-72H-BEFORE (art. 2 §7): received by SEDEC exactly 72 hours before the meeting, or a second later.
    let m = meeting(None);
    let before = |received| {
        let mut c = grains.clone();
        c.received_by_council_at = Some(received);
        deadline(&c, Some(&m), d(2026, 3, 20), "FCO-72H-BEFORE")
    };
    out.push(case(
        "FCO-72H-BEFORE",
        "72 hours before",
        before(at(2026, 3, 7, 13, 0, 0)),
        D(DeadlineStatus::Met),
    ));
    out.push(case(
        "FCO-72H-BEFORE",
        "71:59:59 before",
        before(at(2026, 3, 7, 13, 0, 1)),
        D(DeadlineStatus::Overdue),
    ));

    // FCO-72H-RESULT (art. 3): the result sent within 72 hours, or a second later.
    let mut decided = grains.clone();
    decided.decided_by = Some("CHAMBER".into());
    let result = |sent| deadline(&decided, Some(&meeting(Some(sent))), d(2026, 3, 20), "FCO-72H-RESULT");
    out.push(case(
        "FCO-72H-RESULT",
        "72 hours after",
        result(at(2026, 3, 13, 13, 0, 0)),
        D(DeadlineStatus::Met),
    ));
    out.push(case(
        "FCO-72H-RESULT",
        "72 hours and a second",
        result(at(2026, 3, 13, 13, 0, 1)),
        D(DeadlineStatus::Overdue),
    ));

    // FCO-RESUBMIT (art. 3 sole §): only an unfavourable carta is resubmitted.
    let mut again = grains.clone();
    again.resubmission_of = Some(7);
    let resubmit = |stage| {
        let around = Around {
            resubmitted_stage: Some(stage),
            ..Around::default()
        };
        judge(&again, &[], &around, "FCO-RESUBMIT")
    };
    out.push(case(
        "FCO-RESUBMIT",
        "of an unfavourable carta",
        resubmit(FcoCartaStage::Unfavourable),
        R(Met),
    ));
    out.push(case(
        "FCO-RESUBMIT",
        "of an approved carta",
        resubmit(FcoCartaStage::Approved),
        R(Violated),
    ));
    // Reformulated (art. 3 sole §): it changes something the opinion judged. The original lists one building; a
    // resubmission with the same value and item is not reformulated, one a centavo lower is, and one listing no items
    // states no project.
    let building = [item(ItemKind::Building, None, None, InvestmentClass::Fixed)];
    let reformulated = |c: &fco_carta::Model, items: &[fco_carta_item::Model]| {
        let around = Around {
            resubmitted_stage: Some(FcoCartaStage::Unfavourable),
            reformulation: Some(fco::reformulation(
                &grains,
                &building,
                &fco_carta::JudgedCarta::from(c),
                items,
            )),
            ..Around::default()
        };
        judge(c, items, &around, "FCO-RESUBMIT")
    };
    let mut reworded = building.clone();
    reworded[0].description = "curral, reescrito".into();
    out.push(case(
        "FCO-RESUBMIT",
        "the same value and items, reworded",
        reformulated(&again, &reworded),
        R(Violated),
    ));
    let mut lower = again.clone();
    lower.financed_amount = Money(lower.financed_amount.cents() - 1);
    out.push(case(
        "FCO-RESUBMIT",
        "a centavo lower, same items",
        reformulated(&lower, &building),
        R(Met),
    ));
    out.push(case(
        "FCO-RESUBMIT",
        "lower value, no items listed",
        reformulated(&lower, &[]),
        R(Violated),
    ));
    let mut more = building.clone();
    more[0].quantity = Quantity(more[0].quantity.0 + 1);
    out.push(case(
        "FCO-RESUBMIT",
        "the same value, one item's quantity up",
        reformulated(&again, &more),
        R(Met),
    ));

    // FCO-VALIDITY-120D (art. 3 sole §): approved on Monday 2 Mar 2026, day 120 is Tuesday 30 Jun 2026.
    let validity = |presented| {
        let mut c = approved_by_chamber(FcoActivity::Grains, 2_000_000, d(2026, 3, 2), FcoCartaStage::Approved);
        c.presented_on = Some(presented);
        deadline(&c, None, d(2026, 7, 10), "FCO-VALIDITY-120D")
    };
    out.push(case(
        "FCO-VALIDITY-120D",
        "presented on day 120",
        validity(d(2026, 6, 30)),
        D(DeadlineStatus::Met),
    ));
    out.push(case(
        "FCO-VALIDITY-120D",
        "presented on day 121",
        validity(d(2026, 7, 1)),
        D(DeadlineStatus::Overdue),
    ));

    // FCO-CEILING (art. 4): exactly R$ 15,000,000.00 for the group, or a centavo more.
    let ceiling = |cents| {
        R(fco::ceiling(Money(cents), &p(), on, Texts::Written)
            .expect("params")
            .status)
    };
    out.push(case("FCO-CEILING", "R$ 15.000.000,00", ceiling(1_500_000_000), R(Met)));
    out.push(case(
        "FCO-CEILING",
        "R$ 15.000.000,01",
        ceiling(1_500_000_001),
        R(Violated),
    ));

    // FCO-GLOBAL-ASSISTANCE (art. 4): an exception is asked for only over the ceiling.
    let global = |cents| {
        let around = Around {
            group_exposure: Some(Money(cents)),
            ..Around::default()
        };
        judge(&grains, &[], &around, "FCO-GLOBAL-ASSISTANCE")
    };
    out.push(case(
        "FCO-GLOBAL-ASSISTANCE",
        "the group at the ceiling",
        global(1_500_000_000),
        R(NotApplicable),
    ));
    out.push(case(
        "FCO-GLOBAL-ASSISTANCE",
        "a centavo over it",
        global(1_500_000_001),
        R(Pending),
    ));

    // Checklist items: pending where their article names the activity or line, not applicable just outside it.
    let checklist: [(&str, FcoActivity, FcoLine, FcoActivity, FcoLine); 11] = {
        use FcoActivity as A;
        use FcoLine::{Pronaf, Rural, Verde};
        [
            ("FCO-SEED-ORIGIN", A::PerennialCrops, Rural, A::Grains, Rural),
            ("FCO-GTA", A::Swine, Rural, A::Machinery, Rural),
            ("FCO-PROFESSIONAL", A::BeefCattle, Rural, A::Swine, Rural),
            ("FCO-SWINE-ORIGIN", A::SowRetention, Rural, A::BeefCattle, Rural),
            ("FCO-SWINE-ELIGIBLE", A::SowRetention, Rural, A::Swine, Rural),
            ("FCO-SWINE-FAMILY", A::Swine, Pronaf, A::Swine, Rural),
            ("FCO-SWINE-REPORT", A::Swine, Rural, A::DairyCattle, Rural),
            (
                "FCO-PANTANAL-PLAIN",
                A::PantanalDamRetention,
                Rural,
                A::BeefCattle,
                Rural,
            ),
            ("FCO-SMALL-ANIMALS", A::SmallAnimals, Rural, A::Swine, Rural),
            ("FCO-GREEN", A::Forestry, Verde, A::Forestry, Rural),
            ("FCO-SEED-MAPA", A::Forestry, Rural, A::PerennialCrops, Rural),
        ]
    };
    for (code, inside, inside_line, outside, outside_line) in checklist {
        out.push(case(
            code,
            "the activity or line its article names",
            judge_carta(inside, inside_line, &[], code),
            R(Pending),
        ));
        out.push(case(
            code,
            "the nearest one it does not",
            judge_carta(outside, outside_line, &[], code),
            R(NotApplicable),
        ));
    }
    // FCO-GTA's reading: the swine project's INDEA/MT registration conditions the contract (art. 8 §2), beef's GTA the
    // release only (art. 6 §3).
    out.push(case(
        "FCO-GTA",
        "swine: contracting conditioned",
        Judged::ConditionsContracting(fco::gta_conditions_contracting(FcoActivity::Swine)),
        Judged::ConditionsContracting(true),
    ));
    out.push(case(
        "FCO-GTA",
        "beef cattle: the release only",
        Judged::ConditionsContracting(fco::gta_conditions_contracting(FcoActivity::BeefCattle)),
        Judged::ConditionsContracting(false),
    ));

    // FCO-SIRE-PEDIGREE (art. 6 I a): a beef sire PO with the definitive RGD, or PO without it.
    let beef = carta(FcoActivity::BeefCattle, 500_000, 60, 12);
    let pedigree = |reg| {
        judge(
            &beef,
            &[registered(heads(ItemKind::Sire, 1, SemiFixed), reg)],
            &Around::default(),
            "FCO-SIRE-PEDIGREE",
        )
    };
    out.push(case("FCO-SIRE-PEDIGREE", "PO with RGD", pedigree("PO_RGD"), R(Met)));
    out.push(case("FCO-SIRE-PEDIGREE", "PO without RGD", pedigree("PO"), R(Violated)));

    // FCO-SIRE-RATIO (art. 6 I c): 30 or 31 unregistered dams for one registered sire; an unregistered sire counts none.
    let ratio = |dams, reg| {
        let items = [
            heads(ItemKind::Dam, dams, SemiFixed),
            registered(heads(ItemKind::Sire, 1, SemiFixed), reg),
        ];
        judge(&beef, &items, &Around::default(), "FCO-SIRE-RATIO")
    };
    out.push(case(
        "FCO-SIRE-RATIO",
        "30 dams, 1 registered sire",
        ratio(30, "PO_RGD"),
        R(Met),
    ));
    out.push(case(
        "FCO-SIRE-RATIO",
        "31 dams, 1 registered sire",
        ratio(31, "PO_RGD"),
        R(Violated),
    ));
    out.push(case(
        "FCO-SIRE-RATIO",
        "30 dams, 1 sire without the registration",
        ratio(30, "NONE"),
        R(Violated),
    ));

    // FCO-PASTURE-SOIL (art. 6 II a, art. 12): a pasture among the items, or none.
    out.push(case(
        "FCO-PASTURE-SOIL",
        "a pasture",
        judge(
            &beef,
            &[item(ItemKind::Pasture, None, None, Fixed)],
            &Around::default(),
            "FCO-PASTURE-SOIL",
        ),
        R(Pending),
    ));
    out.push(case(
        "FCO-PASTURE-SOIL",
        "no pasture",
        judge(
            &beef,
            &[item(ItemKind::Machine, None, None, SemiFixed)],
            &Around::default(),
            "FCO-PASTURE-SOIL",
        ),
        R(NotApplicable),
    ));

    // FCO-WEANED-2000 (art. 6 §1): 2,000 weaned head across the group, or 2,001.
    let weaned = carta(FcoActivity::WeanedCattleFinishing, 500_000, 24, 6);
    let calves = [heads(ItemKind::WeanedCalf, 1000, Operating)];
    let group = |n| {
        let around = Around {
            group_weaned_heads: n,
            ..Around::default()
        };
        judge(&weaned, &calves, &around, "FCO-WEANED-2000")
    };
    out.push(case("FCO-WEANED-2000", "2,000 head", group(2000), R(Met)));
    out.push(case("FCO-WEANED-2000", "2,001 head", group(2001), R(Violated)));

    // FCO-IA-INFO (art. 6 §7, art. 7 §6): semen bought for beef cattle, with and without the insemination information.
    let mut semen_carta = beef.clone();
    let semen = [item(ItemKind::GeneticInput, None, None, SemiFixed)];
    out.push(case(
        "FCO-IA-INFO",
        "semen, information missing",
        judge(&semen_carta, &semen, &Around::default(), "FCO-IA-INFO"),
        R(Pending),
    ));
    semen_carta.artificial_insemination = Some(true);
    out.push(case(
        "FCO-IA-INFO",
        "semen, information stated",
        judge(&semen_carta, &semen, &Around::default(), "FCO-IA-INFO"),
        R(Met),
    ));

    // FCO-SWINE-RETENTION (art. 8 §3): sows of exactly 6 and 40 months, or one month outside; term 36 or 37 months;
    // grace 24 or 25; a sow of no stated age.
    let born = d(2020, 1, 15);
    let age = |on| R(fco::sow_age(born, on, &p(), Texts::Written).expect("params").status);
    out.push(case(
        "FCO-SWINE-RETENTION",
        "a day short of 6 months",
        age(d(2020, 7, 14)),
        R(Violated),
    ));
    out.push(case(
        "FCO-SWINE-RETENTION",
        "exactly 6 months",
        age(d(2020, 7, 15)),
        R(Met),
    ));
    out.push(case(
        "FCO-SWINE-RETENTION",
        "exactly 40 months",
        age(d(2023, 5, 15)),
        R(Met),
    ));
    out.push(case(
        "FCO-SWINE-RETENTION",
        "a day past 40 months",
        age(d(2023, 5, 16)),
        R(Violated),
    ));
    let retention = |term, grace, ages: &[Option<i32>]| {
        let items: Vec<_> = ages
            .iter()
            .map(|a| item(ItemKind::Sow, Some(10), *a, Operating))
            .collect();
        judge(
            &carta(FcoActivity::SowRetention, 300_000, term, grace),
            &items,
            &Around::default(),
            "FCO-SWINE-RETENTION",
        )
    };
    out.push(case(
        "FCO-SWINE-RETENTION",
        "sows of 6 and 40 months",
        retention(36, 24, &[Some(6), Some(40)]),
        R(Met),
    ));
    out.push(case(
        "FCO-SWINE-RETENTION",
        "a sow of 5 months",
        retention(36, 24, &[Some(5)]),
        R(Violated),
    ));
    out.push(case(
        "FCO-SWINE-RETENTION",
        "a sow of 41 months",
        retention(36, 24, &[Some(41)]),
        R(Violated),
    ));
    out.push(case(
        "FCO-SWINE-RETENTION",
        "a sow of no stated age",
        retention(36, 24, &[Some(20), None]),
        R(Pending),
    ));
    out.push(case(
        "FCO-SWINE-RETENTION",
        "a term of 37 months",
        retention(37, 24, &[Some(20)]),
        R(Violated),
    ));
    out.push(case(
        "FCO-SWINE-RETENTION",
        "25 months of grace",
        retention(36, 25, &[Some(20)]),
        R(Violated),
    ));

    // FCO-BOAR-RATIO (art. 8 §5): a family farmer's boar for 20 or 19 sows (100 or 99 with AI).
    let boar = |sows, ai| {
        R(fco::boar_ratio(sows, 1, ai, &p(), on, Texts::Written)
            .expect("params")
            .status)
    };
    out.push(case("FCO-BOAR-RATIO", "1 boar, 20 sows", boar(20, false), R(Met)));
    out.push(case("FCO-BOAR-RATIO", "1 boar, 19 sows", boar(19, false), R(Violated)));
    out.push(case(
        "FCO-BOAR-RATIO",
        "1 boar, 100 sows by AI",
        boar(100, true),
        R(Met),
    ));
    out.push(case(
        "FCO-BOAR-RATIO",
        "1 boar, 99 sows by AI",
        boar(99, true),
        R(Violated),
    ));
    let herd = [heads(ItemKind::Sow, 19, SemiFixed), heads(ItemKind::Boar, 1, SemiFixed)];
    out.push(case(
        "FCO-BOAR-RATIO",
        "not a family farmer's carta",
        judge_carta(FcoActivity::Swine, FcoLine::Rural, &herd, "FCO-BOAR-RATIO"),
        R(NotApplicable),
    ));

    // FCO-PANTANAL (art. 9): 2,000 dams, or 2,001; a term of 96 months, or 97.
    let pantanal = |term, dams| {
        judge(
            &carta(FcoActivity::PantanalDamRetention, 900_000, term, 48),
            &[heads(ItemKind::Dam, dams, SemiFixed)],
            &Around::default(),
            "FCO-PANTANAL",
        )
    };
    out.push(case(
        "FCO-PANTANAL",
        "2,000 dams over 96 months",
        pantanal(96, 2000),
        R(Met),
    ));
    out.push(case("FCO-PANTANAL", "2,001 dams", pantanal(96, 2001), R(Violated)));
    out.push(case(
        "FCO-PANTANAL",
        "a term of 97 months",
        pantanal(97, 100),
        R(Violated),
    ));

    // FCO-USED-MACHINE (art. 11): made in 2022, financed on 1 Jan 2026 (48 months) or a day later.
    let used = |financed| {
        R(fco::used_machine(Some(2022), financed, on, &p(), Texts::Written)
            .expect("params")
            .status)
    };
    out.push(case(
        "FCO-USED-MACHINE",
        "48 months of use",
        used(d(2026, 1, 1)),
        R(Met),
    ));
    out.push(case("FCO-USED-MACHINE", "a day more", used(d(2026, 1, 2)), R(Violated)));

    // FCO-SPECIAL-DEMAND (art. 14): a special demand the chamber or the bank decided.
    let special = |by: &str| {
        let mut c = carta(FcoActivity::Grains, 500_000, 24, 6);
        c.special_demand = true;
        c.decided_by = Some(by.into());
        judge(&c, &[], &Around::default(), "FCO-SPECIAL-DEMAND")
    };
    out.push(case(
        "FCO-SPECIAL-DEMAND",
        "decided by the chamber",
        special("CHAMBER"),
        R(Met),
    ));
    out.push(case(
        "FCO-SPECIAL-DEMAND",
        "decided by the bank",
        special("BANK"),
        R(Violated),
    ));

    // FCO-AMENDMENT (art. 15 a): +10 % of the approved value, or a centavo more.
    let increase = |new| {
        let old = Money::from_reais(100_000);
        let (needs, _) = fco::amendment_needs_approval(
            AmendmentKind::ValueIncrease,
            old,
            Some(old),
            Some(Money(new)),
            None,
            &p(),
            on,
            Texts::Written,
        )
        .expect("params");
        Judged::NeedsApproval(needs)
    };
    out.push(case(
        "FCO-AMENDMENT",
        "+10.00 %",
        increase(11_000_000),
        Judged::NeedsApproval(false),
    ));
    out.push(case(
        "FCO-AMENDMENT",
        "+10 % and a centavo",
        increase(11_000_001),
        Judged::NeedsApproval(true),
    ));

    // FCO-OPERATING-ONLY (art. 16): stand-alone operating credit for fish farming, or for grains.
    let costs = [item(ItemKind::OperatingExpense, None, None, Operating)];
    let only = |a| judge_carta(a, FcoLine::Rural, &costs, "FCO-OPERATING-ONLY");
    out.push(case(
        "FCO-OPERATING-ONLY",
        "fish farming",
        only(FcoActivity::FishFarming),
        R(Met),
    ));
    out.push(case(
        "FCO-OPERATING-ONLY",
        "grains",
        only(FcoActivity::Grains),
        R(Violated),
    ));

    // FCO-CLASSIFY (art. 17 II b, III b): machines and installations of 5 years' life are semi-fixed, of 6 fixed; an
    // art. 16 activity's operating exception covers only the item art. 16 names.
    let class = |kind, life| Judged::Class(fco::classify(kind, life, &p(), on).expect("params"));
    out.push(case(
        "FCO-CLASSIFY",
        "a machine of 5 years",
        class(ItemKind::Machine, Some(5)),
        Judged::Class(SemiFixed),
    ));
    out.push(case(
        "FCO-CLASSIFY",
        "a machine of 6 years",
        class(ItemKind::Machine, Some(6)),
        Judged::Class(Fixed),
    ));
    out.push(case(
        "FCO-CLASSIFY",
        "an installation of 5 years",
        class(ItemKind::Building, Some(5)),
        Judged::Class(SemiFixed),
    ));
    out.push(case(
        "FCO-CLASSIFY",
        "an installation of 6 years",
        class(ItemKind::Building, Some(6)),
        Judged::Class(Fixed),
    ));
    let fish = |i| judge_carta(FcoActivity::FishFarming, FcoLine::Rural, &[i], "FCO-CLASSIFY");
    out.push(case(
        "FCO-CLASSIFY",
        "fish farming's fish stock as operating",
        fish(item(ItemKind::OtherAnimal, Some(1000), None, Operating)),
        R(Met),
    ));
    out.push(case(
        "FCO-CLASSIFY",
        "fish farming's machine as operating",
        fish(with_life(ItemKind::Machine, Some(10), Operating)),
        R(Violated),
    ));

    // FCO-PREDOMINANCE (art. 17 I): investment credit when investments are more than half the budget.
    let credit = |invest, total| Judged::InvestmentCredit(fco::is_investment_credit(Money(invest), Money(total)));
    out.push(case(
        "FCO-PREDOMINANCE",
        "a centavo over half",
        credit(50_001, 100_001),
        Judged::InvestmentCredit(Some(true)),
    ));
    out.push(case(
        "FCO-PREDOMINANCE",
        "exactly half",
        credit(50_000, 100_000),
        Judged::InvestmentCredit(Some(false)),
    ));
    out.push(case(
        "FCO-PREDOMINANCE",
        "operating credit is classed, not refused",
        R(fco::predominance(Money(50_000), Money(100_000), Texts::Written).status),
        R(Met),
    ));

    out
}

/// The FCO rule codes whose cases pin both sides of their boundary (at least two different answers).
pub(super) fn covered() -> Vec<&'static str> {
    let mut answers: BTreeMap<&'static str, Vec<Judged>> = BTreeMap::new();
    for c in cases() {
        let seen = answers.entry(c.code).or_default();
        if !seen.contains(&c.expected) {
            seen.push(c.expected);
        }
    }
    answers
        .into_iter()
        .filter(|(_, answers)| answers.len() >= 2)
        .map(|(code, _)| code)
        .collect()
}

#[test]
fn every_fco_rule_answers_as_the_text_warrants_on_each_side_of_its_boundary() {
    let wrong: Vec<String> = cases()
        .into_iter()
        .filter(|c| c.got != c.expected)
        .map(|c| format!("{} ({}): got {:?}, expected {:?}", c.code, c.case, c.got, c.expected))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_boundary_dates_are_the_ones_the_cases_name() {
    // 20 Mar 2019 + 90 days, and 2 Mar 2026 + 120 days, on the calendars the rules count.
    assert_eq!(d(2019, 3, 20) + Duration::days(90), d(2019, 6, 18));
    let end = fco::validity_end(d(2026, 3, 2), &p(), &Calendar::national()).expect("params");
    assert_eq!(end.due, d(2026, 6, 30));
    assert!(end.note.contains("7.692/2002"), "{}", end.note);
}
