//! FCO-CEILING in the pass: one flag per economic group, listing its cartas over the ceiling.

use super::{Finding, Key, Result, judgement::Judgement, reads::first_closed_by_borrower};
use crate::flags::write::FlagText;
use chrono::NaiveDate;
use entity::{
    compliance_flag::SubjectKind,
    fco_carta,
    rules::{Explanation, FxMap, FxSet, code},
    vocab::Programme,
};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, StreamTrait};
use std::borrow::Cow;

/// The account of a group's flag that is resolved is that of the group's first closed carta (the least id), when it
/// has one, as its closed cartas say in the batches ([`CartaJudge::batch`], `first_closed`); else its first carta's
/// FCO-CEILING outcome ([`group_ceiling`]). The batches read only the closed cartas with a meeting, an act after the
/// day or an open flag of their own ([`in_batches`]): the first of the others is looked up here, for the groups whose
/// flag is resolved only, by their borrowers, rather than for every flagged group before the batches (a scan of every
/// closed carta on each pass, for groups whose flags stay open).
pub(super) async fn explain_closed_groups(
    db: &(impl ConnectionTrait + StreamTrait),
    j: &mut Judgement,
    groups: &FxMap<i64, i64>,
    first_closed: &FxMap<i64, i64>,
    as_of: NaiveDate,
) -> Result<()> {
    use fco_carta::Column as C;
    let resolved: FxSet<i64> = j
        .watched_ids(SubjectKind::Group)
        .filter(|g| {
            let key = ceiling_key(*g);
            j.open.contains_key(&key) && !j.wants(&key)
        })
        .collect();
    if resolved.is_empty() {
        return Ok(());
    }
    let mut parties: Vec<i64> = groups
        .iter()
        .filter(|(_, g)| resolved.contains(*g))
        .map(|(p, _)| *p)
        .collect();
    parties.sort_unstable();
    let mut first: FxMap<i64, i64> = FxMap::default();
    for (party, id) in first_closed_by_borrower(db, as_of, &parties).await? {
        if let Some(g) = groups.get(&party).filter(|g| resolved.contains(*g)) {
            first.entry(*g).and_modify(|f| *f = (*f).min(id)).or_insert(id);
        }
    }
    // Those before the first closed carta the batches judged of the group, if any.
    let mut ids: Vec<i64> = first
        .iter()
        .filter(|(g, id)| first_closed.get(*g).is_none_or(|first| *id < first))
        .map(|(_, id)| *id)
        .collect();
    ids.sort_unstable();
    for chunk in ids.chunks(5000) {
        let cartas =
            crate::positional::all(fco_carta::Entity::find().filter(C::Id.is_in(chunk.iter().copied())), db).await?;
        for c in cartas {
            if let Some(g) = groups.get(&c.party_id).copied() {
                // No act of these is dated after the day (`first_closed_by_borrower`): the stored cycle is in force.
                let why = format!(
                    "the carta is {:?} on {as_of}",
                    fco_carta::JudgedCarta::from(c).known_on(&[], &[], as_of).stage
                );
                j.explanations.insert(ceiling_key(g), why.into());
            }
        }
    }
    Ok(())
}

/// A carta's FCO-CEILING outcome, kept for its group's flag.
#[derive(Debug)]
pub(super) struct CeilingOutcome {
    pub(super) id: i64,
    pub(super) number: String,
    pub(super) violated: bool,
    pub(super) legal_basis: &'static str,
    pub(super) explanation: Explanation,
}

/// The identity of a group's FCO-CEILING flag.
pub(super) fn ceiling_key(group: i64) -> Key {
    (
        SubjectKind::Group,
        group,
        code::FCO_CEILING.as_str().to_owned(),
        String::new(),
    )
}

/// FCO-CEILING on a group: one flag listing every carta of the group over the ceiling.
pub(super) fn group_ceiling(j: &mut Judgement, group: i64, judged: &[CeilingOutcome]) {
    let key = ceiling_key(group);
    let over: Vec<&CeilingOutcome> = judged.iter().filter(|o| o.violated).collect();
    let Some(first) = over.first() else {
        if let Some(o) = judged.first() {
            j.say(key, o.explanation.clone());
        }
        return;
    };
    let numbers: Vec<&str> = over.iter().map(|o| o.number.as_str()).collect();
    let message = Explanation::message("flag-group-ceiling")
        .arg("cartas", numbers.join(", "))
        .arg("first", &first.number)
        .nested("why", first.explanation.clone());
    let ids: Vec<String> = over.iter().map(|o| o.id.to_string()).collect();
    j.want(
        key,
        Finding {
            programme: Programme::FcoRural,
            financing_id: None,
            severity: "VIOLATION",
            due_on: None,
            legal_basis: Cow::Borrowed(first.legal_basis),
            message: FlagText::Said(message),
            fingerprint: Some(format!("VIOLATION|{}|{}", ids.join(","), first.explanation)),
        },
    );
}
