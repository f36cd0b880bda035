//! Rules of FCO Rural in Mato Grosso (IN CDAE/MT 2019).
//!
//! Size: it holds every FCO rule's short function and their tests; one carta's judgement is in
//! `carta`, a monthly list's rows in `listed`.

mod carta;
pub mod listed;

pub use carta::check_all_and_deadlines;

use super::{
    Explanation, Outcome, RuleCode, Status, Texts,
    calendar::{Calendar, hours_after, hours_before},
    code,
    params::{ParamError, Params},
    social_fuel::{DeadlineOutcome, DeadlineStatus, day_deadline},
};
use crate::{
    domain::Money,
    entities::{
        chamber_meeting, fco_carta, fco_carta_amendment, fco_carta_item,
        vocab::{AmendmentKind, FcoActivity, FcoCartaStage, FcoLine, InvestmentClass, ItemKind},
    },
};
use chrono::{Datelike, Months, NaiveDate};
use rust_decimal::Decimal;

/// FCO-VALIDITY-120D: the last day an approval given on `approved` is valid (120 consecutive days, cited by Mato
/// Grosso's Lei estadual nº 7.692/2002 as [`super::calendar`] reads it for the CDAE's terms), with how it was counted. The one computation the deadline, the contracting and expiry
/// guards and the ingestion's check all read.
pub fn validity_end(
    approved: NaiveDate,
    params: &Params,
    cal: &Calendar,
) -> Result<super::calendar::Deadline, ParamError> {
    validity(approved, params, cal, Texts::Written)
}

/// [`validity_end`], its note written when `texts` asks.
fn validity(
    approved: NaiveDate,
    params: &Params,
    cal: &Calendar,
    texts: Texts,
) -> Result<super::calendar::Deadline, ParamError> {
    // The CDAE's approval starts it: Mato Grosso's office days.
    let cal = cal.of(super::calendar::Authority::MatoGrosso);
    Ok(cal.add_days(approved, params.count("FCO-VALIDITY-120D.DAYS", approved)?, texts))
}

/// Whether the bank, not the CDAE, approved a carta (art. 2 §3), and so whether its 120 days run by the reading made
/// for the bank's approvals: art. 3 sole § gives "as respectivas cartas-consultas aprovadas" 120 days to present the
/// project to the bank "contados da data da aprovação pelo CDAE", and sets the bank's own approval no life of its
/// own. *Reading made:* the bank's approval is the same act below the threshold ("análise e aprovação do
/// enquadramento"), and an approval without end would keep the group's ceiling (art. 4) used forever; it is given the
/// same 120 days, counted from the bank's approval, to present the project, and lapses without it (the
/// `expire-approvals` job expires it, so FCO-CEILING stops counting it). A carta whose decider is not recorded (a
/// bank's list) is the bank's when its value is below the threshold in force on its approval. The note saying so when
/// the bank approved it.
pub fn bank_approval(
    c: &fco_carta::JudgedCarta,
    params: &Params,
    texts: Texts,
) -> Result<Option<Explanation>, ParamError> {
    let note = || texts.message("fco-validity-bank-approval");
    Ok(match c.decided_by.as_deref() {
        Some("CHAMBER") => None,
        Some(_) => Some(note()),
        None => match c.approved_on {
            Some(a) => (!needs_chamber(c.financed_amount, params, a)?.0).then(note),
            None => None,
        },
    })
}

/// FCO-CEILING: a carta and the approved and contracted cartas of its borrower group (`exposure`) against the
/// ceiling in force on `on`. The one judgement of the rule: `compliance` and the guard before a favourable decision
/// both call it (the ingestion's set-based form, `service::ceiling`, is tested to agree with it).
pub fn ceiling(exposure: Money, params: &Params, on: NaiveDate, texts: Texts) -> Result<Outcome, ParamError> {
    let ceiling = ceiling_amount(params, on)?;
    Ok(texts.outcome(
        code::FCO_CEILING,
        if exposure.to_decimal() <= ceiling {
            Status::Met
        } else {
            Status::Violated
        },
        texts
            .message("fco-ceiling")
            .arg("exposure", exposure.to_decimal())
            .arg("ceiling", ceiling),
    ))
}

/// FCO-CEILING's amount in force on `on` (art. 4: R$ 15 million per economic group), which every form of the rule
/// reads.
pub fn ceiling_amount(params: &Params, on: NaiveDate) -> Result<Decimal, ParamError> {
    params.value("FCO-CEILING.AMOUNT", on)
}

/// FCO-CHAMBER-THRESHOLD: whether a carta needs the chamber's opinion.
pub fn needs_chamber(amount: Money, params: &Params, on: NaiveDate) -> Result<(bool, Decimal), ParamError> {
    let threshold = params.value("FCO-CHAMBER-THRESHOLD.AMOUNT", on)?;
    Ok((amount.to_decimal() >= threshold, threshold))
}

/// FCO-SIRE-RATIO: at least one sire per `ratio` dams. `sires` are those "nos padrões destacados no item a" (art. 6
/// I c): registered sires bought, and the producer's own shown in the project; an unregistered sire bought does not
/// count ([`sire_counts_for_ratio`]).
pub fn sire_ratio(dams: i64, sires: i64, params: &Params, on: NaiveDate, texts: Texts) -> Result<Outcome, ParamError> {
    let ratio = i64::from(params.count("FCO-SIRE-RATIO.DAMS_PER_SIRE", on)?);
    let ok = dams <= sires * ratio;
    Ok(texts.outcome(
        code::FCO_SIRE_RATIO,
        if ok { Status::Met } else { Status::Violated },
        texts
            .message("fco-sire-ratio")
            .arg("dams", dams)
            .arg("sires", sires)
            .arg("ratio", ratio)
            .arg("allowed", sires * ratio),
    ))
}

/// Whether a sire bought counts for FCO-SIRE-RATIO: art. 6 I c counts sires "nos padrões destacados no item a", PO with
/// the definitive RGD, LA or CEIP.
pub fn sire_counts_for_ratio(registration: Option<&str>) -> bool {
    matches!(registration, Some("PO_RGD" | "LA" | "CEIP"))
}

/// FCO-BOAR-RATIO: art. 8 §5 lets family farmers buy boars collectively "desde que não ultrapasse um limite de
/// relação de 01 cachaço para 20 matrizes no método de monta natural; ou [...] 01 cachaço para 100 matrizes em
/// inseminação artificial": a limit on the boars, so `boars` may be at most one per `ratio` sows (20, or 100 with
/// AI): `boars × ratio ≤ sows`. Whom it concerns is [`boar_ratio_applies`]'s question.
pub fn boar_ratio(
    sows: i64,
    boars: i64,
    artificial: bool,
    params: &Params,
    on: NaiveDate,
    texts: Texts,
) -> Result<Outcome, ParamError> {
    let key = if artificial {
        "FCO-BOAR-RATIO.SOWS_PER_BOAR_AI"
    } else {
        "FCO-BOAR-RATIO.SOWS_PER_BOAR_NATURAL"
    };
    let ratio = i64::from(params.count(key, on)?);
    let ok = boars.saturating_mul(ratio) <= sows;
    let how = if artificial { "ai" } else { "natural" };
    Ok(texts.outcome(
        code::FCO_BOAR_RATIO,
        if ok { Status::Met } else { Status::Violated },
        texts
            .message("fco-boar-ratio")
            .arg("boars", boars)
            .arg("sows", sows)
            .arg("how", how)
            .arg("ratio", ratio)
            .arg("allowed", sows / ratio.max(1)),
    ))
}

/// Whether FCO-BOAR-RATIO concerns a carta on `line`, or why not: art. 8 §5 speaks of "o produtor da agricultura
/// familiar" buying boars collectively. Family farmers are read from the carta's line (Pronaf); whether the purchase
/// is collective is not recorded, so every boar a family farmer's carta buys is held to the limit.
pub fn boar_ratio_applies(line: FcoLine, texts: Texts) -> Result<(), Explanation> {
    if line == FcoLine::Pronaf {
        Ok(())
    } else {
        Err(texts.message("fco-boar-not-pronaf").arg("line", line.name_pt()))
    }
}

/// FCO-SWINE-RETENTION: a sow born on `born` is between 6 and 40 months old on `on`, both inclusive.
pub fn sow_age(born: NaiveDate, on: NaiveDate, params: &Params, texts: Texts) -> Result<Outcome, ParamError> {
    let min = params.count("FCO-SWINE-RETENTION.MIN_AGE_MONTHS", on)?;
    let max = params.count("FCO-SWINE-RETENTION.MAX_AGE_MONTHS", on)?;
    let youngest = born.checked_add_months(Months::new(min)).unwrap_or(born);
    let oldest = born.checked_add_months(Months::new(max)).unwrap_or(born);
    let ok = youngest <= on && on <= oldest;
    Ok(texts.outcome(
        code::FCO_SWINE_RETENTION,
        if ok { Status::Met } else { Status::Violated },
        texts
            .message(if ok {
                "fco-sow-age-within"
            } else {
                "fco-sow-age-outside"
            })
            .arg("born", born)
            .arg("min", min)
            .arg("youngest", youngest)
            .arg("max", max)
            .arg("oldest", oldest)
            .arg("on", on),
    ))
}

