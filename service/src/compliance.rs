//! Compliance and deadlines of one financing: gathers the stored facts the rules read, as known on a date, and calls
//! the pure rule layer (`entity::rules`). Where the facts come from is the door's choice ([`FactSource`]): the graph
//! batches them across a page with its DataLoaders, a job or a command reads them with [`DbFacts`].
//!
//! Size: the facts every rule reads, gathered for both programmes from either source, and judged in one place.

use crate::ServiceError;
use crate::facts::{Committed, GroupCommitments};
use chrono::{Datelike, NaiveDate};
use entity::Versioned;
use entity::{
    assistance_plan, chamber_meeting, checklist_confirmation, company_change_notice, contract_proposal,
    domain::{Authority, brasilia_date},
    fco_carta, fco_carta_amendment, fco_carta_cycle, fco_carta_item, fco_carta_statement, feedstock_acquisition,
    project_document,
    rules::{self, Outcome, RuleKind, Texts, calendar::Calendar, fco, params::Params, social_fuel},
    semi_arid_membership, social_fuel_project,
    vocab::{ItemKind, Programme},
};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter};
use std::{
    collections::{HashMap, HashSet},
    future::Future,
    sync::Arc,
};

type Result<T> = std::result::Result<T, ServiceError>;

/// Where the facts of one financing come from. Every method answers for one key; an implementation may batch the
/// keys of concurrent calls (the graph does).
pub trait FactSource: Sync {
    /// A project's feedstock acquisitions.
    fn acquisitions(&self, project: i64) -> impl Future<Output = Result<Vec<feedstock_acquisition::Model>>> + Send;
    /// A project's contract proposals.
    fn proposals(&self, project: i64) -> impl Future<Output = Result<Vec<contract_proposal::Model>>> + Send;
    /// A project's annex-I documents.
    fn documents(&self, project: i64) -> impl Future<Output = Result<Vec<project_document::Model>>> + Send;
    /// A project's technical-assistance plans.
    fn plans(&self, project: i64) -> impl Future<Output = Result<Vec<assistance_plan::Model>>> + Send;
    /// A project's change notices.
    fn change_notices(&self, project: i64) -> impl Future<Output = Result<Vec<company_change_notice::Model>>> + Send;
    /// A municipality's semi-arid memberships.
    fn semi_arid(&self, ibge_code: i32) -> impl Future<Output = Result<Vec<semi_arid_membership::Model>>> + Send;
    /// A financing's checklist confirmations.
    fn confirmations(
        &self,
        programme: Programme,
        id: i64,
    ) -> impl Future<Output = Result<Vec<checklist_confirmation::Model>>> + Send;
    /// The items of each carta.
    fn items(&self, cartas: Vec<i64>) -> impl Future<Output = Result<Vec<fco_carta_item::Model>>> + Send;
    /// A carta's amendments.
    fn amendments(&self, carta: i64) -> impl Future<Output = Result<Vec<fco_carta_amendment::Model>>> + Send;
    /// A carta's approval cycles an amendment closed.
    fn cycles(&self, carta: i64) -> impl Future<Output = Result<Vec<fco_carta_cycle::Model>>> + Send;
    /// The versions of a carta's stated facts a correction replaced.
    fn statements(&self, carta: i64) -> impl Future<Output = Result<Vec<fco_carta_statement::Model>>> + Send;
    /// A chamber meeting.
    fn meeting(&self, id: i64) -> impl Future<Output = Result<Option<chamber_meeting::Model>>> + Send;
    /// Whether a bank was present at a meeting (none when not recorded).
    fn present(&self, meeting: i64, bank: i64) -> impl Future<Output = Result<Option<bool>>> + Send;
    /// The committed cartas of a borrower's group as known on `day` ([`crate::facts::group_commitments`]).
    fn group_commitments(&self, party: i64, day: NaiveDate) -> impl Future<Output = Result<Arc<Committed>>> + Send;
    /// A carta.
    fn carta(&self, id: i64) -> impl Future<Output = Result<Option<fco_carta::Model>>> + Send;
}

/// The parameters and the calendar, read once however many financings are checked.
#[derive(Debug, Clone, Copy)]
pub struct Basis<'a> {
    /// The rule parameters.
    pub params: &'a Params,
    /// The business-day calendar.
    pub calendar: &'a Calendar,
    /// Whether the rules write their explanations and notes, or judge statuses and dates only.
    pub texts: Texts,
}

