//! Every rule of the programme on one carta, one function per rule, in the order [`check_all_and_deadlines`] lists
//! their outcomes.
//!
//! Size: one function per rule judged over a whole carta, alike by design.

use super::{
    CHECKLIST, CartaFacts, Reformulation, amendment_judged, approved_base, article_checks, before_instrument,
    boar_ratio, boar_ratio_applies, ceiling, classify, deadlines, heads, needs_chamber, not_in_force,
    operating_allowed, operating_item_allowed, sire_counts_for_ratio, sire_ratio, template, term_limits, used_machine,
};
use crate::entities::{
    fco_carta_amendment, fco_carta_item,
    vocab::{FcoActivity, FcoCartaStage, InvestmentClass, ItemKind},
};
use crate::rules::{
    Explanation, Outcome, Status,
    calendar::Calendar,
    code, guarded, outcome,
    params::{ParamError, Params},
    social_fuel::{DeadlineOutcome, deadline_outcome},
};
use chrono::NaiveDate;

/// [`check_all`] and [`deadlines`] together: the deadlines are among the outcomes, so they are worked out once. One
/// function per rule, in the order the outcomes are listed.
pub fn check_all_and_deadlines(
    f: &CartaFacts<'_>,
    params: &Params,
    cal: &Calendar,
    as_of: NaiveDate,
) -> Result<(Vec<Outcome>, Vec<DeadlineOutcome>), ParamError> {
    let c = f.carta;
    let on = c.submitted_on.unwrap_or(as_of);
    if let Some(why) = before_instrument(c, as_of) {
        return Ok(not_in_force(&why));
    }
    // Room for every rule's outcome at once: growing the vector a push at a time was 4 % of the flag pass.
    let mut out = Vec::with_capacity(32);
    out.push(guarded(code::FCO_CHAMBER_THRESHOLD, || {
        chamber_threshold(f, params, on)
    }));
    out.push(attendance(f));
    out.push(resubmission(f));
    out.push(guarded(code::FCO_CEILING, || group_ceiling(f, params, on)));
    out.push(guarded(code::FCO_WEANED_2000, || weaned(f, params, on)));
    out.push(sire_ratio_of(f, params, on));
    out.push(sire_pedigree(f));
    out.push(boar_ratio_of(f, params, on));
    out.push(swine_retention(f, params, on));
    out.push(pantanal(f, params, on));
    out.push(used_machines(f, params, on));
    out.push(operating_only(f));
    out.push(guarded(code::FCO_CLASSIFY, || classified(f, params, on)));
    out.push(guarded(code::FCO_AMENDMENT, || amendments(f, params)));
    let deadlines = deadlines(f, params, cal, as_of)?;
    out.extend(deadlines.iter().map(deadline_outcome));
    out.extend(article_checks(f, params, on));
    // An unfavourable carta's outcomes still describe what was filed.
    checklist(f, params, on, &mut out);
    Ok((out, deadlines))
}

/// FCO-CHAMBER-THRESHOLD (art. 2 §3): a carta at or above the threshold is the CPACR chamber's to decide.
fn chamber_threshold(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Result<Outcome, ParamError> {
    let c = f.carta;
    let (chamber, threshold) = needs_chamber(c.financed_amount, params, on)?;
    let said = |id| {
        Explanation::message(id)
            .arg("amount", c.financed_amount.to_decimal())
            .arg("threshold", threshold)
    };
    Ok(match (chamber, c.decided_by.as_deref()) {
        (true, Some("BANK")) => outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Violated,
            said("fco-chamber-bank-alone"),
        ),
        (true, Some(_)) => outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Met,
            said("fco-chamber-opinion-given"),
        ),
        (true, None) => outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Pending,
            said("fco-chamber-opinion-needed"),
        ),
        (false, Some("CHAMBER")) if c.special_demand => outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Met,
            said("fco-chamber-special-demand"),
        ),
        (false, _) => outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Met,
            said("fco-chamber-bank-decides"),
        ),
    })
}

/// FCO-ATTENDANCE: the bank at the chamber meeting that judged the carta.
fn attendance(f: &CartaFacts<'_>) -> Outcome {
    match (f.meeting, f.bank_present) {
        (Some(_), Some(true)) => outcome(
            code::FCO_ATTENDANCE,
            Status::Met,
            Explanation::message("fco-attendance-present"),
        ),
        (Some(_), Some(false)) => outcome(
            code::FCO_ATTENDANCE,
            Status::Violated,
            Explanation::message("fco-attendance-absent"),
        ),
        (Some(_), None) => outcome(
            code::FCO_ATTENDANCE,
            Status::Pending,
            Explanation::message("fco-attendance-unrecorded"),
        ),
        (None, _) => outcome(
            code::FCO_ATTENDANCE,
            Status::NotApplicable,
            Explanation::message("fco-no-meeting-outcome"),
        ),
    }
}