/// Term and grace limits (sow retention, Pantanal): the parameters `<code>.TERM_MONTHS` and `<code>.GRACE_MONTHS`.
fn term_limits(
    code: RuleCode,
    term: Option<i32>,
    grace: Option<i32>,
    params: &Params,
    on: NaiveDate,
    texts: Texts,
) -> Result<Outcome, ParamError> {
    let prefix = code.as_str();
    let max_term = params.count(&format!("{prefix}.TERM_MONTHS"), on)?;
    let max_grace = params.count(&format!("{prefix}.GRACE_MONTHS"), on)?;
    let (Some(t), Some(g)) = (term, grace) else {
        return Ok(texts.outcome(code, Status::Pending, texts.message("fco-term-not-stated")));
    };
    let ok = t >= 0 && g >= 0 && t as u32 <= max_term && g as u32 <= max_grace && g <= t;
    Ok(texts.outcome(
        code,
        if ok { Status::Met } else { Status::Violated },
        texts
            .message("fco-term")
            .arg("term", t)
            .arg("max_term", max_term)
            .arg("grace", g)
            .arg("max_grace", max_grace),
    ))
}

/// FCO-USED-MACHINE (art. 11): a used machine has "tempo máximo de 04 anos de uso" when it is financed, counted in
/// months. The carta states only the year of manufacture (the fact art. 11 asks for), so its use is counted from the
/// first day of that year: the only start that shows the 48 months are not exceeded. `financed_on` is the day of the
/// contract (before it, the day the carta was submitted); `on` picks the parameter's version.
pub fn used_machine(
    manufacture_year: Option<i32>,
    financed_on: NaiveDate,
    on: NaiveDate,
    params: &Params,
    texts: Texts,
) -> Result<Outcome, ParamError> {
    let max_months = params.count("FCO-USED-MACHINE.MAX_AGE_YEARS", on)?.saturating_mul(12);
    let Some(y) = manufacture_year else {
        return Ok(texts.outcome(
            code::FCO_USED_MACHINE,
            Status::Violated,
            texts.message("fco-machine-year-missing"),
        ));
    };
    let Some(start) = NaiveDate::from_ymd_opt(y, 1, 1) else {
        return Ok(texts.outcome(
            code::FCO_USED_MACHINE,
            Status::Violated,
            texts.message("fco-machine-year-invalid").arg("year", y),
        ));
    };
    let limit = start.checked_add_months(Months::new(max_months)).unwrap_or(start);
    let months = (financed_on.year() - y) * 12 + financed_on.month0() as i32;
    let ok = start <= financed_on && financed_on <= limit;
    Ok(texts.outcome(
        code::FCO_USED_MACHINE,
        if ok { Status::Met } else { Status::Violated },
        texts
            .message("fco-machine-age")
            .arg("year", y)
            .arg("start", start)
            .arg("on", financed_on)
            .arg("months", months.max(0))
            .arg("max", max_months)
            .arg("limit", limit),
    ))
}

/// An FCO checklist item: what is to be checked, and the cartas it concerns.
struct ChecklistItem {
    code: RuleCode,
    /// Whether it concerns a carta of this activity on this line.
    applies: fn(FcoActivity, FcoLine) -> bool,
    /// What is to be checked: a message id of the catalogue's `explanations.ftl`.
    what: &'static str,
    /// Whom the article concerns: a message id.
    concerns: &'static str,
}

impl ChecklistItem {
    /// [`checklist_applies`] for this item.
    fn on(&self, activity: FcoActivity, line: FcoLine, texts: Texts) -> Result<&'static str, Explanation> {
        if (self.applies)(activity, line) {
            Ok(if self.code == code::FCO_GTA {
                gta_requirement(activity)
            } else {
                self.what
            })
        } else {
            Err(texts
                .message("fco-checklist-not-applies")
                .arg("activity", activity.name_pt())
                .arg("line", line.name_pt())
                .arg("basis", self.code.legal_basis())
                .nested("concerns", texts.message(self.concerns)))
        }
    }
}

/// The FCO checklist items, in the order a carta's outcomes list them. Every carta a pass judges walks this table in
/// order, so the items are held here rather than looked up by their codes' text.
const CHECKLIST: [ChecklistItem; 12] = {
    use FcoActivity as A;
    [
        ChecklistItem {
            code: code::FCO_SEED_ORIGIN,
            applies: |a, _| matches!(a, A::PerennialCrops | A::Forestry),
            what: "fco-what-seed-origin",
            concerns: "fco-concerns-perennial-forestry",
        },
        ChecklistItem {
            code: code::FCO_GTA,
            applies: |a, _| {
                matches!(
                    a,
                    A::BeefCattle
                        | A::DairyCattle
                        | A::WeanedCattleFinishing
                        | A::PantanalDamRetention
                        | A::Swine
                        | A::SowRetention
                )
            },
            what: "fco-what-gta",
            concerns: "fco-concerns-cattle-swine",
        },
        ChecklistItem {
            code: code::FCO_PROFESSIONAL,
            applies: |a, _| matches!(a, A::BeefCattle | A::DairyCattle),
            what: "fco-what-professional",
            concerns: "fco-concerns-embryo",
        },
        ChecklistItem {
            code: code::FCO_SWINE_ORIGIN,
            applies: |a, _| matches!(a, A::Swine | A::SowRetention),
            what: "fco-what-swine-origin",
            concerns: "fco-concerns-swine",
        },
        ChecklistItem {
            code: code::FCO_GREEN,
            applies: |_, line| line == FcoLine::Verde,
            what: "fco-what-green",
            concerns: "fco-concerns-verde",
        },
        ChecklistItem {
            code: code::FCO_TEMPLATE,
            applies: |_, _| true,
            what: ANY_CARTA.0,
            concerns: ANY_CARTA.1,
        },
        ChecklistItem {
            code: code::FCO_SEED_MAPA,
            applies: |a, _| a == A::Forestry,
            what: "fco-what-seed-mapa",
            concerns: "fco-concerns-forestry",
        },
        ChecklistItem {
            code: code::FCO_SWINE_ELIGIBLE,
            applies: |a, _| a == A::SowRetention,
            what: "fco-what-swine-eligible",
            concerns: "fco-concerns-sow-retention",
        },
        ChecklistItem {
            code: code::FCO_SWINE_FAMILY,
            applies: |a, line| matches!(a, A::Swine | A::SowRetention) && line == FcoLine::Pronaf,
            what: "fco-what-swine-family",
            concerns: "fco-concerns-swine-family",
        },
        ChecklistItem {
            code: code::FCO_SWINE_REPORT,
            applies: |a, _| matches!(a, A::Swine | A::SowRetention),
            what: "fco-what-swine-report",
            concerns: "fco-concerns-swine",
        },
        ChecklistItem {
            code: code::FCO_PANTANAL_PLAIN,
            applies: |a, _| a == A::PantanalDamRetention,
            what: "fco-what-pantanal-plain",
            concerns: "fco-concerns-pantanal",
        },
        ChecklistItem {
            code: code::FCO_SMALL_ANIMALS,
            applies: |a, _| a == A::SmallAnimals,
            what: "fco-what-small-animals",
            concerns: "fco-concerns-small-animals",
        },
    ]
};

/// FCO-GTA: what the animal transit permit item asks of a carta of `activity`, by its article. Beef cattle (art. 6
/// §3): the GTA proving the animals' health and existence before the money is released. Dairy (art. 7 §2): INDEA/MT
/// registration and the GTA before the release. Swine (art. 8 §2): the property's INDEA/MT registration before the
/// project is *contracted*, and the GTA when animals are bought. (Small animals' registration before contracting,
/// art. 10 sole §, is FCO-SMALL-ANIMALS.)
/// The answer is a message id of the catalogue's `explanations.ftl`.
pub fn gta_requirement(activity: FcoActivity) -> &'static str {
    match activity {
        FcoActivity::Swine | FcoActivity::SowRetention => "fco-what-gta-swine",
        FcoActivity::DairyCattle => "fco-what-gta-dairy",
        _ => "fco-what-gta-beef",
    }
}

/// Whether FCO-GTA conditions the contract itself, not only the release of the money: the swine project's INDEA/MT
/// registration (art. 8 §2, "a contratação [...] fica condicionada").
pub fn gta_conditions_contracting(activity: FcoActivity) -> bool {
    matches!(activity, FcoActivity::Swine | FcoActivity::SowRetention)
}

