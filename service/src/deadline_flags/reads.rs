//! What a pass reads: the cartas in batches of ids (several at once), the borrowers' groups, the open flags.

use super::{
    BATCH, DEADLINE_BATCH, Key, Result, SOURCE,
    judgement::{Judgement, Open, live},
};
use crate::compliance::Preloaded;
use chrono::NaiveDate;
use entity::{compliance_flag, compliance_flag::SubjectKind, fco_carta, party, rules::FxMap, vocab::FcoCartaStage};
use futures::StreamExt;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, QueryFilter, QueryOrder, QuerySelect, StreamTrait,
};

/// What a batch read brings: its cartas and their facts but their groups.
pub(super) type Batch = (Vec<fco_carta::JudgedCarta>, Preloaded);

/// The batches of cartas of a pass, each read and decoded by a task of its own on the runtime's workers, [`ahead`] at
/// once and handed on in id order, so that decoding (most of a read's work) does not keep the judging thread
/// waiting. The first are started as soon as the open flags are known, while the projects are judged and the group
/// commitments are read.
pub(super) struct CartaReads {
    everything: bool,
    as_of: NaiveDate,
    /// The ranges of ids not yet started.
    ranges: std::vec::IntoIter<(i64, i64)>,
    /// The financings with an open flag of their own, by id: each batch reads its flagged cartas whatever their
    /// stage.
    flagged: Vec<i64>,
    /// The reads started, in id order.
    started: std::collections::VecDeque<crate::Task<Result<Batch>>>,
}

impl CartaReads {
    /// Starts the first reads of a pass watching the open flags of `j`.
    pub(super) async fn start(db: &crate::Db, everything: bool, as_of: NaiveDate, j: &Judgement) -> Result<Self> {
        let width = match (everything, ConnectionTrait::get_database_backend(db)) {
            (false, DbBackend::Postgres) => DEADLINE_BATCH as i64,
            (false, _) => BATCH as i64,
            (true, DbBackend::Postgres) => POSTGRES_RANGE,
            (true, _) => RANGE,
        };
        let mut flagged: Vec<i64> = j.watched_ids(SubjectKind::Financing).collect();
        flagged.sort_unstable();
        let mut reads = Self {
            everything,
            as_of,
            ranges: id_ranges(db, width).await?.into_iter(),
            flagged,
            started: Default::default(),
        };
        reads.fill(db);
        Ok(reads)
    }

    /// Starts reads until [`ahead`] are under way.
    pub(super) fn fill(&mut self, db: &crate::Db) {
        while self.started.len() < ahead(db) {
            let Some(range) = self.ranges.next() else { return };
            let from = self.flagged.partition_point(|id| *id <= range.0);
            let to = self.flagged.partition_point(|id| *id <= range.1);
            let flagged = self.flagged[from..to].to_vec();
            let (db, everything, as_of) = (db.clone(), self.everything, self.as_of);
            self.started.push_back(crate::Task::spawn(async move {
                carta_batch(&db, everything, as_of, range, &flagged).await
            }));
        }
    }

    /// The next batch in id order, starting the one after.
    pub(super) async fn next(&mut self, db: &crate::Db) -> Option<Result<Batch>> {
        let read = self.started.pop_front()?;
        let batch = read.finish("reading a batch of cartas").await.and_then(|r| r);
        self.fill(db);
        Some(batch)
    }
}

/// Whether the flag pass reads a carta in its batches: one live by its stored stage, or with an act dated after
/// `as_of` (its stage on the day may differ), or on a chamber meeting's agenda (whose result is owed whatever becomes
/// of the carta). The others (drafts, unfavourable and expired cartas) raise nothing: they are read only when they
/// have an open flag of their own, or to say why their group's flag is resolved ([`explain_closed_groups`]).
pub(super) fn in_batches(acts: &fco_carta::Acts, meeting: Option<i64>, as_of: NaiveDate) -> bool {
    live(acts.stage.status()) || acts.after(as_of) || meeting.is_some()
}

/// The stored stages that are not live.
pub(super) fn closed_stages() -> Vec<FcoCartaStage> {
    use sea_orm::Iterable;
    FcoCartaStage::iter().filter(|s| !live(s.status())).collect()
}

/// The cartas [`in_batches`] reads, as a condition the database checks (it may let more through; `in_batches`
/// decides).
pub(super) fn in_batches_sql(as_of: NaiveDate) -> sea_orm::Condition {
    use fco_carta::Column as C;
    sea_orm::Condition::any()
        .add(C::Stage.is_not_in(closed_stages()))
        .add(C::SubmittedOn.gt(as_of))
        .add(C::ReceivedByCouncilAt.is_not_null())
        .add(C::DecidedOn.gt(as_of))
        .add(C::ApprovedOn.gt(as_of))
        .add(C::ContractedOn.gt(as_of))
        .add(C::ExpiredOn.gt(as_of))
        .add(C::ChamberMeetingId.is_not_null())
}

