//! Rules of the social-fuel framing (IN MDA nº 2/2005).
//!
//! Size: every rule of IN MDA nº 2/2005, one function each in the order of its articles, sharing the project's facts
//! and the counting helpers.

use super::{
    Explanation, Outcome, RuleCode, Status, Texts,
    calendar::{Calendar, Deadline},
    code,
    params::{ParamError, Params},
};
use crate::{
    domain::{IbgeCode, Region},
    entities::{
        assistance_plan, contract_proposal, feedstock_acquisition, project_document, semi_arid_membership,
        social_fuel_project,
        vocab::{CompanyChangeKind, Decision, ProjectDocumentKind, SupplierKind},
    },
};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// One term of the share computation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    /// From whom.
    pub kind: SupplierKind,
    /// Kilograms.
    pub quantity: Decimal,
    /// Reais paid (for own production and sharecropping, ignored: the rules value them).
    pub cost: Decimal,
    /// Perennial crop: contracted hectares and kg/ha coefficient (art. 4).
    pub perennial: Option<(Decimal, Decimal)>,
    /// The supplier (the partner, for sharecropping).
    pub supplier: Option<i64>,
    /// Who published the perennial productivity coefficient (art. 4 sole §: MAPA, Conab or Embrapa).
    pub coefficient_source: Option<String>,
}

impl From<&feedstock_acquisition::Model> for Term {
    fn from(m: &feedstock_acquisition::Model) -> Self {
        Self {
            kind: m.supplier_kind,
            quantity: m.quantity_kg.to_decimal(),
            cost: m.cost.to_decimal(),
            perennial: m
                .perennial_area_ha
                .zip(m.productivity_kg_per_ha)
                .map(|(a, c)| (a.to_decimal(), c.to_decimal())),
            supplier: m.supplier_party_id,
            coefficient_source: m.coefficient_source.clone(),
        }
    }
}

/// The family-farm share of a year's acquisitions, with every term of the sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    /// Cost from family farmers and their cooperatives.
    pub family: Decimal,
    /// Total acquisition cost, own production and sharecropping valued by art. 3 §2–3.
    pub total: Decimal,
    /// `family ÷ total` in percent, exact.
    pub percent: Decimal,
    /// One line per term: how it was valued.
    pub lines: Vec<Explanation>,
    /// Terms the articles give no price for (own production with no third-party purchase, a sharecropping part with
    /// no purchase from the partner), with the kind of each: while any remains, the share cannot be judged.
    pub unpriced: Vec<(SupplierKind, Explanation)>,
}

/// The bodies art. 4 sole § names for the perennial productivity coefficient.
pub const COEFFICIENT_SOURCES: [&str; 3] = ["MAPA", "Conab", "Embrapa"];

/// Whether a stated coefficient source is one art. 4 sole § names (case and accents aside, as the start of the name).
pub fn official_coefficient_source(source: Option<&str>) -> bool {
    source.is_some_and(|s| {
        let s = s.trim().to_lowercase();
        COEFFICIENT_SOURCES.iter().any(|o| s.starts_with(&o.to_lowercase()))
    })
}

/// A supplier's kind as the catalogue's `sf-supplier` names it.
fn supplier(kind: SupplierKind, texts: Texts) -> Explanation {
    texts.message("sf-supplier").arg(
        "kind",
        match kind {
            SupplierKind::FamilyFarmer => "family",
            SupplierKind::FamilyFarmCooperative => "cooperative",
            SupplierKind::OtherThirdParty => "other",
            SupplierKind::OwnProduction => "own",
            SupplierKind::Sharecropping => "sharecrop",
        },
    )
}

fn is_family(kind: SupplierKind) -> bool {
    matches!(kind, SupplierKind::FamilyFarmer | SupplierKind::FamilyFarmCooperative)
}

fn is_third_party(kind: SupplierKind) -> bool {
    matches!(
        kind,
        SupplierKind::FamilyFarmer | SupplierKind::FamilyFarmCooperative | SupplierKind::OtherThirdParty
    )
}

fn avg_price(terms: &[&Term]) -> Option<Decimal> {
    let qty: Decimal = terms.iter().map(|t| t.quantity).sum();
    let cost: Decimal = terms.iter().map(|t| t.cost).sum();
    (!qty.is_zero()).then(|| cost / qty)
}

/// Computes the share (SF-SHARE-CALC): own production at the average third-party price (SF-OWN-PRICE), the
/// producer's sharecropping part at the average price paid to the partner (SF-SHARECROP-PRICE), perennial contracts
/// by area × coefficient at the contract's unit price (SF-PERENNIAL). `None` when nothing was acquired.
pub fn share(terms: &[Term], texts: Texts) -> Option<Share> {
    // The period's average price paid to third parties: every third-party purchase, perennial contracts included
    // (what was delivered under them and what it cost).
    let third: Vec<&Term> = terms.iter().filter(|t| is_third_party(t.kind)).collect();
    let third_avg = avg_price(&third);
    let mut family = Decimal::ZERO;
    let mut total = Decimal::ZERO;
    let mut lines = Vec::new();
    let mut unpriced = Vec::new();
    for (i, t) in terms.iter().enumerate() {
        let n = i + 1;
        let value = match (t.kind, t.perennial) {
            (k, Some((area, coef))) if is_third_party(k) => {
                let expected = area * coef;
                let unit = if t.quantity.is_zero() {
                    third_avg.unwrap_or_default()
                } else {
                    t.cost / t.quantity
                };
                let v = (expected * unit).round_dp(2);
                lines.push(
                    texts
                        .message("sf-term-perennial")
                        .arg("n", n)
                        .nested("supplier", supplier(k, texts))
                        .arg("area", area)
                        .arg("coef", coef)
                        .arg("expected", expected)
                        .arg("unit", unit.round_dp(4))
                        .arg("value", v),
                );
                v
            }
            (SupplierKind::OwnProduction | SupplierKind::Sharecropping, _) => {
                // Own production at the period's average third-party price, the producer's sharecropping part at the
                // average price paid to the partner: one count, two prices.
                let (price, priced, unpriced_id) = if t.kind == SupplierKind::OwnProduction {
                    (third_avg, "sf-term-own", "sf-term-own-unpriced")
                } else {
                    let partner: Vec<&Term> = terms
                        .iter()
                        .filter(|o| is_third_party(o.kind) && o.supplier.is_some() && o.supplier == t.supplier)
                        .collect();
                    (avg_price(&partner), "sf-term-sharecrop", "sf-term-sharecrop-unpriced")
                };
                let Some(price) = price else {
                    let why = texts.message(unpriced_id).arg("n", n).arg("kg", t.quantity);
                    lines.push(why.clone());
                    unpriced.push((t.kind, why));
                    continue;
                };
                let v = (t.quantity * price).round_dp(2);
                lines.push(
                    texts
                        .message(priced)
                        .arg("n", n)
                        .arg("kg", t.quantity)
                        .arg("unit", price.round_dp(4))
                        .arg("value", v),
                );
                v
            }
            (k, _) => {
                lines.push(
                    texts
                        .message("sf-term-bought")
                        .arg("n", n)
                        .nested("supplier", supplier(k, texts))
                        .arg("cost", t.cost)
                        .arg("kg", t.quantity),
                );
                t.cost
            }
        };
        total += value;
        if is_family(t.kind) {
            family += value;
        }
    }
    if total.is_zero() {
        return None;
    }
    Some(Share {
        family,
        total,
        percent: family * Decimal::from(100) / total,
        lines,
        unpriced,
    })
}