/// Whose clock a programme's times are shown on.
pub fn authority(programme: Programme) -> Authority {
    match programme {
        Programme::SocialFuel => Authority::Mda,
        Programme::FcoRural => Authority::Cdae,
    }
}

/// Turns pending checklist items that someone confirmed on or before `as_of` into met ones, naming who and when.
async fn apply_confirmations(
    facts: &impl FactSource,
    programme: Programme,
    id: i64,
    as_of: NaiveDate,
    outcomes: &mut [Outcome],
) -> Result<()> {
    confirm(&facts.confirmations(programme, id).await?, programme, as_of, outcomes);
    Ok(())
}

/// [`apply_confirmations`] with the financing's confirmations at hand.
fn confirm(
    confirmations: &[checklist_confirmation::Model],
    programme: Programme,
    as_of: NaiveDate,
    outcomes: &mut [Outcome],
) {
    if confirmations.is_empty() {
        return;
    }
    for o in outcomes.iter_mut() {
        let checklist = o.kind == RuleKind::Checklist;
        // The confirmation that held on `as_of` (the latest to take effect, when several did).
        if let Some(c) = confirmations
            .iter()
            .filter(|c| c.rule_code == o.code && c.known_on(as_of))
            .max_by_key(|c| (c.effective_on, c.id))
            && checklist
            && o.status != rules::Status::Violated
        {
            o.status = rules::Status::Met;
            let typed = brasilia_date(c.confirmed_at);
            let when = match c.effective_on {
                Some(day) if day != typed => entity::rules::Explanation::message("explain-date").arg("day", day),
                _ => entity::rules::Explanation::message("explain-plain")
                    .arg("text", authority(programme).show(c.confirmed_at)),
            };
            o.explanation = match c.note.as_deref() {
                Some(n) => entity::rules::Explanation::message("explain-confirmed-note").arg("note", n),
                None => entity::rules::Explanation::message("explain-confirmed"),
            }
            .arg("by", &c.confirmed_by)
            .nested("when", when);
        }
    }
}

/// A project's rule outcomes and deadlines as known on `as_of`.
pub async fn judge_project(
    facts: &impl FactSource,
    basis: Basis<'_>,
    p: &social_fuel_project::Model,
    as_of: NaiveDate,
) -> Result<(Vec<Outcome>, Vec<social_fuel::DeadlineOutcome>)> {
    // As known on `as_of`: acts dated later are not yet done.
    let p = &p.as_known_on(as_of);
    let (acq, props, docs, plans, memberships, notices) = futures::try_join!(
        facts.acquisitions(p.id),
        facts.proposals(p.id),
        facts.documents(p.id),
        facts.plans(p.id),
        facts.semi_arid(p.plant_municipality_code),
        facts.change_notices(p.id),
    )?;
    let reference = p.filed_on.unwrap_or(as_of);
    // The version of the plan known on `as_of`.
    let plan = plans.into_iter().find(|p| p.known_on(as_of)).map(|mut plan| {
        if plan.confirmed_at.is_some_and(|t| brasilia_date(t) > as_of) {
            plan.confirmed_at = None;
            plan.confirmed_by = None;
        }
        plan
    });
    let (semi_arid, semi_arid_note) = social_fuel::semi_arid_on(&memberships, reference);
    let notices: Vec<_> = notices
        .iter()
        .filter(|n| n.notified_on <= as_of)
        .map(|n| n.kind)
        .collect();
    // The version of each acquisition known on `as_of`, of the years up to it.
    let acq: Vec<_> = acq
        .into_iter()
        .filter(|a| a.year <= as_of.year() && a.known_on(as_of))
        .collect();
    let docs: Vec<_> = docs.into_iter().filter(|d| d.received_on <= as_of).collect();
    let props: Vec<_> = props.into_iter().filter(|c| c.known_on(as_of)).collect();
    let facts_of = social_fuel::ProjectFacts {
        project: p,
        acquisitions: &acq,
        proposals: &props,
        documents: &docs,
        plan: plan.as_ref(),
        semi_arid,
        semi_arid_note: Some(&semi_arid_note),
        change_notices: &notices,
    };
    let mut outcomes = social_fuel::check_all(&facts_of, basis.params, basis.calendar, as_of, basis.texts)?;
    apply_confirmations(facts, Programme::SocialFuel, p.id, as_of, &mut outcomes).await?;
    let deadlines = social_fuel::deadlines(p, basis.params, basis.calendar, as_of, basis.texts)?;
    Ok((outcomes, deadlines))
}