/// FCO-TEMPLATE (art. 2 §2): "após 90 dias da publicação desta só deverão acolher as Cartas Consultas no modelo
/// disponibilizado". The 90 days run from the publication (20 March 2019, first day excluded) and end on 18 June
/// 2019; a carta submitted on or before that day could still be accepted on an earlier model (NOT_APPLICABLE), one
/// submitted later must be on the template (a checklist item, PENDING until confirmed). The days are a transition the
/// instruction sets, counted as consecutive days, not moved to a business day.
pub fn template(submitted_on: NaiveDate, params: &Params, texts: Texts) -> Result<Outcome, ParamError> {
    let published = super::cdae_2019().in_force_from;
    let days = params.count("FCO-TEMPLATE.DAYS", published)?;
    let last_free = published + chrono::Duration::days(i64::from(days));
    Ok(if submitted_on <= last_free {
        texts.outcome(
            code::FCO_TEMPLATE,
            Status::NotApplicable,
            texts
                .message("fco-template-early")
                .arg("day", submitted_on)
                .arg("days", days)
                .arg("published", published)
                .arg("until", last_free),
        )
    } else {
        texts.outcome(
            code::FCO_TEMPLATE,
            Status::Pending,
            texts
                .message("fco-template-pending")
                .arg("from", last_free + chrono::Duration::days(1))
                .arg("days", days)
                .arg("published", published),
        )
    })
}

/// What a checklist item outside [`CHECKLIST`] checks, and whom it concerns: every carta.
const ANY_CARTA: (&str, &str) = ("fco-what-any", "fco-concerns-any");

/// Whether an FCO checklist item concerns a carta of `activity` on `line`: what is to be checked, or why it does not
/// apply. The articles name the activities: seed and seedling origin for perennial crops and forestry (art. 5, art. 13
/// §5); the animal transit permit for cattle and swine bought with the money (arts. 6–8); the professional for embryo
/// transfer and fixed-time AI in beef and dairy cattle (art. 6 §6–8, art. 7 §5–7); swine origin for swine (art. 8);
/// FCO Verde's environmental documents for its line (art. 13); the template for every carta (art. 2 §2).
pub fn checklist_applies(
    code: RuleCode,
    activity: FcoActivity,
    line: FcoLine,
    texts: Texts,
) -> Result<&'static str, Explanation> {
    match CHECKLIST.iter().find(|i| i.code.as_str() == code.as_str()) {
        Some(item) => item.on(activity, line, texts),
        None => ChecklistItem {
            code,
            applies: |_, _| true,
            what: ANY_CARTA.0,
            concerns: ANY_CARTA.1,
        }
        .on(activity, line, texts),
    }
}

/// A condition the instruction puts before contracting ("a contratação ... fica condicionada"): the rule that holds
/// it, the article, and the activities it binds. Unlike the conditions on the *release* of the money (the GTA of art.
/// 6 §3 and 7 §2, the seeds' origin), an unmet one refuses the contract, with no override: the text leaves the bank no
/// discretion.
#[derive(Debug, Clone, Copy)]
pub struct ContractCondition {
    /// The rule whose outcome must be met (or not applicable) on the contract's day.
    pub code: RuleCode,
    /// The instrument and article that condition the contract.
    pub article: &'static str,
    /// What must be there: a message id of the catalogue's `explanations.ftl`.
    pub what: &'static str,
    /// Whether it binds a carta of this activity.
    pub applies: fn(FcoActivity) -> bool,
}

/// The conditions on contracting, one per clause that says so. The embryo-transfer professional (art. 6 §6, art. 7
/// §5) is not among them: a carta's items do not say whether it finances embryo transfer, so FCO-PROFESSIONAL stays a
/// checklist item a person confirms.
pub const CONTRACT_CONDITIONS: [ContractCondition; 3] = {
    use FcoActivity as A;
    [
        ContractCondition {
            code: code::FCO_IA_INFO,
            article: "IN CDAE/MT 2019, art. 6, §7; art. 7, §6",
            what: "fco-condition-ia",
            applies: |a| matches!(a, A::BeefCattle | A::DairyCattle),
        },
        ContractCondition {
            code: code::FCO_GTA,
            article: "IN CDAE/MT 2019, art. 8, §2",
            what: "fco-condition-indea-swine",
            applies: |a| matches!(a, A::Swine | A::SowRetention),
        },
        ContractCondition {
            code: code::FCO_SMALL_ANIMALS,
            article: "IN CDAE/MT 2019, art. 10, sole §",
            what: "fco-condition-indea-small",
            applies: |a| a == A::SmallAnimals,
        },
    ]
};

/// Whether `o` is the outcome of condition `k`, unmet: pending or violated.
fn unmet(k: &ContractCondition, o: &Outcome) -> bool {
    o.code == k.code.as_str() && matches!(o.status, Status::Pending | Status::Violated)
}

/// The conditions on contracting ([`CONTRACT_CONDITIONS`]) a carta of `activity` leaves unmet in `outcomes` (its
/// outcomes on the contract's day, confirmations applied): those whose rule is pending or violated.
pub fn unmet_contract_conditions(
    activity: FcoActivity,
    outcomes: &[Outcome],
) -> Vec<(&'static ContractCondition, &Outcome)> {
    CONTRACT_CONDITIONS
        .iter()
        .filter(|k| (k.applies)(activity))
        .filter_map(|k| outcomes.iter().find(|o| unmet(k, o)).map(|o| (k, o)))
        .collect()
}

/// A carta contracted (on or before the day judged) with a condition on contracting unmet: each such rule becomes
/// VIOLATED, naming the contract's day and the article, so the flag pass raises it (a bank's monthly list may declare
/// a contract the guard never saw).
pub fn contracted_over_conditions(c: &fco_carta::JudgedCarta, outcomes: &mut [Outcome]) {
    let Some(contracted) = c.contracted_on else {
        return;
    };
    for k in CONTRACT_CONDITIONS.iter().filter(|k| (k.applies)(c.activity)) {
        if let Some(o) = outcomes.iter_mut().find(|o| unmet(k, o)) {
            o.status = Status::Violated;
            o.explanation = Explanation::message("fco-contracted-without")
                .arg("day", contracted)
                .nested("what", Explanation::message(k.what))
                .arg("basis", k.article);
        }
    }
}

/// The amount a carta's next amendment is measured against: the amount last approved (art. 15 exempts increases
/// of up to 10 % *of the approved value*, so successive exempt increases add up instead of compounding on each other).
/// It is the amount before the first amendment since the last approval; an amendment that needed a new approval
/// starts the count again from the amount re-approved. `current` is the carta's amount now.
pub fn approved_base<'a>(
    amendments: impl IntoIterator<Item = &'a crate::entities::fco_carta_amendment::Model>,
    current: Money,
) -> Money {
    let mut base = None;
    for a in amendments {
        if a.requires_new_approval {
            base = None;
        } else if base.is_none() {
            base = a.old_amount;
        }
    }
    base.unwrap_or(current)
}