/// The delimitations of the semi-arid Fomento ships (`migration/data/`), by the first day each was in force. Which one
/// governs a date is read from these days; who is in it, from `semi_arid_membership`.
pub const SEMI_ARID_DELIMITATIONS: [((i32, u32, u32), &str); 2] = [
    ((2017, 11, 23), "Resoluções Condel/SUDENE nº 107 e 115/2017"),
    ((2021, 12, 30), "Resolução Condel/SUDENE nº 150/2021 (e nº 176/2024)"),
];

/// Whether a municipality (its membership rows) is in the semi-arid on `on`, by the delimitation in force that day,
/// and a note naming it. Before the first delimitation shipped (2017-11-23) the one in force, Portaria MI nº 89/2005,
/// is not available: the nearest later one (2017) is used, and the note says so.
pub fn semi_arid_on(rows: &[semi_arid_membership::Model], on: NaiveDate) -> (bool, Explanation) {
    let by = |member: bool, source: &str| {
        Explanation::message("sf-semi-arid")
            .arg("member", if member { "yes" } else { "no" })
            .arg("source", source)
            .arg("on", on)
    };
    let day = |(y, m, d): (i32, u32, u32)| NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default();
    let covers = |m: &semi_arid_membership::Model| m.effective_from <= on && m.effective_to.is_none_or(|to| to >= on);
    // Rows of IBGE code 0 describe delimitations an operator imported: a municipality with no row of one in force
    // on `on` is outside it.
    let (imported, rows): (Vec<&semi_arid_membership::Model>, Vec<&semi_arid_membership::Model>) =
        rows.iter().partition(|m| m.ibge_code == 0);
    if let Some(d) = imported.iter().find(|m| covers(m)) {
        return match rows.iter().find(|m| m.source == d.source && covers(m)) {
            Some(_) => (true, by(true, &d.source)),
            None => (false, by(false, &d.source)),
        };
    }
    let rows: Vec<semi_arid_membership::Model> = rows.into_iter().cloned().collect();
    let (first, first_name) = (day(SEMI_ARID_DELIMITATIONS[0].0), SEMI_ARID_DELIMITATIONS[0].1);
    if on < first {
        let member = rows.iter().any(|m| m.effective_from == first);
        return (
            member,
            Explanation::message("sf-semi-arid-nearest")
                .arg("member", if member { "yes" } else { "no" })
                .arg("name", first_name)
                .arg("from", first)
                .arg("on", on),
        );
    }
    let covering = rows
        .iter()
        .find(|m| m.effective_from <= on && m.effective_to.is_none_or(|to| to >= on));
    match covering {
        Some(m) => (true, by(true, &m.source)),
        None => {
            let name = SEMI_ARID_DELIMITATIONS
                .iter()
                .rev()
                .find(|(from, _)| day(*from) <= on)
                .map_or(first_name, |(_, n)| n);
            (false, by(false, name))
        }
    }
}

/// The parameter key of the minimum share for a plant: semi-arid first, then the region.
pub fn share_key(code: IbgeCode, semi_arid: bool) -> &'static str {
    if semi_arid {
        return "SF-SHARE-MIN.SEMI_ARID";
    }
    match code.region() {
        Region::Northeast => "SF-SHARE-MIN.NORTHEAST",
        Region::Southeast => "SF-SHARE-MIN.SOUTHEAST",
        Region::South => "SF-SHARE-MIN.SOUTH",
        Region::North => "SF-SHARE-MIN.NORTH",
        Region::CentreWest => "SF-SHARE-MIN.CENTRE_WEST",
    }
}

/// SF-SHARE-MIN: the share against the minimum in force on `on` for the plant's region.
pub fn check_share(
    terms: &[Term],
    plant: IbgeCode,
    semi_arid: bool,
    params: &Params,
    on: NaiveDate,
    texts: Texts,
) -> Result<Outcome, ParamError> {
    let key = share_key(plant, semi_arid);
    let min = params.version(key, on)?;
    let place = texts
        .message("sf-share-place")
        .arg("semi_arid", if semi_arid { "yes" } else { "no" })
        .arg("region", plant.region().name_pt());
    let Some(s) = share(terms, texts) else {
        return Ok(texts.outcome(
            code::SF_SHARE_MIN,
            Status::Pending,
            texts
                .message("sf-share-none")
                .nested("place", place)
                .arg("min", min.value)
                .arg("source", &min.source),
        ));
    };
    if !s.unpriced.is_empty() {
        return Ok(texts.outcome(
            code::SF_SHARE_MIN,
            Status::Pending,
            texts
                .message("sf-share-unpriced")
                .arg("min", min.value)
                .nested("place", place)
                .arg("source", &min.source)
                .clauses("terms", s.unpriced.into_iter().map(|(_, why)| why)),
        ));
    }
    let status = if s.percent >= min.value {
        Status::Met
    } else {
        Status::Violated
    };
    Ok(texts.outcome(
        code::SF_SHARE_MIN,
        status,
        texts
            .message("sf-share")
            .arg("family", s.family)
            .arg("total", s.total)
            .arg("share", s.percent.round_dp(2))
            .arg("min", min.value)
            .nested("place", place)
            .arg("source", &min.source)
            .arg("on", on)
            .clauses("terms", s.lines),
    ))
}

/// How a deadline stands on a date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadlineStatus {
    /// Running, not yet met.
    Pending,
    /// Met in time.
    Met,
    /// Passed without the act, or the act came late.
    Overdue,
    /// Its starting event has not happened.
    NotStarted,
    /// The rule was not in force on the date asked (before its parameter's first version).
    NotApplicable,
}

/// A deadline of one financing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadlineOutcome {
    /// Rule code.
    pub code: &'static str,
    /// Legal basis.
    pub legal_basis: &'static str,
    /// The due date, when the deadline runs in days or months.
    pub due: Option<NaiveDate>,
    /// The due instant, when it runs in hours.
    pub due_at: Option<chrono::DateTime<chrono::Utc>>,
    /// Where it stands.
    pub status: DeadlineStatus,
    /// How it was counted and what happened.
    pub note: super::Explanation,
    /// Whether the act it waits for was done (in time or late).
    pub done: bool,
}

/// Builds a day-based deadline outcome from its start, its computed deadline and the date it was met.
pub fn day_deadline(
    code: RuleCode,
    computed: Option<Deadline>,
    met_on: Option<NaiveDate>,
    as_of: NaiveDate,
    not_started: impl Into<super::Explanation>,
    texts: Texts,
) -> DeadlineOutcome {
    let basis = code.legal_basis();
    let code = code.as_str();
    let Some(dl) = computed else {
        return DeadlineOutcome {
            code,
            legal_basis: basis,
            due: None,
            due_at: None,
            status: DeadlineStatus::NotStarted,
            note: texts.text(not_started),
            done: met_on.is_some(),
        };
    };
    let (status, tail) = match met_on {
        Some(d) if d <= dl.due => (DeadlineStatus::Met, texts.message("deadline-met").arg("day", d)),
        Some(d) => (
            DeadlineStatus::Overdue,
            texts
                .message("deadline-done-late")
                .arg("day", d)
                .arg("days", (d - dl.due).num_days()),
        ),
        None if as_of > dl.due => (
            DeadlineStatus::Overdue,
            texts
                .message("deadline-overdue")
                .arg("days", (as_of - dl.due).num_days())
                .arg("on", as_of),
        ),
        None => (
            DeadlineStatus::Pending,
            texts
                .message("deadline-pending")
                .arg("days", (dl.due - as_of).num_days())
                .arg("on", as_of),
        ),
    };
    DeadlineOutcome {
        code,
        legal_basis: basis,
        due: Some(dl.due),
        due_at: None,
        status,
        note: texts
            .message("deadline-note")
            .nested("count", dl.note)
            .nested("tail", tail),
        done: met_on.is_some(),
    }
}