/// A carta's rule outcomes and deadlines as known on `as_of`, its borrower's whole group included.
pub async fn judge_carta(
    facts: &impl FactSource,
    basis: Basis<'_>,
    c: &fco_carta::Model,
    as_of: NaiveDate,
) -> Result<(Vec<Outcome>, Vec<social_fuel::DeadlineOutcome>)> {
    let c = &fco_carta::JudgedCarta::from(c);
    // The cycle in force on `as_of` names the meeting read: an earlier cycle's, before a reopening.
    let closed = if c.in_earlier_cycle_on(as_of) {
        facts.cycles(c.id).await?
    } else {
        Vec::new()
    };
    // The facts stated in the version in force on `as_of`: an earlier one, before a correction took effect.
    let stated = if c.restated_after(as_of) {
        facts.statements(c.id).await?
    } else {
        Vec::new()
    };
    let known = c.known_on(&closed, &stated, as_of);
    // The carta's items, and those of the carta it resubmits (FCO-RESUBMIT compares them).
    let item_cartas: Vec<i64> = std::iter::once(c.id).chain(c.resubmission_of).collect();
    let (items, amendments, meeting, bank_present, group, resubmitted, confirmations) = futures::try_join!(
        facts.items(item_cartas),
        facts.amendments(c.id),
        async {
            match known.chamber_meeting_id {
                Some(id) => facts.meeting(id).await,
                None => Ok(None),
            }
        },
        async {
            match known.chamber_meeting_id {
                Some(id) => facts.present(id, c.bank_id).await,
                None => Ok(None),
            }
        },
        facts.group_commitments(c.party_id, as_of),
        async {
            match c.resubmission_of {
                Some(id) => facts.carta(id).await,
                None => Ok(None),
            }
        },
        facts.confirmations(Programme::FcoRural, c.id),
    )?;
    let (items, resubmitted_items): (Vec<_>, Vec<_>) = items.into_iter().partition(|i| i.carta_id == c.id);
    let of_carta = OfCarta {
        items: &items,
        resubmitted_items: &resubmitted_items,
        amendments: &amendments,
        meeting: meeting.as_ref(),
        bank_present,
        group: &group,
        resubmitted: resubmitted.as_ref(),
        confirmations: &confirmations,
    };
    judge_carta_on(basis, c, &known, &of_carta, as_of)
}

/// What [`judge_carta`] reads besides the carta, every version (the rules read those known on the day).
struct OfCarta<'a> {
    items: &'a [fco_carta_item::Model],
    /// The items of the carta it resubmits.
    resubmitted_items: &'a [fco_carta_item::Model],
    amendments: &'a [fco_carta_amendment::Model],
    meeting: Option<&'a chamber_meeting::Model>,
    bank_present: Option<bool>,
    group: &'a Committed,
    resubmitted: Option<&'a fco_carta::Model>,
    confirmations: &'a [checklist_confirmation::Model],
}