/// FCO-RESUBMIT: a carta filed again after an unfavourable opinion is reformulated.
fn resubmission(f: &CartaFacts<'_>) -> Outcome {
    let c = f.carta;
    match (c.resubmission_of, f.resubmitted_stage) {
        (Some(_), Some(FcoCartaStage::Unfavourable)) => {
            // Still being prepared, a draft is not yet judged unreformulated.
            let not_yet = if c.stage == FcoCartaStage::Draft {
                Status::Pending
            } else {
                Status::Violated
            };
            match f.reformulation {
                None => outcome(
                    code::FCO_RESUBMIT,
                    Status::Met,
                    Explanation::message("fco-resubmit-reformulated"),
                ),
                Some(Reformulation::Changed(what)) => outcome(
                    code::FCO_RESUBMIT,
                    Status::Met,
                    Explanation::message("fco-resubmit-changed").list(
                        "what",
                        what.iter()
                            .map(|w| Explanation::message("fco-resubmit-field").arg("field", w.replace(' ', "-"))),
                    ),
                ),
                Some(Reformulation::NoItems(n)) => outcome(
                    code::FCO_RESUBMIT,
                    not_yet,
                    Explanation::message("fco-resubmit-no-items").arg("count", n),
                ),
                Some(Reformulation::Unchanged) => outcome(
                    code::FCO_RESUBMIT,
                    not_yet,
                    Explanation::message("fco-resubmit-unchanged"),
                ),
            }
        }
        (Some(_), other) => outcome(
            code::FCO_RESUBMIT,
            Status::Violated,
            match other {
                Some(stage) => Explanation::message("fco-resubmit-not-unfavourable").arg("stage", stage.name_pt()),
                None => Explanation::message("fco-resubmit-not-unfavourable-unknown"),
            },
        ),
        (None, _) => outcome(
            code::FCO_RESUBMIT,
            Status::NotApplicable,
            Explanation::message("fco-resubmit-none"),
        ),
    }
}

