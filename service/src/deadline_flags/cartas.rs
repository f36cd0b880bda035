//! The judging of a pass's cartas, batch after batch, on a thread of its own.

use super::{
    Finding, Key, Result,
    ceiling::{CeilingOutcome, ceiling_key},
    judgement::{Judgement, Windows, calls_for_texts, judged_as_outcome, live},
};
use crate::compliance::{Basis, Preloaded};
use chrono::NaiveDate;
use entity::{
    compliance_flag::SubjectKind,
    fco_carta,
    rules::{Explanation, FxMap, FxSet, Outcome, Status, Texts, calendar::Calendar, code, params::Params},
    vocab::{FcoCartaStage, Programme},
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The new flags of cartas, handed on as each batch is judged ([`run`] writes them while the judging goes on), and
/// what decides which are new.
pub(super) struct Outflow {
    /// The identities a person resolved: their flags are left to the comparison at the end, which holds a person's
    /// resolution while the flag's facts stay the same.
    pub(super) by_person: FxSet<Key>,
    /// Where the new flags go.
    pub(super) to: tokio::sync::mpsc::Sender<Vec<(Key, Finding)>>,
}

/// The judging of the cartas, on a thread of its own ([`judge_within`]): what it reads besides the batches, and what
/// it finds.
pub(super) struct CartaJudge {
    pub(super) everything: bool,
    pub(super) as_of: NaiveDate,
    pub(super) params: Arc<Params>,
    pub(super) calendar: Arc<Calendar>,
    pub(super) windows: Arc<Windows>,
    /// The current economic group of each borrower in one.
    pub(super) groups: FxMap<i64, i64>,
    pub(super) j: Judgement,
    /// FCO-CEILING as judged on each group's cartas, put together per group at the end ([`group_ceiling`]).
    pub(super) ceiling: BTreeMap<i64, Vec<CeilingOutcome>>,
    /// The first closed carta judged of each group with an open flag, whose account is the group's
    /// ([`explain_closed_groups`]).
    pub(super) first_closed: FxMap<i64, i64>,
    /// Where the new flags of each batch's cartas go, when they are written as the judging goes on.
    pub(super) outflow: Option<Outflow>,
}

impl CartaJudge {
    /// Hands on the new flags of these judged cartas (a batch, in id order), taking them out of the judgement: a
    /// carta's own flags are final once it is judged (its group's, its meeting's and its bank's are not: they wait
    /// for the end). A flag is new when none is open for its identity and no person resolved one. Whether the
    /// writing goes on. (The financings between the batch's first and last id are its cartas and projects, judged
    /// before every carta: their flags are final too.)
    pub(super) fn send_new_flags(&mut self, cartas: &[fco_carta::JudgedCarta]) -> bool {
        let (Some(first), Some(last)) = (cartas.first(), cartas.last()) else {
            return true;
        };
        let of_batch = (SubjectKind::Financing, first.id, String::new(), String::new())
            ..(
                SubjectKind::Financing,
                last.id.saturating_add(1),
                String::new(),
                String::new(),
            );
        let Some(outflow) = &self.outflow else {
            // Kept to the end (SQLite's pass writes after judging): as their columns, a third of their size.
            if self.everything {
                for (_, w) in self.j.wanted.range_mut(of_batch) {
                    w.message.compact();
                }
            }
            return true;
        };
        let keys: Vec<Key> = self
            .j
            .wanted
            .range(of_batch)
            .map(|(k, _)| k)
            .filter(|k| !self.j.open.contains_key(*k) && !outflow.by_person.contains(*k))
            .cloned()
            .collect();
        let mut new = Vec::with_capacity(keys.len());
        for k in keys {
            if let Some(w) = self.j.wanted.remove(&k) {
                new.push((k, w));
            }
        }
        new.is_empty() || outflow.to.blocking_send(new).is_ok()
    }

    /// Judges a batch of cartas on their facts, read in full ([`Preloaded::carta`]: no future to wait on).
    pub(super) fn batch(&mut self, cartas: &[fco_carta::JudgedCarta], facts: &Preloaded) -> Result<()> {
        let basis = Basis {
            params: &self.params,
            calendar: &self.calendar,
            texts: Texts::written_if(self.everything),
        };
        let as_of = self.as_of;
        for c in cartas {
            // As known on the day: its cycle then (an earlier one before a reopening) names its stage and meeting.
            let known = facts.known_on(c, as_of);
            let (stage, meeting) = (known.stage, known.chamber_meeting_id);
            // A closed carta without an open flag raises nothing and resolves nothing of its own: only its deadlines
            // are read (its chamber meeting's result is still owed).
            let full = self.everything && (live(stage.status()) || self.j.watches(SubjectKind::Financing, c.id));
            let group = self.groups.get(&c.party_id).copied();
            // Judged without texts, and again with them when something is to be written about the carta: a flag it
            // calls for, or an open flag of it, its group or its meeting, whose account is kept. Of a group's cartas
            // only the first judged speaks for the group's flag (`group_ceiling` reads the first carta's account, or
            // the first over the ceiling's, which has its texts as its violation calls for a flag), so the rest of a
            // flagged group's cartas are judged without texts: every carta of every flagged group with texts was a
            // third of the day-to-day pass.
            let own = self.j.watches(SubjectKind::Financing, c.id);
            let watched = self.j.with_texts.contains(&(SubjectKind::Financing, c.id))
                || group.is_some_and(|g| {
                    self.j.watches(SubjectKind::Group, g) && self.ceiling.get(&g).is_none_or(Vec::is_empty)
                })
                || meeting.is_some_and(|m| self.j.watches(SubjectKind::Meeting, m));
            let mut basis = Basis {
                texts: Texts::written_if(watched),
                ..basis
            };
            let (outcomes, deadlines) = loop {
                let judged = if full {
                    facts.carta(basis, c, as_of)?
                } else {
                    (Vec::new(), facts.carta_deadlines(basis, c, as_of)?)
                };
                // A carta with open flags on deadlines only is judged with texts from here too: its deadlines' notes
                // are its flags' messages, or the reason they are resolved.
                if self.everything
                    && !basis.texts.written()
                    && (own || calls_for_texts(&self.windows, &judged.0, &judged.1))
                {
                    basis.texts = Texts::Written;
                    // A group's ceiling is one flag whose message is its first carta over the ceiling: the
                    // texts of the group's later cartas over it are not read.
                    let ceiling_explained = group
                        .and_then(|g| self.ceiling.get(&g))
                        .is_some_and(|list| list.iter().any(|o| o.violated));
                    let calls_for_flag = |o: &Outcome| {
                        o.status == Status::Violated
                            && judged_as_outcome(o)
                            && !(ceiling_explained && o.code == code::FCO_CEILING.as_str())
                    };
                    if !judged.0.iter().any(calls_for_flag) {
                        // Only a deadline calls for a flag (or the group's ceiling, already told): its note is
                        // the message, and the deadlines read the carta and its meeting alone
                        // (`carta_deadlines`), so they are worked out again with texts without every rule's text. The
                        // outcomes' texts are not read: none else is violated, and the carta, its group and its
                        // meeting have no open flag (else it was judged with texts).
                        let deadlines = facts.carta_deadlines(basis, c, as_of)?;
                        break (judged.0, deadlines);
                    }
                    continue;
                }
                break judged;
            };
            if !live(stage.status()) {
                // A closed carta is not flagged; its chamber meeting still owes its result (FCO-72H-RESULT).
                let why = Explanation::from(format!("the carta is {stage:?} on {as_of}"));
                let (theirs, result): (Vec<_>, Vec<_>) = deadlines
                    .into_iter()
                    .partition(|d| d.code != code::FCO_72H_RESULT.as_str());
                self.j.closed(SubjectKind::Financing, c.id, &outcomes, &theirs, &why);
                if let (Some(m), Some(d)) = (meeting, result.first()) {
                    self.j.deadline(
                        &self.windows,
                        (SubjectKind::Meeting, m, String::new()),
                        Programme::FcoRural,
                        None,
                        d,
                    );
                }
                if let Some(g) = group.filter(|g| self.j.watches(SubjectKind::Group, *g)) {
                    self.first_closed.entry(g).or_insert(c.id);
                    self.j.say(ceiling_key(g), why.clone());
                }
                self.j.judged += 1;
                continue;
            }
            for o in &outcomes {
                match group {
                    Some(g) if o.code == code::FCO_CEILING.as_str() => {
                        let violated = o.status == Status::Violated;
                        let list = self.ceiling.entry(g).or_default();
                        if violated || list.is_empty() {
                            list.push(CeilingOutcome {
                                id: c.id,
                                number: c.number.clone(),
                                violated,
                                legal_basis: o.legal_basis,
                                explanation: o.explanation.clone(),
                            });
                        }
                    }
                    // A rule met (or pending) of a carta without an open flag says nothing: not looked up again for
                    // each of its two dozen outcomes.
                    _ if !own && o.status != Status::Violated => {}
                    _ => self
                        .j
                        .outcome((SubjectKind::Financing, c.id), Programme::FcoRural, Some(c.id), o),
                }
            }
            for d in &deadlines {
                if d.code == code::FCO_VALIDITY_120D.as_str() && stage != FcoCartaStage::Approved {
                    // The 120 days run for an approved carta only; contracted or expired, it is settled.
                    if self.j.watches(SubjectKind::Financing, c.id) {
                        self.j.say(
                            (SubjectKind::Financing, c.id, d.code.to_owned(), String::new()),
                            d.note.clone(),
                        );
                    }
                    continue;
                }
                let subject = if d.code == code::FCO_72H_RESULT.as_str() {
                    let Some(m) = meeting else { continue };
                    ((SubjectKind::Meeting, m, String::new()), None)
                } else {
                    ((SubjectKind::Financing, c.id, String::new()), Some(c.id))
                };
                self.j
                    .deadline(&self.windows, subject.0, Programme::FcoRural, subject.1, d);
                if d.code == code::FCO_VALIDITY_120D.as_str()
                    && self
                        .j
                        .wants(&(SubjectKind::Financing, c.id, d.code.to_owned(), String::new()))
                {
                    self.j.numbers.insert(c.id, c.number.clone());
                }
            }
            self.j.judged += 1;
        }
        Ok(())
    }
}