/// [`judge_carta`] with its facts at hand: the carta as stored (`stored`, as the group commitments know it) and as
/// known on `as_of` (`c`, [`fco_carta::JudgedCarta::known_on`]: acts dated later are not yet done, an earlier cycle in
/// force before a reopening).
fn judge_carta_on(
    basis: Basis<'_>,
    stored: &fco_carta::JudgedCarta,
    c: &fco_carta::JudgedCarta,
    f: &OfCarta<'_>,
    as_of: NaiveDate,
) -> Result<(Vec<Outcome>, Vec<social_fuel::DeadlineOutcome>)> {
    let amendments: Vec<_> = f
        .amendments
        .iter()
        .filter(|a| a.requested_on <= as_of)
        .cloned()
        .collect();
    // The version of each item known on `as_of`.
    let items: Vec<_> = f.items.iter().filter(|i| i.known_on(as_of)).cloned().collect();
    // Its meeting only once it was on the agenda (the carta as known on the day says).
    let on_agenda = c.chamber_meeting_id.is_some();
    let meeting = f
        .meeting
        .filter(|_| on_agenda)
        .cloned()
        .map(|m| meeting_known_on(m, as_of));
    // The group's committed cartas, this one left out, as known on `as_of`: a carta approved later does not count.
    // Art. 9 counts per producer: the borrower's own committed Pantanal cartas, not the group's.
    let (others, weaned_others, pantanal_others) = f.group.others(stored, as_of);
    let exposure = i64::try_from(i128::from(c.financed_amount.cents()) + others)
        .map(entity::domain::Money)
        .unwrap_or(entity::domain::Money(i64::MAX));
    let weaned = |items: &[fco_carta_item::Model]| -> i64 {
        items
            .iter()
            .filter(|i| i.kind == ItemKind::WeanedCalf)
            .map(|i| i64::from(i.head_count.unwrap_or(0)))
            .sum()
    };
    // A resubmission against the carta it resubmits, each with the items known on `as_of`.
    let reformulation = f.resubmitted.map(|o| {
        let before: Vec<_> = f
            .resubmitted_items
            .iter()
            .filter(|i| i.known_on(as_of))
            .cloned()
            .collect();
        fco::reformulation(o, &before, c, &items)
    });
    let facts_of = fco::CartaFacts {
        carta: c,
        items: &items,
        amendments: &amendments,
        meeting: meeting.as_ref(),
        bank_present: f.bank_present.filter(|_| on_agenda),
        group_exposure: exposure,
        group_weaned_heads: weaned_others + weaned(&items),
        producer_other_pantanal_dams: pantanal_others,
        resubmitted_stage: f.resubmitted.map(|o| o.stage),
        reformulation: reformulation.as_ref(),
    };
    let (mut outcomes, deadlines) =
        fco::check_all_and_deadlines(&facts_of, basis.params, basis.calendar, as_of, basis.texts)?;
    confirm(f.confirmations, Programme::FcoRural, as_of, &mut outcomes);
    fco::contracted_over_conditions(c, &mut outcomes);
    Ok((outcomes, deadlines))
}

/// A chamber meeting as known at the end of `as_of`: results sent and an opinion given later are not yet there.
fn meeting_known_on(mut m: chamber_meeting::Model, as_of: NaiveDate) -> chamber_meeting::Model {
    if m.results_sent_at.is_some_and(|t| brasilia_date(t) > as_of) {
        m.results_sent_at = None;
    }
    if m.opinion_at.is_some_and(|t| brasilia_date(t) > as_of) {
        m.opinion_at = None;
        m.opinion_reference = None;
    }
    m
}

/// A project's deadlines alone as known on `as_of` (they read the project only): for the dashboard, which counts
/// what is overdue without judging every rule.
pub fn project_deadlines(
    basis: Basis<'_>,
    p: &social_fuel_project::Model,
    as_of: NaiveDate,
) -> Result<Vec<social_fuel::DeadlineOutcome>> {
    let p = p.as_known_on(as_of);
    Ok(social_fuel::deadlines(
        &p,
        basis.params,
        basis.calendar,
        as_of,
        basis.texts,
    )?)
}

/// A carta's deadlines alone as known on `as_of` (`c`, [`fco_carta::JudgedCarta::known_on`]): they read the carta and
/// its chamber meeting only.
fn deadlines_of_carta(
    basis: Basis<'_>,
    c: &fco_carta::JudgedCarta,
    meeting: Option<&chamber_meeting::Model>,
    as_of: NaiveDate,
) -> Result<Vec<social_fuel::DeadlineOutcome>> {
    let meeting = meeting
        .filter(|_| c.chamber_meeting_id.is_some())
        .cloned()
        .map(|m| meeting_known_on(m, as_of));
    let facts_of = fco::CartaFacts {
        carta: c,
        items: &[],
        amendments: &[],
        meeting: meeting.as_ref(),
        bank_present: None,
        group_exposure: c.financed_amount,
        group_weaned_heads: 0,
        producer_other_pantanal_dams: 0,
        resubmitted_stage: None,
        reformulation: None,
    };
    Ok(fco::deadlines(
        &facts_of,
        basis.params,
        basis.calendar,
        as_of,
        basis.texts,
    )?)
}