/// FCO-CEILING (art. 4) on the carta's borrower group, not applicable once unfavourable or expired.
fn group_ceiling(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Result<Outcome, ParamError> {
    let c = f.carta;
    let mut o = ceiling(f.group_exposure, params, on)?;
    if matches!(c.stage, FcoCartaStage::Unfavourable | FcoCartaStage::Expired) {
        o.status = Status::NotApplicable;
    }
    Ok(o)
}

/// FCO-WEANED-2000: the group's weaned calves within the limit.
fn weaned(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Result<Outcome, ParamError> {
    let weaned_max = i64::from(params.count("FCO-WEANED-2000.HEADS", on)?);
    Ok(if heads(f.items, ItemKind::WeanedCalf) == 0 {
        outcome(
            code::FCO_WEANED_2000,
            Status::NotApplicable,
            Explanation::message("fco-weaned-none"),
        )
    } else {
        outcome(
            code::FCO_WEANED_2000,
            if f.group_weaned_heads <= weaned_max {
                Status::Met
            } else {
                Status::Violated
            },
            Explanation::message("fco-weaned")
                .arg("heads", f.group_weaned_heads)
                .arg("max", weaned_max),
        )
    })
}

/// FCO-SIRE-RATIO (art. 6 I c) on the carta's sires and dams.
fn sire_ratio_of(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Outcome {
    let c = f.carta;
    let sires = heads(f.items, ItemKind::Sire);
    // Art. 6 I c: in beef cattle, dams without breed registration need registered sires, bought (1 per 30) or
    // already the producer's and shown in the project. Dairy (art. 7) and Pantanal retention (art. 9) have no ratio.
    let registered = |i: &&fco_carta_item::Model| sire_counts_for_ratio(i.registration.as_deref());
    let registered_sires: i64 = f
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::Sire && registered(i))
        .map(|i| i64::from(i.head_count.unwrap_or(0)))
        .sum();
    let unregistered_dams: i64 = f
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::Dam && !registered(i))
        .map(|i| i64::from(i.head_count.unwrap_or(0)))
        .sum();
    if c.activity != FcoActivity::BeefCattle {
        outcome(
            code::FCO_SIRE_RATIO,
            Status::NotApplicable,
            Explanation::message("fco-sire-ratio-not-beef").arg("activity", c.activity.name_pt()),
        )
    } else if unregistered_dams == 0 {
        outcome(
            code::FCO_SIRE_RATIO,
            Status::NotApplicable,
            Explanation::message("fco-sire-ratio-no-dams"),
        )
    } else {
        guarded(code::FCO_SIRE_RATIO, || {
            let existing = i64::from(c.existing_sires.unwrap_or(0).max(0));
            let mut o = sire_ratio(unregistered_dams, registered_sires + existing, params, on)?;
            o.explanation = match c.existing_sires {
                Some(n) => Explanation::message("fco-sire-ratio-counted").arg("own", n),
                None => Explanation::message("fco-sire-ratio-counted-no-own"),
            }
            .nested("ratio", std::mem::take(&mut o.explanation))
            .arg("registered", registered_sires)
            .arg("unregistered", (sires - registered_sires).max(0));
            Ok(o)
        })
    }
}

/// FCO-SIRE-PEDIGREE: the registration of the carta's sires.
fn sire_pedigree(f: &CartaFacts<'_>) -> Outcome {
    let c = f.carta;
    let sires = heads(f.items, ItemKind::Sire);
    // Beef cattle's sires are PO with the definitive RGD, LA or CEIP (art. 6 I a); dairy's PO, LA or CEIP, the RGD
    // not required (art. 7 I a).
    let dairy = c.activity == FcoActivity::DairyCattle;
    let unregistered: Vec<&str> = f
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::Sire)
        .filter(|i| match i.registration.as_deref() {
            Some("PO_RGD" | "LA" | "CEIP") => false,
            Some("PO") => !dairy,
            _ => true,
        })
        .map(|i| i.description.as_str())
        .collect();
    if sires == 0 {
        outcome(
            code::FCO_SIRE_PEDIGREE,
            Status::NotApplicable,
            Explanation::message("fco-pedigree-no-sires"),
        )
    } else if unregistered.is_empty() {
        outcome(
            code::FCO_SIRE_PEDIGREE,
            Status::Met,
            Explanation::message(if dairy {
                "fco-pedigree-met-dairy"
            } else {
                "fco-pedigree-met-beef"
            }),
        )
    } else {
        outcome(
            code::FCO_SIRE_PEDIGREE,
            Status::Violated,
            Explanation::message(if dairy {
                "fco-pedigree-unregistered-dairy"
            } else {
                "fco-pedigree-unregistered-beef"
            })
            .list(
                "sires",
                unregistered
                    .iter()
                    .map(|d| Explanation::message("explain-quoted").arg("text", d)),
            ),
        )
    }
}

