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
    fco_carta, fco_carta_amendment, fco_carta_item,
    vocab::{FcoActivity, FcoCartaStage, InvestmentClass, ItemKind},
};
use crate::rules::{
    Outcome, RuleCode, Status, Texts,
    calendar::Calendar,
    code, guarded,
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
    texts: Texts,
) -> Result<(Vec<Outcome>, Vec<DeadlineOutcome>), ParamError> {
    let c = f.carta;
    let on = c.submitted_on.unwrap_or(as_of);
    if let Some(why) = before_instrument(c, as_of, texts) {
        return Ok(not_in_force(&why, texts));
    }
    // Room for every rule's outcome at once: this runs for every carta a pass judges, so the vector is never regrown.
    let mut out = Vec::with_capacity(32);
    out.push(guarded(code::FCO_CHAMBER_THRESHOLD, || {
        chamber_threshold(f, params, on, texts)
    }));
    out.push(attendance(f, texts));
    out.push(resubmission(f, texts));
    out.push(guarded(code::FCO_CEILING, || group_ceiling(f, params, on, texts)));
    out.push(guarded(code::FCO_WEANED_2000, || weaned(f, params, on, texts)));
    out.push(sire_ratio_of(f, params, on, texts));
    out.push(sire_pedigree(f, texts));
    out.push(boar_ratio_of(f, params, on, texts));
    out.push(swine_retention(f, params, on, texts));
    out.push(pantanal(f, params, on, texts));
    out.push(used_machines(f, params, on, texts));
    out.push(operating_only(f, texts));
    out.push(guarded(code::FCO_CLASSIFY, || classified(f, params, on, texts)));
    out.push(guarded(code::FCO_AMENDMENT, || amendments(f, params, texts)));
    let deadlines = deadlines(f, params, cal, as_of, texts)?;
    out.extend(deadlines.iter().map(deadline_outcome));
    out.extend(article_checks(f, params, on, texts));
    // An unfavourable carta's outcomes still describe what was filed.
    checklist(f, params, on, &mut out, texts);
    Ok((out, deadlines))
}

/// FCO-CHAMBER-THRESHOLD (art. 2 §3): a carta at or above the threshold is the CPACR chamber's to decide.
fn chamber_threshold(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Result<Outcome, ParamError> {
    let c = f.carta;
    let (chamber, threshold) = needs_chamber(c.financed_amount, params, on)?;
    let said = |id| {
        texts
            .message(id)
            .arg("amount", c.financed_amount.to_decimal())
            .arg("threshold", threshold)
    };
    Ok(match (chamber, c.decided_by.as_deref()) {
        (true, Some("BANK")) => texts.outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Violated,
            said("fco-chamber-bank-alone"),
        ),
        (true, Some(_)) => texts.outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Met,
            said("fco-chamber-opinion-given"),
        ),
        (true, None) => texts.outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Pending,
            said("fco-chamber-opinion-needed"),
        ),
        (false, Some("CHAMBER")) if c.special_demand => texts.outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Met,
            said("fco-chamber-special-demand"),
        ),
        (false, _) => texts.outcome(
            code::FCO_CHAMBER_THRESHOLD,
            Status::Met,
            said("fco-chamber-bank-decides"),
        ),
    })
}

/// FCO-ATTENDANCE: the bank at the chamber meeting that judged the carta.
fn attendance(f: &CartaFacts<'_>, texts: Texts) -> Outcome {
    match (f.meeting, f.bank_present) {
        (Some(_), Some(true)) => texts.outcome(
            code::FCO_ATTENDANCE,
            Status::Met,
            texts.message("fco-attendance-present"),
        ),
        (Some(_), Some(false)) => texts.outcome(
            code::FCO_ATTENDANCE,
            Status::Violated,
            texts.message("fco-attendance-absent"),
        ),
        (Some(_), None) => texts.outcome(
            code::FCO_ATTENDANCE,
            Status::Pending,
            texts.message("fco-attendance-unrecorded"),
        ),
        (None, _) => texts.outcome(
            code::FCO_ATTENDANCE,
            Status::NotApplicable,
            texts.message("fco-no-meeting-outcome"),
        ),
    }
}