/// The deadlines of a project on `as_of`: the 30-day decision, the 6-month evaluation, the 30-day seal request and,
/// when granted, the 12-month extension cap.
pub fn deadlines(
    p: &social_fuel_project::Model,
    params: &Params,
    cal: &Calendar,
    as_of: NaiveDate,
    texts: Texts,
) -> Result<Vec<DeadlineOutcome>, ParamError> {
    if let Some(why) = revoked(p, as_of, texts) {
        let codes = [
            code::SF_DECISION_30D,
            code::SF_EXTERNAL_EVAL_6M,
            code::SF_SEAL_REQUEST_30D,
            code::SF_EXTENSION_12M,
        ];
        return Ok(codes
            .into_iter()
            .map(|c| DeadlineOutcome {
                code: c.as_str(),
                legal_basis: c.legal_basis(),
                due: None,
                due_at: None,
                status: DeadlineStatus::NotApplicable,
                note: texts.message("explain-sentence").nested("text", why.clone()),
                done: false,
            })
            .collect());
    }
    // MDA's deadlines count the federal offices' days.
    let cal = &cal.of(super::calendar::Authority::Federal);
    let mut out = Vec::new();
    // SF-DECISION-30D counts from filing, with the parameter in force on the filing date.
    out.push(super::guarded_deadline(code::SF_DECISION_30D, || {
        let decision = match p.filed_on {
            Some(f) => Some(cal.add_days(f, params.count("SF-DECISION-30D.DAYS", f)?, texts)),
            None => None,
        };
        let mut d = day_deadline(
            code::SF_DECISION_30D,
            decision,
            p.decided_on,
            as_of,
            texts.message("sf-not-filed"),
            texts,
        );
        if p.analysed_by_bank && p.filed_on.is_some() {
            // Art. 9 sole §: the bank's own financing deadline applies, not MDA's 30 days (and it is not modelled).
            d.status = DeadlineStatus::NotApplicable;
            d.due = None;
            d.note = texts.message("sf-decision-by-bank");
        }
        Ok(d)
    }));
    // SF-EXTERNAL-EVAL-6M (art. 11): six months after the industrial start or after the scheduled implementation end,
    // whichever comes first, so a late start does not move a deadline the schedule had already set running. A delay
    // the bank (and so MDA) accepted (art. 10 §2) is recorded as the schedule's new end, which is the one read.
    let scheduled_end = p.scheduled_implementation_end.filter(|e| *e <= as_of);
    let eval_start = match (p.industrial_start_on, scheduled_end) {
        (Some(s), Some(e)) => Some(s.min(e)),
        (s, e) => s.or(e),
    };
    let from_schedule = match (p.industrial_start_on, scheduled_end) {
        (Some(s), Some(e)) if e < s => texts
            .message("sf-eval-from-schedule-before-start")
            .arg("end", e)
            .arg("start", s),
        (None, Some(e)) => texts.message("sf-eval-from-schedule-not-started").arg("end", e),
        _ => Explanation::default(),
    };
    // SF-EXTENSION-12M (art. 11 §2): a granted extension keeps the framing six more months, twelve in all, and the
    // evaluation is judged against that day by both rules, so they never disagree.
    let extended = |s: NaiveDate| extended_end(s, params, cal, texts);
    // An extension granted during the non-conformity hearing keeps the framing while MDA hears the company; it does
    // not move the evaluation already concluded.
    let in_hearing = heard_extension(p);
    out.push(super::guarded_deadline(code::SF_EXTERNAL_EVAL_6M, || {
        let six = match eval_start {
            Some(s) => Some(cal.add_months(s, params.count("SF-EXTERNAL-EVAL-6M.MONTHS", s)?, texts)),
            None => None,
        };
        let counted = match (six, p.extension_granted_on.filter(|_| !in_hearing), eval_start) {
            (Some(six), Some(granted), Some(s)) => {
                let twelve = extended(s)?;
                let note = texts
                    .message("sf-eval-extended")
                    .nested("count", six.note)
                    .arg("six", six.due)
                    .arg("granted", granted)
                    .arg("until", twelve.due);
                Some(Deadline { note, ..twelve })
            }
            (six, _, _) => six,
        };
        let mut e = day_deadline(
            code::SF_EXTERNAL_EVAL_6M,
            counted,
            p.external_evaluation_on,
            as_of,
            texts.message("sf-eval-not-started"),
            texts,
        );
        if !from_schedule.is_empty() && e.due.is_some() {
            e.note = texts
                .message("sf-eval-from-schedule")
                .nested("why", from_schedule)
                .nested("note", e.note);
        }
        Ok(e)
    }));
    // SF-SEAL-REQUEST-30D: from a conforming evaluation.
    out.push(super::guarded_deadline(code::SF_SEAL_REQUEST_30D, || {
        // From the conformity, or from MDA's acceptance of the justifications of a non-conformity (which keeps the
        // framing as a conformity would: the reading docs/rules.md states).
        let seal = match (
            p.external_evaluation_on,
            p.evaluation_result,
            p.justifications_accepted_on,
        ) {
            (Some(ev), Some(Decision::Favourable), _) | (Some(_), _, Some(ev)) => {
                Some(cal.add_days(ev, params.count("SF-SEAL-REQUEST-30D.DAYS", ev)?, texts))
            }
            _ => None,
        };
        let mut d = day_deadline(
            code::SF_SEAL_REQUEST_30D,
            seal,
            p.seal_requested_on,
            as_of,
            texts.message("sf-seal-not-started"),
            texts,
        );
        // Art. 11 I counts the 30 days from the conformity; art. 11 §1 from the start of industrial operations. The
        // status follows art. 11 I: the seal can only be asked for once the evaluation found conformity, months after
        // the start, so §1's count would have ended before the request could be made. Both dates are shown.
        if let (Some(start), Some(_)) = (p.industrial_start_on, d.due) {
            let by_start = cal.add_days(start, params.count("SF-SEAL-REQUEST-30D.DAYS", start)?, texts);
            d.note = texts
                .message("sf-seal-by-start")
                .nested("note", std::mem::take(&mut d.note))
                .arg("start", start)
                .arg("due", by_start.due);
        }
        Ok(d)
    }));
    // SF-EXTENSION-12M: the evaluation deadline pushed once by 6 months; granted during the hearing, the act it waits
    // for is MDA's answer to the justifications (accepting them or unframing).
    let extension_act = if in_hearing {
        p.justifications_accepted_on.or(p.unframed_on)
    } else {
        p.external_evaluation_on
    };
    out.push(super::guarded_deadline(code::SF_EXTENSION_12M, || {
        let ext = match (p.extension_granted_on, eval_start) {
            (Some(_), Some(s)) => Some(extended(s)?),
            _ => None,
        };
        let not_started = match (p.extension_requested_on, p.extension_refused_on) {
            (Some(_), Some(r)) => match p.extension_decision_reason.as_deref() {
                Some(why) => texts.message("sf-extension-refused").arg("day", r).arg("reason", why),
                None => texts.message("sf-extension-refused-no-reason").arg("day", r),
            },
            (Some(a), None) => texts.message("sf-extension-undecided").arg("day", a),
            _ => texts.message("sf-extension-not-asked"),
        };
        let mut d = day_deadline(code::SF_EXTENSION_12M, ext, extension_act, as_of, not_started, texts);
        if in_hearing && d.due.is_some() {
            d.note = texts.message("sf-extension-in-hearing").nested("note", d.note);
        }
        Ok(d)
    }));
    let acts = [
        p.decided_on,
        p.external_evaluation_on,
        p.seal_requested_on,
        extension_act,
    ];
    for (d, done_on) in out.iter_mut().zip(acts) {
        after_revocation(d, done_on, texts);
    }
    Ok(out)
}