/// The first (least id) of each borrower's closed cartas the batches pass over ([`in_batches`]), of the borrowers in
/// `parties` (by their index, a few thousand a statement), two numbers a carta streamed row by row.
pub(super) async fn first_closed_by_borrower(
    db: &(impl ConnectionTrait + StreamTrait),
    as_of: NaiveDate,
    parties: &[i64],
) -> Result<FxMap<i64, i64>> {
    use fco_carta::Column as C;
    use sea_orm::QueryTrait;
    let backend = ConnectionTrait::get_database_backend(db);
    let closed = || {
        fco_carta::Entity::find()
            .select_only()
            .columns([C::Id, C::PartyId])
            .filter(C::Stage.is_in(closed_stages()))
            .filter(C::ChamberMeetingId.is_null())
            .filter(fco_carta::Acts::none_after_sql(as_of))
    };
    let mut first: FxMap<i64, i64> = FxMap::default();
    for chunk in parties.chunks(5000) {
        let statement = closed().filter(C::PartyId.is_in(chunk.iter().copied())).build(backend);
        let mut rows = std::pin::pin!(db.stream_raw(statement).await?);
        while let Some(row) = rows.next().await {
            let row = row?;
            let (id, party): (i64, i64) = (row.try_get_by_index(0)?, row.try_get_by_index(1)?);
            first.entry(party).and_modify(|f| *f = (*f).min(id)).or_insert(id);
        }
    }
    Ok(first)
}

/// How many ids a batch of the flag pass spans (its cartas are fewer: those [`in_batches`] reads, about half).
pub(super) const RANGE: i64 = 2 * BATCH as i64;

/// [`RANGE`] on PostgreSQL, where each batch costs seven statements (the cartas and six kinds of facts), each a round
/// trip with its parsing, planning and binding on both sides: 20,000 ids a batch, 50 batches on 1M cartas instead of
/// 250. (SQLite's driver holds a batch's rows at several times their decoded size: it keeps [`RANGE`].)
pub(super) const POSTGRES_RANGE: i64 = 20_000;

/// How many batches are read at once, handed on in id order: on PostgreSQL a batch's statements wait on the database
/// more than they work here, so several are in flight on pooled connections. SQLite reads one ahead.
pub(super) fn ahead(db: &impl ConnectionTrait) -> usize {
    if db.get_database_backend() == DbBackend::Postgres {
        4
    } else {
        2
    }
}

/// The carta ids in ranges of `width` (after, upto], from the first to the last (the last range open-ended): the
/// batches of a pass, each read on its own so that several can be read at once.
pub(super) async fn id_ranges(db: &impl ConnectionTrait, width: i64) -> Result<Vec<(i64, i64)>> {
    Ok(match crate::facts::carta_id_bounds(db).await? {
        Some((lo, hi)) => ranges_over(lo, hi, width),
        None => Vec::new(),
    })
}

/// The ids from `lo` to `hi` in ranges of `width` (after, upto], the last one open-ended.
pub(super) fn ranges_over(lo: i64, hi: i64, width: i64) -> Vec<(i64, i64)> {
    let mut ranges = Vec::new();
    let mut after = lo.saturating_sub(1);
    while after < hi {
        let upto = after.saturating_add(width);
        ranges.push((after, if upto >= hi { i64::MAX } else { upto }));
        after = upto;
    }
    ranges
}

/// The cartas with ids in `range` and the facts `judge_within` reads of them (all of them but their groups, or
/// those its deadlines read). The flag pass's batches take in the cartas of the range with an open flag of their own
/// (`flagged`, the flagged financings' ids in the range, in order), whatever their stage: a closed one is judged to
/// say why its flags are resolved (read apart, by the flags' subjects, each would be looked up again).
pub(super) async fn carta_batch(
    db: &impl ConnectionTrait,
    everything: bool,
    as_of: NaiveDate,
    range: (i64, i64),
    flagged: &[i64],
) -> Result<(Vec<fco_carta::JudgedCarta>, Preloaded)> {
    Ok(if everything {
        let read = if flagged.is_empty() {
            in_batches_sql(as_of)
        } else {
            in_batches_sql(as_of).add(fco_carta::Column::Id.is_in(flagged.iter().copied()))
        };
        let mut cartas = crate::facts::cartas_in_range_if(db, range, read).await?;
        // In place: a batch's cartas are a few MiB, and a vector grown by doubling asks the kernel for fresh pages.
        cartas.retain(|c| in_batches(&c.acts(), c.chamber_meeting_id, as_of) || flagged.binary_search(&c.id).is_ok());
        let facts = Preloaded::cartas_but_groups(db, &cartas, as_of).await?;
        (cartas, facts)
    } else {
        // The cartas whose deadlines can call for a flag: those with a chamber meeting (FCO-72H-*) and those
        // approved and not contracted as known on the day (FCO-VALIDITY-120D), that is, approved by then, not
        // contracted by then, and either stored as approved or with an act dated later (`Acts::stage_on`); and
        // those in an earlier approval cycle on the day, whose cycle then may be either.
        use entity::fco_carta_cycle as cycle;
        use fco_carta::Column as C;
        let later = sea_orm::Condition::any()
            .add(C::Stage.eq(FcoCartaStage::Approved))
            .add(C::SubmittedOn.gt(as_of))
            .add(C::DecidedOn.gt(as_of))
            .add(C::ContractedOn.gt(as_of))
            .add(C::ExpiredOn.gt(as_of))
            .add(C::ReceivedByCouncilAt.gte(entity::domain::brasilia_day_end(as_of)));
        let approved = sea_orm::Condition::all()
            .add(C::ApprovedOn.lte(as_of))
            .add(
                sea_orm::Condition::any()
                    .add(C::ContractedOn.is_null())
                    .add(C::ContractedOn.gt(as_of)),
            )
            .add(later);
        let cartas = crate::facts::cartas_in_range_if(
            db,
            range,
            sea_orm::Condition::any()
                .add(approved)
                .add(C::ChamberMeetingId.is_not_null())
                .add(
                    C::Id.in_subquery(
                        sea_orm::sea_query::Query::select()
                            .column(cycle::Column::CartaId)
                            .from(cycle::Entity)
                            .and_where(cycle::Column::ClosedOn.gt(as_of))
                            .to_owned(),
                    ),
                ),
        )
        .await?;
        let facts = Preloaded::meetings(db, &cartas, as_of).await?;
        (cartas, facts)
    })
}

