//! The audit log: every mutation, upload, import, key operation, export and refused call, recorded append-only with
//! who, what, to what, when, from where and how it ended; read by the administrator (`fomento audit`,
//! `/exports/audit.csv`).

use crate::{
    Caller, ServiceError,
    access::{Operation, authorize},
};
use chrono::{DateTime, Utc};
use entity::audit_log;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};
use std::{collections::HashMap, sync::Mutex};

/// Where a request came from (the client's address), carried with it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Remote(pub Option<String>);

/// `OK`, `DENIED` (a refusal: `UNAUTHENTICATED`, `FORBIDDEN`) or `ERROR` (any other failure), from an error code.
pub fn outcome_of(code: Option<&str>) -> &'static str {
    match code {
        None => "OK",
        Some("UNAUTHENTICATED" | "FORBIDDEN") => "DENIED",
        Some(_) => "ERROR",
    }
}

/// Records one line. A line that cannot be written is logged as an error, and the request goes on.
pub async fn record(
    db: &impl ConnectionTrait,
    caller: &Caller,
    action: &str,
    target: Option<&str>,
    code: Option<&str>,
    remote: &Remote,
) {
    let line = audit_log::ActiveModel {
        at: Set(Utc::now()),
        actor: Set(caller.actor().chars().take(200).collect()),
        action: Set(action.chars().take(200).collect()),
        target: Set(target.map(|t| t.chars().take(200).collect())),
        outcome: Set(outcome_of(code).to_owned()),
        detail: Set(code.map(str::to_owned)),
        remote: Set(remote.0.as_ref().map(|r| r.chars().take(64).collect())),
        ..Default::default()
    };
    if let Err(e) = line.insert(db).await {
        tracing::error!(error = %e, action, "the audit log could not be written");
    }
}

/// The latest `limit` lines before line `before` (none: the latest), newest first; for the administrator.
pub async fn list(
    db: &impl ConnectionTrait,
    caller: &Caller,
    before: Option<i64>,
    limit: u64,
) -> Result<Vec<audit_log::Model>, ServiceError> {
    authorize(caller, Operation::Administer)?;
    let mut q = audit_log::Entity::find();
    if let Some(b) = before {
        q = q.filter(audit_log::Column::Id.lt(b));
    }
    Ok(q.order_by_desc(audit_log::Column::Id).limit(limit).all(db).await?)
}

/// Which audit lines [`page`] lists; a field not given does not narrow.
#[derive(Debug, Clone, Default)]
pub struct LineFilter {
    /// Only this actor's, as written in the line.
    pub actor: Option<String>,
    /// Only this action (`mutation decideFcoCarta`, `export`).
    pub action: Option<String>,
    /// Only this outcome: `OK`, `DENIED` or `ERROR`.
    pub outcome: Option<String>,
}

/// One keyset page of the audit lines matching `filter`, newest first (or oldest first, as the keyset says); for the
/// administrator.
pub async fn page(
    db: &impl ConnectionTrait,
    caller: &Caller,
    filter: &LineFilter,
    keyset: crate::page::Keyset,
) -> Result<crate::page::Page<audit_log::Model>, ServiceError> {
    authorize(caller, Operation::Administer)?;
    use audit_log::Column as C;
    let mut q = audit_log::Entity::find();
    if let Some(a) = &filter.actor {
        q = q.filter(C::Actor.eq(a.as_str()));
    }
    if let Some(a) = &filter.action {
        q = q.filter(C::Action.eq(a.as_str()));
    }
    if let Some(o) = &filter.outcome {
        q = q.filter(C::Outcome.eq(o.as_str()));
    }
    crate::page::fetch(db, q, C::Id, |l| l.id, keyset).await
}