/// FCO-AMENDMENT (art. 15): whether an amendment needs a new approval, read as follows.
/// - (a) An increase up to the limit of the approved value (all increases since the approval together), within the
///   ceiling, needs none; but one that brings a carta approved below the chamber's threshold to or above it does:
///   from R$ 1 M the carta needs the CPACR's opinion (art. 2 §3), which the bank's decision below it is not.
/// - (b) A reduction needs none.
/// - (c)–(e) A swap for a related item, a change of municipality among the listed properties, a change of producer
///   size need none; one that also moves the value is judged by the move as well: with a reduction it needs none
///   ((b) with (c), (d) or (e)), with an increase it is an increase under (a).
/// - A change declared as one kind that does what another does (a "reduction" that raises the value) needs one, as
///   does any other change.
///
/// Art. 15 sets no period for these changes. The condition of (d) is read by [`amendment_judged`].
#[allow(clippy::too_many_arguments)]
pub fn amendment_needs_approval(
    kind: AmendmentKind,
    approved: Money,
    old: Option<Money>,
    new: Option<Money>,
    group_exposure_after: Option<Money>,
    params: &Params,
    on: NaiveDate,
    texts: Texts,
) -> Result<(bool, Explanation), ParamError> {
    let changes = |o: Option<Money>, n: Option<Money>| matches!((o, n), (Some(o), Some(n)) if o != n);
    // `what` and `letter` name the change for the catalogue's texts (`swap` c, `municipality` d, `size` e).
    let along = |what: &'static str, letter: &'static str| -> Result<(bool, Explanation), ParamError> {
        let said = |id| {
            texts
                .message(id)
                .nested("what", texts.message("fco-amend-what").arg("kind", what))
                .arg("letter", letter)
        };
        let (Some(o), Some(n)) = (old, new) else {
            return Ok((false, said("fco-amend-along-exempt")));
        };
        if n < o {
            return Ok((
                false,
                said("fco-amend-along-reduction")
                    .arg("old", o.to_decimal())
                    .arg("new", n.to_decimal()),
            ));
        }
        let (needs, why) = amendment_needs_approval(
            AmendmentKind::ValueIncrease,
            approved,
            old,
            new,
            group_exposure_after,
            params,
            on,
            texts,
        )?;
        Ok((needs, said("fco-amend-along-increase").nested("why", why)))
    };
    let yes = |b: bool| if b { "yes" } else { "no" };
    Ok(match kind {
        AmendmentKind::ValueIncrease => {
            let limit = params.value("FCO-AMENDMENT.MAX_INCREASE", on)?;
            let ceiling = ceiling_amount(params, on)?;
            let (Some(o), Some(n)) = (old, new) else {
                return Ok((true, texts.message("fco-amend-values-unstated")));
            };
            if n <= o {
                return Ok((
                    true,
                    texts
                        .message("fco-amend-not-increase")
                        .arg("old", o.to_decimal())
                        .arg("new", n.to_decimal()),
                ));
            }
            if approved.cents() <= 0 {
                return Ok((true, texts.message("fco-amend-no-approved")));
            }
            let increase =
                Decimal::from(n.cents() - approved.cents()) * Decimal::from(100) / Decimal::from(approved.cents());
            let within_ceiling = group_exposure_after.is_none_or(|e| e.to_decimal() <= ceiling);
            let (chamber_before, threshold) = needs_chamber(approved, params, on)?;
            let crosses = !chamber_before && needs_chamber(n, params, on)?.0;
            let exempt = increase <= limit && within_ceiling && !crosses;
            let why = texts
                .message("fco-amend-increase")
                .arg("new", n.to_decimal())
                .arg("increase", increase.round_dp(2))
                .arg("approved", approved.to_decimal())
                .arg("since", yes(approved != o))
                .arg("old", o.to_decimal())
                .arg("limit", limit)
                .arg("over_ceiling", yes(!within_ceiling))
                .arg("ceiling", ceiling)
                .arg("crosses", yes(crosses))
                .arg("threshold", threshold);
            (!exempt, why)
        }
        AmendmentKind::ValueReduction => match (old, new) {
            (Some(o), Some(n)) if n < o => (
                false,
                texts
                    .message("fco-amend-reduction")
                    .arg("old", o.to_decimal())
                    .arg("new", n.to_decimal()),
            ),
            (o, n) => (
                true,
                texts
                    .message("fco-amend-not-reduction")
                    .arg("old", o.map_or_else(|| "?".into(), |m| m.to_decimal().to_string()))
                    .arg("new", n.map_or_else(|| "?".into(), |m| m.to_decimal().to_string())),
            ),
        },
        AmendmentKind::ItemSwap if changes(old, new) => along("swap", "c")?,
        AmendmentKind::ItemSwap => (false, texts.message("fco-amend-swap-exempt")),
        AmendmentKind::MunicipalityChange if changes(old, new) => along("municipality", "d")?,
        AmendmentKind::MunicipalityChange => (false, texts.message("fco-amend-municipality-exempt")),
        AmendmentKind::ProducerSizeChange if changes(old, new) => along("size", "e")?,
        AmendmentKind::ProducerSizeChange => (false, texts.message("fco-amend-size-exempt")),
        AmendmentKind::Other => (true, texts.message("fco-amend-other")),
    })
}

/// FCO-AMENDMENT (art. 15) with the condition of (d): a change of the municipality the financing benefits is exempt
/// only "desde que os demais imóveis estejam relacionados na carta consulta". The amendment states it
/// (`properties_listed`): the properties of the municipality the financing moves to were listed in the carta (the
/// change is then judged as [`amendment_needs_approval`] says), were not, or it was not stated; the last two need a
/// new approval, since the exemption holds only on the condition. Other kinds are judged by
/// [`amendment_needs_approval`] alone.
#[allow(clippy::too_many_arguments)]
pub fn amendment_judged(
    kind: AmendmentKind,
    properties_listed: Option<bool>,
    approved: Money,
    old: Option<Money>,
    new: Option<Money>,
    group_exposure_after: Option<Money>,
    params: &Params,
    on: NaiveDate,
    texts: Texts,
) -> Result<(bool, Explanation), ParamError> {
    if kind == AmendmentKind::MunicipalityChange && properties_listed != Some(true) {
        let listed = if properties_listed == Some(false) {
            "no"
        } else {
            "unstated"
        };
        return Ok((
            true,
            texts.message("fco-amend-municipality-unlisted").arg("listed", listed),
        ));
    }
    amendment_needs_approval(kind, approved, old, new, group_exposure_after, params, on, texts)
}

/// FCO-CLASSIFY: the investment class an item should have (art. 17). Fixed (II): permanent buildings and installations
/// (a), machines and equipment of probable useful life over 5 years (b), irrigation (c), permanent crops and forestry
/// (d, e), pastures (f), soil correction (h); grain storage always (sole §). Semi-fixed (III): animals for breeding,
/// rearing or work (a); installations, machines and equipment of probable useful life up to 5 years (b): an
/// installation whose stated life is 5 years or less is semi-fixed, one with no stated life is read as permanent;
/// vehicles, tractors and harvesters (c). Genetic-improvement inputs and equipment (semen, embryos, hormones, AI
/// equipment: art. 6 I b and §4, art. 7 I b and §3, financed "em forma de investimentos") are semi-fixed, or fixed
/// when their stated life is over 5 years. Weaned calves and working capital are operating costs.
pub fn classify(
    kind: ItemKind,
    useful_life_years: Option<i32>,
    params: &Params,
    on: NaiveDate,
) -> Result<InvestmentClass, ParamError> {
    let min_life = params.count("FCO-CLASSIFY.FIXED_MIN_LIFE_YEARS", on)? as i32;
    Ok(match kind {
        ItemKind::Building if useful_life_years.is_some_and(|l| l <= min_life) => InvestmentClass::SemiFixed,
        ItemKind::Building
        | ItemKind::GrainStorage
        | ItemKind::Irrigation
        | ItemKind::Pasture
        | ItemKind::SoilCorrection
        | ItemKind::PermanentCrop => InvestmentClass::Fixed,
        ItemKind::Machine | ItemKind::UsedMachine | ItemKind::GeneticInput
            if useful_life_years.is_some_and(|l| l > min_life) =>
        {
            InvestmentClass::Fixed
        }
        ItemKind::Machine | ItemKind::UsedMachine | ItemKind::Vehicle | ItemKind::GeneticInput => {
            InvestmentClass::SemiFixed
        }
        ItemKind::Dam | ItemKind::Sire | ItemKind::Boar | ItemKind::Sow | ItemKind::OtherAnimal => {
            InvestmentClass::SemiFixed
        }
        ItemKind::WeanedCalf | ItemKind::OperatingExpense => InvestmentClass::Operating,
    })
}

/// The activities that may take stand-alone operating credit (art. 16).
pub fn operating_allowed(activity: FcoActivity) -> bool {
    matches!(
        activity,
        FcoActivity::FishFarming | FcoActivity::SowRetention | FcoActivity::WeanedCattleFinishing
    )
}

/// Whether an item of `kind` may be financed as an operating cost in a carta of `activity` though art. 17 classes it
/// as an investment: only what art. 16 authorises as stand-alone operating credit, the fish stock of fish farming
/// (I), the sows of sow retention (II) and the weaned cattle to finish (III). Any other item of those activities is
/// classed as art. 17 says.
pub fn operating_item_allowed(activity: FcoActivity, kind: ItemKind) -> bool {
    matches!(
        (activity, kind),
        (FcoActivity::FishFarming, ItemKind::OtherAnimal)
            | (FcoActivity::SowRetention, ItemKind::Sow)
            | (FcoActivity::WeanedCattleFinishing, ItemKind::WeanedCalf)
    )
}

/// A report a bank sent: the month it covers and the day it arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SentReport {
    /// First day of the month reported.
    pub month: NaiveDate,
    /// The day it was received.
    pub received_on: NaiveDate,
}

fn first_of_month(d: NaiveDate) -> NaiveDate {
    d.with_day(1).unwrap_or(d)
}

fn last_of_month(d: NaiveDate) -> NaiveDate {
    first_of_month(d)
        .checked_add_months(Months::new(1))
        .and_then(|n| n.pred_opt())
        .unwrap_or(d)
}