/// FCO-RESUBMIT: a carta filed again after an unfavourable opinion is reformulated.
fn resubmission(f: &CartaFacts<'_>, texts: Texts) -> Outcome {
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
                None => texts.outcome(
                    code::FCO_RESUBMIT,
                    Status::Met,
                    texts.message("fco-resubmit-reformulated"),
                ),
                Some(Reformulation::Changed(what)) => texts.outcome(
                    code::FCO_RESUBMIT,
                    Status::Met,
                    texts.message("fco-resubmit-changed").list(
                        "what",
                        what.iter()
                            .map(|w| texts.message("fco-resubmit-field").arg("field", w.replace(' ', "-"))),
                    ),
                ),
                Some(Reformulation::NoItems(n)) => texts.outcome(
                    code::FCO_RESUBMIT,
                    not_yet,
                    texts.message("fco-resubmit-no-items").arg("count", n),
                ),
                Some(Reformulation::Unchanged) => {
                    texts.outcome(code::FCO_RESUBMIT, not_yet, texts.message("fco-resubmit-unchanged"))
                }
            }
        }
        (Some(_), other) => texts.outcome(
            code::FCO_RESUBMIT,
            Status::Violated,
            match other {
                Some(stage) => texts
                    .message("fco-resubmit-not-unfavourable")
                    .arg("stage", stage.name_pt()),
                None => texts.message("fco-resubmit-not-unfavourable-unknown"),
            },
        ),
        (None, _) => texts.outcome(
            code::FCO_RESUBMIT,
            Status::NotApplicable,
            texts.message("fco-resubmit-none"),
        ),
    }
}