/// SF-EXTENSION-12M (art. 11 §2): the last day of the framing an extension keeps, counted from `start` (the industrial
/// start, or the evaluation's start for its deadline): the evaluation's months (`SF-EXTERNAL-EVAL-6M.MONTHS`) and the
/// extension's (`SF-EXTENSION-12M.MONTHS`), "totalizando 12 (doze) meses", by the parameters in force on `start`,
/// moved to the next business day. The deadlines and the lifecycle's guards (a late request, an unframing while the
/// extension holds) count it here alike.
pub fn extended_end(start: NaiveDate, params: &Params, cal: &Calendar, texts: Texts) -> Result<Deadline, ParamError> {
    let base = params.count("SF-EXTERNAL-EVAL-6M.MONTHS", start)?;
    let extra = params.count("SF-EXTENSION-12M.MONTHS", start)?;
    Ok(cal.add_months(start, base + extra, texts))
}

/// Whether the extension was granted during the non-conformity hearing (art. 11 §2 read there): on or after the day
/// the external evaluation concluded with non-conformity.
pub fn heard_extension(p: &social_fuel_project::Model) -> bool {
    match (p.extension_granted_on, p.external_evaluation_on, p.evaluation_result) {
        (Some(g), Some(e), Some(r)) => r != Decision::Favourable && g >= e,
        _ => false,
    }
}

/// A deadline of IN MDA nº 2/2005 that falls after its revocation binds no one: not applicable, saying why, unless its
/// act was done while the instrument was in force (then it stands as met or late).
fn after_revocation(d: &mut DeadlineOutcome, done_on: Option<NaiveDate>, texts: Texts) {
    let instrument = super::mda_2005();
    let (Some(until), Some(due)) = (instrument.in_force_until, d.due) else {
        return;
    };
    if due <= until || done_on.is_some_and(|a| a <= until) {
        return;
    }
    d.status = DeadlineStatus::NotApplicable;
    d.note = match done_on {
        Some(a) => texts.message("sf-due-after-revocation-done").arg("act", a),
        None => texts.message("sf-due-after-revocation"),
    }
    .arg("due", due)
    .arg("instrument", instrument.name)
    .arg("by", instrument.revoked_by.unwrap_or_default())
    .arg("until", until);
}

/// Everything a project's rules need.
#[derive(Debug, Clone, Copy)]
pub struct ProjectFacts<'a> {
    /// The project.
    pub project: &'a social_fuel_project::Model,
    /// Its acquisitions (all years; the latest year counts).
    pub acquisitions: &'a [feedstock_acquisition::Model],
    /// Its contract proposals.
    pub proposals: &'a [contract_proposal::Model],
    /// Its annex-I documents.
    pub documents: &'a [project_document::Model],
    /// Its technical-assistance plan.
    pub plan: Option<&'a assistance_plan::Model>,
    /// Whether the plant's municipality is in the semi-arid on the reference date.
    pub semi_arid: bool,
    /// Which delimitation said so, and why that one ([`semi_arid_on`]).
    pub semi_arid_note: Option<&'a Explanation>,
    /// What each change notice the company filed (by the day judged) reports.
    pub change_notices: &'a [CompanyChangeKind],
}

/// The annex-I documents not among `received`, by name (`«nome» (CODE)`, as a catalogue message).
pub fn missing_documents(received: &[ProjectDocumentKind], texts: Texts) -> Vec<Explanation> {
    ProjectDocumentKind::ANNEX_I
        .iter()
        .filter(|k| !received.contains(k))
        .map(|k| {
            texts
                .message("sf-document")
                .arg("name", k.name_pt())
                .arg("code", sea_orm::ActiveEnum::to_value(k))
        })
        .collect()
}

/// Several clauses written one after the other, separated by `; ` (a sentence made of the parts a rule found).
fn clauses(parts: impl IntoIterator<Item = Option<Explanation>>, texts: Texts) -> Explanation {
    texts
        .message("explain-plain")
        .clauses("text", parts.into_iter().flatten())
}

/// What the external evaluation found, on non-conformity: MDA's words as written, or, when MDA gave none, the
/// catalogue's default finding (`sf-finding-default`, rendered in the reader's language; so is the English text
/// stored for it before, [`social_fuel_project::STORED_DEFAULT_FINDING`]); none when the evaluation found no
/// non-conformity.
pub fn finding(p: &social_fuel_project::Model) -> Option<Explanation> {
    match p.evaluation_finding.as_deref() {
        Some(social_fuel_project::STORED_DEFAULT_FINDING) => Some(Explanation::message("sf-finding-default")),
        Some(text) => Some(Explanation::message("explain-plain").arg("text", text)),
        None if p.external_evaluation_on.is_some() && p.evaluation_result == Some(Decision::Unfavourable) => {
            Some(Explanation::message("sf-finding-default"))
        }
        None => None,
    }
}

/// A person's text as it was written, or a catalogue message when there is none.
fn text_or(text: Option<&str>, none: &'static str, texts: Texts) -> Explanation {
    match text {
        Some(t) => texts.message("explain-plain").arg("text", t),
        None => texts.message(none),
    }
}

/// SF-DOCUMENTS: the six annex-I documents.
pub fn check_documents(p: &social_fuel_project::Model, docs: &[project_document::Model], texts: Texts) -> Outcome {
    // A filed request is judged by what it carried: documents received after the filing date do not count for it.
    let received: Vec<ProjectDocumentKind> = docs
        .iter()
        .filter(|d| p.filed_on.is_none_or(|f| d.received_on <= f))
        .map(|d| d.kind)
        .collect();
    let missing = missing_documents(&received, texts);
    match (missing.is_empty(), p.filed_on) {
        (true, _) => texts.outcome(code::SF_DOCUMENTS, Status::Met, texts.message("sf-documents-all")),
        (false, None) => texts.outcome(
            code::SF_DOCUMENTS,
            Status::Pending,
            texts.message("sf-documents-missing").list("missing", missing),
        ),
        (false, Some(f)) => texts.outcome(
            code::SF_DOCUMENTS,
            Status::Violated,
            texts
                .message("sf-documents-filed-without")
                .arg("day", f)
                .list("missing", missing),
        ),
    }
}

/// SF-BANK-FIRST: the bank framed the project before it was filed with MDA.
pub fn check_bank_first(p: &social_fuel_project::Model, texts: Texts) -> Outcome {
    match (p.bank_framed_on, p.filed_on) {
        (Some(b), Some(f)) if b <= f => texts.outcome(
            code::SF_BANK_FIRST,
            Status::Met,
            texts.message("sf-bank-first-met").arg("framed", b).arg("filed", f),
        ),
        (Some(b), Some(f)) => texts.outcome(
            code::SF_BANK_FIRST,
            Status::Violated,
            texts.message("sf-bank-first-before").arg("framed", b).arg("filed", f),
        ),
        (None, Some(f)) => texts.outcome(
            code::SF_BANK_FIRST,
            Status::Violated,
            texts.message("sf-bank-first-none").arg("filed", f),
        ),
        (Some(b), None) => texts.outcome(
            code::SF_BANK_FIRST,
            Status::Met,
            texts.message("sf-bank-first-not-filed").arg("framed", b),
        ),
        (None, None) => texts.outcome(
            code::SF_BANK_FIRST,
            Status::Pending,
            texts.message("sf-bank-first-pending"),
        ),
    }
}