/// FCO-BOAR-RATIO (art. 8 §5) on the carta's boars and sows.
fn boar_ratio_of(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Outcome {
    let c = f.carta;
    let (sows, boars) = (heads(f.items, ItemKind::Sow), heads(f.items, ItemKind::Boar));
    if boars == 0 {
        outcome(
            code::FCO_BOAR_RATIO,
            Status::NotApplicable,
            Explanation::message("fco-boar-none"),
        )
    } else if let Err(why) = boar_ratio_applies(c.line) {
        outcome(code::FCO_BOAR_RATIO, Status::NotApplicable, why)
    } else {
        guarded(code::FCO_BOAR_RATIO, || {
            let mut o = boar_ratio(sows, boars, c.artificial_insemination == Some(true), params, on)?;
            // Art. 8 §5 speaks of the family farmer buying boars "de forma coletiva"; whether a purchase is
            // collective is not recorded, so every boar on a family farmer's carta is held to the limit.
            o.explanation.push(Explanation::message("fco-boar-family"));
            if c.artificial_insemination.is_none() {
                o.explanation.push(Explanation::message("fco-boar-natural-read"));
            }
            Ok(o)
        })
    }
}

/// FCO-SWINE-RETENTION (art. 8 §3): the sow retention line's terms and the sows' ages.
fn swine_retention(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Outcome {
    let c = f.carta;
    if c.activity == FcoActivity::SowRetention {
        guarded(code::FCO_SWINE_RETENTION, || {
            let terms = term_limits(
                code::FCO_SWINE_RETENTION,
                code::FCO_SWINE_RETENTION.as_str(),
                c.term_months,
                c.grace_months,
                params,
                on,
            )?;
            let min = params.count("FCO-SWINE-RETENTION.MIN_AGE_MONTHS", on)? as i32;
            let max = params.count("FCO-SWINE-RETENTION.MAX_AGE_MONTHS", on)? as i32;
            let sows: Vec<&fco_carta_item::Model> = f.items.iter().filter(|i| i.kind == ItemKind::Sow).collect();
            let bad_ages: Vec<i32> = sows
                .iter()
                .filter_map(|i| i.age_months)
                .filter(|a| *a < min || *a > max)
                .collect();
            let unstated = sows.iter().filter(|i| i.age_months.is_none()).count();
            Ok(if terms.status == Status::Violated {
                terms
            } else if bad_ages.is_empty() && unstated > 0 {
                // Art. 8 §3 III conditions the line on the sows' age: an age not stated is not shown.
                outcome(
                    code::FCO_SWINE_RETENTION,
                    Status::Pending,
                    Explanation::message("fco-sow-ages-unstated")
                        .nested("terms", terms.explanation)
                        .arg("count", unstated)
                        .arg("min", min)
                        .arg("max", max),
                )
            } else if bad_ages.is_empty() {
                terms
            } else {
                outcome(
                    code::FCO_SWINE_RETENTION,
                    Status::Violated,
                    Explanation::message("fco-sow-ages-outside")
                        .nested("terms", terms.explanation)
                        .list(
                            "ages",
                            bad_ages
                                .iter()
                                .map(|a| Explanation::message("explain-number").arg("n", a)),
                        )
                        .arg("min", min)
                        .arg("max", max),
                )
            })
        })
    } else {
        outcome(
            code::FCO_SWINE_RETENTION,
            Status::NotApplicable,
            Explanation::message("fco-not-sow-retention"),
        )
    }
}

/// FCO-PANTANAL (art. 9): the Pantanal dam retention line's terms and the producer's dams.
fn pantanal(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Outcome {
    let c = f.carta;
    let dams = heads(f.items, ItemKind::Dam);
    if c.activity == FcoActivity::PantanalDamRetention {
        guarded(code::FCO_PANTANAL, || {
            let terms = term_limits(
                code::FCO_PANTANAL,
                code::FCO_PANTANAL.as_str(),
                c.term_months,
                c.grace_months,
                params,
                on,
            )?;
            let max = i64::from(params.count("FCO-PANTANAL.HEADS", on)?);
            let producer = dams + f.producer_other_pantanal_dams;
            let counted = if f.producer_other_pantanal_dams > 0 {
                Explanation::message("fco-pantanal-dams-others")
                    .arg("producer", producer)
                    .arg("dams", dams)
                    .arg("others", f.producer_other_pantanal_dams)
            } else {
                Explanation::message("fco-pantanal-dams").arg("dams", dams)
            };
            Ok(if terms.status == Status::Violated {
                terms
            } else if producer <= max {
                outcome(
                    code::FCO_PANTANAL,
                    Status::Met,
                    Explanation::message("fco-pantanal-met")
                        .nested("terms", terms.explanation)
                        .nested("counted", counted)
                        .arg("max", max),
                )
            } else {
                outcome(
                    code::FCO_PANTANAL,
                    Status::Violated,
                    Explanation::message("fco-pantanal-over")
                        .nested("counted", counted)
                        .arg("max", max),
                )
            })
        })
    } else {
        outcome(
            code::FCO_PANTANAL,
            Status::NotApplicable,
            Explanation::message("fco-not-pantanal"),
        )
    }
}

/// FCO-USED-MACHINE: the carta's used machines, the first violated one (or the first) speaking for all.
fn used_machines(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Outcome {
    let c = f.carta;
    let used: Vec<Outcome> = f
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::UsedMachine)
        .map(|i| {
            guarded(code::FCO_USED_MACHINE, || {
                used_machine(i.manufacture_year, c.contracted_on.unwrap_or(on), on, params)
            })
        })
        .collect();
    match used.iter().find(|o| o.status == Status::Violated).or(used.first()) {
        Some(o) => o.clone(),
        None => outcome(
            code::FCO_USED_MACHINE,
            Status::NotApplicable,
            Explanation::message("fco-machine-none"),
        ),
    }
}

/// FCO-OPERATING-ONLY: stand-alone operating credit only where the activity allows it.
fn operating_only(f: &CartaFacts<'_>) -> Outcome {
    let c = f.carta;
    let operating_only =
        !f.items.is_empty() && f.items.iter().all(|i| i.investment_class == InvestmentClass::Operating);
    if !operating_only {
        outcome(
            code::FCO_OPERATING_ONLY,
            Status::NotApplicable,
            Explanation::message("fco-operating-not"),
        )
    } else if operating_allowed(c.activity) {
        outcome(
            code::FCO_OPERATING_ONLY,
            Status::Met,
            Explanation::message("fco-operating-allowed").arg("activity", c.activity.name_pt()),
        )
    } else {
        outcome(
            code::FCO_OPERATING_ONLY,
            Status::Violated,
            Explanation::message("fco-operating-refused").arg("activity", c.activity.name_pt()),
        )
    }
}

/// FCO-CLASSIFY: each item's investment class as its kind and useful life say.
fn classified(f: &CartaFacts<'_>, params: &Params, on: NaiveDate) -> Result<Outcome, ParamError> {
    let c = f.carta;
    let mut misclassified = Vec::new();
    for i in f.items {
        let expected = classify(i.kind, i.useful_life_years, params, on)?;
        if expected != i.investment_class
            && !(i.investment_class == InvestmentClass::Operating && operating_item_allowed(c.activity, i.kind))
        {
            misclassified.push(
                Explanation::message("fco-classify-item")
                    .arg("item", &i.description)
                    .arg("class", i.investment_class.name_pt())
                    .arg("expected", expected.name_pt()),
            );
        }
    }
    Ok(if misclassified.is_empty() {
        outcome(
            code::FCO_CLASSIFY,
            if f.items.is_empty() {
                Status::Pending
            } else {
                Status::Met
            },
            Explanation::message("fco-classify-met").arg("count", f.items.len()),
        )
    } else {
        outcome(
            code::FCO_CLASSIFY,
            Status::Violated,
            Explanation::message("fco-classify-wrong").clauses("items", misclassified),
        )
    })
}

/// FCO-AMENDMENT: each amendment recorded as needing a new approval exactly when it does.
fn amendments(f: &CartaFacts<'_>, params: &Params) -> Result<Outcome, ParamError> {
    let (mut wrong, mut handled) = (Vec::new(), Vec::new());
    let mut in_order: Vec<&fco_carta_amendment::Model> = f.amendments.iter().collect();
    in_order.sort_by_key(|a| (a.requested_on, a.id));
    for (i, a) in in_order.iter().enumerate() {
        let current = a.old_amount.unwrap_or(f.carta.financed_amount);
        let approved = approved_base(in_order[..i].iter().copied(), current);
        let (needs, why) = amendment_judged(
            a.kind,
            a.properties_listed,
            approved,
            a.old_amount,
            a.new_amount,
            None,
            params,
            a.requested_on,
        )?;
        let needs_text = |n: bool| if n { "yes" } else { "no" };
        if needs == a.requires_new_approval {
            handled.push(
                Explanation::message("fco-amend-handled-item")
                    .arg("day", a.requested_on)
                    .nested("why", why),
            );
        } else {
            wrong.push(
                Explanation::message("fco-amend-wrong")
                    .arg("day", a.requested_on)
                    .arg("recorded", needs_text(a.requires_new_approval))
                    .nested("why", why)
                    .arg("needs", needs_text(needs)),
            );
        }
    }
    Ok(if f.amendments.is_empty() {
        outcome(
            code::FCO_AMENDMENT,
            Status::NotApplicable,
            Explanation::message("fco-amend-none"),
        )
    } else if wrong.is_empty() {
        outcome(
            code::FCO_AMENDMENT,
            Status::Met,
            Explanation::message("fco-amend-handled").clauses("items", handled),
        )
    } else {
        outcome(
            code::FCO_AMENDMENT,
            Status::Violated,
            Explanation::message("explain-plain").clauses("text", wrong),
        )
    })
}

/// The checklist items (confirmed by a person), each pending where it applies; FCO-TEMPLATE by its date.
fn checklist(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, out: &mut Vec<Outcome>) {
    let c = f.carta;
    out.extend(CHECKLIST.iter().map(|item| {
        if item.code == code::FCO_TEMPLATE {
            return guarded(code::FCO_TEMPLATE, || template(on, params));
        }
        match item.on(c.activity, c.line) {
            Ok(what) => outcome(
                item.code,
                Status::Pending,
                Explanation::message("fco-checklist-pending").nested("what", Explanation::message(what)),
            ),
            Err(why) => outcome(item.code, Status::NotApplicable, why),
        }
    }));
}