/// FCO-CEILING (art. 4) on the carta's borrower group, not applicable once unfavourable or expired.
fn group_ceiling(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Result<Outcome, ParamError> {
    let c = f.carta;
    let mut o = ceiling(f.group_exposure, params, on, texts)?;
    if matches!(c.stage, FcoCartaStage::Unfavourable | FcoCartaStage::Expired) {
        o.status = Status::NotApplicable;
    }
    Ok(o)
}

/// FCO-WEANED-2000: the group's weaned calves within the limit.
fn weaned(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Result<Outcome, ParamError> {
    let weaned_max = i64::from(params.count("FCO-WEANED-2000.HEADS", on)?);
    Ok(if heads(f.items, ItemKind::WeanedCalf) == 0 {
        texts.outcome(
            code::FCO_WEANED_2000,
            Status::NotApplicable,
            texts.message("fco-weaned-none"),
        )
    } else {
        texts.outcome(
            code::FCO_WEANED_2000,
            if f.group_weaned_heads <= weaned_max {
                Status::Met
            } else {
                Status::Violated
            },
            texts
                .message("fco-weaned")
                .arg("heads", f.group_weaned_heads)
                .arg("max", weaned_max),
        )
    })
}

/// FCO-SIRE-RATIO (art. 6 I c) on the carta's sires and dams.
fn sire_ratio_of(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Outcome {
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
        texts.outcome(
            code::FCO_SIRE_RATIO,
            Status::NotApplicable,
            texts
                .message("fco-sire-ratio-not-beef")
                .arg("activity", c.activity.name_pt()),
        )
    } else if unregistered_dams == 0 {
        texts.outcome(
            code::FCO_SIRE_RATIO,
            Status::NotApplicable,
            texts.message("fco-sire-ratio-no-dams"),
        )
    } else {
        guarded(code::FCO_SIRE_RATIO, || {
            let existing = i64::from(c.existing_sires.unwrap_or(0).max(0));
            let mut o = sire_ratio(unregistered_dams, registered_sires + existing, params, on, texts)?;
            o.explanation = match c.existing_sires {
                Some(n) => texts.message("fco-sire-ratio-counted").arg("own", n),
                None => texts.message("fco-sire-ratio-counted-no-own"),
            }
            .nested("ratio", std::mem::take(&mut o.explanation))
            .arg("registered", registered_sires)
            .arg("unregistered", (sires - registered_sires).max(0));
            Ok(o)
        })
    }
}

/// FCO-SIRE-PEDIGREE: the registration of the carta's sires.
fn sire_pedigree(f: &CartaFacts<'_>, texts: Texts) -> Outcome {
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
        texts.outcome(
            code::FCO_SIRE_PEDIGREE,
            Status::NotApplicable,
            texts.message("fco-pedigree-no-sires"),
        )
    } else if unregistered.is_empty() {
        texts.outcome(
            code::FCO_SIRE_PEDIGREE,
            Status::Met,
            texts.message(if dairy {
                "fco-pedigree-met-dairy"
            } else {
                "fco-pedigree-met-beef"
            }),
        )
    } else {
        texts.outcome(
            code::FCO_SIRE_PEDIGREE,
            Status::Violated,
            texts
                .message(if dairy {
                    "fco-pedigree-unregistered-dairy"
                } else {
                    "fco-pedigree-unregistered-beef"
                })
                .list(
                    "sires",
                    unregistered
                        .iter()
                        .map(|d| texts.message("explain-quoted").arg("text", d)),
                ),
        )
    }
}

/// FCO-BOAR-RATIO (art. 8 §5) on the carta's boars and sows.
fn boar_ratio_of(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Outcome {
    let c = f.carta;
    let (sows, boars) = (heads(f.items, ItemKind::Sow), heads(f.items, ItemKind::Boar));
    if boars == 0 {
        texts.outcome(
            code::FCO_BOAR_RATIO,
            Status::NotApplicable,
            texts.message("fco-boar-none"),
        )
    } else if let Err(why) = boar_ratio_applies(c.line, texts) {
        texts.outcome(code::FCO_BOAR_RATIO, Status::NotApplicable, why)
    } else {
        guarded(code::FCO_BOAR_RATIO, || {
            let mut o = boar_ratio(sows, boars, c.artificial_insemination == Some(true), params, on, texts)?;
            // Art. 8 §5 speaks of the family farmer buying boars "de forma coletiva"; whether a purchase is
            // collective is not recorded, so every boar on a family farmer's carta is held to the limit.
            o.explanation.push(texts.message("fco-boar-family"));
            if c.artificial_insemination.is_none() {
                o.explanation.push(texts.message("fco-boar-natural-read"));
            }
            Ok(o)
        })
    }
}

/// A credit line's rule: the carta's term and grace within the line's limits ([`term_limits`]) and a limit of the
/// line's own, judged by `own` beside the terms' outcome; terms beyond their limits speak before the line's own limit.
fn line_terms_and(
    code: RuleCode,
    c: &fco_carta::JudgedCarta,
    params: &Params,
    on: NaiveDate,
    texts: Texts,
    own: impl FnOnce(&Outcome) -> Result<Outcome, ParamError>,
) -> Outcome {
    guarded(code, || {
        let terms = term_limits(code, c.term_months, c.grace_months, params, on, texts)?;
        let own = own(&terms)?;
        Ok(if terms.status == Status::Violated { terms } else { own })
    })
}

/// FCO-SWINE-RETENTION (art. 8 §3): the sow retention line's terms and the sows' ages.
fn swine_retention(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Outcome {
    if f.carta.activity != FcoActivity::SowRetention {
        let off = texts.message("fco-not-sow-retention");
        return texts.outcome(code::FCO_SWINE_RETENTION, Status::NotApplicable, off);
    }
    line_terms_and(code::FCO_SWINE_RETENTION, f.carta, params, on, texts, |terms| {
        let min = params.count("FCO-SWINE-RETENTION.MIN_AGE_MONTHS", on)? as i32;
        let max = params.count("FCO-SWINE-RETENTION.MAX_AGE_MONTHS", on)? as i32;
        let sows: Vec<&fco_carta_item::Model> = f.items.iter().filter(|i| i.kind == ItemKind::Sow).collect();
        let bad_ages: Vec<i32> = sows
            .iter()
            .filter_map(|i| i.age_months)
            .filter(|a| *a < min || *a > max)
            .collect();
        let unstated = sows.iter().filter(|i| i.age_months.is_none()).count();
        Ok(if bad_ages.is_empty() && unstated > 0 {
            // Art. 8 §3 III conditions the line on the sows' age: an age not stated is not shown.
            texts.outcome(
                code::FCO_SWINE_RETENTION,
                Status::Pending,
                texts
                    .message("fco-sow-ages-unstated")
                    .nested("terms", terms.explanation.clone())
                    .arg("count", unstated)
                    .arg("min", min)
                    .arg("max", max),
            )
        } else if bad_ages.is_empty() {
            terms.clone()
        } else {
            texts.outcome(
                code::FCO_SWINE_RETENTION,
                Status::Violated,
                texts
                    .message("fco-sow-ages-outside")
                    .nested("terms", terms.explanation.clone())
                    .list(
                        "ages",
                        bad_ages.iter().map(|a| texts.message("explain-number").arg("n", a)),
                    )
                    .arg("min", min)
                    .arg("max", max),
            )
        })
    })
}

/// FCO-PANTANAL (art. 9): the Pantanal dam retention line's terms and the producer's dams.
fn pantanal(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Outcome {
    if f.carta.activity != FcoActivity::PantanalDamRetention {
        let off = texts.message("fco-not-pantanal");
        return texts.outcome(code::FCO_PANTANAL, Status::NotApplicable, off);
    }
    let dams = heads(f.items, ItemKind::Dam);
    line_terms_and(code::FCO_PANTANAL, f.carta, params, on, texts, |terms| {
        let max = i64::from(params.count("FCO-PANTANAL.HEADS", on)?);
        let producer = dams + f.producer_other_pantanal_dams;
        let counted = if f.producer_other_pantanal_dams > 0 {
            texts
                .message("fco-pantanal-dams-others")
                .arg("producer", producer)
                .arg("dams", dams)
                .arg("others", f.producer_other_pantanal_dams)
        } else {
            texts.message("fco-pantanal-dams").arg("dams", dams)
        };
        let (status, explanation) = if producer <= max {
            let met = texts.message("fco-pantanal-met");
            (Status::Met, met.nested("terms", terms.explanation.clone()))
        } else {
            (Status::Violated, texts.message("fco-pantanal-over"))
        };
        let explanation = explanation.nested("counted", counted).arg("max", max);
        Ok(texts.outcome(code::FCO_PANTANAL, status, explanation))
    })
}

/// FCO-USED-MACHINE: the carta's used machines, the first violated one (or the first) speaking for all.
fn used_machines(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Outcome {
    let c = f.carta;
    let used: Vec<Outcome> = f
        .items
        .iter()
        .filter(|i| i.kind == ItemKind::UsedMachine)
        .map(|i| {
            guarded(code::FCO_USED_MACHINE, || {
                used_machine(i.manufacture_year, c.contracted_on.unwrap_or(on), on, params, texts)
            })
        })
        .collect();
    match used.iter().find(|o| o.status == Status::Violated).or(used.first()) {
        Some(o) => o.clone(),
        None => texts.outcome(
            code::FCO_USED_MACHINE,
            Status::NotApplicable,
            texts.message("fco-machine-none"),
        ),
    }
}

/// FCO-OPERATING-ONLY: stand-alone operating credit only where the activity allows it.
fn operating_only(f: &CartaFacts<'_>, texts: Texts) -> Outcome {
    let c = f.carta;
    let operating_only =
        !f.items.is_empty() && f.items.iter().all(|i| i.investment_class == InvestmentClass::Operating);
    if !operating_only {
        texts.outcome(
            code::FCO_OPERATING_ONLY,
            Status::NotApplicable,
            texts.message("fco-operating-not"),
        )
    } else if operating_allowed(c.activity) {
        texts.outcome(
            code::FCO_OPERATING_ONLY,
            Status::Met,
            texts
                .message("fco-operating-allowed")
                .arg("activity", c.activity.name_pt()),
        )
    } else {
        texts.outcome(
            code::FCO_OPERATING_ONLY,
            Status::Violated,
            texts
                .message("fco-operating-refused")
                .arg("activity", c.activity.name_pt()),
        )
    }
}

/// FCO-CLASSIFY: each item's investment class as its kind and useful life say.
fn classified(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Result<Outcome, ParamError> {
    let c = f.carta;
    let mut misclassified = Vec::new();
    for i in f.items {
        let expected = classify(i.kind, i.useful_life_years, params, on)?;
        if expected != i.investment_class
            && !(i.investment_class == InvestmentClass::Operating && operating_item_allowed(c.activity, i.kind))
        {
            misclassified.push(
                texts
                    .message("fco-classify-item")
                    .arg("item", &i.description)
                    .arg("class", i.investment_class.name_pt())
                    .arg("expected", expected.name_pt()),
            );
        }
    }
    Ok(if misclassified.is_empty() {
        texts.outcome(
            code::FCO_CLASSIFY,
            if f.items.is_empty() {
                Status::Pending
            } else {
                Status::Met
            },
            texts.message("fco-classify-met").arg("count", f.items.len()),
        )
    } else {
        texts.outcome(
            code::FCO_CLASSIFY,
            Status::Violated,
            texts.message("fco-classify-wrong").clauses("items", misclassified),
        )
    })
}

/// FCO-AMENDMENT: each amendment recorded as needing a new approval exactly when it does.
fn amendments(f: &CartaFacts<'_>, params: &Params, texts: Texts) -> Result<Outcome, ParamError> {
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
            texts,
        )?;
        let needs_text = |n: bool| if n { "yes" } else { "no" };
        if needs == a.requires_new_approval {
            handled.push(
                texts
                    .message("fco-amend-handled-item")
                    .arg("day", a.requested_on)
                    .nested("why", why),
            );
        } else {
            wrong.push(
                texts
                    .message("fco-amend-wrong")
                    .arg("day", a.requested_on)
                    .arg("recorded", needs_text(a.requires_new_approval))
                    .nested("why", why)
                    .arg("needs", needs_text(needs)),
            );
        }
    }
    Ok(if f.amendments.is_empty() {
        texts.outcome(
            code::FCO_AMENDMENT,
            Status::NotApplicable,
            texts.message("fco-amend-none"),
        )
    } else if wrong.is_empty() {
        texts.outcome(
            code::FCO_AMENDMENT,
            Status::Met,
            texts.message("fco-amend-handled").clauses("items", handled),
        )
    } else {
        texts.outcome(
            code::FCO_AMENDMENT,
            Status::Violated,
            texts.message("explain-plain").clauses("text", wrong),
        )
    })
}

/// The checklist items (confirmed by a person), each pending where it applies; FCO-TEMPLATE by its date.
fn checklist(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, out: &mut Vec<Outcome>, texts: Texts) {
    let c = f.carta;
    out.extend(CHECKLIST.iter().map(|item| {
        if item.code == code::FCO_TEMPLATE {
            return guarded(code::FCO_TEMPLATE, || template(on, params, texts));
        }
        match item.on(c.activity, c.line, texts) {
            Ok(what) => texts.outcome(
                item.code,
                Status::Pending,
                texts
                    .message("fco-checklist-pending")
                    .nested("what", texts.message(what)),
            ),
            Err(why) => texts.outcome(item.code, Status::NotApplicable, why),
        }
    }));
}