/// What a technical-assistance plan lacks of the five contents of art. 6 sole § (I staff, II outsourcing contract when
/// outsourced, III coverage, IV farmers assisted, V methodology). An outsourced plan still describes its staff: II
/// asks the contract "também", in addition to I.
pub fn plan_gaps(plan: &assistance_plan::Model) -> Vec<&'static str> {
    plan_gap_ids(plan)
        .into_iter()
        .map(|id| match id {
            "sf-plan-staff" => "the staff, with CVs and roles (I)",
            "sf-plan-contract" => "the outsourcing contract, asked in addition to the staff when outsourced (II)",
            "sf-plan-coverage" => "the coverage area (III)",
            "sf-plan-farmers" => "the number of farmers assisted (IV)",
            _ => "the methodology and activities (V)",
        })
        .collect()
}

/// [`plan_gaps`] as message ids of the catalogue's `explanations.ftl`.
pub fn plan_gap_ids(plan: &assistance_plan::Model) -> Vec<&'static str> {
    let given = |v: &Option<String>| v.as_deref().is_some_and(|t| !t.trim().is_empty());
    let mut missing = Vec::new();
    if !given(&plan.staff_description) {
        missing.push("sf-plan-staff");
    }
    if plan.outsourced && !given(&plan.outsourcing_contract) {
        missing.push("sf-plan-contract");
    }
    if !given(&plan.coverage_area) {
        missing.push("sf-plan-coverage");
    }
    if plan.farmers_assisted.is_none_or(|n| n <= 0) {
        missing.push("sf-plan-farmers");
    }
    if !given(&plan.methodology) {
        missing.push("sf-plan-methodology");
    }
    missing
}

/// SF-ASSISTANCE-PLAN: art. 2 makes the plan a minimum criterion of the framing, so a filed request without one, or
/// with one lacking any of the five contents of art. 6 sole §, is violated (as a filed request without contract
/// proposals is); a complete plan's compatibility with the acquisitions is a person's judgement, pending until someone
/// confirms it (MDA's favourable decision is that judgement).
pub fn check_plan(p: &social_fuel_project::Model, plan: Option<&assistance_plan::Model>, texts: Texts) -> Outcome {
    match plan {
        None => match p.filed_on {
            Some(f) => texts.outcome(
                code::SF_ASSISTANCE_PLAN,
                Status::Violated,
                texts.message("sf-plan-none-filed").arg("day", f),
            ),
            None => texts.outcome(code::SF_ASSISTANCE_PLAN, Status::Pending, texts.message("sf-plan-none")),
        },
        Some(plan) => match plan_gap_ids(plan) {
            missing if !missing.is_empty() => texts.outcome(
                code::SF_ASSISTANCE_PLAN,
                Status::Violated,
                texts
                    .message("sf-plan-lacks")
                    .list("missing", missing.into_iter().map(Explanation::message)),
            ),
            _ if plan.confirmed_by.is_some() => texts.outcome(
                code::SF_ASSISTANCE_PLAN,
                Status::Met,
                texts
                    .message("sf-plan-confirmed")
                    .arg("by", plan.confirmed_by.as_deref().unwrap_or("")),
            ),
            _ => texts.outcome(
                code::SF_ASSISTANCE_PLAN,
                Status::Pending,
                texts.message("sf-plan-unconfirmed"),
            ),
        },
    }
}

/// SF-CHANGES: art. 12 has the company report changes of plant address, corporate name, incorporation and the start
/// of its activity, with documents. A recorded industrial start is owed its notice: pending while none is filed (the
/// article sets no term, so it is never late), met once filed.
pub fn check_changes(p: &social_fuel_project::Model, notices: &[CompanyChangeKind], texts: Texts) -> Outcome {
    let start_notified = notices.contains(&CompanyChangeKind::ActivityStart);
    match p.industrial_start_on {
        Some(d) if !start_notified => texts.outcome(
            code::SF_CHANGES,
            Status::Pending,
            texts
                .message("sf-changes-start-unreported")
                .arg("day", d)
                .arg("count", notices.len()),
        ),
        _ if !notices.is_empty() => texts.outcome(
            code::SF_CHANGES,
            Status::Met,
            texts.message("sf-changes-filed").arg("count", notices.len()),
        ),
        _ => texts.outcome(
            code::SF_CHANGES,
            Status::NotApplicable,
            texts.message("sf-changes-none"),
        ),
    }
}

/// SF-DECISION-LETTER: MDA decides by a letter (ofício) of conformity or non-conformity naming the company and its
/// CNPJ (art. 9 I–II), signed by the Secretary of Family Agriculture or a legal representative; a non-conformity letter
/// also states what the analysis was based on (art. 9 II, "indicando em que foi baseada a análise").
pub fn check_decision_letter(p: &social_fuel_project::Model, texts: Texts) -> Outcome {
    let text = |v: &Option<String>| v.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
    // Who signed, as a clause placed after the letter (empty when unrecorded).
    let signed = match text(&p.decision_signatory) {
        Some(s) => texts.message("sf-letter-signed").arg("by", s),
        None => texts.message("explain-plain").arg("text", ""),
    };
    match (p.decided_on, text(&p.decision_letter), p.decision) {
        (None, _, _) => texts.outcome(
            code::SF_DECISION_LETTER,
            Status::Pending,
            texts.message("sf-letter-undecided"),
        ),
        (Some(d), None, _) => texts.outcome(
            code::SF_DECISION_LETTER,
            Status::Violated,
            texts.message("sf-letter-none").arg("day", d),
        ),
        (Some(d), Some(letter), Some(Decision::Favourable)) => texts.outcome(
            code::SF_DECISION_LETTER,
            Status::Met,
            texts
                .message("sf-letter-conformity")
                .arg("day", d)
                .arg("letter", letter)
                .nested("signed", signed),
        ),
        (Some(d), Some(letter), _) => match text(&p.decision_grounds) {
            Some(grounds) => texts.outcome(
                code::SF_DECISION_LETTER,
                Status::Met,
                texts
                    .message("sf-letter-nonconformity")
                    .arg("day", d)
                    .arg("letter", letter)
                    .nested("signed", signed)
                    .arg("grounds", grounds),
            ),
            None => texts.outcome(
                code::SF_DECISION_LETTER,
                Status::Violated,
                texts
                    .message("sf-letter-no-grounds")
                    .arg("day", d)
                    .arg("letter", letter),
            ),
        },
    }
}