/// The reporting deadlines of a bank as of `as_of`:
/// - FCO-BB-60D (Banco do Brasil only): the next 60-day report is due 60 days after the last one received; the monthly
///   lists (art. 2 §5) are another report and do not restart it; before any, the first was due 60 days after the
///   instruction took effect;
/// - FCO-MONTHLY-LIST: the list of a month is due within the following month. The instrument says "every month"
///   and names no day; Fomento reads it as by the last day of the next month (parameter `FCO-MONTHLY-LIST.MONTHS`),
///   moved to a business day. Two deadlines are shown: the last month whose deadline has passed, and the one running.
pub fn bank_deadlines(
    is_bb: bool,
    reports: &[SentReport],
    periodic: &[NaiveDate],
    params: &Params,
    cal: &Calendar,
    as_of: NaiveDate,
) -> Result<Vec<DeadlineOutcome>, ParamError> {
    let mut out = Vec::new();
    if is_bb {
        out.push(super::guarded_deadline(code::FCO_BB_60D, || {
            // Only the 60-day reports recorded as such restart the count; with none yet, it runs from the day the
            // instruction took effect.
            let last = periodic.iter().copied().filter(|d| *d <= as_of).max();
            let since = super::cdae_2019().in_force_from;
            let start = last.unwrap_or(since);
            let mut dl = cal.of(super::calendar::Authority::Banking).add_days(
                start,
                params.count("FCO-BB-60D.DAYS", start)?,
                Texts::Written,
            );
            dl.note = match last {
                Some(l) => Explanation::message("fco-bb-from-last").arg("day", l),
                None => Explanation::message("fco-bb-none-since").arg("since", since),
            }
            .nested("note", std::mem::take(&mut dl.note));
            // The deadline is met by the next report after `last`; none has come by construction.
            Ok(day_deadline(
                code::FCO_BB_60D,
                Some(dl),
                None,
                as_of,
                Explanation::message("fco-bb-no-report"),
                Texts::Written,
            ))
        }));
    }
    let months = match params.count("FCO-MONTHLY-LIST.MONTHS", as_of) {
        Ok(m) => m,
        Err(e) => {
            out.push(super::guarded_deadline(code::FCO_MONTHLY_LIST, || Err(e)));
            return Ok(out);
        }
    };
    let this_month = first_of_month(as_of);
    // Art. 2 §5 asks for the lists from the month the instrument took effect (March 2019), none before.
    let first_owed = first_of_month(super::cdae_2019().in_force_from);
    for back in [2u32, 1] {
        let Some(month) = this_month
            .checked_sub_months(Months::new(back))
            .filter(|m| *m >= first_owed)
        else {
            continue;
        };
        let end = last_of_month(month);
        let nominal_end = last_of_month(end.checked_add_months(Months::new(months)).unwrap_or(end));
        let mut dl = cal
            .of(super::calendar::Authority::Banking)
            .add_days(nominal_end, 0, Texts::Written);
        dl.note = if dl.due == nominal_end {
            Explanation::message("fco-monthly-list-due")
        } else {
            Explanation::message("fco-monthly-list-due-moved").arg("due", dl.due)
        }
        .arg("month", month.format("%Y-%m"))
        .arg("end", nominal_end);
        let received = reports
            .iter()
            .filter(|r| r.month == month && r.received_on <= as_of)
            .map(|r| r.received_on)
            .min();
        let mut d = day_deadline(code::FCO_MONTHLY_LIST, Some(dl), received, as_of, "", Texts::Written);
        d.note = Explanation::message("fco-monthly-list-note")
            .nested("law", super::calendar::Authority::Banking.law_explained())
            .nested("note", d.note);
        out.push(d);
    }
    Ok(out)
}

/// Everything a carta's rules need.
#[derive(Debug, Clone, Copy)]
pub struct CartaFacts<'a> {
    /// The carta.
    pub carta: &'a fco_carta::JudgedCarta,
    /// Its items.
    pub items: &'a [fco_carta_item::Model],
    /// Its amendments.
    pub amendments: &'a [fco_carta_amendment::Model],
    /// The chamber meeting that considered it.
    pub meeting: Option<&'a chamber_meeting::Model>,
    /// Whether its bank was present at that meeting, when recorded.
    pub bank_present: Option<bool>,
    /// This carta's value plus the approved and contracted cartas of the borrower's whole economic group.
    pub group_exposure: Money,
    /// Dams on the borrower's other approved and contracted Pantanal dam-retention cartas (art. 9: per producer).
    pub producer_other_pantanal_dams: i64,
    /// Weaned calves of the borrower's group (this carta included).
    pub group_weaned_heads: i64,
    /// The stage of the carta this one resubmits.
    pub resubmitted_stage: Option<FcoCartaStage>,
    /// How it differs from the carta it resubmits ([`reformulation`]); none when not compared.
    pub reformulation: Option<&'a Reformulation>,
}

/// FCO-RESUBMIT: whether a resubmission is *reformulated* (art. 3 sole §: "poderão ser reapresentadas, desde que
/// reformuladas"), read as: it changes something the unfavourable opinion judged. Compared with the carta it
/// resubmits: the financed value, term, grace, line, activity, municipality, special demand, the facts stated for the
/// rules (sires the producer has, artificial insemination, the qualified professional) and its items, each by every
/// typed fact (kind, quantity, heads, age, year, useful life, registration, class, value) as a whole list in any
/// order. An item's wording alone is not a reformulation. A resubmission that lists no items where the original
/// listed some states no project to judge: it is not reformulated either.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reformulation {
    /// What changed, by name.
    Changed(Vec<&'static str>),
    /// The original listed this many items; the resubmission lists none.
    NoItems(usize),
    /// Nothing the opinion judged changed.
    Unchanged,
}

/// [`Reformulation`] of `carta` (with `items`) against the `original` it resubmits, as stored (with `original_items`):
/// the items in force of each.
pub fn reformulation(
    original: &fco_carta::Model,
    original_items: &[fco_carta_item::Model],
    carta: &fco_carta::JudgedCarta,
    items: &[fco_carta_item::Model],
) -> Reformulation {
    if items.is_empty() && !original_items.is_empty() {
        return Reformulation::NoItems(original_items.len());
    }
    let typed = |items: &[fco_carta_item::Model]| {
        let mut v: Vec<String> = items
            .iter()
            .map(|i| {
                format!(
                    "{:?}",
                    (
                        i.kind,
                        i.quantity,
                        i.head_count,
                        i.age_months,
                        i.manufacture_year,
                        i.useful_life_years,
                        i.registration.as_deref().map(str::trim),
                        i.investment_class,
                        i.value,
                    )
                )
            })
            .collect();
        v.sort();
        v
    };
    let (o, c) = (original, carta);
    let changed: Vec<&'static str> = [
        ("value", o.financed_amount != c.financed_amount),
        ("term", o.term_months != c.term_months),
        ("grace", o.grace_months != c.grace_months),
        ("line", o.line != c.line),
        ("activity", o.activity != c.activity),
        ("municipality", o.municipality_code != c.municipality_code),
        ("special demand", o.special_demand != c.special_demand),
        ("existing sires", o.existing_sires != c.existing_sires),
        (
            "artificial insemination",
            o.artificial_insemination != c.artificial_insemination,
        ),
        ("professional", o.professional_name != c.professional_name),
        ("items", typed(original_items) != typed(items)),
    ]
    .into_iter()
    .filter_map(|(what, differs)| differs.then_some(what))
    .collect();
    if changed.is_empty() {
        Reformulation::Unchanged
    } else {
        Reformulation::Changed(changed)
    }
}

fn heads(items: &[fco_carta_item::Model], kind: ItemKind) -> i64 {
    items
        .iter()
        .filter(|i| i.kind == kind)
        .map(|i| i64::from(i.head_count.unwrap_or(0)))
        .sum()
}