/// The reporting deadlines of a bank (FCO-BB-60D for Banco do Brasil, FCO-MONTHLY-LIST for FCO banks).
pub async fn bank_deadlines(
    db: &impl ConnectionTrait,
    basis: Basis<'_>,
    b: &entity::bank::Model,
    as_of: NaiveDate,
) -> Result<Vec<social_fuel::DeadlineOutcome>> {
    if !b.serves_fco {
        return Ok(Vec::new());
    }
    let reports = entity::bank_report::Entity::find()
        .filter(entity::bank_report::Column::BankId.eq(b.id))
        .filter(entity::bank_report::Column::Status.ne("REJECTED"))
        .all(db)
        .await?;
    let sent: Vec<fco::SentReport> = reports
        .iter()
        .filter_map(|r| {
            let month = NaiveDate::parse_from_str(&format!("{}-01", r.reference_month), "%Y-%m-%d").ok()?;
            Some(fco::SentReport {
                month,
                received_on: brasilia_date(r.received_at),
            })
        })
        .collect();
    let is_bb = b.code == entity::bank::BANCO_DO_BRASIL;
    let periodic: Vec<NaiveDate> = if is_bb {
        entity::bank_periodic_report::Entity::find()
            .filter(entity::bank_periodic_report::Column::BankId.eq(b.id))
            .all(db)
            .await?
            .into_iter()
            .map(|r| r.received_on)
            .collect()
    } else {
        Vec::new()
    };
    Ok(fco::bank_deadlines(
        is_bb,
        &sent,
        &periodic,
        basis.params,
        basis.calendar,
        as_of,
    )?)
}

/// Facts read straight from the database, one query per call: for jobs and commands that check one financing.
#[derive(Debug, Clone, Copy)]
pub struct DbFacts<'a, C>(pub &'a C);

fn one<K: std::hash::Hash + Eq, V: Default>(mut m: std::collections::HashMap<K, V>, k: &K) -> V {
    m.remove(k).unwrap_or_default()
}

impl<C: ConnectionTrait + Sync> FactSource for DbFacts<'_, C> {
    async fn acquisitions(&self, project: i64) -> Result<Vec<feedstock_acquisition::Model>> {
        Ok(one(
            crate::facts::acquisitions_by_project(self.0, &[project]).await?,
            &project,
        ))
    }
    async fn proposals(&self, project: i64) -> Result<Vec<contract_proposal::Model>> {
        Ok(one(
            crate::facts::proposals_by_project(self.0, &[project]).await?,
            &project,
        ))
    }
    async fn documents(&self, project: i64) -> Result<Vec<project_document::Model>> {
        Ok(one(
            crate::facts::documents_by_project(self.0, &[project]).await?,
            &project,
        ))
    }
    async fn plans(&self, project: i64) -> Result<Vec<assistance_plan::Model>> {
        Ok(one(crate::facts::plans_by_project(self.0, &[project]).await?, &project))
    }
    async fn change_notices(&self, project: i64) -> Result<Vec<company_change_notice::Model>> {
        Ok(one(
            crate::facts::change_notices_by_project(self.0, &[project]).await?,
            &project,
        ))
    }
    async fn semi_arid(&self, ibge_code: i32) -> Result<Vec<semi_arid_membership::Model>> {
        Ok(one(
            crate::facts::semi_arid_by_municipality(self.0, &[ibge_code]).await?,
            &ibge_code,
        ))
    }
    async fn confirmations(&self, programme: Programme, id: i64) -> Result<Vec<checklist_confirmation::Model>> {
        Ok(one(
            crate::facts::confirmations(self.0, &[(programme, id)]).await?,
            &(programme, id),
        ))
    }
    async fn items(&self, cartas: Vec<i64>) -> Result<Vec<fco_carta_item::Model>> {
        let mut by_carta = crate::facts::items_by_carta(self.0, &cartas).await?;
        Ok(cartas
            .iter()
            .flat_map(|c| by_carta.remove(c).unwrap_or_default())
            .collect())
    }
    async fn amendments(&self, carta: i64) -> Result<Vec<fco_carta_amendment::Model>> {
        Ok(one(crate::facts::amendments_by_carta(self.0, &[carta]).await?, &carta))
    }
    async fn cycles(&self, carta: i64) -> Result<Vec<fco_carta_cycle::Model>> {
        Ok(one(crate::facts::cycles_by_carta(self.0, &[carta]).await?, &carta))
    }
    async fn statements(&self, carta: i64) -> Result<Vec<fco_carta_statement::Model>> {
        Ok(one(crate::facts::statements_by_carta(self.0, &[carta]).await?, &carta))
    }
    async fn meeting(&self, id: i64) -> Result<Option<chamber_meeting::Model>> {
        Ok(crate::facts::chamber_meetings(self.0, &[id]).await?.remove(&id))
    }
    async fn present(&self, meeting: i64, bank: i64) -> Result<Option<bool>> {
        Ok(crate::facts::attendance(self.0, &[(meeting, bank)])
            .await?
            .remove(&(meeting, bank)))
    }
    async fn group_commitments(&self, party: i64, day: NaiveDate) -> Result<Arc<Committed>> {
        Ok(one(
            crate::facts::group_commitments(self.0, &[(party, day)]).await?,
            &(party, day),
        ))
    }
    async fn carta(&self, id: i64) -> Result<Option<fco_carta::Model>> {
        Ok(crate::facts::cartas(self.0, &[id]).await?.remove(&id))
    }
}