/// SF-SCHEDULE (art. 10): the criteria must hold at the industrial start the approved project scheduled (§1), judged on
/// `share` (SF-SHARE-MIN's status). A start after the scheduled end, or none by then, is a violation unless the delay
/// was accepted: §2 has MDA accept a delay "somente ... se o forem pelo agente financeiro", so the bank's acceptance is
/// its own dated act (who, when) and MDA's follows it, dated too; both must be recorded by the day judged (`p` as known
/// that day: before MDA's acceptance the schedule ends on the end scheduled before the delay). Once the
/// bank approved the financing the company owes MDA its physical-financial schedule (caput): the article sets no term,
/// so while it is not presented a rule otherwise met is pending, never late.
pub fn check_schedule(p: &social_fuel_project::Model, share: Status, as_of: NaiveDate, texts: Texts) -> Outcome {
    let delay = match (p.scheduled_implementation_end, p.industrial_start_on) {
        (Some(e), Some(d)) if d > e => Some(
            texts
                .message("sf-schedule-started-late")
                .arg("day", d)
                .arg("scheduled", e),
        ),
        (Some(e), None) if as_of > e => Some(texts.message("sf-schedule-not-started-by").arg("scheduled", e)),
        _ => None,
    };
    let bank = p
        .delay_bank_accepted_on
        .filter(|d| *d <= as_of)
        .map(|d| match p.delay_bank_accepted_by.as_deref() {
            Some(by) => texts
                .message("sf-schedule-bank-accepted-by")
                .arg("day", d)
                .arg("by", by),
            None => texts.message("sf-schedule-bank-accepted").arg("day", d),
        });
    let accepted: Result<Explanation, Explanation> = match (bank, p.schedule_delay_accepted) {
        (Some(b), true) => Ok(match p.delay_accepted_on {
            Some(m) => texts
                .message("sf-schedule-mda-accepted-on")
                .nested("bank", b)
                .arg("day", m),
            None => texts.message("sf-schedule-mda-accepted").nested("bank", b),
        }),
        (Some(b), false) => Err(texts.message("sf-schedule-mda-not-accepted").nested("bank", b)),
        (None, true) => Err(texts.message("sf-schedule-mda-without-bank")),
        (None, false) => Err(texts.message("sf-schedule-none-accepted")),
    };
    let presented = match (p.financing_approved_on, p.schedule_presented_on.filter(|d| *d <= as_of)) {
        (None, _) => None,
        (Some(_), Some(d)) => Some(Ok(texts.message("sf-schedule-presented").arg("day", d))),
        (Some(a), None) => Some(Err(texts.message("sf-schedule-not-presented").arg("day", a))),
    };
    let shown = presented.clone().map(|r| r.unwrap_or_else(|e| e));
    if let (Some(late), Err(why)) = (&delay, &accepted) {
        return texts.outcome(
            code::SF_SCHEDULE,
            Status::Violated,
            clauses([Some(late.clone()), Some(why.clone()), shown], texts),
        );
    }
    // The acceptance is said only of a delay.
    let accepted = delay.as_ref().and_then(|_| accepted.ok());
    let Some(d) = p.industrial_start_on else {
        let head = delay.unwrap_or_else(|| texts.message("sf-schedule-not-started"));
        return texts.outcome(
            code::SF_SCHEDULE,
            Status::Pending,
            clauses([Some(head), accepted, shown], texts),
        );
    };
    let started = |id| texts.message(id).arg("day", d);
    match (share, presented) {
        (Status::Met, Some(Err(_))) => texts.outcome(
            code::SF_SCHEDULE,
            Status::Pending,
            clauses([Some(started("sf-schedule-started-met")), accepted, shown], texts),
        ),
        (Status::Met, _) => texts.outcome(
            code::SF_SCHEDULE,
            Status::Met,
            clauses([Some(started("sf-schedule-started-met")), accepted, shown], texts),
        ),
        _ => texts.outcome(
            code::SF_SCHEDULE,
            Status::Violated,
            clauses([Some(started("sf-schedule-started-unmet")), accepted, shown], texts),
        ),
    }
}

/// SF-UNFRAMING (art. 11 II): on a non-conformity whose justifications MDA does not accept, the project is unframed,
/// MDA's public database is updated and the bank that approved the project is notified. Unframed, the rule is met once
/// both the notice and the public update are recorded (each dated, by the day judged), pending while either is owed
/// (the article sets no term for them).
pub fn check_unframing(p: &social_fuel_project::Model, texts: Texts) -> Outcome {
    let heard = match (p.justifications_filed_on, p.justifications_content.as_deref()) {
        (Some(j), Some(c)) => texts.message("sf-unframing-heard").arg("day", j).arg("content", c),
        _ => texts.message("sf-unframing-not-heard"),
    };
    let notified = match (p.bank_notified_on, p.bank_notice_reference.as_deref()) {
        (Some(n), Some(r)) => texts
            .message("sf-unframing-notified-ref")
            .arg("day", n)
            .arg("reference", r),
        (Some(n), None) => texts.message("sf-unframing-notified").arg("day", n),
        (None, _) => texts.message("sf-unframing-not-notified"),
    };
    let published = match (p.public_update_on, p.public_update_reference.as_deref()) {
        (Some(u), Some(r)) => texts
            .message("sf-unframing-published-ref")
            .arg("day", u)
            .arg("reference", r),
        (Some(u), None) => texts.message("sf-unframing-published").arg("day", u),
        (None, _) => texts.message("sf-unframing-not-published"),
    };
    match p.unframed_on {
        Some(d) => texts.outcome(
            code::SF_UNFRAMING,
            if p.bank_notified_on.is_some() && p.public_update_on.is_some() {
                Status::Met
            } else {
                Status::Pending
            },
            clauses(
                [
                    Some(
                        texts
                            .message("sf-unframed")
                            .arg("day", d)
                            .nested("reason", text_or(p.unframing_reason.as_deref(), "sf-no-reason", texts)),
                    ),
                    Some(heard),
                    Some(notified),
                    Some(published),
                ],
                texts,
            ),
        ),
        None => match (
            p.external_evaluation_on,
            p.evaluation_result,
            p.justifications_accepted_on,
        ) {
            (Some(_), Some(Decision::Unfavourable), Some(a)) => texts.outcome(
                code::SF_UNFRAMING,
                Status::NotApplicable,
                texts.message("sf-justifications-accepted").arg("day", a).nested(
                    "reason",
                    text_or(p.justifications_reason.as_deref(), "sf-no-reason", texts),
                ),
            ),
            (Some(e), Some(Decision::Unfavourable), None) => texts.outcome(
                code::SF_UNFRAMING,
                Status::Pending,
                clauses(
                    [
                        Some(
                            texts
                                .message("sf-nonconformity-found")
                                .arg("day", e)
                                .nested("finding", finding(p).unwrap_or_else(|| texts.message("sf-no-finding"))),
                        ),
                        Some(heard),
                    ],
                    texts,
                ),
            ),
            _ => texts.outcome(
                code::SF_UNFRAMING,
                Status::NotApplicable,
                texts.message("sf-keeps-framing"),
            ),
        },
    }
}

/// SF-REPRESENTATION and SF-CONTRACT-TERMS over the proposals.
pub fn check_proposals(
    p: &social_fuel_project::Model,
    proposals: &[contract_proposal::Model],
    texts: Texts,
) -> [Outcome; 2] {
    let pending_or = |v| if p.filed_on.is_some() { v } else { Status::Pending };
    let representation = match proposals.iter().find(|c| c.representation_agreed) {
        Some(c) => texts.outcome(
            code::SF_REPRESENTATION,
            Status::Met,
            texts
                .message("sf-representation")
                .arg("kind", format!("{:?}", c.representation_kind))
                .arg("name", &c.representation_name),
        ),
        None => texts.outcome(
            code::SF_REPRESENTATION,
            pending_or(Status::Violated),
            texts.message("sf-representation-none"),
        ),
    };
    let mut gaps = Vec::new();
    for (i, c) in proposals.iter().enumerate() {
        let mut missing = Vec::new();
        if c.term_months.is_none() {
            missing.push("term")
        }
        if c.purchase_price.is_none() {
            missing.push("price")
        }
        if c.price_adjustment.is_none() {
            missing.push("adjustment")
        }
        if c.delivery_conditions.is_none() {
            missing.push("delivery")
        }
        if c.safeguards.is_none() {
            missing.push("safeguards")
        }
        if !c.representation_agreed {
            missing.push("agreement")
        }
        if !missing.is_empty() {
            gaps.push(
                texts.message("sf-proposal-lacks").arg("n", i + 1).list(
                    "missing",
                    missing
                        .into_iter()
                        .map(|t| texts.message("sf-proposal-term").arg("term", t)),
                ),
            );
        }
    }
    let terms = if proposals.is_empty() {
        texts.outcome(
            code::SF_CONTRACT_TERMS,
            pending_or(Status::Violated),
            texts.message("sf-proposal-none"),
        )
    } else if gaps.is_empty() {
        texts.outcome(
            code::SF_CONTRACT_TERMS,
            Status::Met,
            texts.message("sf-proposals-complete").arg("count", proposals.len()),
        )
    } else {
        texts.outcome(
            code::SF_CONTRACT_TERMS,
            pending_or(Status::Violated),
            clauses(gaps.into_iter().map(Some), texts),
        )
    };
    [representation, terms]
}