/// The deadlines of a carta: 72 h before the meeting, 72 h for the result, 120-day validity.
pub fn deadlines(
    f: &CartaFacts<'_>,
    params: &Params,
    cal: &Calendar,
    as_of: NaiveDate,
    texts: Texts,
) -> Result<Vec<DeadlineOutcome>, ParamError> {
    let c = f.carta;
    if let Some(why) = before_instrument(c, as_of, texts) {
        return Ok(not_in_force(&why, texts).1);
    }
    let mut out = Vec::with_capacity(4);
    let basis = |code: RuleCode| code.legal_basis();
    let on = c.submitted_on.unwrap_or(as_of);
    let now = as_of.and_hms_opt(23, 59, 59).map(|t| t.and_utc());
    out.push(super::guarded_deadline(code::FCO_72H_BEFORE, || {
        Ok(match f.meeting {
            Some(m) => hour_deadline(
                code::FCO_72H_BEFORE,
                hours_before(m.starts_at, params.count("FCO-72H-BEFORE.HOURS", on)?, texts),
                c.received_by_council_at,
                "fco-72h-received",
                now,
                texts,
            ),
            None => DeadlineOutcome {
                code: code::FCO_72H_BEFORE.as_str(),
                legal_basis: basis(code::FCO_72H_BEFORE),
                due: None,
                due_at: None,
                status: DeadlineStatus::NotStarted,
                note: texts.message("fco-no-meeting"),
                done: false,
            },
        })
    }));
    out.push(super::guarded_deadline(code::FCO_72H_RESULT, || {
        Ok(match (f.meeting, c.decided_by.as_deref()) {
            (Some(m), Some("CHAMBER")) => {
                // Art. 3: "após a obtenção de parecer": from the CPACR's opinion when it is recorded; before it is,
                // from the meeting's start (the opinion is given at the meeting, not before it).
                let hours = params.count("FCO-72H-RESULT.HOURS", on)?;
                let counted = match (m.opinion_at, m.opinion_reference.as_deref()) {
                    (Some(at), reference) => {
                        let (due, note) = hours_after(at, hours, texts);
                        let from = match reference {
                            Some(r) => texts.message("fco-result-from-opinion-ref").arg("reference", r),
                            None => texts.message("fco-result-from-opinion"),
                        };
                        (due, from.nested("note", note))
                    }
                    (None, _) => {
                        let (due, note) = hours_after(m.starts_at, hours, texts);
                        (due, texts.message("fco-result-from-meeting").nested("note", note))
                    }
                };
                hour_deadline(
                    code::FCO_72H_RESULT,
                    counted,
                    m.results_sent_at,
                    "fco-result-sent",
                    now,
                    texts,
                )
            }
            (meeting, decided_by) => DeadlineOutcome {
                code: code::FCO_72H_RESULT.as_str(),
                legal_basis: basis(code::FCO_72H_RESULT),
                due: None,
                due_at: None,
                status: DeadlineStatus::NotStarted,
                note: match (meeting, decided_by) {
                    (None, Some("CHAMBER")) => match c.decided_on {
                        Some(d) => texts.message("fco-result-no-meeting-on").arg("day", d),
                        None => texts.message("fco-result-no-meeting"),
                    },
                    (_, Some(_)) => texts.message("fco-result-bank-decided"),
                    (Some(_), None) => texts.message("fco-result-undecided"),
                    (None, None) => texts.message("fco-result-undecided-no-meeting"),
                },
                done: false,
            },
        })
    }));
    out.push(super::guarded_deadline(code::FCO_VALIDITY_120D, || {
        // Art. 3 sole §: 120 days from the CDAE's approval (by the reading made, the bank's: [`bank_approval`]) to
        // present the project to the bank. A contract within them shows the project was presented by then; a contract
        // after them says nothing of when it was.
        let validity = match c.approved_on {
            Some(a) => Some(validity(a, params, cal, texts)?),
            None => None,
        };
        let due = validity.as_ref().map(|v| v.due);
        let by_contract = c.contracted_on.filter(|k| due.is_some_and(|d| *k <= d));
        let mut d = day_deadline(
            code::FCO_VALIDITY_120D,
            validity,
            c.presented_on.or(by_contract),
            as_of,
            texts.message("fco-validity-not-approved"),
            texts,
        );
        match (c.presented_on, by_contract, c.contracted_on) {
            (Some(_), _, _) => d.note.push(texts.message("fco-validity-presented")),
            (None, Some(k), _) => d
                .note
                .push(texts.message("fco-validity-contracted-within").arg("day", k)),
            (None, None, Some(k)) => {
                d.status = DeadlineStatus::Pending;
                d.note
                    .push(texts.message("fco-validity-contracted-after").arg("day", k));
            }
            (None, None, None) => {}
        }
        if let Some(note) = bank_approval(c, params, texts)?
            && texts.written()
        {
            d.note.push(note);
        }
        Ok(d)
    }));
    Ok(out)
}

/// A deadline counted in hours, due at `counted`'s instant (counted as its note says), met by the act done at
/// `done_at` (said by message `done_id` when it was), as of the end of the day judged (`now`).
fn hour_deadline(
    code: RuleCode,
    counted: (chrono::DateTime<chrono::Utc>, Explanation),
    done_at: Option<chrono::DateTime<chrono::Utc>>,
    done_id: &'static str,
    now: Option<chrono::DateTime<chrono::Utc>>,
    texts: Texts,
) -> DeadlineOutcome {
    let (due, note) = counted;
    let status = match done_at {
        Some(at) if at <= due => DeadlineStatus::Met,
        Some(_) => DeadlineStatus::Overdue,
        None if now.is_some_and(|n| n > due) => DeadlineStatus::Overdue,
        None => DeadlineStatus::Pending,
    };
    let note = match done_at {
        Some(at) => texts
            .message(done_id)
            .nested("note", note)
            .arg("at", crate::domain::Authority::Cdae.show(at)),
        None => note,
    };
    DeadlineOutcome {
        code: code.as_str(),
        legal_basis: code.legal_basis(),
        due: None,
        due_at: Some(due),
        status,
        note,
        done: done_at.is_some(),
    }
}

/// FCO-PREDOMINANCE, FCO-IA-INFO, FCO-SPECIAL-DEMAND, FCO-PASTURE-SOIL and FCO-GLOBAL-ASSISTANCE: the articles
/// whose facts the carta and its items carry (the two last are checklist items, confirmed by a person, that apply only
/// where their article does).
fn article_checks(f: &CartaFacts<'_>, params: &Params, on: NaiveDate, texts: Texts) -> Vec<Outcome> {
    let c = f.carta;
    let mut out = Vec::with_capacity(8);
    // Art. 17 I: a definition. The financing is investment credit when fixed and semi-fixed investments predominate in
    // its budget, operating credit otherwise; it refuses nothing (stand-alone operating credit is FCO-OPERATING-ONLY's).
    let (mut invest, mut total) = (0i64, 0i64);
    for i in f.items {
        total += i.value.cents();
        if i.investment_class != InvestmentClass::Operating {
            invest += i.value.cents();
        }
    }
    out.push(predominance(Money(invest), Money(total), texts));
    // Art. 6 §7, art. 7 §6: genetic improvement (sires or dams bought; semen, embryos, hormones or AI equipment, art.
    // 6 I b and §4, art. 7 I b and §3; or a professional for embryo transfer or AI)
    // is contracted only with the artificial-insemination information stated in the carta.
    let genetic = matches!(c.activity, FcoActivity::BeefCattle | FcoActivity::DairyCattle)
        && (f
            .items
            .iter()
            .any(|i| matches!(i.kind, ItemKind::Sire | ItemKind::Dam | ItemKind::GeneticInput))
            || c.professional_name.is_some());
    out.push(match (genetic, c.artificial_insemination) {
        (false, _) => texts.outcome(code::FCO_IA_INFO, Status::NotApplicable, texts.message("fco-ia-none")),
        (true, Some(ai)) => texts.outcome(
            code::FCO_IA_INFO,
            Status::Met,
            texts
                .message("fco-ia-stated")
                .arg("how", if ai { "ai" } else { "natural" }),
        ),
        (true, None) => texts.outcome(code::FCO_IA_INFO, Status::Pending, texts.message("fco-ia-unstated")),
    });
    // Art. 14: a special demand goes to the chamber whatever its amount.
    out.push(match (c.special_demand, c.decided_by.as_deref()) {
        (false, _) => texts.outcome(
            code::FCO_SPECIAL_DEMAND,
            Status::NotApplicable,
            texts.message("fco-special-none"),
        ),
        (true, Some("CHAMBER")) => texts.outcome(
            code::FCO_SPECIAL_DEMAND,
            Status::Met,
            texts.message("fco-special-chamber"),
        ),
        (true, Some(_)) => texts.outcome(
            code::FCO_SPECIAL_DEMAND,
            Status::Violated,
            texts.message("fco-special-bank"),
        ),
        (true, None) => texts.outcome(
            code::FCO_SPECIAL_DEMAND,
            Status::Pending,
            texts.message("fco-special-pending"),
        ),
    });
    // Art. 6 II a, art. 7 II a, art. 12: pasture needs the soil analysis behind its correction.
    out.push(if f.items.iter().any(|i| i.kind == ItemKind::Pasture) {
        texts.outcome(
            code::FCO_PASTURE_SOIL,
            Status::Pending,
            texts.message("fco-pasture-pending"),
        )
    } else {
        texts.outcome(
            code::FCO_PASTURE_SOIL,
            Status::NotApplicable,
            texts.message("fco-pasture-none"),
        )
    });
    // Art. 4: over the ceiling only within an exception of the FCO programming ("assistência global permitida").
    let over = ceiling_amount(params, on).is_ok_and(|ceiling| f.group_exposure.to_decimal() > ceiling);
    out.push(if over {
        texts.outcome(
            code::FCO_GLOBAL_ASSISTANCE,
            Status::Pending,
            texts
                .message("fco-global-pending")
                .arg("exposure", f.group_exposure.to_decimal()),
        )
    } else {
        texts.outcome(
            code::FCO_GLOBAL_ASSISTANCE,
            Status::NotApplicable,
            texts.message("fco-global-within"),
        )
    });
    out
}