/// Facts read in bulk for a batch of financings, one statement per kind of fact, then served from memory: for the
/// jobs that judge every financing in one pass (`flag-deadlines`).
#[derive(Debug, Default)]
pub struct Preloaded {
    acquisitions: HashMap<i64, Vec<feedstock_acquisition::Model>>,
    proposals: HashMap<i64, Vec<contract_proposal::Model>>,
    documents: HashMap<i64, Vec<project_document::Model>>,
    plans: HashMap<i64, Vec<assistance_plan::Model>>,
    change_notices: HashMap<i64, Vec<company_change_notice::Model>>,
    semi_arid: HashMap<i32, Vec<semi_arid_membership::Model>>,
    confirmations: HashMap<(Programme, i64), Vec<checklist_confirmation::Model>>,
    items: HashMap<i64, Vec<fco_carta_item::Model>>,
    amendments: HashMap<i64, Vec<fco_carta_amendment::Model>>,
    /// The closed approval cycles of the cartas that may be in one on the day judged.
    cycles: HashMap<i64, Vec<fco_carta_cycle::Model>>,
    /// The replaced versions of the stated facts of the cartas corrected with effect after the day judged.
    statements: HashMap<i64, Vec<fco_carta_statement::Model>>,
    meetings: HashMap<i64, chamber_meeting::Model>,
    attendance: HashMap<(i64, i64), bool>,
    groups: HashMap<(i64, NaiveDate), Arc<Committed>>,
    cartas: HashMap<i64, fco_carta::Model>,
}

impl Preloaded {
    /// The facts of these projects.
    pub async fn projects(db: &impl ConnectionTrait, projects: &[social_fuel_project::Model]) -> Result<Self> {
        use crate::facts as f;
        let ids: Vec<i64> = projects.iter().map(|p| p.id).collect();
        let towns: Vec<i32> = projects
            .iter()
            .map(|p| p.plant_municipality_code)
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        let keys: Vec<(Programme, i64)> = ids.iter().map(|id| (Programme::SocialFuel, *id)).collect();
        let (acquisitions, proposals, documents, plans, change_notices, semi_arid, confirmations) = together!(db;
            f::acquisitions_by_project(db, &ids),
            f::proposals_by_project(db, &ids),
            f::documents_by_project(db, &ids),
            f::plans_by_project(db, &ids),
            f::change_notices_by_project(db, &ids),
            f::semi_arid_by_municipality(db, &towns),
            f::confirmations(db, &keys),
        )?;
        Ok(Self {
            acquisitions,
            proposals,
            documents,
            plans,
            change_notices,
            semi_arid,
            confirmations,
            ..Self::default()
        })
    }

    /// The chamber meetings of these cartas as known on `as_of` (all their deadlines read), and their approval cycles
    /// in force then.
    pub async fn meetings(
        db: &impl ConnectionTrait,
        cartas: &[fco_carta::JudgedCarta],
        as_of: NaiveDate,
    ) -> Result<Self> {
        let cycles = crate::facts::cycles_in_force_on(db, cartas, as_of).await?;
        let statements = crate::facts::statements_in_force_on(db, cartas, as_of).await?;
        let of = Self {
            cycles,
            statements,
            ..Self::default()
        };
        let ids: Vec<i64> = cartas
            .iter()
            .filter_map(|c| of.known_on(c, as_of).chamber_meeting_id)
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        Ok(Self {
            meetings: crate::facts::chamber_meetings(db, &ids).await?,
            ..of
        })
    }

