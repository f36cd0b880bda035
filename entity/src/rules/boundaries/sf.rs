//! The social-fuel half of the boundary table (IN MDA nº 2/2005): for every SF-* code, its pure rule just inside and
//! just outside its boundary, each case asserting the status. A deadline's boundary is its last day (the act on it is
//! in time, the day after late); a share's, the minimum to the centavo; a document's, the filing day; a checklist
//! item's, the instrument's own days in force.

use super::super::{
    RuleCode, Status, Texts,
    calendar::Calendar,
    code,
    params::Params,
    rule_tables::{bare_outcome, d, doc, outcomes_with, project, proposal},
    social_fuel::{self, DeadlineStatus, Term},
};
use crate::{
    domain::{IbgeCode, Money, Quantity},
    entities::{
        assistance_plan, feedstock_acquisition, social_fuel_project,
        vocab::{CompanyChangeKind, Decision, ProjectDocumentKind, SupplierKind},
    },
};
use chrono::{Days, NaiveDate};
use rust_decimal_macros::dec;

/// The codes this table pins.
pub(super) fn covered() -> Vec<&'static str> {
    [
        code::SF_COMPANY_BR,
        code::SF_SHARE_MIN,
        code::SF_SHARE_CALC,
        code::SF_OWN_PRICE,
        code::SF_SHARECROP_PRICE,
        code::SF_PERENNIAL,
        code::SF_REPRESENTATION,
        code::SF_CONTRACT_TERMS,
        code::SF_ASSISTANCE_PLAN,
        code::SF_BANK_FIRST,
        code::SF_DOCUMENTS,
        code::SF_DECISION_30D,
        code::SF_DECISION_LETTER,
        code::SF_SCHEDULE,
        code::SF_EXTERNAL_EVAL_6M,
        code::SF_SEAL_REQUEST_30D,
        code::SF_UNFRAMING,
        code::SF_EXTENSION_12M,
        code::SF_CHANGES,
        code::SF_NO_PROMOTION,
    ]
    .into_iter()
    .map(RuleCode::as_str)
    .collect()
}

fn next(day: NaiveDate) -> NaiveDate {
    day.checked_add_days(Days::new(1)).expect("date")
}

/// A deadline of `p` judged on `as_of`.
fn deadline(p: &social_fuel_project::Model, as_of: NaiveDate, code: RuleCode) -> social_fuel::DeadlineOutcome {
    social_fuel::deadlines(p, &Params::baseline(), &Calendar::national(), as_of, Texts::Written)
        .expect("params")
        .into_iter()
        .find(|o| o.code == code.as_str())
        .expect("deadline")
}

/// The due date of a deadline of `p`, as the rule counts it.
fn due(p: &social_fuel_project::Model, code: RuleCode) -> NaiveDate {
    deadline(p, d(2020, 1, 1), code).due.expect("counted")
}