/// A text of the log as one printable line: control characters (C0, DEL, C1) and the characters that reorder text
/// on screen (bidirectional overrides and isolates) become escapes (`\n`, `\u{202e}`), and a backslash doubles, so a
/// value (a token's subject, a path) cannot forge a line or hide what it says.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    fn plain(c: char) -> bool {
        !(c.is_control()
            || matches!(c, '\\' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
    }
    if text.chars().all(plain) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if plain(c) => out.push(c),
            c => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
        }
    }
    out.into()
}

/// How long a window of refused calls from one address lasts.
pub const REFUSAL_WINDOW_SECONDS: i64 = 60;
/// The most addresses whose refused calls are counted apart; past them, calls from new addresses share one window.
pub const REFUSAL_ADDRESSES: usize = 1024;

/// Calls refused for want of a credential, counted per address per window instead of one line each (a flood of
/// them would otherwise grow the log without bound): the first refusal of an address in a window is written as it
/// comes; when the window ends, one line says how many there were in all. Memory is bounded: at most
/// [`REFUSAL_ADDRESSES`] addresses are tracked, and calls from further addresses count together under "other
/// addresses". Written per window, at most twice the tracked addresses plus two lines per window length.
#[derive(Debug)]
pub struct Refusals {
    window: chrono::Duration,
    capacity: usize,
    open: Mutex<HashMap<Option<String>, Window>>,
}

/// The refused calls of one address in one window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The address (none: the addresses past the tracked ones, or an unknown one).
    pub from: Option<String>,
    /// The first refusal.
    pub start: DateTime<Utc>,
    /// The latest refusal.
    pub end: DateTime<Utc>,
    /// How many calls were refused in it, the first included.
    pub count: u64,
}

/// What one refused call asks to write.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Noted {
    /// Whether it is the first of its window (then it is written as it comes).
    pub first: bool,
    /// The address's previous window, ended, to be summed up.
    pub ended: Option<Window>,
}

impl Default for Refusals {
    fn default() -> Self {
        Self::new(chrono::Duration::seconds(REFUSAL_WINDOW_SECONDS), REFUSAL_ADDRESSES)
    }
}

impl Refusals {
    /// Windows of `window`, at most `capacity` addresses counted apart.
    pub fn new(window: chrono::Duration, capacity: usize) -> Self {
        Self {
            window,
            capacity,
            open: Mutex::default(),
        }
    }

    /// Counts one refused call from `remote` at `now`.
    pub fn note(&self, remote: &Remote, now: DateTime<Utc>) -> Noted {
        let Ok(mut open) = self.open.lock() else {
            return Noted {
                first: true,
                ended: None,
            };
        };
        let key = if open.contains_key(&remote.0) || open.len() < self.capacity {
            remote.0.clone()
        } else {
            None
        };
        let mut noted = Noted::default();
        if let Some(w) = open.get(&key)
            && now >= w.start + self.window
        {
            noted.ended = open.remove(&key);
        }
        let w = open.entry(key.clone()).or_insert_with(|| {
            noted.first = true;
            Window {
                from: key,
                start: now,
                end: now,
                count: 0,
            }
        });
        w.count += 1;
        w.end = w.end.max(now);
        noted
    }

    /// Takes the windows that have ended by `now` (every window when `now` is `None`: at shutdown).
    pub fn take_ended(&self, now: Option<DateTime<Utc>>) -> Vec<Window> {
        let Ok(mut open) = self.open.lock() else {
            return Vec::new();
        };
        let ended: Vec<Option<String>> = open
            .iter()
            .filter(|(_, w)| now.is_none_or(|n| n >= w.start + self.window))
            .map(|(k, _)| k.clone())
            .collect();
        ended.into_iter().filter_map(|k| open.remove(&k)).collect()
    }

    /// Records a call refused for want of a credential: its own line when it is the first from its address in the
    /// window, and the summary of the address's window that has just ended.
    pub async fn refused(&self, db: &impl ConnectionTrait, action: &str, remote: &Remote, now: DateTime<Utc>) {
        let noted = self.note(remote, now);
        if let Some(w) = noted.ended {
            summarise(db, &w).await;
        }
        if noted.first {
            record(db, &Caller::Anonymous, action, None, Some("UNAUTHENTICATED"), remote).await;
        }
    }