/// FCO-PREDOMINANCE (art. 17 I): the class of a financing whose budget puts `invest` of `total` in fixed and
/// semi-fixed investments: investment credit when they are more than half, operating credit otherwise. Art. 17 I
/// defines the class ("classifica-se"); it forbids nothing, so the outcome is MET either way and says which class;
/// whether operating credit stands on its own is FCO-OPERATING-ONLY's question (art. 16). PENDING with no values.
pub fn predominance(invest: Money, total: Money, texts: Texts) -> Outcome {
    let Some(investment) = is_investment_credit(invest, total) else {
        return texts.outcome(
            code::FCO_PREDOMINANCE,
            Status::Pending,
            texts.message("fco-predominance-no-values"),
        );
    };
    let (invest, total) = (invest.cents(), total.cents());
    let said = |id| {
        texts
            .message(id)
            .arg("invest", Money(invest).to_decimal())
            .arg("total", Money(total).to_decimal())
            .arg(
                "share",
                (Decimal::from(invest) * Decimal::from(100) / Decimal::from(total)).round_dp(2),
            )
    };
    let id = if investment {
        "fco-predominance-investment"
    } else {
        "fco-predominance-operating"
    };
    texts.outcome(code::FCO_PREDOMINANCE, Status::Met, said(id))
}

/// Art. 17 I's class: whether a budget putting `invest` of `total` in fixed and semi-fixed investments is investment
/// credit (they are more than half of it); `None` for an empty budget.
pub fn is_investment_credit(invest: Money, total: Money) -> Option<bool> {
    (total.cents() > 0).then(|| invest.cents().saturating_mul(2) > total.cents())
}

/// Why IN CDAE/MT 2019 does not judge this carta, if it does not: it was submitted (or, not yet submitted, is looked at)
/// before the instrument took effect on 20 March 2019 (art. 19). Rules that read a parameter would say so by the
/// parameter's first version; those that read none must say it too.
pub fn before_instrument(c: &fco_carta::JudgedCarta, as_of: NaiveDate, texts: Texts) -> Option<Explanation> {
    super::cdae_2019().not_judging(c.submitted_on, as_of, "fco-submitted-on", "fco-not-submitted-on", texts)
}

/// Every carta rule of the programme `NOT_APPLICABLE` for `why`, and the carta's deadlines too.
fn not_in_force(why: &Explanation, texts: Texts) -> (Vec<Outcome>, Vec<DeadlineOutcome>) {
    let outcomes = super::RULES
        .iter()
        .filter(|r| r.code.as_str().starts_with("FCO-") && r.kind != super::RuleKind::BankLevel)
        .map(|r| texts.outcome(r.code, Status::NotApplicable, why.to_owned()))
        .collect();
    let deadlines = [code::FCO_72H_BEFORE, code::FCO_72H_RESULT, code::FCO_VALIDITY_120D]
        .into_iter()
        .map(|code| DeadlineOutcome {
            code: code.as_str(),
            legal_basis: code.legal_basis(),
            due: None,
            due_at: None,
            status: DeadlineStatus::NotApplicable,
            note: why.to_owned(),
            done: false,
        })
        .collect();
    (outcomes, deadlines)
}