    /// The facts of these cartas judged on `as_of` but their borrowers' groups ([`Preloaded::with_groups`] adds
    /// those): what a pass reads of a batch while it judges the batches before. The meetings and attendance read are
    /// those of each carta's cycle in force on `as_of`.
    pub async fn cartas_but_groups(
        db: &impl ConnectionTrait,
        cartas: &[fco_carta::JudgedCarta],
        as_of: NaiveDate,
    ) -> Result<Self> {
        use crate::facts as f;
        let cycles = f::cycles_in_force_on(db, cartas, as_of).await?;
        let statements = f::statements_in_force_on(db, cartas, as_of).await?;
        let of = Self {
            cycles,
            statements,
            ..Self::default()
        };
        let ids: Vec<i64> = cartas.iter().map(|c| c.id).collect();
        let present: Vec<(i64, i64)> = cartas
            .iter()
            .filter_map(|c| of.known_on(c, as_of).chamber_meeting_id.map(|m| (m, c.bank_id)))
            .collect();
        let meeting_ids: Vec<i64> = present
            .iter()
            .map(|p| p.0)
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        let resubmitted: Vec<i64> = cartas.iter().filter_map(|c| c.resubmission_of).collect();
        // The items of the cartas resubmitted too (FCO-RESUBMIT compares them).
        let with_resubmitted: Vec<i64> = ids
            .iter()
            .chain(&resubmitted)
            .copied()
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        let keys: Vec<(Programme, i64)> = ids.iter().map(|id| (Programme::FcoRural, *id)).collect();
        let (confirmations, items, amendments, meetings, attendance, cartas) = together!(db;
            f::confirmations(db, &keys),
            f::items_by_carta(db, &with_resubmitted),
            f::amendments_by_carta(db, &ids),
            f::chamber_meetings(db, &meeting_ids),
            f::attendance(db, &present),
            f::cartas(db, &resubmitted),
        )?;
        Ok(Self {
            confirmations,
            items,
            amendments,
            meetings,
            attendance,
            cartas,
            ..of
        })
    }

    /// Carta `c` as known at the end of `as_of` ([`fco_carta::JudgedCarta::known_on`]), with the cycles and stated
    /// versions read for it.
    pub fn known_on<'a>(
        &self,
        c: &'a fco_carta::JudgedCarta,
        as_of: NaiveDate,
    ) -> std::borrow::Cow<'a, fco_carta::JudgedCarta> {
        c.known_on(
            self.cycles.get(&c.id).map_or(&[], Vec::as_slice),
            self.statements.get(&c.id).map_or(&[], Vec::as_slice),
            as_of,
        )
    }

    /// Adds the groups of these cartas' borrowers on `as_of`, read through `commitments` (which keeps the groups
    /// already met in the pass; a pass's whole commitments read nothing more).
    pub async fn with_groups(
        mut self,
        db: &impl ConnectionTrait,
        cartas: &[fco_carta::JudgedCarta],
        as_of: NaiveDate,
        commitments: &mut GroupCommitments,
    ) -> Result<Self> {
        let group_keys: Vec<(i64, NaiveDate)> = cartas
            .iter()
            .map(|c| (c.party_id, as_of))
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        self.groups = commitments.commitments(db, &group_keys).await?;
        Ok(self)
    }

    /// [`judge_carta`] on these facts, at once: a pass judges every carta of a batch on its preloaded facts, where the
    /// futures of [`FactSource`] (seven joined for every carta, each answering at once) were a tenth of the judging.
    pub fn carta(
        &self,
        basis: Basis<'_>,
        c: &fco_carta::JudgedCarta,
        as_of: NaiveDate,
    ) -> Result<(Vec<Outcome>, Vec<social_fuel::DeadlineOutcome>)> {
        let group = self.groups.get(&(c.party_id, as_of)).cloned().unwrap_or_default();
        let known = self.known_on(c, as_of);
        let of_carta = OfCarta {
            items: self.items.get(&c.id).map_or(&[], Vec::as_slice),
            resubmitted_items: c
                .resubmission_of
                .and_then(|r| self.items.get(&r))
                .map_or(&[], Vec::as_slice),
            amendments: self.amendments.get(&c.id).map_or(&[], Vec::as_slice),
            meeting: known.chamber_meeting_id.and_then(|m| self.meetings.get(&m)),
            bank_present: known
                .chamber_meeting_id
                .and_then(|m| self.attendance.get(&(m, c.bank_id)).copied()),
            group: &group,
            resubmitted: c.resubmission_of.and_then(|r| self.cartas.get(&r)),
            confirmations: self
                .confirmations
                .get(&(Programme::FcoRural, c.id))
                .map_or(&[], Vec::as_slice),
        };
        judge_carta_on(basis, c, &known, &of_carta, as_of)
    }

    /// A carta's deadlines alone as known on `as_of` (they read the carta and its chamber meeting only), on these
    /// facts.
    pub fn carta_deadlines(
        &self,
        basis: Basis<'_>,
        c: &fco_carta::JudgedCarta,
        as_of: NaiveDate,
    ) -> Result<Vec<social_fuel::DeadlineOutcome>> {
        let known = self.known_on(c, as_of);
        deadlines_of_carta(
            basis,
            &known,
            known.chamber_meeting_id.and_then(|m| self.meetings.get(&m)),
            as_of,
        )
    }
}