    /// Writes the summaries of the windows ended by `now` (of every window when `now` is `None`).
    pub async fn flush(&self, db: &impl ConnectionTrait, now: Option<DateTime<Utc>>) {
        for w in self.take_ended(now) {
            summarise(db, &w).await;
        }
    }
}

/// One line for a window of refused calls, when more than its first one (already written) was refused.
async fn summarise(db: &impl ConnectionTrait, w: &Window) {
    if w.count < 2 {
        return;
    }
    let from = match &w.from {
        Some(a) => a.clone(),
        None => "outros endereços".to_owned(),
    };
    let text = crate::messages::Message::new(crate::messages::code::AUDIT_REFUSALS)
        .arg("count", w.count)
        .arg("from", from)
        .arg("start", w.start.format("%Y-%m-%d %H:%M:%S"))
        .arg("end", w.end.format("%Y-%m-%d %H:%M:%S"))
        .render(crate::messages::Lang::PtBr);
    record(
        db,
        &Caller::Anonymous,
        &text,
        None,
        Some("UNAUTHENTICATED"),
        &Remote(w.from.clone()),
    )
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + seconds, 0).unwrap_or_default()
    }

    fn from(a: &str) -> Remote {
        Remote(Some(a.to_owned()))
    }

    #[test]
    fn the_first_refusal_of_a_window_is_written_and_the_rest_counted_until_it_ends() {
        let r = Refusals::new(chrono::Duration::seconds(60), 8);
        assert_eq!(
            r.note(&from("203.0.113.9"), at(0)),
            Noted {
                first: true,
                ended: None
            }
        );
        for s in 1..1000 {
            assert_eq!(
                r.note(&from("203.0.113.9"), at(s % 59)),
                Noted::default(),
                "counted, not written"
            );
        }
        assert!(r.take_ended(Some(at(59))).is_empty(), "the window is still open");
        let next = r.note(&from("203.0.113.9"), at(61));
        assert!(next.first, "a new window starts with a line of its own");
        let ended = next.ended.expect("the ended window");
        assert_eq!((ended.count, ended.start, ended.end), (1000, at(0), at(58)));
        let closed = r.take_ended(Some(at(121)));
        assert_eq!(closed.len(), 1);
        assert_eq!(closed[0].count, 1);
    }

    #[test]
    fn addresses_past_the_tracked_ones_share_one_window() {
        let r = Refusals::new(chrono::Duration::seconds(60), 2);
        let firsts = (0..100)
            .filter(|i| r.note(&from(&format!("198.51.100.{i}")), at(1)).first)
            .count();
        assert_eq!(firsts, 3, "two addresses apart and one window for the rest");
        let mut all = r.take_ended(None);
        all.sort_by_key(|w| w.count);
        assert_eq!(all.iter().map(|w| w.count).collect::<Vec<_>>(), [1, 1, 98]);
        assert_eq!(all[2].from, None);
    }

    #[test]
    fn printable_text_cannot_forge_a_line_or_reorder_itself() {
        assert_eq!(printable("ana@mda.gov.br"), "ana@mda.gov.br");
        assert_eq!(
            printable("x\n   42  2026-12-05 10:00:00  OK  admin"),
            "x\\n   42  2026-12-05 10:00:00  OK  admin"
        );
        assert_eq!(printable("a\r\tb\u{1b}[2J\u{85}"), "a\\r\\tb\\u{1b}[2J\\u{85}");
        assert_eq!(printable("evil\u{202e}gpj.exe"), "evil\\u{202e}gpj.exe");
        assert_eq!(
            printable("a\\nb"),
            "a\\\\nb",
            "a backslash written is told from an escape"
        );
    }
}