/// Every rule of the programme on one carta, as of `as_of`; parameters in force on the submission date.
pub fn check_all(
    f: &CartaFacts<'_>,
    params: &Params,
    cal: &Calendar,
    as_of: NaiveDate,
    texts: Texts,
) -> Result<Vec<Outcome>, ParamError> {
    check_all_and_deadlines(f, params, cal, as_of, texts).map(|(outcomes, _)| outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn p() -> Params {
        Params::baseline()
    }

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).expect("date")
    }

    #[test]
    fn chamber_threshold_boundary() {
        let on = d(2020, 1, 1);
        assert_eq!(
            needs_chamber(Money(99_999_999), &p(), on).map(|x| x.0),
            Ok(false),
            "R$ 999.999,99 goes to the bank"
        );
        assert_eq!(
            needs_chamber(Money(100_000_000), &p(), on).map(|x| x.0),
            Ok(true),
            "R$ 1.000.000,00 goes to the chamber"
        );
    }

    #[test]
    fn amendment_increase_boundary() {
        let on = d(2020, 1, 1);
        let cases = [
            (
                Money::from_reais(100_000),
                Money::from_reais(110_000),
                false,
                "10.00 % needs no approval",
            ),
            (
                Money::from_reais(100_000),
                Money::from_reais(110_010),
                true,
                "10.01 % needs approval",
            ),
            (
                Money::from_reais(100_000),
                Money::from_reais(90_000),
                false,
                "reduction",
            ),
        ];
        for (old, new, needs, why) in cases {
            let kind = if new < old {
                AmendmentKind::ValueReduction
            } else {
                AmendmentKind::ValueIncrease
            };
            let (got, msg) = amendment_needs_approval(kind, old, Some(old), Some(new), None, &p(), on, Texts::Written)
                .expect("params");
            assert_eq!(got, needs, "{why}: {msg}");
        }
        let (got, msg) = amendment_needs_approval(
            AmendmentKind::ValueIncrease,
            Money::from_reais(100_000),
            Some(Money::from_reais(100_000)),
            Some(Money::from_reais(105_000)),
            Some(Money::from_reais(15_000_001)),
            &p(),
            on,
            Texts::Written,
        )
        .expect("params");
        assert!(got, "an increase past the group ceiling needs approval: {msg}");
    }

    #[test]
    fn increases_since_the_approval_add_up_and_a_mislabelled_change_needs_approval() {
        use crate::entities::fco_carta_amendment::Model as A;
        let on = d(2020, 1, 1);
        let r = Money::from_reais;
        let amendment = |id, old: i64, new: i64, requires| A {
            id,
            carta_id: 1,
            kind: AmendmentKind::ValueIncrease,
            requested_on: on,
            old_amount: Some(r(old)),
            new_amount: Some(r(new)),
            description: String::new(),
            requires_new_approval: requires,
            recorded_at: None,
            properties_listed: None,
        };
        // Approved at 100,000; +10 % to 110,000 passed; 110,000.01 is still within 10 % of the approved value...
        let first = [amendment(1, 100_000, 110_000, false)];
        let base = approved_base(&first, r(110_000));
        assert_eq!(base, r(100_000));
        // Every change below is judged against the same approved value, with no group exposure given.
        let judge = |kind, old: Option<Money>, new: Option<Money>| {
            amendment_needs_approval(kind, base, old, new, None, &p(), on, Texts::Written).expect("params")
        };
        let (needs, why) = judge(AmendmentKind::ValueIncrease, Some(r(110_000)), Some(r(110_000)));
        assert!(needs, "no increase at all is not an increase: {why}");
        // ...but 121,000 (10 % on top of 10 %, 21 % of the approved value) is not, nor is one centavo past 110,000.
        for (new, expected) in [(Money(12_100_000), true), (Money(11_000_001), true)] {
            let (needs, why) = judge(AmendmentKind::ValueIncrease, Some(r(110_000)), Some(new));
            assert_eq!(needs, expected, "{why}");
            assert!(why.contains("over the approved"), "{why}");
        }
        // After an amendment that needed (and got) a new approval, the count starts again from the new amount.
        let reapproved = [
            amendment(1, 100_000, 110_000, false),
            amendment(2, 110_000, 150_000, true),
        ];
        assert_eq!(approved_base(&reapproved, r(150_000)), r(150_000));
        // A "reduction" that raises the value, a "swap" that moves it: judged by what they do.
        let (needs, why) = judge(AmendmentKind::ValueReduction, Some(r(100_000)), Some(r(105_000)));
        assert!(needs, "{why}");
        let (needs, why) = judge(AmendmentKind::ItemSwap, Some(r(100_000)), Some(r(99_000)));
        assert!(
            !needs,
            "a swap that lowers the value is a reduction too (art. 15 b, c): {why}"
        );
        let (needs, _) = judge(AmendmentKind::ItemSwap, Some(r(100_000)), None);
        assert!(!needs, "a swap that leaves the value as it is");
    }

    #[test]
    fn checklist_items_apply_only_to_the_activities_their_articles_name() {
        use FcoActivity as A;
        let applies = |code, activity, line| checklist_applies(code, activity, line, Texts::Written).is_ok();
        assert!(
            !applies(code::FCO_GTA, A::Machinery, FcoLine::Rural),
            "no animals on a machinery carta"
        );
        assert!(applies(code::FCO_GTA, A::BeefCattle, FcoLine::Rural));
        assert!(!applies(code::FCO_SWINE_ORIGIN, A::BeefCattle, FcoLine::Rural));
        assert!(applies(code::FCO_SWINE_ORIGIN, A::SowRetention, FcoLine::Rural));
        assert!(
            !applies(code::FCO_GREEN, A::Forestry, FcoLine::Rural),
            "FCO Verde is a line"
        );
        assert!(applies(code::FCO_GREEN, A::Forestry, FcoLine::Verde));
        assert!(applies(code::FCO_SEED_ORIGIN, A::PerennialCrops, FcoLine::Pronaf));
        assert!(!applies(code::FCO_SEED_ORIGIN, A::Grains, FcoLine::Rural));
        assert!(!applies(code::FCO_PROFESSIONAL, A::Swine, FcoLine::Rural));
        assert!(
            applies(code::FCO_TEMPLATE, A::Machinery, FcoLine::Rural),
            "the template is for every carta"
        );
        let why =
            checklist_applies(code::FCO_GTA, A::Machinery, FcoLine::Rural, Texts::Written).expect_err("not applicable");
        assert!(
            why.contains("máquinas e equipamentos") && why.contains("art. 6"),
            "{why}"
        );
    }

    #[test]
    fn sire_ratio_boundary() {
        let on = d(2020, 1, 1);
        assert_eq!(
            sire_ratio(30, 1, &p(), on, Texts::Written).map(|o| o.status),
            Ok(Status::Met),
            "1 sire per 30 dams"
        );
        assert_eq!(
            sire_ratio(31, 1, &p(), on, Texts::Written).map(|o| o.status),
            Ok(Status::Violated),
            "1 sire per 31 dams"
        );
    }

    #[test]
    fn boar_ratio_limits_the_boars_one_per_20_sows_or_per_100_with_ai() {
        let on = d(2020, 1, 1);
        let status = |sows, boars, ai| boar_ratio(sows, boars, ai, &p(), on, Texts::Written).map(|o| o.status);
        assert_eq!(status(20, 1, false), Ok(Status::Met), "1 boar for 20 sows");
        assert_eq!(
            status(19, 1, false),
            Ok(Status::Violated),
            "1 boar for 19 sows is more than 1 per 20"
        );
        assert_eq!(status(100, 1, true), Ok(Status::Met), "AI: 1 boar for 100 sows");
        assert_eq!(status(99, 1, true), Ok(Status::Violated));
        assert_eq!(
            status(200, 15, true),
            Ok(Status::Violated),
            "200 sows by AI allow 2 boars, not 15"
        );
        assert_eq!(status(200, 2, true), Ok(Status::Met));
        assert!(boar_ratio_applies(FcoLine::Pronaf, Texts::Written).is_ok());
        let why = boar_ratio_applies(FcoLine::Rural, Texts::Written).expect_err("family farmers only");
        assert!(why.contains("art. 8 §5"), "{why}");
    }

    #[test]
    fn sow_age_boundaries_one_day_either_side() {
        let born = d(2020, 1, 15);
        let cases = [
            (d(2020, 7, 14), Status::Violated, "one day before 6 months"),
            (d(2020, 7, 15), Status::Met, "exactly 6 months"),
            (d(2023, 5, 15), Status::Met, "exactly 40 months"),
            (d(2023, 5, 16), Status::Violated, "one day past 40 months"),
        ];
        for (on, expected, why) in cases {
            let o = sow_age(born, on, &p(), Texts::Written).expect("params");
            assert_eq!(o.status, expected, "{why}: {}", o.explanation);
        }
    }

    #[test]
    fn a_used_machines_use_is_counted_in_months_at_financing_from_its_year() {
        let on = d(2026, 6, 1);
        let status = |year, financed| used_machine(year, financed, on, &p(), Texts::Written).map(|o| o.status);
        assert_eq!(
            status(Some(2022), d(2026, 1, 1)),
            Ok(Status::Met),
            "48 months from 1 January 2022"
        );
        assert_eq!(
            status(Some(2022), d(2026, 1, 2)),
            Ok(Status::Violated),
            "a day past 48 months"
        );
        assert_eq!(
            status(Some(2022), d(2026, 6, 1)),
            Ok(Status::Violated),
            "2026 - 2022 = 4 years, but 53 months of use"
        );
        assert_eq!(
            status(Some(2027), d(2026, 6, 1)),
            Ok(Status::Violated),
            "made after its financing"
        );
        assert_eq!(status(None, on), Ok(Status::Violated), "year not stated");
        let o = used_machine(Some(2022), d(2026, 6, 1), on, &p(), Texts::Written).expect("params");
        assert!(o.explanation.contains("53 month(s)"), "{}", o.explanation);
    }

    #[test]
    fn validity_runs_120_days_from_approval() {
        let cal = Calendar::national();
        // Approved on Monday 2 March 2026: day 120 is Tuesday 30 June 2026, a business day.
        let approved = d(2026, 3, 2);
        let dl = cal.add_days(
            approved,
            p().count("FCO-VALIDITY-120D.DAYS", approved).expect("param"),
            Texts::Written,
        );
        assert_eq!(dl.due, d(2026, 6, 30));
        let on_120 = day_deadline(
            code::FCO_VALIDITY_120D,
            Some(dl.clone()),
            Some(d(2026, 6, 30)),
            d(2026, 7, 10),
            "",
            Texts::Written,
        );
        let on_121 = day_deadline(
            code::FCO_VALIDITY_120D,
            Some(dl),
            Some(d(2026, 7, 1)),
            d(2026, 7, 10),
            "",
            Texts::Written,
        );
        assert_eq!(
            (on_120.status, on_121.status),
            (DeadlineStatus::Met, DeadlineStatus::Overdue)
        );
    }

    #[test]
    fn bank_reporting_deadlines() {
        let cal = Calendar::national();
        let reports = [SentReport {
            month: d(2026, 9, 1),
            received_on: d(2026, 10, 20),
        }];
        // A monthly list does not restart the 60 days: with no 60-day report ever, the first was due 60 days after the
        // instruction took effect (20 March 2019 + 60 = Sunday 19 May: Monday the 20th).
        let out = bank_deadlines(true, &reports, &[], &p(), &cal, d(2026, 12, 2)).expect("params");
        assert_eq!(
            (out[0].code, out[0].due, out[0].status),
            ("FCO-BB-60D", Some(d(2019, 5, 20)), DeadlineStatus::Overdue)
        );
        assert!(
            out[0]
                .note
                .contains("the monthly lists of art. 2 §5 are another report"),
            "{}",
            out[0].note
        );
        // 60 days after a 60-day report of 20 October 2026 is 19 December 2026, a Saturday: moved to Monday the 21st;
        // the day before, the day and the day after.
        let out = bank_deadlines(true, &reports, &[d(2026, 10, 20)], &p(), &cal, d(2026, 12, 2)).expect("params");
        assert_eq!(
            (out[0].code, out[0].due, out[0].status),
            ("FCO-BB-60D", Some(d(2026, 12, 21)), DeadlineStatus::Pending)
        );
        for (as_of, status) in [
            (d(2026, 12, 20), DeadlineStatus::Pending),
            (d(2026, 12, 21), DeadlineStatus::Pending),
            (d(2026, 12, 22), DeadlineStatus::Overdue),
        ] {
            let out = bank_deadlines(true, &[], &[d(2026, 10, 20)], &p(), &cal, as_of).expect("params");
            assert_eq!(out[0].status, status, "on {as_of}");
        }
        // October's list was due by 30 November 2026 and never came; November's runs until 31 December.
        assert_eq!(
            (out[1].due, out[1].status),
            (Some(d(2026, 11, 30)), DeadlineStatus::Overdue)
        );
        assert_eq!(
            (out[2].due, out[2].status),
            (Some(d(2026, 12, 31)), DeadlineStatus::Pending)
        );
        let on_time = [SentReport {
            month: d(2026, 10, 1),
            received_on: d(2026, 11, 30),
        }];
        let out = bank_deadlines(false, &on_time, &[], &p(), &cal, d(2026, 12, 2)).expect("params");
        assert_eq!(
            (out.len(), out[0].status),
            (2, DeadlineStatus::Met),
            "no 60-day rule for other banks"
        );
    }

    #[test]
    fn classification_follows_art_17() {
        let on = d(2020, 1, 1);
        assert_eq!(
            classify(ItemKind::GrainStorage, None, &p(), on),
            Ok(InvestmentClass::Fixed)
        );
        assert_eq!(
            classify(ItemKind::Machine, Some(10), &p(), on),
            Ok(InvestmentClass::Fixed),
            "life over 5 years"
        );
        assert_eq!(
            classify(ItemKind::Machine, Some(5), &p(), on),
            Ok(InvestmentClass::SemiFixed),
            "life of 5 years"
        );
        assert_eq!(
            classify(ItemKind::Vehicle, Some(20), &p(), on),
            Ok(InvestmentClass::SemiFixed),
            "tractors are semi-fixed"
        );
        assert!(operating_allowed(FcoActivity::FishFarming) && !operating_allowed(FcoActivity::Grains));
        let _ = dec!(0);
    }
}