fn acquisition(kind: SupplierKind, kg: i64, reais: i64, supplier: Option<i64>) -> feedstock_acquisition::Model {
    feedstock_acquisition::Model {
        id: 1,
        project_id: 1,
        year: 2015,
        supplier_kind: kind,
        supplier_party_id: supplier,
        crop: "soja".into(),
        quantity_kg: Quantity(kg * 10_000),
        cost: Money::from_reais(reais),
        perennial_area_ha: None,
        productivity_kg_per_ha: None,
        coefficient_source: None,
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

/// One SF rule on `p` with these acquisitions, as of 2015-12-31.
fn with_acquisitions(acquisitions: &[feedstock_acquisition::Model], code: RuleCode) -> Status {
    outcomes_with(&project(), acquisitions, d(2015, 12, 31))
        .into_iter()
        .find(|o| o.code == code.as_str())
        .map(|o| o.status)
        .expect("outcome")
}

fn plan(methodology: Option<&str>) -> assistance_plan::Model {
    assistance_plan::Model {
        id: 1,
        project_id: 1,
        staff_description: Some("2 agrônomos".into()),
        outsourced: false,
        outsourcing_contract: None,
        coverage_area: Some("Bahia".into()),
        farmers_assisted: Some(300),
        methodology: methodology.map(Into::into),
        confirmed_by: Some("analista MDA".into()),
        confirmed_at: None,
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

/// Operating since 30 January 2015, under evaluation.
fn operating() -> social_fuel_project::Model {
    let mut p = project();
    p.decided_on = Some(d(2015, 2, 5));
    p.decision = Some(Decision::Favourable);
    p.financing_approved_on = Some(d(2015, 1, 20));
    p.industrial_start_on = Some(d(2015, 1, 30));
    p
}

#[test]
fn the_checklist_items_apply_from_the_first_to_the_last_day_the_instrument_was_in_force() {
    let filed = |on: NaiveDate| {
        let mut p = project();
        p.bank_framed_on = Some(on);
        p.filed_on = Some(on);
        p
    };
    let inside = filed(d(2021, 5, 24));
    let outside = filed(d(2021, 5, 25));
    assert_eq!(bare_outcome(&inside, d(2021, 6, 1), "SF-COMPANY-BR").0, Status::Pending);
    assert_eq!(
        bare_outcome(&outside, d(2021, 6, 1), "SF-COMPANY-BR").0,
        Status::NotApplicable
    );
    // SF-NO-PROMOTION is a human check either way: its status does not change at the boundary, what it says does.
    let (status, why) = bare_outcome(&inside, d(2021, 6, 1), "SF-NO-PROMOTION");
    assert_eq!(
        (status, why.contains("human check")),
        (Status::NotApplicable, true),
        "{why}"
    );
    let (status, why) = bare_outcome(&outside, d(2021, 6, 1), "SF-NO-PROMOTION");
    assert_eq!(
        (status, why.contains("revoked")),
        (Status::NotApplicable, true),
        "{why}"
    );
}

#[test]
fn the_share_holds_at_the_minimum_to_the_centavo() {
    let terms = |family, other| {
        [
            Term {
                kind: SupplierKind::FamilyFarmer,
                quantity: dec!(1000),
                cost: family,
                perennial: None,
                supplier: None,
                coefficient_source: None,
            },
            Term {
                kind: SupplierKind::OtherThirdParty,
                quantity: dec!(1000),
                cost: other,
                perennial: None,
                supplier: None,
                coefficient_source: None,
            },
        ]
    };
    let northeast = IbgeCode::new(2927408).expect("code");
    let judge = |t: &[Term]| {
        social_fuel::check_share(t, northeast, false, &Params::baseline(), d(2015, 6, 1), Texts::Written)
            .expect("params")
            .status
    };
    assert_eq!(judge(&terms(dec!(50000.00), dec!(50000.00))), Status::Met);
    assert_eq!(judge(&terms(dec!(49999.99), dec!(50000.01))), Status::Violated);
}

#[test]
fn each_term_is_priced_only_as_its_article_says() {
    use SupplierKind as K;
    let family = acquisition(K::FamilyFarmer, 1000, 2000, Some(7));
    let own = acquisition(K::OwnProduction, 500, 0, None);
    // SF-SHARE-CALC and SF-OWN-PRICE (art. 3 §1–2): own production priced by a third-party purchase; with none, nothing
    // gives it a price.
    assert_eq!(
        with_acquisitions(&[family.clone(), own.clone()], code::SF_SHARE_CALC),
        Status::Met
    );
    assert_eq!(
        with_acquisitions(&[family.clone(), own.clone()], code::SF_OWN_PRICE),
        Status::Met
    );
    let alone = [own.clone()];
    assert_eq!(with_acquisitions(&alone, code::SF_OWN_PRICE), Status::Pending);
    let unpriced = [family.clone(), acquisition(K::Sharecropping, 400, 0, Some(9))];
    assert_eq!(with_acquisitions(&unpriced, code::SF_SHARE_CALC), Status::Pending);
    // SF-SHARECROP-PRICE (art. 3 §3): the producer's part priced by a purchase from the partner, and only by it.
    let partnered = [family.clone(), acquisition(K::Sharecropping, 400, 0, Some(7))];
    assert_eq!(with_acquisitions(&partnered, code::SF_SHARECROP_PRICE), Status::Met);
    assert_eq!(with_acquisitions(&unpriced, code::SF_SHARECROP_PRICE), Status::Pending);
    // SF-PERENNIAL (art. 4 sole §): a coefficient of MAPA, Conab or Embrapa, and no other.
    let perennial = |source: &str| feedstock_acquisition::Model {
        perennial_area_ha: Some(Quantity(10 * 10_000)),
        productivity_kg_per_ha: Some(Quantity(100 * 10_000)),
        coefficient_source: Some(source.into()),
        ..family.clone()
    };
    assert_eq!(
        with_acquisitions(&[perennial("Embrapa Soja")], code::SF_PERENNIAL),
        Status::Met
    );
    assert_eq!(
        with_acquisitions(&[perennial("consultoria")], code::SF_PERENNIAL),
        Status::Violated
    );
}

#[test]
fn the_request_carries_its_proposals_plan_framing_and_documents_by_the_filing_day() {
    let p = project();
    // SF-REPRESENTATION and SF-CONTRACT-TERMS (art. 5 and sole §): an agreed representation; all six terms.
    let [rep, terms] = social_fuel::check_proposals(&p, &[proposal(Some("multa"), true)], Texts::Written);
    assert_eq!((rep.status, terms.status), (Status::Met, Status::Met));
    let [rep, _] = social_fuel::check_proposals(&p, &[proposal(Some("multa"), false)], Texts::Written);
    assert_eq!(rep.status, Status::Violated);
    let [_, terms] = social_fuel::check_proposals(&p, &[proposal(None, true)], Texts::Written);
    assert_eq!(terms.status, Status::Violated);
    // SF-ASSISTANCE-PLAN (art. 2, art. 6 sole §): complete and confirmed, or lacking one content.
    assert_eq!(
        social_fuel::check_plan(&p, Some(&plan(Some("visitas"))), Texts::Written).status,
        Status::Met
    );
    assert_eq!(
        social_fuel::check_plan(&p, Some(&plan(Some("  "))), Texts::Written).status,
        Status::Violated
    );
    // SF-BANK-FIRST (art. 7): framed on the filing day at the latest.
    let mut framed = project();
    framed.bank_framed_on = framed.filed_on;
    assert_eq!(
        social_fuel::check_bank_first(&framed, Texts::Written).status,
        Status::Met
    );
    framed.bank_framed_on = framed.filed_on.map(next);
    assert_eq!(
        social_fuel::check_bank_first(&framed, Texts::Written).status,
        Status::Violated
    );
    // SF-DOCUMENTS (art. 8, annex I): the six received by the filing day; one the day after does not count.
    let filed = p.filed_on.expect("filed");
    let mut six: Vec<_> = ProjectDocumentKind::ANNEX_I
        .iter()
        .map(|k| {
            let mut x = doc(*k);
            x.received_on = filed;
            x
        })
        .collect();
    assert_eq!(
        social_fuel::check_documents(&p, &six, Texts::Written).status,
        Status::Met
    );
    six[5].received_on = next(filed);
    assert_eq!(
        social_fuel::check_documents(&p, &six, Texts::Written).status,
        Status::Violated
    );
}

#[test]
fn mda_decides_by_a_letter_within_thirty_days_and_states_the_grounds_of_a_non_conformity() {
    // SF-DECISION-30D (art. 9): the letter on the last day is in time, the day after is late.
    let mut p = project();
    let last = due(&p, code::SF_DECISION_30D);
    p.decided_on = Some(last);
    assert_eq!(
        deadline(&p, next(last), code::SF_DECISION_30D).status,
        DeadlineStatus::Met
    );
    p.decided_on = Some(next(last));
    assert_eq!(
        deadline(&p, next(last), code::SF_DECISION_30D).status,
        DeadlineStatus::Overdue
    );
    // SF-DECISION-LETTER (art. 9 II): a non-conformity letter with its grounds, or with none.
    p.decision = Some(Decision::Unfavourable);
    p.decision_letter = Some("Ofício 3/2015".into());
    p.decision_grounds = Some("compras abaixo do mínimo".into());
    assert_eq!(
        social_fuel::check_decision_letter(&p, Texts::Written).status,
        Status::Met
    );
    p.decision_grounds = Some("  ".into());
    assert_eq!(
        social_fuel::check_decision_letter(&p, Texts::Written).status,
        Status::Violated
    );
}

#[test]
fn the_schedule_binds_from_its_end_and_a_delay_counts_from_the_day_the_bank_accepted_it() {
    // SF-SCHEDULE (art. 10 §1): not started on the scheduled end is still in time; the day after it is late.
    let mut p = project();
    p.financing_approved_on = Some(d(2015, 3, 2));
    p.schedule_presented_on = Some(d(2015, 3, 10));
    p.scheduled_implementation_end = Some(d(2015, 6, 30));
    let judge = |p: &social_fuel_project::Model, as_of| {
        social_fuel::check_schedule(p, Status::Met, as_of, Texts::Written).status
    };
    assert_eq!(judge(&p, d(2015, 6, 30)), Status::Pending);
    assert_eq!(judge(&p, d(2015, 7, 1)), Status::Violated);
    // Art. 10 §2: the delay counts from the day the bank accepted it (and MDA after it), not the day before.
    p.schedule_delay_accepted = true;
    p.delay_bank_accepted_on = Some(d(2015, 7, 10));
    p.delay_bank_accepted_by = Some("gerente da agência".into());
    assert_eq!(judge(&p, d(2015, 7, 10)), Status::Pending);
    assert_eq!(judge(&p, d(2015, 7, 9)), Status::Violated);
    // Art. 10 caput: started in time with the share met, the rule is met once the schedule was presented by the day
    // judged, pending the day before.
    let mut q = p.clone();
    q.industrial_start_on = Some(d(2015, 6, 1));
    assert_eq!(judge(&q, d(2015, 6, 1)), Status::Met);
    q.schedule_presented_on = Some(d(2015, 6, 2));
    assert_eq!(judge(&q, d(2015, 6, 1)), Status::Pending);
}

#[test]
fn the_evaluation_is_due_six_months_from_the_earlier_of_the_start_and_the_scheduled_end() {
    // SF-EXTERNAL-EVAL-6M (art. 11): concluded on the last day, in time; the day after, late.
    let mut p = operating();
    let last = due(&p, code::SF_EXTERNAL_EVAL_6M);
    p.external_evaluation_on = Some(last);
    p.evaluation_result = Some(Decision::Favourable);
    assert_eq!(
        deadline(&p, next(last), code::SF_EXTERNAL_EVAL_6M).status,
        DeadlineStatus::Met
    );
    p.external_evaluation_on = Some(next(last));
    assert_eq!(
        deadline(&p, next(last), code::SF_EXTERNAL_EVAL_6M).status,
        DeadlineStatus::Overdue
    );
    // A start later than the scheduled end counts from the end: a late start does not move a missed deadline later.
    let mut q = project();
    q.scheduled_implementation_end = Some(d(2015, 6, 30));
    q.industrial_start_on = Some(d(2015, 7, 15));
    let missed = deadline(&q, d(2015, 12, 31), code::SF_EXTERNAL_EVAL_6M);
    assert_eq!(
        (missed.due, missed.status),
        (Some(d(2015, 12, 30)), DeadlineStatus::Overdue)
    );
    assert_eq!(
        deadline(&q, d(2015, 12, 30), code::SF_EXTERNAL_EVAL_6M).status,
        DeadlineStatus::Pending
    );
}

#[test]
fn the_seal_is_requested_within_thirty_days_of_the_conformity() {
    // SF-SEAL-REQUEST-30D (art. 11 I): requested on the last day, in time; the day after, late.
    let mut p = operating();
    p.external_evaluation_on = Some(d(2015, 7, 1));
    p.evaluation_result = Some(Decision::Favourable);
    let last = due(&p, code::SF_SEAL_REQUEST_30D);
    p.seal_requested_on = Some(last);
    assert_eq!(
        deadline(&p, next(last), code::SF_SEAL_REQUEST_30D).status,
        DeadlineStatus::Met
    );
    p.seal_requested_on = Some(next(last));
    assert_eq!(
        deadline(&p, next(last), code::SF_SEAL_REQUEST_30D).status,
        DeadlineStatus::Overdue
    );
}

#[test]
fn the_extension_keeps_the_framing_twelve_months_and_no_day_more() {
    // SF-EXTENSION-12M (art. 11 §2), granted while operating: the evaluation on the last of the 12 months is in time.
    let mut p = operating();
    p.extension_requested_on = Some(d(2015, 7, 1));
    p.extension_granted_on = Some(d(2015, 7, 10));
    let last = due(&p, code::SF_EXTENSION_12M);
    p.external_evaluation_on = Some(last);
    p.evaluation_result = Some(Decision::Favourable);
    assert_eq!(
        deadline(&p, next(last), code::SF_EXTENSION_12M).status,
        DeadlineStatus::Met
    );
    p.external_evaluation_on = Some(next(last));
    assert_eq!(
        deadline(&p, next(last), code::SF_EXTENSION_12M).status,
        DeadlineStatus::Overdue
    );
    // Granted during the non-conformity hearing: MDA answers the justifications by the last day; the evaluation's own
    // six months are not moved by it.
    let mut h = operating();
    h.external_evaluation_on = Some(d(2015, 7, 20));
    h.evaluation_result = Some(Decision::Unfavourable);
    h.extension_requested_on = Some(d(2015, 7, 25));
    h.extension_granted_on = Some(d(2015, 7, 31));
    let last = due(&h, code::SF_EXTENSION_12M);
    h.unframed_on = Some(last);
    assert_eq!(
        deadline(&h, next(last), code::SF_EXTENSION_12M).status,
        DeadlineStatus::Met
    );
    h.unframed_on = None;
    assert_eq!(
        deadline(&h, next(last), code::SF_EXTENSION_12M).status,
        DeadlineStatus::Overdue
    );
    assert_eq!(
        deadline(&h, last, code::SF_EXTENSION_12M).status,
        DeadlineStatus::Pending
    );
    assert_eq!(
        deadline(&h, next(last), code::SF_EXTERNAL_EVAL_6M).status,
        DeadlineStatus::Met,
        "concluded within its own six months"
    );
}

#[test]
fn an_unframing_is_met_once_the_bank_is_notified_and_the_public_database_updated() {
    // SF-UNFRAMING (art. 11 II): both acts recorded, or one still owed.
    let mut p = operating();
    p.external_evaluation_on = Some(d(2015, 7, 20));
    p.evaluation_result = Some(Decision::Unfavourable);
    p.unframed_on = Some(d(2015, 8, 20));
    p.bank_notified_on = Some(d(2015, 8, 25));
    p.public_update_on = Some(d(2015, 8, 26));
    assert_eq!(social_fuel::check_unframing(&p, Texts::Written).status, Status::Met);
    p.public_update_on = None;
    assert_eq!(social_fuel::check_unframing(&p, Texts::Written).status, Status::Pending);
    // Known on the day before the update, it was still owed.
    p.public_update_on = Some(d(2015, 8, 26));
    assert_eq!(
        social_fuel::check_unframing(&p.as_known_on(d(2015, 8, 25)), Texts::Written).status,
        Status::Pending
    );
}

#[test]
fn an_industrial_start_is_owed_its_notice() {
    // SF-CHANGES (art. 12): the start reported, or not.
    let p = operating();
    assert_eq!(
        social_fuel::check_changes(&p, &[CompanyChangeKind::ActivityStart], Texts::Written).status,
        Status::Met
    );
    assert_eq!(
        social_fuel::check_changes(&p, &[], Texts::Written).status,
        Status::Pending
    );
}