/// The current economic group of every borrower in one: one statement for the pass (it had been one per batch, by
/// the batch's borrowers).
pub(super) async fn current_groups(db: &impl ConnectionTrait) -> Result<FxMap<i64, i64>> {
    let rows: Vec<(i64, Option<i64>)> = party::Entity::find()
        .select_only()
        .column(party::Column::Id)
        .column(party::Column::EconomicGroupId)
        .filter(party::Column::EconomicGroupId.is_not_null())
        .into_tuple()
        .all(db)
        .await?;
    Ok(rows.into_iter().filter_map(|(p, g)| Some((p, g?))).collect())
}

/// How many rows the pass's narrow read of its open flags takes per statement: the driver holds a statement's rows at
/// several times their decoded size, so one statement for every open flag would set the pass's peak memory.
pub(super) const OPEN_PAGE: u64 = 20_000;

/// The job's open flags by identity, narrow: what tells whether a flag changed (its message and legal basis are not
/// read), in pages of [`OPEN_PAGE`] by id.
pub(super) async fn open_flags(db: &impl ConnectionTrait) -> Result<FxMap<Key, Open>> {
    open_flags_within(db, (i64::MIN, i64::MAX)).await
}

/// [`open_flags`] on the pool, in [`ahead`] ranges of ids read at once, so that both cores work while the database
/// answers.
pub(super) async fn open_flags_at_once(db: &crate::Db) -> Result<FxMap<Key, Open>> {
    use compliance_flag::Column as C;
    let bounds: Option<(Option<i64>, Option<i64>)> = compliance_flag::Entity::find()
        .select_only()
        .column_as(C::Id.min(), "lo")
        .column_as(C::Id.max(), "hi")
        .filter(C::Source.eq(SOURCE))
        .filter(C::ResolvedAt.is_null())
        .into_tuple()
        .one(db)
        .await?;
    let Some((Some(lo), Some(hi))) = bounds else {
        return Ok(FxMap::default());
    };
    let width = (hi - lo) / ahead(db) as i64 + 1;
    let reads: Vec<_> = ranges_over(lo, hi, width)
        .into_iter()
        .map(|range| {
            let db = db.clone();
            crate::Task::spawn(async move { open_flags_within(&db, range).await })
        })
        .collect();
    let mut out = FxMap::default();
    for read in reads {
        out.extend(read.finish("reading the open flags").await??);
    }
    Ok(out)
}

/// [`open_flags`] with ids in (after, upto].
pub(super) async fn open_flags_within(
    db: &impl ConnectionTrait,
    (mut after, upto): (i64, i64),
) -> Result<FxMap<Key, Open>> {
    /// Id, subject kind and id, rule, occurrence, severity, due day, fingerprint.
    type OpenRow = (
        i64,
        String,
        i64,
        String,
        String,
        String,
        Option<NaiveDate>,
        Option<String>,
    );
    use compliance_flag::Column as C;
    let mut out = FxMap::default();
    loop {
        let page: Vec<OpenRow> = compliance_flag::Entity::find()
            .select_only()
            .columns([
                C::Id,
                C::SubjectKind,
                C::SubjectId,
                C::RuleCode,
                C::Occurrence,
                C::Severity,
                C::DueOn,
                C::Fingerprint,
            ])
            .filter(C::Source.eq(SOURCE))
            .filter(C::ResolvedAt.is_null())
            .filter(C::Id.gt(after))
            .filter(C::Id.lte(upto))
            .order_by_asc(C::Id)
            .limit(OPEN_PAGE)
            .into_tuple()
            .all(db)
            .await?;
        let read = page.len() as u64;
        for (id, kind, subject, rule, occurrence, severity, due_on, fingerprint) in page {
            after = id;
            if let Some(kind) = SubjectKind::parse(&kind) {
                let open = Open::new(id, &severity, due_on, fingerprint.as_deref());
                out.insert((kind, subject, rule, occurrence), open);
            }
        }
        if read < OPEN_PAGE {
            return Ok(out);
        }
    }
}