/// A deadline as an outcome among the rules' (either programme's).
pub(crate) fn deadline_outcome(d: &DeadlineOutcome) -> Outcome {
    let status = match d.status {
        DeadlineStatus::Met => Status::Met,
        DeadlineStatus::Overdue => Status::Violated,
        DeadlineStatus::Pending => Status::Pending,
        DeadlineStatus::NotStarted | DeadlineStatus::NotApplicable => Status::NotApplicable,
    };
    Outcome {
        code: d.code,
        legal_basis: d.legal_basis,
        status,
        explanation: d.note.clone(),
        kind: super::rule(d.code).map_or(super::RuleKind::Deadline, |r| r.kind),
    }
}

/// Why IN MDA nº 2/2005 does not judge this project, if it does not: it was filed (or, not yet filed, is looked at)
/// after the instrument's revocation on 24 May 2021 (or before it took effect).
pub fn revoked(p: &social_fuel_project::Model, as_of: NaiveDate, texts: Texts) -> Option<Explanation> {
    super::mda_2005().not_judging(p.filed_on, as_of, "sf-filed-on", "sf-not-filed-on", texts)
}

/// Every rule of the programme on one project, as of `as_of`.
pub fn check_all(
    f: &ProjectFacts<'_>,
    params: &Params,
    cal: &Calendar,
    as_of: NaiveDate,
    texts: Texts,
) -> Result<Vec<Outcome>, ParamError> {
    let p = f.project;
    let reference = p.filed_on.unwrap_or(as_of);
    if let Some(why) = revoked(p, as_of, texts) {
        return Ok(super::RULES
            .iter()
            .filter(|r| r.code.as_str().starts_with("SF-"))
            .map(|r| texts.outcome(r.code, Status::NotApplicable, why.clone()))
            .collect());
    }
    let mut out = Vec::new();
    // The share counts the latest year with acquisitions.
    let year = f.acquisitions.iter().map(|a| a.year).max();
    let terms: Vec<Term> = f
        .acquisitions
        .iter()
        .filter(|a| Some(a.year) == year)
        .map(Term::from)
        .collect();
    let plant = u32::try_from(p.plant_municipality_code)
        .ok()
        .and_then(|c| IbgeCode::new(c).ok());
    match plant {
        Some(code) => {
            let mut s = super::guarded(code::SF_SHARE_MIN, || {
                check_share(&terms, code, f.semi_arid, params, reference, texts)
            });
            // Where the semi-arid could change the minimum (the Northeast, Minas Gerais and Espírito Santo), say which
            // delimitation was read.
            let could_be = f.semi_arid || matches!(code.region(), Region::Northeast | Region::Southeast);
            if let Some(note) = f.semi_arid_note.filter(|_| could_be) {
                s.explanation = texts
                    .message("sf-share-semi-arid")
                    .nested("share", std::mem::take(&mut s.explanation))
                    .nested("note", note);
            }
            if let Some(y) = year {
                s.explanation = texts
                    .message("sf-share-year")
                    .arg("year", y)
                    .nested("share", std::mem::take(&mut s.explanation));
            }
            let computed = share(&terms, texts);
            let unpriced = |kind: SupplierKind| -> Vec<Explanation> {
                computed
                    .iter()
                    .flat_map(|s| {
                        s.unpriced
                            .iter()
                            .filter(|(k, _)| *k == kind)
                            .map(|(_, why)| why.clone())
                    })
                    .collect()
            };
            let calc_status = match &computed {
                Some(s) if s.unpriced.is_empty() => Status::Met,
                _ => Status::Pending,
            };
            out.push(texts.outcome(code::SF_SHARE_CALC, calc_status, texts.message("sf-share-calc")));
            let has = |k| terms.iter().any(|t| t.kind == k);
            // `what` names the part for the catalogue's texts (`own` or `sharecrop`).
            let priced = |code, kind: SupplierKind, what: &'static str| {
                let missing = unpriced(kind);
                let said = |id| texts.message(id).arg("what", what);
                if !has(kind) {
                    texts.outcome(code, Status::NotApplicable, said("sf-priced-none"))
                } else if computed.is_none() {
                    texts.outcome(code, Status::Pending, said("sf-priced-no-price"))
                } else if missing.is_empty() {
                    texts.outcome(code, Status::Met, said("sf-priced"))
                } else {
                    texts.outcome(code, Status::Pending, clauses(missing.into_iter().map(Some), texts))
                }
            };
            out.push(priced(code::SF_OWN_PRICE, SupplierKind::OwnProduction, "own"));
            out.push(priced(
                code::SF_SHARECROP_PRICE,
                SupplierKind::Sharecropping,
                "sharecrop",
            ));
            let perennial: Vec<&Term> = terms.iter().filter(|t| t.perennial.is_some()).collect();
            let unofficial: Vec<Explanation> = perennial
                .iter()
                .filter(|t| !official_coefficient_source(t.coefficient_source.as_deref()))
                .map(|t| {
                    texts
                        .message("sf-coefficient-source")
                        .nested("supplier", supplier(t.kind, texts))
                        .nested(
                            "source",
                            text_or(t.coefficient_source.as_deref(), "sf-no-source", texts),
                        )
                })
                .collect();
            out.push(if perennial.is_empty() {
                texts.outcome(
                    code::SF_PERENNIAL,
                    Status::NotApplicable,
                    texts.message("sf-perennial-none"),
                )
            } else if unofficial.is_empty() {
                texts.outcome(code::SF_PERENNIAL, Status::Met, texts.message("sf-perennial-official"))
            } else {
                texts.outcome(
                    code::SF_PERENNIAL,
                    Status::Violated,
                    texts.message("sf-perennial-unofficial").clauses("sources", unofficial),
                )
            });
            let schedule = check_schedule(p, s.status, as_of, texts);
            out.insert(0, s);
            out.push(schedule);
        }
        None => out.push(texts.outcome(code::SF_SHARE_MIN, Status::Pending, texts.message("sf-plant-invalid"))),
    }
    out.extend(check_proposals(p, f.proposals, texts));
    out.push(check_plan(p, f.plan, texts));
    out.push(check_bank_first(p, texts));
    // Art. 2: a company constituted under Brazilian law; its articles are a document a person reads.
    out.push(texts.outcome(
        code::SF_COMPANY_BR,
        Status::Pending,
        texts.message("sf-company-br-pending"),
    ));
    out.push(check_decision_letter(p, texts));
    out.push(check_documents(p, f.documents, texts));
    for d in deadlines(p, params, cal, as_of, texts)? {
        out.push(deadline_outcome(&d));
    }
    out.push(check_unframing(p, texts));
    out.push(check_changes(p, f.change_notices, texts));
    out.push(texts.outcome(
        code::SF_NO_PROMOTION,
        Status::NotApplicable,
        texts.message("sf-no-promotion"),
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::params::Params;
    use rust_decimal_macros::dec;

    fn t(kind: SupplierKind, quantity: Decimal, cost: Decimal) -> Term {
        Term {
            kind,
            quantity,
            cost,
            perennial: None,
            supplier: None,
            coefficient_source: None,
        }
    }

    fn code(c: u32) -> IbgeCode {
        IbgeCode::new(c).expect("valid code")
    }

    fn on() -> NaiveDate {
        NaiveDate::from_ymd_opt(2020, 1, 1).expect("date")
    }

    #[test]
    fn minimum_share_boundaries_per_region() {
        let p = Params::baseline();
        // (plant, semi-arid, family cost, other cost, expected, why)
        let cases = [
            (
                2927408,
                false,
                dec!(50000.00),
                dec!(50000.00),
                Status::Met,
                "Northeast, exactly 50 %",
            ),
            (
                2927408,
                false,
                dec!(49999.99),
                dec!(50000.01),
                Status::Violated,
                "Northeast, one cent below 50 %",
            ),
            (
                3550308,
                false,
                dec!(30000.00),
                dec!(70000.00),
                Status::Met,
                "Southeast, exactly 30 %",
            ),
            (
                3550308,
                false,
                dec!(29999.99),
                dec!(70000.01),
                Status::Violated,
                "Southeast, one cent below 30 %",
            ),
            (
                4314902,
                false,
                dec!(30000.00),
                dec!(70000.00),
                Status::Met,
                "South, exactly 30 %",
            ),
            (
                5103403,
                false,
                dec!(10000.00),
                dec!(90000.00),
                Status::Met,
                "Centre-West, exactly 10 %",
            ),
            (
                5103403,
                false,
                dec!(9999.99),
                dec!(90000.01),
                Status::Violated,
                "Centre-West, one cent below 10 %",
            ),
            (
                1302603,
                false,
                dec!(10000.00),
                dec!(90000.00),
                Status::Met,
                "North, exactly 10 %",
            ),
            (
                3106200,
                true,
                dec!(30000.00),
                dec!(70000.00),
                Status::Violated,
                "semi-arid needs 50 % even outside the Northeast",
            ),
        ];
        for (plant, semi, fam, other, expected, why) in cases {
            let terms = [
                t(SupplierKind::FamilyFarmer, dec!(1000), fam),
                t(SupplierKind::OtherThirdParty, dec!(1000), other),
            ];
            let o = check_share(&terms, code(plant), semi, &p, on(), Texts::Written).expect("params");
            assert_eq!(o.status, expected, "{why}: {}", o.explanation);
            assert_eq!(o.code, "SF-SHARE-MIN");
        }
    }

    #[test]
    fn own_production_and_sharecropping_are_valued_by_the_rules() {
        let terms = [
            t(SupplierKind::FamilyFarmer, dec!(1000), dec!(2000)),    // R$ 2/kg
            t(SupplierKind::OtherThirdParty, dec!(1000), dec!(4000)), // R$ 4/kg → average R$ 3/kg
            t(SupplierKind::OwnProduction, dec!(1000), dec!(0)),      // valued at R$ 3/kg = 3000
        ];
        let s = share(&terms, Texts::Written).expect("share");
        assert_eq!((s.family, s.total), (dec!(2000), dec!(9000)));
        assert!(s.lines[2].contains("average third-party price R$ 3"), "{:?}", s.lines);

        let partner = Some(7);
        let terms = [
            Term {
                supplier: partner,
                ..t(SupplierKind::FamilyFarmer, dec!(500), dec!(1250))
            }, // partner paid R$ 2.50/kg
            t(SupplierKind::OtherThirdParty, dec!(500), dec!(2500)),
            Term {
                supplier: partner,
                ..t(SupplierKind::Sharecropping, dec!(400), dec!(0))
            }, // 400 × 2.50 = 1000
        ];
        let s = share(&terms, Texts::Written).expect("share");
        assert_eq!((s.family, s.total), (dec!(1250), dec!(4750)));
        assert!(
            s.lines[2].contains("average price paid to the partner"),
            "{:?}",
            s.lines
        );
    }

    /// Issue 16, point 8: own production is priced by every third-party purchase, perennial contracts included (it
    /// was R$ 0 when all were perennial); with no third-party purchase, and a sharecropping part with no purchase from
    /// the partner, the articles give no price, and the share waits instead of taking another one.
    #[test]
    fn own_production_and_sharecropping_are_priced_only_as_the_articles_say() {
        let perennial_only = [
            Term {
                perennial: Some((dec!(10), dec!(100))),
                ..t(SupplierKind::FamilyFarmer, dec!(1000), dec!(2000))
            }, // R$ 2/kg delivered under the contract
            t(SupplierKind::OwnProduction, dec!(500), dec!(0)),
        ];
        let s = share(&perennial_only, Texts::Written).expect("share");
        assert!(s.unpriced.is_empty(), "{:?}", s.lines);
        assert!(s.lines[1].contains("= R$ 1,000.00"), "500 kg × R$ 2: {:?}", s.lines);
        let alone = [
            t(SupplierKind::FamilyFarmCooperative, dec!(0), dec!(0)),
            t(SupplierKind::OwnProduction, dec!(500), dec!(0)),
        ];
        assert_eq!(
            share(&alone, Texts::Written).map(|s| s.unpriced.len()),
            None,
            "nothing priced at all: no share"
        );
        let mixed = [
            t(SupplierKind::FamilyFarmer, dec!(1000), dec!(2000)),
            Term {
                supplier: Some(9),
                ..t(SupplierKind::Sharecropping, dec!(400), dec!(0))
            },
        ];
        let s = share(&mixed, Texts::Written).expect("share");
        assert_eq!(s.unpriced.len(), 1, "{:?}", s.lines);
        assert!(
            s.unpriced[0].1.contains("no purchase from the partner"),
            "{:?}",
            s.unpriced
        );
        let o = check_share(&mixed, code(5103403), false, &Params::baseline(), on(), Texts::Written).expect("params");
        assert_eq!(o.status, Status::Pending, "{}", o.explanation);
        assert!(official_coefficient_source(Some("embrapa Soja, 2019")));
        assert!(!official_coefficient_source(Some("consultoria própria")));
        assert!(!official_coefficient_source(None));
    }

    #[test]
    fn perennial_contracts_count_area_times_coefficient() {
        let terms = [
            Term {
                perennial: Some((dec!(10), dec!(4000))),
                ..t(SupplierKind::FamilyFarmer, dec!(1000), dec!(500))
            }, // R$ 0.50/kg × 40000 kg
            t(SupplierKind::OtherThirdParty, dec!(1000), dec!(20000)),
        ];
        let s = share(&terms, Texts::Written).expect("share");
        assert_eq!((s.family, s.total), (dec!(20000.00), dec!(40000.00)));
        assert_eq!(s.percent, dec!(50));
    }

    #[test]
    fn a_later_minimum_changes_outcomes_from_its_date_only() {
        let mut p = Params::baseline();
        p.push(crate::rules::params::ParamVersion {
            key: "SF-SHARE-MIN.CENTRE_WEST".into(),
            value: dec!(15),
            unit: crate::rules::params::Unit::Percent,
            effective_from: NaiveDate::from_ymd_opt(2021, 1, 1).expect("date"),
            effective_to: None,
            source: "a later instrument".into(),
        });
        let terms = [
            t(SupplierKind::FamilyFarmer, dec!(1), dec!(12)),
            t(SupplierKind::OtherThirdParty, dec!(1), dec!(88)),
        ];
        let before = check_share(
            &terms,
            code(5103403),
            false,
            &p,
            NaiveDate::from_ymd_opt(2020, 12, 31).expect("d"),
            Texts::Written,
        )
        .expect("p");
        let after = check_share(
            &terms,
            code(5103403),
            false,
            &p,
            NaiveDate::from_ymd_opt(2021, 1, 1).expect("d"),
            Texts::Written,
        )
        .expect("p");
        assert_eq!((before.status, after.status), (Status::Met, Status::Violated));
        assert!(
            after.explanation.contains("a later instrument"),
            "{}",
            after.explanation
        );
    }
}