fn cloned<K: std::hash::Hash + Eq, V: Clone>(m: &HashMap<K, Vec<V>>, k: &K) -> Vec<V> {
    m.get(k).cloned().unwrap_or_default()
}

impl FactSource for Preloaded {
    async fn acquisitions(&self, project: i64) -> Result<Vec<feedstock_acquisition::Model>> {
        Ok(cloned(&self.acquisitions, &project))
    }
    async fn proposals(&self, project: i64) -> Result<Vec<contract_proposal::Model>> {
        Ok(cloned(&self.proposals, &project))
    }
    async fn documents(&self, project: i64) -> Result<Vec<project_document::Model>> {
        Ok(cloned(&self.documents, &project))
    }
    async fn plans(&self, project: i64) -> Result<Vec<assistance_plan::Model>> {
        Ok(cloned(&self.plans, &project))
    }
    async fn change_notices(&self, project: i64) -> Result<Vec<company_change_notice::Model>> {
        Ok(cloned(&self.change_notices, &project))
    }
    async fn semi_arid(&self, ibge_code: i32) -> Result<Vec<semi_arid_membership::Model>> {
        Ok(cloned(&self.semi_arid, &ibge_code))
    }
    async fn confirmations(&self, programme: Programme, id: i64) -> Result<Vec<checklist_confirmation::Model>> {
        Ok(cloned(&self.confirmations, &(programme, id)))
    }
    async fn items(&self, cartas: Vec<i64>) -> Result<Vec<fco_carta_item::Model>> {
        Ok(cartas.iter().flat_map(|c| cloned(&self.items, c)).collect())
    }
    async fn amendments(&self, carta: i64) -> Result<Vec<fco_carta_amendment::Model>> {
        Ok(cloned(&self.amendments, &carta))
    }
    async fn cycles(&self, carta: i64) -> Result<Vec<fco_carta_cycle::Model>> {
        Ok(cloned(&self.cycles, &carta))
    }
    async fn statements(&self, carta: i64) -> Result<Vec<fco_carta_statement::Model>> {
        Ok(cloned(&self.statements, &carta))
    }
    async fn meeting(&self, id: i64) -> Result<Option<chamber_meeting::Model>> {
        Ok(self.meetings.get(&id).cloned())
    }
    async fn present(&self, meeting: i64, bank: i64) -> Result<Option<bool>> {
        Ok(self.attendance.get(&(meeting, bank)).copied())
    }
    async fn group_commitments(&self, party: i64, day: NaiveDate) -> Result<Arc<Committed>> {
        Ok(self.groups.get(&(party, day)).cloned().unwrap_or_default())
    }
    async fn carta(&self, id: i64) -> Result<Option<fco_carta::Model>> {
        Ok(self.cartas.get(&id).cloned())
    }
}
