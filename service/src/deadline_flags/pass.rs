//! One pass: the group commitments, the open flags and the parameters read side by side, the projects judged, the
//! cartas read in batches and judged on a thread of their own, then the groups, the banks and the monthly lists.

use super::{
    BATCH, Key, Reach, Result, banks,
    cartas::{CartaJudge, Outflow},
    ceiling::{explain_closed_groups, group_ceiling},
    judgement::{Judgement, Open, Windows, live},
    reads::{Batch, CartaReads, current_groups, open_flags},
};
use crate::{
    ServiceError,
    compliance::{self, Basis, Preloaded},
    parameters,
};
use chrono::NaiveDate;
use entity::{
    compliance_flag::SubjectKind,
    fco_carta,
    rules::{Explanation, FxMap, FxSet, Texts},
    vocab::Programme,
};
use sea_orm::ConnectionTrait;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The open flags a pass watches and the identities a person resolved ([`Outflow::by_person`]), as the caller reads
/// them (once it holds the job's lock, [`run`]).
pub(super) type OpenRead<'a> = futures::future::BoxFuture<'a, Result<(FxMap<Key, Open>, FxSet<Key>)>>;

/// Judges what `reach` says as of `as_of`, watching the open flags `open` reads (read here when not given), and hands
/// on each batch's new carta flags to `outflow` when there is one (they are then not in the judgement).
pub(super) async fn judge_pass(
    db: &crate::Db,
    as_of: NaiveDate,
    reach: Reach,
    open: Option<OpenRead<'_>>,
    mut outflow: Option<Outflow>,
) -> Result<Judgement> {
    let everything = reach == Reach::Everything;
    // What the cartas are judged on is read side by side, each mostly the database's work (one after the other they
    // kept a core idle): the group commitments (the flag job's pass reads every committed carta at once; the
    // dashboard's reads no group) beside the open flags, the parameters, the calendar and the current economic group of
    // each borrower in one (the FCO-CEILING flag's subject), after which the projects are judged while the first
    // batches of cartas are read. The group commitments are read by a task of its own: in this one it was interleaved
    // with the projects' judging on one thread.
    let commitments = {
        let db = db.clone();
        crate::Task::spawn(async move {
            if everything {
                crate::facts::GroupCommitments::whole(&db, as_of)
                    .await
                    .map_err(ServiceError::from)
            } else {
                Ok(crate::facts::GroupCommitments::default())
            }
        })
    };
    let front = async {
        let watching = async {
            match open {
                Some(read) => read.await,
                None if everything => Ok((open_flags(db).await?, FxSet::default())),
                None => Ok(Default::default()),
            }
        };
        let groups = async {
            if everything {
                current_groups(db).await
            } else {
                Ok(FxMap::default())
            }
        };
        let (params, calendar, (open, by_person), groups) = futures::try_join!(
            async { parameters::params(db).await.map(Arc::new) },
            async { parameters::calendar(db).await.map(Arc::new) },
            watching,
            groups,
        )?;
        if let Some(outflow) = outflow.as_mut() {
            outflow.by_person = by_person;
        }
        let windows = Arc::new(Windows::on(&params, as_of));
        let mut j = Judgement::watching(open);
        // The first batches of cartas are read while the projects are judged.
        let reads = CartaReads::start(db, everything, as_of, &j).await?;
        let basis = Basis {
            params: &params,
            calendar: &calendar,
            texts: Texts::written_if(everything),
        };
        judge_projects(db, &mut j, basis, &windows, as_of, everything).await?;
        Ok::<_, ServiceError>((params, calendar, windows, j, groups, reads))
    };
    let (commitments, front) = futures::join!(commitments.finish("reading the economic groups' commitments"), front);
    let mut commitments = commitments??;
    let (params, calendar, windows, j, groups, mut reads) = front?;
    // The dashboard's pass counts deadlines and reads no text: none is written. The flag job's pass judges each
    // carta without texts first, and with them when something is to be written about it (see `calls_for_texts`).
    let basis = Basis {
        params: &params,
        calendar: &calendar,
        texts: Texts::written_if(everything),
    };
    // The cartas are judged on a thread of their own while this task reads the next batch: judging and reading
    // (decoding the rows) cost about the same, so they overlap rather than take turns.
    let mut judge = CartaJudge {
        everything,
        as_of,
        params: params.clone(),
        calendar: calendar.clone(),
        windows: windows.clone(),
        groups,
        j,
        ceiling: BTreeMap::new(),
        first_closed: FxMap::default(),
        outflow,
    };
    let (batches, mut to_judge) = tokio::sync::mpsc::channel::<(Vec<fco_carta::JudgedCarta>, Preloaded)>(1);
    // Each batch judged is handed back to be dropped by the reading task: freeing a batch (its cartas' texts, its
    // facts, the groups' commitments no other batch shares), most of it allocated on other threads, was a few
    // percent of the judging thread's time, on the pass's longest path.
    let (judged_back, mut to_drop) = tokio::sync::mpsc::unbounded_channel::<Batch>();
    let judging = crate::Task::spawn_blocking(move || -> Result<CartaJudge> {
        while let Some((cartas, facts)) = to_judge.blocking_recv() {
            judge.batch(&cartas, &facts)?;
            if !judge.send_new_flags(&cartas) {
                // The writing stopped on an error, told by `run`.
                break;
            }
            // Dropped here if the reading task is gone.
            let _ = judged_back.send((cartas, facts));
        }
        judge.outflow = None;
        Ok(judge)
    });
    let read = async {
        while let Some(batch) = reads.next(db).await {
            while let Ok(judged) = to_drop.try_recv() {
                drop(judged);
            }
            let (cartas, facts) = batch?;
            if cartas.is_empty() {
                continue;
            }
            let facts = if everything {
                facts.with_groups(db, &cartas, as_of, &mut commitments).await?
            } else {
                facts
            };
            if batches.send((cartas, facts)).await.is_err() {
                // The judging stopped on an error, told below.
                break;
            }
        }
        Ok::<_, ServiceError>(())
    }
    .await;
    drop(reads);
    drop(batches);
    let judged = judging.finish("judging the cartas").await?;
    drop(to_drop);
    read?;
    let CartaJudge {
        mut j,
        ceiling,
        groups,
        first_closed,
        ..
    } = judged?;
    for (group, judged) in ceiling {
        group_ceiling(&mut j, group, &judged);
    }
    if everything {
        explain_closed_groups(db, &mut j, &groups, &first_closed, as_of).await?;
    }
    banks::judge_banks(db, &mut j, basis, &windows, as_of).await?;
    banks::missing_lists_stay(db, &mut j, as_of).await?;
    Ok(j)
}

/// Judges every social-fuel project into `j` (a closed project without an open flag raises nothing and resolves
/// nothing: its rules are not judged).
pub(super) async fn judge_projects(
    db: &impl ConnectionTrait,
    j: &mut Judgement,
    basis: Basis<'_>,
    windows: &Windows,
    as_of: NaiveDate,
    everything: bool,
) -> Result<()> {
    let mut after = 0i64;
    loop {
        let projects = crate::facts::projects_after(db, after, BATCH).await?;
        let Some(last) = projects.last() else { break };
        after = last.id;
        let facts = if everything {
            Preloaded::projects(db, &projects).await?
        } else {
            Preloaded::default()
        };
        for p in &projects {
            let stage = p.as_known_on(as_of).stage;
            // A closed project without an open flag raises nothing and resolves nothing: its rules are not judged.
            let full = everything && (live(stage.status()) || j.watches(SubjectKind::Financing, p.id));
            let (outcomes, deadlines) = if full {
                compliance::judge_project(&facts, basis, p, as_of).await?
            } else {
                (Vec::new(), compliance::project_deadlines(basis, p, as_of)?)
            };
            if !live(stage.status()) {
                j.closed(
                    SubjectKind::Financing,
                    p.id,
                    &outcomes,
                    &deadlines,
                    &Explanation::from(format!("the project is {stage:?} on {as_of}")),
                );
                j.judged += 1;
                continue;
            }
            let subject = (SubjectKind::Financing, p.id);
            for o in &outcomes {
                j.outcome(subject, Programme::SocialFuel, Some(p.id), o);
            }
            for d in &deadlines {
                let s = (SubjectKind::Financing, p.id, String::new());
                j.deadline(windows, s, Programme::SocialFuel, Some(p.id), d);
            }
            j.judged += 1;
        }
    }
    Ok(())
}
